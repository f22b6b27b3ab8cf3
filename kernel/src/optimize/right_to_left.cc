#include "src/optimize/join_sides.h"
#include "src/optimize/optimizer.h"

namespace laneql {
namespace optimize {

void RightJoinsAsLeft(plan::LogicalPtr* root) {
  for (plan::LogicalPtr& child : (*root)->children) RightJoinsAsLeft(&child);
  const plan::LogicalOperator& op = **root;
  if (op.join_type != sql::JoinType::kRight || !JoinSidesCanSwap(op)) return;
  SwapJoinSides(root, sql::JoinType::kLeft);
}

}  // namespace optimize
}  // namespace laneql
