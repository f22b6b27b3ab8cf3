// Neumann and Kemper's "magic set" for an unnested scalar aggregate (DuckDB's delim join): the
// aggregate grouped by the correlation keys needs only the groups some outer row will look up,
// so when the outer side is far smaller than the inner relation, the outer side is made first
// and the inner relation cut to the rows whose keys it has before the grouping. TPC-H Q17
// groups 6,001,215 lineitem rows into 200,000 parts to answer for the 204 parts its outer side
// holds; cut, it groups the 6,088 rows of those parts.
#include <utility>

#include "src/exec/decorrelate.h"
#include "src/exec/hash_join.h"
#include "src/exec/query_tree.h"
#include "src/optimize/optimizer.h"

namespace laneql {
namespace exec {
namespace {

// Inner relations smaller than this are grouped whole: the cut would cost about as much.
constexpr size_t kCutMinInnerRows = size_t{1} << 16;
// The outer side's estimated rows must be at most this share of the inner relation's.
constexpr double kCutMaxOuterShare = 1.0 / 8;

}  // namespace

bool QueryTreeRunner::CutToOuterKeys(plan::LogicalPtr* from, const std::vector<sql::ExprPtr>& outer_keys,
                                     const std::vector<sql::ExprPtr>& inner_keys, Relation* inner,
                                     Result* error) {
  const size_t inner_rows = inner->table->num_rows();
  if (outer_keys.empty() || inner_rows < kCutMinInnerRows || dry_run_ || !Runnable(**from)) return true;
  optimize::Optimize(from, /*prune_columns=*/false);
  if ((*from)->estimated_rows > kCutMaxOuterShare * static_cast<double>(inner_rows)) return true;
  Relation outer;
  std::string subplan, message;
  if (!MakeOuterRows(from, &outer, &subplan, error)) return false;
  plan::LogicalPtr get = GetOver(outer, "outer rows whose keys cut a subquery's rows");
  get->subplan = subplan;
  *from = std::move(get);
  // The keys of both sides in their shared types; an inner row stays when some outer row's keys
  // equal its own (a NULL key matches nothing, as in the LEFT JOIN that reads the groups).
  std::vector<const sql::Expr*> outer_exprs, inner_exprs;
  for (const sql::ExprPtr& k : outer_keys) outer_exprs.push_back(k.get());
  for (const sql::ExprPtr& k : inner_keys) inner_exprs.push_back(k.get());
  Result outer_values, inner_values;
  if (!Evaluate(outer, outer_exprs, &outer_values)) {
    *error = std::move(outer_values);
    return false;
  }
  if (!Evaluate(*inner, inner_exprs, &inner_values)) {
    *error = std::move(inner_values);
    return false;
  }
  Relation outer_relation, inner_relation;
  if (!RelationFromResult(std::move(outer_values), "", &outer_relation, &message) ||
      !RelationFromResult(std::move(inner_values), "", &inner_relation, &message)) {
    *error = Result::Error(message);
    return false;
  }
  std::vector<const Column*> outer_columns, inner_columns;
  if (!CommonKeyColumns(&outer_relation, &inner_relation, &outer_columns, &inner_columns, error)) return false;
  MatchPairs pairs;
  if (!HashJoinPairs(outer_columns, inner_columns, ctx_, &pairs, &message)) {
    *error = Result::Error(message);
    return false;
  }
  std::vector<uint32_t> keep;  // pairs come sorted by probe (inner) row
  for (uint32_t row : pairs.probe_rows) {
    if (keep.empty() || keep.back() != row) keep.push_back(row);
  }
  if (!KeepRelationRows(inner, keep, &message)) {
    *error = Result::Error(message);
    return false;
  }
  return true;
}

}  // namespace exec
}  // namespace laneql
