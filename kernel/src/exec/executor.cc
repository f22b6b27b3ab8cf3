// The executor: a morsel-parallel scan (filter, grouping, aggregate states per thread), the
// merge of the threads' states, then the output stage.
#include "src/exec/executor.h"

#include <algorithm>
#include <atomic>
#include <new>

#include "laneql/predicate.h"
#include "src/exec/aggregate_worker.h"
#include "src/exec/expr_eval.h"
#include "src/exec/filter.h"
#include "src/exec/group_merge.h"
#include "src/exec/group_owned.h"
#include "src/exec/group_key_ranges.h"
#include "src/exec/group_partitions.h"
#include "src/exec/owned_scan.h"
#include "src/exec/morsel.h"
#include "src/exec/output_stage.h"
#include "src/exec/parallel_project.h"
#include "src/exec/sort_rows.h"

namespace laneql {
namespace exec {

using plan::AggKind;
using plan::BoundKind;
using plan::Plan;

namespace {

size_t Batches(size_t rows) { return (rows + kBatchRows - 1) / kBatchRows; }

// Every worker's partitions of the COUNT(DISTINCT)s in `partitioned`, [k][worker] for
// partitioned[k]: taken out of the states before the merge, which may replace them.
using TakenPartitions = std::vector<std::vector<std::unique_ptr<DistinctPartitions>>>;
TakenPartitions TakePartitions(const std::vector<std::unique_ptr<AggregateWorker>>& workers,
                               const std::vector<size_t>& partitioned) {
  TakenPartitions taken(partitioned.size());
  for (size_t k = 0; k < partitioned.size(); ++k) {
    for (const auto& worker : workers) {
      taken[k].push_back(worker->states().TakeDistinctPartitions(partitioned[k]));
    }
  }
  return taken;
}

// After the merge: the COUNT(DISTINCT)s in `partitioned` counted over every worker's
// partitions (grouped, under the merged group ids `targets`) into workers[0]'s states.
bool CountPartitionedDistincts(const std::vector<std::unique_ptr<AggregateWorker>>& workers,
                               const std::vector<size_t>& partitioned,
                               const TakenPartitions& taken,
                               const std::vector<std::vector<uint32_t>>& targets,
                               const ExecContext& ctx, int threads, std::string* error) {
  const ScopedMemoryActivity activity("counting COUNT(DISTINCT) partitions");
  AggregateStates& result = workers[0]->states();
  for (size_t k = 0; k < partitioned.size(); ++k) {
    const size_t a = partitioned[k];
    std::vector<const DistinctPartitions*> sides;
    for (const auto& side : taken[k]) sides.push_back(side.get());
    if (workers[0]->ungrouped()) {
      size_t count = 0;
      if (!CountDistinctPartitions(sides, ctx, threads, &count, error)) return false;
      result.SetDistinctCount(a, count);
      continue;
    }
    const size_t groups = workers[0]->groups();
    std::vector<int64_t> counts(groups, 0);
    if (!sides.empty() && sides[0]->by_group()) {
      // An owned scan's (or one thread's): worker w's groups follow those of the workers
      // before it, as many as its targets.
      std::vector<size_t> side_groups;
      size_t covered = 0;
      for (size_t w = 0; w < sides.size() && w < targets.size(); ++w) {
        side_groups.push_back(targets[w].size());
        covered += side_groups.back();
      }
      if (side_groups.size() != sides.size() || covered != groups) {
        *error = "internal error: COUNT(DISTINCT) pairs by group do not cover the merged groups";
        return false;
      }
      if (!CountDistinctPairsByGroup(sides, side_groups, ctx, threads, counts.data(), error)) {
        return false;
      }
      result.AddCounts(a, counts.data(), groups);
      continue;
    }
    std::vector<const uint32_t*> side_targets;
    for (const auto& side : targets) side_targets.push_back(side.data());
    if (!CountDistinctPairPartitions(sides, side_targets, groups, ctx, threads, counts.data(),
                                     error)) {
      return false;
    }
    result.AddCounts(a, counts.data(), groups);
  }
  return true;
}

Result ExecuteAggregate(const Plan& plan, const ExecContext& ctx) {
  const Table& table = *plan.table;
  const size_t rows = table.num_rows();
  const size_t batches = Batches(rows);
  const bool ungrouped = plan.group_keys.empty();
  std::string error;
  // GROUP BY ... LIMIT n without ORDER BY / HAVING: any n complete groups answer it.
  size_t group_cap = 0;
  if (plan.order.empty() && !plan.having && plan.limit >= 0 &&
      plan.offset + plan.limit <= static_cast<int64_t>(kBatchRows)) {
    group_cap = static_cast<size_t>(std::max<int64_t>(1, plan.offset + plan.limit));
  }
  // COUNT(*) (and COUNT of a column without NULLs) with no WHERE: the answer is metadata.
  const bool metadata_only = plan.answer_from_metadata;
  bool float_sums = false;
  // Library aggregates whose answer depends on the order rows are folded in (string_agg, the
  // moments, mode of strings, any with ORDER BY keys: FoldsInRowOrder): each group's rows in row
  // order on one thread, as float sums; ungrouped, by batches when each of them can
  // (stddev_samp(d) over 10 M rows on 2 threads: 57 -> 30 ms, corr 89 -> 44).
  bool row_order_functions = false;
  // Each of them folds by batches (FoldsByBatches): then on any thread count, ungrouped, or
  // grouped over few groups as float sums are (group_batch_partials.h).
  bool functions_fold_by_batches = true;
  for (const auto& aggregate : plan.aggregates) {
    float_sums |= (aggregate.kind == AggKind::kSum || aggregate.kind == AggKind::kAvg) &&
                  aggregate.arg && IsFloat(aggregate.arg->type);
    const bool row_order = FoldsInRowOrder(aggregate);
    row_order_functions |= row_order;
    if (row_order && !FoldsByBatches(aggregate, !ungrouped)) functions_fold_by_batches = false;
  }
  const bool batch_functions = ungrouped && row_order_functions && functions_fold_by_batches;
  if (metadata_only) {
    AggregateStates states(plan.aggregates, true);
    if (!states.Resize(1, &error)) return Result::Error(error);
    for (size_t a = 0; a < plan.aggregates.size(); ++a) states.AddCount(a, rows);
    return OutputGroups(plan, ctx, nullptr, StateParts(states, 1), nullptr);
  }

  // Grouped float sums add each group's values in row order, so that every thread count gives
  // the same bits: on several threads only as an owned scan (each group's rows all folded by
  // one thread, in row order), else on one. (The group cap keeps the first groups seen: one
  // thread finds them, below, and then all count.)
  const bool row_order_sums = !ungrouped && (float_sums || row_order_functions);
  TableSample table_sample(plan, ctx, batches);  // taken once, for every choice below
  // Few groups: float sums are added by batches instead (group_batch_partials.h), on any
  // thread count alike, so that the threads split the rows, and the row-order library
  // aggregates folded by batches too when each of them can. Not for a group cap (its own
  // first-groups scan).
  // A library aggregate's entry is a state of its own, merged after the scan: one per group
  // and fold unit of 65,536 rows (153 K for the moments by g, 1,000 groups, over 10 M rows:
  // 37 -> 41 ms on one thread, 45 -> 23 ms on two, where the split by keys had each owner
  // read every batch).
  const bool group_batch_partials =
      row_order_sums && functions_fold_by_batches && group_cap == 0 &&
      FewGroupsSampled(&table_sample, GroupBatchPartials::kMaxGroups, GroupBatchPartials::kFewGroups);
  int threads = ThreadsFor(rows, ctx.ThreadsAvailable(), ctx.min_parallel_rows);
  // Row-order sums of many groups split by keys, where each owner reads every batch, on up to
  // kMaxOwners threads: capped below, unless the radix partitions (which fold in row order)
  // take the query.
  const bool owners_only = row_order_sums && !group_batch_partials;
  // The one group's rows in row order, unless folded by batches.
  if (ungrouped && row_order_functions && !batch_functions) threads = 1;
  FloatPartials partials;
  if (ungrouped && float_sums) {
    partials.resize(plan.aggregates.size());
    for (auto& per_batch : partials) per_batch.assign(batches, 0.0);
  }
  std::vector<std::unique_ptr<AggregateWorker>> workers;
  // Grouped float sums of many groups on several threads need a split by keys or the radix
  // partitions (each group's rows in row order), which the direct table of a small integer range
  // cannot have.
  const bool direct_ranges = !(owners_only && threads > 1);
  const auto make_workers = [&]() {
    workers.clear();
    for (int t = 0; t < threads; ++t) {
      workers.push_back(std::make_unique<AggregateWorker>(plan, t, ctx.profiler));
      if (!workers.back()->Init(group_cap, threads > 1, partials.empty() ? nullptr : &partials,
                                ctx.small_key_lookup, &error, direct_ranges)) {
        return false;
      }
      if (group_batch_partials) workers.back()->KeepGroupBatchPartials();
      if (batch_functions && !workers.back()->KeepBatchFunctionStates(batches, &error)) return false;
    }
    return true;
  };
  if (!make_workers()) return Result::Error(error);
  // Many groups of a key stored in ascending order: the threads take segments of batches that
  // share no key (group_key_ranges.h), on every thread count, float sums too.
  std::vector<size_t> key_segments;
  if (threads > 1 && !ungrouped && group_cap == 0 && !group_batch_partials &&
      ManyGroupsSampled(plan, &table_sample)) {
    key_segments = KeyDisjointSegments(plan, batches, threads);
  }
  const bool key_ranges = !key_segments.empty();
  // Many groups whose keys still repeat: each thread appends its rows to radix partitions by
  // key hash, aggregated partition by partition after the scan (group_partitions.h). In place
  // of the split by keys or rows.
  // One string key only past kMaxOwners threads, where the split by rows' merge grows with the
  // threads (GROUP BY URL: 1.96 s CPU at 16 threads split by rows, 0.91 s at 1 thread): below,
  // its owners' string tables cost less (GROUP BY SearchPhrase, COUNT(*) / COUNT(DISTINCT
  // UserID), CPU ms: 2 threads 112-125 / 170-174 split by keys, 173-183 / 261-275
  // partitioned; 4 threads 148-169 / 187-193, 163-177 / 228-243).
  GroupRecordLayout layout;
  const bool partition_groups = !ungrouped && group_cap == 0 && !key_ranges &&
                                (threads > kMaxOwners || !workers[0]->grouper().OneStringKey()) &&
                                MakeGroupRecordLayout(plan, workers[0]->grouper(), &layout) &&
                                PreferPartitionedGroups(plan, ctx, threads, &table_sample);
  // Else row-order sums split by keys: on at most kMaxOwners owners, or one thread where the
  // scan cannot be owned.
  if (owners_only && !partition_groups && !key_ranges && threads > 1) {
    const int owners = std::min(threads, kMaxOwners);
    const int chosen = CanOwnScan(ctx, owners, *workers[0]) ? owners : 1;
    if (chosen != threads) {
      threads = chosen;
      if (!make_workers()) return Result::Error(error);
    }
  }
  // COUNT(DISTINCT)s of many fixed-width values (grouped: (group, value) pairs): appended to
  // radix partitions by every thread, counted after the scan and the merge
  // (distinct_partitions.h). Ungrouped, chosen before the split by value, which it replaces.
  std::vector<size_t> partitioned;
  if (ungrouped) partitioned = PartitionedDistincts(plan, ctx, *workers[0], &table_sample);
  // Many groups: each thread takes the keys hashing to it from every batch (group_owned.h);
  // ungrouped, the values of large COUNT(DISTINCT) sets (of strings: other values are
  // partitioned).
  const bool owned =
      threads > 1 && !key_ranges &&
      (ungrouped ? partitioned.empty() && PreferOwnedDistinct(plan, ctx, threads, &table_sample)
                 : !partition_groups && !group_batch_partials &&
                       (row_order_sums || PreferOwnedScan(plan, ctx, threads, *workers[0], &table_sample)));
  // Split by keys too: each owner's pairs are partitioned rather than held in a set of its own
  // that outgrows the caches (GROUP BY SearchPhrase, COUNT(DISTINCT UserID) on 2 threads:
  // 95-98 against 101-103 ms, medians of 5 in 4 processes; one thread 143-154 ms).
  bool many_groups = false;
  if (!ungrouped && !partition_groups && !key_ranges && group_cap == 0) {
    partitioned = PartitionedDistincts(plan, ctx, *workers[0], &table_sample, &many_groups);
  }
  // Each group's pairs from one thread, and many groups: the pairs partitioned by group.
  const bool pairs_by_group = owned || (threads == 1 && many_groups);
  for (const auto& worker : workers) {
    for (size_t a : partitioned) worker->states().PartitionDistinct(a, pairs_by_group);
  }
  // Few groups with a large COUNT(DISTINCT) (not partitioned): the rows split by that value.
  const int value_split = threads > 1 && !ungrouped && !owned && !key_ranges && !row_order_sums && group_cap == 0 &&
                                  partitioned.empty() && !partition_groups
                              ? PreferValueSplit(plan, ctx, threads, &table_sample)
                              : -1;
  const bool every_batch = owned || value_split >= 0;  // each thread reads every batch
  // Grouped split by keys or values: each batch's keys or values prepared once, for every
  // owner (owned_scan.h), its WHERE too, by the thread that prepares it: evaluated over the
  // whole table first, the WHERE's columns were out of the cache again when the keys were
  // gathered from them (SearchPhrase <> '' then GROUP BY SearchPhrase: its offsets' gather
  // took 4x the time).
  const bool prepared_batches = (owned && !ungrouped) || value_split >= 0;
  std::vector<uint64_t> table_mask;  // else a WHERE evaluated once, shared
  if (every_batch) {
    if (plan.where && !prepared_batches &&
        !FilterTableMask(plan, ctx, threads, batches, &table_mask, &error)) {
      return Result::Error(error);
    }
    for (int t = 0; t < threads; ++t) {
      AggregateWorker& worker = *workers[static_cast<size_t>(t)];
      if (value_split >= 0) worker.SetValueOwnership(t, threads, static_cast<size_t>(value_split));
      else worker.SetOwnership(t, threads);
      if (!table_mask.empty()) worker.UseFilterMask(table_mask.data());
    }
  }
  // Sized as the last run of this GROUP BY ended (group_size_hints.h); a refusal of the memory
  // limit leaves that worker to grow as usual. Each thread sizes its own worker as it starts:
  // one thread sizing all of them before the scan took 2.9 ms of Q31's 59 on 2 threads (1.5
  // ms each in parallel).
  std::string hint_key;
  size_t size_hint = 0, key_bytes_hint = 0;
  if (ctx.group_size_hints != nullptr && !ungrouped && group_cap == 0 && !partition_groups) {
    hint_key = GroupSizeKey(plan, threads);
    size_hint = ctx.group_size_hints->Find(hint_key);
    key_bytes_hint = ctx.group_size_hints->FindKeyBytes(hint_key);
    // Run for the first time: sized from a sample (its first run of GROUP BY WatchID, ClientIP
    // on 2 threads otherwise doubled its way to 5 M groups a thread, faulting in each size).
    if (!ctx.group_size_hints->Seen(hint_key)) {
      size_hint = FirstRunGroupsPerThread(plan, threads, &table_sample);
      if (size_hint < kMinGroupSizeHint) size_hint = 0;
    }
  }
  const auto presize = [&](int t) {
    if (size_hint == 0) return;
    ScopedSpan span(ctx.profiler, t, "presize", "scan");
    // Split by keys, thread 0's first rows take every thread's groups in the merge, and its
    // state arrays too when partitioned COUNT(DISTINCT)s need them in one place (else they
    // stay apart: StateParts).
    const size_t all_groups = owned && t == 0 ? size_hint * workers.size() : size_hint;
    const size_t state_groups = partitioned.empty() ? size_hint : all_groups;
    std::string refused;
    workers[static_cast<size_t>(t)]->Presize(size_hint, state_groups, all_groups, key_bytes_hint,
                                             &refused);
  };
  // GROUP BY ... LIMIT n: the groups kept are the first n in row order, so this thread scans
  // until it has them (usually within the first batch); then every thread counts the rest of
  // the table into those n groups alone.
  size_t start = 0;
  if (group_cap != 0 && threads > 1 && !ungrouped) {
    const ScopedMemoryActivity activity("scanning the table");
    AggregateWorker& first = *workers[0];
    while (start < batches && !first.grouper().frozen() && !ctx.Interrupted()) {
      if (!first.ScanBatches(start, start + 1, &error)) return Result::Error(error);
      ++start;
    }
    for (int t = 1; t < threads; ++t) {
      if (!workers[static_cast<size_t>(t)]->FreezeGroupsAs(first, &error)) return Result::Error(error);
    }
  }
  MorselCursor cursor;
  const MorselPlan morsels(start, batches, threads, group_batch_partials ? GroupBatchPartials::kUnitBatches : 1);
  std::atomic<bool> failed{false};
  std::vector<std::string> errors(static_cast<size_t>(threads));
  std::unique_ptr<PreparedBatchRing> ring;
  if (prepared_batches) ring = std::make_unique<PreparedBatchRing>(batches, threads);
  std::vector<std::unique_ptr<GroupPartitions>> group_parts;
  std::vector<AggregateStates> partition_states;  // their aggregation's, read side by side
  for (int t = 0; partition_groups && t < threads; ++t) {
    group_parts.push_back(std::make_unique<GroupPartitions>(layout));
  }
  const auto scan = [&](int t) {
    presize(t);
    if (ring) {
      ring->Run(workers[static_cast<size_t>(t)].get(), t, ctx, &failed, &errors[static_cast<size_t>(t)]);
      return;
    }
    const ScopedMemoryActivity activity("scanning the table");
    if (owned) {  // ungrouped COUNT(DISTINCT)s split by value: every thread reads every batch
      AggregateWorker& worker = *workers[static_cast<size_t>(t)];
      for (size_t m = 0; m < morsels.size() && !failed.load(std::memory_order_relaxed) && !ctx.Interrupted();
           ++m) {  // from batch 0: only a GROUP BY ... LIMIT moves start
        if (!worker.ScanBatches(morsels.Begin(m), morsels.End(m), &errors[static_cast<size_t>(t)])) {
          failed.store(true, std::memory_order_relaxed);
        }
      }
      return;
    }
    if (key_ranges) {  // segments in turn, as morsels
      ScopedSpan span(ctx.profiler, t, "key segments", "scan");
      AggregateWorker& worker = *workers[static_cast<size_t>(t)];
      while (!failed.load(std::memory_order_relaxed) && !ctx.Interrupted()) {
        const size_t i = cursor.Take();
        if (i + 1 >= key_segments.size()) break;
        if (!worker.ScanBatches(key_segments[i], key_segments[i + 1], &errors[static_cast<size_t>(t)])) {
          failed.store(true, std::memory_order_relaxed);
        }
      }
      return;
    }
    // Check-before-work: a failed thread (or an interrupt) stops the others at their next morsel.
    while (!failed.load(std::memory_order_relaxed) && !ctx.Interrupted()) {
      const size_t m = cursor.Take();
      if (m >= morsels.size()) break;
      AggregateWorker& worker = *workers[static_cast<size_t>(t)];
      std::string* thread_error = &errors[static_cast<size_t>(t)];
      const size_t first = morsels.Begin(m), last = morsels.End(m);
      GroupPartitions* parts = partition_groups ? group_parts[static_cast<size_t>(t)].get() : nullptr;
      if (!(parts != nullptr ? worker.PartitionBatches(first, last, layout, parts, thread_error)
                             : worker.ScanBatches(first, last, thread_error))) {
        failed.store(true, std::memory_order_relaxed);
      }
    }
  };
  RunThreads(ctx, threads, [&](int t) {
    scan(t);
    if (!failed.load(std::memory_order_relaxed) &&
        !workers[static_cast<size_t>(t)]->FinishGroupBatchPartials(&errors[static_cast<size_t>(t)])) {
      failed.store(true, std::memory_order_relaxed);
    }
    // Each thread partitions the COUNT(DISTINCT) values it still stages, while they are in
    // its cache.
    if (!failed.load(std::memory_order_relaxed) &&
        !workers[static_cast<size_t>(t)]->states().FinishDistinctPartitions(&errors[static_cast<size_t>(t)])) {
      failed.store(true, std::memory_order_relaxed);
    }
  });
  if (FirstError(errors, &error)) return Result::Error(error);
  if (ctx.Interrupted()) return Result::Error(ctx.StopMessage());  // the scan stopped part-way

  if (!hint_key.empty()) {
    size_t most = 0, most_bytes = 0;
    for (const auto& worker : workers) {
      most = std::max(most, worker->groups());
      most_bytes = std::max(most_bytes, worker->grouper().KeyBytes());
    }
    ctx.group_size_hints->Note(hint_key, most, most_bytes);
  }
  AggregateWorker& result = *workers[0];
  // Grouped partitioned COUNT(DISTINCT)s: each thread's group ids in the merged numbering.
  std::vector<std::vector<uint32_t>> targets;
  const bool need_targets = !ungrouped && (!partitioned.empty() || group_batch_partials);
  const TakenPartitions taken = TakePartitions(workers, partitioned);
  // An owned scan's groups per worker, or the partitions' per partition: their states left apart.
  std::vector<size_t> part_groups;
  {
    const ScopedMemoryActivity activity("merging the threads' groups");
    if (owned && ungrouped) {
      MergeOwnedDistinct(workers, ctx);
    } else if (partition_groups) {
      std::vector<const GroupPartitions*> sides;
      for (const auto& side : group_parts) sides.push_back(side.get());
      if (!AggregateGroupPartitions(sides, layout, workers[0].get(), ctx, threads, &partition_states,
                                    &part_groups, &error)) {
        return Result::Error(error);
      }
    } else if (owned || key_ranges) {
      // Worker w's groups follow those of the workers before it.
      if (need_targets) {
        uint32_t offset = 0;
        for (const auto& worker : workers) {
          targets.emplace_back(worker->groups());
          for (uint32_t& id : targets.back()) id = offset++;
        }
      }
      // Nothing writes to the merged states afterwards unless COUNT(DISTINCT)s are counted
      // by partitions: then they are copied into one set of arrays, else read side by side.
      if (!MergeOwnedWorkers(workers, ctx, threads, partitioned.empty() ? &part_groups : nullptr,
                             &error)) {
        return Result::Error(error);
      }
    } else if (!MergeWorkers(workers, ctx, threads, &error, need_targets ? &targets : nullptr)) {
      return Result::Error(error);
    }
  }
  if (!partitioned.empty() &&
      !CountPartitionedDistincts(workers, partitioned, taken, targets, ctx, threads, &error)) {
    return Result::Error(error);
  }
  if (ctx.Interrupted()) return Result::Error(ctx.StopMessage());
  if (group_batch_partials) {
    GroupBatchPartials::Fold(workers, targets, result.groups(), &result.states());
  }
  if (batch_functions) MergeBatchFunctionStates(workers, batches);
  for (size_t a = 0; a < partials.size(); ++a) {
    if (!result.states().IsFloatSum(a)) continue;
    double sum = 0.0;  // batch order: the same additions for every thread count
    for (double partial : partials[a]) sum += partial;
    result.states().SetFloatSum(a, sum);
  }
  ScopedSpan span(ctx.profiler, 0, "output", "output");
  // Groups merged from threads or partitions: ORDER BY ties go by each group's first row.
  const bool merged_groups = (threads > 1 || partition_groups) && !ungrouped;
  StateParts states;
  if (partition_groups) {
    // The partitions' states side by side, each numbering its groups in row order.
    for (size_t p = 0; p < partition_states.size(); ++p) states.Add(partition_states[p], part_groups[p]);
    states.SetPartsInFirstRowOrder();
  } else {
    states.Add(result.states(), part_groups.empty() ? result.groups() : part_groups[0]);
    for (size_t w = 1; w < part_groups.size(); ++w) states.Add(workers[w]->states(), part_groups[w]);
    if (!part_groups.empty()) states.SetPartsInFirstRowOrder();  // one part per owner
  }
  return OutputGroups(plan, ctx, ungrouped ? nullptr : &result.grouper(), states,
                      merged_groups ? &result.first_rows() : nullptr);
}

// Appends the ids of the rows of batch [begin, begin + n) that pass `filter` (all of them when
// it is null); `mask` and `batch_ids` are a batch's scratch.
bool AppendBatchRows(Filter* filter, size_t begin, size_t n, std::vector<uint64_t>* mask,
                     std::vector<uint32_t>* batch_ids, std::vector<uint32_t>* ids, std::string* error) {
  if (filter == nullptr) {
    for (size_t i = 0; i < n; ++i) ids->push_back(static_cast<uint32_t>(begin + i));
    return true;
  }
  if (!filter->Eval(begin, n, mask->data(), error)) return false;
  const size_t selected = MaskToIndices(mask->data(), n, batch_ids->data());
  for (size_t i = 0; i < selected; ++i) ids->push_back(static_cast<uint32_t>(begin + (*batch_ids)[i]));
  return true;
}

// Keeps the `keep` first of `ids` in ORDER BY order (ties: row order), as ascending row ids.
bool KeepTopRows(const Plan& plan, Evaluator* evaluator, size_t keep, std::vector<uint32_t>* ids,
                 std::string* error) {
  RowSet rows;
  rows.ids = ids->data();
  rows.count = ids->size();
  std::vector<Vec> keys;
  std::vector<SortColumn> columns;
  if (!EvalOrderKeys(plan, evaluator, rows, &keys, &columns, error)) return false;
  std::vector<uint32_t> kept;
  for (uint32_t position : SortPositions(columns, ids->size(), keep)) kept.push_back((*ids)[position]);
  std::sort(kept.begin(), kept.end());
  *ids = std::move(kept);
  return true;
}

}  // namespace

// WHERE over morsels in parallel (every row when there is none): each morsel's qualifying row
// ids, concatenated in row order. With `top_n` > 0 (ORDER BY ... LIMIT), each morsel keeps only
// its top_n first rows in ORDER BY order, which contain the query's: per-thread top-N, so
// the final sort sees a few rows per morsel.
bool SelectRows(const Plan& plan, const ExecContext& ctx, size_t top_n, std::vector<uint32_t>* ids,
                std::string* error) {
  const Table& table = *plan.table;
  const size_t rows = table.num_rows();
  const size_t batches = Batches(rows);
  const int threads = ThreadsFor(rows, ctx.ThreadsAvailable(), ctx.min_parallel_rows);
  const MorselPlan morsels(0, batches, threads);
  std::vector<std::vector<uint32_t>> found(morsels.size());
  std::vector<std::string> errors(static_cast<size_t>(threads));
  MorselCursor cursor;
  std::atomic<bool> failed{false};
  const uint64_t bytes_per_row = ScanBytesPerRow(plan, table);
  RunThreads(ctx, threads, [&](int t) {
    const ScopedMemoryActivity activity("collecting the rows that pass WHERE");
    std::unique_ptr<Filter> filter;
    if (plan.where) filter = std::make_unique<Filter>(table, *plan.where);
    Evaluator evaluator(TableColumns(table));
    std::vector<uint64_t> mask(BitmaskWords(kBatchRows) + 1);
    std::vector<uint32_t> batch_ids(kBatchRows);
    std::string& thread_error = errors[static_cast<size_t>(t)];
    while (!failed.load(std::memory_order_relaxed) && !ctx.Interrupted()) {
      const size_t m = cursor.Take();
      if (m >= morsels.size()) break;
      ScopedSpan span(ctx.profiler, t, plan.where ? "filter" : "scan", "scan");
      for (size_t b = morsels.Begin(m); b < morsels.End(m); ++b) {
        const size_t begin = b * kBatchRows, n = std::min(kBatchRows, rows - begin);
        span.counters().rows += n;
        span.counters().bytes += n * bytes_per_row;
        if (!AppendBatchRows(filter.get(), begin, n, &mask, &batch_ids, &found[m], &thread_error)) {
          failed.store(true, std::memory_order_relaxed);
          return;
        }
      }
      if (top_n > 0 && found[m].size() > top_n && !KeepTopRows(plan, &evaluator, top_n, &found[m], &thread_error)) {
        failed.store(true, std::memory_order_relaxed);
        return;
      }
      found[m].shrink_to_fit();
      if (!ChargeQueryMemory(found[m].capacity() * sizeof(uint32_t), &thread_error)) {
        failed.store(true, std::memory_order_relaxed);
        return;
      }
    }
  });
  size_t found_bytes = 0, total = 0;
  for (const auto& part : found) {
    found_bytes += part.capacity() * sizeof(uint32_t);
    total += part.size();
  }
  // The morsels' lists are charged as they were filled and given back once concatenated.
  struct ReleaseFound {
    size_t bytes;
    ~ReleaseFound() { ReleaseQueryMemory(bytes); }
  } release_found{found_bytes};
  if (FirstError(errors, error)) return false;
  if (ctx.Interrupted()) {  // the scan stopped part-way
    *error = ctx.StopMessage();
    return false;
  }
  if (!ChargeQueryMemory(total * sizeof(uint32_t), error)) return false;
  ids->reserve(total);
  for (const auto& part : found) ids->insert(ids->end(), part.begin(), part.end());
  return true;
}

namespace {

Result ExecutePlain(const Plan& plan, const ExecContext& ctx) {
  const Table& table = *plan.table;
  const size_t rows = table.num_rows();
  Evaluator evaluator(TableColumns(table));
  // Without ORDER BY, LIMIT bounds how many qualifying rows are needed: stop there.
  size_t needed = rows;
  if (plan.order.empty() && plan.limit >= 0) {
    needed = static_cast<size_t>(std::min<int64_t>(static_cast<int64_t>(rows), plan.offset + plan.limit));
  }
  RowSet candidates;
  std::vector<uint32_t> ids, storage;
  RowSet chosen;
  std::string error;
  // ORDER BY ... LIMIT n: per-thread top-N (when n is small enough to be worth it).
  const int64_t top_n = plan.limit >= 0 ? plan.offset + plan.limit : -1;
  const bool per_thread_top_n = !plan.order.empty() && top_n >= 0 && top_n <= static_cast<int64_t>(kBatchRows) &&
                                ThreadsFor(rows, ctx.ThreadsAvailable(), ctx.min_parallel_rows) > 1;
  if (!plan.where && !per_thread_top_n) {
    candidates.count = needed;
  } else if (needed == rows) {
    if (!SelectRows(plan, ctx, per_thread_top_n ? static_cast<size_t>(top_n) : 0, &ids, &error)) {
      return Result::Error(error);
    }
  } else {
    // LIMIT without ORDER BY: the first qualifying rows, on this thread (it stops early).
    Filter filter(table, *plan.where);
    std::vector<uint64_t> mask(BitmaskWords(kBatchRows) + 1);
    std::vector<uint32_t> batch_ids(kBatchRows);
    const ScopedMemoryActivity activity("collecting the rows that pass WHERE");
    size_t charged = 0;
    for (size_t begin = 0; begin < rows && ids.size() < needed; begin += kBatchRows) {
      if (!AppendBatchRows(&filter, begin, std::min(kBatchRows, rows - begin), &mask, &batch_ids, &ids, &error)) {
        return Result::Error(error);
      }
      // One charge per growth of the list (it doubles), and a stop check per batch.
      if (ids.capacity() * sizeof(uint32_t) > charged) {
        if (!ChargeQueryMemory(ids.capacity() * sizeof(uint32_t) - charged, &error)) return Result::Error(error);
        charged = ids.capacity() * sizeof(uint32_t);
      }
      if (ctx.Interrupted()) return Result::Error(ctx.StopMessage());
    }
    if (ids.size() > needed) ids.resize(needed);
  }
  if (plan.where || per_thread_top_n) {
    candidates.ids = ids.data();
    candidates.count = ids.size();
  }
  ScopedSpan span(ctx.profiler, 0, plan.order.empty() ? "output" : "sort", plan.order.empty() ? "output" : "sort");
  if (ctx.Interrupted()) return Result::Error(ctx.StopMessage());
  if (!ChooseRows(plan, ctx, &evaluator, candidates, nullptr, false, &storage, &chosen, &error)) {
    return Result::Error(error);
  }
  return ProjectOnThreads(plan, ctx, evaluator, chosen);
}

}  // namespace

Result Execute(const Plan& plan, const ExecContext& ctx) {
  return CatchQueryAborts(
      [&] { return plan.aggregate ? ExecuteAggregate(plan, ctx) : ExecutePlain(plan, ctx); });
}

}  // namespace exec
}  // namespace laneql
