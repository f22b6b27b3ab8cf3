// Greedy join ordering over clusters of inner and cross joins (DPccp pays for itself only on
// many relations with good statistics; the greedy order by estimated size is what the engine
// had before the optimizer, now on estimates instead of materialized inputs).
#include <algorithm>
#include <utility>

#include "src/optimize/optimizer.h"
#include "src/plan/query_ast.h"

namespace laneql {
namespace optimize {
namespace {

using plan::LogicalKind;
using plan::LogicalOperator;
using plan::LogicalPtr;

bool InCluster(const LogicalOperator& op) {
  return op.kind == LogicalKind::kJoin && op.using_columns.empty() &&
         (op.join_type == sql::JoinType::kInner || op.join_type == sql::JoinType::kCross);
}

struct Condition {
  sql::ExprPtr expr;
  uint64_t mask = 0;
  bool unknown = false;
  bool used = false;
};

// The cluster under `op`: its inputs (each ordered on its own first) and every key equality
// and condition of its joins.
void Collect(LogicalPtr* slot, std::vector<LogicalPtr>* leaves, std::vector<sql::ExprPtr>* conditions) {
  LogicalOperator* op = slot->get();
  if (!InCluster(*op)) {
    OrderJoins(slot);
    leaves->push_back(std::move(*slot));
    return;
  }
  for (size_t k = 0; k < op->left_keys.size(); ++k) {
    conditions->push_back(plan::MakeBinary(sql::BinaryOp::kEquals, std::move(op->left_keys[k]),
                                           std::move(op->right_keys[k])));
  }
  for (sql::ExprPtr& c : op->conditions) conditions->push_back(std::move(c));
  Collect(&op->children[0], leaves, conditions);
  Collect(&op->children[1], leaves, conditions);
}

// Whether equality `c` joins `bit` to what `joined` holds; sets which of its sides reads `bit`.
bool Connects(const Condition& c, uint64_t joined, uint64_t bit, const std::vector<const plan::ColumnScope*>& scopes,
              bool* left_is_new) {
  if (c.used || c.unknown || c.expr->kind != sql::ExprKind::kBinary || c.expr->binary_op != sql::BinaryOp::kEquals) {
    return false;
  }
  bool u = false;
  const uint64_t l = plan::ReadsOf(c.expr->left.get(), scopes, &u);
  const uint64_t r = plan::ReadsOf(c.expr->right.get(), scopes, &u);
  if (u || l == 0 || r == 0) return false;
  if ((l & ~joined) == 0 && r == bit) {
    *left_is_new = false;
    return true;
  }
  if ((r & ~joined) == 0 && l == bit) {
    *left_is_new = true;
    return true;
  }
  return false;
}

}  // namespace

void OrderJoins(LogicalPtr* slot) {
  LogicalOperator* op = slot->get();
  if (!InCluster(*op)) {
    for (LogicalPtr& child : op->children) OrderJoins(&child);
    return;
  }
  const plan::ColumnScope original = op->scope;
  const sql::SourcePos pos = op->pos;
  std::vector<LogicalPtr> leaves;
  std::vector<sql::ExprPtr> exprs;
  Collect(slot, &leaves, &exprs);
  if (leaves.size() > 64) return;  // cannot happen: the planner refuses more than 63 tables
  std::vector<const plan::ColumnScope*> scopes;
  for (const LogicalPtr& leaf : leaves) scopes.push_back(&leaf->scope);
  std::vector<Condition> conditions;
  for (sql::ExprPtr& e : exprs) {
    Condition c;
    c.mask = plan::ReadsOf(e.get(), scopes, &c.unknown);
    c.expr = std::move(e);
    conditions.push_back(std::move(c));
  }
  size_t first = 0;
  for (size_t i = 1; i < leaves.size(); ++i) {
    if (leaves[i]->estimated_rows < leaves[first]->estimated_rows) first = i;
  }
  std::vector<bool> joined(leaves.size(), false);
  joined[first] = true;
  uint64_t mask = uint64_t{1} << first;
  LogicalPtr current = std::move(leaves[first]);
  for (size_t step = 1; step < leaves.size(); ++step) {
    size_t pick = leaves.size();
    bool connected = false;
    for (size_t i = 0; i < leaves.size(); ++i) {
      if (joined[i]) continue;
      bool has_equality = false, unused;
      for (const Condition& c : conditions) has_equality = has_equality || Connects(c, mask, uint64_t{1} << i, scopes, &unused);
      const bool better = pick == leaves.size() || (has_equality && !connected) ||
                          (has_equality == connected && leaves[i]->estimated_rows < leaves[pick]->estimated_rows);
      if (better) {
        pick = i;
        connected = has_equality;
      }
    }
    const uint64_t bit = uint64_t{1} << pick;
    LogicalPtr join = plan::MakeLogical(LogicalKind::kJoin);
    join->pos = pos;
    for (Condition& c : conditions) {
      bool left_is_new = false;
      if (!Connects(c, mask, bit, scopes, &left_is_new)) continue;
      join->left_keys.push_back(std::move(left_is_new ? c.expr->right : c.expr->left));
      join->right_keys.push_back(std::move(left_is_new ? c.expr->left : c.expr->right));
      c.used = true;
    }
    mask |= bit;
    joined[pick] = true;
    for (Condition& c : conditions) {
      const bool last = step + 1 == leaves.size();
      if (!c.used && ((!c.unknown && (c.mask & ~mask) == 0) || last)) {
        join->conditions.push_back(std::move(c.expr));
        c.used = true;
      }
    }
    join->join_type = join->left_keys.empty() && join->conditions.empty() ? sql::JoinType::kCross
                                                                            : sql::JoinType::kInner;
    LogicalPtr next = std::move(leaves[pick]);
    // The hash table is built on the right: the smaller side goes there.
    if (next->estimated_rows > current->estimated_rows && !join->left_keys.empty()) {
      std::swap(current, next);
      std::swap(join->left_keys, join->right_keys);
    }
    join->scope = current->scope;
    join->scope.insert(join->scope.end(), next->scope.begin(), next->scope.end());
    join->children.push_back(std::move(current));
    join->children.push_back(std::move(next));
    EstimateCardinality(join.get());
    current = std::move(join);
  }
  // The FROM clause's column order, whatever the join order (SELECT * lists it).
  LogicalPtr reorder = plan::MakeLogical(LogicalKind::kProject);
  reorder->detail = "columns in FROM order";
  reorder->scope = original;
  reorder->estimated_rows = current->estimated_rows;
  reorder->children.push_back(std::move(current));
  *slot = std::move(reorder);
}

}  // namespace optimize
}  // namespace laneql
