// Correlated subqueries of every form, anywhere in an expression (under OR, NOT, CASE; in
// SELECT items and ORDER BY as in WHERE), unnested into joins above the FROM tree:
//   (SELECT agg(...) ...)      -> LEFT JOIN to the aggregate grouped by the correlating keys
//                                 (query_decorrelate.cc, UnnestScalars);
//   (SELECT y ...)             -> SINGLE JOIN: a LEFT JOIN where an outer row meeting two rows
//                                 is DuckDB's "more than one row" error;
//   [NOT] EXISTS (...)         -> MARK JOIN: every outer row, and a BOOLEAN saying it matched;
//   x [NOT] IN (SELECT y ...)  -> mark joins for "some y = x", "some y is NULL" and "some row",
//                                 combined by a CASE into SQL's three-valued answer;
//   x op ANY / ALL (SELECT y)  -> mark joins for "some x op y" (ALL: "some NOT x op y") and
//                                 "some x op y is NULL", combined the same way.
// The marks are DuckDB's mark join (Neumann and Kemper's unnesting of arbitrary queries).
#include <utility>

#include "src/exec/decorrelate.h"
#include "src/exec/query_tree.h"
#include "src/sql/ast_clone.h"

namespace laneql {
namespace exec {
namespace {

sql::ExprPtr Node(sql::ExprKind kind, sql::SourcePos pos) {
  auto node = std::make_unique<sql::Expr>();
  node->kind = kind;
  node->pos = pos;
  node->height = 1;
  return node;
}

sql::ExprPtr Bool(bool value, sql::SourcePos pos) {
  sql::ExprPtr node = Node(sql::ExprKind::kBooleanLiteral, pos);
  node->bool_value = value;
  return node;
}

sql::ExprPtr Not(sql::ExprPtr operand) {
  sql::ExprPtr node = Node(sql::ExprKind::kUnary, operand->pos);
  node->unary_op = sql::UnaryOp::kNot;
  node->height = operand->height + 1;
  node->operand = std::move(operand);
  return node;
}

sql::ExprPtr IsNull(sql::ExprPtr operand) {
  sql::ExprPtr node = Node(sql::ExprKind::kIsNull, operand->pos);
  node->height = operand->height + 1;
  node->operand = std::move(operand);
  return node;
}

// CASE WHEN yes THEN `when_yes` WHEN maybe THEN NULL ELSE `otherwise` END: SQL's three values
// from two marks.
sql::ExprPtr ThreeValued(sql::ExprPtr yes, bool when_yes, sql::ExprPtr maybe, bool otherwise, sql::SourcePos pos) {
  sql::ExprPtr node = Node(sql::ExprKind::kCase, pos);
  node->height = std::max(yes->height, maybe->height) + 1;
  node->branches.push_back(sql::CaseBranch{std::move(yes), Bool(when_yes, pos)});
  node->branches.push_back(sql::CaseBranch{std::move(maybe), Node(sql::ExprKind::kNullLiteral, pos)});
  node->else_result = Bool(otherwise, pos);
  return node;
}

std::vector<sql::ExprPtr> Clones(const std::vector<sql::ExprPtr>& exprs) {
  std::vector<sql::ExprPtr> out;
  for (const sql::ExprPtr& e : exprs) out.push_back(sql::Clone(*e));
  return out;
}

}  // namespace

sql::ExprPtr* InnerSideOfEquality(sql::Expr* cond, const plan::ColumnScope& inner, const plan::ColumnScope& outer,
                                  sql::ExprPtr** outer_side) {
  if (cond->kind != sql::ExprKind::kBinary || cond->binary_op != sql::BinaryOp::kEquals) return nullptr;
  const int l = Classify(cond->left.get(), inner, outer), r = Classify(cond->right.get(), inner, outer);
  if (l == 1 && r == 2) {
    *outer_side = &cond->right;
    return &cond->left;
  }
  if (l == 2 && r == 1) {
    *outer_side = &cond->left;
    return &cond->right;
  }
  return nullptr;
}

Correlation Split(std::vector<sql::ExprPtr> conditions, const plan::ColumnScope& inner,
                  const plan::ColumnScope& outer) {
  Correlation c;
  for (sql::ExprPtr& cond : conditions) {
    sql::ExprPtr* outer_side = nullptr;
    if (sql::ExprPtr* inner_side = InnerSideOfEquality(cond.get(), inner, outer, &outer_side)) {
      c.outer_keys.push_back(std::move(*outer_side));
      c.inner_keys.push_back(std::move(*inner_side));
      continue;
    }
    c.residual.push_back(std::move(cond));
  }
  return c;
}


sql::ExprPtr QueryTreeRunner::AddMarkJoin(plan::LogicalPtr* from, const Relation& inner,
                                          std::vector<sql::ExprPtr> outer_keys,
                                          std::vector<sql::ExprPtr> inner_keys,
                                          std::vector<sql::ExprPtr> residual, sql::SourcePos pos) {
  const std::string qualifier = "__m" + std::to_string(++derived_count_);
  JoinAbove(from, GetOver(inner, "subquery " + qualifier), sql::JoinType::kMark, std::move(outer_keys),
            std::move(inner_keys), std::move(residual), plan::ScopeColumn{qualifier, "__mark", true});
  (*from)->pos = pos;
  return MakeColumnRef(qualifier, "__mark", pos);
}

bool QueryTreeRunner::DecorrelateExpr(plan::LogicalPtr* from, sql::ExprPtr* slot, Result* error) {
  sql::Expr* expr = slot->get();
  if (expr == nullptr) return true;
  if (!expr->subquery) {
    for (sql::ExprPtr* child : {&expr->operand, &expr->left, &expr->right, &expr->else_result}) {
      if (!DecorrelateExpr(from, child, error)) return false;
    }
    for (sql::ExprPtr& arg : expr->args) {
      if (!DecorrelateExpr(from, &arg, error)) return false;
    }
    for (sql::CaseBranch& branch : expr->branches) {
      if (!DecorrelateExpr(from, &branch.when, error) || !DecorrelateExpr(from, &branch.then, error)) return false;
    }
    return true;
  }
  if (!DecorrelateExpr(from, &expr->operand, error)) return false;  // x in x IN (...), x op ANY (...)
  // An uncorrelated subquery runs once, as everywhere.
  sql::ExprPtr attempt = sql::Clone(*expr);
  Result inline_error;
  if (InlineSubqueries(&attempt, &inline_error)) {
    *slot = std::move(attempt);
    return true;
  }
  if (inline_error.error().find(kCorrelatedMarker) == std::string::npos) {
    *error = std::move(inline_error);
    return false;
  }
  const sql::QueryNode& query = *expr->subquery;
  const sql::SourcePos pos = expr->pos;
  // The forms the joins below do not unnest run once per distinct outer binding instead.
  const bool limited = IsLimitedSelect(query);
  if (expr->kind != sql::ExprKind::kExists && query.select.select_list.size() != 1) {
    *error = ErrorAt(pos, "binder", "this correlated subquery is not supported yet (more than one column)");
    return ApplyPerBinding(from, slot, error);
  }
  const bool aggregate = query.select.select_list.size() == 1 && ContainsAggregate(query.select.select_list[0].expr.get());
  if ((!IsSimpleSelect(query) && !limited) || (expr->kind == sql::ExprKind::kSubquery && !aggregate && query.select.distinct)) {
    // GROUP BY, HAVING, a scalar DISTINCT, LIMIT over groups: run for every key at once when
    // the outer query is read through equalities of its WHERE only (query_keyed_subquery.cc).
    Relation keyed;
    std::vector<sql::ExprPtr> conditions;
    sql::ExprPtr value;
    bool made = false;
    if (!MakeKeyedRelation(query, (*from)->scope, &keyed, &conditions, &value, &made, error)) return false;
    if (made) return JoinSubqueryRows(from, slot, std::move(keyed), std::move(conditions), value.get(), error);
    *error = ErrorAt(pos, "binder", "this correlated subquery is not supported yet (one with GROUP BY, HAVING, "
                                    "LIMIT, DISTINCT, WITH or a set operation, not correlated by equalities only)");
    return ApplyPerBinding(from, slot, error);
  }
  if (expr->kind == sql::ExprKind::kSubquery && aggregate) {
    if (UnnestScalars(from, slot, error)) return true;
    return UnnestingUnsupported(*error) && ApplyPerBinding(from, slot, error);
  }
  if (expr->kind == sql::ExprKind::kExists && plan::Aggregates(query.select)) {
    // An aggregate without GROUP BY has one row whatever it reads: no join says that.
    return ApplyPerBinding(from, slot, error);
  }
  if (aggregate && expr->kind != sql::ExprKind::kExists) {
    *error = ErrorAt(pos, "binder", "this correlated subquery is not supported yet (IN, ANY or ALL over an aggregate)");
    return ApplyPerBinding(from, slot, error);
  }
  Relation inner;
  std::vector<sql::ExprPtr> conditions;
  if (limited) {
    // ORDER BY ... LIMIT / OFFSET: the first rows of each correlation key (query_first_rows.cc),
    // when the conditions on the outer query are equalities only (else the binding is more
    // than the key: per binding).
    std::vector<sql::ExprPtr> order_exprs;
    const sql::SelectStatement unlimited = WithoutLimit(query.select, &order_exprs);
    if (!MakeInnerRelation(unlimited, (*from)->scope, true, &inner, &conditions, error)) {
      return UnnestingUnsupported(*error) && ApplyPerBinding(from, slot, error);
    }
    std::vector<const sql::Expr*> keys;
    for (const sql::ExprPtr& cond : conditions) {
      sql::ExprPtr* outer_side = nullptr;
      const sql::ExprPtr* inner_side = InnerSideOfEquality(cond.get(), inner.scope, (*from)->scope, &outer_side);
      if (inner_side == nullptr) {
        *error = ErrorAt(pos, "binder", "this correlated subquery is not supported yet (LIMIT with conditions "
                                        "on the outer query other than equalities)");
        return ApplyPerBinding(from, slot, error);
      }
      keys.push_back(inner_side->get());
    }
    if (keys.empty()) {  // correlated elsewhere (the ORDER BY, the SELECT list): per binding
      *error = ErrorAt(pos, "binder", "this correlated subquery is not supported yet (LIMIT without correlating "
                                      "equalities)");
      return ApplyPerBinding(from, slot, error);
    }
    Result cut;
    if (!KeepFirstRowsPerKey(&inner, keys, order_exprs, query.select, &cut)) {
      // An ORDER BY naming the outer query, say: per binding.
      *error = std::move(cut);
      return UnnestingUnsupported(*error) && ApplyPerBinding(from, slot, error);
    }
  } else if (!MakeInnerRelation(query.select, (*from)->scope, expr->kind != sql::ExprKind::kExists, &inner,
                                &conditions, error)) {
    return UnnestingUnsupported(*error) && ApplyPerBinding(from, slot, error);
  }
  return JoinSubqueryRows(from, slot, std::move(inner), std::move(conditions), query.select.select_list[0].expr.get(),
                          error);
}

bool QueryTreeRunner::JoinSubqueryRows(plan::LogicalPtr* from, sql::ExprPtr* slot, Relation inner,
                                       std::vector<sql::ExprPtr> conditions, const sql::Expr* item_expr,
                                       Result* error) {
  const sql::Expr* expr = slot->get();
  const sql::SourcePos pos = expr->pos;
  if (expr->kind == sql::ExprKind::kExists) {
    Correlation c = Split(std::move(conditions), inner.scope, (*from)->scope);
    sql::ExprPtr mark = AddMarkJoin(from, inner, std::move(c.outer_keys), std::move(c.inner_keys),
                                    std::move(c.residual), pos);
    *slot = expr->negated ? Not(std::move(mark)) : std::move(mark);
    return true;
  }
  // The subquery's one value, beside the inner relation's columns.
  const std::string qualifier = "__s" + std::to_string(++derived_count_);
  const sql::Expr& item = *item_expr;
  Result value;
  std::string message;
  if (!Evaluate(inner, {&item}, &value)) {
    // The item reads the outer query too (SELECT x + outer.y ...): per binding.
    *error = std::move(value);
    return UnnestingUnsupported(*error) && ApplyPerBinding(from, slot, error);
  }
  Column value_column;
  if (!CopyColumn(value.column(0), &value_column, &message)) {
    *error = Result::Error(message);
    return false;
  }
  const bool value_has_nulls = value_column.null_count() > 0;
  if (!AddRelationColumn(&inner, std::move(value_column), plan::ScopeColumn{qualifier, "__v", true}, &message)) {
    *error = Result::Error(message);
    return false;
  }
  Correlation c = Split(std::move(conditions), inner.scope, (*from)->scope);
  auto v = [&] { return MakeColumnRef(qualifier, "__v", pos); };
  if (expr->kind == sql::ExprKind::kSubquery) {
    // One row per outer row at most: a single join, its value the subquery's.
    JoinAbove(from, GetOver(inner, "subquery " + qualifier), sql::JoinType::kSingle, std::move(c.outer_keys),
              std::move(c.inner_keys), std::move(c.residual));
    (*from)->pos = pos;
    *slot = v();
    return true;
  }
  const sql::Expr& x = *expr->operand;
  if (expr->kind == sql::ExprKind::kInSubquery) {
    std::vector<sql::ExprPtr> outer_keys = Clones(c.outer_keys), inner_keys = Clones(c.inner_keys);
    outer_keys.push_back(sql::Clone(x));
    inner_keys.push_back(v());
    sql::ExprPtr found = AddMarkJoin(from, inner, std::move(outer_keys), std::move(inner_keys), Clones(c.residual), pos);
    // Unknown (NULL) when nothing equals x but x is NULL and some row exists, or some y is NULL.
    sql::ExprPtr any_row = AddMarkJoin(from, inner, Clones(c.outer_keys), Clones(c.inner_keys), Clones(c.residual), pos);
    sql::ExprPtr maybe = MakeBinary(sql::BinaryOp::kAnd, IsNull(sql::Clone(x)), std::move(any_row));
    if (value_has_nulls) {
      std::vector<sql::ExprPtr> residual = Clones(c.residual);
      residual.push_back(IsNull(v()));
      sql::ExprPtr null_row = AddMarkJoin(from, inner, Clones(c.outer_keys), Clones(c.inner_keys), std::move(residual), pos);
      maybe = MakeBinary(sql::BinaryOp::kOr, std::move(null_row), std::move(maybe));
    }
    sql::ExprPtr answer = ThreeValued(std::move(found), true, std::move(maybe), false, pos);
    *slot = expr->negated ? Not(std::move(answer)) : std::move(answer);
    return true;
  }
  // x op ANY (...): TRUE when some x op y is; ALL: FALSE when some x op y is not. Otherwise
  // NULL when some x op y is NULL.
  const bool all = expr->quantifier_all;
  std::vector<sql::ExprPtr> hit_residual = Clones(c.residual), null_residual = Clones(c.residual);
  sql::ExprPtr compare = MakeBinary(expr->binary_op, sql::Clone(x), v());
  null_residual.push_back(IsNull(sql::Clone(*compare)));
  hit_residual.push_back(all ? Not(std::move(compare)) : std::move(compare));
  sql::ExprPtr hit = AddMarkJoin(from, inner, Clones(c.outer_keys), Clones(c.inner_keys), std::move(hit_residual), pos);
  sql::ExprPtr unknown = AddMarkJoin(from, inner, std::move(c.outer_keys), std::move(c.inner_keys), std::move(null_residual), pos);
  *slot = ThreeValued(std::move(hit), !all, std::move(unknown), all, pos);
  return true;
}

}  // namespace exec
}  // namespace laneql
