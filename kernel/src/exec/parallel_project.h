// The SELECT list over many rows on every thread: the rows cut into chunks, each chunk's outputs
// evaluated on a thread of its own, and each output's chunks written into one column in
// parallel. The serial Project (output_stage.h) did all of it on one thread: on 16 cores the
// projection of a join's 6 M rows (TPC-H Q9's derived table at SF 10) was 265 ms of a 700 ms
// query, with every other thread idle.
#ifndef LANEQL_EXEC_PARALLEL_PROJECT_H_
#define LANEQL_EXEC_PARALLEL_PROJECT_H_

#include <string>
#include <vector>

#include "laneql/column.h"
#include "laneql/result.h"
#include "src/exec/exec_context.h"
#include "src/exec/expr_eval.h"
#include "src/exec/vector.h"
#include "src/plan/bound_expr.h"

namespace laneql {
namespace exec {

// Project's answer, the same values and errors, worked out on the context's threads where
// `rows` holds enough rows to be worth it (else, and for a failing expression, by Project on
// this thread, so the error is the one a single thread reports).
Result ProjectOnThreads(const plan::Plan& plan, const ExecContext& ctx, const Evaluator& evaluator,
                        const RowSet& rows);

// One column of the rows of `parts` in order, all of type `type`; every part but the last must
// hold a multiple of 64 rows (each part's validity bits then fill whole words of the column's).
// The parts are written on up to `threads` threads. A string column over 2^31 - 1 bytes comes
// out as a large_string (int64 offsets), as Column::AppendString makes one; a list fails.
bool VecsToColumn(const std::vector<Vec>& parts, TypeId type, const ExecContext& ctx, int threads, Column* out,
                  std::string* error);

// The same for parts that are columns (int32-offset strings or fixed-width, all of one type),
// each but the last a multiple of 64 rows.
bool ConcatColumns(const std::vector<Column>& parts, const ExecContext& ctx, int threads, Column* out,
                   std::string* error);

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_PARALLEL_PROJECT_H_
