// A semi or anti join above an inner join moves down to the input its conditions read, when its
// other side is no larger than that input: it then filters like a selective WHERE condition
// before the inner join (TPC-H Q18: orders IN 57 order keys, before joining lineitem), but stays
// above when its inner side is the larger one (Q21's EXISTS over lineitem, better probed by the
// few rows the joins leave).
#include <utility>

#include "src/optimize/optimizer.h"

namespace laneql {
namespace optimize {
namespace {

using plan::LogicalKind;
using plan::LogicalOperator;
using plan::LogicalPtr;

bool IsSemi(const LogicalOperator& op) {
  return op.kind == LogicalKind::kJoin &&
         (op.join_type == sql::JoinType::kSemi || op.join_type == sql::JoinType::kAnti);
}

bool IsInner(const LogicalOperator& op) {
  return op.kind == LogicalKind::kJoin && op.using_columns.empty() &&
         (op.join_type == sql::JoinType::kInner || op.join_type == sql::JoinType::kCross);
}

// Which inputs of `inner` (bit 0 left, bit 1 right) the semi join's left-side expressions read;
// 3 (both) when one is unknown.
uint64_t SideOf(const LogicalOperator& semi, const LogicalOperator& inner) {
  const std::vector<const plan::ColumnScope*> sides{&inner.children[0]->scope, &inner.children[1]->scope,
                                                    &semi.children[1]->scope};
  uint64_t reads = 0;
  bool unknown = false;
  for (const sql::ExprPtr& key : semi.left_keys) reads |= plan::ReadsOf(key.get(), sides, &unknown);
  for (const sql::ExprPtr& c : semi.conditions) reads |= plan::ReadsOf(c.get(), sides, &unknown);
  reads &= 3;  // the semi join's own right side is no matter
  return unknown ? 3 : reads;
}

void Push(LogicalPtr* slot) {
  LogicalOperator* op = slot->get();
  for (LogicalPtr& child : op->children) Push(&child);
  if (!IsSemi(*op) || !IsInner(*op->children[0])) return;
  LogicalOperator* inner = op->children[0].get();
  const uint64_t side = SideOf(*op, *inner);
  if (side != 1 && side != 2) return;
  LogicalPtr& target = inner->children[side == 1 ? 0 : 1];
  if (op->children[1]->estimated_rows > target->estimated_rows) return;
  // semi(inner(a, b), s) -> inner(semi(a, s), b): the semi join takes a's place.
  LogicalPtr semi = std::move(*slot);
  LogicalPtr inner_join = std::move(semi->children[0]);
  semi->children[0] = std::move(target);
  semi->scope = semi->children[0]->scope;
  semi->estimated_rows = semi->children[0]->estimated_rows * 0.5;
  target = std::move(semi);
  Push(&target);  // further down, if it reads one side of another inner join there
  *slot = std::move(inner_join);
}

}  // namespace

void PushDownSemiJoins(LogicalPtr* root) { Push(root); }

}  // namespace optimize
}  // namespace laneql
