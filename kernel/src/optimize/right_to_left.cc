#include <set>
#include <utility>

#include "src/common/ascii.h"
#include "src/optimize/optimizer.h"

namespace laneql {
namespace optimize {
namespace {

using plan::LogicalKind;
using plan::LogicalPtr;

// Whether every column of `scope` has its own qualifier and name, so that a projection can
// find each by them (the columns-in-FROM-order projection matches that way).
bool NamesAreUnique(const plan::ColumnScope& scope) {
  std::set<std::pair<std::string, std::string>> seen;
  for (const plan::ScopeColumn& column : scope) {
    if (!seen.emplace(ascii::Lower(column.qualifier), ascii::Lower(column.name)).second) return false;
  }
  return true;
}

}  // namespace

void RightJoinsAsLeft(LogicalPtr* root) {
  for (LogicalPtr& child : (*root)->children) RightJoinsAsLeft(&child);
  plan::LogicalOperator& op = **root;
  if (op.kind != LogicalKind::kJoin || op.join_type != sql::JoinType::kRight || op.left_keys.empty() ||
      !op.using_columns.empty() || op.children.size() != 2 || !NamesAreUnique(op.scope)) {
    return;
  }
  std::swap(op.children[0], op.children[1]);
  std::swap(op.left_keys, op.right_keys);
  op.join_type = sql::JoinType::kLeft;
  const plan::ColumnScope original = op.scope;
  op.scope = op.children[0]->scope;
  op.scope.insert(op.scope.end(), op.children[1]->scope.begin(), op.children[1]->scope.end());
  // The FROM clause's column order (SELECT * lists it).
  LogicalPtr reorder = plan::MakeLogical(LogicalKind::kProject);
  reorder->detail = "columns in FROM order";
  reorder->scope = original;
  reorder->estimated_rows = op.estimated_rows;
  reorder->children.push_back(std::move(*root));
  *root = std::move(reorder);
}

}  // namespace optimize
}  // namespace laneql
