// The SELECT's aggregation offered to the join chain beneath it as its probe pipeline's sink
// (join_aggregate_sink.h): RunPlan offers, ExecuteJoinChain binds the clauses over its output
// columns once its builds are done and, when the sink takes them, folds each part in as it is
// joined instead of making the output whole.
#include <memory>

#include "src/exec/join_aggregate_sink.h"
#include "src/exec/query_tree.h"
#include "src/optimize/optimizer.h"
#include "src/plan/binder.h"
#include "src/plan/query_ast.h"

namespace laneql {
namespace exec {

using plan::LogicalKind;
using plan::LogicalOperator;

bool QueryTreeRunner::ChainEndsAt(const LogicalOperator& from) {
  if (from.kind != LogicalKind::kJoin || from.left_keys.empty()) return false;
  switch (from.join_type) {
    case sql::JoinType::kInner:
    case sql::JoinType::kLeft: return true;
    case sql::JoinType::kRight:
    case sql::JoinType::kFull: return from.using_columns.empty();  // else its merged key comes after
    default: return false;
  }
}

bool QueryTreeRunner::OffersAggregateSink(const sql::SelectStatement& clauses, const LogicalOperator& from) {
  if (!ChainEndsAt(from)) return false;
  if (!plan::Aggregates(clauses) || clauses.distinct || !clauses.distinct_on.empty() || !clauses.windows.empty() ||
      clauses.qualify) {
    return false;
  }
  bool plain = true;
  auto check = [&](const sql::ExprPtr& expr) {
    if (expr == nullptr) return;
    if (plan::FindAnySubquery(expr.get()) != nullptr || expr->kind == sql::ExprKind::kStar) plain = false;
  };
  for (const sql::SelectItem& item : clauses.select_list) check(item.expr);
  check(clauses.where);
  for (const sql::ExprPtr& key : clauses.group_by) check(key);
  check(clauses.having);
  for (const sql::OrderItem& item : clauses.order_by) check(item.expr);
  return plain;
}

bool QueryTreeRunner::OpenAggregateSink(const sql::SelectStatement& clauses, const Relation& schema, int threads,
                                        plan::Plan* plan, std::unique_ptr<JoinAggregateSink>* sink) {
  plan::BindError bind_error;
  // A failure here fails the same way over the chain's output: left to that path to report.
  if (!plan::BindSelectOver(clauses, schema.table.get(), schema.scope, plan, &bind_error)) return false;
  optimize::OptimizeSelectOverRowsToCome(plan);
  if (!JoinAggregateSink::Takes(*plan)) return false;
  *sink = std::make_unique<JoinAggregateSink>(*plan, ctx_, threads);
  return true;
}

}  // namespace exec
}  // namespace laneql
