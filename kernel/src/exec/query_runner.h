// From SQL text to a Result: parse, bind, plan, execute. Database::Query's body, kept apart so
// that the catalog (database.cc) knows nothing about the stages.
#ifndef LANEQL_EXEC_QUERY_RUNNER_H_
#define LANEQL_EXEC_QUERY_RUNNER_H_

#include <functional>
#include <string_view>

#include "laneql/result.h"
#include "laneql/table.h"
#include "src/exec/catalog.h"
#include "src/exec/exec_context.h"

namespace laneql {

// Parses and runs one statement of any kind against `catalog`.
Result RunQuery(std::string_view sql, exec::Catalog* catalog, const exec::ExecContext& ctx);

}  // namespace laneql

#endif  // LANEQL_EXEC_QUERY_RUNNER_H_
