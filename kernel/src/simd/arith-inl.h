// Arithmetic kernels, compiled once per SIMD target (Highway's per-target include pattern).
//
// Float + - * / are one IEEE operation per lane, exact on every target; what differs between
// machines is only which NaN comes out, so the NaN rule of laneql/arith.h is applied here, and
// only to vectors that hold a NaN result (one compare and a predictable branch per vector).
// Integer multiplication computes the high half of each product beside the low one and tests it.
// Tails are one partial vector (LoadN zero-fills the lanes past the end; StoreN writes only the
// rows that exist), so there is no scalar tail loop to keep in step with the vector one.

// Per-target include guard: re-included once for every target by foreach_target.h.
#if defined(LANEQL_SIMD_ARITH_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef LANEQL_SIMD_ARITH_INL_H_
#undef LANEQL_SIMD_ARITH_INL_H_
#else
#define LANEQL_SIMD_ARITH_INL_H_
#endif

#include <stddef.h>
#include <stdint.h>

#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace laneql {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

struct ArithAdd {
  template <class V>
  HWY_INLINE V operator()(V a, V b) const { return hn::Add(a, b); }
};
struct ArithSub {
  template <class V>
  HWY_INLINE V operator()(V a, V b) const { return hn::Sub(a, b); }
};
struct ArithMul {
  template <class V>
  HWY_INLINE V operator()(V a, V b) const { return hn::Mul(a, b); }
};
struct ArithDiv {
  template <class V>
  HWY_INLINE V operator()(V a, V b) const {
#if HWY_TARGET == HWY_EMU128
    // Highway 1.2's emulated Div gives 0 for a zero divisor (not ±inf or NaN): divide lane by
    // lane in C++. EMU128 is the fallback of clang builds and the wasm `scalar` flavour.
    const hn::DFromV<V> d;
    using T = hn::TFromV<V>;
    HWY_ALIGN T x[hn::MaxLanes(d)];
    HWY_ALIGN T y[hn::MaxLanes(d)];
    hn::Store(a, d, x);
    hn::Store(b, d, y);
    for (size_t i = 0; i < hn::Lanes(d); ++i) x[i] = x[i] / y[i];
    return hn::Load(d, x);
#else
    return hn::Div(a, b);
#endif
  }
};

// The NaN rule for lanes whose result r is NaN: x quieted if x is NaN, else y quieted if y is,
// else x86's default NaN (sign set, quiet bit set, no payload).
template <class D, class V = hn::VFromD<D>>
HWY_NOINLINE V FixFloatNaN(D d, V x, V y, V r) {
  using T = hn::TFromD<D>;
  const hn::RebindToUnsigned<D> du;
  using TU = hn::TFromD<decltype(du)>;
  constexpr TU kQuiet = TU{1} << (hwy::MantissaBits<T>() - 1);
  const auto quiet = hn::Set(du, kQuiet);
  const V x_quiet = hn::BitCast(d, hn::Or(hn::BitCast(du, x), quiet));
  const V y_quiet = hn::BitCast(d, hn::Or(hn::BitCast(du, y), quiet));
  const V default_nan = hn::BitCast(d, hn::Set(du, static_cast<TU>(hwy::SignMask<T>() | hwy::ExponentMask<T>() | kQuiet)));
  const V nan = hn::IfThenElse(hn::IsNaN(x), x_quiet, hn::IfThenElse(hn::IsNaN(y), y_quiet, default_nan));
  return hn::IfThenElse(hn::IsNaN(r), nan, r);
}

template <class D, class Op, class V = hn::VFromD<D>>
HWY_INLINE V FloatResult(D d, V x, V y, const Op& op) {
  const V r = op(x, y);
  if (HWY_UNLIKELY(!hn::AllFalse(d, hn::IsNaN(r)))) return FixFloatNaN(d, x, y, r);
  return r;
}

// out[i] = x[i] op y[i]; a constant operand is its [0] broadcast.
template <bool kXConstant, bool kYConstant, typename T, class Op>
HWY_INLINE void FloatArithmeticImpl(const T* HWY_RESTRICT x, const T* HWY_RESTRICT y, size_t n,
                                    T* HWY_RESTRICT out, const Op& op) {
  if (n == 0) return;
  const hn::ScalableTag<T> d;
  using V = hn::VFromD<decltype(d)>;
  const size_t N = hn::Lanes(d);
  const V x0 = hn::Set(d, x[0]);
  const V y0 = hn::Set(d, y[0]);
  size_t i = 0;
  for (; i + N <= n; i += N) {
    const V a = kXConstant ? x0 : hn::LoadU(d, x + i);
    const V b = kYConstant ? y0 : hn::LoadU(d, y + i);
    hn::StoreU(FloatResult(d, a, b, op), d, out + i);
  }
  if (i < n) {
    const size_t rest = n - i;
    const V a = kXConstant ? x0 : hn::LoadN(d, x + i, rest);
    const V b = kYConstant ? y0 : hn::LoadN(d, y + i, rest);
    hn::StoreN(FloatResult(d, a, b, op), d, out + i, rest);
  }
}

// The operator and the operands' shapes, chosen once per call.
template <typename T, class Op>
HWY_INLINE void FloatArithmeticShapes(const T* HWY_RESTRICT x, bool x_constant, const T* HWY_RESTRICT y,
                                      bool y_constant, size_t n, T* HWY_RESTRICT out, const Op& op) {
  if (x_constant && y_constant) return FloatArithmeticImpl<true, true>(x, y, n, out, op);
  if (x_constant) return FloatArithmeticImpl<true, false>(x, y, n, out, op);
  if (y_constant) return FloatArithmeticImpl<false, true>(x, y, n, out, op);
  FloatArithmeticImpl<false, false>(x, y, n, out, op);
}

// `op` is laneql::FloatOp's value (kAdd, kSubtract, kMultiply, kDivide).
template <typename T>
HWY_INLINE void FloatArithmeticOp(int op, const T* HWY_RESTRICT x, bool x_constant, const T* HWY_RESTRICT y,
                                  bool y_constant, size_t n, T* HWY_RESTRICT out) {
  switch (op) {
    case 0: return FloatArithmeticShapes(x, x_constant, y, y_constant, n, out, ArithAdd());
    case 1: return FloatArithmeticShapes(x, x_constant, y, y_constant, n, out, ArithSub());
    case 2: return FloatArithmeticShapes(x, x_constant, y, y_constant, n, out, ArithMul());
    default: return FloatArithmeticShapes(x, x_constant, y, y_constant, n, out, ArithDiv());
  }
}

// ------------------------------------------------------------------ checked integer multiply
//
// The full product is 2w bits wide: Mul gives its low half, MulHigh its high half (native for
// 16-bit lanes on x86, built from widening multiplies for 8 and 32 bits and from 32-bit pieces
// for 64). It fits T exactly when the high half is the low half's sign extension (all copies of
// its top bit) for signed T, and zero for unsigned T.
//
// 64-bit lanes: no x86 target has a 64-bit MulHigh, and AVX2 and SSE4 not even a 64-bit Mul, so
// a vector whose operands all fit 32 bits (sign-extended for signed T), the usual case, takes one
// widening 32 x 32 -> 64 multiply of the low halves, which cannot overflow. Other vectors take
// Mul + MulHigh where those are fast (AVX-512: about 1.05x scalar code; SVE multiplies high
// natively), else the compiler's checked multiply row by row (Mul + MulHigh emulated on AVX2 and
// SSE4 ran at 0.8x and 0.5x of it).
#undef LANEQL_ARITH_WIDE_MULTIPLY_IN_VECTORS
#if (HWY_TARGET <= HWY_AVX3 && HWY_ARCH_X86) || (HWY_TARGET & HWY_ALL_SVE) || HWY_TARGET == HWY_SCALAR
#define LANEQL_ARITH_WIDE_MULTIPLY_IN_VECTORS 1
#else
#define LANEQL_ARITH_WIDE_MULTIPLY_IN_VECTORS 0
#endif

// At most 64 lanes, so one vector's rows lie in one 64-bit word of the validity bitmap.
template <typename T>
using MultiplyTag = hn::CappedTag<T, 64>;

// Lane i of m -> bit i.
template <class D>
HWY_INLINE uint64_t ArithMaskBits(D d, hn::MFromD<D> m) {
  uint8_t bytes[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  hn::StoreMaskBits(d, m, bytes);
  uint64_t bits = 0;
  for (int b = 7; b >= 0; --b) bits = (bits << 8) | bytes[b];
  return bits;
}

// Whether any lane of `overflow` (rows i.. of a vector) is a valid row. Runs only for vectors
// that overflowed somewhere, which in a query that succeeds are those of NULL rows alone.
template <class D>
HWY_NOINLINE bool AnyValidOverflow(D d, hn::MFromD<D> overflow, const uint64_t* HWY_RESTRICT valid, size_t i) {
  if (valid == nullptr) return true;
  return (ArithMaskBits(d, overflow) & (valid[i / 64] >> (i % 64))) != 0;
}

// The overflowing lanes of a * b (and the wrapped products).
template <class D, class V = hn::VFromD<D>>
HWY_INLINE hn::MFromD<D> MultiplyOverflows(D d, V a, V b, V* product) {
  using T = hn::TFromD<D>;
  const V low = hn::Mul(a, b);
  const V high = hn::MulHigh(a, b);
  *product = low;
  if constexpr (hwy::IsSigned<T>()) {
    return hn::Ne(high, hn::ShiftRight<sizeof(T) * 8 - 1>(low));
  } else {
    return hn::Ne(high, hn::Zero(d));
  }
}

// 64-bit lanes whose operands all fit 32 bits: their exact products in *product, and true.
template <class D, class V = hn::VFromD<D>>
HWY_INLINE bool MultiplyNarrowOperands(D d, V a, V b, V* product) {
#if HWY_IS_LITTLE_ENDIAN && HWY_TARGET != HWY_SCALAR
  using T = hn::TFromD<D>;
  const hn::RebindToUnsigned<D> du;
  const hn::Repartition<hwy::MakeNarrow<T>, D> d32;
  // Adding 2^31 maps [-2^31, 2^31) onto [0, 2^32) for signed T; then no upper bit may be set.
  const auto bias = hn::Set(du, hwy::IsSigned<T>() ? uint64_t{0x80000000u} : uint64_t{0});
  const auto upper = hn::ShiftRight<32>(hn::Or(hn::Add(hn::BitCast(du, a), bias), hn::Add(hn::BitCast(du, b), bias)));
  if (!hn::AllTrue(du, hn::Eq(upper, hn::Zero(du)))) return false;
  // MulEven multiplies the even 32-bit lanes, the low halves on a little-endian machine.
  *product = hn::BitCast(d, hn::MulEven(hn::BitCast(d32, a), hn::BitCast(d32, b)));
  return true;
#else
  (void)d, (void)a, (void)b, (void)product;
  return false;
#endif
}

// Rows [i, i + count) one at a time; false when a valid one overflowed.
template <bool kXConstant, bool kYConstant, typename T>
HWY_NOINLINE bool MultiplyRows(const T* HWY_RESTRICT x, const T* HWY_RESTRICT y, size_t i, size_t count,
                               const uint64_t* HWY_RESTRICT valid, T* HWY_RESTRICT out) {
  bool fits = true;
  for (size_t r = i; r < i + count; ++r) {
    if (__builtin_mul_overflow(x[kXConstant ? 0 : r], y[kYConstant ? 0 : r], &out[r]) &&
        (valid == nullptr || ((valid[r / 64] >> (r % 64)) & 1) != 0)) {
      fits = false;
    }
  }
  return fits;
}

// Rows from i on, starting with one vector of `count` <= Lanes(d) rows: how many rows were done
// (count, or up to 64 for 64-bit rows done one at a time), 0 when a valid row overflowed.
template <bool kXConstant, bool kYConstant, bool kTail, class D, class V = hn::VFromD<D>>
HWY_INLINE size_t MultiplyStep(D d, V a, V b, const hn::TFromD<D>* HWY_RESTRICT x,
                               const hn::TFromD<D>* HWY_RESTRICT y, size_t i, size_t count, size_t n,
                               const uint64_t* HWY_RESTRICT valid, hn::TFromD<D>* HWY_RESTRICT out) {
  using T = hn::TFromD<D>;
  V product;
  if constexpr (sizeof(T) == 8) {
    if (MultiplyNarrowOperands(d, a, b, &product)) {
      if (kTail) hn::StoreN(product, d, out + i, count); else hn::StoreU(product, d, out + i);
      return count;
    }
    if constexpr (!LANEQL_ARITH_WIDE_MULTIPLY_IN_VECTORS) {
      // Wide operands seldom come alone: the next 64 rows (a multiple of Lanes(d)) one at a
      // time, so the call and the vector test are paid once per 64 rows.
      const size_t rows = HWY_MIN(size_t{64}, n - i);
      return MultiplyRows<kXConstant, kYConstant>(x, y, i, rows, valid, out) ? rows : 0;
    }
  }
  (void)x, (void)y, (void)n;
  auto overflow = MultiplyOverflows(d, a, b, &product);
  if constexpr (kTail) {
    // Lanes past `count` are 0 unless an operand is constant: keep only the rows that exist.
    overflow = hn::And(overflow, hn::FirstN(d, count));
    hn::StoreN(product, d, out + i, count);
  } else {
    hn::StoreU(product, d, out + i);
  }
  return HWY_LIKELY(hn::AllFalse(d, overflow)) || !AnyValidOverflow(d, overflow, valid, i) ? count : 0;
}

template <bool kXConstant, bool kYConstant, typename T>
HWY_INLINE bool MultiplyImpl(const T* HWY_RESTRICT x, const T* HWY_RESTRICT y, size_t n,
                             const uint64_t* HWY_RESTRICT valid, T* HWY_RESTRICT out) {
  if (n == 0) return true;
  const MultiplyTag<T> d;
  using V = hn::VFromD<decltype(d)>;
  const size_t N = hn::Lanes(d);
  const V x0 = hn::Set(d, x[0]);
  const V y0 = hn::Set(d, y[0]);
  size_t i = 0;
  while (i + N <= n) {
    const V a = kXConstant ? x0 : hn::LoadU(d, x + i);
    const V b = kYConstant ? y0 : hn::LoadU(d, y + i);
    const size_t done = MultiplyStep<kXConstant, kYConstant, false>(d, a, b, x, y, i, N, n, valid, out);
    if (done == 0) return false;
    i += done;
  }
  if (i < n) {
    const size_t rest = n - i;
    const V a = kXConstant ? x0 : hn::LoadN(d, x + i, rest);
    const V b = kYConstant ? y0 : hn::LoadN(d, y + i, rest);
    if (MultiplyStep<kXConstant, kYConstant, true>(d, a, b, x, y, i, rest, n, valid, out) == 0) return false;
  }
  return true;
}

template <typename T>
HWY_INLINE bool MultiplyShapes(const T* HWY_RESTRICT x, bool x_constant, const T* HWY_RESTRICT y, bool y_constant,
                               size_t n, const uint64_t* HWY_RESTRICT valid, T* HWY_RESTRICT out) {
  if (x_constant && y_constant) return MultiplyImpl<true, true>(x, y, n, valid, out);
  if (x_constant) return MultiplyImpl<true, false>(x, y, n, valid, out);
  if (y_constant) return MultiplyImpl<false, true>(x, y, n, valid, out);
  return MultiplyImpl<false, false>(x, y, n, valid, out);
}

}  // namespace HWY_NAMESPACE
}  // namespace laneql
HWY_AFTER_NAMESPACE();

#endif  // LANEQL_SIMD_ARITH_INL_H_
