// Set operations as plan operators, VALUES lists, the ORDER BY / LIMIT of a whole query, and the casts that give
// the rows of several inputs one type per column.
#include <chrono>
#include <utility>

#include "src/plan/query_ast.h"
#include "src/exec/query_tree.h"
#include "src/exec/window_partitions.h"
#include "src/optimize/optimizer.h"
#include "src/sql/ast_clone.h"

namespace laneql {
namespace exec {
namespace {

using plan::LogicalKind;
using plan::LogicalOperator;
using plan::LogicalPtr;

// A relation of `table` with `scope`'s names (the qualifiers kept).
bool Rebuild(Result result, const plan::ColumnScope& scope, Relation* out, std::string* error) {
  if (!RelationFromResult(std::move(result), "", out, error)) return false;
  out->scope = scope;
  return true;
}

}  // namespace

bool QueryTreeRunner::CastColumns(Relation* relation, const std::vector<TypeId>& types, Result* error,
                                  sql::SourcePos pos) {
  bool any = false;
  for (size_t c = 0; c < types.size(); ++c) {
    const TypeId have = relation->table->column(c).type();
    any = any || CommonSuperType(have, have) != types[c];
  }
  if (!any) return true;
  // SELECT CAST(#0 AS T0), ... over the relation's internal names, which are unique.
  plan::ColumnScope internal;
  for (size_t c = 0; c < relation->scope.size(); ++c) {
    internal.push_back(plan::ScopeColumn{"", relation->table->column_name(c), false});
  }
  Relation inner{relation->table, internal};
  sql::SelectStatement select;
  select.has_from = true;
  for (size_t c = 0; c < types.size(); ++c) {
    sql::SelectItem item;
    auto cast = std::make_unique<sql::Expr>();
    cast->kind = sql::ExprKind::kCast;
    cast->pos = pos;
    cast->text = DuckDbTypeName(types[c]);
    cast->operand = MakeColumnRef("", relation->table->column_name(c), pos);
    cast->height = 2;
    item.expr = std::move(cast);
    item.alias = relation->table->column_name(c);
    select.select_list.push_back(std::move(item));
  }
  Result cast = BindAndExecute(select, &inner);
  if (!cast.ok()) {
    *error = std::move(cast);
    return false;
  }
  std::string message;
  if (!Rebuild(std::move(cast), relation->scope, relation, &message)) {
    *error = Result::Error(message);
    return false;
  }
  return true;
}

Result QueryTreeRunner::RunValues(const std::vector<std::vector<sql::ExprPtr>>& rows,
                                  sql::SourcePos pos) {
  std::vector<Result> answers;
  std::vector<TypeId> types;
  // Each row is a SELECT without FROM; a second pass casts the rows whose types differ from
  // the columns' common type.
  auto run_row = [&](const std::vector<sql::ExprPtr>& row, const std::vector<TypeId>* cast_to) {
    sql::SelectStatement select;
    select.pos = pos;
    for (size_t c = 0; c < row.size(); ++c) {
      sql::SelectItem item;
      item.expr = sql::Clone(*row[c]);
      if (cast_to != nullptr) {
        auto cast = std::make_unique<sql::Expr>();
        cast->kind = sql::ExprKind::kCast;
        cast->pos = row[c]->pos;
        cast->text = DuckDbTypeName((*cast_to)[c]);
        cast->height = item.expr->height + 1;
        cast->operand = std::move(item.expr);
        item.expr = std::move(cast);
      }
      item.alias = "col" + std::to_string(c);
      select.select_list.push_back(std::move(item));
    }
    return BindAndExecute(select, nullptr);
  };
  for (const auto& row : rows) {
    Result answer = run_row(row, nullptr);
    if (!answer.ok()) return answer;
    for (size_t c = 0; c < answer.num_columns(); ++c) {
      const TypeId type = answer.type(c);
      // A NULL literal's column takes the other rows' type.
      const bool null_only = answer.column(c).null_count() == answer.num_rows();
      if (c == types.size()) types.push_back(type);
      else if (!null_only) types[c] = answers.empty() ? type : CommonSuperType(types[c], type);
    }
    answers.push_back(std::move(answer));
  }
  Result out;
  std::string error;
  for (size_t c = 0; c < types.size(); ++c) {
    Column column(types[c]);
    for (size_t r = 0; r < answers.size(); ++r) {
      if (answers[r].type(c) != types[c]) {
        answers[r] = run_row(rows[r], &types);
        if (!answers[r].ok()) return std::move(answers[r]);
      }
      if (!AppendColumn(answers[r].column(c), &column, &error)) return Result::Error(error);
    }
    if (!out.AddColumn("col" + std::to_string(c), std::move(column), &error)) return Result::Error(error);
  }
  return out;
}

bool QueryTreeRunner::PlanSetBranch(const sql::QueryNode& branch, LogicalPtr* out, Result* error) {
  if (branch.kind == sql::QueryKind::kSetOperation && branch.ctes.empty() && branch.order_by.empty() &&
      !branch.has_limit && !branch.has_offset) {
    return PlanSetOperation(branch, out, error);
  }
  Relation relation;
  last_plan_text_.clear();
  if (!RunToRelation(branch, "", &relation, error)) return false;
  std::string subplan = std::move(last_plan_text_);
  last_plan_text_.clear();
  if (subplan.empty() && branch.kind == sql::QueryKind::kValues) {
    subplan = "VALUES " + std::to_string(branch.values.size()) + " rows\n";
  }
  *out = GetOver(relation, "branch");
  (*out)->subplan = std::move(subplan);
  return true;
}

bool QueryTreeRunner::PlanSetOperation(const sql::QueryNode& query, LogicalPtr* out, Result* error) {
  LogicalPtr left, right;
  if (!PlanSetBranch(*query.left, &left, error) || !PlanSetBranch(*query.right, &right, error)) return false;
  if (left->scope.size() != right->scope.size()) {
    *error = ErrorAt(query.right->pos, "binder",
                     "set operations can only apply to expressions with the same number of result "
                     "columns (" + std::to_string(left->scope.size()) + " and " +
                         std::to_string(right->scope.size()) + ")");
    return false;
  }
  LogicalPtr op = plan::MakeLogical(LogicalKind::kSetOperation);
  op->set_op = query.set_op;
  op->set_all = query.all;
  op->pos = query.pos;
  op->scope = left->scope;  // the left branch names the columns
  for (plan::ScopeColumn& column : op->scope) column.qualifier = "";
  op->children.push_back(std::move(left));
  op->children.push_back(std::move(right));
  *out = std::move(op);
  return true;
}

bool QueryTreeRunner::ExecuteSetOperation(LogicalOperator* op, bool analyze, Relation* out, Result* error) {
  Relation left, right;
  if (!ExecuteLogical(op->children[0].get(), analyze, &left, error) ||
      !ExecuteLogical(op->children[1].get(), analyze, &right, error)) {
    return false;
  }
  std::vector<TypeId> types;
  for (size_t c = 0; c < left.scope.size(); ++c) {
    types.push_back(CommonSuperType(left.table->column(c).type(), right.table->column(c).type()));
  }
  if (!CastColumns(&left, types, error) || !CastColumns(&right, types, error)) return false;
  const size_t n_left = left.table->num_rows(), n_right = right.table->num_rows();
  // Both inputs' rows, left's then right's.
  std::vector<Column> both(types.size());
  std::string message;
  for (size_t c = 0; c < types.size(); ++c) {
    if (!CopyColumn(left.table->column(c), &both[c], &message) ||
        !AppendColumn(right.table->column(c), &both[c], &message)) {
      *error = Result::Error(message);
      return false;
    }
  }
  // Rows to keep: indexes into left's rows, then (n_left + i) for right's.
  std::vector<uint32_t> keep;
  const bool all_rows = op->set_op == sql::SetOpKind::kUnion && op->set_all;
  if (!all_rows) {
    // Each row numbered by its values as GROUP BY numbers groups (NULLs equal, -0 = 0, NaNs
    // one value), on the query's threads; then a pass in row order over the numbers. Rows
    // serialised to strings in a hash set took 1.66 s for a UNION of 1.2 M rows of (BIGINT,
    // BIGINT) on 2 threads; numbered so, 0.30 s.
    std::vector<const Column*> keys;
    for (const Column& column : both) keys.push_back(&column);
    PartitionIdList ids;
    size_t groups = 0;
    if (!ColumnPartitionIds(keys, ctx_, &ids, &groups, &message)) {
      *error = Result::Error(message);
      return false;
    }
    std::vector<uint8_t> emitted(groups, 0);
    if (op->set_op == sql::SetOpKind::kUnion) {
      for (size_t r = 0; r < n_left + n_right; ++r) {
        if (emitted[ids[r]]) continue;
        emitted[ids[r]] = 1;
        keep.push_back(static_cast<uint32_t>(r));
      }
    } else {
      // How many of right's rows each value has.
      std::vector<uint32_t> right_counts(groups, 0);
      for (size_t r = n_left; r < n_left + n_right; ++r) ++right_counts[ids[r]];
      const bool intersect = op->set_op == sql::SetOpKind::kIntersect;
      for (size_t r = 0; r < n_left; ++r) {
        const uint32_t id = ids[r];
        const bool in_right = right_counts[id] > 0;
        if (op->set_all) {
          // Multisets: INTERSECT ALL keeps min(m, n) copies, EXCEPT ALL max(m - n, 0).
          if (in_right) --right_counts[id];
          if (in_right == intersect) keep.push_back(static_cast<uint32_t>(r));
        } else if (in_right == intersect && !emitted[id]) {
          emitted[id] = 1;
          keep.push_back(static_cast<uint32_t>(r));
        }
      }
    }
  }
  auto table = std::make_shared<Table>();
  for (size_t c = 0; c < types.size(); ++c) {
    Column kept;
    if (all_rows) {
      kept = std::move(both[c]);
    } else if (!TakeRows(both[c], keep, &kept, &message)) {
      *error = Result::Error(message);
      return false;
    }
    if (!table->AddColumn(RelationColumnName(c), std::move(kept), &message)) {
      *error = Result::Error(message);
      return false;
    }
  }
  *out = Relation{std::move(table), op->scope};
  return true;
}

Result QueryTreeRunner::RunSetOperation(const sql::QueryNode& query) {
  const auto start = std::chrono::steady_clock::now();
  LogicalPtr root;
  Result error;
  if (!PlanSetOperation(query, &root, &error)) return error;
  optimize::EstimateCardinality(root.get());
  Relation combined;
  if (!ExecuteLogical(root.get(), explain_analyze_, &combined, &error)) return error;
  Result result = ApplyModifiers(query, std::move(combined));
  if (explaining_) {
    LogicalPtr top = OrderAndLimitClauses(std::move(root), query.order_by, query.order_by_all, query.has_limit,
                                          query.limit, query.has_offset, query.offset);
    optimize::EstimateCardinality(top.get());
    if (explain_analyze_ && result.ok() && top->select_clause) {
      top->analyzed = true;
      top->actual_rows = result.num_rows();
      top->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    last_plan_text_ = plan::ExplainText(*top);
  }
  return result;
}

Result QueryTreeRunner::ApplyModifiers(const sql::QueryNode& query, Relation relation) {
  if (query.order_by.empty() && !query.has_limit && !query.has_offset) {
    return RelationToResult(relation);
  }
  sql::SelectStatement select;
  select.pos = query.pos;
  sql::SelectItem star;
  star.expr = std::make_unique<sql::Expr>();
  star.expr->kind = sql::ExprKind::kStar;
  star.expr->pos = query.pos;
  select.select_list.push_back(std::move(star));
  select.has_from = true;
  if (query.order_by_all) {
    for (size_t i = 0; i < relation.scope.size(); ++i) {
      sql::OrderItem item;
      item.expr = std::make_unique<sql::Expr>();
      item.expr->kind = sql::ExprKind::kIntegerLiteral;
      item.expr->text = std::to_string(i + 1);
      item.expr->pos = query.pos;
      item.descending = query.order_by[0].descending;
      item.nulls = query.order_by[0].nulls;
      select.order_by.push_back(std::move(item));
    }
  } else {
    for (const sql::OrderItem& item : query.order_by) {
      sql::OrderItem copy;
      copy.expr = sql::Clone(*item.expr);
      copy.descending = item.descending;
      copy.nulls = item.nulls;
      select.order_by.push_back(std::move(copy));
    }
  }
  select.has_limit = query.has_limit;
  select.limit = query.limit;
  select.limit_pos = query.limit_pos;
  select.has_offset = query.has_offset;
  select.offset = query.offset;
  select.offset_pos = query.offset_pos;
  return BindAndExecute(select, &relation);
}

}  // namespace exec
}  // namespace laneql
