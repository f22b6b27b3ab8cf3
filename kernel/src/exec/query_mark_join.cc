// Semi, anti and mark equi-joins (EXISTS, NOT EXISTS, IN) as a pipeline: which left rows have a
// match, without the pairs unless a residual condition must read them.
//  - each side is made as a join-pipeline input: a filtered scan stays its table plus the rows
//    its filter kept (TPC-H Q4's 3.8 M lineitem rows of its EXISTS are never copied);
//  - the side with fewer rows hashes its key columns, gathered at its rows;
//  - the other side streams through in morsels on the query's threads: the morsel's keys
//    probed where they lie (a whole side) or gathered at its rows, and the matches marked: on
//    the left row when the left side probes (each stops at its first match), on the build row
//    when the left side builds (TPC-H Q21: 75,871 outer rows against 6 M inner ones);
//  - with a residual condition, each morsel's candidate pairs are made whole, cut by it, and
//    the survivors marked;
//  - each morsel is first narrowed by the min/max runtime filters (join_range_skip.h): its
//    blocks outside the build keys' range hold no match.
// The answer is the left rows with (semi) or without (anti) a mark, in order, or every left row
// with its mark (mark join), whatever the thread count.
#include <algorithm>
#include <atomic>
#include <memory>
#include <tuple>
#include <utility>

#include "src/exec/chain_input.h"
#include "src/exec/hash_join.h"
#include "src/exec/join_range_skip.h"
#include "src/exec/morsel.h"
#include "src/exec/profile.h"
#include "src/exec/query_tree.h"
#include "src/sql/ast_clone.h"

namespace laneql {
namespace exec {
namespace {

using plan::LogicalOperator;

// Probe rows per morsel (a multiple of 64: a morsel of a whole side starts on a validity word).
constexpr size_t kMarkMorselRows = size_t{1} << 16;

// A side's key columns: its relation's columns, each cast to the join's key type over the whole
// column where it differs (a widening that cannot fail on any row).
struct SideKeys {
  std::vector<const Column*> columns;
  std::vector<std::shared_ptr<const Table>> casts;  // keeps cast columns alive
};

// The input's rows as a relation of their own (a filtered scan's kept rows gathered).
bool Materialize(ChainInput* in, const ExecContext& ctx, std::string* error) {
  if (in->all) return true;
  if (!KeepRelationRows(&in->relation, in->selection, error, &ctx)) return false;
  in->selection = {};
  in->all = true;
  return true;
}

}  // namespace

bool QueryTreeRunner::ExecuteMarkJoin(LogicalOperator* op, bool analyze, Relation* out, Result* error,
                                      ChainInput* kept) {
  const sql::JoinType type = op->join_type;
  ChainInput left, right;
  if (!ExecuteChainInput(op->children[0].get(), analyze, &left, error) ||
      !ExecuteChainInput(op->children[1].get(), analyze, &right, error)) {
    return false;
  }
  std::string message;
  std::vector<int> left_at, right_at;
  bool plain = true;
  for (size_t k = 0; k < op->left_keys.size(); ++k) {
    left_at.push_back(LocateColumn(left.relation.scope, *op->left_keys[k]));
    right_at.push_back(LocateColumn(right.relation.scope, *op->right_keys[k]));
    plain = plain && left_at.back() >= 0 && right_at.back() >= 0;
  }
  sql::ExprPtr residual;
  if (!op->conditions.empty()) {
    std::vector<sql::ExprPtr> clones;
    for (const sql::ExprPtr& c : op->conditions) clones.push_back(sql::Clone(*c));
    residual = JoinAnd(std::move(clones));
  }
  if (!plain) {
    // Key expressions: evaluated over whole relations by the operator-at-a-time join.
    if (!Materialize(&left, ctx_, &message) || !Materialize(&right, ctx_, &message)) {
      *error = Result::Error(message);
      return false;
    }
    std::vector<const sql::Expr*> left_keys, right_keys;
    for (const sql::ExprPtr& k : op->left_keys) left_keys.push_back(k.get());
    for (const sql::ExprPtr& k : op->right_keys) right_keys.push_back(k.get());
    return JoinRelations(left.relation, right.relation, left_keys, right_keys, residual.get(), type, op->pos, out,
                         error);
  }
  // Both sides' keys in their common types.
  SideKeys left_keys, right_keys;
  for (size_t k = 0; k < left_at.size(); ++k) {
    const Column& l = left.relation.table->column(static_cast<size_t>(left_at[k]));
    const Column& r = right.relation.table->column(static_cast<size_t>(right_at[k]));
    auto key_type = [](TypeId t) { return t == TypeId::kLargeString ? TypeId::kString : t; };
    const TypeId shared = CommonSuperType(key_type(l.type()), key_type(r.type()));
    for (auto [in, column, keys] : {std::make_tuple(&left, &l, &left_keys), std::make_tuple(&right, &r, &right_keys)}) {
      if (column->type() == shared) {
        keys->columns.push_back(column);
        continue;
      }
      Relation one;
      const size_t at = static_cast<size_t>(in == &left ? left_at[k] : right_at[k]);
      if (!ShareColumns(in->relation, {at}, &one, &message)) {
        *error = Result::Error(message);
        return false;
      }
      if (!CastColumns(&one, {shared}, error, op->pos)) return false;
      keys->columns.push_back(&one.table->column(0));
      keys->casts.push_back(one.table);
    }
  }
  // The smaller side builds; its keys gathered at its rows.
  const bool left_builds = left.rows() < right.rows();
  const ChainInput& build = left_builds ? left : right;
  const ChainInput& probe = left_builds ? right : left;
  const SideKeys& build_side = left_builds ? left_keys : right_keys;
  const SideKeys& probe_side = left_builds ? right_keys : left_keys;
  std::vector<Column> gathered_build(build.all ? 0 : build_side.columns.size());
  std::vector<const Column*> build_columns = build_side.columns;
  for (size_t k = 0; k < gathered_build.size(); ++k) {
    if (!GatherRows(*build_side.columns[k], build.selection, &gathered_build[k], &message)) {
      *error = Result::Error(message);
      return false;
    }
    build_columns[k] = &gathered_build[k];
  }
  JoinBuildTable table;
  {
    ScopedSpan span(ctx_.profiler, 0, "mark join build", "pipeline");
    if (!table.Build(build_columns, ctx_, &message)) {
      *error = Result::Error(message);
      return false;
    }
    span.counters().rows = table.rows();
    span.counters().partitions = table.partitions();
  }
  // Min/max runtime filters (join_range_skip.h): a probe row outside the build keys' range finds
  // no match, as a row the morsel never probes, whatever the join type.
  JoinRangeSkip range_skip;
  for (size_t k = 0; k < build_columns.size(); ++k) {
    int64_t min = 0, max = 0;
    if (build_columns[k]->IntegerRange(&min, &max)) range_skip.Add(*probe_side.columns[k], min, max);
  }
  // The probe pipeline: matched[l] for the left rows (as plain bytes where each morsel marks its
  // own left rows, atomics where any morsel may mark any of them).
  const size_t left_rows = left.rows(), probe_rows = probe.rows();
  std::vector<uint8_t> matched(left_builds ? 0 : left_rows, 0);
  std::unique_ptr<std::atomic<uint8_t>[]> marks(left_builds ? new std::atomic<uint8_t>[left_rows]() : nullptr);
  const size_t morsels = (probe_rows + kMarkMorselRows - 1) / kMarkMorselRows;
  std::vector<Result> morsel_errors(morsels);
  // Per morsel, only when profiling: what its probe's key filter dropped and what read the table.
  const bool profiling = ctx_.profiler != nullptr;
  std::vector<JoinProbeCounts> counts(profiling ? morsels : 0);
  ExecContext single = ctx_;  // residuals evaluated inside a morsel run on its thread alone
  single.pool = nullptr;
  single.threads = 1;
  single.profiler = nullptr;
  plan::ColumnScope pair_scope = left.relation.scope;
  pair_scope.insert(pair_scope.end(), right.relation.scope.begin(), right.relation.scope.end());
  auto run_morsel = [&](size_t m, int thread, std::string* task_error) {
    ScopedSpan morsel_span(ctx_.profiler, thread, "mark probe morsel", "probe");
    size_t begin = m * kMarkMorselRows, end = std::min(probe_rows, begin + kMarkMorselRows);
    if (!range_skip.empty()) range_skip.Trim(probe, &begin, &end);  // begin stays on a validity word
    std::vector<Column> keys(probe.all ? 0 : probe_side.columns.size());
    std::vector<const Column*> probe_columns = probe_side.columns;
    size_t first = begin, last = end;  // the rows of probe_columns this morsel probes
    if (!probe.all) {
      const std::vector<uint32_t> rows(probe.selection.begin() + static_cast<ptrdiff_t>(begin),
                                       probe.selection.begin() + static_cast<ptrdiff_t>(end));
      for (size_t k = 0; k < keys.size(); ++k) {
        if (!GatherRows(*probe_side.columns[k], rows, &keys[k], task_error)) return false;
        probe_columns[k] = &keys[k];
      }
      first = 0;
      last = end - begin;
    }
    JoinProbeCounts* counted = profiling ? &counts[m] : nullptr;
    if (residual == nullptr) {
      return table.MarkMatches(probe_columns, first, last, left_builds ? marks.get() : nullptr,
                               left_builds ? nullptr : matched.data() + begin, task_error, counted);
    }
    MatchPairs pairs;
    if (!table.Probe(probe_columns, first, last, &pairs, task_error, counted)) return false;
    if (pairs.size() == 0) return true;
    // The candidate pairs made whole (pipeline rows: the probe's counted from 0, not begin),
    // cut by the residual.
    std::vector<uint32_t> left_pick(pairs.size()), right_pick(pairs.size());
    for (size_t i = 0; i < pairs.size(); ++i) {
      const uint32_t probe_row = static_cast<uint32_t>(begin) + pairs.probe_rows[i];
      (left_builds ? left_pick : right_pick)[i] = pairs.build_rows[i];
      (left_builds ? right_pick : left_pick)[i] = probe_row;
    }
    auto candidates = std::make_shared<Table>();
    size_t c_out = 0;
    for (auto [in, pick] : {std::make_pair(&left, &left_pick), std::make_pair(&right, &right_pick)}) {
      for (size_t c = 0; c < in->relation.table->num_columns(); ++c) {
        Column column;
        if (!GatherAt(*in, in->relation.table->column(c), *pick, &column, task_error) ||
            !candidates->AddColumn(RelationColumnName(c_out++), std::move(column), task_error)) {
          return false;
        }
      }
    }
    QueryTreeRunner local(catalog_, single);
    std::vector<uint32_t> keep;
    Result failure;
    if (!local.FilterRows(Relation{candidates, pair_scope}, *residual, &keep, &failure)) {
      *task_error = failure.error();
      morsel_errors[m] = std::move(failure);
      return false;
    }
    for (const uint32_t i : keep) {
      if (left_builds) {
        marks[left_pick[i]].store(1, std::memory_order_relaxed);
      } else {
        matched[left_pick[i]] = 1;
      }
    }
    return true;
  };
  const uint64_t probe_start = profiling ? ctx_.profiler->Now() : 0;
  uint64_t probe_end = 0;
  {
    const int threads = ThreadsFor(probe_rows, ctx_.ThreadsAvailable(), ctx_.min_parallel_rows);
    const bool ran = RunTasks(ctx_, threads, morsels, run_morsel, &message);
    if (profiling) probe_end = ctx_.profiler->Now();
    if (!ran) {
      for (Result& failure : morsel_errors) {
        if (!failure.ok() && !failure.error().empty()) {
          *error = std::move(failure);
          return false;
        }
      }
      *error = Result::Error(message);
      return false;
    }
  }
  if (left_builds) {
    matched.resize(left_rows);
    for (size_t l = 0; l < left_rows; ++l) matched[l] = marks[l].load(std::memory_order_relaxed);
  }
  if (profiling) {
    // The probe's span, once its matches are known: here the left rows that have a match (the
    // rows a semi join keeps).
    ProfileCounters c;
    c.rows = probe_rows;
    c.build = table.rows();
    c.partitions = table.partitions();
    for (const JoinProbeCounts& counted : counts) {
      c.filtered += counted.filtered;
      c.probes += counted.looked_up;
    }
    for (const uint8_t mark : matched) c.matches += mark != 0;
    ctx_.profiler->AddSpan(0, "mark join probe", "pipeline", probe_start, probe_end, c);
  }
  if (type != sql::JoinType::kMark && (!left.all || kept != nullptr)) {
    // Semi / anti: the left rows with / without a match, as a selection of the left relation
    // for a pipeline that takes one, or gathered once.
    std::vector<uint32_t> rows;
    for (size_t l = 0; l < left_rows; ++l) {
      if ((matched[l] != 0) == (type == sql::JoinType::kSemi)) rows.push_back(left.Physical(static_cast<uint32_t>(l)));
    }
    if (kept != nullptr) {
      kept->relation = std::move(left.relation);
      kept->selection = std::move(rows);
      kept->all = false;
      return true;
    }
    *out = std::move(left.relation);
    if (!KeepRelationRows(out, rows, &message, &ctx_)) {
      *error = Result::Error(message);
      return false;
    }
    return true;
  }
  if (!Materialize(&left, ctx_, &message)) {
    *error = Result::Error(message);
    return false;
  }
  return MarkedJoin(left.relation, matched, type, out, error);
}

}  // namespace exec
}  // namespace laneql
