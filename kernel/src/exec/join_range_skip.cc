#include "src/exec/join_range_skip.h"

#include <algorithm>

namespace laneql {
namespace exec {

bool JoinRangeSkip::Add(const Column& column, int64_t min, int64_t max) {
  internal::ZoneMap* zones = column.Zones();  // null for types without zone maps
  if (zones == nullptr) return false;
  auto skip = std::make_unique<Skip>();
  skip->column = &column;
  skip->test.zones = zones;
  skip->test.fn = plan::Fn::kBetween;
  skip->test.low = min;   // integer keys: the values themselves
  skip->test.high = max;
  skips_.push_back(std::move(skip));
  return true;
}

bool JoinRangeSkip::RuledOut(size_t block) {
  for (const std::unique_ptr<Skip>& skip : skips_) {
    const uint64_t judged = skip->judged.load(std::memory_order_relaxed);
    if (judged >= kZoneTrialBlocks && skip->ruled_out.load(std::memory_order_relaxed) == 0) continue;
    skip->judged.fetch_add(1, std::memory_order_relaxed);
    const internal::Zone zone = skip->test.zones->Get(*skip->column, block);
    if (JudgeZone(skip->test, zone) == ZoneVerdict::kNone) {
      skip->ruled_out.fetch_add(1, std::memory_order_relaxed);
      return true;
    }
  }
  return false;
}

size_t JoinRangeSkip::Trim(const ChainInput& in, size_t* begin, size_t* end) {
  const size_t rows = *end - *begin;
  // The physical row of pipeline row r, and the first pipeline row at or past a physical row.
  const auto physical = [&](size_t r) { return in.all ? r : static_cast<size_t>(in.selection[r]); };
  const auto first_at = [&](size_t row) {
    if (in.all) return row;
    return static_cast<size_t>(std::lower_bound(in.selection.begin(), in.selection.end(), row) - in.selection.begin());
  };
  while (*begin < *end) {
    const size_t block = physical(*begin) / internal::kZoneRows;
    if (!RuledOut(block)) break;
    const size_t next = first_at((block + 1) * internal::kZoneRows);
    if (next >= *end) {  // all ruled out: *begin stays where it was (on a mask word)
      *end = *begin;
      break;
    }
    *begin = next;
  }
  while (*begin < *end) {
    const size_t block = physical(*end - 1) / internal::kZoneRows;
    if (!RuledOut(block)) break;
    *end = std::max(*begin, first_at(block * internal::kZoneRows));
  }
  return rows - (*end - *begin);
}

}  // namespace exec
}  // namespace laneql
