// A chain of equi-joins down a plan's left side (inner, LEFT, RIGHT and FULL ones), run as
// pipelines on the query's threads:
//  - build pipelines first: each build side is made by its own operators, its key columns
//    evaluated (cast to the types both sides share), and its hash table built;
//  - then the probe pipeline: the probe source's rows are cut into morsels that the threads
//    take from one cursor (each narrowed first by the min/max runtime filters of the joins
//    that drop rows without a pair, join_range_skip.h); each morsel runs through every join in
//    turn (gather its probe keys, probe, compose its row lists through the pairs, cut them by
//    the join's residual condition), and its surviving rows go to the sink. A RIGHT or FULL
//    join marks the build rows that found a pair as the morsels run; once every row below it
//    has probed it, those left unmarked follow as its tail, in build order with every input
//    below it missing (NULL when gathered), through the joins above it;
//  - the sink: the SELECT's aggregation above the chain when RunPlan offered it and it can
//    take the parts in any order (join_aggregate_sink.h: each part gathered and folded in by
//    the thread that joined it); else the morsels' and then the tails' row lists concatenated
//    in that order (so the answer never depends on the thread count), then every output column
//    gathered once for the rows that survived every join, one task per column.
// Late materialization throughout: the rows flowing up the chain are row-number lists, one per
// input (the source and each build side), and a filtered scan is its table's rows plus the
// selection its filter made, so nothing is copied before the end. TPC-H Q9 joined 600,572
// lineitem rows to supplier and gathered 8 columns before part's join cut them to 32,160; with
// row lists it gathers 2 key columns.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <utility>

#include "src/common/ascii.h"
#include "src/exec/chain_input.h"
#include "src/exec/gather_on_threads.h"
#include "src/exec/hash_join.h"
#include "src/exec/join_aggregate_sink.h"
#include "src/exec/join_range_skip.h"
#include "src/exec/morsel.h"
#include "src/exec/profile.h"
#include "src/exec/query_tree.h"
#include "src/sql/ast_clone.h"

namespace laneql {
namespace exec {

bool GatherAt(const ChainInput& in, const Column& column, const std::vector<uint32_t>& rows, Column* out,
              std::string* error) {
  if (in.all) return GatherRows(column, rows, out, error);
  std::vector<uint32_t> physical(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) physical[i] = in.Physical(rows[i]);
  return GatherRows(column, physical, out, error);
}

int LocateColumn(const plan::ColumnScope& scope, const sql::Expr& expr) {
  if (expr.kind != sql::ExprKind::kColumnRef) return -1;
  int found = -1;
  for (size_t c = 0; c < scope.size(); ++c) {
    const plan::ScopeColumn& column = scope[c];
    if (!expr.qualifier.empty()) {
      if (!ascii::EqualsIgnoreCase(column.qualifier, expr.qualifier)) continue;
    } else if (column.hidden) {
      continue;
    }
    if (!ascii::EqualsIgnoreCase(column.name, expr.text)) continue;
    if (found >= 0) return -1;
    found = static_cast<int>(c);
  }
  return found;
}

namespace {

using plan::LogicalKind;
using plan::LogicalOperator;

// Source rows per morsel: a morsel's key columns and row lists stay in the L2 cache.
constexpr size_t kProbeMorselRows = size_t{1} << 15;

// An inner, LEFT, RIGHT or FULL equi-join (its left side, the preserved one of a LEFT join,
// probes; the build rows a RIGHT or FULL join adds without a pair follow every morsel as a
// tail). A RIGHT or FULL one with USING only at the top: its visible key merges both sides'
// once the chain's output is made (MergeUsingKeys), and a join above would read it.
bool IsChainJoin(const LogicalOperator& op, bool top) {
  if (op.kind != LogicalKind::kJoin || op.left_keys.empty()) return false;
  switch (op.join_type) {
    case sql::JoinType::kInner:
    case sql::JoinType::kLeft: return true;
    case sql::JoinType::kRight:
    case sql::JoinType::kFull: return top || op.using_columns.empty();
    default: return false;
  }
}

bool KeepsBuildRows(const LogicalOperator& op) {
  return op.join_type == sql::JoinType::kRight || op.join_type == sql::JoinType::kFull;
}


// What one join did in one morsel, for the profile: its probe rows, those its key filter
// dropped, those that read the hash table, and its pairs that passed the residual.
struct JoinMorselCounts {
  uint64_t probed = 0;
  uint64_t skipped = 0;  // the source rows the runtime filters cut from the morsel (first join)
  JoinProbeCounts probe;
  uint64_t matches = 0;
};

// The rows flowing up the chain in one morsel: per input, its row numbers.
struct MorselRows {
  std::vector<std::vector<uint32_t>> rows;
  size_t count = 0;
};


// Every column of the first `inputs` inputs at a morsel's rows, as one relation named by `scope`.
bool MaterializeMorsel(const std::vector<ChainInput>& chain, size_t inputs, const MorselRows& state,
                       const plan::ColumnScope& scope, Relation* out, std::string* error) {
  auto table = std::make_shared<Table>();
  size_t k = 0;
  for (size_t t = 0; t < inputs; ++t) {
    const Table& source = *chain[t].relation.table;
    for (size_t c = 0; c < source.num_columns(); ++c) {
      Column column;
      if (!GatherAt(chain[t], source.column(c), state.rows[t], &column, error) ||
          !table->AddColumn(RelationColumnName(k++), std::move(column), error)) {
        return false;
      }
    }
  }
  out->table = std::move(table);
  out->scope = scope;
  return true;
}

// The rows of `state` (every input's) that pass a condition over them made whole (named by
// `scope`): filter_rows(relation, &keep, &failure) runs it through an engine; false with
// *task_error (and *failure: the engine's error) when it fails.
template <class FilterRowsFn>
bool CutByFilter(const std::vector<ChainInput>& inputs, const plan::ColumnScope& scope,
                 const FilterRowsFn& filter_rows, MorselRows* state, std::string* task_error, Result* failure) {
  Relation candidates;
  if (!MaterializeMorsel(inputs, inputs.size(), *state, scope, &candidates, task_error)) return false;
  std::vector<uint32_t> keep;
  if (!filter_rows(candidates, &keep, failure)) {
    *task_error = failure->error();
    return false;
  }
  for (std::vector<uint32_t>& rows : state->rows) {
    std::vector<uint32_t> next(keep.size());
    for (size_t i = 0; i < keep.size(); ++i) next[i] = rows[keep[i]];
    rows = std::move(next);
  }
  state->count = keep.size();
  return true;
}

// The sink's schema (query_aggregate_sink.cc): one row of each output column (input, column)
// of `columns`, NULL where the chain can leave that input missing (a LEFT or FULL join's build
// side, and what lies below a RIGHT or FULL join, whose tails miss it) or the column holds a
// NULL, else a row of its own.
template <class Joins>
bool MakeSinkSchema(const std::vector<ChainInput>& inputs, const Joins& joins,
                    const std::vector<std::pair<size_t, size_t>>& columns, const plan::ColumnScope& scope,
                    Relation* out, std::string* error) {
  std::vector<uint8_t> can_miss(inputs.size(), 0);
  for (size_t j = 0; j < joins.size(); ++j) {
    const sql::JoinType type = joins[j].op->join_type;
    if (type == sql::JoinType::kLeft || type == sql::JoinType::kFull) can_miss[j + 1] = 1;
    if (type == sql::JoinType::kRight || type == sql::JoinType::kFull) std::fill_n(can_miss.begin(), j + 1, 1);
  }
  auto table = std::make_shared<Table>();
  for (size_t k = 0; k < columns.size(); ++k) {
    const auto [t, c] = columns[k];
    const Column& column = inputs[t].relation.table->column(c);
    const bool null_row = can_miss[t] || inputs[t].rows() == 0 || column.null_count() != 0;
    Column one;
    if (!GatherAt(inputs[t], column, {null_row ? kNoRow : 0}, &one, error) ||
        !table->AddColumn(RelationColumnName(k), std::move(one), error)) {
      return false;
    }
  }
  out->table = std::move(table);
  out->scope = scope;
  return true;
}

// A probe key: a column of one input (cast to the join's key type over that whole input first
// when its type differs), or an expression evaluated per morsel over its rows made whole.
struct ProbeKey {
  int input = -1;
  size_t column = 0;
  std::shared_ptr<const Table> cast;  // the cast column (#0), or null
  sql::ExprPtr expr;                  // with a CAST around it when needed
};

struct ChainJoin {
  LogicalOperator* op = nullptr;
  std::vector<ProbeKey> probe_keys;
  Relation build_keys;  // cast to the key types
  JoinBuildTable table;
  sql::ExprPtr residual;
  double seconds = 0;
};

sql::ExprPtr CastExpr(TypeId type, sql::ExprPtr operand) {
  auto cast = std::make_unique<sql::Expr>();
  cast->kind = sql::ExprKind::kCast;
  cast->pos = operand->pos;
  cast->text = DuckDbTypeName(type == TypeId::kLargeString ? TypeId::kString : type);
  cast->height = operand->height + 1;
  cast->operand = std::move(operand);
  return cast;
}

TypeId KeyType(TypeId type) { return type == TypeId::kLargeString ? TypeId::kString : type; }

}  // namespace

bool QueryTreeRunner::ExecuteChainInput(LogicalOperator* op, bool analyze, ChainInput* in, Result* error) {
  ChainInput& input = *in;
  const bool semi_or_anti = op->kind == LogicalKind::kJoin && !op->left_keys.empty() &&
                            (op->join_type == sql::JoinType::kSemi || op->join_type == sql::JoinType::kAnti);
  if (semi_or_anti && !dry_run_ && !ctx_.Interrupted()) {
    // TPC-H Q16's NOT IN kept 799,680 of partsupp's 800,000 rows: gathered, they were 14 % of
    // the query.
    const auto start = std::chrono::steady_clock::now();
    ScopedSpan span(ctx_.profiler, 0, plan::LogicalKindName(op->kind), "operator");
    input.relation = {};
    Relation made;
    if (!ExecuteMarkJoin(op, analyze, &made, error, &input)) return false;
    if (input.relation.table == nullptr) {
      input.relation = std::move(made);
      input.selection = {};
      input.all = true;
    }
    if (input.relation.scope.size() == op->scope.size()) input.relation.scope = op->scope;
    if (analyze) {
      op->analyzed = true;
      op->actual_rows = input.rows();
      op->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    return true;
  }
  if (op->kind != LogicalKind::kGet || op->conditions.empty() || dry_run_) {
    return ExecuteLogical(op, analyze, &input.relation, error);
  }
  // A filtered scan: its kept columns as they are, and the rows its filter keeps.
  const auto start = std::chrono::steady_clock::now();
  ScopedSpan span(ctx_.profiler, 0, "GET", "operator");
  std::vector<sql::ExprPtr> conditions;
  for (const sql::ExprPtr& c : op->conditions) conditions.push_back(sql::Clone(*c));
  Relation read;  // with the columns only its conditions read, dropped once they have
  if (!ExecuteGet(op, false, &read, error) ||
      !FilterRows(read, *JoinAnd(std::move(conditions)), &input.selection, error)) {
    return false;
  }
  std::vector<size_t> kept(op->columns.size());
  for (size_t k = 0; k < kept.size(); ++k) kept[k] = k;
  std::string message;
  if (!ShareColumns(read, kept, &input.relation, &message)) {
    *error = Result::Error(message);
    return false;
  }
  input.all = false;
  if (analyze) {
    op->analyzed = true;
    op->actual_rows = input.selection.size();
    op->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  return true;
}

bool QueryTreeRunner::FilterJoinsChain(const LogicalOperator& op) {
  if (op.kind != LogicalKind::kFilter || op.children.size() != 1 || op.conditions.empty()) return false;
  const LogicalOperator& join = *op.children[0];
  if (!IsChainJoin(join, true)) return false;
  if (KeepsBuildRows(join) && !join.using_columns.empty()) return false;
  for (const sql::ExprPtr& condition : op.conditions) {
    bool unknown = false;
    plan::ReadsOf(condition.get(), {&join.scope}, &unknown);
    if (unknown) return false;
  }
  return true;
}

bool QueryTreeRunner::ExecuteJoinChain(LogicalOperator* top, bool analyze, Relation* out, Result* error,
                                       LogicalOperator* filter) {
  // The output columns the SELECT's clauses name, when they read this chain (RunPlan): taken
  // now, before the inputs run queries of their own.
  std::vector<uint8_t> gather;
  if (top == read_by_clauses_op_ && filter == nullptr && read_by_clauses_.size() == top->scope.size()) {
    gather = std::move(read_by_clauses_);
  }
  // Their aggregation, offered as the probe pipeline's sink (query_aggregate_sink.cc).
  AggregateSinkOffer* offer = top == read_by_clauses_op_ && filter == nullptr ? aggregate_sink_offer_ : nullptr;
  aggregate_sink_offer_ = nullptr;
  // Or their ORDER BY ... LIMIT, choosing the rows before the SELECT list's columns are gathered.
  const TopRowsOffer* top_rows = top == read_by_clauses_op_ && filter == nullptr ? top_rows_offer_ : nullptr;
  top_rows_offer_ = nullptr;
  read_by_clauses_op_ = nullptr;
  std::vector<LogicalOperator*> ops;
  LogicalOperator* op = top;
  while (IsChainJoin(*op, op == top)) {
    ops.insert(ops.begin(), op);
    op = op->children[0].get();
  }
  std::vector<ChainInput> inputs(ops.size() + 1);
  if (!ExecuteChainInput(op, analyze, &inputs[0], error)) return false;
  std::string message;
  std::vector<ChainJoin> joins(ops.size());
  // The build pipelines: each build side made, its keys cast to the shared types, its table built.
  for (size_t j = 0; j < ops.size(); ++j) {
    ChainJoin& join = joins[j];
    join.op = ops[j];
    const auto start = std::chrono::steady_clock::now();
    ScopedSpan span(ctx_.profiler, 0, "hash join build", "pipeline");
    ChainInput& build = inputs[j + 1];
    if (!ExecuteChainInput(join.op->children[1].get(), analyze, &build, error)) return false;
    const plan::ColumnScope& probe_scope = join.op->children[0]->scope;
    size_t probe_width = 0;
    for (size_t t = 0; t <= j; ++t) probe_width += inputs[t].relation.table->num_columns();
    if (probe_width != probe_scope.size()) {
      *error = Result::Error("internal error: a join's inputs do not match its plan");
      return false;
    }
    // Build keys over the kept rows: a key expression over a filtered scan is evaluated on
    // those rows alone (an excluded row could fail it), so such a side is cut first.
    bool plain = true;
    for (const sql::ExprPtr& k : join.op->right_keys) plain = plain && LocateColumn(build.relation.scope, *k) >= 0;
    if (!build.all && !plain) {
      if (!KeepRelationRows(&build.relation, build.selection, &message, &ctx_)) {
        *error = Result::Error(message);
        return false;
      }
      build.selection = {};
      build.all = true;
    }
    {
      auto keys = std::make_shared<Table>();
      for (size_t k = 0; k < join.op->right_keys.size(); ++k) {
        Column key;
        const int at = plain ? LocateColumn(build.relation.scope, *join.op->right_keys[k]) : -1;
        if (at >= 0) {
          const Column& column = build.relation.table->column(static_cast<size_t>(at));
          if (!(build.all ? ShareColumn(column, build.relation.table, &key, &message)
                          : GatherRows(column, build.selection, &key, &message))) {
            *error = Result::Error(message);
            return false;
          }
        } else {
          Result value;
          if (!Evaluate(build.relation, {join.op->right_keys[k].get()}, &value)) {
            *error = std::move(value);
            return false;
          }
          key = std::move(value.ReleaseColumns()[0]);
        }
        if (!keys->AddColumn(RelationColumnName(k), std::move(key), &message)) {
          *error = Result::Error(message);
          return false;
        }
        join.build_keys.scope.push_back(plan::ScopeColumn{"", RelationColumnName(k), false});
      }
      join.build_keys.table = std::move(keys);
    }
    // Probe keys: where each comes from, and its type; both sides cast to the shared type.
    std::vector<TypeId> types;
    for (size_t k = 0; k < join.op->left_keys.size(); ++k) {
      ProbeKey key;
      TypeId type;
      const int at = LocateColumn(probe_scope, *join.op->left_keys[k]);
      if (at >= 0) {
        size_t t = 0, c = static_cast<size_t>(at);
        while (c >= inputs[t].relation.table->num_columns()) c -= inputs[t++].relation.table->num_columns();
        key.input = static_cast<int>(t);
        key.column = c;
        type = KeyType(inputs[t].relation.table->column(c).type());
      } else {
        // Its type, from the expression over no rows.
        MorselRows none;
        none.rows.resize(j + 1);
        Relation empty;
        Result value;
        if (!MaterializeMorsel(inputs, j + 1, none, probe_scope, &empty, &message)) {
          *error = Result::Error(message);
          return false;
        }
        if (!Evaluate(empty, {join.op->left_keys[k].get()}, &value)) {
          *error = std::move(value);
          return false;
        }
        type = KeyType(value.column(0).type());
        key.expr = sql::Clone(*join.op->left_keys[k]);
      }
      const TypeId shared = CommonSuperType(type, join.build_keys.table->column(k).type());
      types.push_back(shared);
      if (shared != type) {
        if (key.expr) {
          key.expr = CastExpr(shared, std::move(key.expr));
        } else {
          // The whole input's column cast once (a widening that cannot fail on any row).
          Relation one;
          if (!ShareColumns(inputs[key.input].relation, {key.column}, &one, &message)) {
            *error = Result::Error(message);
            return false;
          }
          if (!CastColumns(&one, {shared}, error, join.op->pos)) return false;
          key.cast = one.table;
        }
      }
      join.probe_keys.push_back(std::move(key));
    }
    if (!CastColumns(&join.build_keys, types, error, join.op->pos)) return false;
    std::vector<const Column*> build_columns;
    for (size_t k = 0; k < types.size(); ++k) build_columns.push_back(&join.build_keys.table->column(k));
    if (!join.table.Build(build_columns, ctx_, &message)) {
      *error = Result::Error(message);
      return false;
    }
    span.counters().rows = join.table.rows();
    span.counters().partitions = join.table.partitions();
    if (!join.op->conditions.empty()) {
      std::vector<sql::ExprPtr> clones;
      for (const sql::ExprPtr& c : join.op->conditions) clones.push_back(sql::Clone(*c));
      join.residual = JoinAnd(std::move(clones));
    }
    join.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  size_t width = 0;
  for (const ChainInput& input : inputs) width += input.relation.table->num_columns();
  if (width != top->scope.size()) {
    *error = Result::Error("internal error: a join's inputs do not match its plan");
    return false;
  }
  // A FILTER above the chain: its conditions cut each morsel's rows after the last join.
  sql::ExprPtr filter_condition;
  if (filter != nullptr) {
    std::vector<sql::ExprPtr> clones;
    for (const sql::ExprPtr& c : filter->conditions) clones.push_back(sql::Clone(*c));
    filter_condition = JoinAnd(std::move(clones));
  }
  // Min/max runtime filters (join_range_skip.h): a join that drops probe rows without a pair,
  // probed by a column of the source as it is, lets the source's blocks outside its build keys'
  // range go unread.
  JoinRangeSkip range_skip;
  for (ChainJoin& join : joins) {
    const sql::JoinType type = join.op->join_type;
    if (type != sql::JoinType::kInner && type != sql::JoinType::kRight) continue;
    for (size_t k = 0; k < join.probe_keys.size(); ++k) {
      const ProbeKey& key = join.probe_keys[k];
      int64_t min = 0, max = 0;
      if (key.input != 0 || key.cast || key.expr || !join.build_keys.table->column(k).IntegerRange(&min, &max)) {
        continue;
      }
      range_skip.Add(inputs[0].relation.table->column(key.column), min, max);
    }
  }
  // (input, column) per output column: those the clauses above name (at least one, which
  // carries the row count), else all. TPC-H's join keys are rarely read above their joins.
  std::vector<std::pair<size_t, size_t>> columns;
  plan::ColumnScope scope;
  for (size_t t = 0, k = 0; t < inputs.size(); ++t) {
    for (size_t c = 0; c < inputs[t].relation.table->num_columns(); ++c, ++k) {
      if (!gather.empty() && !gather[k]) continue;
      columns.emplace_back(t, c);
      scope.push_back(top->scope[k]);
    }
  }
  if (columns.empty()) {
    columns.emplace_back(0, 0);
    scope.push_back(top->scope[0]);
  }
  // The sink: the SELECT's aggregation when offered and it can be one, bound over the output
  // columns (one row of each: NULL where the chain can make it NULL, so that the plan allows
  // for NULLs where the joined rows may hold them).
  Relation schema;
  plan::Plan sink_plan;
  std::unique_ptr<JoinAggregateSink> sink;
  if (offer != nullptr && !MakeSinkSchema(inputs, joins, columns, scope, &schema, &message)) {
    *error = Result::Error(message);
    return false;
  }
  if (offer != nullptr) OpenAggregateSink(*offer->clauses, schema, ctx_.ThreadsAvailable(), &sink_plan, &sink);
  // The probe pipeline.
  const auto probe_start = std::chrono::steady_clock::now();
  const size_t source_rows = inputs[0].rows();
  const size_t morsels = (source_rows + kProbeMorselRows - 1) / kProbeMorselRows;
  // Its parts: the source's morsels, then the tails (below), each part's rows in order.
  std::vector<MorselRows> parts(morsels);
  std::vector<std::vector<size_t>> rows_after(morsels, std::vector<size_t>(joins.size(), 0));
  std::vector<Result> part_errors(morsels);
  // Per part and join, only when profiling: each part counts into its own entries.
  const bool profiling = ctx_.profiler != nullptr;
  std::vector<std::vector<JoinMorselCounts>> counts(profiling ? morsels : 0,
                                                    std::vector<JoinMorselCounts>(joins.size()));
  // Engine calls inside a part (residuals, key expressions, casts) run on its thread alone.
  ExecContext single = ctx_;
  single.pool = nullptr;
  single.threads = 1;
  single.profiler = nullptr;
  const int threads = ThreadsFor(source_rows, ctx_.ThreadsAvailable(), ctx_.min_parallel_rows);
  // A RIGHT or FULL join: which of its build rows have a pair (set by any thread).
  std::vector<std::unique_ptr<std::atomic<uint8_t>[]>> paired_build(joins.size());
  for (size_t j = 0; j < joins.size(); ++j) {
    if (KeepsBuildRows(*joins[j].op)) paired_build[j].reset(new std::atomic<uint8_t>[inputs[j + 1].rows()]());
  }
  // Part p's rows in `state` through joins [first, ...) and the FILTER above, into parts[p]. A
  // source morsel (first 0) is rows [begin, end) of the source.
  auto run_joins = [&](size_t p, int thread, size_t first, size_t begin, size_t end, MorselRows state,
                       std::string* task_error) {
    QueryTreeRunner local(catalog_, single);
    for (size_t j = first; j < joins.size() && state.count != 0; ++j) {
      ChainJoin& join = joins[j];
      const plan::ColumnScope& probe_scope = join.op->children[0]->scope;
      MatchPairs pairs;
      JoinMorselCounts* counted = profiling ? &counts[p][j] : nullptr;
      JoinProbeCounts* probe_counts = counted != nullptr ? &counted->probe : nullptr;
      if (counted != nullptr) counted->probed = state.count;
      // The first probe of a source read whole and uncast: its key columns probed where they lie.
      bool in_place = j == 0 && inputs[0].all;
      for (const ProbeKey& key : join.probe_keys) in_place = in_place && key.input == 0 && !key.cast;
      if (in_place) {
        std::vector<const Column*> columns;
        for (const ProbeKey& key : join.probe_keys) columns.push_back(&inputs[0].relation.table->column(key.column));
        if (!join.table.Probe(columns, begin, end, &pairs, task_error, probe_counts)) return false;
      }
      std::vector<Column> keys(in_place ? 0 : join.probe_keys.size());
      Relation whole;
      for (size_t k = 0; k < keys.size(); ++k) {
        const ProbeKey& key = join.probe_keys[k];
        if (key.input >= 0) {
          const ChainInput& in = inputs[static_cast<size_t>(key.input)];
          const Column& column = key.cast ? key.cast->column(0) : in.relation.table->column(key.column);
          if (!GatherAt(in, column, state.rows[static_cast<size_t>(key.input)], &keys[k], task_error)) return false;
          continue;
        }
        if (whole.table == nullptr && !MaterializeMorsel(inputs, j + 1, state, probe_scope, &whole, task_error)) {
          return false;
        }
        Result value;
        if (!local.Evaluate(whole, {key.expr.get()}, &value)) {
          *task_error = value.error();
          part_errors[p] = std::move(value);
          return false;
        }
        keys[k] = std::move(value.ReleaseColumns()[0]);
      }
      std::vector<const Column*> probe_columns;
      for (const Column& key : keys) probe_columns.push_back(&key);
      if (!in_place && !join.table.Probe(probe_columns, 0, state.count, &pairs, task_error, probe_counts)) return false;
      // Compose: every input's rows at the pairs' probe positions, and the build rows.
      const bool left_join = join.op->join_type == sql::JoinType::kLeft || join.op->join_type == sql::JoinType::kFull;
      std::vector<std::vector<uint32_t>> before_probe;
      if (left_join) before_probe = state.rows;
      std::vector<uint32_t> origin = pairs.probe_rows;  // the probe position of each row
      const size_t probed = state.count;
      for (size_t t = 0; t <= j; ++t) {
        std::vector<uint32_t> next(pairs.size());
        const std::vector<uint32_t>& before = state.rows[t];
        for (size_t i = 0; i < pairs.size(); ++i) next[i] = before[pairs.probe_rows[i]];
        state.rows[t] = std::move(next);
      }
      state.rows[j + 1] = std::move(pairs.build_rows);
      state.count = state.rows[j + 1].size();
      if (join.residual && state.count != 0) {
        // A residual condition reads the joined rows: made whole for it, then cut by it.
        Relation candidates;
        if (!MaterializeMorsel(inputs, j + 2, state, join.op->scope, &candidates, task_error)) return false;
        std::vector<uint32_t> keep;
        Result failure;
        if (!local.FilterRows(candidates, *join.residual, &keep, &failure)) {
          *task_error = failure.error();
          part_errors[p] = std::move(failure);
          return false;
        }
        for (size_t t = 0; t <= j + 1; ++t) {
          std::vector<uint32_t> next(keep.size());
          for (size_t i = 0; i < keep.size(); ++i) next[i] = state.rows[t][keep[i]];
          state.rows[t] = std::move(next);
        }
        std::vector<uint32_t> kept_origin(keep.size());
        for (size_t i = 0; i < keep.size(); ++i) kept_origin[i] = origin[keep[i]];
        origin = std::move(kept_origin);
        state.count = keep.size();
      }
      if (counted != nullptr) counted->matches = state.count;
      if (paired_build[j] != nullptr) {
        for (const uint32_t b : state.rows[j + 1]) paired_build[j][b].store(1, std::memory_order_relaxed);
      }
      if (left_join) {
        // A LEFT join's probe rows without a pair (after the residual) once, the build side
        // missing (NULL when gathered).
        std::vector<uint8_t> paired(probed, 0);
        for (const uint32_t o : origin) paired[o] = 1;
        for (size_t r = 0; r < probed; ++r) {
          if (paired[r]) continue;
          for (size_t t = 0; t <= j; ++t) state.rows[t].push_back(before_probe[t][r]);
          state.rows[j + 1].push_back(kNoRow);
        }
        state.count = state.rows[j + 1].size();
      }
      rows_after[p][j] = state.count;
    }
    auto filter_on_thread = [&](const Relation& rows, std::vector<uint32_t>* keep, Result* failure) {
      return local.FilterRows(rows, *filter_condition, keep, failure);
    };
    if (filter_condition && state.count != 0 &&
        !CutByFilter(inputs, top->scope, filter_on_thread, &state, task_error, &part_errors[p])) {
      return false;
    }
    if (sink != nullptr) {  // folded in now, on this thread: only the count is kept
      parts[p].count = state.count;
      if (state.count == 0) return true;
      std::vector<Column> part(columns.size());
      for (size_t k = 0; k < columns.size(); ++k) {
        const auto [t, c] = columns[k];
        if (!GatherAt(inputs[t], inputs[t].relation.table->column(c), state.rows[t], &part[k], task_error)) {
          return false;
        }
      }
      return sink->Consume(thread, p, std::move(part), task_error);
    }
    if (state.count == 0) {
      for (std::vector<uint32_t>& rows : state.rows) rows.clear();
    }
    parts[p] = std::move(state);
    return true;
  };
  auto run_morsel = [&](size_t m, int thread, std::string* task_error) {
    ScopedSpan morsel_span(ctx_.profiler, thread, "probe morsel", "probe");
    MorselRows state;
    state.rows.resize(inputs.size());
    size_t begin = m * kProbeMorselRows, end = std::min(source_rows, begin + kProbeMorselRows);
    if (!range_skip.empty()) {
      const size_t cut = range_skip.Trim(inputs[0], &begin, &end);
      if (profiling) counts[m][0].skipped = cut;
    }
    state.rows[0].resize(end - begin);
    for (size_t r = begin; r < end; ++r) state.rows[0][r - begin] = static_cast<uint32_t>(r);
    state.count = end - begin;
    return run_joins(m, thread, 0, begin, end, std::move(state), task_error);
  };
  // The first failure among the parts from `first` (an engine's error as it is), else `message`.
  auto fail = [&](size_t first) {
    for (size_t p = first; p < part_errors.size(); ++p) {
      if (!part_errors[p].ok() && !part_errors[p].error().empty()) {
        *error = std::move(part_errors[p]);
        return false;
      }
    }
    *error = Result::Error(message);
    return false;
  };
  // One span per join, each covering the whole pipeline: the joins run fused, part by part, so
  // no join has a time of its own; each has its own counts.
  const uint64_t span_start = profiling ? ctx_.profiler->Now() : 0;
  if (!RunTasks(ctx_, threads, morsels, run_morsel, &message)) return fail(0);
  // The tails, join by join upwards: once every row below a RIGHT or FULL join has probed it
  // (the source's morsels and the tails of the joins below), its build rows without a pair
  // follow in build order, every input below it missing (NULL when gathered), through the
  // joins above it and the FILTER, in parts of a morsel's rows.
  for (size_t j = 0; j < joins.size(); ++j) {
    if (paired_build[j] == nullptr) continue;
    std::vector<uint32_t> unpaired;
    for (size_t b = 0; b < inputs[j + 1].rows(); ++b) {
      if (!paired_build[j][b].load(std::memory_order_relaxed)) unpaired.push_back(static_cast<uint32_t>(b));
    }
    paired_build[j].reset();
    const size_t first = parts.size();
    const size_t tails = (unpaired.size() + kProbeMorselRows - 1) / kProbeMorselRows;
    parts.resize(first + tails);
    rows_after.resize(first + tails, std::vector<size_t>(joins.size(), 0));
    part_errors.resize(first + tails);
    if (profiling) counts.resize(first + tails, std::vector<JoinMorselCounts>(joins.size()));
    auto run_tail = [&](size_t c, int thread, std::string* task_error) {
      ScopedSpan tail_span(ctx_.profiler, thread, "probe tail", "probe");
      const size_t begin = c * kProbeMorselRows, end = std::min(unpaired.size(), begin + kProbeMorselRows);
      MorselRows state;
      state.rows.resize(inputs.size());
      state.count = end - begin;
      for (size_t t = 0; t <= j; ++t) state.rows[t].assign(state.count, kNoRow);
      state.rows[j + 1].assign(unpaired.begin() + static_cast<std::ptrdiff_t>(begin),
                               unpaired.begin() + static_cast<std::ptrdiff_t>(end));
      rows_after[first + c][j] = state.count;  // the join's rows
      return run_joins(first + c, thread, j + 1, 0, 0, std::move(state), task_error);
    };
    const int tail_threads = ThreadsFor(unpaired.size(), ctx_.ThreadsAvailable(), ctx_.min_parallel_rows);
    if (!RunTasks(ctx_, tail_threads, tails, run_tail, &message)) return fail(first);
  }
  if (profiling) {
    const uint64_t span_end = ctx_.profiler->Now();
    for (size_t j = 0; j < joins.size(); ++j) {
      ProfileCounters c;
      c.build = joins[j].table.rows();
      c.partitions = joins[j].table.partitions();
      for (const std::vector<JoinMorselCounts>& part : counts) {
        c.rows += part[j].probed;
        c.filtered += part[j].probe.filtered;
        c.skipped += part[j].skipped;
        c.probes += part[j].probe.looked_up;
        c.matches += part[j].matches;
      }
      ctx_.profiler->AddSpan(0, "hash join probe", "pipeline", span_start, span_end, c);
    }
  }
  std::vector<size_t> part_begin(parts.size() + 1, 0);
  for (size_t p = 0; p < parts.size(); ++p) part_begin[p + 1] = part_begin[p] + parts[p].count;
  const size_t total = part_begin.back();
  auto note_analysis = [&] {
    if (!analyze) return;
    const double probe_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - probe_start).count();
    for (size_t j = 0; j < joins.size(); ++j) {
      size_t rows = 0;
      for (const std::vector<size_t>& after : rows_after) rows += after[j];
      joins[j].op->analyzed = true;
      joins[j].op->actual_rows = rows;
      // Each join's build; the probe pipeline (all joins at once) on the top one.
      joins[j].op->seconds = joins[j].seconds + (j + 1 == joins.size() ? probe_seconds : 0);
    }
    if (filter != nullptr) {
      // Fused into the probe pipeline: its rows, and no time of its own.
      filter->analyzed = true;
      filter->actual_rows = total;
      filter->seconds = 0;
    }
  };
  if (sink != nullptr) {
    // The aggregation took every part: its groups merged and its answer made.
    offer->result = sink->Finish();
    offer->taken = true;
    sunk_op_ = top;
    sunk_rows_ = total;
    *out = std::move(schema);
    note_analysis();
    return true;
  }
  // The sink: the morsels' rows in morsel order, each input's rows in its table.
  std::vector<std::vector<uint32_t>> physical(inputs.size(), std::vector<uint32_t>(total));
  // Each morsel's rows into their place in each input's list, a task per (input, morsel): on one
  // thread this was a pass over every output row per input after the parallel probe.
  auto place = [&](size_t k, int, std::string*) {
    const size_t t = k / parts.size(), p = k % parts.size();
    uint32_t* to = physical[t].data() + part_begin[p];
    const std::vector<uint32_t>& from = parts[p].rows[t];
    for (size_t i = 0; i < parts[p].count; ++i) to[i] = inputs[t].Physical(from[i]);
    return true;
  };
  const int place_threads = total < ctx_.min_parallel_rows ? 1 : ctx_.ThreadsAvailable();
  if (!RunTasks(ctx_, place_threads, inputs.size() * parts.size(), place, &message)) {
    *error = Result::Error(message);
    return false;
  }
  parts = {};
  // ORDER BY ... LIMIT above: the rows it keeps chosen first, the rest gathered for them alone.
  size_t kept = total;
  if (top_rows != nullptr && total > static_cast<size_t>(top_rows->keep)) {
    std::vector<uint32_t> chosen;
    bool cut = false;
    if (!ChooseTopRows(*top_rows, inputs, top->scope, physical, total, &chosen, &cut, error)) return false;
    if (cut) {
      for (std::vector<uint32_t>& rows : physical) {
        std::vector<uint32_t> picked(chosen.size());
        for (size_t i = 0; i < chosen.size(); ++i) picked[i] = rows[chosen[i]];
        rows = std::move(picked);
      }
      kept = chosen.size();
      sunk_op_ = top;  // EXPLAIN ANALYZE: the join's rows, not those kept
      sunk_rows_ = total;
    }
  }
  std::vector<Column> gathered;
  {
    ScopedSpan span(ctx_.profiler, 0, "hash join gather", "pipeline");
    std::vector<GatherJob> jobs;
    for (const auto& [t, c] : columns) jobs.push_back(GatherJob{&inputs[t].relation.table->column(c), &physical[t]});
    ExecContext gather_ctx = ctx_;
    if (kept < ctx_.min_parallel_rows) gather_ctx.threads = 1;
    if (!GatherColumnsOnThreads(gather_ctx, jobs, &gathered, &message)) {
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
  out->table = std::move(table);
  out->scope = std::move(scope);
  note_analysis();
  return true;
}

}  // namespace exec
}  // namespace laneql
