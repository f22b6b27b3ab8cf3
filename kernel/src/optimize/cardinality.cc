// Estimated rows per operator. A table knows its row count and its columns' distinct counts
// (storage/table_statistics.h); a condition keeps a fraction of the rows by its shape: an
// equality of a column with a constant 1 / distinct (1/10 without statistics), IN a list
// n / distinct, a range 1/3, BETWEEN 1/4, LIKE 1/10 (the classic System R guesses where no
// statistic helps); conditions multiply as if independent. An equi-join yields
// left * right / distinct (the larger distinct count of its keys' sides: each row meets
// right / distinct rows), a cross join the product.
#include <algorithm>

#include "src/common/ascii.h"
#include "src/optimize/estimates.h"
#include "src/optimize/optimizer.h"
#include "src/storage/table_statistics.h"

namespace laneql {
namespace optimize {
namespace {

using plan::LogicalKind;
using plan::LogicalOperator;

bool IsConstant(const sql::Expr& e) {
  switch (e.kind) {
    case sql::ExprKind::kIntegerLiteral:
    case sql::ExprKind::kDecimalLiteral:
    case sql::ExprKind::kStringLiteral:
    case sql::ExprKind::kBooleanLiteral:
      return true;
    case sql::ExprKind::kCast:
      return e.operand && IsConstant(*e.operand);
    default:
      return false;
  }
}

// The distinct count of a column compared with a constant in a scan's condition (0: unknown).
double ColumnDistinct(const LogicalOperator* scope, const sql::Expr& column) {
  if (scope == nullptr || column.kind != sql::ExprKind::kColumnRef) return 0;
  return EstimateDistinct(*scope, column) > 0 ? EstimateDistinct(*scope, column) : 0;
}

double Selectivity(const sql::Expr& c, const LogicalOperator* scope) {
  switch (c.kind) {
    case sql::ExprKind::kBinary:
      switch (c.binary_op) {
        case sql::BinaryOp::kAnd:
          return Selectivity(*c.left, scope) * Selectivity(*c.right, scope);
        case sql::BinaryOp::kOr:
          return std::min(1.0, Selectivity(*c.left, scope) + Selectivity(*c.right, scope));
        case sql::BinaryOp::kEquals: {
          const sql::Expr* column = IsConstant(*c.right) ? c.left.get() : IsConstant(*c.left) ? c.right.get() : nullptr;
          const double distinct = column != nullptr ? ColumnDistinct(scope, *column) : 0;
          return distinct > 0 ? 1 / distinct : 0.1;
        }
        case sql::BinaryOp::kNotEquals:
          return 0.9;
        case sql::BinaryOp::kLess:
        case sql::BinaryOp::kLessEquals:
        case sql::BinaryOp::kGreater:
        case sql::BinaryOp::kGreaterEquals:
          return 1.0 / 3;
        default:
          return 0.5;
      }
    case sql::ExprKind::kBetween:
      return c.negated ? 0.75 : 0.25;
    case sql::ExprKind::kInList: {
      const double distinct = c.operand ? ColumnDistinct(scope, *c.operand) : 0;
      const double each = distinct > 0 ? 1 / distinct : 0.1;
      const double in = std::min(1.0, each * static_cast<double>(c.args.size()));
      return c.negated ? 1 - in : in;
    }
    case sql::ExprKind::kLike:
      return c.negated ? 0.9 : 0.1;
    case sql::ExprKind::kIsNull:
      return c.negated ? 0.9 : 0.1;
    case sql::ExprKind::kUnary:
      return c.unary_op == sql::UnaryOp::kNot && c.operand ? 1 - 0.5 * Selectivity(*c.operand, scope) : 0.5;
    default:
      return 0.5;
  }
}

double Conditions(const std::vector<sql::ExprPtr>& conditions, const LogicalOperator* scope = nullptr) {
  double s = 1;
  for (const sql::ExprPtr& c : conditions) s *= Selectivity(*c, scope);
  return s;
}

// The scan under `op` that has a column `ref` names, or null.
const LogicalOperator* ScanOf(const LogicalOperator& op, const sql::Expr& ref) {
  if (op.kind == LogicalKind::kGet) return plan::ScopeHas(op.scope, ref) ? &op : nullptr;
  for (const plan::LogicalPtr& child : op.children) {
    if (const LogicalOperator* found = ScanOf(*child, ref)) return found;
  }
  return nullptr;
}

// The key pairs' largest distinct count (0 when no side of any pair is known).
double KeyDistinct(const LogicalOperator& join) {
  double distinct = 0;
  for (size_t k = 0; k < join.left_keys.size(); ++k) {
    distinct = std::max(distinct, EstimateDistinct(*join.children[0], *join.left_keys[k]));
    distinct = std::max(distinct, EstimateDistinct(*join.children[1], *join.right_keys[k]));
  }
  return distinct;
}

}  // namespace

double EstimateDistinct(const LogicalOperator& subtree, const sql::Expr& expr) {
  const double cap = std::max(1.0, subtree.estimated_rows);
  if (expr.kind != sql::ExprKind::kColumnRef) return cap;
  const LogicalOperator* scan = ScanOf(subtree, expr);
  if (scan == nullptr || scan->table == nullptr) return cap;
  for (size_t k = 0; k < scan->scope.size() && k < scan->columns.size(); ++k) {
    const plan::ScopeColumn& column = scan->scope[k];
    if (!expr.qualifier.empty() && !ascii::EqualsIgnoreCase(expr.qualifier, column.qualifier)) continue;
    if (!ascii::EqualsIgnoreCase(expr.text, column.name)) continue;
    const ColumnStatistics stats = TableColumnStatistics(scan->table, scan->columns[k]);
    return std::min(cap, std::max(1.0, stats.distinct));
  }
  return cap;
}

double EquiJoinRows(double left_rows, double right_rows, double distinct) {
  return left_rows * right_rows / std::max(1.0, distinct);
}

void EstimateCardinality(plan::LogicalOperator* op) {
  for (plan::LogicalPtr& child : op->children) EstimateCardinality(child.get());
  const double in = op->children.empty() ? 0 : op->children[0]->estimated_rows;
  switch (op->kind) {
    case plan::LogicalKind::kGet: {
      const double rows = op->table ? static_cast<double>(op->table->num_rows()) : 1;
      op->estimated_rows = rows;  // what the statistics see before the conditions
      op->estimated_rows = op->conditions.empty() ? rows : std::max(1.0, rows * Conditions(op->conditions, op));
      break;
    }
    case plan::LogicalKind::kFilter:
      op->estimated_rows = op->select_clause ? in : std::max(1.0, in * Conditions(op->conditions));
      break;
    case plan::LogicalKind::kJoin: {
      const double l = in, r = op->children[1]->estimated_rows;
      double rows;
      switch (op->join_type) {
        case sql::JoinType::kCross:
          rows = l * r;
          break;
        case sql::JoinType::kSemi:
        case sql::JoinType::kAnti:
          rows = l * 0.5;
          break;
        case sql::JoinType::kMark:
        case sql::JoinType::kSingle:
          rows = l;
          break;
        case sql::JoinType::kLeft:
          rows = std::max(l, op->left_keys.empty() ? l * r : std::max(l, r));
          break;
        case sql::JoinType::kRight:
          rows = std::max(r, op->left_keys.empty() ? l * r : std::max(l, r));
          break;
        case sql::JoinType::kFull:
          rows = op->left_keys.empty() ? l * r + l + r : l + r;
          break;
        default:
          rows = op->left_keys.empty() ? l * r : EquiJoinRows(l, r, KeyDistinct(*op));
          break;
      }
      op->estimated_rows = std::max(1.0, rows * Conditions(op->conditions));
      break;
    }
    case plan::LogicalKind::kAggregate:
      op->estimated_rows = op->exprs.empty() ? 1 : std::max(1.0, in / 10);
      break;
    default:
      op->estimated_rows = in;
      break;
  }
}

}  // namespace optimize
}  // namespace laneql
