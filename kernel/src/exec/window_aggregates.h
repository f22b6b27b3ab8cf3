// The library aggregates over window frames (window_aggregates.cc).
#ifndef LANEQL_EXEC_WINDOW_AGGREGATES_H_
#define LANEQL_EXEC_WINDOW_AGGREGATES_H_

#include <string>
#include <vector>

#include "laneql/column.h"
#include "src/exec/aggregate_slots.h"
#include "src/exec/sort_rows.h"
#include "src/exec/window_frames.h"
#include "src/plan/bound_expr.h"

namespace laneql {
namespace exec {

// One partition and its rows' frames. `aggregate` describes the call (its function,
// parameters, argument and result types); args its arguments over all relation rows;
// feed_order, when not empty, the keys (over all relation rows) a frame's rows are fed to the
// aggregate in, ties in the window's order (agg(x ORDER BY k) OVER (...)).
// distinct_ids: for agg(DISTINCT ...), DistinctValueIds of the arguments (each distinct
// argument tuple of a frame is fed once, at its first row), else null. Writes
// (*results)[frames.prow[i]] for every i.
bool LibraryWindowPartition(const plan::Aggregate& aggregate, const std::vector<const Column*>& args,
                            const std::vector<SortColumn>& feed_order, const PartitionFrames& frames, const uint32_t* distinct_ids, std::vector<Slot>* results,
                            std::string* error);

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_WINDOW_AGGREGATES_H_
