// The rounding and sign functions of DOUBLE over arrays (SQL's floor, ceil, trunc, round, abs,
// even, sign), with exactly the results of the <cmath> calls the engine made row by row, NaN,
// infinities, ±0 and huge values included. Dispatched at run time to the best SIMD target
// (laneql/targets.h); `reference::` holds the plain scalar definitions they are tested against.
#ifndef LANEQL_ROUNDING_H_
#define LANEQL_ROUNDING_H_

#include <cstddef>
#include <cstdint>

namespace laneql {

enum class RoundingOp : uint8_t {
  kFloor,  // std::floor
  kCeil,   // std::ceil
  kTrunc,  // std::trunc
  kRound,  // std::round: halves away from zero (round(0.49999999999999994) = 0, round(-2.5) = -3)
  kAbs,    // std::fabs (NaN loses its sign too)
  kEven,   // DuckDB's even(): away from zero to the nearest even integer (even(0.5) = 2,
           // even(-0.5) = -2, even(2) = 2, even(-0.0) = -0.0, ±inf stays); NaN gives -NaN
  kHalfEven,  // std::nearbyint in the default rounding mode: halves to the even neighbour
              // (2.5 -> 2, -0.5 -> -0.0), as DuckDB casts DOUBLE to the integer types
};

// out[i] = op(x[i]) for i < n. A NaN argument comes out as it came in (quieted), except for
// kAbs (sign cleared) and kEven (x86's default -NaN, as DuckDB prints it). `out` may be `x`.
void RoundFloat64(RoundingOp op, const double* x, size_t n, double* out);

// DuckDB's round(x, digits), one `digits` for every row: x rounded half away from zero at
// 10^-digits, computed as std::round(x * 10^digits) / 10^digits (for digits < 0:
// std::round(x / 10^-digits) * 10^-digits), with 10^k from std::pow; where that is not finite the
// result is x (digits >= 0) or 0.0 (digits < 0); a non-finite x stays x.
void RoundFloat64Digits(const double* x, size_t n, int32_t digits, double* out);

// sign(x): 1 for x > 0, -1 for x < 0, 0 for ±0 and NaN.
void SignFloat64(const double* x, size_t n, int8_t* out);

namespace reference {
// Plain scalar code, no Highway: the definitions the kernels are tested against.
void RoundFloat64(RoundingOp op, const double* x, size_t n, double* out);
void RoundFloat64Digits(const double* x, size_t n, int32_t digits, double* out);
void SignFloat64(const double* x, size_t n, int8_t* out);
// One value of round(x, digits), as DuckDB rounds (half away from zero; a result past the
// double range gives x back, or 0 for negative digits): the engine's per-row path uses it too.
double RoundDigits(double x, int32_t digits);
}  // namespace reference

}  // namespace laneql

#endif  // LANEQL_ROUNDING_H_
