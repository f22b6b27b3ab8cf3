// Constant work the binder does: + / - of two decimal literals, computed in decimal so that
// 0.06 - 0.01 is the double nearest 0.05, as DuckDB's DECIMAL arithmetic gives (decimal literals
// are DOUBLE here: docs/sql.md), and a DATE column compared with a TIMESTAMP constant.
#include <cstdlib>
#include <string>

#include "src/common/civil_time.h"
#include "src/plan/binder_internal.h"

namespace laneql {
namespace plan {
namespace {

// Exact decimal text of a literal as a scaled integer: "0.06" -> 6, scale 2.
bool ScaledDecimal(const std::string& text, __int128* value, int* scale) {
  if (text.find_first_of("eE") != std::string::npos) return false;
  __int128 v = 0;
  int s = 0;
  bool fraction = false, negative = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '-' && i == 0) { negative = true; continue; }
    if (c == '.') { fraction = true; continue; }
    if (c < '0' || c > '9' || s > 30) return false;
    v = v * 10 + (c - '0');
    if (fraction) ++s;
  }
  *value = negative ? -v : v;
  *scale = s;
  return true;
}

std::string DecimalText(__int128 v, int scale) {
  const bool negative = v < 0;
  if (negative) v = -v;
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(v % 10)));
    v /= 10;
  } while (v != 0);
  while (static_cast<int>(digits.size()) <= scale) digits.insert(digits.begin(), '0');
  if (scale > 0) digits.insert(digits.end() - scale, '.');
  return (negative ? "-" : "") + digits;
}

}  // namespace

BoundExprPtr Binder::CompareDateWithTimestamp(Fn fn, std::vector<BoundExprPtr>* children, SourcePos pos) {
  std::vector<BoundExprPtr>& c = *children;
  const auto is_timestamp_constant = [](const BoundExpr& e) {
    return e.IsConstant() && !e.constant.is_null &&
           (e.type == TypeId::kTimestampMicros || e.type == TypeId::kTimestampSeconds);
  };
  size_t date = 0;
  if (c[0]->type == TypeId::kDate32 && !c[0]->IsConstant() && is_timestamp_constant(*c[1])) {
    date = 0;
  } else if (c[1]->type == TypeId::kDate32 && !c[1]->IsConstant() && is_timestamp_constant(*c[0])) {
    date = 1;
    // constant op date is date flip(op) constant.
    switch (fn) {
      case Fn::kLess: fn = Fn::kGreater; break;
      case Fn::kLessEquals: fn = Fn::kGreaterEquals; break;
      case Fn::kGreater: fn = Fn::kLess; break;
      case Fn::kGreaterEquals: fn = Fn::kLessEquals; break;
      default: break;
    }
  } else {
    return nullptr;
  }
  const BoundExpr& constant = *c[1 - date];
  const int64_t per_day = constant.type == TypeId::kTimestampMicros ? civil::kMicrosPerDay : civil::kSecondsPerDay;
  int64_t day = 0, time = 0;
  civil::SplitTimestamp(static_cast<int64_t>(constant.constant.integer), per_day, &day, &time);
  if (day < INT32_MIN + 1 || day > INT32_MAX - 1) return nullptr;
  // A date is its midnight: d < c is d < day when c is a midnight, else d <= day; d >= c is
  // d >= day, else d > day; <= and > compare with day either way.
  const bool midnight = time == 0;
  switch (fn) {
    case Fn::kLess: if (!midnight) fn = Fn::kLessEquals; break;
    case Fn::kGreaterEquals: if (!midnight) fn = Fn::kGreater; break;
    case Fn::kLessEquals:
    case Fn::kGreater: break;
    case Fn::kEquals:
    case Fn::kNotEquals: if (!midnight) return nullptr; break;
    default: return nullptr;
  }
  BoundExprPtr day_constant = MakeConstant(Value::Integer(TypeId::kDate32, day), constant.pos);
  return MakeCall2(fn, TypeId::kBool, pos, std::move(c[date]), std::move(day_constant));
}

BoundExprPtr Binder::BindDecimalLiteralSum(const sql::Expr& expr) {
  __int128 a = 0, b = 0;
  int sa = 0, sb = 0;
  if (!ScaledDecimal(expr.left->text, &a, &sa) || !ScaledDecimal(expr.right->text, &b, &sb)) {
    return nullptr;
  }
  while (sa < sb) { a *= 10; ++sa; }
  while (sb < sa) { b *= 10; ++sb; }
  const __int128 sum = expr.binary_op == sql::BinaryOp::kAdd ? a + b : a - b;
  const std::string text = DecimalText(sum, sa);
  return MakeConstant(Value::Real(TypeId::kFloat64, std::strtod(text.c_str(), nullptr)), expr.pos);
}

}  // namespace plan
}  // namespace laneql
