// An aggregate query whose SELECT list or HAVING holds correlated subqueries (they read the
// groups: its keys and aggregates) runs in two levels: the grouping first, as a query of its
// own whose answer has a column per group key and per aggregate; then the rest of the query
// over that answer, the aggregates replaced by its columns, as a query without aggregates,
// whose correlated subqueries are unnested into joins as everywhere (query_subquery_marks.cc).
// A group key that names a column keeps that column's qualifier and name, so the subqueries
// still find it (SELECT k, (SELECT max(y) FROM i WHERE i.k = o.k) FROM o GROUP BY k).
// Window calls over groups (sum(sum(x)) OVER (), rank() OVER (ORDER BY count(*))) take the
// same first level (GroupFirst), their windows then evaluated over the groups.
#include <utility>

#include "src/common/ascii.h"
#include "src/exec/query_tree.h"
#include "src/sql/ast_clone.h"

namespace laneql {
namespace exec {
namespace {

// Every aggregate call of `expr` outside subqueries, once each (by text).
void CollectAggregates(const sql::Expr* expr, std::vector<const sql::Expr*>* out) {
  if (expr == nullptr) return;
  if (expr->subquery) {  // x IN (...), x op ANY (...): x is outside the subquery
    CollectAggregates(expr->operand.get(), out);
    return;
  }
  if (plan::IsAggregateCall(*expr)) {
    const std::string text = sql::ToString(*expr);
    for (const sql::Expr* seen : *out) {
      if (sql::ToString(*seen) == text) return;
    }
    out->push_back(expr);
    return;
  }
  for (const sql::Expr* child : {expr->operand.get(), expr->left.get(), expr->right.get(), expr->else_result.get()}) {
    CollectAggregates(child, out);
  }
  for (const sql::ExprPtr& arg : expr->args) CollectAggregates(arg.get(), out);
  for (const sql::CaseBranch& branch : expr->branches) {
    CollectAggregates(branch.when.get(), out);
    CollectAggregates(branch.then.get(), out);
  }
  if (expr->window) {  // rank() OVER (ORDER BY count(*)): the window reads the groups
    for (const sql::ExprPtr& key : expr->window->partition_by) CollectAggregates(key.get(), out);
    for (const sql::OrderItem& item : expr->window->order_by) CollectAggregates(item.expr.get(), out);
  }
}

// Replaces, outside subqueries, each expression whose text is in `texts` by a reference to
// __agg.<names[i]>.
void Replace(sql::ExprPtr* slot, const std::vector<std::string>& texts, const std::vector<std::string>& names) {
  sql::Expr* expr = slot->get();
  if (expr == nullptr) return;
  if (expr->subquery) {
    Replace(&expr->operand, texts, names);
    return;
  }
  if (expr->kind != sql::ExprKind::kColumnRef && expr->kind != sql::ExprKind::kIntegerLiteral) {
    const std::string text = sql::ToString(*expr);
    for (size_t i = 0; i < texts.size(); ++i) {
      if (texts[i] == text) {
        *slot = MakeColumnRef("__agg", names[i], expr->pos);
        return;
      }
    }
  }
  for (sql::ExprPtr* child : {&expr->operand, &expr->left, &expr->right, &expr->else_result}) {
    Replace(child, texts, names);
  }
  for (sql::ExprPtr& arg : expr->args) Replace(&arg, texts, names);
  for (sql::CaseBranch& branch : expr->branches) {
    Replace(&branch.when, texts, names);
    Replace(&branch.then, texts, names);
  }
  if (expr->window) {
    for (sql::ExprPtr& key : expr->window->partition_by) Replace(&key, texts, names);
    for (sql::OrderItem& item : expr->window->order_by) Replace(&item.expr, texts, names);
  }
}

}  // namespace

Result QueryTreeRunner::RunAggregateThenSubqueries(const sql::SelectStatement& select) {
  sql::SelectStatement outer;
  Result error;
  if (!GroupFirst(select, &outer, &error)) return error;
  Result result = RunSelect(outer);
  ctes_.pop_back();
  return result;
}

bool QueryTreeRunner::GroupFirst(const sql::SelectStatement& select, sql::SelectStatement* outer_out,
                                 Result* error_out) {
  sql::SelectStatement grouped;
  sql::CloneInto(select, &grouped);
  ExpandAllClauses(&grouped);
  // The grouping level: every group key, then every aggregate the rest reads.
  std::vector<const sql::Expr*> aggregates;
  for (const sql::SelectItem& item : grouped.select_list) CollectAggregates(item.expr.get(), &aggregates);
  CollectAggregates(grouped.having.get(), &aggregates);
  CollectAggregates(grouped.qualify.get(), &aggregates);
  for (const sql::NamedWindow& window : grouped.windows) {
    for (const sql::ExprPtr& key : window.spec.partition_by) CollectAggregates(key.get(), &aggregates);
    for (const sql::OrderItem& item : window.spec.order_by) CollectAggregates(item.expr.get(), &aggregates);
  }
  for (const sql::OrderItem& item : grouped.order_by) CollectAggregates(item.expr.get(), &aggregates);
  sql::SelectStatement inner;
  sql::CloneInto(grouped, &inner);
  inner.select_list.clear();
  inner.having.reset();
  inner.qualify.reset();
  inner.windows.clear();
  inner.order_by.clear();
  inner.has_limit = inner.has_offset = false;
  inner.distinct = false;
  std::vector<std::string> texts, names;
  for (size_t g = 0; g < grouped.group_by.size(); ++g) {
    sql::SelectItem item;
    item.expr = sql::Clone(*grouped.group_by[g]);
    item.alias = "__g" + std::to_string(g);
    inner.select_list.push_back(std::move(item));
    texts.push_back(sql::ToString(*grouped.group_by[g]));
    names.push_back("__g" + std::to_string(g));
  }
  for (size_t a = 0; a < aggregates.size(); ++a) {
    sql::SelectItem item;
    item.expr = sql::Clone(*aggregates[a]);
    item.alias = "__a" + std::to_string(a);
    inner.select_list.push_back(std::move(item));
    texts.push_back(sql::ToString(*aggregates[a]));
    names.push_back("__a" + std::to_string(a));
  }
  SelectPlan inner_plan;
  if (!PlanSelect(inner, &inner_plan, error_out)) return false;
  // How the FROM clause names each group key that is a column (for the subqueries above).
  plan::LogicalOperator* lowest = inner_plan.root.get();
  while (!lowest->children.empty() && lowest->children[0]->select_clause) lowest = lowest->children[0].get();
  const plan::ColumnScope from_scope = lowest->children.empty() ? plan::ColumnScope{} : lowest->children[0]->scope;
  Result answer = RunPlan(&inner_plan, false);
  if (!answer.ok()) {
    *error_out = std::move(answer);
    return false;
  }
  Relation groups;
  std::string message;
  if (!RelationFromResult(std::move(answer), "__agg", &groups, &message)) {
    *error_out = Result::Error(message);
    return false;
  }
  for (size_t i = 0; i < groups.scope.size(); ++i) {
    groups.scope[i].name = names[i];
    groups.scope[i].hidden = true;
  }
  std::vector<plan::ScopeColumn> named;  // the group keys' own names, beside the hidden ones
  for (size_t g = 0; g < grouped.group_by.size(); ++g) {
    const sql::Expr& key = *grouped.group_by[g];
    if (key.kind != sql::ExprKind::kColumnRef) continue;
    for (const plan::ScopeColumn& column : from_scope) {
      if ((key.qualifier.empty() ? !column.hidden : ascii::EqualsIgnoreCase(key.qualifier, column.qualifier)) &&
          ascii::EqualsIgnoreCase(key.text, column.name)) {
        Column copy;
        if (!ShareColumn(groups.table->column(g), groups.table, &copy, &message) ||
            !AddRelationColumn(&groups, std::move(copy), plan::ScopeColumn{column.qualifier, column.name, false},
                               &message)) {
          *error_out = Result::Error(message);
          return false;
        }
        break;
      }
    }
  }
  // The rest, over the groups: HAVING is its WHERE.
  sql::SelectStatement& outer = *outer_out;
  sql::CloneInto(grouped, &outer);
  outer.group_by.clear();
  outer.where = std::move(outer.having);
  outer.having.reset();
  for (sql::SelectItem& item : outer.select_list) {
    if (item.alias.empty()) item.alias = plan::DefaultOutputName(*item.expr);  // the name it had
    Replace(&item.expr, texts, names);
  }
  Replace(&outer.where, texts, names);
  Replace(&outer.qualify, texts, names);
  for (sql::NamedWindow& window : outer.windows) {
    for (sql::ExprPtr& key : window.spec.partition_by) Replace(&key, texts, names);
    for (sql::OrderItem& item : window.spec.order_by) Replace(&item.expr, texts, names);
  }
  for (sql::OrderItem& item : outer.order_by) Replace(&item.expr, texts, names);
  outer.from = sql::TableRef();
  outer.from.kind = sql::TableRefKind::kNamed;
  outer.from.name = "__agg_groups";
  outer.from.pos = grouped.from.pos;
  ctes_.push_back(CteEntry{"__agg_groups", std::move(groups), "", /*keep_qualifiers=*/true});
  return true;
}

}  // namespace exec
}  // namespace laneql
