// Binding TIME and INTERVAL: INTERVAL literals, the operators' meanings on times and intervals
// (DuckDB's types: DATE + INTERVAL and TIMESTAMP ± INTERVAL are TIMESTAMPs, TIMESTAMP -
// TIMESTAMP an INTERVAL, TIME ± INTERVAL a TIME, INTERVAL ± INTERVAL and INTERVAL * / number
// INTERVALs), comparisons of intervals, and the interval functions (to_days, age, ...).
#include <cmath>

#include "src/common/ascii.h"
#include "src/common/interval_text.h"
#include "src/plan/binder_internal.h"
#include "src/plan/function_arguments.h"

namespace laneql {
namespace plan {
namespace {

using F = ScalarFn;

// The unit word of to_<unit>s / INTERVAL n <unit> as a date part.
bool UnitPart(const std::string& unit, DatePart* part) {
  static const struct {
    const char* name;
    DatePart part;
  } kUnits[] = {{"year", DatePart::kYear},     {"quarter", DatePart::kQuarter}, {"month", DatePart::kMonth},
                {"week", DatePart::kWeek},     {"day", DatePart::kDay},         {"hour", DatePart::kHour},
                {"minute", DatePart::kMinute}, {"second", DatePart::kSecond},   {"millisecond", DatePart::kMillisecond},
                {"microsecond", DatePart::kMicrosecond}};
  for (const auto& u : kUnits) {
    if (unit == u.name) {
      *part = u.part;
      return true;
    }
  }
  return false;
}

bool IsTimestamp(TypeId t) { return t == TypeId::kTimestampMicros || t == TypeId::kTimestampSeconds; }

}  // namespace

BoundExprPtr Binder::BindIntervalLiteral(const sql::Expr& expr, Scope scope) {
  const sql::Expr& value = *expr.operand;
  const bool literal = value.kind == sql::ExprKind::kStringLiteral || value.kind == sql::ExprKind::kIntegerLiteral ||
                       value.kind == sql::ExprKind::kDecimalLiteral;
  if (literal) {
    // INTERVAL '1 day 02:00', INTERVAL '3' DAY, INTERVAL 1.5 HOUR: read as text.
    const std::string text = expr.text.empty() ? value.text : value.text + " " + expr.text;
    Interval interval;
    if (!civil::ParseInterval(text, &interval)) {
      return Fail(value.pos, "conversion", "Could not convert string '" + text + "' to INTERVAL");
    }
    return MakeConstant(Value::Integer(TypeId::kInterval, PackInterval(interval)), expr.pos);
  }
  // INTERVAL (expr) DAY: to_days(expr).
  DatePart part;
  if (!UnitPart(expr.text, &part)) return Fail(expr.pos, "binder", "an INTERVAL of an expression needs a unit");
  BoundExprPtr n = Bind(value, scope);
  if (!n) return nullptr;
  std::vector<BoundExprPtr> args;
  args.push_back(std::move(n));
  return BindToInterval("to_" + expr.text + "s", part, std::move(args), expr.pos);
}

BoundExprPtr Binder::BindToInterval(const std::string& name, DatePart part, std::vector<BoundExprPtr> args,
                                    SourcePos pos) {
  FunctionArguments check(this, name, &args, pos);
  if (!check.Arity(1, 1)) return nullptr;
  // Seconds and milliseconds take fractions; the other units whole numbers, as DuckDB's BIGINT.
  const bool fractional = part == DatePart::kSecond || part == DatePart::kMillisecond;
  if (fractional ? !check.ToDouble(0) : !check.Integer(0, TypeId::kInt64)) return nullptr;
  BoundExprPtr node = ScalarCall(F::kToInterval, TypeId::kInterval, pos, std::move(args));
  node->part = part;
  return check.Finish(std::move(node));
}

BoundExprPtr Binder::BindIntervalFunction(const ScalarFunctionInfo& info, std::vector<BoundExprPtr> args,
                                          SourcePos pos) {
  const std::string name = info.name;
  FunctionArguments check(this, name, &args, pos);
  switch (info.fn) {
    case F::kToInterval: {
      DatePart part;
      std::string unit = name.substr(3);  // to_days -> days
      unit.pop_back();
      if (!UnitPart(unit, &part)) return Fail(pos, "binder", "unknown interval unit of " + name);
      return BindToInterval(name, part, std::move(args), pos);
    }
    case F::kAge: {
      if (!check.Arity(1, 2)) return nullptr;
      for (auto& arg : args) {
        if (!TemporalArg(name, &arg, pos)) return nullptr;
        if (arg->type != TypeId::kTimestampMicros) {
          arg = CastTo(std::move(arg), TypeId::kTimestampMicros, pos);
          if (!arg) return nullptr;
        }
      }
      if (args.size() == 1) {
        // age(t): from t to midnight of today (the statement's clock, UTC).
        const int64_t micros = StatementStartMicros();
        constexpr int64_t kMicrosPerDay = 86400000000;
        const int64_t midnight = (micros >= 0 ? micros / kMicrosPerDay : (micros + 1) / kMicrosPerDay - 1) * kMicrosPerDay;
        args.insert(args.begin(), MakeConstant(Value::Integer(TypeId::kTimestampMicros, midnight), pos));
      }
      return check.Finish(ScalarCall(F::kAge, TypeId::kInterval, pos, std::move(args)));
    }
    case F::kMakeTime:
      if (!check.Arity(3, 3) || !check.Integer(0, TypeId::kInt64) || !check.Integer(1, TypeId::kInt64) ||
          !check.ToDouble(2)) {
        return nullptr;
      }
      return check.Finish(ScalarCall(F::kMakeTime, TypeId::kTime, pos, std::move(args)));
    case F::kTimestampPlusInterval: {  // date_add(t, interval)
      if (!check.Arity(2, 2)) return nullptr;
      if (BoundExprPtr node = BindTemporalArithmetic(Fn::kAdd, &args, pos); node || failed()) return node;
      return Fail(pos, "type", name + " needs a DATE or TIMESTAMP and an INTERVAL");
    }
    default: return Fail(pos, "internal", name + " is no interval function");
  }
}

BoundExprPtr Binder::BindTemporalArithmetic(Fn fn, std::vector<BoundExprPtr>* children, SourcePos pos) {
  std::vector<BoundExprPtr>& c = *children;
  const TypeId a = c[0]->type, b = c[1]->type;
  const bool ia = IsInterval(a), ib = IsInterval(b);
  const auto as_timestamp = [&](size_t i) {
    if (c[i]->type == TypeId::kTimestampMicros) return true;
    c[i] = CastTo(std::move(c[i]), TypeId::kTimestampMicros, pos);
    return c[i] != nullptr;
  };
  const auto call = [&](F f, TypeId type) {
    const bool constant = c[0]->IsConstant() && c[1]->IsConstant();
    BoundExprPtr node = ScalarCall(f, type, pos, std::move(*children));
    return constant ? Fold(std::move(node), /*defer_errors=*/true) : std::move(node);
  };
  if (fn == Fn::kAdd || fn == Fn::kSubtract) {
    const bool add = fn == Fn::kAdd;
    // INTERVAL + DATE / TIMESTAMP / TIME: the interval on the right.
    if (add && ia && !ib && (IsTemporal(b) || IsTime(b) || c[1]->string_literal)) std::swap(c[0], c[1]);
    const TypeId x = c[0]->type, y = c[1]->type;
    if (IsInterval(y)) {
      if (IsInterval(x)) return call(add ? F::kIntervalPlus : F::kIntervalMinus, TypeId::kInterval);
      if (IsTime(x)) return call(add ? F::kTimePlusInterval : F::kTimeMinusInterval, TypeId::kTime);
      if (IsTemporal(x) || c[0]->string_literal || IsNullLiteral(*c[0])) {
        if (!as_timestamp(0)) return nullptr;
        return call(add ? F::kTimestampPlusInterval : F::kTimestampMinusInterval, TypeId::kTimestampMicros);
      }
      return Fail(pos, "type", std::string("cannot ") + (add ? "add an INTERVAL to " : "subtract an INTERVAL from ") +
                                   DuckDbTypeName(x));
    }
    if (IsInterval(x)) {
      if (IsNullLiteral(*c[1])) return MakeConstant(Value::Null(TypeId::kInterval), pos);
      return Fail(pos, "type", std::string("cannot ") + (add ? "add " : "subtract ") + DuckDbTypeName(y) +
                                   (add ? " to" : " from") + " an INTERVAL");
    }
    // TIMESTAMP - TIMESTAMP (either side may be a DATE or a string literal, not both DATEs).
    if (!add && (IsTimestamp(x) || IsTimestamp(y)) && (IsTemporal(x) || c[0]->string_literal) &&
        (IsTemporal(y) || c[1]->string_literal)) {
      if (!as_timestamp(0) || !as_timestamp(1)) return nullptr;
      return call(F::kTimestampMinusTimestamp, TypeId::kInterval);
    }
    return nullptr;
  }
  if (fn == Fn::kMultiply || fn == Fn::kDivide) {
    if (fn == Fn::kMultiply && !ia && ib) std::swap(c[0], c[1]);
    if (!IsInterval(c[0]->type)) return nullptr;
    if (IsNullLiteral(*c[1])) return MakeConstant(Value::Null(TypeId::kInterval), pos);
    if (!IsNumeric(c[1]->type) && !IsDecimal(c[1]->type)) {
      return Fail(pos, "type", std::string("cannot ") + (fn == Fn::kMultiply ? "multiply" : "divide") +
                                   " an INTERVAL by " + DuckDbTypeName(c[1]->type));
    }
    c[1] = CastTo(std::move(c[1]), TypeId::kFloat64, pos);
    if (!c[1]) return nullptr;
    return call(fn == Fn::kMultiply ? F::kIntervalTimes : F::kIntervalDivide, TypeId::kInterval);
  }
  return nullptr;
}

}  // namespace plan
}  // namespace laneql
