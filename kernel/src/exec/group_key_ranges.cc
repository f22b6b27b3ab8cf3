// GROUP BY a key stored in ascending order (see group_key_ranges.h).
#include "src/exec/group_key_ranges.h"

#include <algorithm>
#include <cstdint>

#include "laneql/table.h"
#include "src/exec/executor.h"
#include "src/storage/zone_map.h"

namespace laneql {
namespace exec {

namespace {

static_assert(kBatchRows % internal::kZoneRows == 0, "a batch is whole zone blocks");

// Each batch's smallest and largest key (order keys), when the column's blocks ascend and hold
// no NULL; false otherwise. Stops at the first block out of order, so an unsorted column costs
// little more than its first blocks' zones.
bool AscendingBatchRanges(const Column& column, size_t rows, size_t batches, std::vector<int64_t>* lows,
                          std::vector<int64_t>* highs) {
  if (column.null_count() != 0) return false;  // NULL keys form one group wherever they are
  internal::ZoneMap* zones = column.Zones();   // null for types without zone maps
  if (zones == nullptr) return false;
  const size_t blocks = (rows + internal::kZoneRows - 1) / internal::kZoneRows;
  if (zones->blocks() < blocks) return false;
  constexpr size_t kBlocksPerBatch = kBatchRows / internal::kZoneRows;
  lows->assign(batches, 0);
  highs->assign(batches, 0);
  int64_t last_max = INT64_MIN;
  for (size_t k = 0; k < blocks; ++k) {
    const internal::Zone zone = zones->Get(column, k);
    if (!zone.any_value || zone.any_null || zone.min < last_max) return false;
    last_max = zone.max;
    const size_t b = k / kBlocksPerBatch;
    if (b >= batches) return false;
    if (k % kBlocksPerBatch == 0) (*lows)[b] = zone.min;
    (*highs)[b] = zone.max;
  }
  return true;
}

// The batches where a segment starts: each batch whose smallest key is above the largest key of
// the batch before.
std::vector<size_t> SegmentStarts(const std::vector<int64_t>& lows, const std::vector<int64_t>& highs) {
  std::vector<size_t> starts{0};
  for (size_t b = 1; b < lows.size(); ++b) {
    if (highs[b - 1] < lows[b]) starts.push_back(b);
  }
  starts.push_back(lows.size());
  return starts;
}

}  // namespace

std::vector<size_t> KeyDisjointSegments(const plan::Plan& plan, size_t batches, int threads) {
  const size_t n = static_cast<size_t>(std::max(threads, 1));
  if (threads < 2 || batches < kMinSegmentsPerThread * n || plan.table == nullptr) return {};
  const Table& table = *plan.table;
  for (const plan::BoundExprPtr& key : plan.group_keys) {
    if (key->kind != plan::BoundKind::kColumn || key->column < 0) continue;
    std::vector<int64_t> lows, highs;
    if (!AscendingBatchRanges(table.column(static_cast<size_t>(key->column)), table.num_rows(), batches, &lows,
                              &highs)) {
      continue;
    }
    std::vector<size_t> starts = SegmentStarts(lows, highs);
    const size_t segments = starts.size() - 1;
    size_t longest = 0;
    for (size_t i = 0; i < segments; ++i) longest = std::max(longest, starts[i + 1] - starts[i]);
    if (segments >= kMinSegmentsPerThread * n && longest <= batches / n) return starts;
  }
  return {};
}

}  // namespace exec
}  // namespace laneql
