// The number functions of the library (plan/scalar_functions.h), and the dispatch of every
// library function to its family's kernels. One loop per function over a batch's stored rows (one row for a constant), NULL where any argument is NULL, DuckDB's
// results bit for bit (the same <cmath> calls; round's formula as DuckDB documents its
// behaviour: x rounded half away from zero at 10^digits, x itself where that overflows).
// greatest / least skip NULLs.
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "laneql/int128.h"
#include "laneql/rounding.h"
#include "src/common/decimal.h"
#include "src/exec/expr_eval.h"
#include "src/exec/functions_common.h"
#include "src/exec/functions_math_paths.h"

namespace laneql {
namespace exec {

using plan::BoundExpr;
using plan::ScalarFn;

namespace {

// out[i] = op(args' values at i) as R, for every stored row. Plain pointer loops, one per
// constant / column pairing, so the compiler vectorises them (Vec::Get's test for a constant on
// every row kept degrees(d) scalar).
template <class R, class T, class Op>
bool Map(const std::vector<Vec>& args, TypeId type, size_t count, Vec* out, std::string* error, Op op) {
  R* __restrict dst = out->InitFixed<R>(type, count, AllConstant(args), error);
  if (dst == nullptr) return false;
  const size_t n = out->stored();  // 1 when every argument is a constant
  const T* __restrict x = args[0].Data<T>();
  if constexpr (std::is_invocable_v<Op, T>) {
    for (size_t i = 0; i < n; ++i) dst[i] = op(x[i]);
  } else {
    const T* __restrict y = args[1].Data<T>();
    if (n > 1 && args[0].constant) {
      const T xc = x[0];
      for (size_t i = 0; i < n; ++i) dst[i] = op(xc, y[i]);
    } else if (n > 1 && args[1].constant) {
      const T yc = y[0];
      for (size_t i = 0; i < n; ++i) dst[i] = op(x[i], yc);
    } else {
      for (size_t i = 0; i < n; ++i) dst[i] = op(x[i], y[i]);
    }
  }
  return StrictValidity(args, out, error);
}

// Why a row failed: DuckDB's kind of error ("overflow", "invalid input", "out of range") and
// its message.
struct RowError {
  const char* kind = "overflow";
  std::string message;
};

// The same where op(i, &result, &why) may fail on a row, which stops the batch with that error
// (NULL rows are skipped: their values are undefined).
template <class T, class Op>
bool MapChecked(const BoundExpr& expr, const std::vector<Vec>& args, size_t count, Vec* out, std::string* error,
                Op op) {
  T* dst = out->InitFixed<T>(expr.type, count, AllConstant(args), error);
  if (dst == nullptr) return false;
  RowError why;
  for (size_t i = 0; i < out->stored(); ++i) {
    if (AnyNull(args, i)) continue;
    if (!op(i, &dst[i], &why)) {
      *error = ErrorAt(expr, why.kind, why.message);
      return false;
    }
  }
  return StrictValidity(args, out, error);
}

// out = kernel(x, rows, dst) over the stored rows of one DOUBLE argument (the SIMD kernels of
// laneql/rounding.h); NULL where any argument is.
template <class R, class Kernel>
bool MapDoubleKernel(const std::vector<Vec>& args, TypeId type, size_t count, Vec* out, std::string* error,
                     Kernel kernel) {
  R* dst = out->InitFixed<R>(type, count, AllConstant(args), error);
  if (dst == nullptr) return false;
  kernel(args[0].Data<double>(), out->stored(), dst);
  return StrictValidity(args, out, error);
}

template <class T>
std::string Text(T x) {
  if constexpr (std::is_same_v<T, Int128>) return Int128ToString(x);
  else return std::to_string(x);
}

// NaN results in DuckDB's sign (it prints "nan" or "-nan"). Outside their domains its
// logarithms, asin and acos give a positive NaN (glibc's), where musl (wasm) gives the negative
// default NaN of an invalid operation; a NaN argument passes through as it is. even() of NaN is
// negative (laneql/rounding.h).
double DomainNaN(double result, double x) {
  return std::isnan(result) && !std::isnan(x) ? std::numeric_limits<double>::quiet_NaN() : result;
}

// sqrt, pow and the trigonometric functions give the CPU's default NaN outside their domains:
// negative on x86-64 (as DuckDB prints it), positive on aarch64. Spelled out as x86's, so a
// query gives the same bytes on every machine.
double InvalidNaN(double result, double x, double y = 0) {
  return std::isnan(result) && !std::isnan(x) && !std::isnan(y) ? -std::numeric_limits<double>::quiet_NaN()
                                                                : result;
}

// Integer x rounded half away from zero to a multiple of 10^-digits (digits < 0), computed
// wide; false when the result does not fit T.
template <class T>
bool RoundInteger(T x, int32_t digits, T* out) {
  if (digits >= 0) {
    *out = x;
    return true;
  }
  if (digits < -38) {
    *out = 0;
    return true;
  }
  Int128 power = 1;
  for (int32_t d = 0; d < -digits; ++d) power *= 10;
  const Int128 wide = static_cast<Int128>(x);
  const Int128 half = power / 2;
  // |x| + half cannot overflow 128 bits for x of at most 64 bits; for an int128 x it can only
  // where the rounded value would not fit either.
  if (wide >= 0 ? wide > plan::TypeMax(TypeId::kInt128) - half : wide < plan::TypeMin(TypeId::kInt128) + half) {
    return false;
  }
  const Int128 rounded = (wide >= 0 ? wide + half : wide - half) / power * power;
  if constexpr (!std::is_same_v<T, Int128>) {
    if (rounded < static_cast<Int128>(std::numeric_limits<T>::min()) ||
        rounded > static_cast<Int128>(std::numeric_limits<T>::max())) {
      return false;
    }
  }
  *out = static_cast<T>(rounded);
  return true;
}

template <class T>
T CheckedAbs(T x, bool* overflow) {
  if constexpr (std::is_unsigned_v<T>) {
    return x;
  } else {
    T min;
    if constexpr (std::is_same_v<T, Int128>) min = plan::TypeMin(TypeId::kInt128);
    else min = std::numeric_limits<T>::min();
    if (x == min) {  // no positive counterpart
      *overflow = true;
      return x;
    }
    return x < 0 ? -x : x;
  }
}

// The greatest common divisor of two non-negative integers (0 for two zeros).
template <class T>
T Gcd(T a, T b) {
  while (b != 0) {
    const T r = a % b;
    a = b;
    b = r;
  }
  return a;
}

// x // y, x << y and x >> y as DuckDB has them; false with *why on a zero divisor, an
// overflow, or a shift DuckDB refuses.
template <class T>
bool IntegerOperator(ScalarFn fn, T x, T y, T* out, RowError* why) {
  const int bits = static_cast<int>(sizeof(T) * 8);
  if (fn == ScalarFn::kIntegerDivide) {
    if (y == 0) {
      *why = RowError{"invalid input", "Division by zero in expression (" + Text(x) + " // 0)"};
      return false;
    }
    if constexpr (!std::is_unsigned_v<T>) {
      if (y == T(-1)) {
        bool overflow = false;
        CheckedAbs(x, &overflow);  // only the minimum has no negation
        if (overflow) {
          *why = RowError{"overflow", "Overflow in division of " + Text(x) + " / -1"};
          return false;
        }
        *out = T(-x);
        return true;
      }
    }
    *out = T(x / y);
    return true;
  }
  const char* side = fn == ScalarFn::kShiftLeft ? "left" : "right";
  if constexpr (!std::is_unsigned_v<T>) {
    if (y < 0) {
      *why = RowError{"out of range", std::string("Cannot ") + side + "-shift by negative number " + Text(y)};
      return false;
    }
  }
  if (fn == ScalarFn::kShiftRight) {
    *out = y >= T(bits) ? T(x < 0 ? -1 : 0) : T(x >> static_cast<int>(y));
    return true;
  }
  if (y >= T(bits)) {
    *why = RowError{"out of range", "Left-shift value " + Text(y) + " is out of range"};
    return false;
  }
  if constexpr (!std::is_unsigned_v<T>) {
    if (x < 0) {
      *why = RowError{"out of range", "Cannot left-shift negative number " + Text(x)};
      return false;
    }
  }
  const T shifted = T(x << static_cast<int>(y));
  if (T(shifted >> static_cast<int>(y)) != x || (!std::is_unsigned_v<T> && shifted < 0)) {
    *why = RowError{"overflow", "Overflow in left shift (" + Text(x) + " << " + Text(y) + ")"};
    return false;
  }
  *out = shifted;
  return true;
}

// floor / ceil / trunc / round of a DECIMAL, exact on the scaled integers: the digits past the
// ones kept (none, or round's digits) dropped by the function's rule, the result at the scale
// the binder typed (round(x, -2) keeps no fraction and ends in zeros).
bool DecimalRounding(const BoundExpr& expr, const std::vector<Vec>& args, size_t count, Vec* out, std::string* error) {
  const int from = DecimalScale(args[0].type), to = DecimalScale(expr.type);
  const ScalarFn fn = expr.scalar;
  return MapChecked<Int128>(expr, args, count, out, error, [&](size_t i, Int128* r, RowError*) {
    const Int128 x = args[0].Get<Int128>(i);
    const int keep = fn == ScalarFn::kRound && args.size() > 1 ? std::min(args[1].Get<int32_t>(i), from) : to;
    if (keep >= from) {
      *r = x;
      return true;
    }
    if (from - keep > kMaxDecimalPrecision) {  // every digit dropped, and more
      *r = 0;
      return true;
    }
    const Int128 d = decimal::Pow10(from - keep);
    Int128 q = x / d;
    const Int128 rem = x % d;
    if (fn == ScalarFn::kFloor && rem < 0) --q;
    if (fn == ScalarFn::kCeil && rem > 0) ++q;
    if (fn == ScalarFn::kRound && (rem >= d / 2 || -rem >= d / 2)) q += x < 0 ? -1 : 1;  // half away from zero
    *r = q * decimal::Pow10(to - keep);
    return true;
  });
}

// Integer and float functions that keep their argument's type.
template <class T>
bool TypedFunction(const BoundExpr& expr, const std::vector<Vec>& args, size_t count, Vec* out, std::string* error) {
  const ScalarFn fn = expr.scalar;
  const TypeId type = expr.type;
  if constexpr (std::is_same_v<T, double>) {
    // The SIMD kernels, with the results of the <cmath> calls below (laneql/rounding.h).
    const auto rounding = [&](RoundingOp op) {
      return MapDoubleKernel<double>(args, type, count, out, error,
                                     [op](const double* x, size_t n, double* dst) { RoundFloat64(op, x, n, dst); });
    };
    switch (fn) {
      case ScalarFn::kAbs: return rounding(RoundingOp::kAbs);
      case ScalarFn::kFloor: return rounding(RoundingOp::kFloor);
      case ScalarFn::kCeil: return rounding(RoundingOp::kCeil);
      case ScalarFn::kTrunc: return rounding(RoundingOp::kTrunc);
      case ScalarFn::kRound:
        if (args.size() == 1) return rounding(RoundingOp::kRound);
        if (args[1].constant) {  // one number of digits for every row
          const int32_t digits = args[1].Get<int32_t>(0);
          return MapDoubleKernel<double>(args, type, count, out, error, [digits](const double* x, size_t n, double* dst) {
            RoundFloat64Digits(x, n, digits, dst);
          });
        }
        break;
      default: break;
    }
  }
  if constexpr (std::is_floating_point_v<T>) {
    switch (fn) {
      case ScalarFn::kAbs: return Map<T, T>(args, type, count, out, error, [](T x) { return std::fabs(x); });
      case ScalarFn::kFloor: return Map<T, T>(args, type, count, out, error, [](T x) { return std::floor(x); });
      case ScalarFn::kCeil: return Map<T, T>(args, type, count, out, error, [](T x) { return std::ceil(x); });
      case ScalarFn::kTrunc: return Map<T, T>(args, type, count, out, error, [](T x) { return std::trunc(x); });
      case ScalarFn::kRound:
        if (args.size() == 1) return Map<T, T>(args, type, count, out, error, [](T x) { return std::round(x); });
        return MapChecked<T>(expr, args, count, out, error, [&](size_t i, T* r, RowError*) {
          *r = static_cast<T>(reference::RoundDigits(static_cast<double>(args[0].Get<T>(i)), args[1].Get<int32_t>(i)));
          return true;  // never fails
        });
      default: break;
    }
  } else {
    switch (fn) {
      case ScalarFn::kAbs:
        if constexpr (sizeof(T) <= 8 && std::is_signed_v<T>) {
          bool ok = true;
          if (math_paths::AbsWithoutOverflow<T>(args, type, count, out, error, &ok)) return ok;
        }
        return MapChecked<T>(expr, args, count, out, error, [&](size_t i, T* r, RowError* why) {
          bool overflow = false;
          *r = CheckedAbs(args[0].Get<T>(i), &overflow);
          if (overflow) why->message = "Overflow on abs(" + Text(args[0].Get<T>(i)) + ")";
          return !overflow;
        });
      case ScalarFn::kTrunc: return Map<T, T>(args, type, count, out, error, [](T x) { return x; });
      case ScalarFn::kBitAnd: return Map<T, T>(args, type, count, out, error, [](T x, T y) { return T(x & y); });
      case ScalarFn::kBitOr: return Map<T, T>(args, type, count, out, error, [](T x, T y) { return T(x | y); });
      case ScalarFn::kBitXor: return Map<T, T>(args, type, count, out, error, [](T x, T y) { return T(x ^ y); });
      case ScalarFn::kBitNot: return Map<T, T>(args, type, count, out, error, [](T x) { return T(~x); });
      case ScalarFn::kIntegerDivide:
        if constexpr (sizeof(T) <= 8) {
          bool ok = true;
          if (math_paths::DivideWithoutFailure<T>(args, type, count, out, error, &ok)) return ok;
        }
        return MapChecked<T>(expr, args, count, out, error, [&](size_t i, T* r, RowError* why) {
          return IntegerOperator(fn, args[0].Get<T>(i), args[1].Get<T>(i), r, why);
        });
      case ScalarFn::kShiftLeft:
      case ScalarFn::kShiftRight:
        if constexpr (sizeof(T) <= 8 && std::is_signed_v<T>) {
          bool ok = true;
          if (math_paths::ShiftWithoutFailure<T>(fn, args, type, count, out, error, &ok)) return ok;
        }
        return MapChecked<T>(expr, args, count, out, error, [&](size_t i, T* r, RowError* why) {
          return IntegerOperator(fn, args[0].Get<T>(i), args[1].Get<T>(i), r, why);
        });
      case ScalarFn::kRound:
        return MapChecked<T>(expr, args, count, out, error, [&](size_t i, T* r, RowError* why) {
          if (RoundInteger<T>(args[0].Get<T>(i), args.size() > 1 ? args[1].Get<int32_t>(i) : 0, r)) return true;
          why->message = "Overflow in ROUND of integer";
          return false;
        });
      case ScalarFn::kGcd:
      case ScalarFn::kLcm:
        return MapChecked<T>(expr, args, count, out, error, [&](size_t i, T* r, RowError* why) {
          const T a = args[0].Get<T>(i), b = args[1].Get<T>(i);
          bool overflow = false;
          const T x = CheckedAbs(a, &overflow);
          const bool a_overflows = overflow;
          const T y = CheckedAbs(b, &overflow);
          if (overflow) {
            why->message = "Overflow on abs(" + Text(a_overflows ? a : b) + ")";
            return false;
          }
          const T g = Gcd(x, y);
          if (fn == ScalarFn::kGcd || g == T(0)) {  // gcd(0, 0) = lcm(0, 0) = 0
            *r = g;
            return true;
          }
          if (!__builtin_mul_overflow(static_cast<T>(x / g), y, r)) return true;  // 0 when x or y is
          why->message = "lcm value is out of range";
          return false;
        });
      default: break;
    }
  }
  *error = ErrorAt(expr, "internal", "no kernel for this function and type");
  return false;
}

// greatest / least: the largest / smallest non-NULL argument (the first of equals), NULL when
// every argument is NULL.
bool Extreme(const BoundExpr& expr, const std::vector<Vec>& args, size_t count, Vec* out, std::string* error) {
  const bool greatest = expr.scalar == ScalarFn::kGreatest;
  if (!IsString(expr.type) && TypeByteWidth(expr.type) <= 8) {
    bool same_type = true;  // the binder gives every argument the result's type
    for (const Vec& a : args) same_type = same_type && a.type == expr.type;
    bool ok = false, handled = false;
    if (same_type) {
      VisitFixed(expr.type, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (sizeof(T) <= 8) {
          handled = true;
          ok = math_paths::ExtremeFixed<T>(greatest, args, expr.type, count, out, error);
        }
      });
    }
    if (handled) return ok;
  }
  const size_t rows = AllConstant(args) ? 1 : count;
  std::vector<int> pick(rows, -1);  // the argument each row takes
  for (size_t i = 0; i < rows; ++i) {
    for (size_t k = 0; k < args.size(); ++k) {
      if (args[k].IsNull(i)) continue;
      if (pick[i] < 0) {
        pick[i] = static_cast<int>(k);
        continue;
      }
      const int c = CompareRows(args[k], i, args[static_cast<size_t>(pick[i])], i);
      if (greatest ? c > 0 : c < 0) pick[i] = static_cast<int>(k);
    }
  }
  if (IsString(expr.type)) {
    StringVecBuilder builder;
    if (!builder.Init(count, rows == 1 && AllConstant(args), error)) return false;
    for (size_t i = 0; i < rows; ++i) {
      if (pick[i] < 0) {
        builder.AppendNull();
      } else if (!builder.Append(args[static_cast<size_t>(pick[i])].Str(i), error)) {
        return false;
      }
    }
    return builder.Finish(out, error);
  }
  bool ok = false;
  VisitFixed(expr.type, [&](auto tag) {
    using T = decltype(tag);
    T* dst = out->InitFixed<T>(expr.type, count, AllConstant(args), error);
    if (dst == nullptr) return;
    bool any_null = false;
    for (size_t i = 0; i < rows; ++i) {
      if (pick[i] < 0) any_null = true;
      else dst[i] = args[static_cast<size_t>(pick[i])].Get<T>(i);
    }
    ok = true;
    if (!any_null) return;
    uint64_t* bits = out->InitValidity(error);
    if (bits == nullptr) {
      ok = false;
      return;
    }
    for (size_t i = 0; i < rows; ++i) {
      if (pick[i] < 0) bits[i / 64] &= ~(uint64_t{1} << (i % 64));
    }
  });
  return ok;
}

}  // namespace

bool EvalScalarFunction(const BoundExpr& expr, std::vector<Vec>& args, size_t count, Vec* out, std::string* error) {
  out->count = count;
  using D = double;
  // A DOUBLE function of DOUBLE arguments.
  auto doubles = [&](auto op) { return Map<D, D>(args, TypeId::kFloat64, count, out, error, op); };
  switch (expr.scalar) {
    case ScalarFn::kBuiltIn: break;
    case ScalarFn::kSqrt: return doubles([](D x) { return InvalidNaN(std::sqrt(x), x); });
    case ScalarFn::kCbrt: return doubles([](D x) { return std::cbrt(x); });
    case ScalarFn::kExp: return doubles([](D x) { return std::exp(x); });
    case ScalarFn::kLn: return doubles([](D x) { return DomainNaN(std::log(x), x); });
    case ScalarFn::kLog10: return doubles([](D x) { return DomainNaN(std::log10(x), x); });
    case ScalarFn::kLog2: return doubles([](D x) { return DomainNaN(std::log2(x), x); });
    case ScalarFn::kLogBase:
      return doubles([](D b, D x) {
        const D r = std::log(x) / std::log(b);
        return std::isnan(b) || std::isnan(x) ? r : DomainNaN(r, 0);
      });
    case ScalarFn::kPow: return doubles([](D x, D y) { return InvalidNaN(std::pow(x, y), x, y); });
    case ScalarFn::kSin: return doubles([](D x) { return InvalidNaN(std::sin(x), x); });
    case ScalarFn::kCos: return doubles([](D x) { return InvalidNaN(std::cos(x), x); });
    case ScalarFn::kTan: return doubles([](D x) { return InvalidNaN(std::tan(x), x); });
    case ScalarFn::kCot: return doubles([](D x) { return InvalidNaN(1.0 / std::tan(x), x); });
    case ScalarFn::kAsin: return doubles([](D x) { return DomainNaN(std::asin(x), x); });
    case ScalarFn::kAcos: return doubles([](D x) { return DomainNaN(std::acos(x), x); });
    case ScalarFn::kAtan: return doubles([](D x) { return std::atan(x); });
    case ScalarFn::kAtan2: return doubles([](D y, D x) { return std::atan2(y, x); });
    case ScalarFn::kDegrees: return doubles([](D x) { return x * (180.0 / M_PI); });
    case ScalarFn::kRadians: return doubles([](D x) { return x * (M_PI / 180.0); });
    case ScalarFn::kEven:  // even(NaN) is -NaN
      return MapDoubleKernel<D>(args, TypeId::kFloat64, count, out, error,
                                [](const D* x, size_t n, D* dst) { RoundFloat64(RoundingOp::kEven, x, n, dst); });
    case ScalarFn::kIsNan:
    case ScalarFn::kIsInf:
    case ScalarFn::kIsFinite: {
      bool ok = false;
      VisitFixed(args[0].type, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_floating_point_v<T>) {
          const ScalarFn fn = expr.scalar;
          ok = Map<uint8_t, T>(args, TypeId::kBool, count, out, error, [fn](T x) -> uint8_t {
            return fn == ScalarFn::kIsNan ? std::isnan(x) : fn == ScalarFn::kIsInf ? std::isinf(x) : std::isfinite(x);
          });
        }
      });
      return ok;
    }
    case ScalarFn::kSign: {
      bool ok = false;
      VisitFixed(args[0].type, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_same_v<T, double>) {
          ok = MapDoubleKernel<int8_t>(args, TypeId::kInt8, count, out, error, SignFloat64);
          return;
        }
        ok = Map<int8_t, T>(args, TypeId::kInt8, count, out, error,
                            [](T x) -> int8_t { return x > T(0) ? 1 : (x < T(0) ? -1 : 0); });
      });
      return ok;
    }
    case ScalarFn::kAbs:
    case ScalarFn::kFloor:
    case ScalarFn::kCeil:
    case ScalarFn::kTrunc:
    case ScalarFn::kRound:
    case ScalarFn::kGcd:
    case ScalarFn::kLcm:
    case ScalarFn::kIntegerDivide:
    case ScalarFn::kBitAnd:
    case ScalarFn::kBitOr:
    case ScalarFn::kBitXor:
    case ScalarFn::kShiftLeft:
    case ScalarFn::kShiftRight:
    case ScalarFn::kBitNot: {
      if (IsDecimal(args[0].type) && expr.scalar != ScalarFn::kAbs) return DecimalRounding(expr, args, count, out, error);
      bool ok = false;
      VisitFixed(expr.type, [&](auto tag) { ok = TypedFunction<decltype(tag)>(expr, args, count, out, error); });
      return ok;
    }
    case ScalarFn::kGreatest:
    case ScalarFn::kLeast: return Extreme(expr, args, count, out, error);
    case ScalarFn::kConcat: case ScalarFn::kConcatWs: case ScalarFn::kLeft: case ScalarFn::kRight:
    case ScalarFn::kReplace: case ScalarFn::kSplitPart: case ScalarFn::kTrim: case ScalarFn::kLtrim:
    case ScalarFn::kRtrim: case ScalarFn::kLpad: case ScalarFn::kRpad: case ScalarFn::kReverse:
    case ScalarFn::kRepeat: case ScalarFn::kStrpos: case ScalarFn::kStartsWith: case ScalarFn::kEndsWith:
    case ScalarFn::kContains: case ScalarFn::kAscii: case ScalarFn::kChr: case ScalarFn::kRegexpMatches:
    case ScalarFn::kRegexpFullMatch: case ScalarFn::kRegexpExtract: case ScalarFn::kMd5: case ScalarFn::kSha256:
      return EvalStringFunction(expr, args, count, out, error);
    case ScalarFn::kFormat: case ScalarFn::kPrintf: return EvalFormatFunction(expr, args, count, out, error);
    case ScalarFn::kHash: return EvalHashFunction(expr, args, count, out, error);
    case ScalarFn::kPackShortString:
    case ScalarFn::kUnpackShortString: return EvalShortStringKey(expr, args, count, out, error);
    case ScalarFn::kToInterval: case ScalarFn::kAge: case ScalarFn::kMakeTime:
    case ScalarFn::kTimestampPlusInterval: case ScalarFn::kTimestampMinusInterval:
    case ScalarFn::kTimePlusInterval: case ScalarFn::kTimeMinusInterval: case ScalarFn::kTimestampMinusTimestamp:
    case ScalarFn::kIntervalPlus: case ScalarFn::kIntervalMinus: case ScalarFn::kIntervalTimes:
    case ScalarFn::kIntervalDivide: case ScalarFn::kIntervalNegate: case ScalarFn::kIntervalKey:
    case ScalarFn::kTimePart:
      return EvalIntervalFunction(expr, args, count, out, error);
    case ScalarFn::kDateDiffPart: case ScalarFn::kDayName: case ScalarFn::kMonthName: case ScalarFn::kLastDay:
    case ScalarFn::kMakeDate: case ScalarFn::kMakeTimestamp: case ScalarFn::kEpochMs: case ScalarFn::kEpochUs:
    case ScalarFn::kStrftime: case ScalarFn::kStrptime: case ScalarFn::kTryStrptime:
      return EvalDateFunction(expr, args, count, out, error);
    case ScalarFn::kListValue: case ScalarFn::kListLength: case ScalarFn::kListExtract:
      return EvalListFunction(expr, args, count, out, error);
  }
  *error = ErrorAt(expr, "internal", "a built-in function reached the library's kernels");
  return false;
}

}  // namespace exec
}  // namespace laneql
