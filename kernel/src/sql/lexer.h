// The SQL lexer: one pass over the text, producing every token with its line and column.
#ifndef LANEQL_SQL_LEXER_H_
#define LANEQL_SQL_LEXER_H_

#include <cstddef>
#include <string_view>
#include <vector>

#include "src/sql/parse_error.h"
#include "src/sql/token.h"

namespace laneql {
namespace sql {

// The longest SQL text accepted (1 MiB). Far beyond real queries (ClickBench's longest is 2.4 KB;
// an IN list of 100,000 numbers is 0.6 MB), it bounds the tokens and tree built from one
// statement, which in wasm's 32-bit heap would otherwise grow with whatever text is handed in.
inline constexpr size_t kMaxSqlBytes = size_t{1} << 20;

// Splits `sql` into tokens, skipping white space and comments (-- to the end of the line,
// /* */ which may nest as in PostgreSQL). The last token is always kEnd. Token::source views
// point into `sql`, which must outlive `tokens`. Returns false and fills `error` (when not null)
// for an unknown character or an unterminated string, quoted identifier or comment, pointing at
// where it starts, and for text longer than kMaxSqlBytes, pointing at the first byte past it.
bool Tokenize(std::string_view sql, std::vector<Token>* tokens, ParseError* error);

}  // namespace sql
}  // namespace laneql

#endif  // LANEQL_SQL_LEXER_H_
