// Runs a parsed query of any shape: WITH, set operations, VALUES, subqueries in FROM and in
// expressions, views, joins. A SELECT over one table (or file) with nothing of these goes
// straight to the single-table engine (binder -> Plan -> executor), as before; anything else is
// evaluated bottom-up, each source made into a Relation first, and the SELECT on top then runs
// on the single-table engine over that relation. Uncorrelated subqueries in expressions run
// once, and their answers go into the query as literals.
#ifndef LANEQL_EXEC_QUERY_TREE_H_
#define LANEQL_EXEC_QUERY_TREE_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "laneql/result.h"
#include "src/exec/catalog.h"
#include "src/exec/exec_context.h"
#include "src/exec/relation.h"
#include "src/plan/aggregate_functions.h"
#include "src/plan/bound_expr.h"
#include "src/plan/logical_operator.h"
#include "src/plan/query_ast.h"
#include "src/sql/ast.h"

namespace laneql {
namespace exec {

struct WindowCall;  // window_functions.h

// The syntax-tree helpers (plan/query_ast.h) the runner uses unqualified.
using plan::ContainsAggregate;
using plan::ErrorAt;
using plan::FindAnySubquery;
using plan::JoinAnd;
using plan::MakeBinary;
using plan::MakeColumnRef;
using plan::SplitAnd;

struct ChainInput;  // query_join_chain.cc
class JoinAggregateSink;  // join_aggregate_sink.h

// Plan-tree helpers (query_plan.cc). A Get reading `relation` (made while planning), named
// `source` in EXPLAIN.
plan::LogicalPtr GetOver(const Relation& relation, std::string source);
// A SELECT clause operator above `child` (null: the SELECT has no FROM).
plan::LogicalPtr Clause(plan::LogicalKind kind, plan::LogicalPtr child);
// ORDER BY and LIMIT / OFFSET clause operators above `top`, where the query has them.
plan::LogicalPtr OrderAndLimitClauses(plan::LogicalPtr top, const std::vector<sql::OrderItem>& order_by,
                                      bool order_by_all, bool has_limit, int64_t limit, bool has_offset,
                                      int64_t offset);

class QueryTreeRunner {
 public:
  QueryTreeRunner(Catalog* catalog, const ExecContext& ctx) : catalog_(catalog), ctx_(ctx) {}

  // The answer of `query`, or an error Result.
  Result Run(const sql::QueryNode& query);
  // `query` bound and checked over no rows (as EXPLAIN does), to learn cheaply whether it reads
  // names of an outer query: where that run fails on a name, a real one fails on it too (a run
  // over rows hides no more names: x IN (an empty answer) is FALSE without reading x).
  Result RunDry(const sql::QueryNode& query);
  // The same as a relation (its columns named by the query's output names, qualified by
  // `qualifier`); false with *error set.
  bool RunToRelation(const sql::QueryNode& query, const std::string& qualifier, Relation* out,
                     Result* error);
  // EXPLAIN [ANALYZE] `query`: the optimized logical plan as text, one operator a line
  // (query_execute.cc); with `analyze` the query runs and each line gets its rows and time.
  bool ExplainQuery(const sql::QueryNode& query, bool analyze, std::string* text, Result* error);
  // `relation` with column i cast to types[i] where they differ (INSERT's conversions).
  bool CastTo(Relation* relation, const std::vector<TypeId>& types, sql::SourcePos pos,
              Result* error) {
    return CastColumns(relation, types, error, pos);
  }

 private:
  struct CteEntry {
    std::string name;
    Relation relation;
    std::string plan_text;  // under EXPLAIN: how it was made
    bool keep_qualifiers = false;  // its columns keep their own qualifiers where it is read
  };

  Result RunSelect(const sql::SelectStatement& select);
  // An aggregate query with correlated subqueries in its SELECT list or HAVING: grouped first,
  // the rest over the groups (query_aggregate_subqueries.cc).
  Result RunAggregateThenSubqueries(const sql::SelectStatement& select);
  // Its first level: the groups made into the CTE __agg_groups (pushed on ctes_; the caller
  // pops it) and *outer, the rest of the query over them, HAVING as its WHERE.
  bool GroupFirst(const sql::SelectStatement& select, sql::SelectStatement* outer, Result* error);
  // A SELECT with window calls, WINDOW or QUALIFY (query_windows.cc): its rows below the windows
  // made into a relation (grouped first when it aggregates), each window call evaluated into a
  // column of it, then the SELECT list, QUALIFY (as WHERE), DISTINCT, ORDER BY and LIMIT over it.
  Result RunWindows(const sql::SelectStatement& select);
  // One window call (its named window spelled out) over `rows`: its column of values
  // (`top_rows`: see WindowCall::top_rows).
  bool EvaluateWindowCall(const Relation& rows, const sql::Expr& call, size_t top_rows, Column* out, Result* error);
  // A library aggregate (median, string_agg, ...) as a window function: its arguments typed and
  // cast as the binder types them (into *cast_args, which spec->args then point into), its
  // fraction or separator read, *aggregate describing it. *always_null: a NULL separator.
  bool LibraryWindowCall(const Relation& rows, const sql::Expr& call, const plan::AggregateFunctionInfo& info,
                         WindowCall* spec, plan::Aggregate* aggregate, Result* cast_args, bool* always_null,
                         Result* error);
  // WITH RECURSIVE (query_recursive.cc): a CTE whose query is anchor UNION [ALL] step, the step
  // naming the CTE; the step runs over the rows the last round added until it adds none.
  static bool IsRecursive(const sql::CommonTableExpr& cte);
  bool RunRecursive(const sql::CommonTableExpr& cte, Relation* out, Result* error);
  // SELECT DISTINCT ON (keys) ...: the first row of each key in the query's order.
  Result RunDistinctOn(const sql::SelectStatement& select);
  // A set operation (query_sets.cc) as a tree: a SET OPERATION operator over its two branches,
  // each a Get of the branch run now, or (a set operation without WITH, ORDER BY or LIMIT of
  // its own) the branch's own SET OPERATION; ORDER BY / LIMIT of the whole above it.
  Result RunSetOperation(const sql::QueryNode& query);
  bool PlanSetOperation(const sql::QueryNode& query, plan::LogicalPtr* out, Result* error);
  bool PlanSetBranch(const sql::QueryNode& branch, plan::LogicalPtr* out, Result* error);
  // A SET OPERATION operator's rows: both inputs cast to their common column types, then
  // combined (UNION, INTERSECT, EXCEPT; ALL keeps duplicates as multisets).
  bool ExecuteSetOperation(plan::LogicalOperator* op, bool analyze, Relation* out, Result* error);
  Result RunValues(const std::vector<std::vector<sql::ExprPtr>>& rows, sql::SourcePos pos);
  // ORDER BY / LIMIT / OFFSET of a set operation or VALUES list over its combined rows.
  Result ApplyModifiers(const sql::QueryNode& query, Relation relation);
  bool ExplainParts(const sql::QueryNode& query, bool analyze, std::string* text, Result* error);
  // A SELECT's plan (query_plan.cc): the logical tree of its FROM, WHERE and clauses, optimized,
  // and the clauses as the single-table engine runs them over the FROM tree's relation.
  struct SelectPlan {
    plan::LogicalPtr root;
    sql::SelectStatement clauses;  // WHERE moved into the tree
    bool plain = false;            // one table as it is: the single-table engine reads it itself
  };
  bool PlanSelect(const sql::SelectStatement& select, SelectPlan* out, Result* error);
  // A FROM item as a logical tree: a base table as a Get, a join as a Join of its sides, and
  // anything else (CTE, view, subquery, file, VALUES) made into a table now, under a Get.
  bool PlanFrom(const sql::TableRef& ref, plan::LogicalPtr* out, Result* error);
  bool PlanJoin(const sql::TableRef& ref, plan::LogicalPtr* out, Result* error);
  // The subqueries of a join's ON conditions: uncorrelated ones run once; a correlated one is
  // unnested into the side it reads, or (inner joins) moved to *over_join, above the join.
  bool PlanOnSubqueries(plan::LogicalPtr* left, plan::LogicalPtr* right,
                        std::vector<sql::ExprPtr>* conjuncts, std::vector<sql::ExprPtr>* over_join, Result* error);
  // GROUP BY ALL and ORDER BY ALL spelled out.
  static void ExpandAllClauses(sql::SelectStatement* select);
  // Runs a plan (query_execute.cc); with `analyze` each operator records its rows and time.
  Result RunPlan(SelectPlan* select_plan, bool analyze);
  bool ExecuteLogical(plan::LogicalOperator* op, bool analyze, Relation* out, Result* error);
  // The SELECT's aggregation offered to the join chain beneath it as its probe pipeline's sink
  // (query_aggregate_sink.cc); `taken` and the answer when the chain took it.
  struct AggregateSinkOffer {
    const sql::SelectStatement* clauses = nullptr;
    bool taken = false;
    Result result;
  };
  // The SELECT's ORDER BY ... LIMIT over the join chain beneath it (query_top_rows.cc), offered
  // so that the chain gathers the columns the SELECT list alone reads only for the rows kept:
  // `first_pass` (the WHERE, the ORDER BY keys resolved, LIMIT `keep`, over the columns `named`
  // marks in the chain's scope and a column of row positions) chooses them first.
  struct TopRowsOffer {
    sql::SelectStatement first_pass;
    std::vector<uint8_t> named;
    int64_t keep = 0;
  };
  // A chain of inner, LEFT, RIGHT and FULL equi-joins down op's left side (RIGHT / FULL with
  // USING only on top), as build and probe pipelines with late materialization
  // (query_join_chain.cc); under the SELECT's clauses (read_by_clauses_op_) it gathers only the
  // columns they name, or takes their aggregation as its sink (aggregate_sink_offer_: *out is
  // then one row of its output columns, the answer in the offer); with `filter`
  // (a FILTER whose child is `top`, FilterJoinsChain), its conditions cut each morsel's joined
  // rows before anything is gathered.
  bool ExecuteJoinChain(plan::LogicalOperator* top, bool analyze, Relation* out, Result* error,
                        plan::LogicalOperator* filter = nullptr);
  // Whether RunPlan offers `clauses` over the join `from` as the chain's sink: an aggregation
  // with nothing a relation made whole would be needed for (DISTINCT, subqueries, *).
  static bool OffersAggregateSink(const sql::SelectStatement& clauses, const plan::LogicalOperator& from);
  // Whether the chain's output can reach the clauses late: `from` is a join that ends a chain
  // whose output is made by the chain alone (not a RIGHT or FULL join with USING, whose merged
  // key is made afterwards).
  static bool ChainEndsAt(const plan::LogicalOperator& from);
  // Whether RunPlan offers `clauses` (ORDER BY ... LIMIT of a plain SELECT) over the join
  // `from` (its output named by `scope`) as a top-rows offer; *offer's first_pass and keep.
  static bool OffersTopRows(const sql::SelectStatement& clauses, const plan::LogicalOperator& from,
                            TopRowsOffer* offer);
  // The positions, among the `rows` rows of the chain's output (physical[t]: input t's rows),
  // of those the offer's first pass keeps, in its order (query_top_rows.cc). *chosen is left
  // empty, and true returned, when the first pass does not bind: the rows are then not cut.
  bool ChooseTopRows(const TopRowsOffer& offer, const std::vector<ChainInput>& inputs,
                     const plan::ColumnScope& scope, const std::vector<std::vector<uint32_t>>& physical,
                     size_t rows, std::vector<uint32_t>* chosen, bool* cut, Result* error);
  // The offered clauses bound over `schema` (the chain's output columns: one row, NULL in each
  // column the chain can make NULL) into *plan, and their sink on `threads` threads, when
  // JoinAggregateSink::Takes them; false (nothing made) when not.
  bool OpenAggregateSink(const sql::SelectStatement& clauses, const Relation& schema, int threads,
                         plan::Plan* plan, std::unique_ptr<JoinAggregateSink>* sink);
  // Whether the FILTER `op` can run as the last step of its child's join-chain pipeline: the
  // child is a chain join, the conditions read only its columns and hold no subquery, and no
  // RIGHT / FULL JOIN ... USING merges keys after the pipeline.
  static bool FilterJoinsChain(const plan::LogicalOperator& op);
  // A semi, anti or mark equi-join as a pipeline, the smaller side built (query_mark_join.cc).
  // With `kept`, a semi or anti join's answer may go there instead of *out, as the left side's
  // relation and the rows kept (nothing gathered); kept->relation.table is null when it did not.
  bool ExecuteMarkJoin(plan::LogicalOperator* op, bool analyze, Relation* out, Result* error,
                       ChainInput* kept = nullptr);
  // An input of a join chain: a filtered scan as its table's rows and its filter's selection
  // (nothing copied), a semi or anti join as its left side's rows and the ones it keeps, anything
  // else as ExecuteLogical makes it.
  bool ExecuteChainInput(plan::LogicalOperator* op, bool analyze, ChainInput* in, Result* error);
  // A RIGHT or FULL JOIN ... USING's visible keys made COALESCE(left, right), as DuckDB's.
  bool MergeUsingKeys(const plan::LogicalOperator& op, Relation* out, Result* error);
  // A Get's relation: its kept columns, filtered by its conditions when `with_conditions`.
  bool ExecuteGet(plan::LogicalOperator* op, bool with_conditions, Relation* out, Result* error);
  // The CTEs of `query` made into relations, visible to the query's parts until PopCtes.
  bool PushCtes(const sql::QueryNode& query, Result* error);
  void PopCtes() { ctes_.resize(cte_marks_.back()); cte_marks_.pop_back(); }
  // A FROM item other than a join made into a relation.
  bool MakeFrom(const sql::TableRef& ref, Relation* out, Result* error);
  // Joins two relations on key expressions (left_keys[i] = right_keys[i]) and an optional
  // residual condition, as `type` says (inner, left, right, full, semi, anti, cross).
  bool JoinRelations(const Relation& left, const Relation& right,
                     const std::vector<const sql::Expr*>& left_keys,
                     const std::vector<const sql::Expr*>& right_keys,
                     const sql::Expr* residual, sql::JoinType type, sql::SourcePos pos,
                     Relation* out, Result* error);
  // The pairs (left_rows[i], right_rows[i]) for which `residual` holds over the joined row, in
  // their order; with `product`, the pairs of left x right in left-major order instead (the
  // lists' contents ignored). Judged block by block on the query's threads
  // (query_join_residual.cc), so that only the kept pairs are held; `pos`: the join's, for errors.
  bool KeepPairsPassing(const Relation& left, const Relation& right, const sql::Expr& residual, bool product,
                        sql::SourcePos pos, std::vector<uint32_t>* left_rows, std::vector<uint32_t>* right_rows, Result* error);
  // A join without an equality whose `condition` bounds an expression of one side by
  // expressions of the other (BETWEEN, < / <= / > / >=): the pairs that can pass it, found by
  // sorting that side's values and searching each other row's bounds among them
  // (query_range_join.cc), left-major with right rows ascending. *found false (nothing done)
  // when the condition has no such bound, its values are not numbers or one temporal type, or
  // the pairs would be too many to hold.
  bool RangeJoinCandidates(const Relation& left, const Relation& right, const sql::Expr& condition,
                           std::vector<uint32_t>* left_rows, std::vector<uint32_t>* right_rows, bool* found,
                           Result* error);
  // A semi, anti or mark join's answer from which left rows matched (matched[l] != 0): the
  // left rows with / without a match, or every left row with the BOOLEAN mark.
  bool MarkedJoin(const Relation& left, const std::vector<uint8_t>& matched, sql::JoinType type, Relation* out,
                  Result* error);
  // The values of `exprs` over `relation`, one column each.
  bool Evaluate(const Relation& relation, const std::vector<const sql::Expr*>& exprs, Result* out);
  // The rows of `relation` where `predicate` is true, in order (the single-table engine's WHERE).
  bool FilterRows(const Relation& relation, const sql::Expr& predicate, std::vector<uint32_t>* rows,
                  Result* error);
  // Key columns of two join sides cast to their common types (CommonSuperType), in place.
  bool CommonKeyColumns(Relation* left, Relation* right, std::vector<const Column*>* left_columns,
                        std::vector<const Column*>* right_columns, Result* error);
  // `relation` without the rows where `predicate` is not true.
  bool Filter(Relation* relation, const sql::Expr& predicate, Result* error);
  // Replaces (uncorrelated) subqueries in `expr` by their answers.
  bool InlineSubqueries(sql::ExprPtr* expr, Result* error);
  // The same for a whole SELECT; the WHERE conjuncts whose subqueries read the outer query's
  // columns are moved to *correlated instead (for ApplyCorrelated).
  // Correlated scalar subqueries in SELECT items stay in place and their items' indexes go to
  // *correlated_items when it is given (for UnnestScalars once FROM is made).
  bool InlineSubqueries(sql::SelectStatement* select, std::vector<sql::ExprPtr>* correlated,
                        std::vector<size_t>* correlated_items, Result* error,
                        std::vector<size_t>* correlated_order = nullptr);
  // Correlated subqueries unnested into joins above *from (query_decorrelate.cc):
  // [NOT] EXISTS becomes a semi (anti) join on the correlating conditions; a scalar aggregate
  // becomes a LEFT JOIN to the aggregate grouped by the correlating keys, its value a column.
  // What remains of each WHERE conjunct filters above the joins.
  bool ApplyCorrelated(plan::LogicalPtr* from, std::vector<sql::ExprPtr> correlated, Result* error);
  bool UnnestScalars(plan::LogicalPtr* from, sql::ExprPtr* expr, Result* error);
  // The inner relation of an unnested scalar aggregate cut to the rows whose correlation keys
  // (inner_keys over *inner) some outer row has (outer_keys over *from), when the outer side is
  // estimated far smaller: *from is then made now and becomes a Get of its rows
  // (query_magic_set.cc).
  bool CutToOuterKeys(plan::LogicalPtr* from, const std::vector<sql::ExprPtr>& outer_keys,
                      const std::vector<sql::ExprPtr>& inner_keys, Relation* inner, Result* error);
  // A WHERE condition x [NOT] IN (subquery) whose subquery is not correlated, as a semi (anti)
  // join above *from (*done set; what else the condition needs goes to *leftover); a correlated
  // one is left (not done) for DecorrelateExpr.
  bool InSubqueryJoin(plan::LogicalPtr* from, sql::ExprPtr* conjunct, std::vector<sql::ExprPtr>* leftover,
                      bool* done, Result* error);
  // Every correlated subquery in *expr, of any form and anywhere in it, replaced by a column of a
  // join above *from: aggregates as UnnestScalars does, other scalars by a single join, EXISTS,
  // IN, ANY and ALL by mark joins (query_subquery_marks.cc).
  bool DecorrelateExpr(plan::LogicalPtr* from, sql::ExprPtr* expr, Result* error);
  // Any correlated subquery expression at *slot (scalar, EXISTS, IN, ANY / ALL, of any shape:
  // GROUP BY, LIMIT, WITH, set operations, correlation in derived tables or two levels out)
  // evaluated once per distinct binding of the outer columns it reads: *from is made into its
  // relation, which gets the answers as a column, and *slot becomes a reference to that column
  // (query_apply_bindings.cc). For the forms the joins of DecorrelateExpr do not unnest. False
  // with *error unchanged when *from cannot run yet (an ON clause's stand-in side).
  bool ApplyPerBinding(plan::LogicalPtr* from, sql::ExprPtr* slot, Result* error);
  // *inner cut to the rows `select`'s OFFSET and LIMIT keep of each correlation key (`keys`
  // over *inner), in the order of `order_exprs` (select's ORDER BY resolved, WithoutLimit);
  // rows with a NULL key go (query_first_rows.cc).
  // A correlated subquery of *slot whose only tie to *from's rows is equalities in its WHERE,
  // run once for every key (query_keyed_subquery.cc): *out holds its rows and key columns,
  // *conditions the equalities (outer expression = key column) and conditions on the outer row
  // alone, *value its one column (when it has one), *names (when given) the names of its
  // columns, which come first in *out (all hidden). *made false (nothing done) for any other
  // shape, or when it reads the outer query elsewhere.
  bool MakeKeyedRelation(const sql::QueryNode& query, const plan::ColumnScope& outer, Relation* out,
                         std::vector<sql::ExprPtr>* conditions, sql::ExprPtr* value, bool* made, Result* error,
                         std::vector<std::string>* names = nullptr);
  // *slot's subquery (EXISTS, a scalar, IN, ANY / ALL) over `inner`, its rows, tied to *from's
  // by `conditions`, as the joins of DecorrelateExpr; `item` its value over `inner`.
  bool JoinSubqueryRows(plan::LogicalPtr* from, sql::ExprPtr* slot, Relation inner,
                        std::vector<sql::ExprPtr> conditions, const sql::Expr* item, Result* error);
  // A correlated subquery run once for all the distinct bindings of the outer columns it reads
  // (query_binding_domain.cc): `rows` its rows (all columns hidden; `names` the SELECT's, first),
  // `outer` the outer rows with a binding number, `conditions` joining the two, `value` its one
  // column (a scalar's or IN's value). made false when the shape does not allow it (nothing
  // done).
  struct DomainRows {
    bool made = false;
    Relation rows, outer;
    std::vector<std::string> names;
    std::vector<sql::ExprPtr> conditions;
    sql::ExprPtr value;
    size_t bindings = 0;
  };
  bool RunOverDomain(const sql::QueryNode& query, const Relation& outer, DomainRows* out,
                     Result* error);
  // The domain `domain` (hidden columns `names`, then __bid) pushed into a subquery's parts that
  // read it (query_domain_push.cc). InlineCtes: a WITH (not RECURSIVE) made derived tables
  // where its names are read. JoinDomainIntoFrom: D joined to `select`'s FROM (its leftmost
  // leaf), D pushed into the derived tables there that read it and their __bid kept equal to
  // D's. PushDomainInto: a derived table's or set-operation branch's query yielding __bid last,
  // grouped by it where grouped. GroupByDomain: D's binding number (and its columns where the
  // grouped clauses read them) added to `select`'s GROUP BY. False: a shape left to the
  // per-binding path (the query then half changed: a copy's to drop).
  static bool InlineCtes(sql::QueryNode* query);
  static bool JoinDomainIntoFrom(sql::SelectStatement* select, const std::string& domain,
                                 const std::vector<std::string>& names, sql::SourcePos pos);
  static bool PushDomainInto(sql::QueryNode* query, const std::string& domain, const std::vector<std::string>& names);
  static void GroupByDomain(sql::SelectStatement* select, const std::string& domain,
                            const std::vector<std::string>& names, sql::SourcePos pos);
  bool KeepFirstRowsPerKey(Relation* inner, const std::vector<const sql::Expr*>& keys,
                           const std::vector<sql::ExprPtr>& order_exprs, const sql::SelectStatement& select,
                           Result* error);
  // `ref` (a join whose right side is a derived table reading columns of its left side, `left`:
  // LATERAL) made into a Get of the joined rows, the right side run per distinct binding.
  bool ApplyLateral(const sql::TableRef& ref, plan::LogicalPtr left, plan::LogicalPtr* out, Result* error);
  // *join (an outer, semi or anti join) whose ON also holds `correlated`, conditions with
  // correlated subqueries reading both sides: its sides made, the pairs passing the whole ON
  // found by an inner join with those conditions unnested above it, and the join's rows made
  // from those pairs (query_join_correlated_on.cc). *join becomes a Get of them.
  bool JoinOnCorrelated(plan::LogicalPtr* join, std::vector<sql::ExprPtr> correlated, Result* error);
  // A query run once per distinct binding of the outer columns it reads: `answers` holds every
  // binding's rows one after another (binding b's at [offsets[b], offsets[b + 1])) in the first
  // answer's types; binding[r] is outer row r's. Without outer rows it runs once on NULLs.
  struct BindingAnswers {
    Relation answers;
    std::vector<size_t> offsets;
    std::vector<uint32_t> binding;
    size_t bindings = 0;
    bool empty_outer = false;
  };
  bool RunPerBinding(const sql::QueryNode& query, const Relation& outer, BindingAnswers* out, Result* error);
  // *from optimized and run into *out (with its EXPLAIN text in *subplan when explaining);
  // *from is then empty, or left as it was on failure.
  bool MakeOuterRows(plan::LogicalPtr* from, Relation* out, std::string* subplan, Result* error);
  // A mark join of *from with `inner` above it; the reference to its BOOLEAN column.
  sql::ExprPtr AddMarkJoin(plan::LogicalPtr* from, const Relation& inner, std::vector<sql::ExprPtr> outer_keys,
                           std::vector<sql::ExprPtr> inner_keys, std::vector<sql::ExprPtr> residual,
                           sql::SourcePos pos);
  // The FROM and WHERE of a correlated subquery's SELECT made into its relation, with the
  // conjuncts that read the outer query (`outer`) returned in *conditions (names qualified).
  // `reads_select_list`: the SELECT list is evaluated over the relation (not for EXISTS); only
  // the columns it and the conditions name are kept.
  bool MakeInnerRelation(const sql::SelectStatement& inner, const plan::ColumnScope& outer,
                         bool reads_select_list, Relation* out,
                         std::vector<sql::ExprPtr>* conditions, Result* error);
  // The same as a plan (optimized, not run).
  bool PlanInnerRelation(const sql::SelectStatement& inner, const plan::ColumnScope& outer,
                         bool reads_select_list, plan::LogicalPtr* out,
                         std::vector<sql::ExprPtr>* conditions, Result* error);
  bool IsPlainSelect(const sql::SelectStatement& select);
  const Relation* FindCte(const std::string& name) const;
  const CteEntry* FindCteEntry(const std::string& name) const;
  // `predicate` bound as the WHERE of a plan over `relation` (its table columns checked).
  bool BindPredicateOver(const Relation& relation, const sql::Expr& predicate, plan::Plan* plan, Result* error);
  // Executes a bound SELECT over `relation` (or, when null, over what `select.from` names).
  Result BindAndExecute(const sql::SelectStatement& select, const Relation* relation);
  // `relation` with column i cast to types[i] where they differ.
  // Conversion errors point at `pos`.
  bool CastColumns(Relation* relation, const std::vector<TypeId>& types, Result* error,
                   sql::SourcePos pos = sql::SourcePos{});

  Catalog* catalog_;
  const ExecContext& ctx_;
  std::vector<CteEntry> ctes_;  // innermost last
  std::vector<size_t> cte_marks_;  // ctes_.size() before each PushCtes
  // Under EXPLAIN: the tables made while planning (subqueries, CTEs, views) keep the plan text of
  // their query for the Get that reads them (with ANALYZE, their measured rows and times).
  bool explaining_ = false;
  bool explain_analyze_ = false;
  bool dry_run_ = false;  // EXPLAIN: Gets yield no rows (the plan is bound and checked, not run)
  // RunPlan: the join chain whose output the SELECT's clauses read, and which of its scope's
  // columns they name (ExecuteJoinChain gathers only those); null: every column.
  const plan::LogicalOperator* read_by_clauses_op_ = nullptr;
  std::vector<uint8_t> read_by_clauses_;
  // RunPlan: the SELECT's clauses offered, with read_by_clauses_op_, to that join chain as its
  // probe pipeline's sink when they aggregate (AggregateSinkOffer); sunk_op_ / sunk_rows_: for
  // EXPLAIN ANALYZE, the chain that took them or cut its rows, and its joined rows.
  AggregateSinkOffer* aggregate_sink_offer_ = nullptr;
  const plan::LogicalOperator* sunk_op_ = nullptr;
  size_t sunk_rows_ = 0;
  // RunPlan: their ORDER BY ... LIMIT over that join chain (TopRowsOffer).
  TopRowsOffer* top_rows_offer_ = nullptr;
  std::string last_plan_text_;
  int view_depth_ = 0;
  int derived_count_ = 0;  // names the relations decorrelation adds (__sq1, __sq2, ...)
};

// Whether a SELECT has window calls (anywhere outside subqueries), WINDOW or QUALIFY: it runs
// through QueryTreeRunner::RunWindows (query_windows.cc).
bool HasWindows(const sql::SelectStatement& select);
// SELECT ... FROM (SELECT ..., row_number() OVER (...) AS rn FROM t) WHERE rn <= 3: the outer
// bounds on the derived table's row_number() copied into its QUALIFY (into *out; false when
// there are none), where they let the window number only the first rows of each partition. The
// derived table's windows are computed over all its rows before QUALIFY drops any, so QUALIFY
// keeps exactly the rows the outer WHERE would; a LIMIT, OFFSET or DISTINCT inside stops it.
bool PushRowNumberBounds(const sql::SelectStatement& select, sql::SelectStatement* out);

// DuckDB's type for a column that holds values of a and b (set operations, VALUES rows).
TypeId CommonSuperType(TypeId a, TypeId b);

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_QUERY_TREE_H_
