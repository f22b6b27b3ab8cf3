// A syntax error found by the lexer or the parser, with where it is in the SQL text.
#ifndef LANEQL_SQL_PARSE_ERROR_H_
#define LANEQL_SQL_PARSE_ERROR_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "src/sql/token.h"

namespace laneql {
namespace sql {

struct ParseError {
  std::string message;  // e.g. "unexpected 'FROM', expected an expression"
  int line = 0;         // 1-based
  int column = 0;       // 1-based, in UTF-8 code points
  // The offending line (shortened around the column when long) and a caret under the column,
  // two lines without a trailing newline; empty when not known.
  std::string excerpt;

  // "syntax error at line L, column C: <message>".
  std::string ToString() const;
  // ToString() followed by a newline and the excerpt (when there is one).
  std::string ToStringWithExcerpt() const;
};

// Fills `error` for a problem at byte `offset` / position `pos` of `sql`.
void SetParseError(std::string_view sql, size_t offset, SourcePos pos, std::string message,
                   ParseError* error);

}  // namespace sql
}  // namespace laneql

#endif  // LANEQL_SQL_PARSE_ERROR_H_
