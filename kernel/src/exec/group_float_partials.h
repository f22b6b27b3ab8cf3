// Grouped float SUM / AVG over few groups, split by rows: the order of the additions fixed by
// batches instead of by one thread per group.
//
// A float sum's bits depend on the order of its additions, and results must be the same on
// every thread count. Grouped float sums otherwise add each group's values in row order, which
// needs one thread per group (an owned scan, group_owned.h): with a few large groups (TPC-H Q1:
// 4 groups, one of them half the rows) the owners' shares are as uneven as the groups, and
// every owner reads every batch. Here the threads take whole batches as an ungrouped scan does;
// after each batch the partial sum of every group the batch touched (its rows in row order,
// from +0.0) is taken out of the states, and after the merge each group's partials are added
// in batch order. Batches are fixed row ranges (kBatchRows), so the additions are the same for
// every thread count, and one thread follows the same scheme.
//
// The executor chooses this when the table's sample shows at most kMaxGroups groups
// (executor.cc, FewGroupsSampled), for every thread count alike. Each entry costs 8 bytes plus 8 per float sum;
// the entries are charged to the query's memory budget, as the states are, until it ends.
#ifndef LANEQL_EXEC_GROUP_FLOAT_PARTIALS_H_
#define LANEQL_EXEC_GROUP_FLOAT_PARTIALS_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "src/exec/aggregate_states.h"

namespace laneql {
namespace exec {

class AggregateWorker;

class GroupFloatPartials {
 public:
  // Sampled groups at most this many (past kFewGroups, keys repeating: FewGroupsSampled):
  // a batch then has at most as many entries (one in 16 of its rows), which the fold after the
  // scan adds at a fraction of the scan's cost. GROUP BY g (1,000 values) with sum(d) over 10 M
  // rows: 32 -> 38 ms on one thread, 45 -> 20 ms on two, where the split by keys had each
  // owner read every batch.
  static constexpr size_t kMaxGroups = 1024;
  // Up to this many sampled groups, whether the keys repeat is not asked.
  static constexpr size_t kFewGroups = 64;
  // Up to this many groups, each batch takes an entry for every group, touched or not: cheaper
  // than finding the touched ones row by row (1,000 groups on one thread: 38 against 46 ms).
  static constexpr size_t kEveryGroupEntries = 1024;

  // The float SUM / AVG aggregates of `states` (AggregateStates::IsFloatSum).
  explicit GroupFloatPartials(const AggregateStates& states);
  GroupFloatPartials(const GroupFloatPartials&) = delete;
  GroupFloatPartials& operator=(const GroupFloatPartials&) = delete;

  // After batch `batch` was folded into `states`, its rows' groups group_ids[0, count)
  // (kNoGroup: none): takes each touched group's partial sums out (leaving +0.0). Batches must
  // come in increasing order. False with *error when the memory limit refuses the entries.
  bool TakeBatch(size_t batch, const uint32_t* group_ids, size_t count, size_t groups,
                 AggregateStates* states, std::string* error);

  // After the workers' groups are merged into `result` (worker w's group g is its group
  // targets[w][g]): sets each of result's groups' float sums to its partials added in batch
  // order, over `batches` batches.
  static void Fold(const std::vector<std::unique_ptr<AggregateWorker>>& workers,
                   const std::vector<std::vector<uint32_t>>& targets, size_t batches,
                   size_t result_groups, AggregateStates* result);

 private:
  size_t Bytes() const;

  std::vector<size_t> aggregates_;  // the float SUM / AVG aggregates
  std::vector<uint32_t> batches_;   // per entry: its batch,
  std::vector<uint32_t> groups_;    // its group (the worker's id),
  std::vector<double> sums_;        // and one partial per aggregate of aggregates_
  std::vector<uint32_t> stamp_;     // per group: 1 + the last batch that touched it
  size_t charged_ = 0;              // bytes charged to the query's budget
};

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_GROUP_FLOAT_PARTIALS_H_
