// SQL text -> Result: parse, read the files the query names, bind (with the plan rewrites),
// check the columns it reads, execute; COPY writes the result to a file.
#include "src/exec/query_runner.h"

#include <memory>
#include <utility>
#include <string>
#include <vector>

#include "src/exec/executor.h"
#include "src/exec/file_tables.h"
#include "src/plan/binder.h"
#include "src/sql/parser.h"

namespace laneql {
namespace {

void CollectColumns(const plan::BoundExpr* expr, std::vector<bool>* used) {
  if (expr == nullptr) return;
  if (expr->kind == plan::BoundKind::kColumn && expr->column >= 0 &&
      static_cast<size_t>(expr->column) < used->size()) {
    (*used)[static_cast<size_t>(expr->column)] = true;
  }
  for (const plan::BoundExprPtr& arg : expr->args) CollectColumns(arg.get(), used);
}

// Columns whose buffers are views of a .laneql file are checked against their checksums the
// first time a query reads them (Column::Verify); in-memory columns pass at no cost. Only the
// expressions in the table's scope name table columns: WHERE, the GROUP BY keys, aggregate
// arguments, and a plain query's outputs (an aggregate query's outputs name groups).
bool VerifyColumnsRead(const plan::Plan& plan, std::string* error) {
  if (plan.table == nullptr) return true;
  std::vector<bool> used(plan.table->num_columns(), false);
  CollectColumns(plan.where.get(), &used);
  for (const plan::BoundExprPtr& key : plan.group_keys) CollectColumns(key.get(), &used);
  for (const plan::Aggregate& aggregate : plan.aggregates) {
    CollectColumns(aggregate.arg.get(), &used);
  }
  if (!plan.aggregate) {
    for (const plan::BoundExprPtr& output : plan.outputs) CollectColumns(output.get(), &used);
  }
  for (size_t i = 0; i < used.size(); ++i) {
    if (used[i] && !plan.table->column(i).Verify(error)) return false;
  }
  return true;
}

Result RunSelect(const sql::SelectStatement& statement, const TableLookup& lookup,
                 const exec::ExecContext& ctx) {
  plan::BindError bind_error;
  // A file named in FROM is read for this query and released with it.
  std::shared_ptr<const Table> file_table;
  plan::TableResolver resolver = lookup;
  if (statement.has_from && statement.from.kind != sql::TableRefKind::kNamed) {
    if (!exec::LoadFileTable(statement.from, ctx.threads, &file_table, &bind_error)) {
      return Result::Error(bind_error.message, bind_error.line, bind_error.column);
    }
    resolver = [&file_table](std::string_view) -> const Table* { return file_table.get(); };
  }
  plan::Plan plan;
  if (!plan::BindSelect(statement, resolver, &plan, &bind_error)) {
    return Result::Error(bind_error.message, bind_error.line, bind_error.column);
  }
  std::string error;
  if (!VerifyColumnsRead(plan, &error)) return Result::Error(error);
  // The execution's memory counts against the query's limit (query_budget.h); parsing, binding
  // and the tables the query reads do not.
  const ScopedQueryBudget scope(ctx.budget, "running the query");
  return exec::Execute(plan, ctx);
}

}  // namespace

Result RunQuery(std::string_view sql, const TableLookup& lookup, const exec::ExecContext& ctx) {
  sql::Statement statement;
  sql::ParseError parse_error;
  if (!sql::ParseStatement(sql, &statement, &parse_error)) {
    return Result::Error(parse_error.ToString(), parse_error.line, parse_error.column);
  }
  if (statement.is_copy) {
    Result result = RunSelect(statement.copy.query, lookup, ctx);
    // An interrupted (or timed-out) query stopped part-way: its rows are not the answer and
    // are not written.
    if (ctx.Interrupted()) return Result::Error(ctx.StopMessage());
    return exec::CopyResultToFile(statement.copy, std::move(result));
  }
  Result result = RunSelect(statement.select, lookup, ctx);
  if (ctx.Interrupted()) return Result::Error(ctx.StopMessage());
  return result;
}

}  // namespace laneql
