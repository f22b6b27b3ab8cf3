// The logical plan of a SELECT: a tree of relational operators the planner makes from the
// syntax tree (exec/query_planner.cc), the optimizer rewrites (src/optimize/) and the query
// runner executes (exec/query_execute.cc).
//
// Expressions stay syntax trees (sql::Expr) whose column references are resolved by name
// against the output columns (`scope`) of the operator's children, as the binder does when the
// operator runs; a rule decides which side of a join a condition reads with ReadsOf.
//
// Sources that are not base tables (a derived table, a CTE, a view, a file, a VALUES list, the
// grouped side of an unnested subquery, a set operation's SELECT branches) are made into tables
// while planning, so every leaf is a Get over a table whose row count is known; `subplan` keeps
// the text of how it was made for EXPLAIN.
#ifndef LANEQL_PLAN_LOGICAL_OPERATOR_H_
#define LANEQL_PLAN_LOGICAL_OPERATOR_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "laneql/table.h"
#include "src/plan/binder.h"
#include "src/sql/ast.h"

namespace laneql {
namespace plan {

enum class LogicalKind {
  kGet,        // a table: base, or made while planning; `conditions` are filters pushed in
  kFilter,     // rows of the child where every one of `conditions` is true
  kJoin,       // join_type over two children: left_keys[i] = right_keys[i] and `conditions`
  kAggregate,  // GROUP BY `exprs` (the aggregates are in the projection above)
  kProject,    // the SELECT list `exprs`
  kDistinct,   // SELECT DISTINCT
  kOrder,      // ORDER BY `exprs`
  kLimit,      // LIMIT / OFFSET (`detail`)
  kSetOperation,  // set_op (ALL when set_all) of its two children, columns matched by position
  // Statements that change the catalog, at the top of their statement's tree: `detail` names
  // what they write and how ("u", "t (a, b)", "v OR REPLACE"); the query whose rows they
  // write (CREATE TABLE ... AS, INSERT) is planned below them (its text in `subplan`).
  kCreateTable,
  kCreateView,
  kInsert,
  kDrop,  // DROP TABLE or DROP VIEW: `source` says which
};

struct LogicalOperator;
using LogicalPtr = std::unique_ptr<LogicalOperator>;

struct LogicalOperator {
  LogicalKind kind = LogicalKind::kGet;
  std::vector<LogicalPtr> children;
  // The columns this operator yields (for a Get, one per kept table column, in `columns`).
  ColumnScope scope;

  // kGet: what the table is ("lineitem", "read_csv('x.csv')", "subquery d", "cte q") and its
  // rows; `columns` are the table columns kept (projection pruning), in scope order.
  std::string source;
  std::shared_ptr<const Table> table;
  std::vector<size_t> columns;
  // kGet: table columns its own conditions read and nothing above it (pruning moves them here):
  // read while filtering, never yielded, so a join above gathers none of them (TPC-H Q13's
  // o_comment NOT LIKE ...). `filter_scope` names them as `scope` names `columns`.
  std::vector<size_t> filter_columns;
  ColumnScope filter_scope;
  std::string subplan;      // EXPLAIN text of how a made table was planned, if any

  // kGet, kFilter: conjuncts; kJoin: the residual conditions (after the keys).
  std::vector<sql::ExprPtr> conditions;
  // kJoin
  sql::JoinType join_type = sql::JoinType::kInner;
  std::vector<sql::ExprPtr> left_keys, right_keys;
  // JOIN ... USING / NATURAL: the key names, whose right-side copies are hidden in `scope`
  // (found only when qualified). Such a join keeps its place (join ordering stops at it).
  std::vector<std::string> using_columns;
  // kSetOperation
  sql::SetOpKind set_op = sql::SetOpKind::kUnion;
  bool set_all = false;
  // kAggregate, kProject, kOrder: their expressions (for EXPLAIN and pruning).
  std::vector<sql::ExprPtr> exprs;
  std::string detail;  // kLimit's numbers, kOrder's directions, and the like
  // The clauses of the SELECT itself (aggregate, HAVING filter, project, distinct, order,
  // limit): shown by EXPLAIN, run together by the single-table engine over their input.
  bool select_clause = false;

  sql::SourcePos pos;  // where the SQL wrote it (errors of a join point there)
  // The optimizer's estimate of the rows this operator yields.
  double estimated_rows = 0;
  // EXPLAIN ANALYZE: what the run measured.
  bool analyzed = false;
  uint64_t actual_rows = 0;
  double seconds = 0;
};

LogicalPtr MakeLogical(LogicalKind kind);
// Puts a filter of `conditions` above *slot (nothing when the list is empty).
void FilterAbove(LogicalPtr* slot, std::vector<sql::ExprPtr> conditions);
const char* LogicalKindName(LogicalKind kind);
const char* JoinTypeName(sql::JoinType type);
const char* SetOpName(sql::SetOpKind kind);

// The children's sources an expression reads, as a bit per child of a join (bit 0 the left);
// `unknown` is set when a name is found in no child or in both, or the expression holds a
// subquery or a star (such a condition must stay where it was written).
uint64_t ReadsOf(const sql::Expr* expr, const std::vector<const ColumnScope*>& sides, bool* unknown);
// Whether `scope` has a column the reference `ref` names.
bool ScopeHas(const ColumnScope& scope, const sql::Expr& ref);

// The tree as indented text, one operator per line with its details and estimates (and, after
// EXPLAIN ANALYZE, the rows and time measured).
std::string ExplainText(const LogicalOperator& root);

}  // namespace plan
}  // namespace laneql

#endif  // LANEQL_PLAN_LOGICAL_OPERATOR_H_
