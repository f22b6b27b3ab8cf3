// Date and time functions: extract / date_part of every part DuckDB has, date_trunc, date_diff,
// dayname, monthname, last_day, make_date, make_timestamp, epoch_ms, epoch_us. Values are read
// as microseconds since 1970-01-01 (a DATE as its midnight), split into a civil date and a time
// of day (common/civil_time.h).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "laneql/calendar.h"
#include "src/common/civil_time.h"
#include "src/common/time_format.h"
#include "src/exec/expr_eval.h"
#include "src/exec/functions_common.h"
#include "src/plan/date_parts.h"

namespace laneql {
namespace exec {

using plan::BoundExpr;
using plan::DatePart;
using plan::ScalarFn;

namespace {

// A temporal argument's row i as microseconds.
int64_t MicrosAt(const Vec& v, size_t i) {
  return TemporalMicros(v.type, v.type == TypeId::kDate32 ? v.Get<int32_t>(i) : v.Get<int64_t>(i));
}

using civil::DayOfWeek;

// The ISO 8601 year and week of a day: weeks start on Monday, week 1 holds the year's first
// Thursday.
void IsoWeek(int64_t days, int64_t* iso_year, int64_t* week) {
  const int64_t monday_based = (DayOfWeek(days) + 6) % 7;  // Monday 0 .. Sunday 6
  const int64_t thursday = days - monday_based + 3;        // the Thursday of its week
  const civil::Date date = civil::CivilFromDays(thursday);
  *iso_year = date.year;
  *week = (thursday - civil::DaysFromCivil(date.year, 1, 1)) / 7 + 1;
}

// The Monday that starts ISO week 1 of an ISO year.
int64_t IsoYearStart(int64_t iso_year) {
  const int64_t jan4 = civil::DaysFromCivil(iso_year, 1, 4);
  return jan4 - (DayOfWeek(jan4) + 6) % 7;
}

// Centuries and millennia as DuckDB counts them: the 21st century is 2001-2100.
int64_t Ordinal(int64_t year, int64_t span) { return year > 0 ? (year - 1) / span + 1 : -((-year - 1) / span + 1); }

int64_t ExtractInteger(int64_t micros, DatePart part) {
  int64_t days, micros_of_day;
  civil::SplitTimestamp(micros, civil::kMicrosPerDay, &days, &micros_of_day);
  // The clock's parts and the weekday need no calendar date (the split was most of hour()).
  switch (part) {
    case DatePart::kHour: return micros_of_day / (3600 * civil::kMicrosPerSecond);
    case DatePart::kMinute: return micros_of_day / (60 * civil::kMicrosPerSecond) % 60;
    case DatePart::kSecond: return micros_of_day / civil::kMicrosPerSecond % 60;
    case DatePart::kMillisecond: return micros_of_day % (60 * civil::kMicrosPerSecond) / 1000;
    case DatePart::kMicrosecond: return micros_of_day % (60 * civil::kMicrosPerSecond);
    case DatePart::kDow: return DayOfWeek(days);
    case DatePart::kIsoDow: return DayOfWeek(days) == 0 ? 7 : DayOfWeek(days);
    default: break;
  }
  const civil::Date date = civil::CivilFromDays(days);
  int64_t iso_year, week;
  switch (part) {
    case DatePart::kYear: return date.year;
    case DatePart::kMonth: return date.month;
    case DatePart::kDay: return date.day;
    case DatePart::kHour:
    case DatePart::kMinute:
    case DatePart::kSecond:
    case DatePart::kMillisecond:
    case DatePart::kMicrosecond:
    case DatePart::kDow:
    case DatePart::kIsoDow: break;  // above
    case DatePart::kDoy: return days - civil::DaysFromCivil(date.year, 1, 1) + 1;
    case DatePart::kQuarter: return (date.month - 1) / 3 + 1;
    case DatePart::kDecade: return date.year / 10;
    case DatePart::kCentury: return Ordinal(date.year, 100);
    case DatePart::kMillennium: return Ordinal(date.year, 1000);
    case DatePart::kEra: return date.year > 0 ? 1 : 0;
    case DatePart::kWeek: IsoWeek(days, &iso_year, &week); return week;
    case DatePart::kIsoYear: IsoWeek(days, &iso_year, &week); return iso_year;
    case DatePart::kYearWeek: IsoWeek(days, &iso_year, &week); return iso_year * 100 + week;
    case DatePart::kEpoch:
    case DatePart::kJulian: break;
  }
  return 0;
}

double ExtractDouble(int64_t micros, DatePart part) {
  if (part == DatePart::kEpoch) return static_cast<double>(micros) / 1e6;
  int64_t days, micros_of_day;
  civil::SplitTimestamp(micros, civil::kMicrosPerDay, &days, &micros_of_day);
  return static_cast<double>(days + 2440588) + static_cast<double>(micros_of_day) / 86400e6;  // julian
}

// The start of the part that holds `micros`, in microseconds.
int64_t Truncate(int64_t micros, DatePart part) {
  auto down_to = [micros](int64_t unit) { return civil::FloorDiv(micros, unit) * unit; };
  switch (part) {
    case DatePart::kMicrosecond: return micros;
    case DatePart::kMillisecond: return down_to(1000);
    case DatePart::kSecond: return down_to(civil::kMicrosPerSecond);
    case DatePart::kMinute: return down_to(60 * civil::kMicrosPerSecond);
    case DatePart::kHour: return down_to(3600 * civil::kMicrosPerSecond);
    case DatePart::kDay: return down_to(civil::kMicrosPerDay);
    default: break;
  }
  int64_t days = civil::FloorDiv(micros, civil::kMicrosPerDay);
  const civil::Date date = civil::CivilFromDays(days);
  auto year_start = [](int64_t year) { return civil::DaysFromCivil(year, 1, 1); };
  switch (part) {
    case DatePart::kYear: days = year_start(date.year); break;
    case DatePart::kQuarter: days = civil::DaysFromCivil(date.year, (date.month - 1) / 3 * 3 + 1, 1); break;
    case DatePart::kMonth: days = civil::DaysFromCivil(date.year, date.month, 1); break;
    case DatePart::kWeek: days -= (DayOfWeek(days) + 6) % 7; break;
    case DatePart::kDecade: days = year_start(date.year - ((date.year % 10) + 10) % 10); break;
    case DatePart::kCentury: days = year_start(date.year - ((date.year % 100) + 100) % 100); break;
    case DatePart::kMillennium: days = year_start(date.year - ((date.year % 1000) + 1000) % 1000); break;
    case DatePart::kIsoYear: {
      int64_t iso_year, week;
      IsoWeek(days, &iso_year, &week);
      days = IsoYearStart(iso_year);
      break;
    }
    default: break;  // day, and the parts of a day (dow, doy, isodow)
  }
  return days * civil::kMicrosPerDay;
}

// Truncate over a TIMESTAMP column for the parts of fixed length and for month and year, with
// the same results: the floor to a unit as a division by a constant (a multiply; FloorDiv's
// out-of-line call divided), the first of the month or year as the day less the day of the
// month or year from the SIMD calendar kernel, instead of a civil date made and unmade a row.
// False (nothing written) for the other parts.
template <int64_t kUnit>
void FloorToUnit(const int64_t* micros, size_t n, int64_t* out) {
  const int64_t* __restrict x = micros;
  int64_t* __restrict dst = out;
  for (size_t i = 0; i < n; ++i) {
    const int64_t q = x[i] / kUnit, r = x[i] % kUnit;
    dst[i] = (q - static_cast<int64_t>(r < 0)) * kUnit;
  }
}

bool TruncateMicrosColumn(const int64_t* micros, size_t n, DatePart part, int64_t* out) {
  switch (part) {
    case DatePart::kMillisecond: FloorToUnit<1000>(micros, n, out); return true;
    case DatePart::kSecond: FloorToUnit<civil::kMicrosPerSecond>(micros, n, out); return true;
    case DatePart::kMinute: FloorToUnit<60 * civil::kMicrosPerSecond>(micros, n, out); return true;
    case DatePart::kHour: FloorToUnit<3600 * civil::kMicrosPerSecond>(micros, n, out); return true;
    case DatePart::kDay: FloorToUnit<civil::kMicrosPerDay>(micros, n, out); return true;
    case DatePart::kMonth:
    case DatePart::kYear: break;
    default: return false;
  }
  std::vector<int64_t> of_day(n);  // the day of the month or of the year, from 1
  CalendarPartOfMicros(part == DatePart::kMonth ? CalendarPart::kDay : CalendarPart::kDayOfYear, micros, n,
                       of_day.data());
  for (size_t i = 0; i < n; ++i) {
    const int64_t q = micros[i] / civil::kMicrosPerDay, r = micros[i] % civil::kMicrosPerDay;
    const int64_t days = q - static_cast<int64_t>(r < 0);
    out[i] = (days - (of_day[i] - 1)) * civil::kMicrosPerDay;
  }
  return true;
}

// The part boundaries crossed from a to b (DuckDB's date_diff); weeks are whole 7-day spans.
int64_t Difference(int64_t a, int64_t b, DatePart part) {
  auto boundaries = [&](int64_t unit) { return civil::FloorDiv(b, unit) - civil::FloorDiv(a, unit); };
  switch (part) {
    case DatePart::kMicrosecond: return b - a;
    case DatePart::kMillisecond: return boundaries(1000);
    case DatePart::kSecond: return boundaries(civil::kMicrosPerSecond);
    case DatePart::kMinute: return boundaries(60 * civil::kMicrosPerSecond);
    case DatePart::kHour: return boundaries(3600 * civil::kMicrosPerSecond);
    case DatePart::kWeek: return (b - a) / (7 * civil::kMicrosPerDay);
    case DatePart::kDay:
    case DatePart::kDow:
    case DatePart::kDoy:
    case DatePart::kIsoDow: return boundaries(civil::kMicrosPerDay);
    default: break;
  }
  const int64_t da = civil::FloorDiv(a, civil::kMicrosPerDay), db = civil::FloorDiv(b, civil::kMicrosPerDay);
  const civil::Date x = civil::CivilFromDays(da), y = civil::CivilFromDays(db);
  switch (part) {
    case DatePart::kYear: return y.year - x.year;
    case DatePart::kQuarter: return (y.year * 4 + (y.month - 1) / 3) - (x.year * 4 + (x.month - 1) / 3);
    case DatePart::kMonth: return (y.year * 12 + y.month) - (x.year * 12 + x.month);
    case DatePart::kDecade: return y.year / 10 - x.year / 10;
    case DatePart::kCentury: return y.year / 100 - x.year / 100;
    case DatePart::kMillennium: return y.year / 1000 - x.year / 1000;
    case DatePart::kIsoYear: {
      int64_t iy, ix, w;
      IsoWeek(db, &iy, &w);
      IsoWeek(da, &ix, &w);
      return iy - ix;
    }
    default: return db - da;  // day, dow, doy, isodow
  }
}

// date_diff of months, quarters or years between a DATE column and a constant DATE (either
// side): the column's years and months by the SIMD calendar kernel, the constant's once, then
// one subtraction a row. False (nothing written) for other shapes.
bool MonthDifferences(const std::vector<Vec>& args, DatePart part, int64_t* dst) {
  if (part != DatePart::kMonth && part != DatePart::kQuarter && part != DatePart::kYear) return false;
  if (args[0].type != TypeId::kDate32 || args[1].type != TypeId::kDate32 || args[0].constant == args[1].constant) {
    return false;
  }
  const bool column_first = !args[0].constant;
  const Vec& column = column_first ? args[0] : args[1];
  const civil::Date fixed = civil::CivilFromDays(column_first ? args[1].Get<int32_t>(0) : args[0].Get<int32_t>(0));
  const size_t rows = column.stored();
  std::vector<int64_t> years(rows), months(rows);
  CalendarPartOfDays(CalendarPart::kYear, column.Data<int32_t>(), rows, years.data());
  CalendarPartOfDays(CalendarPart::kMonth, column.Data<int32_t>(), rows, months.data());
  const auto index = [part](int64_t year, int64_t month) {
    return part == DatePart::kYear ? year : part == DatePart::kQuarter ? year * 4 + (month - 1) / 3 : year * 12 + month;
  };
  const int64_t fixed_index = index(fixed.year, fixed.month);
  for (size_t i = 0; i < rows; ++i) {
    const int64_t v = index(years[i], months[i]);
    dst[i] = column_first ? fixed_index - v : v - fixed_index;
  }
  return true;
}

// dayname / monthname: each row's name picked by index, then the strings built in two passes
// (offsets from the names' lengths, then each name copied as 16 bytes from a zero-padded copy,
// the bytes past it overwritten by the next rows; the last rows exactly). Appending row by row
// cost a call, a bounds check and a short memcpy a row: most of sum(strlen(dayname(dt))).
// date_diff of days (and the day-based parts, and weeks) between two DATEs: the days'
// difference as it is, one subtraction a row, rather than both converted to microseconds and
// floor-divided back (two 64-bit divisions a row). False (nothing written) for other shapes.
bool DayDifferences(const std::vector<Vec>& args, DatePart part, size_t rows, int64_t* out) {
  const bool days = part == DatePart::kDay || part == DatePart::kDow || part == DatePart::kDoy ||
                    part == DatePart::kIsoDow;
  if ((!days && part != DatePart::kWeek) || args[0].type != TypeId::kDate32 || args[1].type != TypeId::kDate32) {
    return false;
  }
  const int32_t* __restrict x = args[0].Data<int32_t>();
  const int32_t* __restrict y = args[1].Data<int32_t>();
  int64_t* __restrict dst = out;
  const bool x_constant = rows > 1 && args[0].constant, y_constant = rows > 1 && args[1].constant;
  const auto run = [&](auto x_at, auto y_at) {
    if (days) {
      for (size_t i = 0; i < rows; ++i) dst[i] = int64_t{y_at(i)} - int64_t{x_at(i)};
    } else {  // whole 7-day spans, truncated toward zero as Difference divides
      for (size_t i = 0; i < rows; ++i) dst[i] = (int64_t{y_at(i)} - int64_t{x_at(i)}) / 7;
    }
  };
  if (x_constant) {
    const int32_t xc = x[0];
    run([xc](size_t) { return xc; }, [y](size_t i) { return y[i]; });
  } else if (y_constant) {
    const int32_t yc = y[0];
    run([x](size_t i) { return x[i]; }, [yc](size_t) { return yc; });
  } else {
    run([x](size_t i) { return x[i]; }, [y](size_t i) { return y[i]; });
  }
  return true;
}

bool Names(const BoundExpr& expr, const std::vector<Vec>& args, size_t count, Vec* out, std::string* error) {
  constexpr size_t kPad = 16;  // more than the longest name ("Wednesday", "September")
  const Vec& a = args[0];
  const bool day_name = expr.scalar == ScalarFn::kDayName;
  const size_t rows = a.stored();
  std::vector<uint8_t> pick(rows);  // the name of each row
  if (day_name) {
    // 1970-01-01 was a Thursday; Sunday is 0. Shifted by a multiple of 7 to be non-negative,
    // so that one unsigned modulo (a multiply) gives the floor modulo.
    constexpr int64_t kShift = 4 + 7 * (int64_t{1} << 40);
    if (a.type == TypeId::kDate32) {
      const int32_t* __restrict days = a.Data<int32_t>();
      for (size_t i = 0; i < rows; ++i) pick[i] = static_cast<uint8_t>(static_cast<uint64_t>(days[i] + kShift) % 7);
    } else {
      for (size_t i = 0; i < rows; ++i) {
        const int64_t days = civil::FloorDiv(MicrosAt(a, i), civil::kMicrosPerDay);
        pick[i] = static_cast<uint8_t>(((days + 4) % 7 + 7) % 7);
      }
    }
  } else if (a.type == TypeId::kDate32) {
    std::vector<int64_t> months(rows);
    CalendarPartOfDays(CalendarPart::kMonth, a.Data<int32_t>(), rows, months.data());
    for (size_t i = 0; i < rows; ++i) pick[i] = static_cast<uint8_t>(months[i] - 1);
  } else {
    for (size_t i = 0; i < rows; ++i) {
      pick[i] = static_cast<uint8_t>(
          civil::CivilFromDays(civil::FloorDiv(MicrosAt(a, i), civil::kMicrosPerDay)).month - 1);
    }
  }
  const char* const* names = day_name ? civil::kDayNames : civil::kMonthNames;
  uint8_t padded[12][kPad] = {};
  int32_t sizes[12] = {};
  for (size_t k = 0; k < (day_name ? 7u : 12u); ++k) {
    const size_t size = std::strlen(names[k]);
    std::memcpy(padded[k], names[k], size);
    sizes[k] = static_cast<int32_t>(size);
  }
  if (!out->own_offsets.ResizeForOverwrite((rows + 1) * sizeof(int32_t), error)) return false;
  int32_t* offsets = out->own_offsets.As<int32_t>();
  offsets[0] = 0;
  int32_t total = 0;  // at most 9 bytes a row of a batch: no overflow
  for (size_t i = 0; i < rows; ++i) {
    total += a.IsNull(i) ? 0 : sizes[pick[i]];
    offsets[i + 1] = total;
  }
  if (!out->own_values.ResizeForOverwrite(static_cast<size_t>(total), error)) return false;
  uint8_t* bytes = out->own_values.data();
  for (size_t i = 0; i < rows; ++i) {
    const size_t at = static_cast<size_t>(offsets[i]), size = static_cast<size_t>(offsets[i + 1]) - at;
    if (size == 0) continue;
    if (at + kPad <= static_cast<size_t>(total)) std::memcpy(bytes + at, padded[pick[i]], kPad);
    else std::memcpy(bytes + at, padded[pick[i]], size);
  }
  static const uint8_t kEmpty[64] = {};
  out->type = TypeId::kString;
  out->count = count;
  out->constant = AllConstant(args);
  out->offsets = offsets;
  out->values = bytes != nullptr ? bytes : kEmpty;
  out->validity = nullptr;
  out->ascii = true;  // the English names
  return StrictValidity(args, out, error);
}

// make_date / make_timestamp: the fields checked as DuckDB checks them.
bool Make(const BoundExpr& expr, const std::vector<Vec>& args, size_t count, Vec* out, std::string* error) {
  const bool timestamp = expr.scalar == ScalarFn::kMakeTimestamp;
  int64_t* dst64 = nullptr;
  int32_t* dst32 = nullptr;
  if (timestamp) dst64 = out->InitFixed<int64_t>(expr.type, count, AllConstant(args), error);
  else dst32 = out->InitFixed<int32_t>(expr.type, count, AllConstant(args), error);
  if (dst64 == nullptr && dst32 == nullptr) return false;
  for (size_t i = 0; i < out->stored(); ++i) {
    if (AnyNull(args, i)) continue;
    const int64_t year = args[0].Get<int64_t>(i), month = args[1].Get<int64_t>(i), day = args[2].Get<int64_t>(i);
    if (month < 1 || month > 12 || day < 1 || day > civil::DaysInMonth(year, static_cast<int>(month)) ||
        year < -290000 || year > 290000) {
      *error = ErrorAt(expr, "conversion", "Date out of range: " + std::to_string(year) + "-" + std::to_string(month) +
                                               "-" + std::to_string(day));
      return false;
    }
    const int64_t days = civil::DaysFromCivil(year, static_cast<int>(month), static_cast<int>(day));
    if (!timestamp) {
      dst32[i] = static_cast<int32_t>(days);
      continue;
    }
    const int64_t hour = args[3].Get<int64_t>(i), minute = args[4].Get<int64_t>(i);
    const double seconds = args[5].Get<double>(i);
    // Up to 24:00:00 exactly (the next midnight), as DuckDB takes 24:0:0 and 23:59:60.
    const int64_t micros = (hour * 60 + minute) * 60 * civil::kMicrosPerSecond +
                           (seconds >= 0 && seconds <= 60 ? static_cast<int64_t>(std::llround(seconds * 1e6)) : 0);
    if (hour < 0 || hour > 24 || minute < 0 || minute > 59 || !(seconds >= 0 && seconds <= 60) ||
        micros > civil::kMicrosPerDay) {
      char text[64];
      std::snprintf(text, sizeof(text), "%lld:%lld:%.1f", static_cast<long long>(hour), static_cast<long long>(minute),
                    seconds);
      *error = ErrorAt(expr, "conversion", std::string("Time out of range: ") + text);
      return false;
    }
    dst64[i] = days * civil::kMicrosPerDay + micros;
  }
  return StrictValidity(args, out, error);
}

// The parts the SIMD calendar kernels compute (laneql/calendar.h), of DATE and TIMESTAMP
// columns, into dst for a's stored rows; false for any other part or type.
bool ExtractCalendarPart(const Vec& a, DatePart part, int64_t* dst) {
  CalendarPart kernel_part;
  switch (part) {
    case DatePart::kYear: kernel_part = CalendarPart::kYear; break;
    case DatePart::kMonth: kernel_part = CalendarPart::kMonth; break;
    case DatePart::kDay: kernel_part = CalendarPart::kDay; break;
    case DatePart::kDow: kernel_part = CalendarPart::kDayOfWeek; break;
    case DatePart::kIsoDow: kernel_part = CalendarPart::kIsoDayOfWeek; break;
    case DatePart::kDoy: kernel_part = CalendarPart::kDayOfYear; break;
    case DatePart::kQuarter: kernel_part = CalendarPart::kQuarter; break;
    default: return false;
  }
  if (a.type == TypeId::kDate32) {
    CalendarPartOfDays(kernel_part, a.Data<int32_t>(), a.stored(), dst);
  } else if (a.type == TypeId::kTimestampMicros) {
    CalendarPartOfMicros(kernel_part, a.Data<int64_t>(), a.stored(), dst);
  } else {
    return false;
  }
  return true;
}

}  // namespace

int64_t TemporalMicros(TypeId type, int64_t v) {
  if (type == TypeId::kDate32) return v * civil::kMicrosPerDay;
  if (type == TypeId::kTimestampSeconds) return v * civil::kMicrosPerSecond;
  return v;
}

bool EvalDatePart(const BoundExpr& expr, std::vector<Vec>& args, size_t count, Vec* out, std::string* error) {
  out->count = count;
  const Vec& a = args[0];
  if (expr.fn == plan::Fn::kExtract && plan::DatePartIsDouble(expr.part)) {
    double* dst = out->InitFixed<double>(TypeId::kFloat64, count, a.constant, error);
    if (dst == nullptr) return false;
    if (expr.part == DatePart::kEpoch && a.type == TypeId::kTimestampMicros) {
      // The seconds of a TIMESTAMP column: ExtractDouble's division, without its dispatch a row.
      const int64_t* __restrict x = a.Data<int64_t>();
      for (size_t i = 0; i < a.stored(); ++i) dst[i] = static_cast<double>(x[i]) / 1e6;
      return StrictValidity(args, out, error);
    }
    for (size_t i = 0; i < a.stored(); ++i) dst[i] = ExtractDouble(MicrosAt(a, i), expr.part);
    return StrictValidity(args, out, error);
  }
  if (expr.fn == plan::Fn::kExtract) {
    int64_t* dst = out->InitFixed<int64_t>(TypeId::kInt64, count, a.constant, error);
    if (dst == nullptr) return false;
    if (ExtractCalendarPart(a, expr.part, dst)) return StrictValidity(args, out, error);
    for (size_t i = 0; i < a.stored(); ++i) dst[i] = ExtractInteger(MicrosAt(a, i), expr.part);
    return StrictValidity(args, out, error);
  }
  // date_trunc: a TIMESTAMP (or a DATE where the binder asked for one).
  if (expr.type == TypeId::kDate32) {
    int32_t* dst = out->InitFixed<int32_t>(expr.type, count, a.constant, error);
    if (dst == nullptr) return false;
    for (size_t i = 0; i < a.stored(); ++i) {
      dst[i] = static_cast<int32_t>(civil::FloorDiv(Truncate(MicrosAt(a, i), expr.part), civil::kMicrosPerDay));
    }
    return StrictValidity(args, out, error);
  }
  int64_t* dst = out->InitFixed<int64_t>(expr.type, count, a.constant, error);
  if (dst == nullptr) return false;
  if (a.type == TypeId::kTimestampMicros && TruncateMicrosColumn(a.Data<int64_t>(), a.stored(), expr.part, dst)) {
    return StrictValidity(args, out, error);
  }
  for (size_t i = 0; i < a.stored(); ++i) dst[i] = Truncate(MicrosAt(a, i), expr.part);
  return StrictValidity(args, out, error);
}

bool EvalDateFunction(const BoundExpr& expr, std::vector<Vec>& args, size_t count, Vec* out, std::string* error) {
  out->count = count;
  switch (expr.scalar) {
    case ScalarFn::kDateDiffPart: {
      int64_t* dst = out->InitFixed<int64_t>(TypeId::kInt64, count, AllConstant(args), error);
      if (dst == nullptr) return false;
      if (!MonthDifferences(args, expr.part, dst) && !DayDifferences(args, expr.part, out->stored(), dst)) {
        for (size_t i = 0; i < out->stored(); ++i) dst[i] = Difference(MicrosAt(args[0], i), MicrosAt(args[1], i), expr.part);
      }
      return StrictValidity(args, out, error);
    }
    case ScalarFn::kDayName:
    case ScalarFn::kMonthName: return Names(expr, args, count, out, error);
    case ScalarFn::kLastDay: {
      int32_t* dst = out->InitFixed<int32_t>(TypeId::kDate32, count, AllConstant(args), error);
      if (dst == nullptr) return false;
      // The month's last day is as many days on as the month has left: no day count from the
      // civil date (DaysFromCivil), and a DATE read as its days, not through microseconds.
      const bool date = args[0].type == TypeId::kDate32;
      for (size_t i = 0; i < out->stored(); ++i) {
        const int64_t days = date ? int64_t{args[0].Get<int32_t>(i)}
                                  : civil::FloorDiv(MicrosAt(args[0], i), civil::kMicrosPerDay);
        const civil::Date d = civil::CivilFromDays(days);
        dst[i] = static_cast<int32_t>(days + civil::DaysInMonth(d.year, d.month) - d.day);
      }
      return StrictValidity(args, out, error);
    }
    case ScalarFn::kMakeDate:
    case ScalarFn::kMakeTimestamp: return Make(expr, args, count, out, error);
    case ScalarFn::kStrftime: {
      const auto* format = static_cast<const TimeFormat*>(expr.compiled.get());
      StringVecBuilder builder;
      if (!builder.Init(count, AllConstant(args), error)) return false;
      std::string text(format->max_chars(), '\0');  // written in place a row
      for (size_t i = 0; i < args[0].stored(); ++i) {
        if (args[0].IsNull(i)) {
          builder.AppendNull();
          continue;
        }
        const size_t length = format->FormatTo(MicrosAt(args[0], i), text.data());
        if (!builder.Append(std::string_view(text.data(), length), error)) return false;
      }
      return builder.Finish(out, error);
    }
    case ScalarFn::kStrptime:
    case ScalarFn::kTryStrptime: {
      const auto* format = static_cast<const TimeFormat*>(expr.compiled.get());
      int64_t* dst = out->InitFixed<int64_t>(TypeId::kTimestampMicros, count, AllConstant(args), error);
      if (dst == nullptr || !StrictValidity(args, out, error)) return false;
      uint64_t* bits = nullptr;
      for (size_t i = 0; i < out->stored(); ++i) {
        if (args[0].IsNull(i)) continue;
        if (format->Parse(args[0].Str(i), &dst[i])) continue;
        if (expr.scalar == ScalarFn::kStrptime) {
          *error = ErrorAt(expr, "invalid input", "Could not parse string \"" + std::string(args[0].Str(i)) +
                                                      "\" according to format specifier \"" + format->text() + "\"");
          return false;
        }
        if (bits == nullptr) {
          // StrictValidity's bitmap, when it made one, is the Vec's own.
          bits = out->validity != nullptr ? out->own_validity.As<uint64_t>() : out->InitValidity(error);
          if (bits == nullptr) return false;
        }
        bits[i / 64] &= ~(uint64_t{1} << (i % 64));
      }
      return true;
    }
    case ScalarFn::kEpochMs:
    case ScalarFn::kEpochUs: {
      int64_t* dst = out->InitFixed<int64_t>(expr.type, count, AllConstant(args), error);
      if (dst == nullptr) return false;
      const bool to_timestamp = expr.type == TypeId::kTimestampMicros;  // epoch_ms(BIGINT)
      if (!to_timestamp && args[0].type == TypeId::kTimestampMicros) {
        // A TIMESTAMP column's microseconds as they are, or its milliseconds as below, in a
        // loop of plain reads (MicrosAt's type test a row was most of epoch_us(ts)).
        const int64_t* __restrict x = args[0].Data<int64_t>();
        const size_t n = out->stored();
        if (expr.scalar == ScalarFn::kEpochUs) {
          if (n != 0) std::memcpy(dst, x, n * sizeof(int64_t));  // x may be null without rows
        } else {
          for (size_t i = 0; i < n; ++i) dst[i] = (x[i] + (x[i] < 0 ? -500 : 500)) / 1000;
        }
        return StrictValidity(args, out, error);
      }
      for (size_t i = 0; i < out->stored(); ++i) {
        if (to_timestamp) {
          int64_t micros = 0;
          if (!args[0].IsNull(i) && __builtin_mul_overflow(args[0].Get<int64_t>(i), int64_t{1000}, &micros)) {
            *error = ErrorAt(expr, "conversion", "epoch_ms: " + std::to_string(args[0].Get<int64_t>(i)) +
                                                     " milliseconds are out of the TIMESTAMP range");
            return false;
          }
          dst[i] = micros;
        } else {
          const int64_t micros = MicrosAt(args[0], i);
          // Milliseconds rounded half away from zero, as DuckDB gives them.
          dst[i] = expr.scalar == ScalarFn::kEpochUs ? micros : (micros + (micros < 0 ? -500 : 500)) / 1000;
        }
      }
      return StrictValidity(args, out, error);
    }
    default: break;
  }
  *error = ErrorAt(expr, "internal", "not a date function of the library");
  return false;
}

}  // namespace exec
}  // namespace laneql
