// Calendar fields of DATE and TIMESTAMP columns over arrays (SQL's year(), month(), day(),
// dayofweek(), isodow(), dayofyear(), quarter() and extract of those parts), in the proleptic
// Gregorian calendar with astronomical years (year 0 is 1 BC), as common/civil_time.h counts
// them. Dispatched at run time to the best SIMD target (laneql/targets.h); `reference::` holds
// the plain scalar definitions they are tested against.
#ifndef LANEQL_CALENDAR_H_
#define LANEQL_CALENDAR_H_

#include <cstddef>
#include <cstdint>

namespace laneql {

enum class CalendarPart : uint8_t {
  kYear,          // astronomical year
  kMonth,         // 1..12
  kDay,           // 1..31
  kDayOfWeek,     // Sunday 0 .. Saturday 6
  kIsoDayOfWeek,  // Monday 1 .. Sunday 7
  kDayOfYear,     // 1..366
  kQuarter,       // 1..4
};

// out[i] = the part of the day days[i] (days since 1970-01-01), for every int32 (DuckDB's
// infinite dates ±2^31-1 included: they are days of the calendar like any other).
void CalendarPartOfDays(CalendarPart part, const int32_t* days, size_t n, int64_t* out);
// out[i] = the part of the day holding micros[i] (microseconds since 1970-01-01 00:00, the day
// rounded down: -1 is 1969-12-31), for every int64.
void CalendarPartOfMicros(CalendarPart part, const int64_t* micros, size_t n, int64_t* out);

namespace reference {
// Plain scalar code, no Highway: the definitions the kernels are tested against.
void CalendarPartOfDays(CalendarPart part, const int32_t* days, size_t n, int64_t* out);
void CalendarPartOfMicros(CalendarPart part, const int64_t* micros, size_t n, int64_t* out);
}  // namespace reference

}  // namespace laneql

#endif  // LANEQL_CALENDAR_H_
