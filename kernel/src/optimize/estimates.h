// What the cardinality rule knows about expressions, shared with join ordering (cardinality.cc).
#ifndef LANEQL_OPTIMIZE_ESTIMATES_H_
#define LANEQL_OPTIMIZE_ESTIMATES_H_

#include "src/plan/logical_operator.h"

namespace laneql {
namespace optimize {

// Estimated distinct values of `expr` over the rows `subtree` yields: a column reference found
// in one of its base-table scans has that column's estimate (storage/table_statistics.h),
// capped by the subtree's estimated rows; anything else counts as distinct on every row.
double EstimateDistinct(const plan::LogicalOperator& subtree, const sql::Expr& expr);

// Rows of an equi-join of `left_rows` and `right_rows` on key pairs whose largest distinct
// count (of either side) is `distinct`: each left row meets right_rows / distinct rows.
double EquiJoinRows(double left_rows, double right_rows, double distinct);

}  // namespace optimize
}  // namespace laneql

#endif  // LANEQL_OPTIMIZE_ESTIMATES_H_
