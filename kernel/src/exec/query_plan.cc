// Planning a SELECT into a logical tree (src/plan/logical_operator.h): its FROM clause as Gets
// and Joins, WHERE as a Filter above them, correlated subqueries unnested into joins
// (query_decorrelate.cc), and the SELECT's own clauses on top; then the optimizer's rules.
#include <memory>
#include <utility>

#include "src/common/ascii.h"
#include "src/common/query_budget.h"
#include "src/exec/file_tables.h"
#include "src/exec/decorrelate.h"
#include "src/exec/query_tree.h"
#include "src/exec/series_table.h"
#include "src/optimize/optimizer.h"
#include "src/sql/ast_clone.h"

namespace laneql {
namespace exec {
namespace {

using plan::LogicalKind;
using plan::LogicalPtr;

// More tables than this in one FROM clause are refused (the join rules keep a bit per table).
constexpr size_t kMaxJoinedTables = 63;

size_t CountTables(const sql::TableRef& ref) {
  if (ref.kind != sql::TableRefKind::kJoin) return 1;
  return CountTables(*ref.left) + CountTables(*ref.right);
}

}  // namespace

LogicalPtr GetOver(const Relation& relation, std::string source) {
  LogicalPtr get = plan::MakeLogical(LogicalKind::kGet);
  get->source = std::move(source);
  get->table = relation.table;
  get->scope = relation.scope;
  for (size_t i = 0; i < relation.scope.size(); ++i) get->columns.push_back(i);
  get->estimated_rows = static_cast<double>(relation.table->num_rows());
  return get;
}

LogicalPtr Clause(LogicalKind kind, LogicalPtr child) {
  LogicalPtr op = plan::MakeLogical(kind);
  op->select_clause = true;
  if (child) {
    op->scope = child->scope;
    op->children.push_back(std::move(child));
  }
  return op;
}

LogicalPtr OrderAndLimitClauses(LogicalPtr top, const std::vector<sql::OrderItem>& order_by, bool order_by_all,
                                bool has_limit, int64_t limit, bool has_offset, int64_t offset) {
  if (!order_by.empty()) {
    top = Clause(LogicalKind::kOrder, std::move(top));
    for (const sql::OrderItem& item : order_by) {
      if (!order_by_all) top->exprs.push_back(sql::Clone(*item.expr));
      top->detail += item.descending ? "D" : "A";
    }
    top->detail = order_by_all ? "ALL (" + top->detail + ")" : "(" + top->detail + ")";
  }
  if (has_limit || has_offset) {
    top = Clause(LogicalKind::kLimit, std::move(top));
    if (has_limit) top->detail = std::to_string(limit);
    if (has_offset) top->detail += " OFFSET " + std::to_string(offset);
  }
  return top;
}

void QueryTreeRunner::ExpandAllClauses(sql::SelectStatement* select) {
  if (select->group_by_all) {
    for (const sql::SelectItem& item : select->select_list) {
      if (item.expr->kind != sql::ExprKind::kStar && !ContainsAggregate(item.expr.get())) {
        select->group_by.push_back(sql::Clone(*item.expr));
      }
    }
    select->group_by_all = false;
  }
  if (select->order_by_all) {
    const sql::OrderItem how = std::move(select->order_by[0]);
    select->order_by.clear();
    for (size_t i = 0; i < select->select_list.size(); ++i) {
      sql::OrderItem item;
      item.expr = std::make_unique<sql::Expr>();
      item.expr->kind = sql::ExprKind::kIntegerLiteral;
      item.expr->text = std::to_string(i + 1);
      item.expr->pos = select->pos;
      item.descending = how.descending;
      item.nulls = how.nulls;
      select->order_by.push_back(std::move(item));
    }
    select->order_by_all = false;
  }
}

bool QueryTreeRunner::PlanFrom(const sql::TableRef& ref, LogicalPtr* out, Result* error) {
  if (ref.kind == sql::TableRefKind::kJoin) return PlanJoin(ref, out, error);
  const std::string qualifier = ref.alias.empty() ? ref.name : ref.alias;
  if (ref.kind == sql::TableRefKind::kNamed && FindCte(ref.name) == nullptr && ref.column_aliases.empty()) {
    ViewDef view;
    if (!catalog_->FindView(ref.name, &view)) {
      std::shared_ptr<const Table> table = catalog_->FindTable(ref.name);
      if (table == nullptr) {
        *error = ErrorAt(ref.pos, "binder", "table \"" + ref.name + "\" does not exist");
        return false;
      }
      *out = GetOver(RelationOverTable(std::move(table), qualifier), ref.alias.empty() ? ref.name : ref.name + " AS " + ref.alias);
      return true;
    }
  }
  // Everything else is made into a table now: CTEs, views, derived tables, files, VALUES.
  Relation relation;
  last_plan_text_.clear();
  if (!MakeFrom(ref, &relation, error)) return false;
  std::string subplan = std::move(last_plan_text_);
  last_plan_text_.clear();
  if (ref.kind == sql::TableRefKind::kNamed) {
    if (const CteEntry* cte = FindCteEntry(ref.name)) subplan = cte->plan_text;
  }
  std::string source;
  switch (ref.kind) {
    case sql::TableRefKind::kNamed: source = (FindCte(ref.name) ? "cte " : "view ") + ref.name; break;
    case sql::TableRefKind::kFile: source = "file '" + ref.path + "'"; break;
    case sql::TableRefKind::kFunction:
      if (IsSeriesFunction(ref)) {
        source = ref.function + "(";
        for (size_t i = 0; i < ref.values[0].size(); ++i) source += (i ? ", " : "") + sql::ToString(*ref.values[0][i]);
        source += ")";
      } else {
        source = ref.function + "('" + ref.path + "')";
      }
      break;
    case sql::TableRefKind::kSubquery: source = "subquery"; break;
    case sql::TableRefKind::kValues: source = "values"; break;
    case sql::TableRefKind::kJoin: break;
  }
  if (!ref.alias.empty()) source += " AS " + ref.alias;
  *out = GetOver(relation, std::move(source));
  (*out)->subplan = std::move(subplan);
  return true;
}

bool QueryTreeRunner::PlanJoin(const sql::TableRef& ref, LogicalPtr* out, Result* error) {
  LogicalPtr left, right;
  if (!PlanFrom(*ref.left, &left, error)) return false;
  if (!PlanFrom(*ref.right, &right, error)) {
    // A derived table that reads the items left of it, with or without LATERAL (as DuckDB).
    if (ref.right->kind != sql::TableRefKind::kSubquery || !LooksCorrelated(*error)) return false;
    return ApplyLateral(ref, std::move(left), out, error);
  }
  LogicalPtr join = plan::MakeLogical(LogicalKind::kJoin);
  join->join_type = ref.join_type;
  join->pos = ref.pos;
  std::vector<sql::ExprPtr> over_join;  // ON conditions whose subqueries read both sides
  std::vector<std::string> using_columns = ref.using_columns;
  if (ref.natural) {
    for (const plan::ScopeColumn& l : left->scope) {
      if (l.hidden) continue;
      for (const plan::ScopeColumn& r : right->scope) {
        if (!r.hidden && ascii::EqualsIgnoreCase(l.name, r.name)) using_columns.push_back(l.name);
      }
    }
  }
  if (ref.on) {
    // Equalities between a left-only and a right-only expression become hash keys.
    std::vector<sql::ExprPtr> conjuncts;
    SplitAnd(sql::Clone(*ref.on), &conjuncts);
    if (!PlanOnSubqueries(&left, &right, &conjuncts, &over_join, error)) return false;
    const std::vector<const plan::ColumnScope*> sides{&left->scope, &right->scope};
    for (sql::ExprPtr& c : conjuncts) {
      if (!c) continue;  // moved above the join
      bool u = false;
      if (c->kind == sql::ExprKind::kBinary && c->binary_op == sql::BinaryOp::kEquals) {
        const uint64_t l = plan::ReadsOf(c->left.get(), sides, &u), r = plan::ReadsOf(c->right.get(), sides, &u);
        if (!u && l == 1 && r == 2) {
          join->left_keys.push_back(std::move(c->left));
          join->right_keys.push_back(std::move(c->right));
          continue;
        }
        if (!u && l == 2 && r == 1) {
          join->left_keys.push_back(std::move(c->right));
          join->right_keys.push_back(std::move(c->left));
          continue;
        }
      }
      join->conditions.push_back(std::move(c));
    }
  }
  for (const std::string& name : using_columns) {
    auto key = [&](const plan::ColumnScope& side, const char* which) -> sql::ExprPtr {
      for (const plan::ScopeColumn& column : side) {
        if (!column.hidden && ascii::EqualsIgnoreCase(column.name, name)) {
          return MakeColumnRef(column.qualifier, column.name, ref.pos);
        }
      }
      *error = ErrorAt(ref.pos, "binder", "column \"" + name + "\" of USING is not in the " + which + " table");
      return nullptr;
    };
    sql::ExprPtr l = key(left->scope, "left"), r = key(right->scope, "right");
    if (!l || !r) return false;
    join->left_keys.push_back(std::move(l));
    join->right_keys.push_back(std::move(r));
  }
  const bool semi = ref.join_type == sql::JoinType::kSemi || ref.join_type == sql::JoinType::kAnti;
  if (!semi) join->using_columns = using_columns;
  join->scope = left->scope;
  if (!semi) {
    join->scope.insert(join->scope.end(), right->scope.begin(), right->scope.end());
    // USING / NATURAL: the right side's copies of the keys are found only when qualified.
    for (size_t c = left->scope.size(); c < join->scope.size(); ++c) {
      for (const std::string& name : using_columns) {
        if (ascii::EqualsIgnoreCase(join->scope[c].name, name)) join->scope[c].hidden = true;
      }
    }
  }
  join->children.push_back(std::move(left));
  join->children.push_back(std::move(right));
  *out = std::move(join);
  if (over_join.empty()) return true;
  // An inner join's ON is a condition on its rows like WHERE: unnested above it. Any other
  // join decides from the pairs that pass it which rows it keeps.
  if (ref.join_type == sql::JoinType::kInner || ref.join_type == sql::JoinType::kCross) {
    return ApplyCorrelated(out, std::move(over_join), error);
  }
  return JoinOnCorrelated(out, std::move(over_join), error);
}

namespace {

// Whether the joins unnesting made above `marker` (the side's stand-in) read only columns of
// their own inputs: an IN's operand may read the join's other side, which the side lacks.
bool ReadsOwnInputs(const plan::LogicalOperator& op, const plan::LogicalOperator* marker) {
  if (&op == marker || op.children.empty()) return true;
  if (op.children.size() == 2) {
    const std::vector<const plan::ColumnScope*> sides{&op.children[0]->scope, &op.children[1]->scope};
    bool unknown = false;
    for (const auto* exprs : {&op.left_keys, &op.right_keys, &op.conditions}) {
      for (const sql::ExprPtr& e : *exprs) plan::ReadsOf(e.get(), sides, &unknown);
    }
    if (unknown) return false;
  }
  return ReadsOwnInputs(*op.children[0], marker);
}

}  // namespace

bool QueryTreeRunner::PlanOnSubqueries(LogicalPtr* left, LogicalPtr* right,
                                       std::vector<sql::ExprPtr>* conjuncts, std::vector<sql::ExprPtr>* over_join,
                                       Result* error) {
  for (sql::ExprPtr& c : *conjuncts) {
    if (FindAnySubquery(c.get()) == nullptr) continue;
    sql::ExprPtr attempt = sql::Clone(*c);
    Result inline_error;
    if (InlineSubqueries(&attempt, &inline_error)) {  // not correlated: run once
      c = std::move(attempt);
      continue;
    }
    if (inline_error.error().find(kCorrelatedMarker) == std::string::npos) {
      *error = std::move(inline_error);
      return false;
    }
    // Correlated with one side: unnested into that side, the condition then reads its columns.
    // Tried over a stand-in with the side's columns, so that a failed try leaves the side as it
    // was; on success the side takes the stand-in's place under the joins made above it.
    bool done = false;
    for (LogicalPtr* side : {right, left}) {
      LogicalPtr stand_in = plan::MakeLogical(LogicalKind::kGet);
      stand_in->scope = (*side)->scope;
      const plan::LogicalOperator* marker = stand_in.get();
      sql::ExprPtr unnested = sql::Clone(*c);
      Result side_error;
      if (!DecorrelateExpr(&stand_in, &unnested, &side_error) || !ReadsOwnInputs(*stand_in, marker)) continue;
      LogicalPtr* slot = &stand_in;
      while (slot->get() != marker) slot = &(*slot)->children[0];  // the joins keep it on their left
      *slot = std::move(*side);
      *side = std::move(stand_in);
      c = std::move(unnested);
      done = true;
      break;
    }
    if (done) continue;
    // Both sides, or a shape that runs per binding (which needs rows, not a stand-in): over the
    // joined pairs (PlanJoin).
    over_join->push_back(std::move(c));
  }
  return true;
}

bool QueryTreeRunner::PlanSelect(const sql::SelectStatement& select, SelectPlan* out, Result* error) {
  out->plain = IsPlainSelect(select);
  sql::SelectStatement& clauses = out->clauses;
  sql::CloneInto(select, &clauses);
  // An aggregation over a derived table that projects a join: the join's own aggregation.
  optimize::MergeDerivedTable(&clauses);
  std::vector<sql::ExprPtr> correlated;
  std::vector<size_t> correlated_items, correlated_order;
  if (!out->plain && !InlineSubqueries(&clauses, &correlated, &correlated_items, error, &correlated_order)) {
    return false;
  }
  ExpandAllClauses(&clauses);
  LogicalPtr from;
  if (clauses.has_from) {
    if (CountTables(clauses.from) > kMaxJoinedTables) {
      *error = ErrorAt(clauses.from.pos, "binder", "more than 63 tables joined in one FROM clause");
      return false;
    }
    if (out->plain && clauses.from.kind != sql::TableRefKind::kNamed) {
      // The plan of a plain query over a file is only shown (EXPLAIN); the file is read for it.
      std::shared_ptr<const Table> table;
      plan::BindError bind_error;
      const ScopedQueryBudget outside_the_budget(nullptr);
      if (!LoadFileTable(clauses.from, ctx_.threads, &table, &bind_error)) {
        *error = Result::Error(bind_error.message, bind_error.line, bind_error.column);
        return false;
      }
      const std::string& from_name = clauses.from.alias.empty() ? clauses.from.name : clauses.from.alias;
      from = GetOver(RelationOverTable(std::move(table), from_name), "file '" + clauses.from.path + "'");
    } else if (!PlanFrom(clauses.from, &from, error)) {
      return false;
    }
    if (clauses.where) {
      std::vector<sql::ExprPtr> where;
      SplitAnd(std::move(clauses.where), &where);
      plan::FilterAbove(&from, std::move(where));
    }
    if (!correlated.empty() && !ApplyCorrelated(&from, std::move(correlated), error)) return false;
    for (size_t i : correlated_items) {
      if (plan::Aggregates(clauses)) {
        // It would read the groups, not the rows: unnesting it needs a join above the aggregate.
        const sql::Expr* sub = FindAnySubquery(clauses.select_list[i].expr.get());
        *error = ErrorAt(sub != nullptr ? sub->pos : clauses.pos, "binder",
                         "a correlated subquery in the SELECT list of a query with GROUP BY or aggregates "
                         "is not supported yet");
        return false;
      }
      sql::SelectItem& item = clauses.select_list[i];
      if (item.alias.empty()) item.alias = plan::DefaultOutputName(*item.expr);  // the name it had
      if (!DecorrelateExpr(&from, &item.expr, error)) return false;
    }
    for (size_t i : correlated_order) {
      if (!DecorrelateExpr(&from, &clauses.order_by[i].expr, error)) return false;
    }
  }
  // The SELECT's own clauses, bottom up.
  LogicalPtr top = std::move(from);
  if (plan::Aggregates(clauses)) {
    top = Clause(LogicalKind::kAggregate, std::move(top));
    for (const sql::ExprPtr& key : clauses.group_by) top->exprs.push_back(sql::Clone(*key));
    if (clauses.having) {
      top = Clause(LogicalKind::kFilter, std::move(top));
      top->conditions.push_back(sql::Clone(*clauses.having));
    }
  }
  top = Clause(LogicalKind::kProject, std::move(top));
  for (const sql::SelectItem& item : clauses.select_list) top->exprs.push_back(sql::Clone(*item.expr));
  if (clauses.distinct) {
    top = Clause(LogicalKind::kDistinct, std::move(top));
    if (!clauses.distinct_on.empty()) {
      top->detail = "ON (";
      for (size_t i = 0; i < clauses.distinct_on.size(); ++i) {
        top->detail += (i > 0 ? ", " : "") + sql::ToString(*clauses.distinct_on[i]);
      }
      top->detail += ")";
    }
  }
  top = OrderAndLimitClauses(std::move(top), clauses.order_by, false, clauses.has_limit, clauses.limit,
                             clauses.has_offset, clauses.offset);
  out->root = std::move(top);
  optimize::Optimize(&out->root);
  return true;
}

}  // namespace exec
}  // namespace laneql
