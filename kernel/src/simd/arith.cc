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


#define LANEQL_ARITH_MULTIPLY_TARGET(T, Name)                                                           \
  bool Multiply##Name(const T* HWY_RESTRICT x, bool x_constant, const T* HWY_RESTRICT y, bool y_constant, \
                      size_t n, const uint64_t* HWY_RESTRICT valid, T* HWY_RESTRICT out) {             \
    return MultiplyShapes(x, x_constant, y, y_constant, n, valid, out);                                 \
  }
LANEQL_ARITH_MULTIPLY_TARGET(int8_t, I8)
LANEQL_ARITH_MULTIPLY_TARGET(int16_t, I16)
LANEQL_ARITH_MULTIPLY_TARGET(int32_t, I32)
LANEQL_ARITH_MULTIPLY_TARGET(int64_t, I64)
LANEQL_ARITH_MULTIPLY_TARGET(uint8_t, U8)
LANEQL_ARITH_MULTIPLY_TARGET(uint16_t, U16)
LANEQL_ARITH_MULTIPLY_TARGET(uint32_t, U32)
LANEQL_ARITH_MULTIPLY_TARGET(uint64_t, U64)
#undef LANEQL_ARITH_MULTIPLY_TARGET

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

#define LANEQL_ARITH_MULTIPLY_DISPATCH(T, Name)                                                          \
  HWY_EXPORT(Multiply##Name);                                                                          \
  bool MultiplyWithoutOverflow(const T* x, bool x_constant, const T* y, bool y_constant, size_t n,      \
                               const uint64_t* valid, T* out) {                                         \
    return HWY_DYNAMIC_DISPATCH(Multiply##Name)(x, x_constant, y, y_constant, n, valid, out);           \
  }
LANEQL_ARITH_MULTIPLY_DISPATCH(int8_t, I8)
LANEQL_ARITH_MULTIPLY_DISPATCH(int16_t, I16)
LANEQL_ARITH_MULTIPLY_DISPATCH(int32_t, I32)
LANEQL_ARITH_MULTIPLY_DISPATCH(int64_t, I64)
LANEQL_ARITH_MULTIPLY_DISPATCH(uint8_t, U8)
LANEQL_ARITH_MULTIPLY_DISPATCH(uint16_t, U16)
LANEQL_ARITH_MULTIPLY_DISPATCH(uint32_t, U32)
LANEQL_ARITH_MULTIPLY_DISPATCH(uint64_t, U64)
#undef LANEQL_ARITH_MULTIPLY_DISPATCH

}  // namespace laneql
#endif  // HWY_ONCE
