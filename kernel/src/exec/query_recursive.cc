// WITH RECURSIVE and DISTINCT ON: two query forms evaluated over the relations the query tree
// runner makes.
#include <unordered_set>
#include <utility>

#include "src/common/ascii.h"
#include "src/plan/query_ast.h"
#include "src/exec/query_tree.h"
#include "src/exec/window_partitions.h"
#include "src/sql/ast_clone.h"

namespace laneql {
namespace exec {
namespace {

bool NamesTable(const sql::QueryNode& query, const std::string& name);

bool NamesTable(const sql::TableRef& ref, const std::string& name) {
  if (ref.kind == sql::TableRefKind::kNamed && ascii::EqualsIgnoreCase(ref.name, name)) return true;
  if (ref.subquery && NamesTable(*ref.subquery, name)) return true;
  return (ref.left && NamesTable(*ref.left, name)) || (ref.right && NamesTable(*ref.right, name));
}

bool NamesTable(const sql::QueryNode& query, const std::string& name) {
  if (query.left && NamesTable(*query.left, name)) return true;
  if (query.right && NamesTable(*query.right, name)) return true;
  return query.kind == sql::QueryKind::kSelect && query.select.has_from &&
         NamesTable(query.select.from, name);
}

// Rows of `relation` whose keys are not in `seen` (nor earlier in `relation`); their keys join
// `seen`. UNION's rule for each round of a recursive CTE.
bool KeepNew(Relation* relation, std::unordered_set<std::string>* seen, Result* error) {
  const std::vector<std::string> keys = RowKeys(*relation->table);
  std::vector<uint32_t> rows;
  for (size_t r = 0; r < keys.size(); ++r) {
    if (seen->insert(keys[r]).second) rows.push_back(static_cast<uint32_t>(r));
  }
  std::string message;
  if (rows.size() == keys.size() || KeepRelationRows(relation, rows, &message)) return true;
  *error = Result::Error(message);
  return false;
}

}  // namespace

bool QueryTreeRunner::IsRecursive(const sql::CommonTableExpr& cte) {
  const sql::QueryNode& q = *cte.query;
  return q.kind == sql::QueryKind::kSetOperation && q.set_op == sql::SetOpKind::kUnion &&
         NamesTable(*q.right, cte.name) && !NamesTable(*q.left, cte.name);
}

bool QueryTreeRunner::RunRecursive(const sql::CommonTableExpr& cte, Relation* out, Result* error) {
  const sql::QueryNode& query = *cte.query;
  Relation result;
  if (!RunToRelation(*query.left, cte.name, &result, error)) return false;
  if (cte.columns.size() > result.scope.size()) {
    *error = ErrorAt(cte.pos, "binder", "WITH query \"" + cte.name + "\" has " +
                                            std::to_string(result.scope.size()) + " columns but " +
                                            std::to_string(cte.columns.size()) + " names were given");
    return false;
  }
  for (size_t i = 0; i < cte.columns.size(); ++i) result.scope[i].name = cte.columns[i];
  std::vector<TypeId> types;
  for (size_t c = 0; c < result.table->num_columns(); ++c) types.push_back(result.table->column(c).type());
  std::unordered_set<std::string> seen;
  if (!query.all && !KeepNew(&result, &seen, error)) return false;
  Relation working = result;
  std::vector<std::shared_ptr<const Table>> parts{result.table};  // each round's new rows
  for (int64_t round = 0;; ++round) {
    if (round == ctx_.max_recursion_rounds) {
      *error = ErrorAt(cte.pos, "binder", "WITH RECURSIVE query \"" + cte.name + "\" still added rows after " +
                                              std::to_string(ctx_.max_recursion_rounds) +
                                              " rounds: stopped (does its recursive part lack the "
                                              "condition that ends it?)");
      return false;
    }
    ctes_.push_back(CteEntry{cte.name, working, "", false});
    Relation step;
    const bool ok = RunToRelation(*query.right, cte.name, &step, error);
    ctes_.pop_back();
    if (!ok) return false;
    if (step.scope.size() != types.size()) {
      *error = ErrorAt(query.right->pos, "binder",
                       "the recursive part of \"" + cte.name + "\" has " + std::to_string(step.scope.size()) +
                           " columns, its first part " + std::to_string(types.size()));
      return false;
    }
    if (!CastColumns(&step, types, error, query.right->pos)) return false;
    if (!query.all && !KeepNew(&step, &seen, error)) return false;
    if (step.table->num_rows() == 0) break;
    parts.push_back(step.table);
    working.table = step.table;
    if (ctx_.Interrupted()) {
      *error = Result::Error(ctx_.StopMessage());
      return false;
    }
  }
  // The rounds' rows, one after another.
  auto all = std::make_shared<Table>();
  std::string message;
  for (size_t c = 0; c < types.size(); ++c) {
    Column column(types[c] == TypeId::kLargeString ? TypeId::kString : types[c]);
    for (const auto& part : parts) {
      if (!AppendColumn(part->column(c), &column, &message)) {
        *error = Result::Error(message);
        return false;
      }
    }
    if (!all->AddColumn(RelationColumnName(c), std::move(column), &message)) {
      *error = Result::Error(message);
      return false;
    }
  }
  result.table = std::move(all);
  *out = std::move(result);
  return true;
}

Result QueryTreeRunner::RunDistinctOn(const sql::SelectStatement& select) {
  // The query without DISTINCT ON, LIMIT and OFFSET, its ON keys as extra columns at the end;
  // then the first row of each key, in the query's ORDER BY order.
  sql::SelectStatement inner;
  sql::CloneInto(select, &inner);
  const size_t visible = inner.select_list.size();
  for (size_t i = 0; i < select.distinct_on.size(); ++i) {
    sql::SelectItem key;
    key.expr = sql::Clone(*select.distinct_on[i]);
    key.alias = "__on" + std::to_string(i);
    inner.select_list.push_back(std::move(key));
  }
  inner.distinct_on.clear();
  inner.distinct = false;
  inner.has_limit = inner.has_offset = false;
  Relation rows;
  Result answer = RunSelect(inner);
  if (!answer.ok()) return answer;
  std::string message;
  if (!RelationFromResult(std::move(answer), "", &rows, &message)) return Result::Error(message);
  // Each row numbered by its ON keys as GROUP BY numbers groups (the grouper on the query's
  // threads: NULLs equal, -0 = 0, NaNs one value); the first row of each number, in order.
  // Rows serialised to strings in a hash set took about 1 s for 600,572 rows.
  std::vector<const Column*> keys;
  for (size_t c = visible; c < rows.table->num_columns(); ++c) keys.push_back(&rows.table->column(c));
  PartitionIdList ids;
  size_t groups = 0;
  const size_t row_count = rows.table->num_rows();
  if (!ColumnPartitionIds(keys, ctx_, &ids, &groups, &message)) return Result::Error(message);
  std::vector<uint8_t> seen(groups, 0);
  std::vector<uint32_t> first;
  for (size_t r = 0; r < row_count; ++r) {
    if (seen[ids[r]]) continue;
    seen[ids[r]] = 1;
    first.push_back(static_cast<uint32_t>(r));
  }
  const size_t from = select.has_offset ? std::min<size_t>(first.size(), static_cast<size_t>(select.offset)) : 0;
  size_t to = first.size();
  if (select.has_limit) to = std::min<size_t>(to, from + static_cast<size_t>(select.limit));
  first = std::vector<uint32_t>(first.begin() + static_cast<std::ptrdiff_t>(from),
                                first.begin() + static_cast<std::ptrdiff_t>(to));
  if (!KeepRelationRows(&rows, first, &message)) return Result::Error(message);
  for (size_t c = visible; c < rows.scope.size(); ++c) rows.scope[c].hidden = true;
  return RelationToResult(rows);
}

}  // namespace exec
}  // namespace laneql
