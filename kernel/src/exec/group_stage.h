// The executor's grouping step around Grouper: evaluates the GROUP BY keys of a batch, hashes
// only the keys that vary (a constant key, as in GROUP BY 1, URL with SELECT 1, is added back
// at the end), and for GROUP BY ... LIMIT n without ORDER BY or HAVING stops admitting groups
// once n exist: from then on rows of other keys are only looked up, not inserted, so the hash
// table stays at n groups (cache-resident) instead of growing to every distinct key. The n groups kept are the
// first n seen, each with its complete aggregates (SQL leaves which n groups unspecified).
#ifndef LANEQL_EXEC_GROUP_STAGE_H_
#define LANEQL_EXEC_GROUP_STAGE_H_

#include <memory>
#include <string>
#include <vector>

#include "laneql/table.h"
#include "src/exec/exec_context.h"
#include "src/exec/expr_eval.h"
#include "src/exec/grouping.h"
#include "src/plan/bound_expr.h"

namespace laneql {
namespace exec {

class GroupStage {
 public:
  // `group_cap`: stop admitting new groups past this many (0 = no cap). `lookup_table`: see
  // Grouper::Init. `table`: the table the keys' columns are of; one
  // key that is an integer column of it whose values span at most Grouper::kDirectSlots
  // (Column::IntegerRange: one scan of the column, kept with it) takes the direct table.
  bool Init(const std::vector<plan::BoundExprPtr>& keys, size_t group_cap, bool lookup_table,
            std::string* error, const Table* table = nullptr);
  // Whether the varying keys are one string key.
  bool OneStringKey() const { return types_.size() == 1 && IsString(types_[0]); }
  // Group ids of `rows` (kNoGroup for rows whose group was not admitted).
  bool Assign(Evaluator* evaluator, const RowSet& rows, uint32_t* group_ids, std::string* error);
  // Assign in two steps, for the owned scan's shared preparation (owned_scan.h): Prepare
  // evaluates and hashes the keys of `rows` into *keys and *prepared and changes nothing here
  // (any thread's stage for the same query gives the same); AssignPrepared takes the groups.
  // Hashed groupers only (CanMergeByPartition).
  bool Prepare(Evaluator* evaluator, const RowSet& rows, std::vector<Vec>* keys,
               PreparedKeys* prepared, std::string* error) const;
  bool AssignPrepared(const std::vector<Vec>& keys, const PreparedKeys& prepared,
                      uint32_t* group_ids, std::string* error);
  size_t size() const;
  // True once the cap is reached: from then on no group is added, only the first cap counted.
  bool frozen() const { return frozen_; }
  // Makes this (fresh) stage hold `other`'s frozen groups, with the same ids: the threads that
  // scan the rest of the table after one thread found the first cap groups (executor.cc).
  bool FreezeAs(const GroupStage& other, std::string* error);
  // Room for `groups` groups before any is added (Grouper::Reserve).
  bool Reserve(size_t groups, size_t key_bytes, std::string* error) {
    return grouper_->Reserve(groups, key_bytes, error);
  }
  // Adds the groups of `other` (the same keys over another thread's rows; under a group cap
  // both stages frozen on the same groups, FreezeAs) and sets (*mapping)[g] = this stage's id
  // for other's group g (AggregateStates::Merge).
  bool Merge(const GroupStage& other, std::vector<uint32_t>* mapping, std::string* error);

  // Two-level (partitioned) merge, see group_merge.h. Possible for hashed keys without a cap.
  bool CanMergeByPartition() const;
  const Grouper& grouper() const { return *grouper_; }
  // Grouper::KeyBytes, 0 without a grouper (constant keys only).
  size_t KeyBytes() const { return grouper_ != nullptr ? grouper_->KeyBytes() : 0; }
  // An empty grouper for this stage's keys (one partition of the merged groups).
  bool NewGrouper(std::unique_ptr<Grouper>* out, std::string* error) const;
  // Makes the merged partitions this stage's groups: partition p's group i gets the id
  // (groups of partitions before p) + i.
  void AdoptPartitions(std::vector<std::unique_ptr<Grouper>> parts);
  // Owned scan (Grouper::SetOwnership). Needs CanMergeByPartition().
  void SetOwnership(uint32_t owner, uint32_t owners) { grouper_->SetOwnership(owner, owners); }
  // Hands this stage's grouper over (to become one part of AdoptPartitions elsewhere).
  std::unique_ptr<Grouper> TakeGrouper() { return std::move(grouper_); }
  // One column per GROUP BY key (constants included): row i = the key of group ids[i], or of
  // every group in order when ids is null.
  // With `ctx`, many keys are copied on its threads.
  bool KeyColumns(const std::vector<uint32_t>* ids, std::vector<Column>* out,
                  std::string* error, const ExecContext* ctx = nullptr) const;

 private:
  // The keys of groups ids[i] (or i) for i in [begin, end) into fresh columns *out, on this thread.
  bool AppendKeys(const std::vector<uint32_t>* ids, size_t begin, size_t end, std::vector<Column>* out,
                  std::string* error) const;
  // KeyColumns' varying keys in slices on ctx's threads; *done false where not worth it (few
  // groups) or not possible (large_string keys): then nothing was made.
  bool KeyColumnsOnThreads(const std::vector<uint32_t>* ids, size_t groups, const ExecContext& ctx,
                           std::vector<Column>* varying, bool* done, std::string* error) const;
  bool EvalKeys(Evaluator* evaluator, const RowSet& rows, std::vector<Vec>* keys,
                std::string* error) const;
  const int64_t* DirectMin() const { return direct_range_ ? &direct_min_ : nullptr; }

  const std::vector<plan::BoundExprPtr>* keys_ = nullptr;
  std::vector<size_t> varying_;  // indices of non-constant keys
  std::vector<TypeId> types_;
  std::vector<bool> nullable_;
  bool direct_range_ = false;  // Grouper::Init's direct_min, for every grouper made here
  int64_t direct_min_ = 0;
  std::unique_ptr<Grouper> grouper_;
  std::vector<std::unique_ptr<Grouper>> parts_;  // after AdoptPartitions
  std::vector<size_t> part_offsets_;             // parts_.size() + 1 group id offsets
  bool any_row_ = false;  // all keys constant: one group once a row arrived
  size_t cap_ = 0;
  bool lookup_table_ = true;  // Grouper::Init
  bool frozen_ = false;
  std::vector<Vec> batch_keys_;
};

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_GROUP_STAGE_H_
