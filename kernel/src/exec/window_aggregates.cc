// The library aggregates (median, stddev, string_agg, ...) as window functions: over each
// row's frame, the aggregate's own state class (aggregate_function_state.h) fed the frame's
// rows in order. Rows whose frame is the previous row's reuse its answer (a whole partition:
// one computation); a frame that only grows at its end (the default RANGE frame, ROWS
// UNBOUNDED PRECEDING) adds the new rows to the same state, whose result can be read at any
// point; any other frame (one with EXCLUDE rows out of it too) is folded afresh. With
// DISTINCT each state is fed only the first row of each distinct argument tuple. With ORDER BY
// keys in the call (string_agg(s, ',' ORDER BY k) OVER (...)) every new frame is folded afresh,
// its rows sorted by the keys first (ties in the window's order). Each partition runs on one
// thread, in its order.
#include "src/exec/window_aggregates.h"

#include <algorithm>

#include "src/exec/aggregate_function_state.h"
#include "src/exec/expr_eval.h"
#include "src/exec/hash_join.h"
#include "src/exec/window_functions.h"

namespace laneql {
namespace exec {

bool LibraryWindowPartition(const plan::Aggregate& aggregate, const std::vector<const Column*>& args,
                            const std::vector<SortColumn>& feed_order, const PartitionFrames& frames, const uint32_t* distinct_ids, std::vector<Slot>* results,
                            std::string* error) {
  const uint32_t* prow = frames.prow;
  std::unique_ptr<AggregateFunctionState> state;
  FrameSegments state_frame;  // the positions folded into `state`
  // DISTINCT: seen[id] == stamp where the id was fed to the current state.
  std::vector<uint32_t> seen(distinct_ids != nullptr ? frames.n : 0, 0);
  uint32_t stamp = 0;
  std::vector<uint32_t> rows;
  std::vector<uint32_t> group_ids;
  Column one(aggregate.type);
  Vec value;
  const PositionLess by_feed_order(feed_order, nullptr);  // its CompareKeys: the keys alone
  std::vector<uint32_t> positions;                        // feed_order: a frame's, sorted
  // Folds the partition's rows at positions position(0) .. position(count - 1) into `state`.
  const auto fold_rows = [&](size_t count, const auto& position) {
    rows.clear();
    for (size_t i = 0; i < count; ++i) {
      const uint32_t p = position(i);
      if (distinct_ids != nullptr) {
        if (seen[distinct_ids[p]] == stamp) continue;
        seen[distinct_ids[p]] = stamp;
      }
      rows.push_back(prow[p]);
    }
    if (rows.empty()) return true;
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
  const auto fold = [&](size_t from, size_t to) {
    return fold_rows(to - from, [from](size_t i) { return static_cast<uint32_t>(from + i); });
  };
  const auto fold_sorted = [&](const FrameSegments& frame) {
    positions.clear();
    for (int k = 0; k < frame.count; ++k) {
      for (size_t p = frame.begin[k]; p < frame.end[k]; ++p) positions.push_back(static_cast<uint32_t>(p));
    }
    // Ties keep their window order: a stable sort of positions by the keys of their rows.
    std::stable_sort(positions.begin(), positions.end(),
                     [&](uint32_t a, uint32_t b) { return by_feed_order.CompareKeys(prow[a], prow[b]) < 0; });
    return fold_rows(positions.size(), [&](size_t i) { return positions[i]; });
  };
  for (size_t i = 0; i < frames.n; ++i) {
    const FrameSegments frame = frames.Segments(i);
    Slot& out = (*results)[prow[i]];
    if (i > 0 && state && frame == state_frame) {
      out = (*results)[prow[i - 1]];
      continue;
    }
    if (feed_order.empty() && state && frame.count == 1 && state_frame.count == 1 &&
        frame.begin[0] == state_frame.begin[0] && frame.end[0] > state_frame.end[0]) {
      if (!fold(state_frame.end[0], frame.end[0])) return false;
    } else {
      state = MakeAggregateFunctionState(aggregate);
      ++stamp;
      if (!state->Resize(1, error)) return false;
      if (!feed_order.empty()) {
        if (!fold_sorted(frame)) return false;
      } else {
        for (int k = 0; k < frame.count; ++k) {
          if (!fold(frame.begin[k], frame.end[k])) return false;
        }
      }
    }
    state_frame = frame;
    // The answer over the frame so far, read through a one-row column.
    one = Column(aggregate.type);
    if (!state->Append(0, &one, error) || !BorrowVec(one, &value, error)) return false;
    ReadSlot(value, 0, &out);
  }
  return true;
}

}  // namespace exec
}  // namespace laneql
