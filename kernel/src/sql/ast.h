// The syntax tree of one SELECT statement, as the parser builds it: names and literal texts as
// written, nothing resolved or typed yet (that is the binder's work). Every node keeps the
// position of its first token so later errors (unknown column, type mismatch) can point at it.
#ifndef LANEQL_SQL_AST_H_
#define LANEQL_SQL_AST_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "src/sql/token.h"

namespace laneql {
namespace sql {

enum class ExprKind {
  kColumnRef,       // [qualifier.]name
  kStar,            // * in a select list
  kIntegerLiteral,  // text = digits, with a leading '-' when the parser folded a unary minus
  kDecimalLiteral,  // text = as written (1.5, .5, 1e10), maybe with a leading '-'
  kStringLiteral,   // text = contents, quotes unescaped
  kBooleanLiteral,  // bool_value
  kNullLiteral,
  kUnary,           // unary_op operand
  kBinary,          // left binary_op right
  kIsNull,          // operand IS [NOT] NULL
  kBetween,         // operand [NOT] BETWEEN args[0] AND args[1]
  kInList,          // operand [NOT] IN (args...)
  kLike,            // operand [NOT] LIKE|ILIKE args[0] [ESCAPE args[1]]
  kCase,            // CASE [operand] WHEN .. THEN .. [ELSE else_result] END
  kCast,            // CAST(operand AS text), operand::text, and DATE '...' / TIMESTAMP '...'
  kFunctionCall,    // name(args), name(DISTINCT args), name(*)
  kExtract,         // EXTRACT(name FROM operand); name = the part, lower case (minute, ...)
};

enum class UnaryOp { kNot, kNegate };

enum class BinaryOp {
  kOr,
  kAnd,
  kEquals,
  kNotEquals,
  kLess,
  kLessEquals,
  kGreater,
  kGreaterEquals,
  kAdd,
  kSubtract,
  kMultiply,
  kDivide,
  kModulo,
  kConcat,
};

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

struct CaseBranch {
  ExprPtr when;
  ExprPtr then;
};

struct Expr {
  ExprKind kind = ExprKind::kNullLiteral;
  SourcePos pos;      // of the node's first token
  size_t offset = 0;  // byte offset of that token in the SQL text (for error excerpts)
  // kColumnRef: the column name; kFunctionCall: the function name as written; kExtract: the
  // part; kCast: the target type, upper case, e.g. "VARCHAR(255)" (valid for TypeFromSqlName);
  // literals: see ExprKind.
  std::string text;
  std::string qualifier;  // kColumnRef: the table name or alias before the dot, else empty
  UnaryOp unary_op = UnaryOp::kNot;
  BinaryOp binary_op = BinaryOp::kAnd;
  bool bool_value = false;        // kBooleanLiteral
  bool negated = false;           // IS NOT NULL, NOT BETWEEN, NOT IN, NOT LIKE / ILIKE
  bool case_insensitive = false;  // kLike: ILIKE
  bool distinct = false;          // kFunctionCall: name(DISTINCT ...)
  bool star_argument = false;     // kFunctionCall: name(*), e.g. COUNT(*)
  // Height of this subtree (a leaf is 1). The parser bounds it, so every recursive pass over
  // the tree (binder, printer, destructor) has a bounded stack depth.
  int height = 1;

  ExprPtr operand;  // kUnary, kIsNull, kBetween, kInList, kLike, kCast, kExtract, kCase (or null)
  ExprPtr left;     // kBinary
  ExprPtr right;    // kBinary
  std::vector<ExprPtr> args;  // see ExprKind
  std::vector<CaseBranch> branches;  // kCase
  ExprPtr else_result;               // kCase, null without ELSE
};

struct SelectItem {
  ExprPtr expr;
  std::string alias;  // empty without one
  SourcePos alias_pos;
};

enum class NullsOrder { kDefault, kFirst, kLast };

struct OrderItem {
  ExprPtr expr;
  bool descending = false;
  NullsOrder nulls = NullsOrder::kDefault;
};

// A named option of a table function or of COPY: read_csv('x.csv', delim => '\t'),
// COPY ... TO 'x.csv' (HEADER false, DELIMITER '|').
struct TableOption {
  std::string name;  // as written
  ExprPtr value;     // a literal; null for a bare COPY option (HEADER alone means true)
  SourcePos pos;
};

enum class TableRefKind : uint8_t {
  kNamed,     // FROM hits: a registered table
  kFile,      // FROM 'hits.csv': the reader chosen by the extension
  kFunction,  // FROM read_csv('hits.csv', ...): the reader the function names
};

struct TableRef {
  TableRefKind kind = TableRefKind::kNamed;
  // kNamed: the table's name. kFile / kFunction: the file's name without folders and extension
  // ('data/hits.csv' -> hits), which qualifies columns as DuckDB's implicit alias does.
  std::string name;
  std::string path;      // kFile / kFunction: the file path as written
  std::string function;  // kFunction: its name, lower case (read_csv, read_parquet, ...)
  std::vector<TableOption> options;  // kFunction: the named arguments
  std::string alias;  // empty without one
  SourcePos pos;
};

struct SelectStatement {
  SourcePos pos;  // of SELECT
  bool distinct = false;
  std::vector<SelectItem> select_list;
  bool has_from = false;  // SELECT 1 + 1 has no FROM
  TableRef from;
  ExprPtr where;  // null without WHERE
  std::vector<ExprPtr> group_by;
  ExprPtr having;  // null without HAVING
  std::vector<OrderItem> order_by;
  bool has_limit = false;
  int64_t limit = 0;
  SourcePos limit_pos;
  bool has_offset = false;
  int64_t offset = 0;
  SourcePos offset_pos;
};

// COPY (SELECT ...) TO 'path' [[WITH] (option [value], ...)], or COPY table TO 'path' ...,
// which is read as COPY (SELECT * FROM table) TO ....
struct CopyStatement {
  SourcePos pos;  // of COPY
  SelectStatement query;
  std::string path;
  SourcePos path_pos;
  std::vector<TableOption> options;
};

// One statement of either kind.
struct Statement {
  bool is_copy = false;
  SelectStatement select;  // !is_copy
  CopyStatement copy;      // is_copy
};

// Canonical, fully parenthesised SQL for tests and diagnostics: every unary, binary and
// predicate node in parentheses, keywords upper case, function names lower case, names quoted
// only when they must be. Deterministic; parsing the output and printing it again gives the
// same text.
std::string ToString(const Expr& expr);
std::string ToString(const SelectStatement& statement);
std::string ToString(const CopyStatement& statement);
// Names as SQL: as is when possible, else double-quoted with " doubled.
std::string QuoteIdentifier(const std::string& name);

}  // namespace sql
}  // namespace laneql

#endif  // LANEQL_SQL_AST_H_
