// The civil (proleptic Gregorian) calendar and clock behind DATE and TIMESTAMP values: day
// counts from 1970-01-01 <-> year / month / day, time of day <-> microseconds, and a timestamp
// count <-> whole days plus the part of a day. One codec, so that the SQL casts (plan/value.cc,
// exec's extract and date_trunc), the CSV reader and the printers agree on every date.
//
// Years are astronomical: year 0 is 1 BC, year -1 is 2 BC (the printers and the CSV reader
// turn them into DuckDB's "0001 (BC)" spelling). Every leap rule applies before year 1 too.
#ifndef LANEQL_SRC_COMMON_CIVIL_TIME_H_
#define LANEQL_SRC_COMMON_CIVIL_TIME_H_

#include <cstdint>
#include <limits>

#include "laneql/interval.h"

namespace laneql {
namespace civil {

inline constexpr int64_t kMicrosPerSecond = 1'000'000;
inline constexpr int64_t kSecondsPerDay = 86'400;
inline constexpr int64_t kMicrosPerDay = kSecondsPerDay * kMicrosPerSecond;
// DuckDB's infinite dates and timestamps: the type's maximum (infinity) and its negation
// (-infinity); neither is a day count of the calendar.
inline constexpr int32_t kDateInfinity = std::numeric_limits<int32_t>::max();
inline constexpr int64_t kTimestampInfinity = std::numeric_limits<int64_t>::max();

struct Date {
  int64_t year;  // astronomical
  int month;     // 1..12
  int day;       // 1..DaysInMonth(year, month)
};

struct TimeOfDay {
  int hour;    // 0..23
  int minute;  // 0..59
  int second;  // 0..59
  int micros;  // 0..999999
};

bool IsLeapYear(int64_t year);
// Days in `month` (1..12) of `year`.
int DaysInMonth(int64_t year, int month);

// Days since 1970-01-01 of a valid date (month 1..12, day within the month); any year whose
// day count fits int64 with room to spare (|year| up to about 10^15).
int64_t DaysFromCivil(int64_t year, int month, int day);
// The date `days` after 1970-01-01 (before it when negative): any int64 but the top 719468.
// Days in [kCivilFastFirstDay, kCivilFastLastDay] (the years -32,800 to about 2,900,000) take a
// 32-bit form of the same calendar.
Date CivilFromDays(int64_t days);
inline constexpr int64_t kCivilFastFirstDay = -12699422;
inline constexpr int64_t kCivilFastLastDay = 1061042401;

// The day of the week of a day count: Sunday 0 .. Saturday 6 (1970-01-01 was a Thursday).
int64_t DayOfWeek(int64_t days);
// The English names of the days (Sunday first) and of the months (January first).
extern const char* const kDayNames[7];
extern const char* const kMonthNames[12];

// Division rounded towards minus infinity by a positive `unit`, and its remainder in
// [0, unit): an instant before the epoch belongs to the day (second, ...) that starts before
// it. Never forms quotient * unit, which overflows near INT64_MIN.
int64_t FloorDiv(int64_t value, int64_t unit);
void FloorDivMod(int64_t value, int64_t unit, int64_t* quotient, int64_t* remainder);

// A timestamp counted in ticks (ticks_per_day: kMicrosPerDay for microseconds, kSecondsPerDay
// for seconds) as its day and the ticks since that day's midnight, in [0, ticks_per_day).
void SplitTimestamp(int64_t ticks, int64_t ticks_per_day, int64_t* days, int64_t* ticks_of_day);
// The inverse; false when days * ticks_per_day, or the count, does not fit int64. (So a count
// within the last part-day above INT64_MIN splits but does not compose: the CSV reader has
// always refused those texts as out of range.)
bool ComposeTimestamp(int64_t days, int64_t ticks_of_day, int64_t ticks_per_day, int64_t* ticks);

// Microseconds since midnight (in [0, kMicrosPerDay)) as hours, minutes, seconds, micros.
TimeOfDay TimeOfDayFromMicros(int64_t micros_of_day);
// The inverse, for fields already checked (24:00:00 gives kMicrosPerDay).
int64_t MicrosOfDay(int64_t hour, int64_t minute, int64_t second, int64_t micros);

// A TIMESTAMP (microseconds) plus sign · interval, as DuckDB adds them: months move the
// calendar (the day clamped to the month's end: Jan 31 + 1 month = Feb 29 in 2020), then days,
// then microseconds. False when the result leaves the TIMESTAMP range.
bool AddInterval(int64_t micros, const Interval& interval, int sign, int64_t* out);

}  // namespace civil
}  // namespace laneql

#endif  // LANEQL_SRC_COMMON_CIVIL_TIME_H_
