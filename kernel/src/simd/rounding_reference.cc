// Scalar references for the rounding kernels: the <cmath> calls the engine made row by row
// (exec/functions_math.cc before the kernels), spelled out in plain loops without Highway.
#include <cmath>
#include <limits>

#include "laneql/rounding.h"

namespace laneql {
namespace reference {
namespace {

double Even(double x) {
  if (std::isnan(x)) return -std::numeric_limits<double>::quiet_NaN();
  double v = x >= 0 ? std::ceil(x) : std::floor(x);
  if (std::fmod(v, 2.0) != 0) v += x >= 0 ? 1 : -1;
  return v;
}

}  // namespace

double RoundDigits(double x, int32_t digits) {
  if (!std::isfinite(x)) return x;
  if (digits < 0) {
    const double modifier = std::pow(10.0, -static_cast<double>(digits));
    const double rounded = std::round(x / modifier) * modifier;
    return std::isinf(rounded) || std::isnan(rounded) ? 0.0 : rounded;
  }
  const double modifier = std::pow(10.0, static_cast<double>(digits));
  const double rounded = std::round(x * modifier) / modifier;
  return std::isinf(rounded) || std::isnan(rounded) ? x : rounded;
}

void RoundFloat64(RoundingOp op, const double* x, size_t n, double* out) {
  for (size_t i = 0; i < n; ++i) {
    switch (op) {
      case RoundingOp::kFloor: out[i] = std::floor(x[i]); break;
      case RoundingOp::kCeil: out[i] = std::ceil(x[i]); break;
      case RoundingOp::kTrunc: out[i] = std::trunc(x[i]); break;
      case RoundingOp::kRound: out[i] = std::round(x[i]); break;
      case RoundingOp::kAbs: out[i] = std::fabs(x[i]); break;
      case RoundingOp::kEven: out[i] = Even(x[i]); break;
      case RoundingOp::kHalfEven: out[i] = std::nearbyint(x[i]); break;
    }
  }
}

void RoundFloat64Digits(const double* x, size_t n, int32_t digits, double* out) {
  for (size_t i = 0; i < n; ++i) out[i] = RoundDigits(x[i], digits);
}

void SignFloat64(const double* x, size_t n, int8_t* out) {
  for (size_t i = 0; i < n; ++i) out[i] = x[i] > 0 ? 1 : (x[i] < 0 ? -1 : 0);
}

}  // namespace reference
}  // namespace laneql
