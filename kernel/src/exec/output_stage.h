// The end of every query: ORDER BY (full or top-N), OFFSET / LIMIT and the SELECT list over a
// relation: the table's qualifying rows, or an aggregation's groups (keys, then aggregates,
// with HAVING).
#ifndef LANEQL_EXEC_OUTPUT_STAGE_H_
#define LANEQL_EXEC_OUTPUT_STAGE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "laneql/result.h"
#include "src/exec/aggregate_states.h"
#include "src/exec/exec_context.h"
#include "src/exec/expr_eval.h"
#include "src/exec/group_stage.h"
#include "src/exec/sort_rows.h"
#include "src/plan/bound_expr.h"

namespace laneql {
namespace exec {

// The ORDER BY keys over `rows` (*keys must outlive *columns, which point into it).
bool EvalOrderKeys(const plan::Plan& plan, Evaluator* evaluator, const RowSet& rows,
                   std::vector<Vec>* keys, std::vector<SortColumn>* columns, std::string* error);

// The rows to output among `candidates` rows of the relation `evaluator` reads, in order: ids
// in *storage, or a contiguous range. `tiebreak` (per candidate position, or null) orders
// ORDER BY ties, and with `order_by_tiebreak` orders the rows when there is no ORDER BY.
bool ChooseRows(const plan::Plan& plan, const ExecContext& ctx, Evaluator* evaluator,
                const RowSet& candidates, const uint64_t* tiebreak, bool order_by_tiebreak,
                std::vector<uint32_t>* storage, RowSet* chosen, std::string* error);

// The visible outputs over `rows`.
Result Project(const plan::Plan& plan, Evaluator* evaluator, const RowSet& rows);

// The result of an aggregation with the groups of `states` (grouper null when ungrouped: one
// group). `first_rows` (per group, or null when group ids already follow first appearance) is
// the row each group first appeared in: ties and unordered output follow it, as one thread
// would.
Result OutputGroups(const plan::Plan& plan, const ExecContext& ctx, const GroupStage* grouper,
                    const StateParts& states, const FirstRows* first_rows);

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_OUTPUT_STAGE_H_
