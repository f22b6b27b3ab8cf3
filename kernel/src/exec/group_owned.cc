// The owned scan's sample and its merge (see group_owned.h).
#include "src/exec/group_owned.h"

#include <algorithm>
#include <numeric>

#include "src/exec/executor.h"

namespace laneql {
namespace exec {

namespace {

// Batches sampled (each kBatchRows rows), and the fewest sampled rows (after the filter) on
// which a decision is taken: a selective filter leaves few rows, and few rows few groups.
constexpr size_t kSampleBatches = 4;
constexpr size_t kMinSampleRows = 8192;

}  // namespace

bool PreferOwnedScan(const plan::Plan& plan, const ExecContext& ctx, int threads,
                     size_t batches, const AggregateWorker& worker) {
  constexpr int kRows = 1, kKeys = 2;  // ExecContext::group_split
  if (ctx.group_split == kRows || threads < 2 || threads > kMaxOwners ||
      !worker.grouper().CanMergeByPartition()) {
    return false;
  }
  if (ctx.group_split == kKeys) return true;
  if (batches < 8 * kSampleBatches) return false;
  AggregateWorker sample(plan, 0, nullptr);
  std::string error;
  if (!sample.Init(0, false, nullptr, ctx.small_key_lookup, &error)) return false;
  for (size_t k = 0; k < kSampleBatches; ++k) {
    const size_t batch = (2 * k + 1) * batches / (2 * kSampleBatches);
    if (!sample.ScanBatches(batch, batch + 1, &error)) return false;
  }
  const size_t rows = sample.counters().probes;
  return rows >= kMinSampleRows && 2 * sample.groups() >= rows;
}

bool MergeOwnedWorkers(const std::vector<std::unique_ptr<AggregateWorker>>& workers,
                       const ExecContext& ctx, int threads, std::string* error) {
  const size_t sources = workers.size();
  std::vector<size_t> offsets(sources + 1, 0);
  for (size_t w = 0; w < sources; ++w) offsets[w + 1] = offsets[w] + workers[w]->groups();
  const size_t groups = offsets.back();
  AggregateStates merged(workers[0]->plan().aggregates, false);
  if (!merged.Resize(groups, error)) return false;
  const bool track_first_rows = workers[0]->tracks_first_rows();
  std::vector<uint64_t> first_rows(track_first_rows ? groups : 0);
  // Worker w's groups land in [offsets[w], offsets[w + 1]): disjoint, so each thread copies
  // whole workers without locks.
  RunThreads(ctx, threads, [&](int t) {
    for (size_t w = static_cast<size_t>(t); w < sources; w += static_cast<size_t>(threads)) {
      ScopedSpan span(ctx.profiler, t, "merge states", "merge");
      const AggregateWorker& worker = *workers[w];
      const size_t n = worker.groups();
      std::vector<uint32_t> targets(n);
      std::iota(targets.begin(), targets.end(), static_cast<uint32_t>(offsets[w]));
      merged.MergeRange(worker.states(), 0, n, targets.data(), /*distinct_counts=*/true);
      if (track_first_rows) {
        const std::vector<uint64_t>& firsts = worker.first_rows();
        std::copy(firsts.begin(), firsts.begin() + static_cast<std::ptrdiff_t>(std::min(n, firsts.size())),
                  first_rows.begin() + static_cast<std::ptrdiff_t>(offsets[w]));
      }
      span.counters().rows = n;
    }
  });
  std::vector<std::unique_ptr<Grouper>> parts;
  for (const auto& worker : workers) parts.push_back(worker->TakeGrouper());
  workers[0]->AdoptMerged(std::move(parts), std::move(merged), std::move(first_rows));
  return true;
}

}  // namespace exec
}  // namespace laneql
