// Correlated subqueries with a shape of their own (GROUP BY, HAVING, DISTINCT, ORDER BY ...
// LIMIT over groups) whose only tie to the outer query is equalities in their WHERE:
//   x IN (SELECT y FROM i WHERE i.k = o.k GROUP BY y HAVING count(*) > 1)
// is the subquery run once for every key at once, the inner side of each equality added to its
// GROUP BY (and DISTINCT, ORDER BY ... LIMIT per key) and to its SELECT list:
//   SELECT y, i.k AS __key0 FROM i GROUP BY y, i.k HAVING count(*) > 1
// whose rows for one key are exactly what a run for a binding with that key returns (Neumann
// and Kemper push the dependent join below the grouping the same way). DecorrelateExpr then
// joins the rows on the keys as it joins any subquery's relation.
#include <string>
#include <utility>
#include <vector>

#include "src/exec/decorrelate.h"
#include "src/exec/query_tree.h"
#include "src/sql/ast_clone.h"

namespace laneql {
namespace exec {

bool QueryTreeRunner::MakeKeyedRelation(const sql::QueryNode& query, const plan::ColumnScope& outer, Relation* out,
                                        std::vector<sql::ExprPtr>* conditions, sql::ExprPtr* value, bool* made,
                                        Result* error, std::vector<std::string>* names) {
  *made = false;
  const sql::SelectStatement& select = query.select;
  // GROUP BY ALL groups by the items without aggregates: none makes it an aggregate without
  // GROUP BY.
  bool grouped = !select.group_by.empty();
  if (select.group_by_all) {
    for (const sql::SelectItem& item : select.select_list) {
      grouped |= item.expr->kind != sql::ExprKind::kStar && !ContainsAggregate(item.expr.get());
    }
  }
  if (query.kind != sql::QueryKind::kSelect || !query.ctes.empty() || !select.has_from || !select.where ||
      !select.distinct_on.empty() || select.order_by_all || (!grouped && plan::Aggregates(select)) ||
      !OrderPositionsValid(select)) {
    return true;  // an aggregate without GROUP BY has a row even for a key without rows: not keyed
  }
  // The FROM's names, to tell the inner side of each condition from the outer.
  plan::LogicalPtr from;
  {
    Result from_error;
    if (!PlanFrom(select.from, &from, &from_error)) {
      if (UnnestingUnsupported(from_error)) return true;  // the FROM reads the outer query
      *error = std::move(from_error);
      return false;
    }
  }
  std::vector<sql::ExprPtr> conjuncts, kept, inner_keys, outer_keys;
  SplitAnd(sql::Clone(*select.where), &conjuncts);
  for (sql::ExprPtr& c : conjuncts) {
    if (FindAnySubquery(c.get()) != nullptr) {  // run with the query; a correlated one fails it
      kept.push_back(std::move(c));
      continue;
    }
    sql::ExprPtr classified = sql::Clone(*c);
    const int sides = Classify(classified.get(), from->scope, outer);
    if (sides & 4) return true;  // an unknown name: let the run per binding report it
    if (sides == 2) {
      conditions->push_back(std::move(classified));  // on the outer row alone: the join's
      continue;
    }
    if ((sides & 2) == 0) {
      kept.push_back(std::move(c));
      continue;
    }
    sql::ExprPtr* outer_side = nullptr;
    sql::ExprPtr* inner_side = InnerSideOfEquality(classified.get(), from->scope, outer, &outer_side);
    if (inner_side == nullptr) return true;  // not keyed by equalities
    inner_keys.push_back(std::move(*inner_side));
    outer_keys.push_back(std::move(*outer_side));
  }
  if (inner_keys.empty()) return true;
  // The subquery for every key at once: the keys appended to the SELECT list (positions in
  // GROUP BY and ORDER BY keep their meaning) and to the GROUP BY.
  const bool limited = select.has_limit || select.has_offset;
  std::vector<sql::ExprPtr> order_exprs;
  sql::SelectStatement keyed;
  if (limited) {
    keyed = WithoutLimit(select, &order_exprs);
  } else {
    sql::CloneInto(select, &keyed);
  }
  keyed.where = JoinAnd(std::move(kept));
  const size_t items = select.select_list.size();
  const size_t orders = order_exprs.size();
  for (size_t k = 0; k < inner_keys.size(); ++k) {
    sql::SelectItem key;
    key.expr = sql::Clone(*inner_keys[k]);
    key.alias = "__key" + std::to_string(k);
    keyed.select_list.push_back(std::move(key));
    if (!keyed.group_by.empty()) keyed.group_by.push_back(sql::Clone(*inner_keys[k]));
  }
  Result answer = RunSelect(keyed);
  if (!answer.ok()) {
    if (UnnestingUnsupported(answer)) return true;  // the outer query is read elsewhere too
    *error = std::move(answer);
    return false;
  }
  std::string message;
  const std::string qualifier = "__kq" + std::to_string(++derived_count_);
  if (!RelationFromResult(std::move(answer), qualifier, out, &message)) {
    *error = Result::Error(message);
    return false;
  }
  const size_t columns = out->scope.size();  // a star counts its columns
  const size_t first_key = columns - inner_keys.size();
  if (names != nullptr) {
    for (size_t c = 0; c < first_key - orders; ++c) names->push_back(out->scope[c].name);
  }
  for (size_t c = 0; c < columns; ++c) {
    out->scope[c].name = "__c" + std::to_string(c);
    out->scope[c].hidden = true;
  }
  const sql::SourcePos pos = query.pos;
  if (limited) {
    std::vector<sql::ExprPtr> key_refs, order_refs;
    std::vector<const sql::Expr*> keys;
    for (size_t k = 0; k < inner_keys.size(); ++k) {
      key_refs.push_back(MakeColumnRef(qualifier, out->scope[first_key + k].name, pos));
      keys.push_back(key_refs.back().get());
    }
    for (size_t o = 0; o < orders; ++o) {
      order_refs.push_back(MakeColumnRef(qualifier, out->scope[first_key - orders + o].name, pos));
    }
    if (!KeepFirstRowsPerKey(out, keys, order_refs, select, error)) return false;
  }
  for (size_t k = 0; k < inner_keys.size(); ++k) {
    conditions->push_back(MakeBinary(sql::BinaryOp::kEquals, std::move(outer_keys[k]),
                                     MakeColumnRef(qualifier, out->scope[first_key + k].name, pos)));
  }
  if (items == 1 && first_key - orders == 1) *value = MakeColumnRef(qualifier, out->scope[0].name, pos);
  *made = true;
  return true;
}

}  // namespace exec
}  // namespace laneql
