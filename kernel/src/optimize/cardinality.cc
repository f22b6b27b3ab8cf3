// Estimated rows per operator. A table knows its row count and its columns' distinct counts
// (storage/table_statistics.h); a condition keeps a fraction of the rows by its shape: an
// equality of a column with a constant 1 / distinct (1/10 without statistics), IN a list
// n / distinct, a range on a number, date or timestamp column of a scan the share of its sampled
// [min, max] it keeps (the range conditions on one column taken together as one interval), other
// ranges 1/3, BETWEEN 1/4, LIKE 1/10 (the classic System R guesses where no statistic helps);
// conditions multiply as if independent. An equi-join yields
// left * right / distinct (the larger distinct count of its keys' sides: each row meets
// right / distinct rows), a semi join the share of the left keys the right side has (at least
// a tenth; an anti join the rest), a cross join the product.
#include <algorithm>
#include <limits>
#include <map>
#include <string>
#include <utility>

#include "src/common/ascii.h"
#include "src/io/csv_field_parse.h"
#include "src/optimize/estimates.h"
#include "src/optimize/optimizer.h"
#include "src/storage/table_statistics.h"

namespace laneql {
namespace optimize {
namespace {

using csv::ParseDate;
using csv::ParseDouble;
using csv::ParseStatus;
using csv::ParseTimestampMicros;
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

// The statistics of the base-table column `ref` names under `subtree`, and its type; false when
// it names none.
bool ColumnStats(const LogicalOperator& subtree, const sql::Expr& ref, ColumnStatistics* out, TypeId* type);

// `e`, a constant, as a double in the units of a column of `type` (days, seconds or microseconds
// for dates and timestamps); false when it is no constant of that kind.
bool ConstantIn(const sql::Expr& e, TypeId type, double* out) {
  const bool temporal = type == TypeId::kDate32 || type == TypeId::kTimestampSeconds || type == TypeId::kTimestampMicros;
  if (e.kind == sql::ExprKind::kIntegerLiteral || e.kind == sql::ExprKind::kDecimalLiteral) {
    return !temporal && ParseDouble(e.text, out) == ParseStatus::kOk;
  }
  if (e.kind != sql::ExprKind::kCast || !e.operand) return false;
  if (e.operand->kind != sql::ExprKind::kStringLiteral) return !temporal && ConstantIn(*e.operand, type, out);
  const std::string& text = e.operand->text;
  if (ascii::EqualsIgnoreCase(e.text, "DATE") && type == TypeId::kDate32) {
    int32_t days = 0;
    if (ParseDate(text, &days) != ParseStatus::kOk) return false;
    *out = days;
    return true;
  }
  if (ascii::EqualsIgnoreCase(e.text, "TIMESTAMP") && type == TypeId::kTimestampMicros) {
    int64_t micros = 0;
    if (ParseTimestampMicros(text, &micros) != ParseStatus::kOk) return false;
    *out = static_cast<double>(micros);
    return true;
  }
  return false;
}

// A range condition on one column of a scan: `column op constant` (either way round) or
// `column BETWEEN a AND b`, as the interval [lo, hi] it keeps (open ends infinite); the column's
// statistics and a key naming it. False for anything else or a column without a range.
bool RangeOf(const sql::Expr& c, const LogicalOperator* scope, std::string* key, ColumnStatistics* stats,
             double* lo, double* hi) {
  if (scope == nullptr) return false;
  constexpr double kInf = std::numeric_limits<double>::infinity();
  const sql::Expr* column = nullptr;
  TypeId type = TypeId::kInt32;
  auto column_of = [&](const sql::Expr* e) {
    if (e == nullptr || e->kind != sql::ExprKind::kColumnRef || !ColumnStats(*scope, *e, stats, &type) ||
        !stats->has_range) {
      return false;
    }
    column = e;
    return true;
  };
  double a = 0, b = 0;
  if (c.kind == sql::ExprKind::kBetween && !c.negated && c.args.size() == 2) {
    if (!column_of(c.operand.get()) || !ConstantIn(*c.args[0], type, &a) || !ConstantIn(*c.args[1], type, &b)) {
      return false;
    }
    *lo = a;
    *hi = b;
  } else if (c.kind == sql::ExprKind::kBinary &&
             (c.binary_op == sql::BinaryOp::kLess || c.binary_op == sql::BinaryOp::kLessEquals ||
              c.binary_op == sql::BinaryOp::kGreater || c.binary_op == sql::BinaryOp::kGreaterEquals)) {
    bool below;  // the column below the constant
    if (column_of(c.left.get()) && ConstantIn(*c.right, type, &a)) {
      below = c.binary_op == sql::BinaryOp::kLess || c.binary_op == sql::BinaryOp::kLessEquals;
    } else if (column_of(c.right.get()) && ConstantIn(*c.left, type, &a)) {
      below = c.binary_op == sql::BinaryOp::kGreater || c.binary_op == sql::BinaryOp::kGreaterEquals;
    } else {
      return false;
    }
    *lo = below ? -kInf : a;
    *hi = below ? a : kInf;
  } else {
    return false;
  }
  *key = ascii::Lower(column->qualifier) + "." + ascii::Lower(column->text);
  return true;
}

// The fraction of a column's rows within [lo, hi] under a uniform spread over its sampled range,
// at least one distinct value's share (a sample's range is narrower than the column's).
double RangeFraction(const ColumnStatistics& stats, double lo, double hi) {
  const double floor = std::min(1.0, 1 / std::max(stats.distinct, 1.0));
  const double from = std::max(lo, stats.min), to = std::min(hi, stats.max);
  if (from > to) return floor;
  if (stats.max == stats.min) return 1;
  return std::clamp((to - from) / (stats.max - stats.min), floor, 1.0);
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

// The conditions' fraction as if independent, except that the range conditions on one column
// of a scan (x >= a AND x < b) are one interval of its sampled range, not a product of guesses.
double Conditions(const std::vector<sql::ExprPtr>& conditions, const LogicalOperator* scope = nullptr) {
  struct Interval {
    ColumnStatistics stats;
    double lo, hi;
  };
  std::map<std::string, Interval> ranges;
  double s = 1;
  for (const sql::ExprPtr& c : conditions) {
    std::string key;
    ColumnStatistics stats;
    double lo = 0, hi = 0;
    if (!RangeOf(*c, scope, &key, &stats, &lo, &hi)) {
      s *= Selectivity(*c, scope);
      continue;
    }
    auto [it, added] = ranges.emplace(key, Interval{stats, lo, hi});
    if (!added) {
      it->second.lo = std::max(it->second.lo, lo);
      it->second.hi = std::min(it->second.hi, hi);
    }
  }
  for (const auto& [key, range] : ranges) s *= RangeFraction(range.stats, range.lo, range.hi);
  return s;
}

// The scan under `op` that has a column `ref` names, or null.
const LogicalOperator* ScanOf(const LogicalOperator& op, const sql::Expr& ref) {
  if (op.kind == LogicalKind::kGet) {
    return plan::ScopeHas(op.scope, ref) || plan::ScopeHas(op.filter_scope, ref) ? &op : nullptr;
  }
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

namespace {

bool ColumnStats(const LogicalOperator& subtree, const sql::Expr& ref, ColumnStatistics* out, TypeId* type) {
  if (ref.kind != sql::ExprKind::kColumnRef) return false;
  const LogicalOperator* scan = ScanOf(subtree, ref);
  if (scan == nullptr || scan->table == nullptr) return false;
  for (const auto& [scope, columns] : {std::make_pair(&scan->scope, &scan->columns),
                                      std::make_pair(&scan->filter_scope, &scan->filter_columns)}) {
    for (size_t k = 0; k < scope->size() && k < columns->size(); ++k) {
      const plan::ScopeColumn& column = (*scope)[k];
      if (!ref.qualifier.empty() && !ascii::EqualsIgnoreCase(ref.qualifier, column.qualifier)) continue;
      if (!ascii::EqualsIgnoreCase(ref.text, column.name)) continue;
      *out = TableColumnStatistics(scan->table, (*columns)[k]);
      *type = scan->table->column((*columns)[k]).type();
      return true;
    }
  }
  return false;
}

}  // namespace

double EstimateDistinct(const LogicalOperator& subtree, const sql::Expr& expr) {
  const double cap = std::max(1.0, subtree.estimated_rows);
  ColumnStatistics stats;
  TypeId type;
  if (!ColumnStats(subtree, expr, &stats, &type)) return cap;
  return std::min(cap, std::max(1.0, stats.distinct));
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
        case sql::JoinType::kAnti: {
          // The share of the left side's keys the right side has (a half without keys).
          double share = 0.5;
          if (!op->left_keys.empty()) {
            double left_distinct = 0, right_distinct = 0;
            for (size_t k = 0; k < op->left_keys.size(); ++k) {
              left_distinct = std::max(left_distinct, EstimateDistinct(*op->children[0], *op->left_keys[k]));
              right_distinct = std::max(right_distinct, EstimateDistinct(*op->children[1], *op->right_keys[k]));
            }
            share = std::clamp(right_distinct / std::max(left_distinct, 1.0), 0.1, 1.0);
          }
          rows = l * (op->join_type == sql::JoinType::kSemi ? share : std::max(0.1, 1 - share));
          break;
        }
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
    case plan::LogicalKind::kSetOperation: {
      const double r = op->children[1]->estimated_rows;
      switch (op->set_op) {
        case sql::SetOpKind::kUnion: op->estimated_rows = in + r; break;
        case sql::SetOpKind::kIntersect: op->estimated_rows = std::min(in, r); break;
        case sql::SetOpKind::kExcept: op->estimated_rows = in; break;
      }
      break;
    }
    default:
      op->estimated_rows = in;
      break;
  }
}

}  // namespace optimize
}  // namespace laneql
