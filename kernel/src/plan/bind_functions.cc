// Binding the library's scalar functions (scalar_functions.h): argument counts and types,
// implicit casts and result types as DuckDB has them. Conditionals that short-circuit
// (coalesce, ifnull, nullif, if) become CASE, whose branches are evaluated only on the rows
// that take them; typeof and pi() are constants.
#include <chrono>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "src/common/time_format.h"
#include "src/exec/regexp.h"
#include "src/plan/binder_internal.h"
#include "src/plan/date_parts.h"

namespace laneql {
namespace plan {
namespace {

using F = ScalarFn;


// The functions whose integer arguments keep their type (abs, round, trunc); the others read
// integers as DOUBLE.
bool KeepsIntegerType(F fn) { return fn == F::kAbs || fn == F::kRound || fn == F::kTrunc; }

BoundExprPtr Scalar(F fn, TypeId type, SourcePos pos, std::vector<BoundExprPtr> args) {
  BoundExprPtr node = MakeCall(Fn::kScalar, type, pos, std::move(args));
  node->scalar = fn;
  return node;
}

BoundExprPtr IsNotNull(const BoundExpr& e) {
  std::vector<BoundExprPtr> one;
  one.push_back(Clone(e));
  return MakeCall(Fn::kIsNotNull, TypeId::kBool, e.pos, std::move(one));
}

}  // namespace

BoundExprPtr Binder::BindLibraryFunction(const ScalarFunctionInfo& info, std::vector<BoundExprPtr> args,
                                         SourcePos pos) {
  const std::string name = info.name;
  auto arity = [&](size_t lo, size_t hi) -> bool {
    if (args.size() >= lo && args.size() <= hi) return true;
    const std::string count = lo == hi ? std::to_string(lo) : hi == SIZE_MAX ? "at least " + std::to_string(lo)
                                                                             : std::to_string(lo) + " to " + std::to_string(hi);
    Fail(pos, "binder", name + " takes " + count + " argument" + (hi == 1 || lo == 1 ? "" : "s") + ", got " +
                            std::to_string(args.size()));
    return false;
  };
  auto numeric = [&](size_t i, TypeId null_type) -> bool {
    BoundExprPtr& a = args[i];
    if (IsNullLiteral(*a)) {
      a = CastTo(std::move(a), null_type, pos);
      return a != nullptr;
    }
    if (IsNumeric(a->type) && a->type != TypeId::kBool) return true;
    Fail(a->pos, "type", name + " needs a numeric argument, not " + DuckDbTypeName(a->type));
    return false;
  };
  auto to_double = [&](size_t i) -> bool {
    if (!numeric(i, TypeId::kFloat64)) return false;
    args[i] = CastToAtOwnPos(std::move(args[i]), TypeId::kFloat64);
    return args[i] != nullptr;
  };
  auto finish = [&](BoundExprPtr node) -> BoundExprPtr {
    if (!node) return nullptr;
    bool constant = node->kind == BoundKind::kCall;
    for (const BoundExprPtr& arg : node->args) constant = constant && arg->IsConstant();
    return constant ? Fold(std::move(node), /*defer_errors=*/true) : std::move(node);
  };

  auto string_arg = [&](size_t i) -> bool {
    BoundExprPtr& a = args[i];
    if (IsNullLiteral(*a)) {
      a = CastTo(std::move(a), TypeId::kString, pos);
      return a != nullptr;
    }
    if (IsString(a->type)) return true;
    Fail(a->pos, "type", name + " needs a VARCHAR argument, not " + DuckDbTypeName(a->type));
    return false;
  };
  auto integer_arg = [&](size_t i, TypeId type) -> bool {
    BoundExprPtr& a = args[i];
    if (!IsNullLiteral(*a) && !IsInteger(a->type)) {
      Fail(a->pos, "type", name + " needs an integer here, not " + DuckDbTypeName(a->type));
      return false;
    }
    a = CastToAtOwnPos(std::move(a), type);
    return a != nullptr;
  };
  // Checks each argument: 's' a string, 'i' a BIGINT, 'n' an INTEGER.
  auto shaped = [&](const char* kinds) -> bool {
    for (size_t i = 0; i < args.size(); ++i) {
      const char kind = kinds[i];
      if (!(kind == 's' ? string_arg(i) : integer_arg(i, kind == 'i' ? TypeId::kInt64 : TypeId::kInt32))) return false;
    }
    return true;
  };

  switch (info.fn) {
    case F::kBuiltIn:
      break;
    case F::kConcat:
    case F::kConcatWs: {
      if (!arity(info.fn == F::kConcat ? 1 : 2, SIZE_MAX)) return nullptr;
      for (size_t i = 0; i < args.size(); ++i) {
        if (info.fn == F::kConcatWs && i == 0) {
          if (!string_arg(0)) return nullptr;
        } else if (!IsString(args[i]->type)) {
          args[i] = CastToAtOwnPos(std::move(args[i]), TypeId::kString);  // any value as its text
          if (!args[i]) return nullptr;
        }
      }
      BoundExprPtr node = Scalar(info.fn, TypeId::kString, pos, std::move(args));
      node->nullable = info.fn == F::kConcatWs;
      return finish(std::move(node));
    }
    case F::kLeft: case F::kRight:
      if (!arity(2, 2) || !shaped("si")) return nullptr;
      return finish(Scalar(info.fn, TypeId::kString, pos, std::move(args)));
    case F::kReplace:
      if (!arity(3, 3) || !shaped("sss")) return nullptr;
      return finish(Scalar(info.fn, TypeId::kString, pos, std::move(args)));
    case F::kSplitPart:
      if (!arity(3, 3) || !shaped("ssi")) return nullptr;
      return finish(Scalar(info.fn, TypeId::kString, pos, std::move(args)));
    case F::kTrim: case F::kLtrim: case F::kRtrim:
      if (!arity(1, 2) || !shaped("ss")) return nullptr;
      return finish(Scalar(info.fn, TypeId::kString, pos, std::move(args)));
    case F::kLpad: case F::kRpad:
      if (!arity(3, 3) || !shaped("sns")) return nullptr;
      return finish(Scalar(info.fn, TypeId::kString, pos, std::move(args)));
    case F::kReverse:
    case F::kMd5:
    case F::kSha256:
      if (!arity(1, 1) || !shaped("s")) return nullptr;
      return finish(Scalar(info.fn, TypeId::kString, pos, std::move(args)));
    case F::kRepeat:
      if (!arity(2, 2) || !shaped("si")) return nullptr;
      return finish(Scalar(info.fn, TypeId::kString, pos, std::move(args)));
    case F::kStrpos:
      if (!arity(2, 2) || !shaped("ss")) return nullptr;
      return finish(Scalar(info.fn, TypeId::kInt64, pos, std::move(args)));
    case F::kAscii:
      if (!arity(1, 1) || !shaped("s")) return nullptr;
      return finish(Scalar(info.fn, TypeId::kInt32, pos, std::move(args)));
    case F::kChr:
      if (!arity(1, 1) || !shaped("n")) return nullptr;
      return finish(Scalar(info.fn, TypeId::kString, pos, std::move(args)));
    case F::kIntegerDivide:
    case F::kBitAnd:
    case F::kBitOr:
    case F::kBitXor:
    case F::kShiftLeft:
    case F::kShiftRight:
    case F::kBitNot: {
      const size_t n = info.fn == F::kBitNot ? 1 : 2;
      if (!arity(n, n)) return nullptr;
      for (size_t i = 0; i < n; ++i) {
        if (!numeric(i, TypeId::kInt32)) return nullptr;
        if (info.fn != F::kIntegerDivide && !IsInteger(args[i]->type)) {
          return Fail(args[i]->pos, "type", name + " needs integer arguments, not " + DuckDbTypeName(args[i]->type));
        }
      }
      if (n == 2 && !Unify(&args[0], &args[1], pos)) return nullptr;
      const TypeId type = args[0]->type;
      if (IsFloat(type)) {  // DuckDB 2.0's // of floats is their plain division
        return finish(MakeCall(Fn::kDivide, type, pos, std::move(args)));
      }
      return finish(Scalar(info.fn, type, pos, std::move(args)));
    }
    case F::kDateDiffPart: {
      if (!arity(3, 3)) return nullptr;
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
      BoundExprPtr node = Scalar(F::kDateDiffPart, TypeId::kInt64, pos, std::move(times));
      node->part = part;
      return finish(std::move(node));
    }
    case F::kDayName:
    case F::kMonthName:
    case F::kLastDay:
    case F::kEpochUs:
      if (!arity(1, 1) || !TemporalArg(name, &args[0], pos)) return nullptr;
      return finish(Scalar(info.fn, info.fn == F::kLastDay ? TypeId::kDate32
                                    : info.fn == F::kEpochUs ? TypeId::kInt64
                                                             : TypeId::kString,
                           pos, std::move(args)));
    case F::kEpochMs: {
      if (!arity(1, 1)) return nullptr;
      if (IsInteger(args[0]->type)) {  // milliseconds to a TIMESTAMP
        if (!integer_arg(0, TypeId::kInt64)) return nullptr;
        return finish(Scalar(F::kEpochMs, TypeId::kTimestampMicros, pos, std::move(args)));
      }
      if (!TemporalArg(name, &args[0], pos)) return nullptr;
      return finish(Scalar(F::kEpochMs, TypeId::kInt64, pos, std::move(args)));
    }
    case F::kStrftime:
    case F::kStrptime:
    case F::kTryStrptime: {
      if (!arity(2, 2)) return nullptr;
      const bool format_time = info.fn == F::kStrftime;
      if (format_time ? !TemporalArg(name, &args[0], pos) : !string_arg(0)) return nullptr;
      const BoundExpr& format = *args[1];
      if (!format.IsConstant() || format.constant.is_null || !IsString(format.type)) {
        return Fail(format.pos, "binder", name + " needs a constant format string");
      }
      auto compiled = std::make_shared<TimeFormat>();
      std::string format_error;
      if (!TimeFormat::Compile(format.constant.text, compiled.get(), &format_error)) {
        return Fail(format.pos, "binder", name + ": " + format_error);
      }
      BoundExprPtr node = Scalar(info.fn, format_time ? TypeId::kString : TypeId::kTimestampMicros, pos, std::move(args));
      node->compiled = compiled;
      node->nullable = true;
      return finish(std::move(node));
    }
    case F::kMakeDate:
    case F::kMakeTimestamp: {
      const bool timestamp = info.fn == F::kMakeTimestamp;
      if (!arity(timestamp ? 6 : 3, timestamp ? 6 : 3)) return nullptr;
      for (size_t i = 0; i < args.size(); ++i) {
        if (i == 5) {
          if (!to_double(5)) return nullptr;
        } else if (!integer_arg(i, TypeId::kInt64)) {
          return nullptr;
        }
      }
      return finish(Scalar(info.fn, timestamp ? TypeId::kTimestampMicros : TypeId::kDate32, pos, std::move(args)));
    }
    case F::kRegexpMatches:
    case F::kRegexpFullMatch:
    case F::kRegexpExtract: {
      const bool extract = info.fn == F::kRegexpExtract;
      std::string compile_error;
      if (!exec::RegexpMatcher::Available()) {  // said first, whatever the arguments
        exec::RegexpMatcher::Compile(name, "", "", &compile_error);
        return Fail(pos, "binder", compile_error);
      }
      if (!arity(2, extract ? 4 : 3)) return nullptr;
      if (!string_arg(0)) return nullptr;
      // pattern, [group,] [options]: constants.
      const size_t options_at = extract ? 3 : 2;
      int group = 0;
      for (size_t i = 1; i < args.size(); ++i) {
        const bool group_arg = extract && i == 2;
        const BoundExpr& a = *args[i];
        if (!a.IsConstant() || a.constant.is_null || (group_arg ? !IsInteger(a.type) : !IsString(a.type))) {
          return Fail(a.pos, "binder", name + " needs a constant " + (group_arg ? "integer group" : i == 1 ? "pattern string" : "options string") + " here");
        }
        if (group_arg) group = static_cast<int>(a.constant.integer);
      }
      auto matcher = exec::RegexpMatcher::Compile(name, args[1]->constant.text,
                                                  args.size() > options_at ? args[options_at]->constant.text : "",
                                                  &compile_error);
      if (!matcher) return Fail(args[1]->pos, "binder", compile_error);
      if (extract && (group < 0 || group > matcher->Groups())) {
        return Fail(args[2]->pos, "binder", name + ": the pattern has no group " + std::to_string(group));
      }
      std::vector<BoundExprPtr> kept;
      kept.push_back(std::move(args[0]));
      kept.push_back(std::move(args[1]));  // the pattern stays: equal calls fingerprint equal
      if (extract) kept.push_back(MakeConstant(Value::Integer(TypeId::kInt32, group), pos));
      if (args.size() > options_at) kept.push_back(std::move(args[options_at]));
      BoundExprPtr node = Scalar(info.fn, extract ? TypeId::kString : TypeId::kBool, pos, std::move(kept));
      node->compiled = matcher;
      return finish(std::move(node));
    }
    case F::kStartsWith:
    case F::kEndsWith:
    case F::kContains: {
      if (!arity(2, 2) || !shaped("ss")) return nullptr;
      const BoundExpr& needle = *args[1];
      const bool plain = needle.IsConstant() && !needle.constant.is_null && !args[0]->IsConstant() &&
                         needle.constant.text.find_first_of("%_") == std::string::npos;
      if (plain) {
        // As LIKE 'needle%' / '%needle' / '%needle%' (no escape character: none is needed).
        const std::string& text = needle.constant.text;
        const std::string pattern = info.fn == F::kStartsWith ? text + "%"
                                    : info.fn == F::kEndsWith ? "%" + text
                                                              : "%" + text + "%";
        args[1] = MakeConstant(Value::String(pattern), needle.pos);
        return MakeCall(Fn::kLike, TypeId::kBool, pos, std::move(args));
      }
      return finish(Scalar(info.fn, TypeId::kBool, pos, std::move(args)));
    }
    case F::kAbs:
    case F::kSign:
    case F::kFloor:
    case F::kCeil:
    case F::kTrunc:
    case F::kEven: {
      if (!arity(1, 1) || !numeric(0, info.fn == F::kSign ? TypeId::kInt8 : info.fn == F::kAbs ? TypeId::kInt64
                                                             : info.fn == F::kTrunc ? TypeId::kInt64
                                                                                    : TypeId::kFloat64)) {
        return nullptr;
      }
      TypeId type = args[0]->type;
      if (info.fn == F::kSign) {
        type = TypeId::kInt8;
      } else if (info.fn == F::kEven || (IsInteger(type) && !KeepsIntegerType(info.fn))) {
        args[0] = CastToAtOwnPos(std::move(args[0]), TypeId::kFloat64);
        if (!args[0]) return nullptr;
        type = TypeId::kFloat64;
      }
      return finish(Scalar(info.fn, type, pos, std::move(args)));
    }
    case F::kRound: {
      if (!arity(1, 2) || !numeric(0, TypeId::kInt64)) return nullptr;
      if (args.size() == 2) {
        if (!numeric(1, TypeId::kInt32) || !IsInteger(args[1]->type)) {
          if (args[1]) Fail(args[1]->pos, "type", "round needs an integer number of digits, not " +
                                                       std::string(DuckDbTypeName(args[1]->type)));
          return nullptr;
        }
        args[1] = CastToAtOwnPos(std::move(args[1]), TypeId::kInt32);
        if (!args[1]) return nullptr;
      }
      const TypeId type = args[0]->type;
      return finish(Scalar(F::kRound, type, pos, std::move(args)));
    }
    case F::kSqrt: case F::kCbrt: case F::kExp: case F::kLn: case F::kLog10: case F::kLog2:
    case F::kSin: case F::kCos: case F::kTan: case F::kCot: case F::kAsin: case F::kAcos: case F::kAtan:
    case F::kDegrees: case F::kRadians: {
      if (!arity(1, 1) || !to_double(0)) return nullptr;
      return finish(Scalar(info.fn, TypeId::kFloat64, pos, std::move(args)));
    }
    case F::kLogBase: {
      if (!arity(1, 2)) return nullptr;
      for (size_t i = 0; i < args.size(); ++i) {
        if (!to_double(i)) return nullptr;
      }
      const F fn = args.size() == 1 ? F::kLog10 : F::kLogBase;
      return finish(Scalar(fn, TypeId::kFloat64, pos, std::move(args)));
    }
    case F::kPow:
    case F::kAtan2: {
      if (!arity(2, 2) || !to_double(0) || !to_double(1)) return nullptr;
      return finish(Scalar(info.fn, TypeId::kFloat64, pos, std::move(args)));
    }
    case F::kGcd:
    case F::kLcm: {
      if (!arity(2, 2)) return nullptr;
      TypeId type = TypeId::kInt64;
      for (size_t i = 0; i < 2; ++i) {
        if (!numeric(i, TypeId::kInt64)) return nullptr;
        if (!IsInteger(args[i]->type)) {
          return Fail(args[i]->pos, "type", name + " needs integer arguments, not " + DuckDbTypeName(args[i]->type));
        }
        if (args[i]->type == TypeId::kInt128 || args[i]->type == TypeId::kUInt64) type = TypeId::kInt128;
      }
      for (BoundExprPtr& arg : args) {
        arg = CastToAtOwnPos(std::move(arg), type);
        if (!arg) return nullptr;
      }
      return finish(Scalar(info.fn, type, pos, std::move(args)));
    }
    case F::kIsNan:
    case F::kIsInf:
    case F::kIsFinite: {
      if (!arity(1, 1) || !numeric(0, TypeId::kFloat64)) return nullptr;
      if (IsInteger(args[0]->type)) {
        args[0] = CastToAtOwnPos(std::move(args[0]), TypeId::kFloat64);
        if (!args[0]) return nullptr;
      }
      return finish(Scalar(info.fn, TypeId::kBool, pos, std::move(args)));
    }
    case F::kGreatest:
    case F::kLeast: {
      if (!arity(1, SIZE_MAX) || !UnifyAll(&args)) return nullptr;
      // All NULL: INTEGER, as DuckDB types greatest(NULL, NULL).
      const TypeId type = IsNullLiteral(*args[0]) ? TypeId::kInt32 : args[0]->type;
      for (BoundExprPtr& arg : args) {
        arg = CastToAtOwnPos(std::move(arg), type);
        if (!arg) return nullptr;
      }
      return finish(Scalar(info.fn, type, pos, std::move(args)));
    }
  }

  // Built in: parts of dates, rewrites and constants.
  if (name == "date_part" || name == "datepart") return BindDatePart(name, std::move(args), pos);
  if (name == "date_trunc" || name == "datetrunc") return BindDateTrunc(name, std::move(args), pos);
  if (DatePart part; info.family == FunctionFamily::kDate && ParseDatePart(name, &part)) {
    // year(t), dayofweek(t), ...: date_part with the function's name as the part.
    if (!arity(1, 1)) return nullptr;
    args.insert(args.begin(), MakeConstant(Value::String(name), pos));
    return BindDatePart(name, std::move(args), pos);
  }
  if (name == "current_date" || name == "today" || name == "current_timestamp" || name == "now") {
    if (!arity(0, 0)) return nullptr;
    const int64_t micros = StatementStartMicros();
    if (name == "current_date" || name == "today") {
      constexpr int64_t kMicrosPerDay = 86400000000;
      const int64_t days = micros >= 0 ? micros / kMicrosPerDay : (micros + 1) / kMicrosPerDay - 1;
      return MakeConstant(Value::Integer(TypeId::kDate32, days), pos);
    }
    return MakeConstant(Value::Integer(TypeId::kTimestampMicros, micros), pos);
  }
  if (name == "pi") {
    if (!arity(0, 0)) return nullptr;
    return MakeConstant(Value::Real(TypeId::kFloat64, M_PI), pos);
  }
  if (name == "typeof") {
    if (!arity(1, 1)) return nullptr;
    const bool null_type = IsNullLiteral(*args[0]);
    return MakeConstant(Value::String(null_type ? "\"NULL\"" : DuckDbTypeName(args[0]->type)), pos);
  }
  if (name == "coalesce" || name == "ifnull") {
    if (name == "ifnull" ? !arity(2, 2) : !arity(1, SIZE_MAX)) return nullptr;
    if (!UnifyAll(&args)) return nullptr;
    // CASE WHEN a IS NOT NULL THEN a WHEN b IS NOT NULL THEN b ... ELSE last END
    const TypeId type = args[0]->type;
    std::vector<BoundExprPtr> branches;
    for (size_t i = 0; i + 1 < args.size(); ++i) {
      branches.push_back(IsNotNull(*args[i]));
      branches.push_back(std::move(args[i]));
    }
    branches.push_back(std::move(args.back()));
    if (branches.size() == 1) return std::move(branches[0]);
    BoundExprPtr node = MakeCall(Fn::kCase, type, pos, std::move(branches));
    node->nullable = true;
    return finish(std::move(node));
  }
  if (name == "nullif") {
    if (!arity(2, 2)) return nullptr;
    // CASE WHEN a = b THEN NULL ELSE a END, the comparison in the two's common type, the
    // result of a's.
    BoundExprPtr left = Clone(*args[0]), right = std::move(args[1]);
    if (!Unify(&left, &right, pos)) return nullptr;
    TypeId type = args[0]->type;
    if (IsNullLiteral(*args[0])) type = TypeId::kInt32;
    std::vector<BoundExprPtr> branches;
    branches.push_back(MakeCall2(Fn::kEquals, TypeId::kBool, pos, std::move(left), std::move(right)));
    branches.push_back(MakeConstant(Value::Null(type), pos));
    branches.push_back(CastToAtOwnPos(std::move(args[0]), type));
    if (!branches.back()) return nullptr;
    BoundExprPtr node = MakeCall(Fn::kCase, type, pos, std::move(branches));
    node->nullable = true;
    return finish(std::move(node));
  }
  if (name == "if") {
    if (!arity(3, 3)) return nullptr;
    if (args[0]->type != TypeId::kBool) {
      // A number is true when not zero, as DuckDB casts it.
      if (!IsNullLiteral(*args[0]) && !IsNumeric(args[0]->type)) {
        return Fail(args[0]->pos, "type", "if needs a BOOLEAN condition, not " + std::string(DuckDbTypeName(args[0]->type)));
      }
      args[0] = CastTo(std::move(args[0]), TypeId::kBool, pos);
      if (!args[0]) return nullptr;
    }
    std::vector<BoundExprPtr> results;
    results.push_back(std::move(args[1]));
    results.push_back(std::move(args[2]));
    if (!UnifyAll(&results)) return nullptr;
    const TypeId type = IsNullLiteral(*results[0]) ? TypeId::kInt32 : results[0]->type;
    std::vector<BoundExprPtr> branches;
    branches.push_back(std::move(args[0]));
    branches.push_back(CastToAtOwnPos(std::move(results[0]), type));
    branches.push_back(CastToAtOwnPos(std::move(results[1]), type));
    if (!branches[1] || !branches[2]) return nullptr;
    BoundExprPtr node = MakeCall(Fn::kCase, type, pos, std::move(branches));
    node->nullable = true;
    return finish(std::move(node));
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
  if (!ConstantDatePart(function, args[0].get(), &part) || !TemporalArg(function, &args[1], pos)) return nullptr;
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
