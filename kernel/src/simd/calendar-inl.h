// Calendar kernels, compiled once per SIMD target (Highway's per-target include pattern).
//
// Howard Hinnant's civil_from_days with every division turned into an exact multiply-high (or
// multiply) and shift, in unsigned 32-bit lanes, for day counts in the fast range
// [-2^27, 2^27) (about 367,000 years either side of 1970: every TIMESTAMP, and every DATE but
// the few beyond, such as DuckDB's infinite dates, which take a scalar 64-bit path per vector).
// The day count is first shifted by kEraShift whole 400-year eras so that it is never negative
// (146097 days, 400 years, is also a whole number of weeks, so the weekday survives the shift).
//
// Each magic constant m and shift s replaces n / d for n up to a bound N: with
// m = ceil(2^k / d) and e = m d - 2^k, floor(n m / 2^k) = floor(n / d) whenever n e < 2^k (the
// error n e / (d 2^k) stays below 1/d). The bounds and constants below satisfy that; the tests
// also check every day of the fast range against the scalar reference (calendar_test.cc).
//
// Lanes: one vector of int64 results holds as many rows as a half-width vector of int32 days,
// so the 32-bit arithmetic runs on Rebind<int32_t> of the 64-bit tag (the same lane count).

// Per-target include guard: re-included once for every target by foreach_target.h.
#if defined(LANEQL_SIMD_CALENDAR_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef LANEQL_SIMD_CALENDAR_INL_H_
#undef LANEQL_SIMD_CALENDAR_INL_H_
#else
#define LANEQL_SIMD_CALENDAR_INL_H_
#endif

#include <stddef.h>
#include <stdint.h>

#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace laneql {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// laneql::CalendarPart's values.
enum CalendarPartId : int { kCalYear, kCalMonth, kCalDay, kCalDow, kCalIsoDow, kCalDoy, kCalQuarter };

// The fast range of day counts, and the shift that makes them non-negative: days since
// 0000-03-01 (Hinnant's z = days + 719468) plus 914 eras: z in [34398, 268469853] < 2^28.
constexpr int32_t kFastDaysLimit = int32_t{1} << 27;
constexpr uint32_t kEraShift = 914;
constexpr uint32_t kDayShift = 719468 + 146097 * kEraShift;

// floor(n / d) as MulHigh(n, m) >> s, for n <= N (n e < 2^(32 + s) checked for each):
//   z / 146097, z <= 268469856:  m = 15051803, s = 9
//   n / 1460, n <= 146096:       m = 2941759,  s = 0
//   n / 36524, n <= 146096:      m = 235187,   s = 1
//   n / 365, n <= 146096:        m = 11767034, s = 0
//   n / 7, n <= 268469856:       m = 613566757, s = 0
// and as (n * m) >> s in 32 bits (n m < 2^32) for the small ones:
//   yoe / 100, yoe <= 399: m = 41, s = 12;  n / 153, n <= 1827: m = 857, s = 17;
//   n / 5, n <= 1685: m = 1639, s = 13;     n / 3, n <= 11: m = 11, s = 5.
template <int kShift, class D, class V = hn::VFromD<D>>
HWY_INLINE V DivHigh(D d, V n, uint32_t m) {
  return hn::ShiftRight<kShift>(hn::MulHigh(n, hn::Set(d, m)));
}
template <int kShift, class D, class V = hn::VFromD<D>>
HWY_INLINE V DivLow(D d, V n, uint32_t m) {
  return hn::ShiftRight<kShift>(hn::Mul(n, hn::Set(d, m)));
}

// The part of each day count (in the fast range), as signed 32-bit lanes.
template <int kPart, class DU, class VU = hn::VFromD<DU>>
HWY_INLINE hn::VFromD<hn::RebindToSigned<DU>> CalendarPartOfFastDays(DU du, hn::VFromD<hn::RebindToSigned<DU>> days) {
  const hn::RebindToSigned<DU> di;
  const VU z = hn::Add(hn::BitCast(du, days), hn::Set(du, kDayShift));
  if constexpr (kPart == kCalDow || kPart == kCalIsoDow) {
    // z = days + 1 (mod 7), so Sunday-based days + 4 is z + 3.
    const VU w = hn::Add(z, hn::Set(du, 3u));
    VU dow = hn::Sub(w, hn::Mul(DivHigh<0>(du, w, 613566757u), hn::Set(du, 7u)));
    if constexpr (kPart == kCalIsoDow) dow = hn::IfThenElse(hn::Eq(dow, hn::Zero(du)), hn::Set(du, 7u), dow);
    return hn::BitCast(di, dow);
  } else {
    const VU era = DivHigh<9>(du, z, 15051803u);
    const VU doe = hn::Sub(z, hn::Mul(era, hn::Set(du, 146097u)));  // [0, 146096]
    // doe - doe/1460 + doe/36524 - doe/146096; the last is 1 only on the era's last day.
    VU n = hn::Add(hn::Sub(doe, DivHigh<0>(du, doe, 2941759u)), DivHigh<1>(du, doe, 235187u));
    n = hn::IfThenElse(hn::Eq(doe, hn::Set(du, 146096u)), hn::Sub(n, hn::Set(du, 1u)), n);
    const VU yoe = DivHigh<0>(du, n, 11767034u);  // [0, 399]
    const VU yoe_days =
        hn::Sub(hn::Add(hn::Mul(yoe, hn::Set(du, 365u)), hn::ShiftRight<2>(yoe)), DivLow<12>(du, yoe, 41u));
    const VU doy = hn::Sub(doe, yoe_days);  // [0, 365], from March 1
    const VU mp = DivLow<17>(du, hn::Add(hn::Mul(doy, hn::Set(du, 5u)), hn::Set(du, 2u)), 857u);  // March = 0
    const auto jan_feb = hn::Ge(mp, hn::Set(du, 10u));
    const VU month = hn::IfThenElse(jan_feb, hn::Sub(mp, hn::Set(du, 9u)), hn::Add(mp, hn::Set(du, 3u)));
    if constexpr (kPart == kCalYear) {
      const VU year = hn::Add(hn::Add(yoe, hn::Mul(era, hn::Set(du, 400u))),
                              hn::IfThenElseZero(jan_feb, hn::Set(du, 1u)));
      return hn::Sub(hn::BitCast(di, year), hn::Set(di, static_cast<int32_t>(400 * kEraShift)));
    } else if constexpr (kPart == kCalMonth) {
      return hn::BitCast(di, month);
    } else if constexpr (kPart == kCalDay) {
      const VU before = DivLow<13>(du, hn::Add(hn::Mul(mp, hn::Set(du, 153u)), hn::Set(du, 2u)), 1639u);
      return hn::BitCast(di, hn::Add(hn::Sub(doy, before), hn::Set(du, 1u)));
    } else if constexpr (kPart == kCalDoy) {
      // January and February end the March-based year: day 306 is January 1. From March on,
      // January 1 lies 59 days back, 60 when the civil year (yoe + 400 era) is a leap year.
      const auto leap = hn::And(hn::Eq(hn::And(yoe, hn::Set(du, 3u)), hn::Zero(du)),
                                hn::Not(hn::Or(hn::Or(hn::Eq(yoe, hn::Set(du, 100u)), hn::Eq(yoe, hn::Set(du, 200u))),
                                               hn::Eq(yoe, hn::Set(du, 300u)))));
      const VU from_march = hn::Add(hn::Add(doy, hn::Set(du, 60u)), hn::IfThenElseZero(leap, hn::Set(du, 1u)));
      return hn::BitCast(di, hn::IfThenElse(jan_feb, hn::Sub(doy, hn::Set(du, 305u)), from_march));
    } else {
      return hn::BitCast(di, hn::Add(DivLow<5>(du, hn::Sub(month, hn::Set(du, 1u)), 11u), hn::Set(du, 1u)));
    }
  }
}

// Days outside the fast range, one at a time in 64-bit integers (Hinnant's formula as written).
template <int kPart>
HWY_NOINLINE void CalendarPartOfWideDays(const int32_t* HWY_RESTRICT days, size_t count, int64_t* HWY_RESTRICT out) {
  for (size_t k = 0; k < count; ++k) {
    const int64_t z = int64_t{days[k]} + 719468;
    const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const int64_t doe = z - era * 146097;
    const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const int64_t mp = (5 * doy + 2) / 153;
    const int64_t month = mp < 10 ? mp + 3 : mp - 9;
    const int64_t w = ((int64_t{days[k]} + 4) % 7 + 7) % 7;
    const bool leap = yoe % 4 == 0 && (yoe % 100 != 0 || yoe == 0);
    switch (kPart) {
      case kCalYear: out[k] = yoe + era * 400 + (month <= 2 ? 1 : 0); break;
      case kCalMonth: out[k] = month; break;
      case kCalDay: out[k] = doy - (153 * mp + 2) / 5 + 1; break;
      case kCalDow: out[k] = w; break;
      case kCalIsoDow: out[k] = w == 0 ? 7 : w; break;
      case kCalDoy: out[k] = mp >= 10 ? doy - 305 : doy + 60 + (leap ? 1 : 0); break;
      default: out[k] = (month - 1) / 3 + 1; break;
    }
  }
}

template <int kPart>
HWY_INLINE void CalendarPartOfDaysImpl(const int32_t* HWY_RESTRICT days, size_t n, int64_t* HWY_RESTRICT out) {
  const hn::ScalableTag<int64_t> d64;
  const hn::Rebind<int32_t, decltype(d64)> d32;
  const hn::RebindToUnsigned<decltype(d32)> du;
  const size_t N = hn::Lanes(d64);
  // In the fast range when days + 2^27, as unsigned, is below 2^28.
  const auto fast = [&](hn::VFromD<decltype(d32)> v) {
    const auto shifted = hn::Add(hn::BitCast(du, v), hn::Set(du, static_cast<uint32_t>(kFastDaysLimit)));
    return hn::AllTrue(du, hn::Lt(shifted, hn::Set(du, 2u * static_cast<uint32_t>(kFastDaysLimit))));
  };
  size_t i = 0;
  for (; i + N <= n; i += N) {
    const auto v = hn::LoadU(d32, days + i);
    if (HWY_UNLIKELY(!fast(v))) {
      CalendarPartOfWideDays<kPart>(days + i, N, out + i);
      continue;
    }
    hn::StoreU(hn::PromoteTo(d64, CalendarPartOfFastDays<kPart>(du, v)), d64, out + i);
  }
  if (i < n) {
    const auto v = hn::LoadN(d32, days + i, n - i);  // zeros past the end: day 0 is fast
    if (!fast(v)) return CalendarPartOfWideDays<kPart>(days + i, n - i, out + i);
    hn::StoreN(hn::PromoteTo(d64, CalendarPartOfFastDays<kPart>(du, v)), d64, out + i, n - i);
  }
}

// The days of microsecond counts, rounded down, as int32 lanes. micros >> 11 (exact floor
// division by 2^11) has |u| < 2^52, so it converts to double exactly; then u / 42187500 (the
// rest of 86400 * 10^6 = 2^11 * 42187500) is estimated with one multiply, which lands within
// 2^-25 of the quotient, and corrected by the sign of the exact remainder u - q * 42187500
// (q * 42187500 < 2^53: exact). |days| <= 106751992, inside the fast range.
template <class D64>
HWY_INLINE hn::VFromD<hn::Rebind<int32_t, D64>> DaysOfMicros(D64 /* d64 */, hn::VFromD<D64> micros) {
  const hn::Rebind<double, D64> df;
  const hn::Rebind<int32_t, D64> d32;
  const auto u = hn::ConvertTo(df, hn::ShiftRight<11>(micros));
  const auto divisor = hn::Set(df, 42187500.0);
  auto q = hn::Floor(hn::Mul(u, hn::Set(df, 1.0 / 42187500.0)));
  const auto r = hn::Sub(u, hn::Mul(q, divisor));
  q = hn::IfThenElse(hn::Lt(r, hn::Zero(df)), hn::Sub(q, hn::Set(df, 1.0)), q);
  q = hn::IfThenElse(hn::Ge(r, divisor), hn::Add(q, hn::Set(df, 1.0)), q);
  return hn::DemoteTo(d32, q);
}

template <int kPart>
HWY_INLINE void CalendarPartOfMicrosImpl(const int64_t* HWY_RESTRICT micros, size_t n, int64_t* HWY_RESTRICT out) {
  const hn::ScalableTag<int64_t> d64;
  const hn::Rebind<uint32_t, decltype(d64)> du;
  const size_t N = hn::Lanes(d64);
  size_t i = 0;
  for (; i + N <= n; i += N) {
    const auto days = DaysOfMicros(d64, hn::LoadU(d64, micros + i));
    hn::StoreU(hn::PromoteTo(d64, CalendarPartOfFastDays<kPart>(du, days)), d64, out + i);
  }
  if (i < n) {
    const auto days = DaysOfMicros(d64, hn::LoadN(d64, micros + i, n - i));
    hn::StoreN(hn::PromoteTo(d64, CalendarPartOfFastDays<kPart>(du, days)), d64, out + i, n - i);
  }
}

// `part` is a CalendarPartId.
HWY_INLINE void CalendarPartOfDaysOp(int part, const int32_t* days, size_t n, int64_t* out) {
  switch (part) {
    case kCalYear: return CalendarPartOfDaysImpl<kCalYear>(days, n, out);
    case kCalMonth: return CalendarPartOfDaysImpl<kCalMonth>(days, n, out);
    case kCalDay: return CalendarPartOfDaysImpl<kCalDay>(days, n, out);
    case kCalDow: return CalendarPartOfDaysImpl<kCalDow>(days, n, out);
    case kCalIsoDow: return CalendarPartOfDaysImpl<kCalIsoDow>(days, n, out);
    case kCalDoy: return CalendarPartOfDaysImpl<kCalDoy>(days, n, out);
    default: return CalendarPartOfDaysImpl<kCalQuarter>(days, n, out);
  }
}
HWY_INLINE void CalendarPartOfMicrosOp(int part, const int64_t* micros, size_t n, int64_t* out) {
  switch (part) {
    case kCalYear: return CalendarPartOfMicrosImpl<kCalYear>(micros, n, out);
    case kCalMonth: return CalendarPartOfMicrosImpl<kCalMonth>(micros, n, out);
    case kCalDay: return CalendarPartOfMicrosImpl<kCalDay>(micros, n, out);
    case kCalDow: return CalendarPartOfMicrosImpl<kCalDow>(micros, n, out);
    case kCalIsoDow: return CalendarPartOfMicrosImpl<kCalIsoDow>(micros, n, out);
    case kCalDoy: return CalendarPartOfMicrosImpl<kCalDoy>(micros, n, out);
    default: return CalendarPartOfMicrosImpl<kCalQuarter>(micros, n, out);
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace laneql
HWY_AFTER_NAMESPACE();

#endif  // LANEQL_SIMD_CALENDAR_INL_H_
