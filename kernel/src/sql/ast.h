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
  kSubquery,        // (SELECT ...) as a value: subquery; more than one row is an error
  kExists,          // [NOT] EXISTS (subquery); negated for NOT EXISTS
  kInSubquery,      // operand [NOT] IN (subquery)
  kQuantified,      // operand <binary_op> ANY|SOME|ALL (subquery); quantifier_all for ALL
  // INTERVAL literals: INTERVAL '3' MONTH, INTERVAL 3 MONTH, INTERVAL (x) DAY, INTERVAL '90 days'.
  // operand = the value as written (a string or number literal, or any expression); text = the
  // unit, lower case and singular (year, month, day, hour, minute, second, ...), or "" when the
  // string carries its own units ('90 days', '1 year 2 months').
  kInterval,
  // A window function call: name(args) OVER (window). text, args, star_argument and distinct
  // as for kFunctionCall; `window` holds the OVER clause. A kind of its own, so that no pass
  // made for plain calls (aggregate extraction, scalar binding) takes it for one.
  kWindowCall,
};

enum class UnaryOp { kNot, kNegate, kBitNot };

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
  kIntegerDivide,  // //
  kBitAnd,         // &
  kBitOr,          // |
  kShiftLeft,      // <<
  kShiftRight,     // >>
  kPower,          // ^ and **
};

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;
struct WindowSpec;
// A call's RESPECT NULLS / IGNORE NULLS (kDefault: neither written).
enum class NullTreatment : uint8_t { kDefault, kRespect, kIgnore };
struct QueryNode;
using QueryPtr = std::unique_ptr<QueryNode>;
struct TableRef;
using TableRefPtr = std::unique_ptr<TableRef>;

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
  bool try_cast = false;          // kCast: TRY_CAST (NULL where the conversion fails)
  bool case_insensitive = false;  // kLike: ILIKE
  bool distinct = false;          // kFunctionCall: name(DISTINCT ...)
  bool star_argument = false;     // kFunctionCall: name(*), e.g. COUNT(*)
  bool filtered = false;          // kFunctionCall: had FILTER (WHERE c), folded into its argument
  // kFunctionCall / kWindowCall: name(args RESPECT NULLS) or (args IGNORE NULLS); only the
  // value window functions take it (lag, lead, first_value, last_value, nth_value).
  NullTreatment null_treatment = NullTreatment::kDefault;
  // kFunctionCall: agg(x ORDER BY k1 DESC, k2): the last order_by_args of `args` are the ORDER
  // BY's expressions (so that every walk over args sees them), each with its direction and its
  // NullsOrder (as uint8_t).
  int order_by_args = 0;
  std::vector<bool> order_descending;
  std::vector<uint8_t> order_nulls;
  bool quantifier_all = false;    // kQuantified: ALL (false: ANY / SOME)
  // Height of this subtree (a leaf is 1). The parser bounds it, so every recursive pass over
  // the tree (binder, printer, destructor) has a bounded stack depth.
  int height = 1;

  ExprPtr operand;  // kUnary, kIsNull, kBetween, kInList, kLike, kCast, kExtract, kCase (or null)
  ExprPtr left;     // kBinary
  ExprPtr right;    // kBinary
  std::vector<ExprPtr> args;  // see ExprKind
  std::vector<CaseBranch> branches;  // kCase
  ExprPtr else_result;               // kCase, null without ELSE
  // kStar: the columns left out by * EXCLUDE (a, b), as written; `qualifier` holds t of t.*.
  std::vector<std::string> star_exclude;
  QueryPtr subquery;  // kSubquery, kExists, kInSubquery, kQuantified
  std::unique_ptr<WindowSpec> window;  // kWindowCall
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

// The frame of a window: ROWS, RANGE or GROUPS BETWEEN start AND end (the one-bound form `ROWS
// n PRECEDING` is parsed as BETWEEN n PRECEDING AND CURRENT ROW), then EXCLUDE. kDefault: none
// written, which is DuckDB's RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW.
enum class FrameUnit : uint8_t { kDefault, kRows, kRange, kGroups };
// EXCLUDE NO OTHERS (kNone) | CURRENT ROW | GROUP (the row and its peers) | TIES (its peers).
enum class FrameExclude : uint8_t { kNone, kCurrentRow, kGroup, kTies };
enum class FrameBoundKind : uint8_t {
  kUnboundedPreceding,
  kPreceding,  // offset PRECEDING
  kCurrentRow,
  kFollowing,  // offset FOLLOWING
  kUnboundedFollowing,
};
struct FrameBound {
  FrameBoundKind kind = FrameBoundKind::kCurrentRow;
  ExprPtr offset;  // kPreceding, kFollowing
  SourcePos pos;
};

// OVER (...) or OVER name. `base` names a window of the SELECT's WINDOW clause that this one
// starts from (OVER w, OVER (w ORDER BY x)); the clauses written here are added to it.
struct WindowSpec {
  std::string base;
  bool copies_base = false;  // OVER (w ...) rather than OVER w: w may not have a frame
  SourcePos pos;  // of OVER's '(' (or of the name)
  std::vector<ExprPtr> partition_by;
  std::vector<OrderItem> order_by;
  FrameUnit frame = FrameUnit::kDefault;
  FrameBound start, end;
  FrameExclude exclude = FrameExclude::kNone;
  SourcePos frame_pos;
};

// WINDOW name AS (spec) in a SELECT.
struct NamedWindow {
  std::string name;
  SourcePos pos;
  WindowSpec spec;
};

// A named option of a table function or of COPY: read_csv('x.csv', delim => '\t'),
// COPY ... TO 'x.csv' (HEADER false, DELIMITER '|').
struct TableOption {
  std::string name;  // as written
  ExprPtr value;     // a literal; null for a bare COPY option (HEADER alone means true)
  SourcePos pos;
};

enum class TableRefKind : uint8_t {
  kNamed,     // FROM hits: a registered table, a view or a CTE
  kFile,      // FROM 'hits.csv': the reader chosen by the extension
  kFunction,  // FROM read_csv('hits.csv', ...): the reader the function names
  kSubquery,  // FROM (SELECT ...) [AS] alias [(a, b)]: subquery
  kValues,    // FROM (VALUES (1, 'a'), (2, 'b')) [AS] alias [(a, b)]: values
  kJoin,      // left JOIN right: join_type, natural, on or using_columns
};

// DuckDB's join types. kCross is CROSS JOIN and the comma of a FROM list (comma_join).
// kMark and kSingle are never parsed: the planner makes them for correlated subqueries. A mark
// join keeps every left row and adds a BOOLEAN column saying whether it found a match; a single
// join is a LEFT join where a left row matching two right rows is an error (a scalar subquery).
enum class JoinType : uint8_t { kInner, kLeft, kRight, kFull, kCross, kSemi, kAnti, kMark, kSingle };

struct TableRef {
  TableRefKind kind = TableRefKind::kNamed;
  // kNamed: the table's name. kFile / kFunction: the file's name without folders and extension
  // ('data/hits.csv' -> hits), which qualifies columns as DuckDB's implicit alias does.
  std::string name;
  std::string path;      // kFile / kFunction: the file path as written
  std::string function;  // kFunction: its name, lower case (read_csv, read_parquet, ...)
  std::vector<TableOption> options;  // kFunction: the named arguments
  std::string alias;  // empty without one
  std::vector<std::string> column_aliases;  // alias(a, b): renames the columns, in order
  SourcePos pos;
  QueryPtr subquery;                         // kSubquery
  bool lateral = false;                      // kSubquery: LATERAL (SELECT ...), which may read
                                             // the FROM items left of it (so may one without it)
  // kValues: rows of expressions, equal in count; kFunction range / generate_series: one row,
  // the arguments.
  std::vector<std::vector<ExprPtr>> values;
  // kJoin. `pos` is the JOIN keyword's (or the comma's). Exactly one of on / using_columns /
  // natural for kInner, kLeft, kRight, kFull, kSemi, kAnti; none for kCross.
  JoinType join_type = JoinType::kInner;
  bool comma_join = false;  // FROM a, b (printed back as a comma)
  bool natural = false;     // NATURAL [LEFT|...] JOIN
  TableRefPtr left;
  TableRefPtr right;
  ExprPtr on;
  std::vector<std::string> using_columns;
};

struct SelectStatement {
  SourcePos pos;  // of SELECT
  bool distinct = false;
  std::vector<SelectItem> select_list;
  std::vector<ExprPtr> distinct_on;  // SELECT DISTINCT ON (a, b) ...: distinct is also true
  bool has_from = false;  // SELECT 1 + 1 has no FROM
  // The FROM clause: one source, or a tree of kJoin nodes (a, b, c is ((a, b), c)).
  TableRef from;
  ExprPtr where;  // null without WHERE
  std::vector<ExprPtr> group_by;
  bool group_by_all = false;  // GROUP BY ALL: every SELECT item without an aggregate
  ExprPtr having;  // null without HAVING
  std::vector<NamedWindow> windows;  // WINDOW w AS (...), ...
  ExprPtr qualify;                   // null without QUALIFY
  std::vector<OrderItem> order_by;
  // ORDER BY ALL [ASC|DESC] [NULLS ...]: every SELECT item left to right, in the one direction
  // order_by[0] holds (order_by has that one item, with a null expr).
  bool order_by_all = false;
  bool has_limit = false;
  int64_t limit = 0;
  SourcePos limit_pos;
  bool has_offset = false;
  int64_t offset = 0;
  SourcePos offset_pos;
};

enum class QueryKind : uint8_t {
  kSelect,        // select
  kSetOperation,  // left UNION|INTERSECT|EXCEPT [ALL] right
  kValues,        // VALUES (1, 'a'), (2, 'b') as a whole query (also INSERT ... VALUES)
};

enum class SetOpKind : uint8_t { kUnion, kIntersect, kExcept };

// WITH name [(a, b)] AS (query), ...
struct CommonTableExpr {
  std::string name;
  SourcePos pos;
  std::vector<std::string> columns;  // empty without a column list
  QueryPtr query;
};

// A query: a SELECT, a set operation of two queries, or a VALUES list, with the WITH clause
// that precedes it. A SELECT keeps its own ORDER BY / LIMIT / OFFSET in `select`; a set
// operation's or a VALUES list's (SELECT 1 UNION SELECT 2 ORDER BY 1) are in order_by ...
// offset here. A parenthesized branch, (SELECT ... ORDER BY ... LIMIT 3) UNION ..., keeps its
// own inside its node.
struct QueryNode {
  QueryKind kind = QueryKind::kSelect;
  SourcePos pos;  // of the query's first token (WITH, SELECT, VALUES or '(')
  bool recursive = false;  // WITH RECURSIVE
  std::vector<CommonTableExpr> ctes;
  SelectStatement select;  // kSelect
  SetOpKind set_op = SetOpKind::kUnion;  // kSetOperation
  bool all = false;                      // kSetOperation: UNION ALL, ...
  QueryPtr left;                         // kSetOperation
  QueryPtr right;                        // kSetOperation
  std::vector<std::vector<ExprPtr>> values;  // kValues
  // kSetOperation / kValues: the ORDER BY, LIMIT and OFFSET of the whole.
  std::vector<OrderItem> order_by;
  bool order_by_all = false;
  bool has_limit = false;
  int64_t limit = 0;
  SourcePos limit_pos;
  bool has_offset = false;
  int64_t offset = 0;
  SourcePos offset_pos;
};

// COPY (query) TO 'path' [[WITH] (option [value], ...)], or COPY table TO 'path' ..., which is
// read as COPY (SELECT * FROM table) TO ....
struct CopyStatement {
  SourcePos pos;  // of COPY
  QueryPtr query;
  std::string path;
  SourcePos path_pos;
  std::vector<TableOption> options;
};

// A column of CREATE TABLE name (a INTEGER, b VARCHAR(10) [NOT NULL], ...).
struct ColumnDef {
  std::string name;
  SourcePos pos;
  std::string type;  // upper case, as ExprKind::kCast's text (valid for TypeFromSqlName)
  SourcePos type_pos;
  bool not_null = false;
};

// CREATE [OR REPLACE] [TEMP|TEMPORARY] TABLE [IF NOT EXISTS] name (columns) | AS query
struct CreateTableStatement {
  std::string name;
  SourcePos name_pos;
  bool or_replace = false;
  bool temporary = false;
  bool if_not_exists = false;
  std::vector<ColumnDef> columns;  // empty with AS query
  QueryPtr query;                  // null with a column list
};

// CREATE [OR REPLACE] [TEMP|TEMPORARY] VIEW [IF NOT EXISTS] name [(a, b)] AS query
struct CreateViewStatement {
  std::string name;
  SourcePos name_pos;
  bool or_replace = false;
  bool temporary = false;
  bool if_not_exists = false;
  std::vector<std::string> columns;
  QueryPtr query;
  std::string query_text;  // the query as written (what the view stores and re-parses)
};

// INSERT INTO name [(a, b)] query; VALUES (...), (...) arrive as a kValues query.
struct InsertStatement {
  std::string table;
  SourcePos table_pos;
  std::vector<std::string> columns;  // empty: every column, in order
  std::vector<SourcePos> column_pos;
  QueryPtr query;
};

// DROP TABLE|VIEW [IF EXISTS] name
struct DropStatement {
  bool view = false;
  bool if_exists = false;
  std::string name;
  SourcePos name_pos;
};

enum class StatementKind : uint8_t {
  kSelect,       // query
  kCopy,         // copy
  kCreateTable,  // create_table
  kCreateView,   // create_view
  kInsert,       // insert
  kDrop,         // drop
  kDescribe,     // DESCRIBE name (describe_name) or DESCRIBE query (query)
  kShowTables,   // SHOW TABLES
  kExplain,      // EXPLAIN [ANALYZE] statement: explained, explain_analyze
};

// One statement of any kind; the member its kind names is filled.
struct Statement {
  StatementKind kind = StatementKind::kSelect;
  SourcePos pos;  // of its first token
  QueryPtr query;  // kSelect; kDescribe of a query
  CopyStatement copy;
  CreateTableStatement create_table;
  CreateViewStatement create_view;
  InsertStatement insert;
  DropStatement drop;
  std::string describe_name;  // kDescribe of a table or view (query null)
  SourcePos describe_pos;
  std::unique_ptr<Statement> explained;  // kExplain
  bool explain_analyze = false;
};

// Canonical, fully parenthesised SQL for tests and diagnostics: every unary, binary and
// predicate node in parentheses, keywords upper case, function names lower case, names quoted
// only when they must be. Deterministic; parsing the output and printing it again gives the
// same text.
// An operator as SQL writes it: "+", "||", "//", "AND", ...
const char* BinaryOpText(BinaryOp op);
std::string ToString(const Expr& expr);
std::string ToString(const SelectStatement& statement);
std::string ToString(const QueryNode& query);
std::string ToString(const TableRef& ref);
std::string ToString(const CopyStatement& statement);
std::string ToString(const Statement& statement);
// Names as SQL: as is when possible, else double-quoted with " doubled.
std::string QuoteIdentifier(const std::string& name);

}  // namespace sql
}  // namespace laneql

#endif  // LANEQL_SQL_AST_H_
