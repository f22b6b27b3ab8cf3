// The optimizer: rules that rewrite a logical plan (src/plan/logical_operator.h) without
// changing its answer, one rule per file, run in the order Optimize gives.
#ifndef LANEQL_OPTIMIZE_OPTIMIZER_H_
#define LANEQL_OPTIMIZE_OPTIMIZER_H_

#include "src/plan/bound_expr.h"
#include "src/plan/logical_operator.h"

namespace laneql {
namespace optimize {

// constant_folding.cc: conditions that are TRUE literals are dropped; a filter whose
// condition folds to FALSE or NULL keeps only that condition (no row passes it).
void FoldConstantConditions(plan::LogicalPtr* root);
// factor_or.cc: (a AND x) OR (a AND y) -> a AND (x OR y), so that a join equality repeated in
// every branch of an OR (TPC-H Q19) can become a hash-join key.
void FactorOrConditions(plan::LogicalPtr* root);
// filter_pushdown.cc: conditions move down through joins to the lowest operator that has every
// column they read: into the scans (Get), into inner joins as keys (equalities between the two
// sides, which turns a cross join into an inner one) or residual conditions. Outer joins pass
// conditions on their preserved side only.
void PushDownFilters(plan::LogicalPtr* root);
// not_null_columns.cc: a scan's condition x IS NOT NULL goes when x is a column of its table
// without NULLs (no validity bitmap), so that the scan is its table as it is.
void DropNotNullOfColumnsWithoutNulls(plan::LogicalPtr* root);
// right_to_left.cc: a RIGHT equi-join becomes the LEFT join of its sides swapped, so that its
// preserved side probes in the join-chain pipelines; a projection above puts the columns back
// in the FROM clause's order (not for USING / NATURAL joins, whose merged keys are the right
// side's, nor where two columns share a qualifier and name).
void RightJoinsAsLeft(plan::LogicalPtr* root);
// cardinality.cc: estimated_rows of every operator, from the tables' row counts and the
// selectivity of conditions (equality 1/10, range 1/3, ...), for join ordering.
void EstimateCardinality(plan::LogicalOperator* root);
// semi_join_pushdown.cc: a semi or anti join above an inner join moves to the input its
// conditions read, when its own inner side is no larger than that input (it then filters early).
void PushDownSemiJoins(plan::LogicalPtr* root);
// join_order.cc: each cluster of inner and cross joins is reordered greedily: start from the
// smallest estimated input, then join the smallest input connected by an equality (a cross join
// only when none is), the smaller side building the hash table. A projection above the cluster
// restores the FROM clause's column order.
void OrderJoins(plan::LogicalPtr* root);
// outer_join_build_side.cc: a LEFT or FULL equi-join whose left (preserved) side is estimated
// at less than half its right side's rows trades sides (LEFT becomes RIGHT), so that the
// smaller side builds the hash table and the larger one probes; the pipeline marks the build
// rows that found a pair and adds the others at the end (TPC-H Q13 builds on its 150,000
// customers, not on 1.5 M orders). A projection above restores the FROM clause's column order
// (one RightJoinsAsLeft put there goes, since the order is the original one again).
void BuildOuterJoinsOnSmallerSide(plan::LogicalPtr* root);
// column_pruning.cc: scans keep only the columns some expression above names, so that filters
// and joins copy fewer columns (not when a star needs every column).
void PruneColumns(plan::LogicalPtr* root);

// Rules over one bound SELECT (src/plan/bound_expr.h), the plan the single-table engine runs:
//
// sum_of_offsets.cc: SUM(x + k), SUM(x - k), SUM(k + x) over integers -> SUM(x) +- k * COUNT(x),
// so that one pass over x serves every such sum (ClickBench Q29 has 90 of them); the answer is
// exact, and an x - k that would overflow x's type still fails (through MIN(x) or MAX(x)).
void RewriteSumsOfOffsets(plan::Plan* plan);
// derived_keys.cc: GROUP BY keys that are functions of other keys alone (GROUP BY ClientIP,
// ClientIP - 1) are computed per group from the hashed keys (plan::DerivedKey). A key
// qualifies when it is not a bare column, every column it reads is also a key by itself (a
// bare column that is not floating-point: grouping takes -0.0 and 0.0 for one key, and 1 / x
// would tell them apart), and at least one key stays hashed (no keys at all would be an
// ungrouped query, which gives a row even for no rows). A derived key is evaluated on every
// group, so it raises an error exactly when evaluating it on every row would have.
void SplitDerivedKeys(plan::Plan* plan);
// count_from_metadata.cc: an ungrouped query without WHERE whose aggregates are all COUNT(*)
// or COUNT of a column without NULLs is answered from the row count (Plan::answer_from_metadata):
// SELECT count(*) costs no scan.
void AnswerCountsFromMetadata(plan::Plan* plan);
// short_string_keys.cc: GROUP BY keys that are string columns of values of at most 7 bytes
// are hashed as integers (the bytes and the length packed), unpacked where the groups are read
// (TPC-H Q1's l_returnflag, l_linestatus).
void PackShortStringKeys(plan::Plan* plan);
// substring_prefix.cc: in WHERE, substring(s, 1, n) IN (literals) and substring(s, 1, n) =
// literal, every literal of exactly n code points (at most 16, no LIKE wildcards), become an OR
// of s LIKE 'literal%' (NOT IN: its NOT), a prefix test on each string where it lies (TPC-H Q22).
void RewriteSubstringPrefixes(plan::Plan* plan);
// The five above, in that order.
void OptimizeSelect(plan::Plan* plan);
// merge_derived_table.cc: an aggregating SELECT over a derived table that only projects and
// filters a join becomes the aggregation of that join (its columns replaced by the expressions
// that make them, the WHERE clauses joined), so that the join's pipeline folds its rows into
// the aggregation (TPC-H Q7, Q8, Q9). False, *select unchanged, where the answer could change.
bool MergeDerivedTable(sql::SelectStatement* select);
// Those of the five that read no rows of the plan's table (all but AnswerCountsFromMetadata
// and PackShortStringKeys), for a plan whose table's rows are not yet made: a join chain's
// aggregate, folded in part by part (exec/join_aggregate_sink.h).
void OptimizeSelectOverRowsToCome(plan::Plan* plan);

// Every rule above over a logical plan, in order (column pruning only when the plan holds every expression that
// will read its columns).
void Optimize(plan::LogicalPtr* root, bool prune_columns = true);

}  // namespace optimize
}  // namespace laneql

#endif  // LANEQL_OPTIMIZE_OPTIMIZER_H_
