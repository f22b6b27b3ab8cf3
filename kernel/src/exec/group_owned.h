// The owned scan: hash GROUP BY with many groups, split by key instead of by rows.
//
// With thread-local tables and a merge afterwards (group_merge.h), a key that occurs all over
// the table ends up in every thread's table and is inserted again by the merge; when most keys
// are rare (GROUP BY UserID, WatchID, URL) the merge re-inserts nearly every group and two
// threads gain little or lose. In an owned scan every thread takes every batch but keeps only
// the rows whose key hash falls to it (HashOwnership::OwnerOf): the threads' groups are
// disjoint, each group's rows are all folded by one thread in row order, and the "merge" only
// lays the threads' groups and states side by side.
// Each batch's keys are evaluated and hashed once, by whichever thread is free, and shared
// (owned_scan.h); what each owner still does for every row is to read its hash and skip the
// rows of others. The split pays when the groups are many (a table larger than the cache,
// whose copies a split by rows would merge): hence the sample.
// The WHERE is not repeated: the thread that prepares a batch evaluates it there, for every
// owner (ungrouped, where no batch is prepared, all threads first evaluate it once over the
// table into one bit per row, FilterTableMask, which every owner then reads).
#ifndef LANEQL_EXEC_GROUP_OWNED_H_
#define LANEQL_EXEC_GROUP_OWNED_H_

#include <memory>
#include <string>
#include <vector>

#include "src/exec/aggregate_worker.h"
#include "src/exec/exec_context.h"
#include "src/exec/group_size_hints.h"

namespace laneql {
namespace exec {

// Each owner still reads every row's hash and compacts away the rows of others, so that work
// grows with the thread count; beyond this many threads the two-level merge is used. (Set when
// each owner also evaluated every key; with the keys prepared once it may go up, not measured.)
inline constexpr int kMaxOwners = 4;

// A few batches spread evenly over the table (kSampleBatches of kBatchRows rows), grouped and
// aggregated by a fresh worker on the calling thread the first time a choice below asks, and
// summarised for every later choice of the same query: a sample for each choice took 0.9 ms
// apiece, serially (GROUP BY CounterID with AVG(length(URL)), 67 ms on one thread, took two
// on two threads). The summary is kept with the database's group size hints
// (group_size_hints.h), so that a later run of the query takes none. Shows as a span "sample"
// in the profile.
class TableSample {
 public:
  static constexpr size_t kSampleBatches = 4;
  // Tables of fewer batches give no sample: it would be too large a part of them.
  static constexpr size_t kMinBatches = 8 * kSampleBatches;

  TableSample(const plan::Plan& plan, const ExecContext& ctx, size_t batches);
  TableSample(const TableSample&) = delete;
  TableSample& operator=(const TableSample&) = delete;

  // The sample's summary, scanned or remembered; null for a table of fewer than kMinBatches
  // batches, or where the sample's scan failed (the choices then take their default).
  const SampleSummary* Get();

 private:
  const plan::Plan& plan_;
  const ExecContext& ctx_;
  const size_t batches_;
  bool taken_ = false, have_ = false;
  SampleSummary summary_;
};

// Whether the table's sample formed at most `max_groups` groups past the WHERE (false without
// a sample), and, past `few_groups` groups, keys that repeat (a group per 16 sampled rows at
// most: behind a sparse WHERE a few hundred sampled rows may each start a group of a table of
// many): grouped float sums then go by batch partials (group_batch_partials.h), split by rows
// whatever DatabaseOptions::group_split asks. The sample depends on neither the thread count
// nor the split, so neither do the choice and the sums' bits.
bool FewGroupsSampled(TableSample* table_sample, size_t max_groups, size_t few_groups);
// Whether an owned scan on `threads` threads can run at all: 2 to kMaxOwners threads, hashed
// keys without a group cap (`worker`, one of the query's fresh workers, tells), and the split
// by keys not ruled out (DatabaseOptions::group_split).
bool CanOwnScan(const ExecContext& ctx, int threads, const AggregateWorker& worker);
// Whether `plan` should run as an owned scan on `threads` threads (CanOwnScan). Under the automatic choice
// it groups a few batches spread over the table, and says yes when at least half of the sampled
// rows start a group of their own: the table will hold many groups. Or when the batches share
// no keys while each repeats them, a key stored in order with a few rows each (l_orderkey):
// the table holds many groups too, each in one place. (Where the key's zone maps show it
// ascending, the executor takes key segments first: group_key_ranges.h.)
bool PreferOwnedScan(const plan::Plan& plan, const ExecContext& ctx, int threads,
                     const AggregateWorker& worker, TableSample* table_sample);

// Ungrouped, the same split by value for COUNT(DISTINCT): when every aggregate is one and the
// sample's first set holds at least half of the sampled rows (COUNT(DISTINCT UserID)), each
// thread reads every batch but keeps only the values that hash to it, and the count is the sum
// of the threads' set sizes; the split by rows would build nearly the same set in every thread
// and then insert all of them again to count their union.
bool PreferOwnedDistinct(const plan::Plan& plan, const ExecContext& ctx, int threads,
                         TableSample* table_sample);
// The COUNT(DISTINCT)s to count by radix partitions (distinct_partitions.h): those of a
// fixed-width value (AggregateStates::CanPartitionDistinct; `worker` is one of the query's fresh
// workers) whose set of values, grouped of (group, value) pairs, the sample expects to reach
// ctx.partitioned_distinct_min_values (every one when that is 0; none under a split by keys,
// which keeps the owners' sets). On one thread too: its set outgrows the caches all the same.
// Grouped, not under GROUP BY ... LIMIT; with `many_groups`, whether the sample also shows
// many groups (as PreferOwnedScan; false when no sample was taken).
std::vector<size_t> PartitionedDistincts(const plan::Plan& plan, const ExecContext& ctx,
                                         const AggregateWorker& worker, TableSample* table_sample,
                                         bool* many_groups = nullptr);
// Grouped, whether to aggregate by radix partitions (group_partitions.h; the caller checks
// that the partitions can carry the query, MakeGroupRecordLayout): when the sample's rows after
// the WHERE mostly start groups of their own (as PreferOwnedScan) but their repeats still show
// keys of more than one row (not a group per row), and the table is expected to have at least
// ctx.partitioned_group_min_rows rows after the WHERE (always when that is 0; never when it is
// SIZE_MAX, or under a split by keys asked for). On one thread too: its table outgrows the
// caches all the same. Not for keys stored together (PreferOwnedScan), whose rows reach one
// hash table in order: GROUP BY l_orderkey took 214 ms CPU partitioned on 16 threads, 170 ms
// split by rows, 110 ms on one thread.
bool PreferPartitionedGroups(const plan::Plan& plan, const ExecContext& ctx, int threads,
                             TableSample* table_sample);
// Grouped, whether the sample shows many groups past the WHERE, as rows that mostly start groups
// of their own or keys stored together (as PreferOwnedScan): what makes a merge of the threads'
// groups costly. False without a sample.
bool ManyGroupsSampled(const plan::Plan& plan, TableSample* table_sample);
// Grouped, for a GROUP BY run for the first time (no group size hint yet): the groups each of
// `threads` threads can expect, from a sample that shows about as many groups as rows (as
// PreferPartitionedGroups estimates rows per group from the sample's repeats) or of keys
// stored together (PreferOwnedScan), else 0. Sized for them up front, the first run of
// GROUP BY WatchID, ClientIP neither doubles its tables and states through every size nor
// faults in the memory of each (group_size_hints.h).
size_t FirstRunGroupsPerThread(const plan::Plan& plan, int threads, TableSample* table_sample);
// Grouped, the split by value: when the one COUNT(DISTINCT) has a fixed-width argument, and the
// sample shows few groups but at least half as many (group, value) pairs as rows (RegionID,
// COUNT(DISTINCT UserID)), each thread reads every batch and aggregates only the rows whose
// value hashes to it. Every thread then holds every group, the threads' pairs are disjoint, and
// the merge adds counts instead of re-inserting a million pairs into one set on one thread.
// Each row is aggregated by one thread, so the other aggregates merge as usual; float sums are
// left out (their rows are folded in row order, hence split by keys). Returns the
// COUNT(DISTINCT)'s aggregate index, or -1 for no.
int PreferValueSplit(const plan::Plan& plan, const ExecContext& ctx, int threads,
                     TableSample* table_sample);
// After such an ungrouped scan: workers[0]'s counts become the sums.
void MergeOwnedDistinct(const std::vector<std::unique_ptr<AggregateWorker>>& workers,
                        const ExecContext& ctx);

// The WHERE of `plan` over the whole table on `threads` threads: bit r of *mask is set when row
// r passes (BitmaskWords(rows) words; a batch's words are written by one thread, as batches
// start at multiples of 64 rows).
bool FilterTableMask(const plan::Plan& plan, const ExecContext& ctx, int threads, size_t batches,
                     std::vector<uint64_t>* mask, std::string* error);

// Makes workers[0] hold every worker's groups (worker w's after those of workers before it)
// and first rows, after an owned scan. With `part_groups` null it holds their states too
// (copied into its arrays); else every worker keeps its states, *part_groups gets each one's
// group count, and the output reads the states side by side (StateParts): for when nothing
// after the merge writes to workers[0]'s states.
bool MergeOwnedWorkers(const std::vector<std::unique_ptr<AggregateWorker>>& workers,
                       const ExecContext& ctx, int threads, std::vector<size_t>* part_groups,
                       std::string* error);

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_GROUP_OWNED_H_
