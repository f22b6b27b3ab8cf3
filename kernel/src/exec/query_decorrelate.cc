// Correlated subqueries in WHERE, run as joins instead of once per outer row (the unnesting of
// Neumann and Kemper, for the forms analytical queries use):
//   [NOT] EXISTS (SELECT ... FROM inner WHERE local AND correlating)
//     -> the outer relation SEMI (ANTI) JOIN inner ON correlating, inner filtered by local;
//   x op (SELECT agg(...) FROM inner WHERE local AND inner_key = outer_expr ...)
//     -> the outer relation LEFT JOIN (SELECT inner_key, agg(...) FROM inner WHERE local
//        GROUP BY inner_key) ON outer_expr = inner_key, the subquery replaced by the aggregate.
// Names in the correlating conditions resolve innermost first, as SQL says; they are qualified
// on the way so that the joined relation reads them without ambiguity.
#include <utility>

#include "src/common/ascii.h"
#include "src/plan/query_ast.h"
#include "src/exec/decorrelate.h"
#include "src/exec/query_tree.h"
#include "src/optimize/optimizer.h"
#include "src/sql/ast_clone.h"

namespace laneql {
namespace exec {
namespace {


// The first scalar subquery in `expr` (not inside another), or null.
sql::ExprPtr* FindScalarSubquery(sql::ExprPtr* slot) {
  sql::Expr* expr = slot->get();
  if (expr == nullptr) return nullptr;
  if (expr->kind == sql::ExprKind::kSubquery) return slot;
  for (sql::ExprPtr* child : {&expr->operand, &expr->left, &expr->right, &expr->else_result}) {
    if (sql::ExprPtr* found = FindScalarSubquery(child)) return found;
  }
  for (sql::ExprPtr& arg : expr->args) {
    if (sql::ExprPtr* found = FindScalarSubquery(&arg)) return found;
  }
  for (sql::CaseBranch& branch : expr->branches) {
    if (sql::ExprPtr* found = FindScalarSubquery(&branch.when)) return found;
    if (sql::ExprPtr* found = FindScalarSubquery(&branch.then)) return found;
  }
  return nullptr;
}

}  // namespace

int LookupScopeColumn(const sql::Expr& ref, const plan::ColumnScope& scope) {
  for (const plan::ScopeColumn& column : scope) {
    if (!ref.qualifier.empty()) {
      if (!ascii::EqualsIgnoreCase(column.qualifier, ref.qualifier)) continue;
    } else if (column.hidden) {
      continue;
    }
    if (ascii::EqualsIgnoreCase(column.name, ref.text)) return static_cast<int>(&column - scope.data());
  }
  return -1;
}

// Qualifies every column reference of `expr` (innermost first: `inner`, then `outer`) and says
// which side(s) it reads: bit 1 inner, bit 2 outer, bit 4 neither (an unknown name).
int Classify(sql::Expr* expr, const plan::ColumnScope& inner, const plan::ColumnScope& outer) {
  if (expr == nullptr) return 0;
  int sides = 0;
  if (expr->kind == sql::ExprKind::kColumnRef) {
    if (const int c = LookupScopeColumn(*expr, inner); c >= 0) {
      if (!inner[c].qualifier.empty()) expr->qualifier = inner[c].qualifier;
      return 1;
    }
    if (const int c = LookupScopeColumn(*expr, outer); c >= 0) {
      if (!outer[c].qualifier.empty()) expr->qualifier = outer[c].qualifier;
      return 2;
    }
    return 4;
  }
  if (expr->subquery) return 4;
  sides |= Classify(expr->operand.get(), inner, outer) | Classify(expr->left.get(), inner, outer) |
           Classify(expr->right.get(), inner, outer) | Classify(expr->else_result.get(), inner, outer);
  for (sql::ExprPtr& arg : expr->args) sides |= Classify(arg.get(), inner, outer);
  for (sql::CaseBranch& branch : expr->branches) {
    sides |= Classify(branch.when.get(), inner, outer) | Classify(branch.then.get(), inner, outer);
  }
  return sides;
}

bool IsSimpleSelect(const sql::QueryNode& query) {
  const sql::SelectStatement& s = query.select;
  return query.kind == sql::QueryKind::kSelect && query.ctes.empty() && s.has_from &&
         s.group_by.empty() && !s.group_by_all && !s.having && !s.has_limit && !s.has_offset &&
         s.distinct_on.empty();
}


// `*from` joined (`type`) with `right` on outer_keys[i] = inner_keys[i] and `residual`.
void JoinAbove(plan::LogicalPtr* from, plan::LogicalPtr right, sql::JoinType type,
               std::vector<sql::ExprPtr> outer_keys, std::vector<sql::ExprPtr> inner_keys,
               std::vector<sql::ExprPtr> residual, plan::ScopeColumn mark) {
  plan::LogicalPtr join = plan::MakeLogical(plan::LogicalKind::kJoin);
  join->join_type = type;
  join->left_keys = std::move(outer_keys);
  join->right_keys = std::move(inner_keys);
  join->conditions = std::move(residual);
  join->scope = (*from)->scope;
  if (type == sql::JoinType::kMark) {
    join->scope.push_back(std::move(mark));
  } else if (type == sql::JoinType::kSingle) {
    join->scope.push_back(right->scope.back());  // the subquery's value alone
  } else if (type != sql::JoinType::kSemi && type != sql::JoinType::kAnti) {
    join->scope.insert(join->scope.end(), right->scope.begin(), right->scope.end());
  }
  join->children.push_back(std::move(*from));
  join->children.push_back(std::move(right));
  *from = std::move(join);
}

bool QueryTreeRunner::MakeInnerRelation(const sql::SelectStatement& inner_select, const plan::ColumnScope& outer,
                                        bool reads_select_list, Relation* out,
                                        std::vector<sql::ExprPtr>* conditions, Result* error) {
  plan::LogicalPtr tree;
  return PlanInnerRelation(inner_select, outer, reads_select_list, &tree, conditions, error) &&
         ExecuteLogical(tree.get(), false, out, error);
}

bool QueryTreeRunner::PlanInnerRelation(const sql::SelectStatement& inner_select, const plan::ColumnScope& outer,
                                        bool reads_select_list, plan::LogicalPtr* out,
                                        std::vector<sql::ExprPtr>* conditions, Result* error) {
  sql::SelectStatement inner;
  sql::CloneInto(inner_select, &inner);
  std::vector<sql::ExprPtr> nested;
  if (!InlineSubqueries(&inner, &nested, nullptr, error)) return false;
  plan::LogicalPtr from;
  if (!PlanFrom(inner.from, &from, error)) return false;
  std::vector<sql::ExprPtr> conjuncts, local;
  SplitAnd(std::move(inner.where), &conjuncts);
  for (sql::ExprPtr& c : conjuncts) {
    const int sides = Classify(c.get(), from->scope, outer);
    if (sides & 4) {
      *error = ErrorAt(c->pos, "binder", "a condition of the subquery names an unknown column");
      // Let the binder say which: bind it over the inner relation for its message.
      Relation relation;
      Result probe;
      if (ExecuteLogical(from.get(), false, &relation, error) && !Evaluate(relation, {c.get()}, &probe)) {
        *error = std::move(probe);
      }
      return false;
    }
    if (sides == 1) {
      local.push_back(std::move(c));
    } else {
      conditions->push_back(std::move(c));  // correlating, constant or outer-only: a condition of the join
    }
  }
  plan::FilterAbove(&from, std::move(local));
  // Subqueries of its own WHERE correlated with it (not with the query outside it, whose names
  // they cannot see here: that fails as an unknown column) are unnested into its relation; what
  // remains of such a condition filters that relation, or correlates it with the outer query
  // when it names the outer query too (a3.m <> (SELECT ...) OR outer.c = 1).
  std::vector<sql::ExprPtr> nested_local;
  for (sql::ExprPtr& conjunct : nested) {
    if (!DecorrelateExpr(&from, &conjunct, error)) {
      if (LooksCorrelated(*error)) {
        *error = ErrorAt(inner_select.pos, "binder", "a subquery correlated with a query two levels out is not "
                                                     "supported yet: " + error->error());
      }
      return false;
    }
    const int sides = Classify(conjunct.get(), from->scope, outer);
    if (sides & 4) {
      *error = ErrorAt(conjunct->pos, "binder", "a condition of the subquery names an unknown column");
      return false;
    }
    if (sides & 2) {
      conditions->push_back(std::move(conjunct));
    } else {
      nested_local.push_back(std::move(conjunct));
    }
  }
  plan::FilterAbove(&from, std::move(nested_local));
  // What reads the relation after this (the correlating conditions, and the SELECT list unless
  // the subquery is an EXISTS) is listed in a projection on top, so that column pruning keeps
  // exactly those columns (TPC-H Q4's EXISTS keeps 1 of lineitem's 16).
  plan::LogicalPtr top = plan::MakeLogical(plan::LogicalKind::kProject);
  top->select_clause = true;
  top->scope = from->scope;
  for (const sql::ExprPtr& c : *conditions) top->exprs.push_back(sql::Clone(*c));
  if (reads_select_list) {
    for (const sql::SelectItem& item : inner.select_list) top->exprs.push_back(sql::Clone(*item.expr));
  }
  top->children.push_back(std::move(from));
  optimize::Optimize(&top);
  *out = std::move(top->children[0]);
  return true;
}

bool QueryTreeRunner::UnnestScalars(plan::LogicalPtr* from, sql::ExprPtr* expr, Result* error) {
  sql::ExprPtr* slot = FindScalarSubquery(expr);
  while (slot != nullptr) {
    sql::Expr& sub = **slot;
    const sql::QueryNode& query = *sub.subquery;
    if (!IsSimpleSelect(query) || query.select.select_list.size() != 1 ||
        !ContainsAggregate(query.select.select_list[0].expr.get())) {
      *error = ErrorAt(sub.pos, "binder", "this correlated subquery is not supported yet (only one aggregate "
                                "over the correlated rows, or [NOT] EXISTS)");
      return false;
    }
    Relation inner;
    std::vector<sql::ExprPtr> conditions;
    if (!MakeInnerRelation(query.select, (*from)->scope, true, &inner, &conditions, error)) return false;
    const std::string qualifier = "__sq" + std::to_string(++derived_count_);
    sql::SelectStatement grouped;
    grouped.pos = query.select.pos;
    grouped.has_from = true;
    std::vector<sql::ExprPtr> outer_keys;
    for (sql::ExprPtr& cond : conditions) {
      sql::ExprPtr* outer_slot = nullptr;
      sql::ExprPtr* inner_slot = InnerSideOfEquality(cond.get(), inner.scope, (*from)->scope, &outer_slot);
      if (inner_slot == nullptr) {
        *error = ErrorAt(cond->pos, "binder", "a correlated subquery's conditions on the outer query must be "
                                    "equalities here (others are not supported yet)");
        return false;
      }
      sql::ExprPtr& inner_side = *inner_slot;
      sql::ExprPtr& outer_side = *outer_slot;
      sql::SelectItem key;
      key.expr = sql::Clone(*inner_side);
      key.alias = "__k" + std::to_string(outer_keys.size());
      grouped.group_by.push_back(sql::Clone(*inner_side));
      grouped.select_list.push_back(std::move(key));
      outer_keys.push_back(std::move(outer_side));
    }
    sql::SelectItem value;
    value.expr = sql::Clone(*query.select.select_list[0].expr);
    value.alias = "__v";
    grouped.select_list.push_back(std::move(value));
    if (!CutToOuterKeys(from, outer_keys, grouped.group_by, &inner, error)) return false;
    // The value over no rows (count(*) + 1 is 1, coalesce(sum(y), 0) is 0): what an outer row
    // whose key has no group gets, where the LEFT JOIN leaves NULL. Left NULL when it is NULL
    // (or fails: no row of DuckDB's would compute it either).
    sql::ExprPtr empty_value;
    if (!outer_keys.empty()) {
      sql::SelectStatement none;
      none.pos = query.select.pos;
      none.has_from = true;
      sql::SelectItem item;
      item.expr = sql::Clone(*query.select.select_list[0].expr);
      none.select_list.push_back(std::move(item));
      none.where = std::make_unique<sql::Expr>();
      none.where->kind = sql::ExprKind::kBooleanLiteral;
      none.where->bool_value = false;
      none.where->pos = sub.pos;
      const Result over_none = BindAndExecute(none, &inner);
      if (over_none.ok() && over_none.num_rows() == 1 && over_none.column(0).IsValid(0)) {
        empty_value = LiteralOf(over_none.column(0), 0, sub);
      }
    }
    Result answer = BindAndExecute(grouped, &inner);
    if (!answer.ok()) {
      *error = std::move(answer);
      return false;
    }
    Relation derived;
    std::string message;
    if (!RelationFromResult(std::move(answer), qualifier, &derived, &message)) {
      *error = Result::Error(message);
      return false;
    }
    for (plan::ScopeColumn& column : derived.scope) column.hidden = true;
    std::vector<sql::ExprPtr> inner_refs;
    for (size_t k = 0; k < outer_keys.size(); ++k) {
      inner_refs.push_back(MakeColumnRef(qualifier, "__k" + std::to_string(k), sub.pos));
    }
    const sql::JoinType type = outer_keys.empty() ? sql::JoinType::kCross : sql::JoinType::kLeft;
    JoinAbove(from, GetOver(derived, "subquery " + qualifier + " (grouped by its correlation)"), type,
              std::move(outer_keys), std::move(inner_refs), {});
    sql::ExprPtr replacement = MakeColumnRef(qualifier, "__v", sub.pos);
    if (empty_value) {
      // CASE WHEN the key found no group THEN the value over no rows ELSE the group's END (a
      // key that matched is never NULL).
      auto when = std::make_unique<sql::Expr>();
      when->kind = sql::ExprKind::kIsNull;
      when->pos = sub.pos;
      when->height = 2;
      when->operand = MakeColumnRef(qualifier, "__k0", sub.pos);
      auto node = std::make_unique<sql::Expr>();
      node->kind = sql::ExprKind::kCase;
      node->pos = sub.pos;
      node->height = std::max(empty_value->height, 2) + 1;
      node->branches.push_back(sql::CaseBranch{std::move(when), std::move(empty_value)});
      node->else_result = std::move(replacement);
      replacement = std::move(node);
    }
    *slot = std::move(replacement);
    slot = FindScalarSubquery(expr);
  }
  return true;
}

bool QueryTreeRunner::InSubqueryJoin(plan::LogicalPtr* from, sql::ExprPtr* conjunct,
                                     std::vector<sql::ExprPtr>* leftover, bool* done, Result* error) {
  sql::Expr& in = **conjunct;
  last_plan_text_.clear();
  Result answer = Run(*in.subquery);
  const std::string subplan = std::move(last_plan_text_);
  last_plan_text_.clear();
  if (!answer.ok()) {
    if (LooksCorrelated(answer)) return true;  // correlated: DecorrelateExpr's mark joins
    *error = std::move(answer);
    return false;
  }
  *done = true;
  if (answer.num_columns() != 1) {
    *error = ErrorAt(in.pos, "binder", "subquery returns " + std::to_string(answer.num_columns()) +
                                           " columns - expected 1");
    return false;
  }
  const std::string qualifier = "__s" + std::to_string(++derived_count_);
  Relation values;
  std::string message;
  if (!RelationFromResult(std::move(answer), qualifier, &values, &message)) {
    *error = Result::Error(message);
    return false;
  }
  values.scope[0].name = "__v";
  values.scope[0].hidden = true;
  const size_t rows = values.table->num_rows();
  const bool has_null = values.table->column(0).null_count() > 0;
  std::vector<sql::ExprPtr> x, v;
  x.push_back(std::move(in.operand));
  v.push_back(MakeColumnRef(qualifier, "__v", in.pos));
  if (!in.negated) {
    // In WHERE a NULL is as good as FALSE: exactly the rows a semi join keeps.
    plan::LogicalPtr get = GetOver(values, "subquery " + qualifier + " (IN)");
    get->subplan = subplan;
    JoinAbove(from, std::move(get), sql::JoinType::kSemi, std::move(x), std::move(v), {});
    return true;
  }
  // x NOT IN (values): TRUE on no values; never TRUE when a value is NULL; otherwise TRUE when x
  // is not NULL and matches none: an anti join and x IS NOT NULL.
  if (rows == 0) return true;
  auto literal = std::make_unique<sql::Expr>();
  literal->kind = sql::ExprKind::kBooleanLiteral;
  literal->pos = in.pos;
  literal->height = 1;
  if (has_null) {
    literal->bool_value = false;
    leftover->push_back(std::move(literal));
    return true;
  }
  auto not_null = std::make_unique<sql::Expr>();
  not_null->kind = sql::ExprKind::kIsNull;
  not_null->negated = true;
  not_null->pos = in.pos;
  not_null->operand = sql::Clone(*x[0]);
  not_null->height = not_null->operand->height + 1;
  leftover->push_back(std::move(not_null));
  plan::LogicalPtr get = GetOver(values, "subquery " + qualifier + " (NOT IN)");
  get->subplan = subplan;
  JoinAbove(from, std::move(get), sql::JoinType::kAnti, std::move(x), std::move(v), {});
  return true;
}

bool QueryTreeRunner::ApplyCorrelated(plan::LogicalPtr* from, std::vector<sql::ExprPtr> correlated, Result* error) {
  std::vector<sql::ExprPtr> leftover;
  for (sql::ExprPtr& conjunct : correlated) {
    sql::Expr* c = conjunct.get();
    if (c->kind == sql::ExprKind::kInSubquery) {
      bool done = false;
      if (!InSubqueryJoin(from, &conjunct, &leftover, &done, error)) return false;
      if (done) continue;
    }
    const bool negated = c->kind == sql::ExprKind::kUnary && c->unary_op == sql::UnaryOp::kNot &&
                         c->operand->kind == sql::ExprKind::kExists;
    sql::Expr* exists = negated ? c->operand.get() : c;
    // A semi (anti) join for the EXISTS shapes it can answer (an aggregate without GROUP BY has
    // a row whatever it reads); any other shape goes to DecorrelateExpr below.
    bool semi = exists->kind == sql::ExprKind::kExists && IsSimpleSelect(*exists->subquery) &&
                !plan::Aggregates(exists->subquery->select);
    // The subquery's plan joins the outer one as its right side: it runs with the join (a
    // filtered scan streams through the probe), not before it.
    plan::LogicalPtr inner;
    std::vector<sql::ExprPtr> conditions;
    if (semi && !PlanInnerRelation(exists->subquery->select, (*from)->scope, false, &inner, &conditions, error)) {
      if (!UnnestingUnsupported(*error)) return false;
      semi = false;
    }
    if (semi) {
      std::vector<sql::ExprPtr> outer_keys, inner_keys, residual;
      for (sql::ExprPtr& cond : conditions) {
        if (cond->kind == sql::ExprKind::kBinary && cond->binary_op == sql::BinaryOp::kEquals) {
          const int l = Classify(cond->left.get(), inner->scope, (*from)->scope);
          const int r = Classify(cond->right.get(), inner->scope, (*from)->scope);
          if (l == 2 && r == 1) {
            outer_keys.push_back(std::move(cond->left));
            inner_keys.push_back(std::move(cond->right));
            continue;
          }
          if (l == 1 && r == 2) {
            outer_keys.push_back(std::move(cond->right));
            inner_keys.push_back(std::move(cond->left));
            continue;
          }
        }
        residual.push_back(std::move(cond));
      }
      JoinAbove(from, std::move(inner),
                negated ? sql::JoinType::kAnti : sql::JoinType::kSemi, std::move(outer_keys),
                std::move(inner_keys), std::move(residual));
      continue;
    }
    // Any other form, anywhere in the conjunct (under OR, NOT, CASE, ...).
    if (!DecorrelateExpr(from, &conjunct, error)) return false;
    leftover.push_back(std::move(conjunct));
  }
  plan::FilterAbove(from, std::move(leftover));
  return true;
}

}  // namespace exec
}  // namespace laneql
