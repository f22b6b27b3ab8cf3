// The civil calendar (civil_time.h). Day counts use 400-year eras of 146097 days whose years
// start on March 1st, so that a leap day is the last day of its year and the month lengths from
// March on follow one formula; 0000-03-01 is day -719468.
#include "src/common/civil_time.h"

#include <algorithm>

#include "laneql/int128.h"

namespace laneql {
namespace civil {
namespace {

constexpr int64_t kDaysPerEra = 146097;          // 400 years
constexpr int64_t kEpochFromMarchZero = 719468;  // days from 0000-03-01 to 1970-01-01
// CivilFromDays' 32-bit form: day counts moved up by 82 eras, so that every one it takes is
// positive and 4 * n + 3 stays within 32 bits.
constexpr int64_t kFastShiftEras = 82;
constexpr int64_t kFastShiftYears = 400 * kFastShiftEras;
constexpr int64_t kFastShiftDays = kEpochFromMarchZero + kDaysPerEra * kFastShiftEras;
constexpr int64_t kFastFirstDay = kCivilFastFirstDay;
constexpr int64_t kFastLastDay = kCivilFastLastDay;
static_assert(kFastFirstDay == -kFastShiftDays, "the 32-bit form starts at its shifted zero");
static_assert(kFastLastDay == (int64_t{UINT32_MAX} - 3) / 4 - kFastShiftDays, "4 * n + 3 fits 32 bits");

}  // namespace

bool IsLeapYear(int64_t year) { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; }

int DaysInMonth(int64_t year, int month) {
  static const int kDays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && IsLeapYear(year) ? 29 : kDays[month - 1];
}

int64_t DaysFromCivil(int64_t year, int month, int day) {
  year -= month <= 2 ? 1 : 0;  // January and February end the year before
  const int64_t era = (year >= 0 ? year : year - 399) / 400;
  const int64_t year_of_era = year - era * 400;  // [0, 399]
  const int64_t day_of_year = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
  const int64_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * kDaysPerEra + day_of_era - kEpochFromMarchZero;
}

Date CivilFromDays(int64_t days) {
  if (days >= kFastFirstDay && days <= kFastLastDay) {
    // Neri and Schneider's Euclidean affine form of the same calendar ("Euclidean affine
    // functions and their application to calendar algorithms", 2022): 32-bit multiplies and
    // shifts in place of the era divisions, for day counts shifted by whole eras to be
    // positive (every DATE of the years -32,800 to 2,900,000). A third of CAST(date AS
    // VARCHAR)'s time and of strftime's went into the general form.
    const uint32_t n = static_cast<uint32_t>(days + kFastShiftDays);
    const uint32_t n1 = 4 * n + 3;
    const uint32_t century = n1 / 146097;
    const uint32_t day_of_century = n1 % 146097 / 4;
    const uint64_t p2 = uint64_t{2939745} * (4 * day_of_century + 3);
    const uint32_t year_of_century = static_cast<uint32_t>(p2 >> 32);
    const uint32_t day_of_year = static_cast<uint32_t>(p2) / 2939745 / 4;  // from March 1st
    const uint32_t n3 = 2141 * day_of_year + 197913;
    const uint32_t month = n3 >> 16;  // 3 = March .. 14 = February
    const uint32_t january_on = day_of_year >= 306;
    Date date;
    date.year = static_cast<int64_t>(100 * century + year_of_century + january_on) - kFastShiftYears;
    date.month = static_cast<int>(january_on ? month - 12 : month);
    date.day = static_cast<int>((n3 & 0xffff) / 2141 + 1);
    return date;
  }
  int64_t era, day_of_era;  // day_of_era in [0, 146096]
  FloorDivMod(days + kEpochFromMarchZero, kDaysPerEra, &era, &day_of_era);
  const int64_t year_of_era =
      (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  const int64_t day_of_year =
      day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  const int64_t month_from_march = (5 * day_of_year + 2) / 153;  // 0 = March
  Date date;
  date.day = static_cast<int>(day_of_year - (153 * month_from_march + 2) / 5 + 1);
  date.month =
      static_cast<int>(month_from_march < 10 ? month_from_march + 3 : month_from_march - 9);
  date.year = year_of_era + era * 400 + (date.month <= 2 ? 1 : 0);
  return date;
}

int64_t FloorDiv(int64_t value, int64_t unit) {
  int64_t quotient, remainder;
  FloorDivMod(value, unit, &quotient, &remainder);
  return quotient;
}

void FloorDivMod(int64_t value, int64_t unit, int64_t* quotient, int64_t* remainder) {
  *quotient = value / unit;
  *remainder = value % unit;
  if (*remainder < 0) {
    *quotient -= 1;
    *remainder += unit;
  }
}

void SplitTimestamp(int64_t ticks, int64_t ticks_per_day, int64_t* days, int64_t* ticks_of_day) {
  FloorDivMod(ticks, ticks_per_day, days, ticks_of_day);
}

bool ComposeTimestamp(int64_t days, int64_t ticks_of_day, int64_t ticks_per_day, int64_t* ticks) {
  int64_t value;
  if (__builtin_mul_overflow(days, ticks_per_day, &value) ||
      __builtin_add_overflow(value, ticks_of_day, &value)) {
    return false;
  }
  *ticks = value;
  return true;
}

TimeOfDay TimeOfDayFromMicros(int64_t micros_of_day) {
  const int64_t seconds = micros_of_day / kMicrosPerSecond;
  TimeOfDay time;
  time.hour = static_cast<int>(seconds / 3600);
  time.minute = static_cast<int>(seconds / 60 % 60);
  time.second = static_cast<int>(seconds % 60);
  time.micros = static_cast<int>(micros_of_day % kMicrosPerSecond);
  return time;
}

int64_t MicrosOfDay(int64_t hour, int64_t minute, int64_t second, int64_t micros) {
  return ((hour * 60 + minute) * 60 + second) * kMicrosPerSecond + micros;
}

int64_t DayOfWeek(int64_t days) {
  int64_t weeks, day;
  FloorDivMod(days + 4, 7, &weeks, &day);
  return day;
}

const char* const kDayNames[7] = {"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"};
const char* const kMonthNames[12] = {"January", "February", "March",     "April",   "May",      "June",
                                     "July",    "August",   "September", "October", "November", "December"};

bool AddInterval(int64_t micros, const Interval& interval, int sign, int64_t* out) {
  int64_t days = 0, time = 0;
  SplitTimestamp(micros, kMicrosPerDay, &days, &time);
  if (interval.months != 0) {
    const Date date = CivilFromDays(days);
    const int64_t month_index = date.year * 12 + (date.month - 1) + sign * static_cast<int64_t>(interval.months);
    const int64_t year = FloorDiv(month_index, 12);
    const int month = static_cast<int>(month_index - year * 12) + 1;
    const int day = std::min(date.day, DaysInMonth(year, month));
    days = DaysFromCivil(year, month, day);
  }
  days += sign * static_cast<int64_t>(interval.days);
  const Int128 moved = static_cast<Int128>(time) + static_cast<Int128>(sign) * interval.micros;
  if (moved > INT64_MAX || moved < INT64_MIN) return false;
  return ComposeTimestamp(days, static_cast<int64_t>(moved), kMicrosPerDay, out);
}

}  // namespace civil
}  // namespace laneql
