// From SQL text to a Result: parse, bind, plan, execute. Database::Query's body, kept apart so
// that the catalog (database.cc) knows nothing about the stages.
#ifndef LANEQL_EXEC_QUERY_RUNNER_H_
#define LANEQL_EXEC_QUERY_RUNNER_H_

#include <functional>
#include <string_view>

#include "laneql/result.h"
#include "laneql/table.h"
#include "src/exec/exec_context.h"

namespace laneql {

using TableLookup = std::function<const Table*(std::string_view name)>;

Result RunQuery(std::string_view sql, const TableLookup& lookup, const exec::ExecContext& ctx);

}  // namespace laneql

#endif  // LANEQL_EXEC_QUERY_RUNNER_H_
