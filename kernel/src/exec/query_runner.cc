// Placeholder until the binder and executor land (this commit only fixes the API).
#include "src/exec/query_runner.h"

#include "src/sql/parser.h"

namespace laneql {

Result RunQuery(std::string_view sql, const TableLookup& lookup) {
  (void)lookup;
  sql::SelectStatement statement;
  sql::ParseError parse_error;
  if (!sql::ParseSelect(sql, &statement, &parse_error)) {
    return Result::Error(parse_error.ToString(), parse_error.line, parse_error.column);
  }
  return Result::Error("query execution is not built yet");
}

}  // namespace laneql
