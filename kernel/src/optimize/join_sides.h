// Swapping the two sides of a join, shared by the rules that choose which side of an outer
// join probes (right_to_left.cc, outer_join_build_side.cc).
#ifndef LANEQL_OPTIMIZE_JOIN_SIDES_H_
#define LANEQL_OPTIMIZE_JOIN_SIDES_H_

#include "src/plan/logical_operator.h"

namespace laneql {
namespace optimize {

// Whether `op` is an equi-join whose sides can trade places: not USING / NATURAL (their merged
// keys are the right side's), and every column of its scope has its own qualifier and name, so
// that a projection above can find each by them.
bool JoinSidesCanSwap(const plan::LogicalOperator& op);

// *root, a join JoinSidesCanSwap accepts, gets its children and keys swapped and the join type
// `swapped` (the mirror of its own); a projection above (*root afterwards) puts the columns
// back in the FROM clause's order.
void SwapJoinSides(plan::LogicalPtr* root, sql::JoinType swapped);

// Whether `op` is the projection SwapJoinSides puts above a join.
bool IsFromOrderProjection(const plan::LogicalOperator& op);

}  // namespace optimize
}  // namespace laneql

#endif  // LANEQL_OPTIMIZE_JOIN_SIDES_H_
