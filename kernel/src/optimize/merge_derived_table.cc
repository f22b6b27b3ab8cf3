// An aggregation over a derived table that only projects and filters a join, such as TPC-H Q7,
// Q8 and Q9's
//   SELECT nation, o_year, sum(amount) FROM (SELECT n_name AS nation, ... AS amount
//   FROM part, supplier, lineitem, ... WHERE ...) AS profit GROUP BY nation, o_year
// becomes the aggregation of the join itself: the derived table's columns replaced by the
// expressions that make them, its WHERE joined to the outer one. The derived table was made
// whole (every column of every joined row) before the aggregation read it; now the join's
// pipeline folds its rows into the aggregation as they are joined (exec/join_aggregate_sink.h).
//
// Only where the answer cannot change: the derived table is the outer FROM's one item, a plain
// SELECT over a join (no aggregate, DISTINCT, window, ORDER BY, LIMIT, WITH, LATERAL, * or
// subquery in its list); the outer SELECT aggregates, has no subquery or window, and every
// column it names is a derived column (an outer alias or a name the join's tables would now
// capture keeps the query as it is). Each outer item keeps its output name.
#include <string>
#include <utility>
#include <vector>

#include "src/common/ascii.h"
#include "src/optimize/optimizer.h"
#include "src/plan/binder.h"
#include "src/plan/query_ast.h"
#include "src/sql/ast_clone.h"
#include "src/sql/ast_walk.h"

namespace laneql {
namespace optimize {
namespace {

// The derived table's query, when it is one that can merge: a plain SELECT over a join.
const sql::SelectStatement* MergeableInner(const sql::TableRef& from) {
  if (from.kind != sql::TableRefKind::kSubquery || from.lateral || from.subquery == nullptr) return nullptr;
  const sql::QueryNode& node = *from.subquery;
  if (node.kind != sql::QueryKind::kSelect || !node.ctes.empty() || !node.order_by.empty() || node.has_limit ||
      node.has_offset) {
    return nullptr;
  }
  const sql::SelectStatement& inner = node.select;
  if (!inner.has_from || inner.from.kind != sql::TableRefKind::kJoin || inner.distinct || !inner.distinct_on.empty() ||
      !inner.group_by.empty() || inner.group_by_all || inner.having || !inner.windows.empty() || inner.qualify ||
      !inner.order_by.empty() || inner.order_by_all || inner.has_limit || inner.has_offset || plan::Aggregates(inner)) {
    return nullptr;
  }
  for (const sql::SelectItem& item : inner.select_list) {
    if (item.expr->kind == sql::ExprKind::kStar || plan::FindAnySubquery(item.expr.get()) != nullptr) return nullptr;
    bool window = false;
    sql::ExprPtr copy = sql::Clone(*item.expr);
    sql::WalkExprs(&copy, [&](sql::ExprPtr* slot) { window |= (*slot)->kind == sql::ExprKind::kWindowCall; });
    if (window) return nullptr;
  }
  return &inner;
}

// Every expression slot of the outer clauses the rule rewrites.
template <class Visit>
void ForEachClause(sql::SelectStatement* select, const Visit& visit) {
  for (sql::SelectItem& item : select->select_list) visit(&item.expr);
  if (select->where) visit(&select->where);
  for (sql::ExprPtr& key : select->group_by) visit(&key);
  if (select->having) visit(&select->having);
  for (sql::OrderItem& item : select->order_by) {
    if (item.expr) visit(&item.expr);  // ORDER BY ALL's item has none
  }
}

}  // namespace

bool MergeDerivedTable(sql::SelectStatement* select) {
  if (!select->has_from || !plan::Aggregates(*select) || !select->distinct_on.empty() || !select->windows.empty() ||
      select->qualify) {
    return false;
  }
  const sql::SelectStatement* inner = MergeableInner(select->from);
  if (inner == nullptr) return false;
  // The derived table's column names (its column list first), each once.
  std::vector<std::string> names;
  for (size_t i = 0; i < inner->select_list.size(); ++i) {
    const sql::SelectItem& item = inner->select_list[i];
    names.push_back(i < select->from.column_aliases.size() ? select->from.column_aliases[i]
                    : !item.alias.empty()                  ? item.alias
                                                           : plan::DefaultOutputName(*item.expr));
  }
  for (size_t i = 0; i < names.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (ascii::EqualsIgnoreCase(names[i], names[j])) return false;
    }
  }
  auto derived_column = [&](const sql::Expr& ref) -> int {
    if (ref.kind != sql::ExprKind::kColumnRef) return -1;
    if (!ref.qualifier.empty() && !ascii::EqualsIgnoreCase(ref.qualifier, select->from.alias)) return -1;
    for (size_t i = 0; i < names.size(); ++i) {
      if (ascii::EqualsIgnoreCase(names[i], ref.text)) return static_cast<int>(i);
    }
    return -1;
  };
  // An outer alias that is also a derived column's name would read differently once the
  // columns are expressions (ORDER BY b: the alias), unless its item is that column.
  for (const sql::SelectItem& item : select->select_list) {
    if (item.alias.empty()) continue;
    for (const std::string& name : names) {
      if (ascii::EqualsIgnoreCase(item.alias, name) &&
          !(derived_column(*item.expr) >= 0 && ascii::EqualsIgnoreCase(item.expr->text, name))) {
        return false;
      }
    }
  }
  // Every column the outer clauses name is a derived column; nothing else is read (no
  // subquery, no star but count(*)'s).
  bool mergeable = true;
  ForEachClause(select, [&](sql::ExprPtr* slot) {
    if (plan::FindAnySubquery(slot->get()) != nullptr) mergeable = false;
    sql::WalkExprs(slot, [&](sql::ExprPtr* e) {
      const sql::Expr& expr = **e;
      if (expr.kind == sql::ExprKind::kStar || expr.kind == sql::ExprKind::kWindowCall) mergeable = false;
      if (expr.kind == sql::ExprKind::kColumnRef && derived_column(expr) < 0) mergeable = false;
    });
  });
  if (!mergeable) return false;
  // Each outer item keeps the name it had.
  for (sql::SelectItem& item : select->select_list) {
    if (item.alias.empty()) item.alias = plan::DefaultOutputName(*item.expr);
  }
  // The references found first, then replaced: a replacement may itself name a column of the
  // derived table's name (SELECT l_quantity FROM ...), which must not be replaced again.
  std::vector<std::pair<sql::ExprPtr*, int>> refs;
  ForEachClause(select, [&](sql::ExprPtr* slot) {
    sql::WalkExprs(slot, [&](sql::ExprPtr* e) {
      const int c = derived_column(**e);
      if (c >= 0) refs.emplace_back(e, c);
    });
  });
  for (const auto& [slot, c] : refs) *slot = sql::Clone(*inner->select_list[static_cast<size_t>(c)].expr);
  // The join and its WHERE replace the derived table; the outer WHERE joins it.
  sql::SelectStatement merged_inner;
  sql::CloneInto(*inner, &merged_inner);
  std::vector<sql::ExprPtr> where;
  if (merged_inner.where) where.push_back(std::move(merged_inner.where));
  if (select->where) where.push_back(std::move(select->where));
  select->where = plan::JoinAnd(std::move(where));
  select->from = std::move(merged_inner.from);
  return true;
}

}  // namespace optimize
}  // namespace laneql
