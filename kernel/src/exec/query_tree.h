// Runs a parsed query of any shape: WITH, set operations, VALUES, subqueries in FROM and in
// expressions, views, joins. A SELECT over one table (or file) with nothing of these goes
// straight to the single-table engine (binder -> Plan -> executor), as before; anything else is
// evaluated bottom-up, each source made into a Relation first, and the SELECT on top then runs
// on the single-table engine over that relation. Uncorrelated subqueries in expressions run
// once, and their answers go into the query as literals.
#ifndef LANEQL_EXEC_QUERY_TREE_H_
#define LANEQL_EXEC_QUERY_TREE_H_

#include <string>
#include <utility>
#include <vector>

#include "laneql/result.h"
#include "src/exec/catalog.h"
#include "src/exec/exec_context.h"
#include "src/exec/relation.h"
#include "src/sql/ast.h"

namespace laneql {
namespace exec {

class QueryTreeRunner {
 public:
  QueryTreeRunner(Catalog* catalog, const ExecContext& ctx) : catalog_(catalog), ctx_(ctx) {}

  // The answer of `query`, or an error Result.
  Result Run(const sql::QueryNode& query);
  // The same as a relation (its columns named by the query's output names, qualified by
  // `qualifier`); false with *error set.
  bool RunToRelation(const sql::QueryNode& query, const std::string& qualifier, Relation* out,
                     Result* error);
  // `relation` with column i cast to types[i] where they differ (INSERT's conversions).
  bool CastTo(Relation* relation, const std::vector<TypeId>& types, sql::SourcePos pos,
              Result* error) {
    return CastColumns(relation, types, error, pos);
  }

 private:
  struct CteEntry {
    std::string name;
    Relation relation;
  };

  Result RunSelect(const sql::SelectStatement& select);
  // WITH RECURSIVE (query_recursive.cc): a CTE whose query is anchor UNION [ALL] step, the step
  // naming the CTE; the step runs over the rows the last round added until it adds none.
  static bool IsRecursive(const sql::CommonTableExpr& cte);
  bool RunRecursive(const sql::CommonTableExpr& cte, Relation* out, Result* error);
  // SELECT DISTINCT ON (keys) ...: the first row of each key in the query's order.
  Result RunDistinctOn(const sql::SelectStatement& select);
  Result RunSetOperation(const sql::QueryNode& query);
  Result RunValues(const std::vector<std::vector<sql::ExprPtr>>& rows, sql::SourcePos pos);
  // ORDER BY / LIMIT / OFFSET of a set operation or VALUES list over its combined rows.
  Result ApplyModifiers(const sql::QueryNode& query, Relation relation);
  // The FROM clause as one relation.
  bool MakeFrom(const sql::TableRef& ref, Relation* out, Result* error);
  bool MakeJoin(const sql::TableRef& ref, Relation* out, Result* error);
  // The FROM clause of `select` when it is a join tree: inner and cross joins flattened into
  // one list and joined greedily along the equalities of WHERE and ON (each source filtered by
  // its own conjuncts first); the conjuncts used are removed from select->where.
  bool MakeJoinedFrom(sql::SelectStatement* select, Relation* out, Result* error);
  // Joins two relations on key expressions (left_keys[i] = right_keys[i]) and an optional
  // residual condition, as `type` says (inner, left, right, full, semi, anti, cross).
  bool JoinRelations(const Relation& left, const Relation& right,
                     const std::vector<const sql::Expr*>& left_keys,
                     const std::vector<const sql::Expr*>& right_keys,
                     const sql::Expr* residual, sql::JoinType type, sql::SourcePos pos,
                     Relation* out, Result* error);
  // The values of `exprs` over `relation`, one column each.
  bool Evaluate(const Relation& relation, const std::vector<const sql::Expr*>& exprs, Result* out);
  // `relation` without the rows where `predicate` is not true.
  bool Filter(Relation* relation, const sql::Expr& predicate, Result* error);
  // Replaces (uncorrelated) subqueries in `expr` by their answers.
  bool InlineSubqueries(sql::ExprPtr* expr, Result* error);
  // The same for a whole SELECT; the WHERE conjuncts whose subqueries read the outer query's
  // columns are moved to *correlated instead (for ApplyCorrelated).
  // Correlated scalar subqueries in SELECT items stay in place and their items' indexes go to
  // *correlated_items when it is given (for UnnestScalars once FROM is made).
  bool InlineSubqueries(sql::SelectStatement* select, std::vector<sql::ExprPtr>* correlated,
                        std::vector<size_t>* correlated_items, Result* error);
  // Replaces each correlated scalar aggregate subquery in *expr by a column of an aggregate
  // grouped by the correlating keys, LEFT JOINed into `relation`.
  bool UnnestScalars(Relation* relation, sql::ExprPtr* expr, Result* error);
  // Joins the sources of correlated subqueries into `relation` (query_decorrelate.cc):
  // [NOT] EXISTS becomes a semi (anti) join on the correlating conditions; a scalar aggregate
  // compared with the outer row becomes a LEFT JOIN to the aggregate grouped by the correlating
  // keys. What remains of each conjunct goes back into select->where.
  bool ApplyCorrelated(Relation* relation, std::vector<sql::ExprPtr> correlated,
                       sql::SelectStatement* select, Result* error);
  // The FROM and WHERE of a correlated subquery's SELECT made into its relation, with the
  // conjuncts that read the outer query returned in *conditions (names qualified).
  bool MakeInnerRelation(const sql::SelectStatement& inner, const Relation& outer, Relation* out,
                         std::vector<sql::ExprPtr>* conditions, Result* error);
  bool IsPlainSelect(const sql::SelectStatement& select);
  const Relation* FindCte(const std::string& name) const;
  // Executes a bound SELECT over `relation` (or, when null, over what `select.from` names).
  Result BindAndExecute(const sql::SelectStatement& select, const Relation* relation);
  // `relation` with column i cast to types[i] where they differ.
  // Conversion errors point at `pos`.
  bool CastColumns(Relation* relation, const std::vector<TypeId>& types, Result* error,
                   sql::SourcePos pos = sql::SourcePos{});

  Catalog* catalog_;
  const ExecContext& ctx_;
  std::vector<CteEntry> ctes_;  // innermost last
  int view_depth_ = 0;
  int derived_count_ = 0;  // names the relations decorrelation adds (__sq1, __sq2, ...)
};

// DuckDB's type for a column that holds values of a and b (set operations, VALUES rows).
TypeId CommonSuperType(TypeId a, TypeId b);

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_QUERY_TREE_H_
