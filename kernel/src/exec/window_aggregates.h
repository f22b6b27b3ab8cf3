// The library aggregates over window frames (window_aggregates.cc).
#ifndef LANEQL_EXEC_WINDOW_AGGREGATES_H_
#define LANEQL_EXEC_WINDOW_AGGREGATES_H_

#include <string>
#include <vector>

#include "laneql/column.h"
#include "src/exec/aggregate_slots.h"
#include "src/plan/bound_expr.h"

namespace laneql {
namespace exec {

// One partition: prow[i] is the relation row of its i-th row, [frame_begin[i], frame_end[i])
// that row's frame (partition positions). `aggregate` describes the call (its function,
// parameters, argument and result types); args its arguments over all relation rows. Writes
// (*results)[prow[i]] for every i.
bool LibraryWindowPartition(const plan::Aggregate& aggregate, const std::vector<const Column*>& args,
                            const uint32_t* prow, size_t n, const uint32_t* frame_begin, const uint32_t* frame_end,
                            std::vector<Slot>* results, std::string* error);

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_WINDOW_AGGREGATES_H_
