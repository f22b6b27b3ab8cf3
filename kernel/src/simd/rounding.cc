// Dispatch for the rounding kernels: foreach_target.h compiles this file once per SIMD target,
// HWY_DYNAMIC_DISPATCH calls the best one the CPU supports (or the one ForceTarget chose).
#include "laneql/rounding.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/simd/rounding.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "src/simd/rounding-inl.h"

HWY_BEFORE_NAMESPACE();
namespace laneql {
namespace HWY_NAMESPACE {

void RoundFloat64Target(int op, const double* x, size_t n, double* out) { RoundFloat64Op(op, x, n, out); }
void RoundFloat64DigitsTarget(const double* x, size_t n, double power, bool negative_digits, double* out) {
  RoundFloat64DigitsImpl(x, n, power, negative_digits, out);
}
void SignFloat64Target(const double* x, size_t n, int8_t* out) { SignFloat64Impl(x, n, out); }

}  // namespace HWY_NAMESPACE
}  // namespace laneql
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <cmath>

namespace laneql {

HWY_EXPORT(RoundFloat64Target);
HWY_EXPORT(RoundFloat64DigitsTarget);
HWY_EXPORT(SignFloat64Target);

void RoundFloat64(RoundingOp op, const double* x, size_t n, double* out) {
  HWY_DYNAMIC_DISPATCH(RoundFloat64Target)(static_cast<int>(op), x, n, out);
}

void RoundFloat64Digits(const double* x, size_t n, int32_t digits, double* out) {
  // The power exactly as the reference (and DuckDB) computes it: the same std::pow call.
  const double power = std::pow(10.0, digits < 0 ? -static_cast<double>(digits) : static_cast<double>(digits));
  HWY_DYNAMIC_DISPATCH(RoundFloat64DigitsTarget)(x, n, power, digits < 0, out);
}

void SignFloat64(const double* x, size_t n, int8_t* out) { HWY_DYNAMIC_DISPATCH(SignFloat64Target)(x, n, out); }

}  // namespace laneql
#endif  // HWY_ONCE
