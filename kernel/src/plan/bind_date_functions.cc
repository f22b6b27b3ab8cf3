// Binding the library's date and time functions: the parts of dates (extract, date_part and
// year() ... julian(), as Fn::kExtract), date_trunc, date_diff, names, make_date /
// make_timestamp, epochs, strftime / strptime, and the statement's clock (current_date, now()).
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <algorithm>
#include <iterator>

#include "src/common/time_format.h"
#include "src/plan/binder_internal.h"
#include "src/plan/date_parts.h"
#include "src/plan/function_arguments.h"

namespace laneql {
namespace plan {

using F = ScalarFn;

BoundExprPtr Binder::BindDateFunction(const ScalarFunctionInfo& info, std::vector<BoundExprPtr> args, SourcePos pos) {
  const std::string name = info.name;
  FunctionArguments check(this, name, &args, pos);
  switch (info.fn) {
    case F::kDateDiffPart: {
      if (!check.Arity(3, 3)) return nullptr;
      DatePart part;
      if (!ConstantDatePart(name, args[0].get(), &part)) return nullptr;
      if (part == DatePart::kEpoch || part == DatePart::kJulian || part == DatePart::kEra ||
          part == DatePart::kYearWeek) {
        return Fail(args[0]->pos, "binder", name + " does not support the part '" + args[0]->constant.text + "'");
      }
      for (size_t i = 1; i < 3; ++i) {
        if (!TemporalArg(name, &args[i], pos)) return nullptr;
      }
      std::vector<BoundExprPtr> times;
      times.push_back(std::move(args[1]));
      times.push_back(std::move(args[2]));
      BoundExprPtr node = ScalarCall(F::kDateDiffPart, TypeId::kInt64, pos, std::move(times));
      node->part = part;
      return check.Finish(std::move(node));
    }
    case F::kDayName:
    case F::kMonthName:
    case F::kLastDay:
    case F::kEpochUs:
      if (!check.Arity(1, 1) || !TemporalArg(name, &args[0], pos)) return nullptr;
      return check.Finish(ScalarCall(info.fn, info.fn == F::kLastDay ? TypeId::kDate32
                                    : info.fn == F::kEpochUs ? TypeId::kInt64
                                                             : TypeId::kString,
                           pos, std::move(args)));
    case F::kEpochMs: {
      if (!check.Arity(1, 1)) return nullptr;
      if (IsInteger(args[0]->type)) {  // milliseconds to a TIMESTAMP
        if (!check.Integer(0, TypeId::kInt64)) return nullptr;
        return check.Finish(ScalarCall(F::kEpochMs, TypeId::kTimestampMicros, pos, std::move(args)));
      }
      if (!TemporalArg(name, &args[0], pos)) return nullptr;
      return check.Finish(ScalarCall(F::kEpochMs, TypeId::kInt64, pos, std::move(args)));
    }
    case F::kStrftime:
    case F::kStrptime:
    case F::kTryStrptime: {
      if (!check.Arity(2, 2)) return nullptr;
      const bool format_time = info.fn == F::kStrftime;
      if (format_time ? !TemporalArg(name, &args[0], pos) : !check.String(0)) return nullptr;
      const BoundExpr& format = *args[1];
      if (!format.IsConstant() || format.constant.is_null || !IsString(format.type)) {
        return Fail(format.pos, "binder", name + " needs a constant format string");
      }
      auto compiled = std::make_shared<TimeFormat>();
      std::string format_error;
      if (!TimeFormat::Compile(format.constant.text, compiled.get(), &format_error)) {
        return Fail(format.pos, "binder", name + ": " + format_error);
      }
      BoundExprPtr node = ScalarCall(info.fn, format_time ? TypeId::kString : TypeId::kTimestampMicros, pos, std::move(args));
      node->compiled = compiled;
      node->nullable = true;
      return check.Finish(std::move(node));
    }
    case F::kMakeDate:
    case F::kMakeTimestamp: {
      const bool timestamp = info.fn == F::kMakeTimestamp;
      if (!check.Arity(timestamp ? 6 : 3, timestamp ? 6 : 3)) return nullptr;
      for (size_t i = 0; i < args.size(); ++i) {
        if (i == 5) {
          if (!check.ToDouble(5)) return nullptr;
        } else if (!check.Integer(i, TypeId::kInt64)) {
          return nullptr;
        }
      }
      return check.Finish(ScalarCall(info.fn, timestamp ? TypeId::kTimestampMicros : TypeId::kDate32, pos, std::move(args)));
    }
    default:
      break;
  }
  if (name == "date_part" || name == "datepart") return BindDatePart(name, std::move(args), pos);
  if (name == "date_trunc" || name == "datetrunc") return BindDateTrunc(name, std::move(args), pos);
  if (DatePart part; ParseDatePart(name, &part)) {
    // year(t), dayofweek(t), ...: date_part with the function's name as the part.
    if (!check.Arity(1, 1)) return nullptr;
    args.insert(args.begin(), MakeConstant(Value::String(name), pos));
    return BindDatePart(name, std::move(args), pos);
  }
  if (name == "current_date" || name == "today" || name == "current_timestamp" || name == "now") {
    if (!check.Arity(0, 0)) return nullptr;
    const int64_t micros = StatementStartMicros();
    if (name == "current_date" || name == "today") {
      constexpr int64_t kMicrosPerDay = 86400000000;
      const int64_t days = micros >= 0 ? micros / kMicrosPerDay : (micros + 1) / kMicrosPerDay - 1;
      return MakeConstant(Value::Integer(TypeId::kDate32, days), pos);
    }
    return MakeConstant(Value::Integer(TypeId::kTimestampMicros, micros), pos);
  }
  return Fail(pos, "binder", "internal error: function " + name + "() has no binding");
}

int64_t Binder::StatementStartMicros() {
  if (start_micros_ == INT64_MIN) {
    start_micros_ = std::chrono::duration_cast<std::chrono::microseconds>(
                        std::chrono::system_clock::now().time_since_epoch())
                        .count();
  }
  return start_micros_;
}

bool Binder::ConstantDatePart(const std::string& function, const BoundExpr* part_arg, DatePart* part) {
  if (!part_arg->IsConstant() || !IsString(part_arg->type) || part_arg->constant.is_null) {
    Fail(part_arg->pos, "binder", "the " + function + " part must be a constant string");
    return false;
  }
  if (!ParseDatePart(part_arg->constant.text, part)) {
    Fail(part_arg->pos, "binder", function + ": unknown date part '" + part_arg->constant.text + "' (" +
                                      DatePartNames() + ")");
    return false;
  }
  return true;
}

bool Binder::TemporalArg(const std::string& function, BoundExprPtr* arg, SourcePos pos) {
  if ((*arg)->string_literal || IsNullLiteral(**arg)) *arg = CastTo(std::move(*arg), TypeId::kTimestampMicros, pos);
  if (!*arg) return false;
  if (IsTemporal((*arg)->type)) return true;
  Fail((*arg)->pos, "type", function + " needs a DATE or TIMESTAMP, not " + DuckDbTypeName((*arg)->type));
  return false;
}

BoundExprPtr Binder::BindDatePart(const std::string& function, std::vector<BoundExprPtr> args, SourcePos pos) {
  if (args.size() != 2) {
    return Fail(pos, "binder", function + " takes 2 arguments, got " + std::to_string(args.size()));
  }
  DatePart part;
  if (!ConstantDatePart(function, args[0].get(), &part)) return nullptr;
  if (IsTime(args[1]->type) || IsInterval(args[1]->type)) {
    // Of a time of day or an interval (bind_intervals.cc's kTimePart): the clock's parts; of an
    // interval also years, months and days; epoch is the seconds (a month as 30 days).
    static const DatePart kClock[] = {DatePart::kHour, DatePart::kMinute, DatePart::kSecond, DatePart::kMillisecond,
                                      DatePart::kMicrosecond, DatePart::kEpoch};
    static const DatePart kCalendar[] = {DatePart::kYear, DatePart::kMonth, DatePart::kDay, DatePart::kQuarter,
                                         DatePart::kDecade, DatePart::kCentury, DatePart::kMillennium};
    bool ok = std::find(std::begin(kClock), std::end(kClock), part) != std::end(kClock);
    if (IsInterval(args[1]->type)) ok = ok || std::find(std::begin(kCalendar), std::end(kCalendar), part) != std::end(kCalendar);
    if (!ok) {
      return Fail(args[0]->pos, "binder", function + " does not support the part '" + args[0]->constant.text + "' of " +
                                               DuckDbTypeName(args[1]->type));
    }
    std::vector<BoundExprPtr> value;
    value.push_back(std::move(args[1]));
    const bool constant = value[0]->IsConstant();
    BoundExprPtr node = ScalarCall(ScalarFn::kTimePart, part == DatePart::kEpoch ? TypeId::kFloat64 : TypeId::kInt64,
                                   pos, std::move(value));
    node->part = part;
    return constant ? Fold(std::move(node), /*defer_errors=*/true) : std::move(node);
  }
  if (!TemporalArg(function, &args[1], pos)) return nullptr;
  std::vector<BoundExprPtr> value;
  value.push_back(std::move(args[1]));
  BoundExprPtr node = MakeCall(Fn::kExtract, DatePartIsDouble(part) ? TypeId::kFloat64 : TypeId::kInt64, pos,
                               std::move(value));
  node->part = part;
  if (node->args[0]->IsConstant()) return Fold(std::move(node), /*defer_errors=*/true);
  return node;
}

BoundExprPtr Binder::BindDateTrunc(const std::string& function, std::vector<BoundExprPtr> args, SourcePos pos) {
  if (args.size() != 2) {
    return Fail(pos, "binder", function + " takes 2 arguments, got " + std::to_string(args.size()));
  }
  DatePart part;
  if (!ConstantDatePart(function, args[0].get(), &part)) return nullptr;
  if (part == DatePart::kEpoch || part == DatePart::kJulian || part == DatePart::kEra || part == DatePart::kYearWeek) {
    return Fail(args[0]->pos, "binder", function + " does not support the part '" + args[0]->constant.text + "'");
  }
  if (!TemporalArg(function, &args[1], pos)) return nullptr;
  // DuckDB (since 2.0): TIMESTAMP for every part, from DATE or TIMESTAMP (1.4 gave DATE for
  // year / month / day).
  std::vector<BoundExprPtr> value;
  value.push_back(std::move(args[1]));
  BoundExprPtr node = MakeCall(Fn::kDateTrunc, TypeId::kTimestampMicros, pos, std::move(value));
  node->part = part;
  if (node->args[0]->IsConstant()) return Fold(std::move(node), /*defer_errors=*/true);
  return node;
}

}  // namespace plan
}  // namespace laneql
