// Binding the library's scalar functions (scalar_functions.h): argument counts and types,
// implicit casts and result types as DuckDB has them. Conditionals that short-circuit
// (coalesce, ifnull, nullif, if) become CASE, whose branches are evaluated only on the rows
// that take them; typeof and pi() are constants.
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "src/exec/regexp.h"
#include "src/plan/binder_internal.h"
#include "src/plan/function_arguments.h"

namespace laneql {
namespace plan {
namespace {

using F = ScalarFn;

// The functions whose integer arguments keep their type (abs, round, trunc); the others read
// integers as DOUBLE.
bool KeepsIntegerType(F fn) { return fn == F::kAbs || fn == F::kRound || fn == F::kTrunc; }

BoundExprPtr IsNotNull(const BoundExpr& e) {
  std::vector<BoundExprPtr> one;
  one.push_back(Clone(e));
  return MakeCall(Fn::kIsNotNull, TypeId::kBool, e.pos, std::move(one));
}

}  // namespace

BoundExprPtr Binder::BindLibraryFunction(const ScalarFunctionInfo& info, std::vector<BoundExprPtr> args,
                                         SourcePos pos) {
  const std::string name = info.name;
  FunctionArguments check(this, name, &args, pos);

  switch (info.fn) {
    case F::kToInterval: case F::kAge: case F::kMakeTime: case F::kTimestampPlusInterval:
      return BindIntervalFunction(info, std::move(args), pos);
    default: break;
  }
  if (info.family == FunctionFamily::kDate) return BindDateFunction(info, std::move(args), pos);
  if (info.family == FunctionFamily::kList) return BindListFunction(info, std::move(args), pos);
  switch (info.fn) {
    case F::kBuiltIn:
      break;
    case F::kDateDiffPart: case F::kDayName: case F::kMonthName: case F::kLastDay: case F::kMakeDate:
    case F::kMakeTimestamp: case F::kEpochMs: case F::kEpochUs: case F::kStrftime: case F::kStrptime:
    case F::kTryStrptime:
      break;  // the date family, bound above
    case F::kListValue: case F::kListLength: case F::kListExtract:
      break;  // the list family, bound above
    case F::kToInterval: case F::kAge: case F::kMakeTime: case F::kTimestampPlusInterval:
      break;  // the interval functions, bound above
    case F::kTimestampMinusInterval: case F::kTimePlusInterval: case F::kTimeMinusInterval:
    case F::kTimestampMinusTimestamp: case F::kIntervalPlus: case F::kIntervalMinus:
    case F::kIntervalTimes: case F::kIntervalDivide: case F::kIntervalNegate: case F::kIntervalKey:
    case F::kTimePart: case F::kPackShortString: case F::kUnpackShortString:
      break;  // no function name binds to these: operators and the planner make them
    case F::kConcat:
    case F::kConcatWs: {
      if (!check.Arity(info.fn == F::kConcat ? 1 : 2, SIZE_MAX)) return nullptr;
      for (size_t i = 0; i < args.size(); ++i) {
        if (info.fn == F::kConcatWs && i == 0) {
          if (!check.String(0)) return nullptr;
        } else if (!IsString(args[i]->type)) {
          args[i] = CastToAtOwnPos(std::move(args[i]), TypeId::kString);  // any value as its text
          if (!args[i]) return nullptr;
        }
      }
      BoundExprPtr node = ScalarCall(info.fn, TypeId::kString, pos, std::move(args));
      node->nullable = info.fn == F::kConcatWs;
      return check.Finish(std::move(node));
    }
    case F::kLeft: case F::kRight:
      if (!check.Arity(2, 2) || !check.Shaped("si")) return nullptr;
      return check.Finish(ScalarCall(info.fn, TypeId::kString, pos, std::move(args)));
    case F::kReplace:
      if (!check.Arity(3, 3) || !check.Shaped("sss")) return nullptr;
      return check.Finish(ScalarCall(info.fn, TypeId::kString, pos, std::move(args)));
    case F::kSplitPart:
      if (!check.Arity(3, 3) || !check.Shaped("ssi")) return nullptr;
      return check.Finish(ScalarCall(info.fn, TypeId::kString, pos, std::move(args)));
    case F::kTrim: case F::kLtrim: case F::kRtrim:
      if (!check.Arity(1, 2) || !check.Shaped("ss")) return nullptr;
      return check.Finish(ScalarCall(info.fn, TypeId::kString, pos, std::move(args)));
    case F::kLpad: case F::kRpad:
      if (!check.Arity(3, 3) || !check.Shaped("sns")) return nullptr;
      return check.Finish(ScalarCall(info.fn, TypeId::kString, pos, std::move(args)));
    case F::kReverse:
    case F::kFormat:
    case F::kPrintf: {
      if (!check.Arity(1, SIZE_MAX) || !check.String(0)) return nullptr;
      for (size_t i = 1; i < args.size(); ++i) {
        // Numbers, strings and booleans are formatted as they are; other values by their text.
        const TypeId type = args[i]->type;
        if (!IsNumeric(type) && !IsDecimal(type) && !IsString(type) && type != TypeId::kBool && !IsNullLiteral(*args[i])) {
          args[i] = CastToAtOwnPos(std::move(args[i]), TypeId::kString);
          if (!args[i]) return nullptr;
        }
      }
      return check.Finish(ScalarCall(info.fn, TypeId::kString, pos, std::move(args)));
    }
    case F::kHash: {
      if (!check.Arity(1, SIZE_MAX)) return nullptr;
      BoundExprPtr node = ScalarCall(info.fn, TypeId::kUInt64, pos, std::move(args));
      node->nullable = false;  // NULL hashes too
      return node;
    }
    case F::kMd5:
    case F::kSha256:
      if (!check.Arity(1, 1) || !check.Shaped("s")) return nullptr;
      return check.Finish(ScalarCall(info.fn, TypeId::kString, pos, std::move(args)));
    case F::kRepeat:
      if (!check.Arity(2, 2) || !check.Shaped("si")) return nullptr;
      return check.Finish(ScalarCall(info.fn, TypeId::kString, pos, std::move(args)));
    case F::kStrpos:
      if (!check.Arity(2, 2) || !check.Shaped("ss")) return nullptr;
      return check.Finish(ScalarCall(info.fn, TypeId::kInt64, pos, std::move(args)));
    case F::kAscii:
      if (!check.Arity(1, 1) || !check.Shaped("s")) return nullptr;
      return check.Finish(ScalarCall(info.fn, TypeId::kInt32, pos, std::move(args)));
    case F::kChr:
      if (!check.Arity(1, 1) || !check.Shaped("n")) return nullptr;
      return check.Finish(ScalarCall(info.fn, TypeId::kString, pos, std::move(args)));
    case F::kIntegerDivide:
    case F::kBitAnd:
    case F::kBitOr:
    case F::kBitXor:
    case F::kShiftLeft:
    case F::kShiftRight:
    case F::kBitNot: {
      const size_t n = info.fn == F::kBitNot ? 1 : 2;
      if (!check.Arity(n, n)) return nullptr;
      for (size_t i = 0; i < n; ++i) {
        if (!check.Numeric(i, TypeId::kInt32)) return nullptr;
        if (info.fn != F::kIntegerDivide && !IsInteger(args[i]->type)) {
          return Fail(args[i]->pos, "type", name + " needs integer arguments, not " + DuckDbTypeName(args[i]->type));
        }
      }
      if (n == 2 && !Unify(&args[0], &args[1], pos)) return nullptr;
      const TypeId type = args[0]->type;
      if (IsFloat(type)) {  // DuckDB 2.0's // of floats is their plain division
        return check.Finish(MakeCall(Fn::kDivide, type, pos, std::move(args)));
      }
      return check.Finish(ScalarCall(info.fn, type, pos, std::move(args)));
    }
    case F::kRegexpMatches:
    case F::kRegexpFullMatch:
    case F::kRegexpExtract: {
      const bool extract = info.fn == F::kRegexpExtract;
      std::string compile_error;
      if (!check.Arity(2, extract ? 4 : 3)) return nullptr;
      if (!check.String(0)) return nullptr;
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
      BoundExprPtr node = ScalarCall(info.fn, extract ? TypeId::kString : TypeId::kBool, pos, std::move(kept));
      node->compiled = matcher;
      return check.Finish(std::move(node));
    }
    case F::kStartsWith:
    case F::kEndsWith:
    case F::kContains: {
      if (!check.Arity(2, 2) || !check.Shaped("ss")) return nullptr;
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
      return check.Finish(ScalarCall(info.fn, TypeId::kBool, pos, std::move(args)));
    }
    case F::kAbs:
    case F::kSign:
    case F::kFloor:
    case F::kCeil:
    case F::kTrunc:
    case F::kEven: {
      if (args.size() == 1 && IsDecimal(args[0]->type) && info.fn != F::kSign && info.fn != F::kEven) {
        // Exact on the scaled integers: abs keeps the type, the others keep no fraction digits.
        const TypeId from = args[0]->type;
        const TypeId type = info.fn == F::kAbs ? from : DecimalType(DecimalPrecision(from), 0);
        return check.Finish(ScalarCall(info.fn, type, pos, std::move(args)));
      }
      if (!check.Arity(1, 1) || !check.Numeric(0, info.fn == F::kSign ? TypeId::kInt8 : info.fn == F::kAbs ? TypeId::kInt64
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
      return check.Finish(ScalarCall(info.fn, type, pos, std::move(args)));
    }
    case F::kRound: {
      if (!args.empty() && args.size() <= 2 && IsDecimal(args[0]->type) &&
          (args.size() == 1 || (args[1]->IsConstant() && !args[1]->constant.is_null && IsInteger(args[1]->type)))) {
        // round(DECIMAL(p, s), n): exact, at scale n when n is below s (0 when n is negative).
        const TypeId from = args[0]->type;
        const Int128 n = args.size() == 1 ? 0 : args[1]->constant.integer;
        const int scale = n <= 0 ? 0 : n < DecimalScale(from) ? static_cast<int>(n) : DecimalScale(from);
        if (args.size() == 2) {
          args[1] = MakeConstant(Value::Integer(TypeId::kInt32, n < -100 ? -100 : n > 100 ? 100 : n), args[1]->pos);
        }
        return check.Finish(ScalarCall(F::kRound, DecimalType(DecimalPrecision(from), scale), pos, std::move(args)));
      }
      if (!check.Arity(1, 2) || !check.Numeric(0, TypeId::kInt64)) return nullptr;
      if (args.size() == 2) {
        if (!check.Numeric(1, TypeId::kInt32) || !IsInteger(args[1]->type)) {
          if (args[1]) Fail(args[1]->pos, "type", "round needs an integer number of digits, not " +
                                                       std::string(DuckDbTypeName(args[1]->type)));
          return nullptr;
        }
        args[1] = CastToAtOwnPos(std::move(args[1]), TypeId::kInt32);
        if (!args[1]) return nullptr;
      }
      const TypeId type = args[0]->type;
      return check.Finish(ScalarCall(F::kRound, type, pos, std::move(args)));
    }
    case F::kSqrt: case F::kCbrt: case F::kExp: case F::kLn: case F::kLog10: case F::kLog2:
    case F::kSin: case F::kCos: case F::kTan: case F::kCot: case F::kAsin: case F::kAcos: case F::kAtan:
    case F::kDegrees: case F::kRadians: {
      if (!check.Arity(1, 1) || !check.ToDouble(0)) return nullptr;
      return check.Finish(ScalarCall(info.fn, TypeId::kFloat64, pos, std::move(args)));
    }
    case F::kLogBase: {
      if (!check.Arity(1, 2)) return nullptr;
      for (size_t i = 0; i < args.size(); ++i) {
        if (!check.ToDouble(i)) return nullptr;
      }
      const F fn = args.size() == 1 ? F::kLog10 : F::kLogBase;
      return check.Finish(ScalarCall(fn, TypeId::kFloat64, pos, std::move(args)));
    }
    case F::kPow:
    case F::kAtan2: {
      if (!check.Arity(2, 2) || !check.ToDouble(0) || !check.ToDouble(1)) return nullptr;
      return check.Finish(ScalarCall(info.fn, TypeId::kFloat64, pos, std::move(args)));
    }
    case F::kGcd:
    case F::kLcm: {
      if (!check.Arity(2, 2)) return nullptr;
      TypeId type = TypeId::kInt64;
      for (size_t i = 0; i < 2; ++i) {
        if (!check.Numeric(i, TypeId::kInt64)) return nullptr;
        if (!IsInteger(args[i]->type)) {
          return Fail(args[i]->pos, "type", name + " needs integer arguments, not " + DuckDbTypeName(args[i]->type));
        }
        if (args[i]->type == TypeId::kInt128 || args[i]->type == TypeId::kUInt64) type = TypeId::kInt128;
      }
      for (BoundExprPtr& arg : args) {
        arg = CastToAtOwnPos(std::move(arg), type);
        if (!arg) return nullptr;
      }
      return check.Finish(ScalarCall(info.fn, type, pos, std::move(args)));
    }
    case F::kIsNan:
    case F::kIsInf:
    case F::kIsFinite: {
      if (!check.Arity(1, 1) || !check.Numeric(0, TypeId::kFloat64)) return nullptr;
      if (IsInteger(args[0]->type)) {
        args[0] = CastToAtOwnPos(std::move(args[0]), TypeId::kFloat64);
        if (!args[0]) return nullptr;
      }
      return check.Finish(ScalarCall(info.fn, TypeId::kBool, pos, std::move(args)));
    }
    case F::kGreatest:
    case F::kLeast: {
      if (!check.Arity(1, SIZE_MAX) || !UnifyAll(&args)) return nullptr;
      // All NULL: INTEGER, as DuckDB types greatest(NULL, NULL).
      const TypeId type = IsNullLiteral(*args[0]) ? TypeId::kInt32 : args[0]->type;
      for (BoundExprPtr& arg : args) {
        arg = CastToAtOwnPos(std::move(arg), type);
        if (!arg) return nullptr;
      }
      return check.Finish(ScalarCall(info.fn, type, pos, std::move(args)));
    }
  }

  // Built in: parts of dates, rewrites and constants.
  if (name == "pi") {
    if (!check.Arity(0, 0)) return nullptr;
    return MakeConstant(Value::Real(TypeId::kFloat64, M_PI), pos);
  }
  if (name == "typeof") {
    if (!check.Arity(1, 1)) return nullptr;
    const bool null_type = IsNullLiteral(*args[0]);
    return MakeConstant(Value::String(null_type ? "\"NULL\"" : DuckDbTypeName(args[0]->type)), pos);
  }
  if (name == "coalesce" || name == "ifnull") {
    if (name == "ifnull" ? !check.Arity(2, 2) : !check.Arity(1, SIZE_MAX)) return nullptr;
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
    return check.Finish(std::move(node));
  }
  if (name == "nullif") {
    if (!check.Arity(2, 2)) return nullptr;
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
    return check.Finish(std::move(node));
  }
  if (name == "if") {
    if (!check.Arity(3, 3)) return nullptr;
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
    return check.Finish(std::move(node));
  }
  return Fail(pos, "binder", "internal error: function " + name + "() has no binding");
}

}  // namespace plan
}  // namespace laneql
