// Arithmetic over arrays, the kernels behind SQL's + - * / on columns: float operators with one
// NaN rule on every machine, and integer multiplication that reports overflow. Dispatched at run
// time to the best SIMD target (laneql/targets.h); `reference::` holds the plain scalar
// definitions they are tested against.
#ifndef LANEQL_ARITH_H_
#define LANEQL_ARITH_H_

#include <cstddef>
#include <cstdint>

namespace laneql {

// The IEEE operators the float kernels compute (SQL's % stays scalar: it is fmod).
enum class FloatOp : uint8_t { kAdd, kSubtract, kMultiply, kDivide };

// out[i] = x[i] op y[i] for i < n. An operand marked constant is x[0] (y[0]) for every row.
// `out` must not overlap the inputs.
//
// NaN results, the same bits on every target (hardware differs: x86 makes a negative default
// NaN, aarch64 a positive one, and which of two NaN operands wins depends on the compiler's
// operand order for + and *):
//  - x is NaN: x, quieted (its quiet bit set, sign and payload kept);
//  - else y is NaN: y, quieted;
//  - else a NaN made from non-NaN operands (0/0, inf-inf, 0*inf): -NaN with no payload,
//    x86-64's default NaN, which DuckDB (the corpus's reference, on x86-64) prints as "-nan".
// Every other result is the IEEE-754 round-to-nearest result, which every target computes
// exactly (no fused or reordered operations: there is only one per row).
void FloatArithmetic(FloatOp op, const double* x, bool x_constant, const double* y, bool y_constant,
                     size_t n, double* out);
void FloatArithmetic(FloatOp op, const float* x, bool x_constant, const float* y, bool y_constant,
                     size_t n, float* out);

// Integer multiplication, checked. out[i] = x[i] * y[i] wrapped to the type's width (two's
// complement), constants as above. Returns true when no row overflowed the type, counting only
// rows whose bit is set in `valid` (bit i = row i, as laneql/bitmask.h; nullptr = every row), so
// a NULL row's operands raise nothing. On false, `out` may be incomplete: the caller runs its own
// checked loop to find the first overflowing row and name its operands (DuckDB's message).
// A row outside `valid` gets its wrapped product, not 0.
#define LANEQL_ARITH_MULTIPLY(T)                                                             \
  bool MultiplyWithoutOverflow(const T* x, bool x_constant, const T* y, bool y_constant, size_t n, \
                               const uint64_t* valid, T* out);
#define LANEQL_ARITH_MULTIPLY_ALL \
  LANEQL_ARITH_MULTIPLY(int8_t)   \
  LANEQL_ARITH_MULTIPLY(int16_t)  \
  LANEQL_ARITH_MULTIPLY(int32_t)  \
  LANEQL_ARITH_MULTIPLY(int64_t)  \
  LANEQL_ARITH_MULTIPLY(uint8_t)  \
  LANEQL_ARITH_MULTIPLY(uint16_t) \
  LANEQL_ARITH_MULTIPLY(uint32_t) \
  LANEQL_ARITH_MULTIPLY(uint64_t)
LANEQL_ARITH_MULTIPLY_ALL

namespace reference {
// Plain scalar code, no Highway: the definitions the kernels are tested against.
void FloatArithmetic(FloatOp op, const double* x, bool x_constant, const double* y, bool y_constant,
                     size_t n, double* out);
void FloatArithmetic(FloatOp op, const float* x, bool x_constant, const float* y, bool y_constant,
                     size_t n, float* out);
LANEQL_ARITH_MULTIPLY_ALL
}  // namespace reference

#undef LANEQL_ARITH_MULTIPLY_ALL
#undef LANEQL_ARITH_MULTIPLY

}  // namespace laneql

#endif  // LANEQL_ARITH_H_
