// Grouped aggregates whose answer depends on the order of their rows (float SUM / AVG, and the
// library aggregates that fold by batches: the moments) over few groups, split by rows: the
// order fixed by batches instead of by one thread per group.
//
// A float sum's or a moment's bits depend on the order of its additions, and results must be
// the same on every thread count. Such
// aggregates otherwise fold each group's rows in row order, which needs one thread per group
// (an owned scan, group_owned.h): with a few large groups (TPC-H Q1: 4 groups, one of them half
// the rows) the owners' shares are as uneven as the groups, and every owner reads every batch.
// Here the threads take whole batches as an ungrouped scan does. Each batch has an entry per
// group (per group it touched, past kEveryGroupEntries groups): the float sums of that group's
// rows of the batch (in row order, from +0.0) are taken out of the states after the batch, and
// the library aggregates fold those rows into the entry's own state instead of the group's.
// After the merge each group's entries are folded in batch order. Batches are fixed row ranges
// (kBatchRows), so the additions and merges are the same for every thread count, and one
// thread follows the same scheme.
//
// The executor chooses this when the table's sample shows at most kMaxGroups groups
// (executor.cc, FewGroupsSampled), for every thread count alike. Each entry costs 8 bytes plus
// 8 per float sum plus a state per library aggregate; the entries are charged to the query's
// memory budget, as the states are, until it ends.
#ifndef LANEQL_EXEC_GROUP_BATCH_PARTIALS_H_
#define LANEQL_EXEC_GROUP_BATCH_PARTIALS_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "src/exec/aggregate_states.h"

namespace laneql {
namespace exec {

class AggregateWorker;

class GroupBatchPartials {
 public:
  // Sampled groups at most this many (past kFewGroups, keys repeating: FewGroupsSampled): a
  // batch then has at most as many entries (one in 16 of its rows), which the fold after the
  // scan adds at a fraction of the scan's cost. GROUP BY g (1,000 values) with sum(d) over 10 M
  // rows: 32 -> 35-38 ms on one thread, 45 -> 20 ms on two, where the split by keys had each
  // owner read every batch.
  static constexpr size_t kMaxGroups = 1024;
  // Up to this many sampled groups, whether the keys repeat is not asked.
  static constexpr size_t kFewGroups = 64;
  // Up to this many groups, each batch takes an entry for every group, touched or not: cheaper
  // than finding the touched ones row by row (1,000 groups on one thread: 38 against 46 ms).
  static constexpr size_t kEveryGroupEntries = 1024;

  // The float SUM / AVG aggregates of `states` (AggregateStates::IsFloatSum) and the library
  // aggregates of `aggregates` that fold by batches (FoldsByBatches).
  GroupBatchPartials(const AggregateStates& states, const std::vector<plan::Aggregate>& aggregates);
  GroupBatchPartials(const GroupBatchPartials&) = delete;
  GroupBatchPartials& operator=(const GroupBatchPartials&) = delete;

  // Before batch `batch` is folded, its rows' groups group_ids[0, count) (kNoGroup: none) and
  // `groups` groups in all: the batch's entries, and each row's entry (entry_ids()). Batches
  // must come in increasing order. False with *error when the memory limit refuses them.
  bool BeginBatch(size_t batch, const uint32_t* group_ids, size_t count, size_t groups, std::string* error);
  // Aggregate a's entry states when it folds into the entries (else null): rows go to
  // entry_ids()[i] in place of their groups.
  AggregateFunctionState* EntryState(size_t a) const {
    return a < entry_states_.size() ? entry_states_[a].get() : nullptr;
  }
  const uint32_t* entry_ids() const { return entry_ids_.data(); }
  // After the batch was folded into `states`: its entries' float sums taken out (leaving +0.0).
  // False with *error when the memory limit refuses them.
  bool EndBatch(AggregateStates* states, std::string* error);

  // After the workers' groups are merged into `result` (worker w's group g is its group
  // targets[w][g]): sets each of result's groups' float sums to its partials added in batch
  // order, and folds its library aggregates' entries into its states in batch order, over
  // `batches` batches.
  static void Fold(const std::vector<std::unique_ptr<AggregateWorker>>& workers,
                   const std::vector<std::vector<uint32_t>>& targets, size_t batches,
                   size_t result_groups, AggregateStates* result);

 private:
  size_t Bytes() const;

  std::vector<size_t> aggregates_;  // the float SUM / AVG aggregates
  // Per aggregate: its entries' states when it folds into entries (null for the others).
  std::vector<std::unique_ptr<AggregateFunctionState>> entry_states_;
  bool has_entry_states_ = false;
  std::vector<uint32_t> batches_;   // per entry: its batch,
  std::vector<uint32_t> groups_;    // its group (the worker's id),
  std::vector<double> sums_;        // and one partial per aggregate of aggregates_
  std::vector<uint32_t> stamp_;     // per group: 1 + the last batch that touched it,
  std::vector<uint32_t> entry_of_;  // and its entry in that batch
  std::vector<uint32_t> entry_ids_;  // per row of the batch: its entry (kNoGroup: none)
  size_t batch_first_ = 0;          // the batch's first entry
  size_t charged_ = 0;              // bytes charged to the query's budget
};

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_GROUP_BATCH_PARTIALS_H_
