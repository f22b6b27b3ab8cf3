// DuckDB's series table functions: range(end), range(start, end[, step]) (end excluded) and
// generate_series(...) (end included), one BIGINT column named after the function; or of
// TIMESTAMPs, range(start, end, step) with DATE or TIMESTAMP bounds and an INTERVAL step, a
// TIMESTAMP column. A NULL argument makes no rows, as in DuckDB; a step of 0 (or an interval of
// mixed signs), other arguments and a series past what a table holds are errors.
#ifndef LANEQL_EXEC_SERIES_TABLE_H_
#define LANEQL_EXEC_SERIES_TABLE_H_

#include <memory>
#include <string>

#include "laneql/result.h"
#include "laneql/table.h"
#include "src/sql/ast.h"

namespace laneql {
namespace exec {

// Whether `ref` is a FROM item range(...) or generate_series(...).
inline bool IsSeriesFunction(const sql::TableRef& ref) {
  return ref.kind == sql::TableRefKind::kFunction && ref.path.empty() &&
         (ref.function == "range" || ref.function == "generate_series");
}

// The series `function` ("range" or "generate_series") makes from `args`, one row of its 1 to 3
// arguments evaluated; false with *error saying why.
bool MakeSeriesTable(const std::string& function, const Result& args, std::shared_ptr<const Table>* out,
                     std::string* error);

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_SERIES_TABLE_H_
