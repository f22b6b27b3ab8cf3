// Rounding and sign kernels for doubles, compiled once per SIMD target (Highway's per-target
// include pattern). Every function is exact, so results are the same bits on every target:
//  - Floor, Ceil, Trunc are Highway's (one instruction from SSE4 on; exact integer tricks on
//    the emulated fallbacks, where the sign of a zero result is repaired, see FloorExact);
//  - round half away from zero is t = Trunc(x) plus ±1 where |x - t| >= 0.5. x - t is exact (the
//    fraction of a double is representable), so 0.49999999999999994 rounds to 0, which
//    Trunc(x + 0.5) gets wrong (x + 0.5 rounds up to 1). From 2^52 on every double is an integer
//    and the fraction is 0; for ±inf it is NaN, which compares false.
// Tails are one partial vector (LoadN / StoreN), so there is no scalar tail loop.

// Per-target include guard: re-included once for every target by foreach_target.h.
#if defined(LANEQL_SIMD_ROUNDING_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef LANEQL_SIMD_ROUNDING_INL_H_
#undef LANEQL_SIMD_ROUNDING_INL_H_
#else
#define LANEQL_SIMD_ROUNDING_INL_H_
#endif

#include <stddef.h>
#include <stdint.h>

#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace laneql {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Floor, Ceil, Trunc and Round (half to even) with the sign of zero right on every target. Highway 1.2's emulated
// versions (the SCALAR and EMU128 fallbacks) lose it for |x| < 1: Floor(-0.0) = +0.0,
// Ceil(+0.0) = -0.0, EMU128's Trunc(-0.0) = +0.0. All three results always have x's sign (a NaN
// keeps it too), so copying it back is exact; targets with rounding instructions skip that.
#if HWY_TARGET == HWY_SCALAR || HWY_TARGET == HWY_EMU128
template <class V>
HWY_INLINE V FloorExact(V x) { return hn::CopySign(hn::Floor(x), x); }
template <class V>
HWY_INLINE V CeilExact(V x) { return hn::CopySign(hn::Ceil(x), x); }
template <class V>
HWY_INLINE V TruncExact(V x) { return hn::CopySign(hn::Trunc(x), x); }
template <class V>
HWY_INLINE V HalfEvenExact(V x) { return hn::CopySign(hn::Round(x), x); }
#else
template <class V>
HWY_INLINE V FloorExact(V x) { return hn::Floor(x); }
template <class V>
HWY_INLINE V CeilExact(V x) { return hn::Ceil(x); }
template <class V>
HWY_INLINE V TruncExact(V x) { return hn::Trunc(x); }
template <class V>
HWY_INLINE V HalfEvenExact(V x) { return hn::Round(x); }
#endif

// std::round: halves away from zero. -0.0 and (-0.5, -0] keep the sign of zero, as t does.
template <class D, class V = hn::VFromD<D>>
HWY_INLINE V RoundHalfAway(D d, V x) {
  const V t = TruncExact(x);
  const auto away = hn::Ge(hn::Abs(hn::Sub(x, t)), hn::Set(d, 0.5));
  return hn::IfThenElse(away, hn::Add(t, hn::CopySign(hn::Set(d, 1.0), x)), t);
}

// DuckDB's even(): x >= 0 ? ceil(x) : floor(x), then one further from zero when odd. The value
// is an integer (or ±inf), so it is odd exactly when half of it is not an integer; the scalar
// code's fmod(v, 2) != 0 also holds for ±inf, where adding ±1 changes nothing. NaN: -NaN.
template <class D, class V = hn::VFromD<D>>
HWY_INLINE V EvenAway(D d, V x) {
  const auto up = hn::Ge(x, hn::Zero(d));
  const V v = hn::IfThenElse(up, CeilExact(x), FloorExact(x));
  const V half = hn::Mul(v, hn::Set(d, 0.5));
  const auto odd = hn::Ne(half, hn::Floor(half));  // only compared: the sign of zero is no matter
  const V step = hn::IfThenElse(up, hn::Set(d, 1.0), hn::Set(d, -1.0));
  const V even = hn::IfThenElse(odd, hn::Add(v, step), v);
  const hn::RebindToUnsigned<D> du;
  const V default_nan = hn::BitCast(d, hn::Set(du, uint64_t{0xFFF8000000000000ull}));
  return hn::IfThenElse(hn::IsNaN(x), default_nan, even);
}

// out[i] = f(x[i]) for every row; f maps a vector to a vector.
template <class F>
HWY_INLINE void MapFloat64(const double* x, size_t n, double* out, const F& f) {
  const hn::ScalableTag<double> d;
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  for (; i + N <= n; i += N) hn::StoreU(f(d, hn::LoadU(d, x + i)), d, out + i);
  if (i < n) hn::StoreN(f(d, hn::LoadN(d, x + i, n - i)), d, out + i, n - i);
}

// `op` is laneql::RoundingOp's value.
HWY_INLINE void RoundFloat64Op(int op, const double* x, size_t n, double* out) {
  switch (op) {
    case 0: return MapFloat64(x, n, out, [](auto, auto v) { return FloorExact(v); });
    case 1: return MapFloat64(x, n, out, [](auto, auto v) { return CeilExact(v); });
    case 2: return MapFloat64(x, n, out, [](auto, auto v) { return TruncExact(v); });
    case 3: return MapFloat64(x, n, out, [](auto d, auto v) { return RoundHalfAway(d, v); });
    case 4: return MapFloat64(x, n, out, [](auto, auto v) { return hn::Abs(v); });
    case 5: return MapFloat64(x, n, out, [](auto d, auto v) { return EvenAway(d, v); });
    default: return MapFloat64(x, n, out, [](auto, auto v) { return HalfEvenExact(v); });
  }
}

// round(x, digits) given power = 10^|digits| (from std::pow, as the reference computes it):
// RoundHalfAway(x * power) / power for digits >= 0, where a non-finite result falls back to x;
// RoundHalfAway(x / power) * power for digits < 0, falling back to 0. A non-finite x stays x.
HWY_INLINE void RoundFloat64DigitsImpl(const double* x, size_t n, double power, bool negative_digits,
                                       double* out) {
  if (negative_digits) {
    MapFloat64(x, n, out, [power](auto d, auto v) {
      const auto p = hn::Set(d, power);
      const auto r = hn::Mul(RoundHalfAway(d, hn::Div(v, p)), p);
      return hn::IfThenElse(hn::IsFinite(v), hn::IfThenElseZero(hn::IsFinite(r), r), v);
    });
  } else {
    MapFloat64(x, n, out, [power](auto d, auto v) {
      const auto p = hn::Set(d, power);
      const auto r = hn::Div(RoundHalfAway(d, hn::Mul(v, p)), p);
      return hn::IfThenElse(hn::IsFinite(r), r, v);  // a non-finite x makes a non-finite r
    });
  }
}

// sign(x) as int8: the compares give all-ones (-1) lanes for x < 0; x > 0 adds 1 as a masked 1.
// The 64-bit lanes then narrow to 8 bits.
HWY_INLINE void SignFloat64Impl(const double* x, size_t n, int8_t* out) {
  const hn::ScalableTag<double> d;
  const hn::RebindToSigned<decltype(d)> di;
  const hn::Rebind<int8_t, decltype(d)> d8;
  const size_t N = hn::Lanes(d);
  const auto sign = [&](hn::VFromD<decltype(d)> v) {
    const auto negative = hn::BitCast(di, hn::VecFromMask(d, hn::Lt(v, hn::Zero(d))));
    const auto positive = hn::And(hn::BitCast(di, hn::VecFromMask(d, hn::Gt(v, hn::Zero(d)))), hn::Set(di, 1));
    return hn::DemoteTo(d8, hn::Or(negative, positive));
  };
  size_t i = 0;
  for (; i + N <= n; i += N) hn::StoreU(sign(hn::LoadU(d, x + i)), d8, out + i);
  if (i < n) hn::StoreN(sign(hn::LoadN(d, x + i, n - i)), d8, out + i, n - i);
}

}  // namespace HWY_NAMESPACE
}  // namespace laneql
HWY_AFTER_NAMESPACE();

#endif  // LANEQL_SIMD_ROUNDING_INL_H_
