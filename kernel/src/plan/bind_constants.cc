// Constant arithmetic the binder does on literals before typing: DATE / TIMESTAMP ± INTERVAL
// (folded to a TIMESTAMP, as DuckDB types it) and + / - of two decimal literals, computed in
// decimal so that 0.06 - 0.01 is the double nearest 0.05, as DuckDB's DECIMAL arithmetic gives
// (decimal literals are DOUBLE here: docs/sql.md).
#include <cstdlib>
#include <string>

#include "src/common/civil_time.h"
#include "src/plan/binder_internal.h"

namespace laneql {
namespace plan {
namespace {

struct Interval {
  int64_t months = 0;
  int64_t days = 0;
  int64_t micros = 0;
};

bool AddUnit(const std::string& unit, int64_t n, Interval* out) {
  if (unit == "year") out->months += n * 12;
  else if (unit == "quarter") out->months += n * 3;
  else if (unit == "month") out->months += n;
  else if (unit == "week") out->days += n * 7;
  else if (unit == "day") out->days += n;
  else if (unit == "hour") out->micros += n * 3600 * civil::kMicrosPerSecond;
  else if (unit == "minute") out->micros += n * 60 * civil::kMicrosPerSecond;
  else if (unit == "second") out->micros += n * civil::kMicrosPerSecond;
  else if (unit == "millisecond") out->micros += n * 1000;
  else if (unit == "microsecond") out->micros += n;
  else return false;
  return true;
}

std::string Singular(std::string word) {
  for (char& c : word) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  if (word.size() > 1 && word.back() == 's') word.pop_back();
  if (word == "yr" || word == "y") return "year";
  if (word == "mon") return "month";
  if (word == "d") return "day";
  if (word == "h" || word == "hr") return "hour";
  if (word == "min" || word == "m") return "minute";
  if (word == "sec" || word == "s") return "second";
  return word;
}

// '3', '90 days', '1 year 2 months', '-1 day'.
bool ParseInterval(const std::string& text, const std::string& unit, Interval* out) {
  size_t i = 0;
  bool any = false;
  while (true) {
    while (i < text.size() && text[i] == ' ') ++i;
    if (i == text.size()) break;
    char* end = nullptr;
    const long long n = std::strtoll(text.c_str() + i, &end, 10);
    if (end == text.c_str() + i) return false;
    i = static_cast<size_t>(end - text.c_str());
    while (i < text.size() && text[i] == ' ') ++i;
    size_t j = i;
    while (j < text.size() && text[j] != ' ') ++j;
    const std::string word = text.substr(i, j - i);
    i = j;
    if (!AddUnit(word.empty() ? unit : Singular(word), n, out)) return false;
    any = true;
  }
  return any;
}

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

BoundExprPtr Binder::BindIntervalArithmetic(const sql::Expr& expr, Scope scope) {
  const bool interval_right = expr.right->kind == sql::ExprKind::kInterval;
  const sql::Expr& interval_ast = interval_right ? *expr.right : *expr.left;
  const sql::Expr& other_ast = interval_right ? *expr.left : *expr.right;
  if (!interval_right && expr.binary_op == sql::BinaryOp::kSubtract) {
    return Fail(expr.pos, "binder", "an INTERVAL cannot be subtracted from (only added to a DATE or TIMESTAMP)");
  }
  Interval interval;
  const sql::Expr& value = *interval_ast.operand;
  bool ok = false;
  if (value.kind == sql::ExprKind::kStringLiteral || value.kind == sql::ExprKind::kIntegerLiteral) {
    ok = ParseInterval(value.text, interval_ast.text, &interval);
  }
  if (!ok) {
    return Fail(interval_ast.pos, "conversion", "INTERVAL " + sql::ToString(value) +
                                                    " is not an interval laneql can read (a number and a unit)");
  }
  BoundExprPtr other = Bind(other_ast, scope);
  if (!other) return nullptr;
  if (other->type != TypeId::kDate32 && other->type != TypeId::kTimestampMicros &&
      other->type != TypeId::kTimestampSeconds && !other->string_literal) {
    return Fail(other_ast.pos, "type", std::string("cannot add an INTERVAL to ") + DuckDbTypeName(other->type));
  }
  if (other->string_literal) {
    other = CastTo(std::move(other), TypeId::kTimestampMicros, other_ast.pos);
    if (!other) return nullptr;
  }
  if (!other->IsConstant()) {
    return Fail(other_ast.pos, "binder",
                "INTERVAL arithmetic is supported on constants only (a DATE or TIMESTAMP literal) so far");
  }
  if (other->constant.is_null) return MakeConstant(Value::Null(TypeId::kTimestampMicros), expr.pos);
  const int64_t sign = expr.binary_op == sql::BinaryOp::kSubtract ? -1 : 1;
  int64_t micros = static_cast<int64_t>(other->constant.integer);
  if (other->type == TypeId::kDate32) micros *= civil::kMicrosPerDay;
  if (other->type == TypeId::kTimestampSeconds) micros *= civil::kMicrosPerSecond;
  int64_t days = 0, time = 0;
  civil::SplitTimestamp(micros, civil::kMicrosPerDay, &days, &time);
  if (interval.months != 0) {
    // Months move the calendar date, the day clamped to the new month's end (Jan 31 + 1 month
    // = Feb 28/29), as DuckDB does.
    civil::Date date = civil::CivilFromDays(days);
    int64_t month_index = date.year * 12 + (date.month - 1) + sign * interval.months;
    const int64_t year = month_index >= 0 ? month_index / 12 : -((-month_index + 11) / 12);
    const int month = static_cast<int>(month_index - year * 12) + 1;
    const int day = std::min(date.day, civil::DaysInMonth(year, month));
    days = civil::DaysFromCivil(year, month, day);
  }
  days += sign * interval.days;
  int64_t result = 0;
  if (!civil::ComposeTimestamp(days, time + sign * interval.micros, civil::kMicrosPerDay, &result)) {
    return Fail(expr.pos, "overflow", "the date is out of range after adding the INTERVAL");
  }
  return MakeConstant(Value::Integer(TypeId::kTimestampMicros, result), expr.pos);
}

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
