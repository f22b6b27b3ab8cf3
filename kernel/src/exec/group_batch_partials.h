// Grouped aggregates whose answer depends on the order of their rows (float SUM / AVG, and the
// library aggregates that fold by batches: the moments) over few groups, split by rows: the
// order fixed by fold units of whole batches instead of by one thread per group.
//
// A float sum's or a moment's bits depend on the order of its additions, and results must be
// the same on every thread count. Such aggregates otherwise fold each group's rows in row
// order, which needs one thread per group (an owned scan, group_owned.h): with a few large
// groups (TPC-H Q1: 4 groups, one of them half the rows) the owners' shares are as uneven as
// the groups, and every owner reads every batch. Here the threads take morsels of whole fold
// units (kUnitBatches batches each, the morsels cut at unit bounds: MorselPlan's granule), so
// each unit is folded by one thread. Each unit has an entry per group (per group it touched,
// past kEveryGroupEntries groups): the float sums of that group's rows of the unit (in row
// order, from +0.0) are taken out of the states after the unit, and the library aggregates fold
// those rows into the entry's own state instead of the group's. After the merge each group's
// entries are folded in unit order. Units are fixed row ranges, so the additions and merges are
// the same for every thread count, and one thread follows the same scheme.
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
  // Batches per fold unit (65,536 rows). An entry per batch, the moments by g (1,000 groups,
  // 10 M rows: 611 K entry states, 39 MB) took 37 -> 72 ms on one thread, most of it growing,
  // faulting in and merging the entries.
  static constexpr size_t kUnitBatches = 4;

  // The float SUM / AVG aggregates of `states` (AggregateStates::IsFloatSum) and the library
  // aggregates of `aggregates` that fold by batches (FoldsByBatches).
  GroupBatchPartials(const AggregateStates& states, const std::vector<plan::Aggregate>& aggregates);
  GroupBatchPartials(const GroupBatchPartials&) = delete;
  GroupBatchPartials& operator=(const GroupBatchPartials&) = delete;

  // Before batch `batch` is folded, its rows' groups group_ids[0, count) (kNoGroup: none) and
  // `groups` groups in all: its unit's entries (the unit before closed, when this batch begins
  // another), and each row's entry (entry_ids()). Batches must come in increasing order, a
  // unit's all to one worker. False with *error when the memory limit refuses them.
  // Its unit is the unit base (SetUnitBase) + batch / kUnitBatches: a join pipeline's sink
  // folds part p's batches, numbered from 0 in the part, with base p << 32
  // (join_aggregate_sink.h), so units order as the parts' rows do.
  bool BeginBatch(size_t batch, const uint32_t* group_ids, size_t count, size_t groups, AggregateStates* states,
                  std::string* error);
  void SetUnitBase(uint64_t base) { unit_base_ = base; }
  // Aggregate a's entry states when it folds into the entries (else null): rows go to
  // entry_ids()[i] in place of their groups.
  AggregateFunctionState* EntryState(size_t a) const {
    return a < entry_states_.size() ? entry_states_[a].get() : nullptr;
  }
  const uint32_t* entry_ids() const { return entry_ids_.data(); }
  // After the worker's last batch: its last unit closed (its entries' float sums taken out of
  // `states`, leaving +0.0). False with *error when the memory limit refuses them.
  bool Finish(AggregateStates* states, std::string* error) { return !open_ || CloseUnit(states, error); }

  // After the workers' groups are merged into `result` (worker w's group g is its group
  // targets[w][g]): sets each of result's groups' float sums to its partials added in unit
  // order, and folds its library aggregates' entries into its states in unit order.
  static void Fold(const std::vector<std::unique_ptr<AggregateWorker>>& workers,
                   const std::vector<std::vector<uint32_t>>& targets, size_t result_groups,
                   AggregateStates* result);

 private:
  size_t Bytes() const;
  // The open unit's entries' float sums taken out of `states`, and the entries charged.
  bool CloseUnit(AggregateStates* states, std::string* error);

  std::vector<size_t> aggregates_;  // the float SUM / AVG aggregates
  // Per aggregate: its entries' states when it folds into entries (null for the others).
  std::vector<std::unique_ptr<AggregateFunctionState>> entry_states_;
  bool has_entry_states_ = false;
  std::vector<uint64_t> units_;     // per entry: its unit,
  std::vector<uint32_t> groups_;    // its group (the worker's id),
  std::vector<double> sums_;        // and one partial per aggregate of aggregates_
  std::vector<uint32_t> stamp_;     // per group: the number of the last unit opened that touched it,
  std::vector<uint32_t> entry_of_;  // and its entry in that unit
  std::vector<uint32_t> entry_ids_;  // per row of the batch: its entry (kNoGroup: none)
  bool open_ = false;               // a unit's entries are being filled:
  uint64_t unit_ = 0;               // that unit,
  uint32_t opened_ = 0;             // its number among the units this worker opened (from 1),
  uint64_t unit_base_ = 0;          // SetUnitBase
  size_t unit_first_ = 0;           // its first entry,
  bool every_group_ = false;        // whether it has an entry per group (in group order),
  size_t unit_groups_ = 0;          // for how many groups
  size_t charged_ = 0;              // bytes charged to the query's budget
};

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_GROUP_BATCH_PARTIALS_H_
