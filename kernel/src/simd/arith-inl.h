// Arithmetic kernels, compiled once per SIMD target (Highway's per-target include pattern).
//
// Float + - * / are one IEEE operation per lane, exact on every target; what differs between
// machines is only which NaN comes out, so the NaN rule of laneql/arith.h is applied here, and
// only to vectors that hold a NaN result (one compare and a predictable branch per vector).
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
  HWY_INLINE V operator()(V a, V b) const { return hn::Div(a, b); }
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

}  // namespace HWY_NAMESPACE
}  // namespace laneql
HWY_AFTER_NAMESPACE();

#endif  // LANEQL_SIMD_ARITH_INL_H_
