#include "src/optimize/join_sides.h"

#include <set>
#include <utility>

#include "src/common/ascii.h"

namespace laneql {
namespace optimize {
namespace {

constexpr const char* kFromOrder = "columns in FROM order";

bool NamesAreUnique(const plan::ColumnScope& scope) {
  std::set<std::pair<std::string, std::string>> seen;
  for (const plan::ScopeColumn& column : scope) {
    if (!seen.emplace(ascii::Lower(column.qualifier), ascii::Lower(column.name)).second) return false;
  }
  return true;
}

}  // namespace

bool IsFromOrderProjection(const plan::LogicalOperator& op) {
  return op.kind == plan::LogicalKind::kProject && op.detail == kFromOrder && op.children.size() == 1;
}

bool JoinSidesCanSwap(const plan::LogicalOperator& op) {
  return op.kind == plan::LogicalKind::kJoin && !op.left_keys.empty() && op.using_columns.empty() &&
         op.children.size() == 2 && NamesAreUnique(op.scope);
}

void SwapJoinSides(plan::LogicalPtr* root, sql::JoinType swapped) {
  plan::LogicalOperator& op = **root;
  std::swap(op.children[0], op.children[1]);
  std::swap(op.left_keys, op.right_keys);
  op.join_type = swapped;
  const plan::ColumnScope original = op.scope;
  op.scope = op.children[0]->scope;
  op.scope.insert(op.scope.end(), op.children[1]->scope.begin(), op.children[1]->scope.end());
  // The FROM clause's column order (SELECT * lists it).
  plan::LogicalPtr reorder = plan::MakeLogical(plan::LogicalKind::kProject);
  reorder->detail = kFromOrder;
  reorder->scope = original;
  reorder->estimated_rows = op.estimated_rows;
  reorder->children.push_back(std::move(*root));
  *root = std::move(reorder);
}

}  // namespace optimize
}  // namespace laneql
