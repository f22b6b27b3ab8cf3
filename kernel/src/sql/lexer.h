// The SQL lexer: one pass over the text, producing every token with its line and column.
#ifndef LANEQL_SQL_LEXER_H_
#define LANEQL_SQL_LEXER_H_

#include <string_view>
#include <vector>

#include "src/sql/parse_error.h"
#include "src/sql/token.h"

namespace laneql {
namespace sql {

// Splits `sql` into tokens, skipping white space and comments (-- to the end of the line,
// /* */ which may nest as in PostgreSQL). The last token is always kEnd. Token::source views
// point into `sql`, which must outlive `tokens`. Returns false and fills `error` (when not null)
// for an unknown character or an unterminated string, quoted identifier or comment, pointing at
// where it starts.
bool Tokenize(std::string_view sql, std::vector<Token>* tokens, ParseError* error);

}  // namespace sql
}  // namespace laneql

#endif  // LANEQL_SQL_LEXER_H_
