// Joining two relations (a Join of the logical plan, query_execute.cc) and the expression
// evaluation and filtering that operators share. Equi-joins hash the build (right) side's
// keys; rows with a NULL key never match. Output rows follow the probe side's order, then the
// build side's, whatever the thread count.
#include <algorithm>
#include <atomic>
#include <memory>
#include <utility>

#include "src/common/ascii.h"
#include "src/common/query_budget.h"
#include "src/exec/chain_input.h"
#include "src/exec/executor.h"
#include "src/exec/hash_join.h"
#include "src/exec/morsel.h"
#include "src/plan/query_ast.h"
#include "src/exec/query_tree.h"
#include "src/plan/logical_operator.h"
#include "src/sql/ast_clone.h"

namespace laneql {
namespace exec {
namespace {

// Rows one relation holds at most: its rows are numbered by uint32, and UINT32_MAX marks a row
// missing (an outer join's padded side).
constexpr uint64_t kMaxRelationRows = UINT32_MAX - 1;

// Pairs of a product filled per task: a block of left rows whose pairs stay in L2.
constexpr size_t kProductTaskPairs = size_t{1} << 18;

// Every pair of a product of n_left x n_right rows, left-major (a hash join's pairs are sorted
// so), filled on the query's threads. Its row lists are charged to the query's budget, so a
// product past the memory limit fails as out of memory before anything is made (10^4 x 10^4
// rows: 800 MB of row lists).
bool ProductPairs(size_t n_left, size_t n_right, const ExecContext& ctx, sql::SourcePos pos,
                  std::vector<uint32_t>* left_rows, std::vector<uint32_t>* right_rows, Result* error) {
  const uint64_t total = static_cast<uint64_t>(n_left) * n_right;
  if (n_right != 0 && total / n_right != n_left) {
    *error = ErrorAt(pos, "out of memory", "the join would make more rows than a relation holds");
    return false;
  }
  if (total > kMaxRelationRows) {
    *error = ErrorAt(pos, "out of memory", "the join would make " + std::to_string(total) +
                                               " rows, more than a relation holds (" +
                                               std::to_string(kMaxRelationRows) + "; join on an equality?)");
    return false;
  }
  std::string message;
  const uint64_t bytes = total * 2 * sizeof(uint32_t);
  if (bytes > SIZE_MAX) {
    *error = ErrorAt(pos, "out of memory", "the join's " + std::to_string(total) + " rows outgrow the address space");
    return false;
  }
  {
    const ScopedMemoryActivity activity("making the pairs of a cross product");
    if (!ChargeQueryMemory(static_cast<size_t>(bytes), &message)) {
      *error = Result::Error(message);
      return false;
    }
  }
  left_rows->resize(total);
  right_rows->resize(total);
  if (total == 0) return true;
  // Whole left rows per task: each fills its rows' runs of pairs.
  const size_t left_per_task = std::max<size_t>(1, kProductTaskPairs / n_right);
  const size_t tasks = (n_left + left_per_task - 1) / left_per_task;
  const int threads = ThreadsFor(total, ctx.ThreadsAvailable(), ctx.min_parallel_rows);
  auto fill = [&](size_t t, int, std::string*) {
    const size_t first = t * left_per_task, last = std::min(n_left, first + left_per_task);
    uint32_t* l = left_rows->data() + first * n_right;
    uint32_t* r = right_rows->data() + first * n_right;
    for (size_t row = first; row < last; ++row) {
      std::fill_n(l, n_right, static_cast<uint32_t>(row));
      for (size_t k = 0; k < n_right; ++k) r[k] = static_cast<uint32_t>(k);
      l += n_right;
      r += n_right;
    }
    return true;
  };
  if (!RunTasks(ctx, threads, tasks, fill, &message)) {
    *error = Result::Error(message);
    return false;
  }
  return true;
}

}  // namespace


bool QueryTreeRunner::Evaluate(const Relation& relation, const std::vector<const sql::Expr*>& exprs,
                               Result* out) {
  // Bare column references share the relation's column (no copy of every row); the others are
  // computed by the engine as a SELECT over the relation.
  std::vector<int> shared(exprs.size());
  sql::SelectStatement select;
  select.has_from = true;
  for (size_t i = 0; i < exprs.size(); ++i) {
    shared[i] = LocateColumn(relation.scope, *exprs[i]);
    if (shared[i] >= 0) continue;
    sql::SelectItem item;
    item.expr = sql::Clone(*exprs[i]);
    item.alias = RelationColumnName(i);
    select.select_list.push_back(std::move(item));
  }
  Result computed;
  if (!select.select_list.empty()) {
    computed = BindAndExecute(select, &relation);
    if (!computed.ok()) {
      *out = std::move(computed);
      return false;
    }
  }
  std::vector<Column> computed_columns = computed.ReleaseColumns();
  Result result;
  std::string message;
  size_t next = 0;
  for (size_t i = 0; i < exprs.size(); ++i) {
    Column column;
    bool made = true;
    if (shared[i] >= 0) {
      made = ShareColumn(relation.table->column(static_cast<size_t>(shared[i])), relation.table, &column, &message);
    } else {
      column = std::move(computed_columns[next++]);
    }
    if (!made || !result.AddColumn(RelationColumnName(i), std::move(column), &message)) {
      *out = Result::Error(message);
      return false;
    }
  }
  *out = std::move(result);
  return true;
}

bool QueryTreeRunner::FilterRows(const Relation& relation, const sql::Expr& predicate,
                                 std::vector<uint32_t>* rows, Result* error) {
  // The predicate bound as the WHERE of a SELECT over the relation, run by the single-table
  // engine's filter (its SIMD predicate kernels, morsels, threads) straight into row numbers.
  plan::Plan plan;
  if (!BindPredicateOver(relation, predicate, &plan, error)) return false;
  const ScopedQueryBudget scope(ctx_.budget, "running the query");
  Result failure = CatchQueryAborts([&] {
    std::string message;
    return SelectRows(plan, ctx_, 0, rows, &message) ? Result() : Result::Error(message);
  });
  if (!failure.ok()) {
    *error = std::move(failure);
    return false;
  }
  return true;
}

bool QueryTreeRunner::Filter(Relation* relation, const sql::Expr& predicate, Result* error) {
  std::vector<uint32_t> rows;
  if (!FilterRows(*relation, predicate, &rows, error)) return false;
  if (rows.size() == relation->table->num_rows()) return true;  // only the gather of the kept rows
  std::string message;
  if (!KeepRelationRows(relation, rows, &message, &ctx_)) {
    *error = Result::Error(message);
    return false;
  }
  return true;
}

bool QueryTreeRunner::CommonKeyColumns(Relation* left, Relation* right, std::vector<const Column*>* left_columns,
                                       std::vector<const Column*>* right_columns, Result* error) {
  std::vector<TypeId> types;
  for (size_t k = 0; k < left->table->num_columns(); ++k) {
    types.push_back(CommonSuperType(left->table->column(k).type(), right->table->column(k).type()));
  }
  if (!CastColumns(left, types, error) || !CastColumns(right, types, error)) return false;
  for (size_t k = 0; k < types.size(); ++k) {
    left_columns->push_back(&left->table->column(k));
    right_columns->push_back(&right->table->column(k));
  }
  return true;
}

namespace {

// Rows per morsel of a marking probe (a multiple of 64: morsels start on validity words).
constexpr size_t kMarkMorselRows = size_t{1} << 16;

// matched[l] = 1 for each left row with a match, without listing pairs: the build side (the
// left one when `left_builds`) is hashed, and the other side's morsels mark rows on the query's
// threads (a left probe row stops at its first match).
bool LeftRowsMatched(const std::vector<const Column*>& left_keys, const std::vector<const Column*>& right_keys,
                     bool left_builds, const ExecContext& ctx, std::vector<uint8_t>* matched, std::string* error) {
  const std::vector<const Column*>& build = left_builds ? left_keys : right_keys;
  const std::vector<const Column*>& probe = left_builds ? right_keys : left_keys;
  const size_t n_left = left_keys[0]->length(), probe_rows = probe[0]->length();
  JoinBuildTable table;
  if (!table.Build(build, ctx, error)) return false;
  const size_t morsels = (probe_rows + kMarkMorselRows - 1) / kMarkMorselRows;
  const int threads = ThreadsFor(probe_rows, ctx.ThreadsAvailable(), ctx.min_parallel_rows);
  matched->assign(n_left, 0);
  if (!left_builds) {
    // Each morsel marks its own left rows.
    return RunTasks(ctx, threads, morsels, [&](size_t m, int, std::string* task_error) {
      const size_t begin = m * kMarkMorselRows, end = std::min(probe_rows, begin + kMarkMorselRows);
      return table.MarkMatches(probe, begin, end, nullptr, matched->data() + begin, task_error);
    }, error);
  }
  std::unique_ptr<std::atomic<uint8_t>[]> marks(new std::atomic<uint8_t>[n_left]());
  if (!RunTasks(ctx, threads, morsels, [&](size_t m, int, std::string* task_error) {
        const size_t begin = m * kMarkMorselRows, end = std::min(probe_rows, begin + kMarkMorselRows);
        return table.MarkMatches(probe, begin, end, marks.get(), nullptr, task_error);
      }, error)) {
    return false;
  }
  for (size_t l = 0; l < n_left; ++l) (*matched)[l] = marks[l].load(std::memory_order_relaxed);
  return true;
}

}  // namespace

bool QueryTreeRunner::MarkedJoin(const Relation& left, const std::vector<uint8_t>& matched, sql::JoinType type,
                                 Relation* out, Result* error) {
  std::string message;
  if (type == sql::JoinType::kMark) {
    // Every left row, and whether it matched.
    Column mark(TypeId::kBool);
    if (!Column::FromFixed(TypeId::kBool, matched.data(), matched.size(), nullptr, &mark, &message)) {
      *error = Result::Error(message);
      return false;
    }
    *out = left;
    if (!AddRelationColumn(out, std::move(mark), plan::ScopeColumn{"", "__mark", true}, &message)) {
      *error = Result::Error(message);
      return false;
    }
    return true;
  }
  // Semi / anti: the left rows with / without a match, in order.
  std::vector<uint32_t> rows;
  for (size_t l = 0; l < matched.size(); ++l) {
    if ((matched[l] != 0) == (type == sql::JoinType::kSemi)) rows.push_back(static_cast<uint32_t>(l));
  }
  *out = left;
  if (!KeepRelationRows(out, rows, &message, &ctx_)) {
    *error = Result::Error(message);
    return false;
  }
  return true;
}

bool QueryTreeRunner::JoinRelations(const Relation& left, const Relation& right,
                                    const std::vector<const sql::Expr*>& left_keys,
                                    const std::vector<const sql::Expr*>& right_keys,
                                    const sql::Expr* residual, sql::JoinType type, sql::SourcePos pos,
                                    Relation* out, Result* error) {
  const size_t n_left = left.table->num_rows(), n_right = right.table->num_rows();
  const bool marks_only = type == sql::JoinType::kSemi || type == sql::JoinType::kAnti || type == sql::JoinType::kMark;
  std::vector<uint32_t> left_rows, right_rows;
  const bool nested_loop = left_keys.empty();
  if (nested_loop && residual == nullptr) {
    // A bare product: made whole (a residual condition cuts the product block by block instead,
    // KeepPairsPassing, so only what it keeps is held).
    if (!ProductPairs(n_left, n_right, ctx_, pos, &left_rows, &right_rows, error)) return false;
  } else if (!nested_loop) {
    Result lk, rk;
    if (!Evaluate(left, left_keys, &lk)) {
      *error = std::move(lk);
      return false;
    }
    if (!Evaluate(right, right_keys, &rk)) {
      *error = std::move(rk);
      return false;
    }
    Relation lr, rr;
    std::string message;
    if (!RelationFromResult(std::move(lk), "", &lr, &message) ||
        !RelationFromResult(std::move(rk), "", &rr, &message)) {
      *error = Result::Error(message);
      return false;
    }
    // The hash join core (hash_join.h): pairs sorted by probe (left) row, then build row.
    std::vector<const Column*> build_keys, probe_keys;
    if (!CommonKeyColumns(&lr, &rr, &probe_keys, &build_keys, error)) return false;
    // Semi, anti and mark joins need only which left rows match, in no order: the smaller side
    // builds (TPC-H Q21's EXISTS: 8,590 outer rows against 600,572 inner ones).
    const bool swap = marks_only && n_left < n_right;
    if (marks_only && residual == nullptr) {
      // Without a residual condition not even the pairs: the matches mark the left rows.
      std::vector<uint8_t> matched;
      if (!LeftRowsMatched(probe_keys, build_keys, swap, ctx_, &matched, &message)) {
        *error = Result::Error(message);
        return false;
      }
      return MarkedJoin(left, matched, type, out, error);
    }
    if (swap) std::swap(build_keys, probe_keys);
    MatchPairs pairs;
    if (!HashJoinPairs(build_keys, probe_keys, ctx_, &pairs, &message)) {
      *error = Result::Error(message);
      return false;
    }
    left_rows = std::move(swap ? pairs.build_rows : pairs.probe_rows);
    right_rows = std::move(swap ? pairs.probe_rows : pairs.build_rows);
  }
  // A nested-loop join whose condition bounds one side's expression by the other's: only the
  // pairs in those bounds are candidates (query_range_join.cc).
  bool product = nested_loop && residual != nullptr;
  if (product) {
    bool ranged = false;
    if (!RangeJoinCandidates(left, right, *residual, &left_rows, &right_rows, &ranged, error)) return false;
    product = !ranged;
  }
  // The residual condition decides which candidate pairs match (before outer rows are added):
  // the equi-matches, the range's candidates, or a nested-loop join's whole product.
  if (residual != nullptr &&
      !KeepPairsPassing(left, right, *residual, product, pos, &left_rows, &right_rows, error)) {
    return false;
  }
  if (marks_only) {
    std::vector<uint8_t> matched(n_left, 0);
    for (uint32_t l : left_rows) matched[l] = 1;
    return MarkedJoin(left, matched, type, out, error);
  }
  if (type == sql::JoinType::kSingle) {
    // A scalar subquery: a left row may find one right row at most (pairs are in left order).
    for (size_t i = 1; i < left_rows.size(); ++i) {
      if (left_rows[i] == left_rows[i - 1]) {
        *error = ErrorAt(pos, "invalid input",
                         "More than one row returned by a subquery used as an expression - scalar "
                         "subqueries can only return a single row.");
        return false;
      }
    }
  }
  if (type == sql::JoinType::kLeft || type == sql::JoinType::kFull || type == sql::JoinType::kSingle) {
    std::vector<bool> matched(n_left, false);
    for (uint32_t l : left_rows) matched[l] = true;
    std::vector<uint32_t> l2, r2;
    size_t i = 0;
    for (size_t l = 0; l < n_left; ++l) {
      if (!matched[l]) {
        l2.push_back(static_cast<uint32_t>(l));
        r2.push_back(kMissingRow);
        continue;
      }
      while (i < left_rows.size() && left_rows[i] == l) {
        l2.push_back(left_rows[i]);
        r2.push_back(right_rows[i]);
        ++i;
      }
    }
    left_rows = std::move(l2);
    right_rows = std::move(r2);
  }
  if (type == sql::JoinType::kRight || type == sql::JoinType::kFull) {
    std::vector<bool> matched(n_right, false);
    for (uint32_t r : right_rows) {
      if (r != kMissingRow) matched[r] = true;
    }
    for (size_t r = 0; r < n_right; ++r) {
      if (!matched[r]) {
        left_rows.push_back(kMissingRow);
        right_rows.push_back(static_cast<uint32_t>(r));
      }
    }
  }
  std::string message;
  if (!GatherJoinedRows(left, right, left_rows, right_rows, out, &message)) {
    *error = Result::Error(message);
    return false;
  }
  if (type == sql::JoinType::kSingle) {
    // A single join adds the subquery's value alone (the right side's last column): the inner
    // query's other columns are not the outer query's to name.
    std::vector<size_t> keep(left.scope.size());
    for (size_t c = 0; c < keep.size(); ++c) keep[c] = c;
    keep.push_back(out->scope.size() - 1);
    std::string message;
    Relation joined = std::move(*out);
    if (!ShareColumns(joined, keep, out, &message)) {
      *error = Result::Error(message);
      return false;
    }
  }
  return true;
}

}  // namespace exec
}  // namespace laneql
