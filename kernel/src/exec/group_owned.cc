// The owned scan's sample and its merge (see group_owned.h).
#include "src/exec/group_owned.h"

#include <algorithm>
#include <cstdint>

#include "src/exec/executor.h"
#include "src/exec/filter.h"
#include "src/exec/morsel.h"
#include "src/common/query_budget.h"  // ScopedMemoryActivity

namespace laneql {
namespace exec {

namespace {

// The fewest sampled rows (after the filter) on which a decision is taken: a selective filter
// leaves few rows, and few rows few groups.
constexpr size_t kMinSampleRows = 8192;
constexpr size_t kMinPairSampleRows = 2048;  // PartitionedDistincts, grouped

constexpr int kSplitByRows = 1, kSplitByKeys = 2;  // ExecContext::group_split

// Whether a split by keys or values may run: 2 to kMaxOwners threads, and not ruled out.
bool SplitAllowed(const ExecContext& ctx, int threads) {
  return ctx.group_split != kSplitByRows && threads >= 2 && threads <= kMaxOwners;
}

// Keys stored together (lineitem's l_orderkey, a few rows each, in order): every sampled batch
// repeats its keys (4 rows per group) yet shares none with the batches far from it, so the
// sample's rows-per-group ratio says "few groups" while the table holds a group per 4 rows
// (1.5 M in TPC-H SF 1). The batches share almost no keys when the groups after all of them are
// (at least 90 % of) those of the first batch scaled by the rows; then the table's groups are
// its rows over the sample's rows per group. Counted as many from kMinClusteredGroups groups
// of at most kMaxClusteredRowsPerGroup rows: where groups are fewer or longer the merge of a
// split by rows re-inserts too few of them to matter.
constexpr double kMinClusteredGroups = 65536;
constexpr double kMaxClusteredRowsPerGroup = 16;

// What a sample (TableSample) says of the whole table's groups.
struct GroupEstimate {
  double rows = 0;        // sampled rows after the WHERE
  double table_rows = 0;  // rows expected after the WHERE in the whole table
  double groups = 0;      // groups the sample formed
  // Two sampled rows fall into one group with a chance of (r - 1) / (table rows) for r rows per
  // group, so the sample's repeats (rows - groups) estimate r: UserID's 1,596 repeats in 65,536
  // rows of 10 M say r = 8.4 (it is 5.6: a user's rows cluster), WatchID's none say 1.
  double rows_per_group = 1;
  // At least half of the sampled rows start a group of their own (as PreferOwnedScan), on
  // enough rows: the table holds many groups.
  bool many_groups = false;
  // Keys stored together (above): many groups, table_rows * groups / rows of them.
  bool many_clustered = false;
};

GroupEstimate EstimateGroups(const plan::Plan& plan, const SampleSummary& sample) {
  GroupEstimate e;
  e.rows = static_cast<double>(sample.probes);
  e.table_rows = static_cast<double>(plan.table->num_rows()) * e.rows /
                 static_cast<double>(std::max<size_t>(sample.rows, 1));
  e.groups = static_cast<double>(sample.groups);
  if (e.rows > 0) e.rows_per_group = 1.0 + 2.0 * e.table_rows * (e.rows - e.groups) / (e.rows * e.rows);
  e.many_groups = e.rows >= kMinSampleRows && 2 * e.groups >= e.rows;
  if (e.rows >= kMinSampleRows && sample.first_probes != 0 && sample.groups != 0) {
    const double disjoint = static_cast<double>(sample.first_groups) * e.rows /
                            static_cast<double>(sample.first_probes);
    e.many_clustered = e.groups >= 0.9 * disjoint && e.rows <= kMaxClusteredRowsPerGroup * e.groups &&
                       e.table_rows * e.groups / e.rows >= kMinClusteredGroups;
  }
  return e;
}

}  // namespace

TableSample::TableSample(const plan::Plan& plan, const ExecContext& ctx, size_t batches)
    : plan_(plan), ctx_(ctx), batches_(batches) {}

const SampleSummary* TableSample::Get() {
  if (taken_) return have_ ? &summary_ : nullptr;
  taken_ = true;
  if (batches_ < kMinBatches) return nullptr;
  GroupSizeHints* const remembered = ctx_.group_size_hints;
  std::string key;
  if (remembered != nullptr) {
    key = SampleKey(plan_);
    have_ = remembered->FindSample(key, &summary_);
    if (have_) return &summary_;
  }
  ScopedSpan span(ctx_.profiler, 0, "sample", "scan");
  AggregateWorker sample(plan_, 0, nullptr);
  std::string error;
  if (!sample.Init(0, false, nullptr, ctx_.small_key_lookup, &error)) return nullptr;
  for (size_t k = 0; k < kSampleBatches; ++k) {
    const size_t batch = (2 * k + 1) * batches_ / (2 * kSampleBatches);
    if (!sample.ScanBatches(batch, batch + 1, &error)) return nullptr;
    if (k == 0) {
      summary_.first_probes = sample.counters().probes;
      summary_.first_groups = sample.groups();
    }
  }
  summary_.rows = sample.counters().rows;
  summary_.probes = sample.counters().probes;
  summary_.groups = sample.groups();
  for (size_t a = 0; a < plan_.aggregates.size(); ++a) {
    summary_.distinct_values.push_back(sample.states().DistinctValues(a));
    summary_.distinct_pairs.push_back(sample.states().DistinctPairs(a));
  }
  have_ = true;
  if (remembered != nullptr) remembered->NoteSample(key, summary_);
  return &summary_;
}

bool FewGroupsSampled(TableSample* table_sample, size_t max_groups, size_t few_groups) {
  const SampleSummary* sample = table_sample->Get();
  return sample != nullptr && sample->groups <= max_groups &&
         (sample->groups <= few_groups || sample->groups * 16 <= sample->probes);
}

bool CanOwnScan(const ExecContext& ctx, int threads, const AggregateWorker& worker) {
  return SplitAllowed(ctx, threads) && worker.grouper().CanMergeByPartition();
}

bool PreferOwnedScan(const plan::Plan& plan, const ExecContext& ctx, int threads,
                     const AggregateWorker& worker, TableSample* table_sample) {
  if (!CanOwnScan(ctx, threads, worker)) return false;
  if (ctx.group_split == kSplitByKeys) return true;
  const SampleSummary* sampled = table_sample->Get();
  if (sampled == nullptr) return false;
  // A 65,536-row sample sees most keys once even where the table repeats them (UserID: 97.6 %
  // of sampled rows start a group), so the ratio says "many groups", not how many. Half is
  // enough: GROUP BY URL (Q33, Q34) ran at 1.8x split by keys, 1.3x by rows. Behind a WHERE 95 %
  // was asked while each owner evaluated every row's keys (URL and Title under Q36/Q37's filter
  // sample at 73 % new groups and ran faster split by rows); since the owners share one
  // preparation of the keys (owned_scan.h) the keys win there too: Q36, Q37 and Q39 ran at
  // 1.84x, 1.86x and 1.72x split by keys against 1.63x, 1.53x and 1.32x by rows, and 1.42x,
  // 1.55x and 1.17x under the 95 % rule (laneql_thread_scaling_bench --group-split keys /
  // rows / auto, one run each).
  // Keys stored together: the split by rows' merge would re-insert every group (TPC-H Q18's
  // GROUP BY l_orderkey, 6 M rows in 1.5 M groups, 2 threads: 96-104 ms, 167-184 ms CPU split
  // by rows, 75 ms and 128-130 ms CPU by keys).
  const GroupEstimate e = EstimateGroups(plan, *sampled);
  return e.many_groups || e.many_clustered;
}

bool PreferOwnedDistinct(const plan::Plan& plan, const ExecContext& ctx, int threads,
                         TableSample* table_sample) {
  if (!SplitAllowed(ctx, threads) || plan.aggregates.empty()) return false;
  for (const plan::Aggregate& aggregate : plan.aggregates) {
    if (aggregate.kind != plan::AggKind::kCountDistinct) return false;
  }
  if (ctx.group_split == kSplitByKeys) return true;
  const SampleSummary* sampled = table_sample->Get();
  if (sampled == nullptr) return false;
  const SampleSummary& sample = *sampled;
  const size_t rows = sample.rows;  // before any WHERE: a WHERE only lowers the share
  return rows >= kMinSampleRows && 2 * sample.distinct_values[0] >= rows;
}

std::vector<size_t> PartitionedDistincts(const plan::Plan& plan, const ExecContext& ctx,
                                         const AggregateWorker& worker, TableSample* table_sample,
                                         bool* many_groups) {
  if (many_groups != nullptr) *many_groups = false;
  std::vector<size_t> eligible;
  if (ctx.group_split == kSplitByKeys || ctx.partitioned_distinct_min_values == SIZE_MAX) return eligible;
  for (size_t a = 0; a < plan.aggregates.size(); ++a) {
    if (worker.states().CanPartitionDistinct(a)) eligible.push_back(a);
  }
  if (eligible.empty() || ctx.partitioned_distinct_min_values == 0) return eligible;
  std::vector<size_t> chosen;
  const SampleSummary* sampled = table_sample->Get();
  if (sampled == nullptr) return chosen;
  const SampleSummary& sample = *sampled;
  // Ungrouped, the share of the sampled rows before any WHERE, as PreferOwnedDistinct; grouped,
  // of the rows after it, as PreferValueSplit.
  const size_t table_rows = sample.rows;
  const size_t rows = worker.ungrouped() ? table_rows : sample.probes;
  // Grouped behind a selective WHERE, the sample keeps few rows: MobilePhoneModel <> '' keeps
  // 880,000 rows of 10 M, 5,700 of the sample's 65,536, and its 170,000 (model, user) pairs took
  // 58 ms in one set on one thread and 39 on two, 48 and 26 ms partitioned (Q10).
  if (many_groups != nullptr && !worker.ungrouped()) {
    *many_groups = rows >= kMinSampleRows && 2 * sample.groups >= rows;  // as PreferOwnedScan
  }
  if (rows < (worker.ungrouped() ? kMinSampleRows : kMinPairSampleRows)) return chosen;
  // Mostly new values (pairs) in every sampled batch: the table holds about as many per row.
  const double scale =
      static_cast<double>(plan.table->num_rows()) / static_cast<double>(table_rows);
  for (size_t a : eligible) {
    const size_t values = worker.ungrouped() ? sample.distinct_values[a] : sample.distinct_pairs[a];
    const double expected = static_cast<double>(values) * scale;
    if (2 * values >= rows && expected >= static_cast<double>(ctx.partitioned_distinct_min_values)) {
      chosen.push_back(a);
    }
  }
  return chosen;
}

bool PreferPartitionedGroups(const plan::Plan& plan, const ExecContext& ctx, int threads,
                             TableSample* table_sample) {
  const size_t min_rows = ctx.partitioned_group_min_rows;
  if (ctx.group_split == kSplitByKeys || min_rows == SIZE_MAX) return false;
  if (min_rows == 0) return true;
  const SampleSummary* sampled = table_sample->Get();
  if (sampled == nullptr) return false;
  const SampleSummary& sample = *sampled;
  // Many groups, and enough rows that their table outgrows the caches.
  const GroupEstimate e = EstimateGroups(plan, sample);
  if (!e.many_groups || e.table_rows < static_cast<double>(min_rows)) return false;
  // Past kMaxOwners threads the split by keys is closed, and the split by rows' merge inserts
  // every thread's groups again, a cost that grows with the threads (GROUP BY WatchID,
  // ClientIP: 0.45 s CPU at 1 thread, 1.26 s at 16 split by rows); the partitions' cost does
  // not (bench/results/efficiency.md).
  if (threads > kMaxOwners) return true;
  // And keys that repeat: where every row is a group of its own (GROUP BY WatchID, ClientIP),
  // the partitions' states are as large as the rows, and copying the rows through partitions
  // and the states out of them costs more than the cache misses saved (Q32: 552 ms split by
  // rows against 735 ms partitioned on one thread, the same on two). From r = 1.5 on.
  return e.rows_per_group >= 1.5;
}

bool ManyGroupsSampled(const plan::Plan& plan, TableSample* table_sample) {
  const SampleSummary* sample = table_sample->Get();
  if (sample == nullptr) return false;
  const GroupEstimate e = EstimateGroups(plan, *sample);
  return e.many_groups || e.many_clustered;
}

size_t FirstRunGroupsPerThread(const plan::Plan& plan, int threads, TableSample* table_sample) {
  if (threads < 1) return 0;
  const SampleSummary* sample = table_sample->Get();
  if (sample == nullptr) return 0;
  const GroupEstimate e = EstimateGroups(plan, *sample);
  if (!e.many_groups) {
    // Keys stored together: as many groups per row in the table as in the sample.
    if (!e.many_clustered) return 0;
    return static_cast<size_t>(e.table_rows * e.groups / e.rows) / static_cast<size_t>(threads);
  }
  // Where a key's rows cluster the repeats estimate rows per group high (UserID: 8.4 for 5.6),
  // and the size falls short; where the sample is a large part of the table it runs up to a
  // third over (3 sampled rows of one group count as 2 repeats, not 3 pairs). A group per row
  // (WatchID) comes out right. Split by keys or by rows, each thread holds about its share.
  return static_cast<size_t>(e.table_rows / e.rows_per_group) / static_cast<size_t>(threads);
}

int PreferValueSplit(const plan::Plan& plan, const ExecContext& ctx, int threads,
                     TableSample* table_sample) {
  if (!SplitAllowed(ctx, threads) || ctx.group_split == kSplitByKeys) return -1;
  int distinct = -1;
  for (size_t a = 0; a < plan.aggregates.size(); ++a) {
    const plan::Aggregate& aggregate = plan.aggregates[a];
    if (aggregate.kind != plan::AggKind::kCountDistinct) continue;
    const TypeId type = aggregate.arg->type;
    if (distinct >= 0 || IsString(type) || TypeByteWidth(type) == 16) return -1;
    distinct = static_cast<int>(a);
  }
  if (distinct < 0) return -1;
  const SampleSummary* sampled = table_sample->Get();
  if (sampled == nullptr) return -1;
  const SampleSummary& sample = *sampled;
  const size_t rows = sample.probes;  // after the WHERE
  const size_t pairs = sample.distinct_pairs[static_cast<size_t>(distinct)];
  // Few groups: at least 8 rows each on average in the sample. (Many groups with many pairs,
  // GROUP BY SearchPhrase, COUNT(DISTINCT UserID), are the split by keys' case.)
  const bool split = rows >= kMinSampleRows && 2 * pairs >= rows && 8 * sample.groups <= rows;
  return split ? distinct : -1;
}

void MergeOwnedDistinct(const std::vector<std::unique_ptr<AggregateWorker>>& workers,
                        const ExecContext& ctx) {
  ScopedSpan span(ctx.profiler, 0, "merge states", "merge");
  AggregateStates& result = workers[0]->states();
  for (size_t a = 0; a < result.num_aggregates(); ++a) {
    size_t total = 0;
    for (const auto& worker : workers) total += worker->states().DistinctValues(a);
    result.SetDistinctCount(a, total);
  }
}

bool FilterTableMask(const plan::Plan& plan, const ExecContext& ctx, int threads, size_t batches,
                     std::vector<uint64_t>* mask, std::string* error) {
  static_assert(kBatchRows % 64 == 0, "a batch's mask words must not be shared with another's");
  const Table& table = *plan.table;
  const size_t rows = table.num_rows();
  mask->assign(BitmaskWords(rows), 0);  // one bit per row, 1/64 of an 8-byte column: not charged
  const MorselPlan morsels(0, batches, threads);
  MorselCursor cursor;
  std::atomic<bool> failed{false};
  std::vector<std::string> errors(static_cast<size_t>(threads));
  RunThreads(ctx, threads, [&](int t) {
    const ScopedMemoryActivity activity("evaluating WHERE");
    Filter filter(table, *plan.where);
    while (!failed.load(std::memory_order_relaxed) && !ctx.Interrupted()) {
      const size_t m = cursor.Take();
      if (m >= morsels.size()) break;
      ScopedSpan span(ctx.profiler, t, "filter", "scan");
      for (size_t b = morsels.Begin(m); b < morsels.End(m); ++b) {
        const size_t begin = b * kBatchRows, n = std::min(kBatchRows, rows - begin);
        span.counters().rows += n;
        if (!filter.Eval(begin, n, mask->data() + begin / 64, &errors[static_cast<size_t>(t)])) {
          failed.store(true, std::memory_order_relaxed);
          return;
        }
      }
    }
  });
  for (std::string& e : errors) {
    if (!e.empty()) {
      *error = std::move(e);
      return false;
    }
  }
  if (ctx.Interrupted()) {
    *error = ctx.StopMessage();
    return false;
  }
  return true;
}

bool MergeOwnedWorkers(const std::vector<std::unique_ptr<AggregateWorker>>& workers,
                       const ExecContext& ctx, int threads, std::vector<size_t>* part_groups,
                       std::string* error) {
  const size_t sources = workers.size();
  std::vector<size_t> offsets(sources + 1, 0);
  for (size_t w = 0; w < sources; ++w) offsets[w + 1] = offsets[w] + workers[w]->groups();
  const size_t groups = offsets.back();
  const bool track_first_rows = workers[0]->tracks_first_rows();
  const bool copy_states = part_groups == nullptr;
  // When worker 0's arrays have room for every group (sized so from a group size hint), they
  // become the merged arrays and only the other workers' groups are copied in; else all are
  // copied into new arrays. Its first rows are always its own when the states stay apart.
  const bool in_place = !copy_states || (workers[0]->states().HasCapacity(groups) &&
                                         (!track_first_rows || workers[0]->first_rows().capacity() >= groups));
  std::unique_ptr<AggregateStates> merged;
  if (copy_states) {
    merged = std::make_unique<AggregateStates>(
        in_place ? workers[0]->TakeStates() : AggregateStates(workers[0]->plan().aggregates, false));
    if (!merged->ResizeForCopy(groups, error)) return false;
  }
  FirstRows first_rows = in_place ? workers[0]->TakeFirstRows() : FirstRows();
  const size_t kept = in_place ? offsets[1] : 0;  // groups already in place
  if (in_place && track_first_rows && first_rows.size() < kept) first_rows.resize(kept, kNoRow);
  first_rows.resize(track_first_rows ? groups : 0);  // not zeroed: the threads write every one
  // The groups [kept, groups) to copy, split evenly over the threads; thread t's slice crosses
  // the workers it meets. The slices are disjoint, so no locks, and the first touch of the
  // merged arrays (page faults, the kernel zeroing fresh pages) is spread over the threads too.
  // Zeroing them up front on one thread took 457 ms of GROUP BY WatchID, ClientIP's 1.6 s on 2
  // threads (10 M groups).
  const size_t to_copy = groups - kept;
  if (copy_states || track_first_rows) {
    RunThreads(ctx, threads, [&](int t) {
      ScopedSpan span(ctx.profiler, t, "merge states", "merge");
      const size_t slice_begin = kept + to_copy * static_cast<size_t>(t) / static_cast<size_t>(threads);
      const size_t slice_end = kept + to_copy * static_cast<size_t>(t + 1) / static_cast<size_t>(threads);
      for (size_t w = 0; w < sources; ++w) {
        const size_t begin = std::max(slice_begin, offsets[w]), end = std::min(slice_end, offsets[w + 1]);
        if (begin >= end) continue;
        const AggregateWorker& worker = *workers[w];
        if (copy_states) merged->CopyGroups(worker.states(), begin - offsets[w], end - offsets[w], begin);
        if (track_first_rows) {  // groups past the worker's first rows get kNoRow
          const FirstRows& firsts = worker.first_rows();
          const size_t local_begin = begin - offsets[w], local_end = end - offsets[w];
          const size_t known = std::min(local_end, std::max(local_begin, firsts.size())) - local_begin;
          const auto at = first_rows.begin() + static_cast<std::ptrdiff_t>(begin);
          std::copy_n(firsts.begin() + static_cast<std::ptrdiff_t>(local_begin), known, at);
          std::fill_n(at + static_cast<std::ptrdiff_t>(known), local_end - local_begin - known, kNoRow);
        }
      }
      span.counters().rows = slice_end - slice_begin;
    });
  }
  std::vector<std::unique_ptr<Grouper>> parts;
  for (const auto& worker : workers) parts.push_back(worker->TakeGrouper());
  if (copy_states) {
    workers[0]->AdoptMerged(std::move(parts), std::move(*merged), std::move(first_rows));
  } else {
    part_groups->assign(sources, 0);
    for (size_t w = 0; w < sources; ++w) (*part_groups)[w] = offsets[w + 1] - offsets[w];
    workers[0]->AdoptMergedGroups(std::move(parts), std::move(first_rows));
  }
  return true;
}

}  // namespace exec
}  // namespace laneql
