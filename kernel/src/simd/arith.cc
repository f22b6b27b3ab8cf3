// Dispatch for the arithmetic kernels: foreach_target.h compiles this file once per SIMD target,
// HWY_DYNAMIC_DISPATCH calls the best one the CPU supports (or the one ForceTarget chose).
#include "laneql/arith.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/simd/arith.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "src/simd/arith-inl.h"

HWY_BEFORE_NAMESPACE();
namespace laneql {
namespace HWY_NAMESPACE {

void FloatArithmeticF64(int op, const double* HWY_RESTRICT x, bool x_constant, const double* HWY_RESTRICT y,
                        bool y_constant, size_t n, double* HWY_RESTRICT out) {
  FloatArithmeticOp(op, x, x_constant, y, y_constant, n, out);
}
void FloatArithmeticF32(int op, const float* HWY_RESTRICT x, bool x_constant, const float* HWY_RESTRICT y,
                        bool y_constant, size_t n, float* HWY_RESTRICT out) {
  FloatArithmeticOp(op, x, x_constant, y, y_constant, n, out);
}

}  // namespace HWY_NAMESPACE
}  // namespace laneql
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace laneql {

HWY_EXPORT(FloatArithmeticF64);
HWY_EXPORT(FloatArithmeticF32);

void FloatArithmetic(FloatOp op, const double* x, bool x_constant, const double* y, bool y_constant,
                     size_t n, double* out) {
  HWY_DYNAMIC_DISPATCH(FloatArithmeticF64)(static_cast<int>(op), x, x_constant, y, y_constant, n, out);
}
void FloatArithmetic(FloatOp op, const float* x, bool x_constant, const float* y, bool y_constant,
                     size_t n, float* out) {
  HWY_DYNAMIC_DISPATCH(FloatArithmeticF32)(static_cast<int>(op), x, x_constant, y, y_constant, n, out);
}

}  // namespace laneql
#endif  // HWY_ONCE
