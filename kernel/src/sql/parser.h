// The SQL parser: recursive descent over the lexer's tokens, with one function per precedence
// level of expressions (PostgreSQL's and DuckDB's order).
#ifndef LANEQL_SQL_PARSER_H_
#define LANEQL_SQL_PARSER_H_

#include <string_view>

#include "src/sql/ast.h"
#include "src/sql/parse_error.h"

namespace laneql {
namespace sql {

// Limits that keep every recursion bounded, so hostile input gets an error instead of a stack
// overflow, including in the small stacks of wasm threads:
// - parentheses, function arguments, NOT and unary minus nested in one another (each level
//   costs the parser about 14 stack frames);
inline constexpr int kMaxNestingDepth = 256;
// - the height of an expression tree, e.g. a chain of 1,000 ORs (each level costs one or two
//   frames in every later pass over the tree, including its destructor).
inline constexpr int kMaxExpressionHeight = 1000;

// Parses one statement, optionally ended by ';' (docs/sql.md lists them):
//   a query: [WITH ...] SELECT / VALUES / (query), combined by UNION / INTERSECT / EXCEPT,
//     then ORDER BY / LIMIT / OFFSET (parser_query.cc);
//   COPY (query) TO 'path' [[WITH] (option [value], ...)], COPY table TO 'path' [...];
//   CREATE TABLE / VIEW, INSERT, DROP (parser_statements.cc); DESCRIBE, SHOW TABLES, EXPLAIN.
// On failure returns false and fills `error` (when not null). Never crashes or throws.
bool ParseStatement(std::string_view sql, Statement* out, ParseError* error);

// Parses one plain SELECT, optionally ended by ';' (anything else, even WITH or UNION, is an
// error: for tests and tools that want the single-table form):
//   SELECT [DISTINCT] item [[AS] alias], ... [FROM source [[AS] alias]] [WHERE expr]
//   [GROUP BY expr, ...] [HAVING expr] [ORDER BY expr [ASC|DESC] [NULLS FIRST|LAST], ...]
//   [LIMIT n] [OFFSET n]   (LIMIT and OFFSET in either order)
// where source is a table name, a file path ('hits.csv', 'hits.laneql', 'x.parquet'), a
// table function (read_csv('path', name => value, ...), read_csv_auto, read_parquet), a
// subquery, a VALUES list or joins of them.
// On failure returns false and fills `error` (when not null); `out` is then unspecified.
// Never crashes or throws, whatever the input.
bool ParseSelect(std::string_view sql, SelectStatement* out, ParseError* error);

// Parses a lone expression (for tests and tools), e.g. "a + 1 BETWEEN 2 AND 3".
bool ParseExpression(std::string_view sql, ExprPtr* out, ParseError* error);

}  // namespace sql
}  // namespace laneql

#endif  // LANEQL_SQL_PARSER_H_
