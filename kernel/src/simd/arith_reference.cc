// Scalar references for the arithmetic kernels: plain loops that spell out laneql/arith.h's
// definitions. No Highway and no vector types, so a bug in a kernel cannot hide in a shared helper.
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "laneql/arith.h"
#include "laneql/bitmask.h"

namespace laneql {
namespace reference {
namespace {

// v with its quiet bit (the mantissa's top bit) set: what hardware makes of a NaN operand.
template <typename T>
T Quieted(T v) {
  using U = std::conditional_t<sizeof(T) == 8, uint64_t, uint32_t>;
  U bits;
  std::memcpy(&bits, &v, sizeof bits);
  bits |= U{1} << (std::numeric_limits<T>::digits - 2);
  std::memcpy(&v, &bits, sizeof bits);
  return v;
}

template <typename T>
void Arithmetic(FloatOp op, const T* x, bool x_constant, const T* y, bool y_constant, size_t n, T* out) {
  for (size_t i = 0; i < n; ++i) {
    const T a = x[x_constant ? 0 : i], b = y[y_constant ? 0 : i];
    T r;
    switch (op) {
      case FloatOp::kAdd: r = a + b; break;
      case FloatOp::kSubtract: r = a - b; break;
      case FloatOp::kMultiply: r = a * b; break;
      default: r = a / b; break;
    }
    if (std::isnan(r)) {
      r = std::isnan(a) ? Quieted(a)
        : std::isnan(b) ? Quieted(b)
                        : std::copysign(std::numeric_limits<T>::quiet_NaN(), T(-1));
    }
    out[i] = r;
  }
}

// The product's bits, and whether the mathematical product fits T.
template <typename T>
bool Multiply(const T* x, bool x_constant, const T* y, bool y_constant, size_t n, const uint64_t* valid, T* out) {
  bool fits = true;
  for (size_t i = 0; i < n; ++i) {
    const bool overflow = __builtin_mul_overflow(x[x_constant ? 0 : i], y[y_constant ? 0 : i], &out[i]);
    if (overflow && (valid == nullptr || BitmaskGet(valid, i))) fits = false;
  }
  return fits;
}

}  // namespace

void FloatArithmetic(FloatOp op, const double* x, bool x_constant, const double* y, bool y_constant,
                     size_t n, double* out) {
  Arithmetic(op, x, x_constant, y, y_constant, n, out);
}
void FloatArithmetic(FloatOp op, const float* x, bool x_constant, const float* y, bool y_constant,
                     size_t n, float* out) {
  Arithmetic(op, x, x_constant, y, y_constant, n, out);
}


#define LANEQL_ARITH_MULTIPLY_REFERENCE(T)                                                               \
  bool MultiplyWithoutOverflow(const T* x, bool x_constant, const T* y, bool y_constant, size_t n,       \
                               const uint64_t* valid, T* out) {                                          \
    return Multiply(x, x_constant, y, y_constant, n, valid, out);                                        \
  }
LANEQL_ARITH_MULTIPLY_REFERENCE(int8_t)
LANEQL_ARITH_MULTIPLY_REFERENCE(int16_t)
LANEQL_ARITH_MULTIPLY_REFERENCE(int32_t)
LANEQL_ARITH_MULTIPLY_REFERENCE(int64_t)
LANEQL_ARITH_MULTIPLY_REFERENCE(uint8_t)
LANEQL_ARITH_MULTIPLY_REFERENCE(uint16_t)
LANEQL_ARITH_MULTIPLY_REFERENCE(uint32_t)
LANEQL_ARITH_MULTIPLY_REFERENCE(uint64_t)
#undef LANEQL_ARITH_MULTIPLY_REFERENCE

}  // namespace reference
}  // namespace laneql
