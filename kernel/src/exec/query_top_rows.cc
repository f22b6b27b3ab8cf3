// ORDER BY ... LIMIT over a join chain, materialized late: the chain gathers the columns its
// WHERE and ORDER BY keys read (and the rows' positions) for every joined row, a first pass
// keeps the LIMIT's rows in order, and only then are the columns the SELECT list reads gathered,
// for those rows alone; the SELECT's clauses then run over them as over the whole output (the
// same rows in the same order: the first pass breaks ties by position, as the clauses do). A
// top 10 of lineitem JOIN orders with every column had gathered all 25 columns of 6 M rows.
#include <string>
#include <utility>
#include <vector>

#include "src/common/ascii.h"
#include "src/common/query_budget.h"
#include "src/exec/chain_input.h"
#include "src/exec/executor.h"
#include "src/exec/gather_on_threads.h"
#include "src/exec/profile.h"
#include "src/exec/query_tree.h"
#include "src/optimize/optimizer.h"
#include "src/plan/binder.h"
#include "src/plan/query_ast.h"
#include "src/sql/ast_clone.h"

namespace laneql {
namespace exec {

using plan::LogicalOperator;

namespace {

// The row positions' column: a name no table's column takes by chance.
constexpr const char* kPositionColumn = "__laneql_row_position";
// At most this many rows kept: past it, the second gather is no longer small.
constexpr int64_t kMaxTopRows = int64_t{1} << 20;

bool NamesScopeColumn(const plan::ColumnScope& scope, const std::string& name) {
  for (const plan::ScopeColumn& column : scope) {
    if (!column.hidden && ascii::EqualsIgnoreCase(column.name, name)) return true;
  }
  return false;
}

}  // namespace

bool QueryTreeRunner::OffersTopRows(const sql::SelectStatement& clauses, const LogicalOperator& from,
                                    TopRowsOffer* offer) {
  if (!ChainEndsAt(from) || plan::Aggregates(clauses) || clauses.distinct || !clauses.distinct_on.empty() ||
      !clauses.windows.empty() || clauses.qualify || clauses.order_by.empty() || clauses.order_by_all ||
      !clauses.has_limit || clauses.limit < 0) {
    return false;
  }
  const int64_t keep = clauses.limit + (clauses.has_offset ? clauses.offset : 0);
  if (keep > kMaxTopRows || keep < clauses.limit) return false;
  bool star = false;
  for (const sql::SelectItem& item : clauses.select_list) {
    if (plan::FindAnySubquery(item.expr.get()) != nullptr) return false;
    star |= item.expr->kind == sql::ExprKind::kStar;
  }
  if (clauses.where && plan::FindAnySubquery(clauses.where.get()) != nullptr) return false;
  sql::SelectStatement& pass = offer->first_pass;
  pass = sql::SelectStatement();
  pass.pos = clauses.pos;
  pass.has_from = true;
  // The ORDER BY keys as expressions over the chain's columns: a position or an alias is the
  // SELECT item it names (where a column of that name would compete, the offer is not made).
  for (const sql::OrderItem& item : clauses.order_by) {
    if (item.expr == nullptr || plan::FindAnySubquery(item.expr.get()) != nullptr) return false;
    sql::OrderItem resolved;
    resolved.descending = item.descending;
    resolved.nulls = item.nulls;
    const sql::Expr& key = *item.expr;
    if (key.kind == sql::ExprKind::kIntegerLiteral) {
      if (star || key.text.empty() || key.text.size() > 9 || key.text[0] == '-') return false;
      const size_t index = static_cast<size_t>(std::stoll(key.text));
      if (index < 1 || index > clauses.select_list.size()) return false;
      resolved.expr = sql::Clone(*clauses.select_list[index - 1].expr);
    } else if (key.kind == sql::ExprKind::kColumnRef && key.qualifier.empty()) {
      const sql::SelectItem* aliased = nullptr;
      for (const sql::SelectItem& select_item : clauses.select_list) {
        if (!select_item.alias.empty() && ascii::EqualsIgnoreCase(select_item.alias, key.text)) {
          if (aliased != nullptr) return false;
          aliased = &select_item;
        }
      }
      if (aliased != nullptr) {
        const bool same = aliased->expr->kind == sql::ExprKind::kColumnRef &&
                          ascii::EqualsIgnoreCase(aliased->expr->text, key.text);
        if (!same && NamesScopeColumn(from.scope, key.text)) return false;
        resolved.expr = sql::Clone(*aliased->expr);
      } else {
        resolved.expr = sql::Clone(key);
      }
    } else {
      resolved.expr = sql::Clone(key);
    }
    pass.order_by.push_back(std::move(resolved));
  }
  sql::SelectItem position;
  position.expr = plan::MakeColumnRef("", kPositionColumn, clauses.pos);
  pass.select_list.push_back(std::move(position));
  if (clauses.where) pass.where = sql::Clone(*clauses.where);
  pass.has_limit = true;
  pass.limit = keep;
  pass.limit_pos = clauses.limit_pos;
  offer->keep = keep;
  return true;
}

bool QueryTreeRunner::ChooseTopRows(const TopRowsOffer& offer, const std::vector<ChainInput>& inputs,
                                    const plan::ColumnScope& scope, const std::vector<std::vector<uint32_t>>& physical,
                                    size_t rows, std::vector<uint32_t>* chosen, bool* cut, Result* error) {
  *cut = false;
  std::string message;
  // The first pass's columns, then the positions.
  std::vector<GatherJob> jobs;
  plan::ColumnScope first_scope;
  for (size_t t = 0, k = 0; t < inputs.size(); ++t) {
    for (size_t c = 0; c < inputs[t].relation.table->num_columns(); ++c, ++k) {
      if (k >= offer.named.size() || !offer.named[k]) continue;
      jobs.push_back(GatherJob{&inputs[t].relation.table->column(c), &physical[t]});
      first_scope.push_back(scope[k]);
    }
  }
  std::vector<Column> gathered;
  ExecContext gather_ctx = ctx_;
  if (rows < ctx_.min_parallel_rows) gather_ctx.threads = 1;
  if (!GatherColumnsOnThreads(gather_ctx, jobs, &gathered, &message)) {
    *error = Result::Error(message);
    return false;
  }
  Column positions;
  {
    std::vector<int64_t> values(rows);
    for (size_t r = 0; r < rows; ++r) values[r] = static_cast<int64_t>(r);
    if (!Column::FromFixed(TypeId::kInt64, values.data(), rows, nullptr, &positions, &message)) {
      *error = Result::Error(message);
      return false;
    }
  }
  auto table = std::make_shared<Table>();
  for (size_t k = 0; k < gathered.size(); ++k) {
    if (!table->AddColumn(RelationColumnName(k), std::move(gathered[k]), &message)) {
      *error = Result::Error(message);
      return false;
    }
  }
  if (!table->AddColumn(RelationColumnName(first_scope.size()), std::move(positions), &message)) {
    *error = Result::Error(message);
    return false;
  }
  first_scope.push_back(plan::ScopeColumn{"", kPositionColumn, false});
  // Bound apart from running: a first pass that does not bind (an alias inside an ORDER BY
  // expression, say) leaves the rows whole, and the clauses report whatever is wrong.
  plan::Plan plan;
  plan::BindError bind_error;
  if (!plan::BindSelectOver(offer.first_pass, table.get(), first_scope, &plan, &bind_error)) return true;
  optimize::OptimizeSelect(&plan);
  ScopedSpan span(ctx_.profiler, 0, "top rows first pass", "pipeline");
  Result kept;
  {
    const ScopedQueryBudget budget(ctx_.budget, "running the query");
    kept = Execute(plan, ctx_);
  }
  if (!kept.ok()) {
    *error = std::move(kept);
    return false;
  }
  const int64_t* at = kept.column(0).Values<int64_t>();
  chosen->assign(kept.num_rows(), 0);
  for (size_t i = 0; i < kept.num_rows(); ++i) (*chosen)[i] = static_cast<uint32_t>(at[i]);
  *cut = true;
  span.counters().rows = rows;
  return true;
}

}  // namespace exec
}  // namespace laneql
