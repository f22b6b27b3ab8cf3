// The serial and the two-level merge of per-thread aggregation states (see group_merge.h).
#include "src/exec/group_merge.h"

#include <algorithm>
#include <atomic>
#include <numeric>

#include "src/exec/morsel.h"

namespace laneql {
namespace exec {

namespace {

// Bits 32..39: the tables use the low bits for the slot and the top 7 for the tag, so a
// partition's groups still spread over a partition table's slots and tags.
size_t PartitionOf(uint64_t hash) { return (hash >> 32) & (kMergePartitions - 1); }

// One thread's groups in partition order. alignas(64): each is filled by its own task.
struct alignas(64) Converted {
  std::vector<uint32_t> groups;  // group ids, partition by partition
  std::vector<size_t> begin;     // kMergePartitions + 1 offsets into groups
  std::vector<uint32_t> targets;  // final group id per group id
  // Per aggregate: COUNT(DISTINCT) pair indices by partition, and their offsets.
  std::vector<std::vector<uint32_t>> pairs;
  std::vector<std::vector<size_t>> pair_begin;
};
static_assert(alignof(Converted) == 64, "each convert task writes its own cache lines");

// 0, 1, ..., n - 1: the ids of a table whose groups keep theirs in the merge (thread 0's).
std::vector<uint32_t> SameIds(size_t n) {
  std::vector<uint32_t> ids(n);
  std::iota(ids.begin(), ids.end(), 0u);
  return ids;
}

// Counting sort of `n` items into partitions: order (items by partition) and begin offsets.
template <class PartitionFn>
void SortByPartition(size_t n, const PartitionFn& partition, std::vector<uint32_t>* order,
                     std::vector<size_t>* begin) {
  begin->assign(kMergePartitions + 1, 0);
  for (size_t i = 0; i < n; ++i) ++(*begin)[partition(i) + 1];
  for (size_t p = 0; p < kMergePartitions; ++p) (*begin)[p + 1] += (*begin)[p];
  std::vector<size_t> next(begin->begin(), begin->end() - 1);
  order->resize(n);
  for (size_t i = 0; i < n; ++i) (*order)[next[partition(i)]++] = static_cast<uint32_t>(i);
}

// Up to this many threads' sets, an ungrouped COUNT(DISTINCT)'s union is counted by lookups:
// |S0| + the values of S1 not in S0 + those of S2 in neither S0 nor S1, and so on, in ranges
// of kLookupRange values spread over the threads. Two sets take |S1| lookups in a table that
// exists already, where the partitioned union inserts |S0| + |S1| values into new tables after
// a pass that sorts both by partition (COUNT(DISTINCT SearchPhrase), 10 M rows, 2 threads: 36
// of 173 ms). Each later set is looked up in every set before it, so the lookups grow with the
// square of the threads: from 5 threads the partitioned union is used.
constexpr size_t kLookupUnionMaxSets = 4;
constexpr size_t kLookupRange = 8192;

// The items of every worker but the first (items_of(w) each) in ranges of kLookupRange: the
// lookups' tasks.
struct LookupRange {
  size_t worker, begin, end;
};
template <class ItemsOf>
std::vector<LookupRange> LaterWorkersRanges(size_t workers, const ItemsOf& items_of) {
  std::vector<LookupRange> ranges;
  for (size_t w = 1; w < workers; ++w) {
    const size_t n = items_of(w);
    for (size_t begin = 0; begin < n; begin += kLookupRange) {
      ranges.push_back(LookupRange{w, begin, std::min(n, begin + kLookupRange)});
    }
  }
  return ranges;
}

// The distinct count of aggregate a over every worker's set, by lookups (above).
bool CountUnionByLookups(const std::vector<std::unique_ptr<AggregateWorker>>& workers,
                         const ExecContext& ctx, int threads, size_t a, size_t* count,
                         std::string* error) {
  const std::vector<LookupRange> ranges =
      LaterWorkersRanges(workers.size(), [&](size_t w) { return workers[w]->states().DistinctValues(a); });
  std::vector<size_t> counts(ranges.size(), 0);
  if (!RunTasks(ctx, threads, ranges.size(), [&](size_t k, int t, std::string*) {
        ScopedSpan span(ctx.profiler, t, "merge distinct", "merge");
        const LookupRange& range = ranges[k];
        std::vector<const AggregateStates*> earlier;
        for (size_t u = 0; u < range.worker; ++u) earlier.push_back(&workers[u]->states());
        counts[k] = workers[range.worker]->states().CountValuesNotIn(a, range.begin, range.end, earlier);
        span.counters().rows = range.end - range.begin;
        span.counters().probes = (range.end - range.begin) * range.worker;
        return true;
      }, error)) {
    return false;
  }
  *count = workers[0]->states().DistinctValues(a);
  for (size_t n : counts) *count += n;
  return true;
}

// Few groups with a large grouped COUNT(DISTINCT) (MobilePhoneModel, COUNT(DISTINCT UserID)):
// the merge into thread 0's groups leaves the (group, value) pairs out, and each later thread's
// pairs are then looked up in the earlier threads' sets in ranges spread over the threads, each
// new pair counting for its group in a per-thread count. Inserting them into thread 0's set was
// a serial step of 4.3 ms in a 40 ms query on 2 threads (10 M rows, 150,000 pairs per thread).
// Up to kLookupUnionMaxSets threads, as the ungrouped union; from this many pairs on.
constexpr size_t kLookupMinPairs = 16384;

// The grouped COUNT(DISTINCT)s that need their pairs merged (not split by value): all of them
// when their later threads' pairs together reach kLookupMinPairs, else none. Never some: the
// merge that leaves the pairs to the lookups (MergeLeavingPairs) leaves out every COUNT(
// DISTINCT)'s, so a small one beside a large one kept only thread 0's pairs and undercounted.
std::vector<size_t> PairAggregates(const std::vector<std::unique_ptr<AggregateWorker>>& workers) {
  std::vector<size_t> aggregates;
  size_t later_pairs = 0;
  const AggregateStates& states = workers[0]->states();
  for (size_t a = 0; a < states.num_aggregates(); ++a) {
    if (!states.IsDistinctPairs(a)) continue;
    aggregates.push_back(a);
    for (size_t w = 1; w < workers.size(); ++w) later_pairs += workers[w]->states().DistinctPairs(a);
  }
  if (later_pairs < kLookupMinPairs) aggregates.clear();
  return aggregates;
}

bool MergeSerially(const std::vector<std::unique_ptr<AggregateWorker>>& workers,
                   const ExecContext& ctx, int threads, std::string* error,
                   std::vector<std::vector<uint32_t>>* targets) {
  const std::vector<size_t> pair_aggregates =
      workers.size() <= kLookupUnionMaxSets && !workers[0]->ungrouped() && !workers[0]->states().pairs_disjoint()
          ? PairAggregates(workers)
          : std::vector<size_t>();
  const size_t groups_before = workers[0]->groups();
  std::vector<std::vector<uint32_t>> mappings(workers.size());
  {
    ScopedSpan span(ctx.profiler, 0, "merge", "merge");
    for (size_t t = 1; t < workers.size(); ++t) {
      if (!(pair_aggregates.empty() ? workers[0]->Merge(*workers[t], error, &mappings[t])
                                    : workers[0]->MergeLeavingPairs(*workers[t], &mappings[t], error))) {
        return false;
      }
      span.counters().rows += workers[t]->groups();
    }
  }
  if (targets != nullptr) {
    targets->assign(1, SameIds(groups_before));
    targets->insert(targets->end(), mappings.begin() + 1, mappings.end());
  }
  if (pair_aggregates.empty()) return true;
  // Each thread's group for a merged group id: thread 0's are the first ones; the others' from
  // their mappings, inverted.
  const size_t groups = workers[0]->groups();
  std::vector<std::vector<uint32_t>> local(workers.size());
  local[0] = SameIds(groups_before);
  for (size_t w = 1; w < workers.size(); ++w) {
    local[w].assign(groups, kNoGroup);
    for (size_t g = 0; g < mappings[w].size(); ++g) local[w][mappings[w][g]] = static_cast<uint32_t>(g);
  }
  for (size_t a : pair_aggregates) {
    const std::vector<LookupRange> ranges =
        LaterWorkersRanges(workers.size(), [&](size_t w) { return workers[w]->states().DistinctPairs(a); });
    std::vector<std::vector<int64_t>> counts(static_cast<size_t>(threads), std::vector<int64_t>(groups, 0));
    if (!RunTasks(ctx, threads, ranges.size(), [&](size_t k, int t, std::string*) {
          ScopedSpan span(ctx.profiler, t, "merge distinct", "merge");
          const LookupRange& range = ranges[k];
          std::vector<AggregateStates::PairLookup> earlier;
          for (size_t u = 0; u < range.worker; ++u) {
            earlier.push_back(AggregateStates::PairLookup{&workers[u]->states(), local[u].data(), local[u].size()});
          }
          workers[range.worker]->states().CountPairsNotIn(a, range.begin, range.end, mappings[range.worker].data(),
                                                           earlier, counts[static_cast<size_t>(t)].data());
          span.counters().rows = range.end - range.begin;
          span.counters().probes = (range.end - range.begin) * range.worker;
          return true;
        }, error)) {
      return false;
    }
    for (const auto& per_thread : counts) workers[0]->states().AddCounts(a, per_thread.data(), groups);
  }
  return true;
}

// Ungrouped with large COUNT(DISTINCT) sets: the other aggregates fold into thread 0's (one
// group each). Each distinct count is that of the union of the threads' sets: by lookups for
// a few threads (above), else every set is split by value hash into partitions, and the
// partitions' unions are counted in parallel: the count is their sum.
bool MergeUngroupedDistinct(const std::vector<std::unique_ptr<AggregateWorker>>& workers,
                            const ExecContext& ctx, int threads, std::string* error) {
  AggregateStates& result = workers[0]->states();
  {
    ScopedSpan span(ctx.profiler, 0, "merge", "merge");
    const uint32_t zero = 0;
    for (size_t w = 1; w < workers.size(); ++w) result.MergeRange(workers[w]->states(), 0, 1, &zero);
  }
  for (size_t a = 0; a < result.num_aggregates(); ++a) {
    if (!result.IsDistinctValues(a)) continue;
    if (workers.size() <= kLookupUnionMaxSets) {
      size_t count = 0;
      if (!CountUnionByLookups(workers, ctx, threads, a, &count, error)) return false;
      result.SetDistinctCount(a, count);
      continue;
    }
    std::vector<std::vector<uint32_t>> items(workers.size());
    std::vector<std::vector<size_t>> begin(workers.size());
    if (!RunTasks(ctx, threads, workers.size(), [&](size_t w, int t, std::string*) {
          ScopedSpan span(ctx.profiler, t, "convert", "convert");
          const AggregateStates& states = workers[w]->states();
          const uint64_t* hashes = states.DistinctValueHashes(a);
          SortByPartition(states.DistinctValues(a), [&](size_t i) { return PartitionOf(hashes[i]); },
                          &items[w], &begin[w]);
          span.counters().rows = states.DistinctValues(a);
          return true;
        }, error)) {
      return false;
    }
    std::vector<size_t> counts(kMergePartitions, 0);
    if (!RunTasks(ctx, threads, kMergePartitions, [&](size_t p, int t, std::string* task_error) {
          ScopedSpan span(ctx.profiler, t, "merge distinct", "merge");
          std::vector<AggregateStates::ValueSource> sources;
          for (size_t w = 0; w < workers.size(); ++w) {
            sources.push_back(AggregateStates::ValueSource{&workers[w]->states(), items[w].data() + begin[w][p],
                                                           begin[w][p + 1] - begin[w][p]});
            span.counters().probes += sources.back().n;
          }
          return AggregateStates::CountDistinctUnion(a, sources, &counts[p], task_error);
        }, error)) {
      return false;
    }
    size_t total = 0;
    for (size_t count : counts) total += count;
    result.SetDistinctCount(a, total);
  }
  return true;
}

}  // namespace

bool MergeWorkers(const std::vector<std::unique_ptr<AggregateWorker>>& workers,
                  const ExecContext& ctx, int threads, std::string* error,
                  std::vector<std::vector<uint32_t>>* targets) {
  if (workers.size() <= 1) {
    if (targets != nullptr) targets->assign(1, SameIds(workers[0]->groups()));
    return true;
  }
  if (workers[0]->ungrouped()) {
    size_t distinct_values = 0;
    const AggregateStates& states = workers[0]->states();
    for (size_t a = 0; a < states.num_aggregates(); ++a) {
      if (!states.IsDistinctValues(a)) continue;
      for (const auto& worker : workers) distinct_values += worker->states().DistinctValues(a);
    }
    if (distinct_values == 0 || distinct_values < ctx.two_level_min_groups) {
      return MergeSerially(workers, ctx, threads, error, nullptr);
    }
    return MergeUngroupedDistinct(workers, ctx, threads, error);
  }
  size_t total = 0;
  bool partitionable = true;
  for (const auto& worker : workers) {
    total += worker->groups();
    partitionable &= worker->grouper().CanMergeByPartition();
  }
  if (!partitionable || total < ctx.two_level_min_groups) return MergeSerially(workers, ctx, threads, error, targets);

  const size_t sources = workers.size();
  const size_t aggregates = workers[0]->states().num_aggregates();
  std::vector<Converted> converted(sources);
  // 1. Convert: each thread's groups (and distinct pairs) sorted by partition.
  if (!RunTasks(ctx, threads, sources, [&](size_t w, int t, std::string*) {
        ScopedSpan span(ctx.profiler, t, "convert", "convert");
        const AggregateWorker& worker = *workers[w];
        const uint64_t* hashes = worker.grouper().grouper().GroupHashes();
        Converted& c = converted[w];
        SortByPartition(worker.groups(), [&](size_t g) { return PartitionOf(hashes[g]); }, &c.groups, &c.begin);
        c.targets.assign(worker.groups(), 0);
        c.pairs.resize(aggregates);
        c.pair_begin.resize(aggregates);
        const AggregateStates& states = worker.states();
        for (size_t a = 0; a < aggregates; ++a) {
          if (!states.IsDistinctPairs(a)) continue;
          SortByPartition(states.DistinctPairs(a),
                          [&](size_t p) { return PartitionOf(hashes[states.DistinctPairGroup(a, p)]); },
                          &c.pairs[a], &c.pair_begin[a]);
        }
        span.counters().rows = worker.groups();
        return true;
      }, error)) {
    return false;
  }
  // 2. Merge keys: partition p's groups of every thread into one table.
  std::vector<std::unique_ptr<Grouper>> parts(kMergePartitions);
  if (!RunTasks(ctx, threads, kMergePartitions, [&](size_t p, int t, std::string* task_error) {
        ScopedSpan span(ctx.profiler, t, "merge keys", "merge");
        size_t upper_bound = 0;  // groups of p if no key repeats across threads
        for (const Converted& c : converted) upper_bound += c.begin[p + 1] - c.begin[p];
        if (!workers[0]->grouper().NewGrouper(&parts[p], task_error) ||
            !parts[p]->Reserve(upper_bound, 0, task_error)) {
          return false;
        }
        std::vector<uint32_t> ids;
        for (size_t w = 0; w < sources; ++w) {
          Converted& c = converted[w];
          const size_t n = c.begin[p + 1] - c.begin[p];
          const uint32_t* groups = c.groups.data() + c.begin[p];
          ids.resize(n);
          if (!parts[p]->MergeGroups(workers[w]->grouper().grouper(), groups, n, ids.data(), task_error)) {
            return false;
          }
          for (size_t i = 0; i < n; ++i) c.targets[groups[i]] = ids[i];
          span.counters().probes += n;
        }
        span.counters().rows = parts[p]->size();
        return true;
      }, error)) {
    return false;
  }
  std::vector<size_t> offsets(kMergePartitions + 1, 0);
  for (size_t p = 0; p < kMergePartitions; ++p) offsets[p + 1] = offsets[p] + parts[p]->size();
  const size_t groups = offsets.back();
  const bool track_first_rows = workers[0]->tracks_first_rows();
  AggregateStates merged(workers[0]->plan().aggregates, false);
  for (size_t a = 0; a < aggregates; ++a) {
    if (workers[0]->states().IsPartitionedDistinct(a)) merged.PartitionDistinct(a);  // pairs counted later
  }
  if (!merged.Resize(groups, error)) return false;
  FirstRows first_rows(groups, kNoRow);
  // 3. Final group ids: the partition's offset + the id within the partition.
  if (!RunTasks(ctx, threads, sources, [&](size_t w, int t, std::string*) {
        ScopedSpan span(ctx.profiler, t, "final ids", "merge");
        const uint64_t* hashes = workers[w]->grouper().grouper().GroupHashes();
        std::vector<uint32_t>& targets = converted[w].targets;
        for (size_t g = 0; g < targets.size(); ++g) {
          targets[g] += static_cast<uint32_t>(offsets[PartitionOf(hashes[g])]);
        }
        return true;
      }, error)) {
    return false;
  }
  // 4. States: one thread's table after another, each read in its own group order (so the
  // reads stream) in chunks spread over all threads. A table's groups have distinct final ids,
  // so no two chunks write the same state.
  constexpr size_t kStateChunk = 16384;
  for (size_t w = 0; w < sources; ++w) {
    const AggregateWorker& worker = *workers[w];
    const uint32_t* targets = converted[w].targets.data();
    const size_t n = worker.groups();
    if (!RunTasks(ctx, threads, (n + kStateChunk - 1) / kStateChunk, [&](size_t k, int t, std::string*) {
          ScopedSpan span(ctx.profiler, t, "merge states", "merge");
          const size_t begin = k * kStateChunk, end = std::min(n, begin + kStateChunk);
          merged.MergeRange(worker.states(), begin, end, targets);
          const FirstRows& firsts = worker.first_rows();
          for (size_t g = begin; g < end && g < firsts.size(); ++g) {
            first_rows[targets[g]] = std::min(first_rows[targets[g]], firsts[g]);
          }
          span.counters().rows = end - begin;
          return true;
        }, error)) {
      return false;
    }
  }
  // 5. COUNT(DISTINCT) pairs, partition by partition, each through a set of its own.
  bool any_distinct = false;
  for (size_t a = 0; a < aggregates; ++a) any_distinct |= merged.IsDistinctPairs(a);
  if (any_distinct &&
      !RunTasks(ctx, threads, kMergePartitions, [&](size_t p, int t, std::string* task_error) {
        ScopedSpan span(ctx.profiler, t, "merge distinct", "merge");
        std::vector<AggregateStates::PairSource> pair_sources;
        for (size_t a = 0; a < aggregates; ++a) {
          if (!merged.IsDistinctPairs(a)) continue;
          pair_sources.clear();
          for (size_t w = 0; w < sources; ++w) {
            const Converted& c = converted[w];
            pair_sources.push_back(AggregateStates::PairSource{
                &workers[w]->states(), c.pairs[a].data() + c.pair_begin[a][p],
                c.pair_begin[a][p + 1] - c.pair_begin[a][p], c.targets.data()});
            span.counters().probes += pair_sources.back().n;
          }
          if (!merged.MergeDistinctPartition(a, pair_sources, task_error)) return false;
        }
        return true;
      }, error)) {
    return false;
  }
  if (targets != nullptr) {
    targets->clear();
    for (Converted& c : converted) targets->push_back(std::move(c.targets));
  }
  workers[0]->AdoptMerged(std::move(parts), std::move(merged),
                          track_first_rows ? std::move(first_rows) : FirstRows());
  return true;
}

}  // namespace exec
}  // namespace laneql
