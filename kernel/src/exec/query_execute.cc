// Running a logical plan: each operator of the FROM tree makes a relation from its children's
// (a Get shares its table's kept columns and filters them; a Join hashes the right side's
// keys and probes with the left's), and the SELECT's clauses run together on the single-table
// engine over the result, with the conditions directly below them (WHERE, and a lone scan's
// filters) evaluated in that engine's scan. EXPLAIN prints the plan; EXPLAIN ANALYZE runs it
// and adds the rows and time of every operator.
#include <algorithm>
#include <chrono>
#include <utility>

#include "src/common/ascii.h"
#include "src/exec/profile.h"
#include "src/exec/query_tree.h"
#include "src/sql/ast_clone.h"
#include "src/sql/ast_walk.h"

namespace laneql {
namespace exec {
namespace {

using plan::LogicalKind;
using plan::LogicalOperator;

sql::ExprPtr ConditionOf(const std::vector<sql::ExprPtr>& conditions) {
  std::vector<sql::ExprPtr> copies;
  for (const sql::ExprPtr& c : conditions) copies.push_back(sql::Clone(*c));
  return JoinAnd(std::move(copies));
}

// The lowest of the SELECT clause operators at the top of the plan.
LogicalOperator* LowestClause(LogicalOperator* root) {
  LogicalOperator* op = root;
  while (!op->children.empty() && op->children[0]->select_clause) op = op->children[0].get();
  return op;
}

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

bool QueryTreeRunner::ExecuteGet(LogicalOperator* op, bool with_conditions, Relation* out, Result* error) {
  Relation whole{op->table, {}};
  // The full scope: op->scope holds only the kept columns, in op->columns order, and
  // op->filter_scope those its conditions alone read.
  whole.scope.resize(op->table->num_columns());
  std::vector<size_t> read = op->columns;
  read.insert(read.end(), op->filter_columns.begin(), op->filter_columns.end());
  for (size_t k = 0; k < op->columns.size(); ++k) whole.scope[op->columns[k]] = op->scope[k];
  for (size_t k = 0; k < op->filter_columns.size(); ++k) whole.scope[op->filter_columns[k]] = op->filter_scope[k];
  bool identity = read.size() == op->table->num_columns();
  for (size_t k = 0; identity && k < read.size(); ++k) identity = read[k] == k;
  std::string message;
  if (dry_run_) {
    // EXPLAIN without ANALYZE: the plan runs on no rows, which binds and checks all of it.
    auto table = std::make_shared<Table>();
    for (size_t k = 0; k < read.size(); ++k) {
      Column column;
      if (!TakeRows(op->table->column(read[k]), {}, &column, &message) ||
          !table->AddColumn(RelationColumnName(k), std::move(column), &message)) {
        *error = Result::Error(message);
        return false;
      }
      out->scope.push_back(whole.scope[read[k]]);
    }
    out->table = std::move(table);
  } else if (identity) {
    *out = std::move(whole);
  } else if (!ShareColumns(whole, read, out, &message)) {
    *error = Result::Error(message);
    return false;
  }
  // Without its conditions: the columns they read stay, for the caller's filter.
  if (!with_conditions) return true;
  std::vector<uint32_t> rows;
  const bool filtered = !op->conditions.empty();
  if (filtered && !FilterRows(*out, *ConditionOf(op->conditions), &rows, error)) return false;
  if (!op->filter_columns.empty()) {
    std::vector<size_t> kept(op->columns.size());
    for (size_t k = 0; k < kept.size(); ++k) kept[k] = k;
    Relation all = std::move(*out);
    if (!ShareColumns(all, kept, out, &message)) {
      *error = Result::Error(message);
      return false;
    }
  }
  if (filtered && rows.size() != out->table->num_rows() && !KeepRelationRows(out, rows, &message, &ctx_)) {
    *error = Result::Error(message);
    return false;
  }
  return true;
}

bool QueryTreeRunner::MergeUsingKeys(const LogicalOperator& op, Relation* out, Result* error) {
  const size_t left_size = op.children[0]->scope.size();
  for (const std::string& name : op.using_columns) {
    size_t l = out->scope.size(), r = out->scope.size();
    for (size_t c = 0; c < out->scope.size(); ++c) {
      if (!ascii::EqualsIgnoreCase(out->scope[c].name, name)) continue;
      if (c < left_size && !out->scope[c].hidden && l == out->scope.size()) l = c;
      if (c >= left_size && r == out->scope.size()) r = c;
    }
    if (l == out->scope.size() || r == out->scope.size()) continue;  // pruned: nothing reads it
    // COALESCE(left key, right key) in their common type, at the left key's place; a RIGHT
    // join's is the right key itself, in its type (where the left matched, they are equal).
    const TypeId type = op.join_type == sql::JoinType::kRight
                            ? out->table->column(r).type()
                            : CommonSuperType(out->table->column(l).type(), out->table->column(r).type());
    Relation keys;
    std::string message;
    if (!ShareColumns(*out, {l, r}, &keys, &message)) {
      *error = Result::Error(message);
      return false;
    }
    if (!CastColumns(&keys, {type, type}, error, op.pos)) return false;
    const Column& left_key = keys.table->column(0);
    const size_t rows = left_key.length();
    Column both;
    std::vector<uint32_t> pick(rows);
    for (size_t i = 0; i < rows; ++i) pick[i] = static_cast<uint32_t>(left_key.IsValid(i) ? i : rows + i);
    Column merged;
    if (!CopyColumn(left_key, &both, &message) || !AppendColumn(keys.table->column(1), &both, &message) ||
        !TakeRows(both, pick, &merged, &message)) {
      *error = Result::Error(message);
      return false;
    }
    auto table = std::make_shared<Table>();
    const std::shared_ptr<const void> owner = out->table;
    for (size_t c = 0; c < out->scope.size(); ++c) {
      Column column;
      if (c == l) {
        column = std::move(merged);
      } else if (!ShareColumn(out->table->column(c), owner, &column, &message)) {
        *error = Result::Error(message);
        return false;
      }
      if (!table->AddColumn(RelationColumnName(c), std::move(column), &message)) {
        *error = Result::Error(message);
        return false;
      }
    }
    out->table = std::move(table);
  }
  return true;
}

bool QueryTreeRunner::ExecuteLogical(LogicalOperator* op, bool analyze, Relation* out, Result* error) {
  if (ctx_.Interrupted()) {
    *error = Result::Error(ctx_.StopMessage());
    return false;
  }
  const auto start = std::chrono::steady_clock::now();
  // The --profile trace shows each operator (its children's spans nested inside it).
  ScopedSpan span(ctx_.profiler, 0, plan::LogicalKindName(op->kind), "operator");
  bool ok = false;
  switch (op->kind) {
    case LogicalKind::kGet:
      ok = ExecuteGet(op, true, out, error);
      break;
    case LogicalKind::kFilter:
      if (FilterJoinsChain(*op)) {
        ok = ExecuteJoinChain(op->children[0].get(), analyze, out, error, op);
        break;
      }
      ok = ExecuteLogical(op->children[0].get(), analyze, out, error) &&
           Filter(out, *ConditionOf(op->conditions), error);
      break;
    case LogicalKind::kJoin: {
      const sql::JoinType type = op->join_type;
      if ((type == sql::JoinType::kInner || type == sql::JoinType::kLeft || type == sql::JoinType::kRight ||
           type == sql::JoinType::kFull) &&
          !op->left_keys.empty()) {
        ok = ExecuteJoinChain(op, analyze, out, error);
        // RIGHT / FULL JOIN ... USING: the visible key is the right one where the left has none.
        if (ok && !op->using_columns.empty() &&
            (op->join_type == sql::JoinType::kRight || op->join_type == sql::JoinType::kFull)) {
          ok = MergeUsingKeys(*op, out, error);
        }
        break;
      }
      if ((op->join_type == sql::JoinType::kSemi || op->join_type == sql::JoinType::kAnti ||
           op->join_type == sql::JoinType::kMark) &&
          !op->left_keys.empty()) {
        ok = ExecuteMarkJoin(op, analyze, out, error);
        if (ok && out->scope.size() == op->scope.size()) out->scope = op->scope;  // the mark's name
        break;
      }
      Relation left, right;
      if (!ExecuteLogical(op->children[0].get(), analyze, &left, error) ||
          !ExecuteLogical(op->children[1].get(), analyze, &right, error)) {
        return false;
      }
      std::vector<const sql::Expr*> left_keys, right_keys;
      for (const sql::ExprPtr& k : op->left_keys) left_keys.push_back(k.get());
      for (const sql::ExprPtr& k : op->right_keys) right_keys.push_back(k.get());
      const sql::ExprPtr residual = ConditionOf(op->conditions);
      ok = JoinRelations(left, right, left_keys, right_keys, residual.get(), op->join_type, op->pos, out, error);
      // The plan's scope carries what the join adds to the names (USING keys hidden).
      if (ok && out->scope.size() == op->scope.size()) out->scope = op->scope;
      // RIGHT / FULL JOIN ... USING: the visible key is the right one where the left has none.
      if (ok && !op->using_columns.empty() &&
          (op->join_type == sql::JoinType::kRight || op->join_type == sql::JoinType::kFull)) {
        ok = MergeUsingKeys(*op, out, error);
      }
      break;
    }
    case LogicalKind::kProject: {
      // Columns put back in the FROM clause's order after join ordering: each column of the
      // plan's scope is the first unused one of the child's with the same qualifier and name.
      Relation child;
      if (!ExecuteLogical(op->children[0].get(), analyze, &child, error)) return false;
      std::vector<bool> used(child.scope.size(), false);
      std::vector<size_t> order;
      for (const plan::ScopeColumn& want : op->scope) {
        for (size_t c = 0; c < child.scope.size(); ++c) {
          if (!used[c] && child.scope[c].qualifier == want.qualifier && child.scope[c].name == want.name) {
            used[c] = true;
            order.push_back(c);
            break;
          }
        }
      }
      std::string message;
      if (order.size() != child.scope.size()) {
        *out = std::move(child);  // cannot happen: the same columns below; keep the join's order
        ok = true;
      } else if (!(ok = ShareColumns(child, order, out, &message))) {
        *error = Result::Error(message);
      } else {
        out->scope = op->scope;
      }
      break;
    }
    case LogicalKind::kSetOperation:
      ok = ExecuteSetOperation(op, analyze, out, error);
      break;
    default:
      *error = Result::Error(std::string("internal error: a ") + plan::LogicalKindName(op->kind) +
                             " operator below the SELECT's clauses");
      return false;
  }
  if (ok && analyze) {
    op->analyzed = true;
    op->actual_rows = op == sunk_op_ ? sunk_rows_ : out->table->num_rows();
    op->seconds = SecondsSince(start);
  }
  return ok;
}

namespace {

// Which columns of `scope` the clauses name: a column reference marks every column of its name
// (and qualifier, when it has one); a * marks them all. Subqueries in the clauses are walked too,
// so a name of theirs marks a column of the same name here (more than needed, never less).
std::vector<uint8_t> ColumnsNamed(const sql::SelectStatement& clauses, const plan::ColumnScope& scope) {
  sql::QueryNode node;
  sql::CloneInto(clauses, &node.select);
  node.select.from = sql::TableRef();  // what the plan below made of it (its ON keys among it)
  node.select.has_from = false;
  std::vector<uint8_t> named(scope.size(), 0);
  sql::WalkExprs(&node, [&](sql::ExprPtr* slot) {
    const sql::Expr& e = **slot;
    if (e.kind == sql::ExprKind::kStar) {
      std::fill(named.begin(), named.end(), 1);
      return;
    }
    if (e.kind != sql::ExprKind::kColumnRef) return;
    for (size_t c = 0; c < scope.size(); ++c) {
      if (!ascii::EqualsIgnoreCase(scope[c].name, e.text)) continue;
      if (!e.qualifier.empty() && !ascii::EqualsIgnoreCase(scope[c].qualifier, e.qualifier)) continue;
      named[c] = 1;
    }
  });
  return named;
}

}  // namespace

Result QueryTreeRunner::RunPlan(SelectPlan* select_plan, bool analyze) {
  const auto start = std::chrono::steady_clock::now();
  LogicalOperator* lowest = LowestClause(select_plan->root.get());
  sql::SelectStatement clauses;
  sql::CloneInto(select_plan->clauses, &clauses);
  Result result;
  if (lowest->children.empty()) {
    result = BindAndExecute(clauses, nullptr);
  } else {
    // The conditions right below the clauses run in the single-table engine's own scan.
    LogicalOperator* from = lowest->children[0].get();
    bool get_conditions_in_scan = false;
    if (from->kind == LogicalKind::kFilter) {
      clauses.where = ConditionOf(from->conditions);
      from = from->children[0].get();
    }
    if (from->kind == LogicalKind::kGet && !from->conditions.empty()) {
      std::vector<sql::ExprPtr> all;
      if (clauses.where) all.push_back(std::move(clauses.where));
      all.push_back(ConditionOf(from->conditions));
      clauses.where = JoinAnd(std::move(all));
      get_conditions_in_scan = true;
    }
    Relation relation;
    AggregateSinkOffer offer;
    TopRowsOffer top_rows;
    if (!get_conditions_in_scan && from->kind == LogicalKind::kJoin) {
      // A join chain gathers only the columns the clauses name (its join keys often are not),
      // or folds its rows into their aggregation as they are joined, or under ORDER BY ...
      // LIMIT gathers what the SELECT list alone reads for the rows kept only.
      read_by_clauses_op_ = from;
      read_by_clauses_ = ColumnsNamed(clauses, from->scope);
      if (!dry_run_ && OffersAggregateSink(clauses, *from)) {
        offer.clauses = &clauses;
        aggregate_sink_offer_ = &offer;
      } else if (!dry_run_ && OffersTopRows(clauses, *from, &top_rows)) {
        top_rows.named = ColumnsNamed(top_rows.first_pass, from->scope);
        top_rows_offer_ = &top_rows;
      }
    }
    const bool made = get_conditions_in_scan ? ExecuteGet(from, false, &relation, &result)
                                             : ExecuteLogical(from, analyze, &relation, &result);
    read_by_clauses_op_ = nullptr;
    aggregate_sink_offer_ = nullptr;
    top_rows_offer_ = nullptr;
    sunk_op_ = nullptr;  // read by ExecuteLogical above; a later plan may reuse its address
    if (!made) return result;
    if (offer.taken) {
      result = std::move(offer.result);
    } else {
      ScopedSpan span(ctx_.profiler, 0, "SELECT clauses", "operator");
      result = BindAndExecute(clauses, &relation);
    }
  }
  if (result.ok() && analyze) {
    LogicalOperator* root = select_plan->root.get();
    root->analyzed = true;
    root->actual_rows = result.num_rows();
    root->seconds = SecondsSince(start);
  }
  return result;
}

bool QueryTreeRunner::ExplainQuery(const sql::QueryNode& query, bool analyze, std::string* text, Result* error) {
  // RunSelect keeps each plan's text (and runs it, with ANALYZE) while explaining_ is set, so
  // the tables made while planning (CTEs included) show how they were made.
  const bool was_explaining = explaining_, was_analyzing = explain_analyze_;
  explaining_ = true;
  explain_analyze_ = analyze;
  const bool ok = ExplainParts(query, analyze, text, error);
  explaining_ = was_explaining;
  explain_analyze_ = was_analyzing;
  last_plan_text_.clear();
  return ok;
}

bool QueryTreeRunner::ExplainParts(const sql::QueryNode& query, bool analyze, std::string* text, Result* error) {
  if (!PushCtes(query, error)) return false;
  bool ok = true;
  switch (query.kind) {
    case sql::QueryKind::kSelect: {
      last_plan_text_.clear();
      if (analyze || HasWindows(query.select)) {
        // Windows are evaluated while planning the rest (query_windows.cc): without ANALYZE over
        // no rows, as the plan is checked.
        const bool was_dry = dry_run_;
        dry_run_ = dry_run_ || !analyze;
        Result answer = RunSelect(query.select);
        dry_run_ = was_dry;
        if (!answer.ok()) {
          *error = std::move(answer);
          ok = false;
        } else if (last_plan_text_.empty() || !query.select.distinct_on.empty()) {
          // DISTINCT ON runs by its own path (a query beneath, then the first row of each key):
          // its plan, without measurements.
          SelectPlan select_plan;
          ok = PlanSelect(query.select, &select_plan, error);
          if (ok) last_plan_text_ = plan::ExplainText(*select_plan.root);
        }
      } else {
        SelectPlan select_plan;
        ok = PlanSelect(query.select, &select_plan, error);
        if (ok) {
          dry_run_ = true;
          Result check = RunPlan(&select_plan, false);
          dry_run_ = false;
          if (!check.ok()) {
            *error = std::move(check);
            ok = false;
          }
        }
        if (ok) last_plan_text_ = plan::ExplainText(*select_plan.root);
      }
      if (ok) *text += last_plan_text_;
      last_plan_text_.clear();
      break;
    }
    case sql::QueryKind::kSetOperation: {
      // Run (its SELECT branches are made while planning, as derived tables are): its plan.
      last_plan_text_.clear();
      Result answer = RunSetOperation(query);
      if (!answer.ok()) {
        *error = std::move(answer);
        ok = false;
      } else {
        *text += last_plan_text_;
      }
      last_plan_text_.clear();
      break;
    }
    case sql::QueryKind::kValues:
      *text += "VALUES " + std::to_string(query.values.size()) + " rows\n";
      break;
  }
  PopCtes();
  return ok;
}

}  // namespace exec
}  // namespace laneql
