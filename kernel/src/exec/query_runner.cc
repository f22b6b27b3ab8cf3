// SQL text -> Result: parse, bind (with the plan rewrites), execute.
#include "src/exec/query_runner.h"

#include "src/exec/executor.h"
#include "src/plan/binder.h"
#include "src/sql/parser.h"

namespace laneql {

Result RunQuery(std::string_view sql, const TableLookup& lookup, const exec::ExecContext& ctx) {
  sql::SelectStatement statement;
  sql::ParseError parse_error;
  if (!sql::ParseSelect(sql, &statement, &parse_error)) {
    return Result::Error(parse_error.ToString(), parse_error.line, parse_error.column);
  }
  plan::Plan plan;
  plan::BindError bind_error;
  if (!plan::BindSelect(statement, lookup, &plan, &bind_error)) {
    return Result::Error(bind_error.message, bind_error.line, bind_error.column);
  }
  return exec::Execute(plan, ctx);
}

}  // namespace laneql
