// Conditions that are constants: TRUE ones are dropped (an EXISTS that found rows, a folded
// comparison of literals), and a FALSE or NULL one stands alone, since no row passes it. A
// filter left with no condition is removed.
#include <cstdlib>
#include <utility>

#include "src/optimize/optimizer.h"

namespace laneql {
namespace optimize {
namespace {

enum class Truth { kTrue, kFalse, kNull, kUnknown };

Truth Fold(const sql::Expr& expr) {
  switch (expr.kind) {
    case sql::ExprKind::kBooleanLiteral:
      return expr.bool_value ? Truth::kTrue : Truth::kFalse;
    case sql::ExprKind::kNullLiteral:
      return Truth::kNull;
    case sql::ExprKind::kUnary:
      if (expr.unary_op == sql::UnaryOp::kNot && expr.operand) {
        const Truth inner = Fold(*expr.operand);
        if (inner == Truth::kTrue) return Truth::kFalse;
        if (inner == Truth::kFalse) return Truth::kTrue;
        return inner;
      }
      return Truth::kUnknown;
    case sql::ExprKind::kBinary: {
      // Comparisons of two integer literals (1 = 1, 0 <> 0), as generated SQL writes them.
      if (!expr.left || !expr.right || expr.left->kind != sql::ExprKind::kIntegerLiteral ||
          expr.right->kind != sql::ExprKind::kIntegerLiteral || expr.left->text.size() > 18 ||
          expr.right->text.size() > 18) {
        return Truth::kUnknown;
      }
      const long long a = std::atoll(expr.left->text.c_str()), b = std::atoll(expr.right->text.c_str());
      bool value;
      switch (expr.binary_op) {
        case sql::BinaryOp::kEquals: value = a == b; break;
        case sql::BinaryOp::kNotEquals: value = a != b; break;
        case sql::BinaryOp::kLess: value = a < b; break;
        case sql::BinaryOp::kLessEquals: value = a <= b; break;
        case sql::BinaryOp::kGreater: value = a > b; break;
        case sql::BinaryOp::kGreaterEquals: value = a >= b; break;
        default: return Truth::kUnknown;
      }
      return value ? Truth::kTrue : Truth::kFalse;
    }
    default:
      return Truth::kUnknown;
  }
}

void FoldConditions(std::vector<sql::ExprPtr>* conditions) {
  std::vector<sql::ExprPtr> kept;
  for (sql::ExprPtr& c : *conditions) {
    const Truth truth = Fold(*c);
    if (truth == Truth::kTrue) continue;
    if (truth == Truth::kFalse || truth == Truth::kNull) {
      kept.clear();
      kept.push_back(std::move(c));
      break;
    }
    kept.push_back(std::move(c));
  }
  *conditions = std::move(kept);
}

}  // namespace

void FoldConstantConditions(plan::LogicalPtr* root) {
  plan::LogicalOperator* op = root->get();
  for (plan::LogicalPtr& child : op->children) FoldConstantConditions(&child);
  if (op->select_clause) return;  // the SELECT's own clauses run as written
  if (op->kind == plan::LogicalKind::kGet || op->kind == plan::LogicalKind::kFilter ||
      op->kind == plan::LogicalKind::kJoin) {
    FoldConditions(&op->conditions);
  }
  if (op->kind == plan::LogicalKind::kFilter && op->conditions.empty()) {
    plan::LogicalPtr child = std::move(op->children[0]);
    *root = std::move(child);
  }
}

}  // namespace optimize
}  // namespace laneql
