// Scalar references for the arithmetic kernels: plain loops that spell out laneql/arith.h's
// definitions. No Highway and no vector types, so a bug in a kernel cannot hide in a shared helper.
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "laneql/arith.h"

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

}  // namespace

void FloatArithmetic(FloatOp op, const double* x, bool x_constant, const double* y, bool y_constant,
                     size_t n, double* out) {
  Arithmetic(op, x, x_constant, y, y_constant, n, out);
}
void FloatArithmetic(FloatOp op, const float* x, bool x_constant, const float* y, bool y_constant,
                     size_t n, float* out) {
  Arithmetic(op, x, x_constant, y, y_constant, n, out);
}

}  // namespace reference
}  // namespace laneql
