// The states of the library aggregates (plan::AggKind::kFunction: stddev, quantiles, mode,
// arg_min, string_agg, approx_count_distinct, ...) over every group of a query. AggregateStates
// keeps one per such aggregate beside its flat arrays of count, sum, min and max and calls it
// from its Update, Merge, MergeRange, CopyGroups and Finish.
//
// Determinism: an aggregate whose answer depends on the order its rows are folded in
// (plan::DependsOnRowOrder, or any with ORDER BY keys) is run so that each group's rows reach
// one state in row order (the executor's split by keys, or one thread), or each batch's rows a
// state of their own, merged in batch order (FoldsByBatches); Merge is then only ever a copy
// into an empty group or an append of later rows. The others (quantiles sort, bit operations
// and sketches are order-free, picks keep their rows: SetRows) merge in any order with the
// same answer.
#ifndef LANEQL_EXEC_AGGREGATE_FUNCTION_STATE_H_
#define LANEQL_EXEC_AGGREGATE_FUNCTION_STATE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "laneql/column.h"
#include "src/exec/expr_eval.h"  // RowSet
#include "src/exec/vector.h"
#include "src/plan/bound_expr.h"

namespace laneql {
namespace exec {

class AggregateFunctionState {
 public:
  virtual ~AggregateFunctionState() = default;
  // The table rows of the next Update's rows (row i: rows->ids[i], or rows->begin + i), for the
  // aggregates that keep the row a value came from (the picks: first, last, any_value and
  // arg_min / arg_max's ties go by it, so they merge in any order); null: the rows come in row
  // order, each after every row before (one state fed in order, as a window frame's).
  void SetRows(const RowSet* rows) { rows_ = rows; }
  // Room for `groups` groups; new ones are empty. Never shrinks.
  virtual bool Resize(size_t groups, std::string* error) = 0;
  virtual size_t groups() const = 0;
  // Folds rows [0, count): row i into group group_ids[i] (skipped when kNoGroup). `arg2` is the
  // second argument's values for the two-argument aggregates, else null.
  virtual bool Update(const Vec& arg, const Vec* arg2, const uint32_t* group_ids, size_t count,
                      std::string* error) = 0;
  // The same for agg(x ORDER BY k, ...): `keys` holds each key's values (aggregate_ordered.cc).
  virtual bool UpdateWithKeys(const Vec& arg, const Vec* arg2, const std::vector<Vec>& keys,
                              const uint32_t* group_ids, size_t count, std::string* error) {
    (void)keys;
    return Update(arg, arg2, group_ids, count, error);
  }
  // Folds `other`'s group g into this side's group t, other's rows coming after t's in row
  // order. Threads may call it at once for different t.
  virtual void Merge(const AggregateFunctionState& other, size_t g, size_t t) = 0;
  // Before many groups are merged into group t: the bytes group g of this state will add
  // there, and room made for them in t at once (string_agg's text, which would otherwise
  // grow by doubling through every merge).
  virtual size_t MergeBytes(size_t g) const {
    (void)g;
    return 0;
  }
  virtual void ReserveMerge(size_t t, size_t bytes) {
    (void)t;
    (void)bytes;
  }
  // Appends group g's result to `out` (g past the groups: the result over no rows).
  virtual bool Append(size_t g, Column* out, std::string* error) const = 0;

 protected:
  // The table row of each of an Update's rows: from SetRows, or without it counted on from the
  // rows fed before (one state fed in row order). TakeRows is called once per Update, with its
  // row count.
  struct UpdateRows {
    const RowSet* rows;
    uint64_t base;
    uint64_t operator()(size_t i) const {
      if (rows == nullptr) return base + i;
      return rows->ids != nullptr ? rows->ids[i] : rows->begin + i;
    }
  };
  UpdateRows TakeRows(size_t count) {
    const uint64_t base = next_row_;
    next_row_ += count;
    return UpdateRows{rows_, base};
  }

 private:
  const RowSet* rows_ = nullptr;  // SetRows
  uint64_t next_row_ = 0;         // rows fed without SetRows so far
};

std::unique_ptr<AggregateFunctionState> MakeAggregateFunctionState(const plan::Aggregate& aggregate);

// Whether an aggregate whose answer depends on row order (plan::DependsOnRowOrder) may be folded
// batch by batch on any thread, each batch into a state of its own, the states merged in batch
// order after the scan (AggregateWorker::KeepBatchFunctionStates, group_batch_partials.h):
// those whose Merge of a later batch costs about one state (the moments, string_agg without
// DISTINCT). Not mode or DISTINCT (a set per batch, inserted again to merge) nor agg(x ORDER
// BY k) (every row kept, sorted at the end).
// Whether mode of `type` counts its values with the row each was first seen at (numbers,
// dates, times: ModeState in aggregate_values.cc), so that it folds and merges in any order;
// strings and 16-byte values are kept in row order and sorted at the end.
bool ModeCountsValues(TypeId type);
// Whether aggregate `aggregate` must see each group's rows in row order on one state
// (plan::DependsOnRowOrder, less mode of numbers; any with ORDER BY keys).
bool FoldsInRowOrder(const plan::Aggregate& aggregate);

// `grouped`: by batch partials (group_batch_partials.h), where string_agg is not (its merge
// copies every group's text again, on one thread: 279 -> 337 ms by 10 groups on one thread,
// nothing gained on two).
bool FoldsByBatches(const plan::Aggregate& aggregate, bool grouped);

// The families' makers (aggregate_moments.cc, aggregate_values.cc, aggregate_picks.cc,
// aggregate_sketches.cc).
std::unique_ptr<AggregateFunctionState> MakeMomentsState(const plan::Aggregate& aggregate);
std::unique_ptr<AggregateFunctionState> MakeValuesState(const plan::Aggregate& aggregate);
std::unique_ptr<AggregateFunctionState> MakePickState(const plan::Aggregate& aggregate);
std::unique_ptr<AggregateFunctionState> MakeSketchState(const plan::Aggregate& aggregate);
std::unique_ptr<AggregateFunctionState> MakeTemporalAvgState(const plan::Aggregate& aggregate);
std::unique_ptr<AggregateFunctionState> MakeOrderedState(const plan::Aggregate& aggregate);

// Charges the query's memory limit for `bytes` more held by an aggregate's states.
bool ChargeAggregateMemory(size_t bytes, std::string* error);

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_AGGREGATE_FUNCTION_STATE_H_
