// One thread's share of an aggregation: its own filter, evaluator, grouping and aggregate
// states over the batches it takes, and the merge of another thread's share into it.
#ifndef LANEQL_EXEC_AGGREGATE_WORKER_H_
#define LANEQL_EXEC_AGGREGATE_WORKER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "src/exec/aggregate_states.h"
#include "src/exec/expr_eval.h"
#include "src/exec/filter.h"
#include "src/exec/group_batch_partials.h"
#include "src/exec/group_stage.h"
#include "src/exec/profile.h"
#include "src/plan/bound_expr.h"

namespace laneql {
namespace exec {

// Per-batch partial sums of the ungrouped float SUM / AVG aggregates, [aggregate][batch]:
// written by whichever thread scans the batch, added up in batch order after the scan, so the
// result is the same for every thread count.
using FloatPartials = std::vector<std::vector<double>>;

// alignas(64): the workers of a query are written by different threads all through the scan;
// starting each on its own cache line keeps one worker's hot fields (counters, vectors' sizes)
// off the line of another's.
// Average bytes of column data per row that a scan for `plan` reads: the columns its WHERE, group
// keys and aggregate arguments name (a string column: its offset and average text). For the
// profile's byte counters, from which GB/s figures are drawn.
uint64_t ScanBytesPerRow(const plan::Plan& plan, const Table& table);

// One batch of a split by keys or values made ready by AggregateWorker::PrepareBatch for
// every owner.
struct PreparedBatch {
  size_t table_rows = 0;        // the batch's rows before the WHERE
  RowSet rows;                  // the rows the WHERE keeps (ids in `ids` unless all of them)
  std::vector<uint32_t> ids;
  std::vector<Vec> keys;        // the GROUP BY keys of those rows
  PreparedKeys prepared;        // and their words / hashes
  std::vector<uint64_t> value_hashes;  // split by value instead: the COUNT(DISTINCT) values' hashes
  // Split by keys behind a WHERE: the aggregates' arguments over `rows`, where arg_ready[a] (of
  // a fixed width, CanCompressVec), evaluated once for every owner, which compresses out its
  // own rows. Each owner evaluating its rows' arguments read the whole batch of every argument
  // column through the WHERE's mask (SearchPhrase <> '', COUNT(DISTINCT UserID) on 2 threads:
  // the compress took twice one thread's time).
  std::vector<Vec> args;
  std::vector<uint8_t> arg_ready;
};

class AggregateWorker;
class GroupPartitions;  // group_partitions.h
struct GroupRecordLayout;

class alignas(64) AggregateWorker {
 public:
  AggregateWorker(const plan::Plan& plan, int thread, Profiler* profiler);
  // Over `table` instead of the plan's (of the same columns): a pipeline's sink
  // (join_aggregate_sink.h) refills it with each part's rows (Table::ReplaceRows).
  AggregateWorker(const plan::Plan& plan, const Table& table, int thread, Profiler* profiler);
  // `group_cap`: GroupStage's cap (0 = none). `track_first_rows`: record the row each group
  // first appears in (needed when several threads' groups are merged). `partials`: see above
  // (null when there is no ungrouped float sum). `lookup_table`: see Grouper::Init. `direct_ranges`: an integer key of a small range may take the direct table
  // (GroupStage::Init), which no split by keys can divide.
  bool Init(size_t group_cap, bool track_first_rows, FloatPartials* partials, bool lookup_table,
            std::string* error, bool direct_ranges = true);
  // Sizes the groups' hash table for `groups` groups, the states for `state_groups` >= groups
  // and the first rows for `first_row_groups` >= groups up front (group_size_hints.h; more for
  // the worker whose arrays an owned merge fills with every thread's groups), and string keys'
  // bytes for `key_bytes`. False (nothing gained, nothing lost) when the memory limit refuses.
  bool Presize(size_t groups, size_t state_groups, size_t first_row_groups, size_t key_bytes,
               std::string* error);
  // Folds batches [first, last) (batch b = rows [b * kBatchRows, ...)) into the states.
  bool ScanBatches(size_t first, size_t last, std::string* error);
  // The owned scan's two steps (owned_scan.h): one thread prepares a batch (selects its rows by
  // the WHERE's table mask, evaluates and hashes the GROUP BY keys, or under a split by value
  // the COUNT(DISTINCT) argument: nothing of this worker's groups or states changes), then
  // every owner folds its share of it in.
  bool PrepareBatch(size_t batch, PreparedBatch* out, std::string* error);
  bool ScanPreparedBatch(const PreparedBatch& batch, std::string* error);
  // Radix-partitioned GROUP BY (group_partitions.h): appends the rows of batches [first, last)
  // to `out` as records of `layout` instead of aggregating them.
  bool PartitionBatches(size_t first, size_t last, const GroupRecordLayout& layout, GroupPartitions* out,
                        std::string* error);
  // Adds `other`'s groups and states (other rows of the same query) to this worker's; with
  // `mapping`, grouped, (*mapping)[g] = this worker's group for other's group g.
  bool Merge(const AggregateWorker& other, std::string* error, std::vector<uint32_t>* mapping = nullptr);
  // The same without a grouped COUNT(DISTINCT)'s pairs, which the caller counts
  // (AggregateStates::CountPairsNotIn); *mapping: this worker's group for each of other's.
  bool MergeLeavingPairs(const AggregateWorker& other, std::vector<uint32_t>* mapping, std::string* error);

  // Owned scan (group_owned.h): this worker aggregates only the rows whose group key hashes to
  // `owner` of `owners`, and is given every batch. Hashed GROUP BY keys only.
  void SetOwnership(int owner, int owners);
  // Grouped COUNT(DISTINCT) split by value (group_owned.h, PreferValueSplit): this worker
  // aggregates only the rows whose argument of COUNT(DISTINCT) aggregate `distinct` hashes to
  // `owner` of `owners`. Every worker holds every group; the (group, value) pairs are disjoint.
  void SetValueOwnership(int owner, int owners, size_t distinct);
  // Grouped float SUM / AVG and library aggregates that fold by batches, by batch partials
  // (group_batch_partials.h): each fold unit's partial sums of the groups it touched taken out
  // of the states after it, and its rows of those library aggregates folded into the partials'
  // entry states instead of the groups'. The worker must be given whole units.
  void KeepGroupBatchPartials();
  const GroupBatchPartials* group_batch_partials() const { return group_partials_.get(); }
  // After this worker's last batch: its last fold unit's partials taken out of the states.
  bool FinishGroupBatchPartials(std::string* error);
  // Ungrouped library aggregates that fold by batches (FoldsByBatches): this worker folds batch b
  // of each into group b of a state of its own (room for `batches`), and
  // MergeBatchFunctionStates merges those in batch order after the scan. The rows are then split
  // into the batches alike on every thread count, so that every thread count gives the same
  // answer (floats too), and the threads share the rows.
  bool KeepBatchFunctionStates(size_t batches, std::string* error);
  // The first rows noted from now on are `base` + the row in the table (a sink's part p:
  // p << 32, so that groups order by their first row across parts as over the parts joined).
  void SetRowBase(uint64_t base) { row_base_ = base; }
  // The fold units of KeepGroupBatchPartials from now on: `base` + batch / kUnitBatches
  // (GroupBatchPartials::SetUnitBase).
  void SetUnitBase(uint64_t base) {
    if (group_partials_ != nullptr) group_partials_->SetUnitBase(base);
  }
  // Ungrouped float SUM / AVG: their per-batch partial sums go to `partials` from now on (see
  // FloatPartials; a sink's worker gets one per part).
  void SetFloatPartials(FloatPartials* partials) { partials_ = partials; }
  // Reads the WHERE's result from `table_mask` (bit r: row r passes; FilterTableMask) instead of
  // evaluating it: the owners of an owned scan share one evaluation.
  void UseFilterMask(const uint64_t* table_mask) { table_mask_ = table_mask; }
  // GROUP BY ... LIMIT: takes `other`'s groups once its cap is reached (GroupStage::FreezeAs).
  bool FreezeGroupsAs(const AggregateWorker& other, std::string* error) {
    return ungrouped_ || grouper_.FreezeAs(other.grouper_, error);
  }
  std::unique_ptr<Grouper> TakeGrouper() { return grouper_.TakeGrouper(); }

  // Replaces this worker's groups and states by a two-level merge's (group_merge.cc).
  void AdoptMerged(std::vector<std::unique_ptr<Grouper>> parts, AggregateStates states,
                   FirstRows first_rows);
  // The same keeping this worker's states, which then hold only its own groups, the first
  // part (an owned scan whose output reads every worker's states: MergeOwnedWorkers).
  void AdoptMergedGroups(std::vector<std::unique_ptr<Grouper>> parts, FirstRows first_rows);

  const plan::Plan& plan() const { return plan_; }
  bool ungrouped() const { return ungrouped_; }
  bool tracks_first_rows() const { return track_first_rows_; }
  size_t groups() const { return ungrouped_ ? 1 : grouper_.size(); }
  const GroupStage& grouper() const { return grouper_; }
  AggregateStates& states() { return states_; }
  const AggregateStates& states() const { return states_; }
  const FirstRows& first_rows() const { return first_rows_; }
  // Moves the states and first rows out (an owned merge into this worker's own arrays).
  AggregateStates TakeStates() { return std::move(states_); }
  FirstRows TakeFirstRows() { return std::move(first_rows_); }
  const ProfileCounters& counters() const { return counters_; }

 private:
  friend void MergeBatchFunctionStates(const std::vector<std::unique_ptr<AggregateWorker>>& workers,
                                       size_t batches);
  bool ScanBatch(size_t batch, std::string* error);
  // The WHERE over rows [begin, begin + n) into mask_ (from the table mask when one is shared);
  // returns how many rows pass, or kNoRow on an error.
  size_t FilterBatch(size_t begin, size_t n, std::string* error);
  // Grouped: after the group ids of `selection` are in group_ids_, the states grow to the
  // groups, an owner drops the other owners' rows, and the aggregates take the rows.
  // `prepared`: the batch's prepared arguments (PreparedBatch::args), for an owner.
  bool FoldGrouped(RowSet selection, size_t groups_before, std::string* error,
                   const PreparedBatch* prepared = nullptr);
  void NoteFirstRows(const RowSet& rows, size_t groups_before);
  // The second argument of a library aggregate that takes two, over `rows` (nothing else).
  bool EvalSecondArg(const plan::Aggregate& aggregate, const RowSet& rows, Vec* out, std::string* error);
  // Folds aggregate a's argument `arg` (over `rows`, `selected` of them) into its states with
  // its second argument and ORDER BY keys, evaluated here.
  bool UpdateFunction(size_t a, const RowSet& rows, Vec* arg, size_t selected, std::string* error);
  // Ungrouped, aggregate a of KeepBatchFunctionStates: `arg` (over `rows`, `selected` of them)
  // into group `batch` of its batch state.
  bool UpdateBatchFunction(size_t a, const RowSet& rows, Vec* arg, size_t selected, size_t batch,
                           std::string* error);
  // Merge and MergeLeavingPairs (grouped).
  bool MergeGroupsAndStates(const AggregateWorker& other, std::vector<uint32_t>* mapping, bool insert_pairs,
                            std::string* error);
  // Owned scan: drops the rows of other owners (group id kNoGroup) from `selection` (its ids
  // then in ids_) and group_ids_; returns how many are left. With `evaluates_rows` false (no
  // argument is evaluated over the rows kept) it leaves out their mask (RowSet::mask).
  size_t KeepOwnedRows(RowSet* selection, bool evaluates_rows);
  // After KeepOwnedRows of an id selection of the batch from `begin`: the kept rows (ids_[0,
  // kept)) also as a mask over the batch, when dense enough (RowSet::mask).
  void MaskKeptRows(size_t begin, size_t kept, RowSet* selection);
  // An id selection of the n rows from `begin` gets `mask` (those rows' bits) as its
  // RowSet::mask when at least 1 row in kDenseMaskShare is in it: a column's gathers would
  // then touch nearly every line anyway (a 64-byte line holds 32 2-byte values), and a
  // compress reads them in order with vector loads.
  static constexpr size_t kDenseMaskShare = 16;
  static void UseDenseMask(const uint64_t* mask, size_t begin, size_t n, RowSet* rows);
  // Value split: the hashes of the COUNT(DISTINCT) argument of `selection`'s rows (preparing a
  // batch), then dropping from `selection` the rows whose value another worker owns (its ids
  // then in ids_); returns how many are left.
  bool HashSplitValues(const RowSet& selection, std::vector<uint64_t>* hashes, std::string* error);
  size_t KeepOwnedValues(RowSet* selection, const uint64_t* hashes);

  const plan::Plan& plan_;
  const Table& table_;
  const bool ungrouped_;
  const int thread_;
  Profiler* profiler_;
  AggregateStates states_;
  GroupStage grouper_;
  Evaluator evaluator_;
  std::unique_ptr<Filter> filter_;
  const uint64_t* table_mask_ = nullptr;  // UseFilterMask
  FloatPartials* partials_ = nullptr;
  // KeepBatchFunctionStates: per aggregate, its batch state (null for the others), and the
  // batch's number as every row's group.
  std::vector<std::unique_ptr<AggregateFunctionState>> batch_states_;
  std::vector<uint32_t> batch_ids_;
  std::unique_ptr<GroupBatchPartials> group_partials_;  // KeepGroupBatchPartials
  bool track_first_rows_ = false;
  bool owned_ = false;  // SetOwnership with owners > 1
  // SetValueOwnership: the aggregate whose argument splits the rows (-1: none), and scratch.
  int value_split_ = -1;
  HashOwnership value_owners_;
  std::vector<uint64_t> value_words_, value_owned_;
  FirstRows first_rows_;  // per group, when tracked
  uint64_t row_base_ = 0;  // SetRowBase
  std::vector<uint64_t> mask_;
  std::vector<uint32_t> ids_, group_ids_;
  std::vector<uint64_t> owned_mask_;       // KeepOwnedRows' scratch: the rows kept (a bit
                                           // per row of the selection it was given),
  std::vector<uint32_t> owned_scratch_;    // and the compressed ids (swapped in)
  std::vector<uint64_t> kept_rows_mask_;   // MaskKeptRows
  std::vector<Vec> fused_args_;            // FoldGrouped: the aggregates' arguments,
  std::vector<size_t> fused_aggs_;         // those folded by UpdateFloatSums,
  std::vector<size_t> fused_count_stars_;  // the COUNT(*)s it counts,
  std::vector<const double*> fused_values_;  // and their values
  PreparedBatch partition_batch_;     // PartitionBatches' batch
  std::vector<Vec> partition_args_;  // and its arguments
  uint64_t bytes_per_row_ = 0;
  ProfileCounters counters_;
};

// After a scan with KeepBatchFunctionStates: each such aggregate's batch states of every worker
// folded into workers[0]'s states (its one group), batch by batch in batch order.
void MergeBatchFunctionStates(const std::vector<std::unique_ptr<AggregateWorker>>& workers, size_t batches);

static_assert(alignof(AggregateWorker) == 64,
              "each thread's worker starts on its own cache line (no false sharing in the scan)");

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_AGGREGATE_WORKER_H_
