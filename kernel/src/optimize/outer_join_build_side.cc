#include <utility>

#include "src/optimize/join_sides.h"
#include "src/optimize/optimizer.h"

namespace laneql {
namespace optimize {
namespace {

// How much larger the probe side's estimate must be before the sides trade places: estimates
// are rough, and building on the preserved side costs a pass over its marks at the end.
constexpr double kSwapRatio = 2;

bool SameColumns(const plan::ColumnScope& a, const plan::ColumnScope& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].qualifier != b[i].qualifier || a[i].name != b[i].name || a[i].hidden != b[i].hidden) return false;
  }
  return true;
}

// A FROM-order projection over another one keeps the outer order over the inner one's input;
// one over a child already in its order goes.
void DropNeedlessReorders(plan::LogicalPtr* root) {
  plan::LogicalOperator& op = **root;
  if (!IsFromOrderProjection(op)) return;
  if (IsFromOrderProjection(*op.children[0])) {
    plan::LogicalPtr inner = std::move(op.children[0]->children[0]);
    op.children[0] = std::move(inner);
  }
  if (SameColumns(op.scope, op.children[0]->scope)) {
    plan::LogicalPtr child = std::move(op.children[0]);
    *root = std::move(child);
  }
}

}  // namespace

void BuildOuterJoinsOnSmallerSide(plan::LogicalPtr* root) {
  for (plan::LogicalPtr& child : (*root)->children) BuildOuterJoinsOnSmallerSide(&child);
  for (plan::LogicalPtr& child : (*root)->children) DropNeedlessReorders(&child);
  const plan::LogicalOperator& op = **root;
  if ((op.join_type != sql::JoinType::kLeft && op.join_type != sql::JoinType::kFull) || !JoinSidesCanSwap(op)) {
    return;
  }
  // The right side builds: swap when the left one (preserved) is the much smaller side.
  if (op.children[0]->estimated_rows * kSwapRatio >= op.children[1]->estimated_rows) return;
  SwapJoinSides(root, op.join_type == sql::JoinType::kLeft ? sql::JoinType::kRight : sql::JoinType::kFull);
}

}  // namespace optimize
}  // namespace laneql
