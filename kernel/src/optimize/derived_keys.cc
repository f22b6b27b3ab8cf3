#include "src/optimize/optimizer.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace laneql {
namespace optimize {
namespace {

// Whether every column `expr` reads has a hashed bare-column key (hashed_key_of[column] >= 0).
bool ReadsOnlyKeyColumns(const plan::BoundExpr& expr, const std::vector<int>& hashed_key_of) {
  if (expr.kind == plan::BoundKind::kColumn) {
    return expr.column >= 0 && static_cast<size_t>(expr.column) < hashed_key_of.size() &&
           hashed_key_of[static_cast<size_t>(expr.column)] >= 0;
  }
  for (const auto& arg : expr.args) {
    if (!ReadsOnlyKeyColumns(*arg, hashed_key_of)) return false;
  }
  return true;
}

// Rewrites the table columns `expr` reads into the hashed keys' relation (column i = the
// i-th hashed key).
void ReadKeysInstead(plan::BoundExpr* expr, const std::vector<int>& hashed_key_of) {
  if (expr->kind == plan::BoundKind::kColumn) {
    expr->column = hashed_key_of[static_cast<size_t>(expr->column)];
    return;
  }
  for (auto& arg : expr->args) ReadKeysInstead(arg.get(), hashed_key_of);
}

}  // namespace

void SplitDerivedKeys(plan::Plan* plan) {
  if (plan->group_keys.size() < 2) return;
  // The table columns that are keys by themselves, and which of the keys those are.
  size_t columns = 0;
  for (const auto& key : plan->group_keys) {
    if (key->kind == plan::BoundKind::kColumn && key->column >= 0) {
      columns = std::max(columns, static_cast<size_t>(key->column) + 1);
    }
  }
  std::vector<int> bare_key_of(columns, -1);  // column -> its key's position
  for (size_t k = 0; k < plan->group_keys.size(); ++k) {
    const plan::BoundExpr& key = *plan->group_keys[k];
    if (key.kind != plan::BoundKind::kColumn || key.column < 0 || IsFloat(key.type)) continue;
    int& slot = bare_key_of[static_cast<size_t>(key.column)];
    if (slot < 0) slot = static_cast<int>(k);
  }
  std::vector<bool> derived(plan->group_keys.size(), false);
  size_t hashed = plan->group_keys.size();
  for (size_t k = 0; k < plan->group_keys.size(); ++k) {
    const plan::BoundExpr& key = *plan->group_keys[k];
    if (key.kind == plan::BoundKind::kColumn) continue;  // bare columns stay (a repeated one too)
    if (!ReadsOnlyKeyColumns(key, bare_key_of)) continue;
    derived[k] = true;
    --hashed;
  }
  if (hashed == plan->group_keys.size() || hashed == 0) return;
  // Positions among the hashed keys, for the derived keys to read.
  std::vector<int> hashed_position(plan->group_keys.size(), -1);
  for (size_t k = 0, h = 0; k < plan->group_keys.size(); ++k) {
    if (!derived[k]) hashed_position[k] = static_cast<int>(h++);
  }
  std::vector<int> hashed_key_of(columns, -1);  // column -> its key's hashed position
  for (size_t c = 0; c < columns; ++c) {
    if (bare_key_of[c] >= 0) hashed_key_of[c] = hashed_position[static_cast<size_t>(bare_key_of[c])];
  }
  std::vector<plan::BoundExprPtr> kept;
  for (size_t k = 0; k < plan->group_keys.size(); ++k) {
    if (!derived[k]) {
      kept.push_back(std::move(plan->group_keys[k]));
      continue;
    }
    plan::DerivedKey d;
    d.position = k;
    d.expr = std::move(plan->group_keys[k]);
    ReadKeysInstead(d.expr.get(), hashed_key_of);
    plan->derived_keys.push_back(std::move(d));
  }
  plan->group_keys = std::move(kept);
}

}  // namespace optimize
}  // namespace laneql
