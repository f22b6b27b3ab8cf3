// The library aggregates (median, stddev, string_agg, ...) as window functions: over each
// row's frame, the aggregate's own state class (aggregate_function_state.h) fed the frame's
// rows in order. Rows whose frame is the previous row's reuse its answer (a whole partition:
// one computation); a frame that only grows at its end (the default RANGE frame, ROWS
// UNBOUNDED PRECEDING) adds the new rows to the same state, whose result can be read at any
// point; any other frame is folded afresh. Each partition runs on one thread, in its order.
#include "src/exec/window_aggregates.h"

#include "src/exec/aggregate_function_state.h"
#include "src/exec/expr_eval.h"
#include "src/exec/hash_join.h"
#include "src/exec/window_functions.h"

namespace laneql {
namespace exec {

bool LibraryWindowPartition(const plan::Aggregate& aggregate, const std::vector<const Column*>& args,
                            const uint32_t* prow, size_t n, const uint32_t* frame_begin, const uint32_t* frame_end,
                            std::vector<Slot>* results, std::string* error) {
  std::unique_ptr<AggregateFunctionState> state;
  size_t state_begin = 0, state_end = 0;
  std::vector<uint32_t> rows;
  std::vector<uint32_t> group_ids;
  Column one(aggregate.type);
  Vec value;
  // Folds the partition's rows [from, to) into `state`.
  const auto fold = [&](size_t from, size_t to) {
    rows.assign(prow + from, prow + to);
    std::vector<Column> gathered(args.size());
    std::vector<Vec> vecs(args.size());
    for (size_t a = 0; a < args.size(); ++a) {
      if (!GatherRows(*args[a], rows, &gathered[a], error) || !BorrowVec(gathered[a], &vecs[a], error)) {
        return false;
      }
    }
    group_ids.assign(rows.size(), 0);
    return state->Update(vecs[0], vecs.size() > 1 ? &vecs[1] : nullptr, group_ids.data(), rows.size(), error);
  };
  for (size_t i = 0; i < n; ++i) {
    const size_t b = frame_begin[i], e = frame_end[i];
    Slot& out = (*results)[prow[i]];
    if (i > 0 && state && b == state_begin && e == state_end) {
      out = (*results)[prow[i - 1]];
      continue;
    }
    if (state && b == state_begin && e > state_end) {
      if (!fold(state_end, e)) return false;
    } else {
      state = MakeAggregateFunctionState(aggregate);
      if (!state->Resize(1, error) || (e > b && !fold(b, e))) return false;
      state_begin = b;
    }
    state_end = e;
    // The answer over the frame so far, read through a one-row column.
    one = Column(aggregate.type);
    if (!state->Append(0, &one, error) || !BorrowVec(one, &value, error)) return false;
    ReadSlot(value, 0, &out);
  }
  return true;
}

}  // namespace exec
}  // namespace laneql
