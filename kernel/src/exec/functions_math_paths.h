// The whole-array paths of the number functions (functions_math.cc): abs, //, << and >> of
// integers in one branch-free pass that only notes whether any row would fail (the caller then
// runs its checked loop, which skips NULL rows and names the failing row), and greatest / least
// over fixed-width values an argument at a time. Loops over plain pointers, which the compiler
// vectorises; the checked loops (a NULL test, an error path and Vec's accessors a row) were
// most of the time of sum(abs(i)), sum(i // 7), sum((i & 65535) << 3) and greatest(i, g).
#ifndef LANEQL_EXEC_FUNCTIONS_MATH_PATHS_H_
#define LANEQL_EXEC_FUNCTIONS_MATH_PATHS_H_

#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "laneql/bitmask.h"
#include "src/exec/functions_common.h"
#include "src/exec/vector.h"
#include "src/plan/scalar_functions.h"

namespace laneql {
namespace exec {
namespace math_paths {

using plan::ScalarFn;

// abs() of an integer column of at most 64 bits in one branch-free pass that only notes
// whether a row holds the type's minimum (whose absolute value does not fit); false (the
// caller then runs the checked loop, which skips NULL rows and names the row) when one does.
// MapChecked's per-row NULL test and error path were half of sum(abs(i)).
template <class T>
bool AbsWithoutOverflow(const std::vector<Vec>& args, TypeId type, size_t count, Vec* out, std::string* error,
                        bool* ok) {
  using U = std::make_unsigned_t<T>;
  T* __restrict dst = out->InitFixed<T>(type, count, AllConstant(args), error);
  if (dst == nullptr) return *ok = false, true;
  const T* __restrict x = args[0].Data<T>();
  const size_t n = out->stored();
  uint8_t minimum = 0;
  for (size_t i = 0; i < n; ++i) {
    const U v = static_cast<U>(x[i]);
    const U negated = static_cast<U>(U(0) - v);
    dst[i] = static_cast<T>(x[i] < 0 ? negated : v);
    minimum |= static_cast<uint8_t>(x[i] == std::numeric_limits<T>::min());
  }
  if (minimum != 0) return false;
  *ok = StrictValidity(args, out, error);
  return true;
}

// x // y for integers of at most 64 bits with no divisor row 0 or -1 (no row can fail: no
// division by zero, no minimum / -1), else false with nothing decided. Up to 32 bits the
// quotient is the truncated quotient of the doubles, which is exact: a non-integer quotient q
// is at least 1/|y| from an integer, and its rounding error is at most |q| 2^-53 < 2^-22/|y|;
// unlike idiv, that vectorises (i // 7 spent most of its time in idiv and the checked loop).
template <class T>
bool DivideWithoutFailure(const std::vector<Vec>& args, TypeId type, size_t count, Vec* out, std::string* error,
                          bool* ok) {
  const Vec& a = args[0];
  const Vec& b = args[1];
  const T* __restrict x = a.Data<T>();
  const T* __restrict y = b.Data<T>();
  const size_t n = AllConstant(args) ? 1 : count;
  const auto bad = [](T d) { return d == T(0) || (std::is_signed_v<T> && d == T(-1)); };
  uint8_t any_bad = 0;
  for (size_t i = 0; i < (b.constant ? 1 : n); ++i) any_bad |= static_cast<uint8_t>(bad(y[i]));
  if (any_bad != 0) return false;
  T* __restrict dst = out->InitFixed<T>(type, count, AllConstant(args), error);
  if (dst == nullptr) return *ok = false, true;
  const auto run = [&](auto x_at, auto y_at) {
    for (size_t i = 0; i < n; ++i) {
      if constexpr (sizeof(T) <= 4) {
        dst[i] = static_cast<T>(static_cast<double>(x_at(i)) / static_cast<double>(y_at(i)));
      } else {
        dst[i] = static_cast<T>(x_at(i) / y_at(i));
      }
    }
  };
  if (n > 1 && b.constant) {
    const T yc = y[0];
    run([x](size_t i) { return x[i]; }, [yc](size_t) { return yc; });
  } else if (n > 1 && a.constant) {
    const T xc = x[0];
    run([xc](size_t) { return xc; }, [y](size_t i) { return y[i]; });
  } else {
    run([x](size_t i) { return x[i]; }, [y](size_t i) { return y[i]; });
  }
  *ok = StrictValidity(args, out, error);
  return true;
}

// x << y and x >> y for integers of at most 64 bits in one branch-free pass that notes whether
// any row (NULL or not) would fail or needs IntegerOperator's special cases (a shift count
// outside [0, bits), a negative x shifted left, an overflow); false (the caller then runs the
// checked loop) when one does. Row by row, (i & 65535) << 3 spent most of its time so.
template <class T>
bool ShiftWithoutFailure(ScalarFn fn, const std::vector<Vec>& args, TypeId type, size_t count, Vec* out,
                         std::string* error, bool* ok) {
  using U = std::make_unsigned_t<T>;
  constexpr U kBits = static_cast<U>(sizeof(T) * 8);
  T* __restrict dst = out->InitFixed<T>(type, count, AllConstant(args), error);
  if (dst == nullptr) return *ok = false, true;
  const T* __restrict x = args[0].Data<T>();
  const T* __restrict y = args[1].Data<T>();
  const size_t n = out->stored();
  const size_t sx = args[0].constant ? 0 : 1, sy = args[1].constant ? 0 : 1;
  uint8_t bad = 0;
  const auto run = [&](auto x_at, auto y_at) {
    for (size_t i = 0; i < n; ++i) {
      const T v = x_at(i);
      const U count_bits = static_cast<U>(y_at(i));
      const unsigned k = static_cast<unsigned>(count_bits & (kBits - 1));  // in range; others are bad
      bad |= static_cast<uint8_t>(count_bits >= kBits);  // a negative count is a large unsigned one
      if (fn == ScalarFn::kShiftLeft) {
        const T shifted = static_cast<T>(static_cast<U>(v) << k);
        bad |= static_cast<uint8_t>((v < T(0)) | (shifted < T(0)) | (static_cast<T>(shifted >> k) != v));
        dst[i] = shifted;
      } else {
        dst[i] = static_cast<T>(v >> k);
      }
    }
  };
  if (sx == 1 && sy == 0) {
    const T yc = y[0];
    run([x](size_t i) { return x[i]; }, [yc](size_t) { return yc; });
  } else if (sx == 0 && sy == 1) {
    const T xc = x[0];
    run([xc](size_t) { return xc; }, [y](size_t i) { return y[i]; });
  } else {
    run([x](size_t i) { return x[i]; }, [y](size_t i) { return y[i]; });
  }
  if (bad != 0) return false;
  *ok = StrictValidity(args, out, error);
  return true;
}

// Extreme's rule over fixed-width values of at most 8 bytes, a pass over the rows per argument
// (loops the compiler vectorises) instead of CompareRows per row and argument: a row takes an
// argument's value where it is not NULL and either no earlier one was or it is strictly
// larger (smaller), in TotalCompare's order (NaN the largest, -0 = +0).
template <class T>
bool ExtremeFixed(bool greatest, const std::vector<Vec>& args, TypeId type, size_t count, Vec* out,
                  std::string* error) {
  T* __restrict dst = out->InitFixed<T>(type, count, AllConstant(args), error);
  if (dst == nullptr) return false;
  const size_t n = out->stored();
  std::vector<uint8_t> have(n, 0), valid_bytes(n);
  uint8_t* __restrict seen = have.data();
  const auto less = [](T p, T q) {
    if constexpr (std::is_floating_point_v<T>) return (p < q) | ((p == p) & (q != q));
    else return p < q;
  };
  for (const Vec& a : args) {
    if (a.constant && a.IsNull(0)) continue;
    const bool all_valid = a.validity == nullptr || a.constant;
    if (!all_valid) {
      for (size_t i = 0; i < n; ++i) valid_bytes[i] = static_cast<uint8_t>(BitmaskGet(a.validity, i));
    }
    const uint8_t* __restrict valid = valid_bytes.data();
    const auto run = [&](auto x_at) {
      for (size_t i = 0; i < n; ++i) {
        const T v = x_at(i), current = dst[i];
        const uint8_t ok = all_valid ? uint8_t{1} : valid[i];
        const bool better = greatest ? less(current, v) : less(v, current);
        const bool take = (ok & (static_cast<uint8_t>(seen[i] == 0) | static_cast<uint8_t>(better))) != 0;
        dst[i] = take ? v : current;
        seen[i] |= ok;
      }
    };
    const T* __restrict x = a.Data<T>();
    if (a.constant) {
      const T c = x[0];
      run([c](size_t) { return c; });
    } else {
      run([x](size_t i) { return x[i]; });
    }
  }
  bool all_seen = true;
  for (size_t i = 0; i < n; ++i) all_seen &= seen[i] != 0;
  if (all_seen) return true;
  uint64_t* bits = out->InitValidity(error);
  if (bits == nullptr) return false;
  for (size_t i = 0; i < n; ++i) {
    if (seen[i] == 0) bits[i / 64] &= ~(uint64_t{1} << (i % 64));
  }
  return true;
}

}  // namespace math_paths
}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_FUNCTIONS_MATH_PATHS_H_
