// TIME and INTERVAL arithmetic and functions, as DuckDB computes them: months move the calendar
// (the day clamped to the month's end: Jan 31 + 1 month = Feb 29 in 2020), then days, then
// microseconds; TIMESTAMP - TIMESTAMP is days and microseconds; an interval times or divided by
// a number carries month fractions into days (30 to a month) and day fractions into time;
// age() counts calendar years, months and days with borrowing.
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "laneql/int128.h"
#include "laneql/interval.h"
#include "src/common/civil_time.h"
#include "src/exec/expr_eval.h"
#include "src/exec/functions_common.h"

namespace laneql {
namespace exec {
namespace {

using plan::ScalarFn;
constexpr int64_t kDay = civil::kMicrosPerDay;
constexpr int kDaysPerMonth = 30;

bool Fits32(int64_t v) { return v >= INT32_MIN && v <= INT32_MAX; }

// An interval scaled by f: month fractions become days, day fractions microseconds.
bool Scale(const Interval& iv, double f, Interval* out) {
  const double months = static_cast<double>(iv.months) * f;
  const double whole_months = std::trunc(months);
  const double days = static_cast<double>(iv.days) * f + (months - whole_months) * kDaysPerMonth;
  const double whole_days = std::trunc(days);
  const double micros = std::nearbyint(static_cast<double>(iv.micros) * f + (days - whole_days) * static_cast<double>(kDay));
  if (!(std::fabs(whole_months) <= INT32_MAX) || !(std::fabs(whole_days) <= INT32_MAX) || !(std::fabs(micros) < 9.2e18)) {
    return false;
  }
  *out = Interval{static_cast<int32_t>(whole_months), static_cast<int32_t>(whole_days), static_cast<int64_t>(micros)};
  return true;
}

// t1 - t2 in calendar years, months, days and time (t1 >= t2), borrowing as DuckDB does: a
// missing day borrows the days of t2's month.
Interval AgeOf(int64_t t1, int64_t t2) {
  int64_t d1 = 0, time1 = 0, d2 = 0, time2 = 0;
  civil::SplitTimestamp(t1, kDay, &d1, &time1);
  civil::SplitTimestamp(t2, kDay, &d2, &time2);
  const civil::Date a = civil::CivilFromDays(d1), b = civil::CivilFromDays(d2);
  int64_t years = a.year - b.year, months = a.month - b.month, days = a.day - b.day, time = time1 - time2;
  if (time < 0) {
    time += kDay;
    --days;
  }
  if (days < 0) {
    days += civil::DaysInMonth(b.year, b.month);
    --months;
  }
  if (months < 0) {
    months += 12;
    --years;
  }
  return Interval{static_cast<int32_t>(years * 12 + months), static_cast<int32_t>(days), time};
}

Interval Negated(const Interval& v) { return Interval{-v.months, -v.days, -v.micros}; }

Int128 IntervalKey(const Interval& v) {
  return static_cast<Int128>(v.months) * kDaysPerMonth * kDay + static_cast<Int128>(v.days) * kDay + v.micros;
}

// The interval of n units of `part` (to_days(n), INTERVAL (n) DAY, ...).
bool ToInterval(plan::DatePart part, double n, Interval* out) {
  using plan::DatePart;
  const auto whole = [&](double scale, int32_t Interval::*field) {
    const double v = n * scale;
    if (!(std::fabs(v) <= INT32_MAX)) return false;
    out->*field = static_cast<int32_t>(v);
    return true;
  };
  const auto micros = [&](double scale) {
    const double v = std::nearbyint(n * scale);
    if (!(std::fabs(v) < 9.2e18)) return false;
    out->micros = static_cast<int64_t>(v);
    return true;
  };
  *out = Interval{};
  switch (part) {
    case DatePart::kYear: return whole(12, &Interval::months);
    case DatePart::kQuarter: return whole(3, &Interval::months);
    case DatePart::kMonth: return whole(1, &Interval::months);
    case DatePart::kWeek: return whole(7, &Interval::days);
    case DatePart::kDay: return whole(1, &Interval::days);
    case DatePart::kHour: return micros(3600.0 * 1e6);
    case DatePart::kMinute: return micros(60.0 * 1e6);
    case DatePart::kSecond: return micros(1e6);
    case DatePart::kMillisecond: return micros(1e3);
    default: return micros(1);
  }
}

// date_part of an interval (a TIME is one of microseconds alone), as DuckDB: the clock's hours
// are not taken modulo 24; years and months split the months; epoch counts a year as 365.25
// days and a month as 30.
double IntervalPart(plan::DatePart part, const Interval& v) {
  using plan::DatePart;
  const int64_t us = v.micros;
  switch (part) {
    case DatePart::kYear: return v.months / 12;
    case DatePart::kMonth: return v.months % 12;
    case DatePart::kDay: return v.days;
    case DatePart::kQuarter: return v.months % 12 / 3 + 1;
    case DatePart::kDecade: return v.months / 120;
    case DatePart::kCentury: return v.months / 1200;
    case DatePart::kMillennium: return v.months / 12000;
    case DatePart::kHour: return static_cast<double>(us / 3600000000LL);
    case DatePart::kMinute: return static_cast<double>(us % 3600000000LL / 60000000LL);
    case DatePart::kSecond: return static_cast<double>(us % 60000000LL / 1000000LL);
    case DatePart::kMillisecond: return static_cast<double>(us % 60000000LL / 1000LL);
    case DatePart::kMicrosecond: return static_cast<double>(us % 60000000LL);
    default:  // kEpoch: a year of 365.25 days, other months of 30, as DuckDB counts
      return static_cast<double>(v.months / 12) * 365.25 * 86400.0 +
             static_cast<double>(v.months % 12) * kDaysPerMonth * 86400.0 + static_cast<double>(v.days) * 86400.0 +
             static_cast<double>(us) / 1e6;
  }
}

double NumberAt(const Vec& v, size_t i) {
  return v.type == TypeId::kFloat64 ? v.Get<double>(i) : static_cast<double>(v.Get<int64_t>(i));
}

}  // namespace

bool EvalIntervalFunction(const plan::BoundExpr& expr, std::vector<Vec>& args, size_t count, Vec* out,
                          std::string* error) {
  const ScalarFn fn = expr.scalar;
  const bool interval_result = expr.type == TypeId::kInterval;
  const bool key_result = fn == ScalarFn::kIntervalKey;
  std::string message;
  const char* kind = "overflow";
  const auto fail = [&](const std::string& m, const char* k = "overflow") {
    message = m;
    kind = k;
    return false;
  };
  // One row: its value as an int128 (intervals, keys) or int64 (times, timestamps).
  const auto row = [&](size_t i, Int128* wide, int64_t* narrow) -> bool {
    const auto iv = [&](size_t a) { return UnpackInterval(args[a].Get<Int128>(i)); };
    const auto put = [&](const Interval& v) { *wide = PackInterval(v); return true; };
    switch (fn) {
      case ScalarFn::kToInterval: {
        Interval v;
        if (!ToInterval(expr.part, NumberAt(args[0], i), &v)) return fail("Interval value out of range");
        return put(v);
      }
      case ScalarFn::kAge: {
        const int64_t t1 = args[0].Get<int64_t>(i), t2 = args[1].Get<int64_t>(i);
        return put(t1 >= t2 ? AgeOf(t1, t2) : Negated(AgeOf(t2, t1)));
      }
      case ScalarFn::kMakeTime: {
        const int64_t h = args[0].Get<int64_t>(i), m = args[1].Get<int64_t>(i);
        const double s = args[2].Get<double>(i);
        const double micros = std::nearbyint(s * 1e6);
        if (h < 0 || h > 24 || m < 0 || m > 59 || !(micros >= 0 && micros < 60e6) ||
            (h == 24 && (m != 0 || micros != 0))) {
          return fail("Time out of range: " + std::to_string(h) + ":" + std::to_string(m) + ":" + std::to_string(s),
                      "conversion");
        }
        *narrow = h * 3600000000LL + m * 60000000LL + static_cast<int64_t>(micros);
        return true;
      }
      case ScalarFn::kTimestampPlusInterval:
      case ScalarFn::kTimestampMinusInterval:
        if (!civil::AddInterval(args[0].Get<int64_t>(i), iv(1), fn == ScalarFn::kTimestampPlusInterval ? 1 : -1, narrow)) {
          return fail("the timestamp is out of range after adding the INTERVAL");
        }
        return true;
      case ScalarFn::kTimePlusInterval:
      case ScalarFn::kTimeMinusInterval: {
        const Int128 shifted = static_cast<Int128>(args[0].Get<int64_t>(i)) +
                               (fn == ScalarFn::kTimePlusInterval ? 1 : -1) * static_cast<Int128>(iv(1).micros);
        Int128 wrapped = shifted % kDay;
        if (wrapped < 0) wrapped += kDay;
        *narrow = static_cast<int64_t>(wrapped);
        return true;
      }
      case ScalarFn::kTimestampMinusTimestamp: {
        int64_t diff = 0;
        if (__builtin_sub_overflow(args[0].Get<int64_t>(i), args[1].Get<int64_t>(i), &diff)) {
          return fail("Overflow in subtraction of TIMESTAMPs");
        }
        return put(Interval{0, static_cast<int32_t>(diff / kDay), diff % kDay});
      }
      case ScalarFn::kIntervalPlus:
      case ScalarFn::kIntervalMinus: {
        const Interval x = iv(0), y = iv(1);
        const int s = fn == ScalarFn::kIntervalPlus ? 1 : -1;
        const int64_t months = static_cast<int64_t>(x.months) + s * static_cast<int64_t>(y.months);
        const int64_t days = static_cast<int64_t>(x.days) + s * static_cast<int64_t>(y.days);
        int64_t micros = 0;
        const bool micro_overflow = s > 0 ? __builtin_add_overflow(x.micros, y.micros, &micros)
                                          : __builtin_sub_overflow(x.micros, y.micros, &micros);
        if (!Fits32(months) || !Fits32(days) || micro_overflow) {
          return fail(std::string("Overflow in ") + (s > 0 ? "addition" : "subtraction") + " of INTERVALs");
        }
        return put(Interval{static_cast<int32_t>(months), static_cast<int32_t>(days), micros});
      }
      case ScalarFn::kIntervalTimes:
      case ScalarFn::kIntervalDivide: {
        double f = args[1].Get<double>(i);
        if (fn == ScalarFn::kIntervalDivide) {
          if (f == 0) return fail("Division by zero in INTERVAL division", "invalid input");
          f = 1.0 / f;
        }
        Interval v;
        if (!Scale(iv(0), f, &v)) return fail("Interval value out of range");
        return put(v);
      }
      case ScalarFn::kIntervalNegate: {
        const Interval v = iv(0);
        if (v.months == INT32_MIN || v.days == INT32_MIN || v.micros == INT64_MIN) return fail("Overflow in INTERVAL negation");
        return put(Negated(v));
      }
      case ScalarFn::kIntervalKey: *wide = IntervalKey(iv(0)); return true;
      case ScalarFn::kTimePart: {
        const Interval v = IsInterval(args[0].type) ? iv(0) : Interval{0, 0, args[0].Get<int64_t>(i)};
        const double value = IntervalPart(expr.part, v);
        if (expr.type == TypeId::kFloat64) std::memcpy(narrow, &value, sizeof value);
        else *narrow = static_cast<int64_t>(value);
        return true;
      }
      default: return fail("not an interval function", "internal");
    }
  };
  const size_t rows = AllConstant(args) ? 1 : count;
  const bool wide_result = interval_result || key_result;
  Int128* wide = wide_result ? out->InitFixed<Int128>(expr.type, count, AllConstant(args), error) : nullptr;
  int64_t* narrow = wide_result ? nullptr : out->InitFixed<int64_t>(expr.type, count, AllConstant(args), error);
  if (wide == nullptr && narrow == nullptr) return false;
  for (size_t i = 0; i < rows; ++i) {
    if (AnyNull(args, i)) continue;
    int64_t n = 0;
    Int128 w = 0;
    if (!row(i, &w, &n)) {
      *error = ErrorAt(expr, kind, message);
      return false;
    }
    if (wide != nullptr) wide[i] = w;
    else narrow[i] = n;
  }
  return StrictValidity(args, out, error);
}

}  // namespace exec
}  // namespace laneql
