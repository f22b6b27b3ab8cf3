// Scalar references for the calendar kernels: Howard Hinnant's civil_from_days
// (http://howardhinnant.github.io/date_algorithms.html) in 64-bit integers with plain divisions,
// no Highway. Any int32 day count, and any day an int64 microsecond count falls in, is far inside
// its range.
#include <cstdint>

#include "laneql/calendar.h"

namespace laneql {
namespace reference {
namespace {

struct Civil {
  int64_t year, month, day, day_of_year, day_of_week;
};

// Division rounded down (the divisor positive).
int64_t FloorDiv(int64_t a, int64_t b) { return a / b - (a % b < 0 ? 1 : 0); }

bool IsLeap(int64_t y) { return y % 4 == 0 && (y % 100 != 0 || y % 400 == 0); }

Civil CivilFromDays(int64_t days) {
  const int64_t z = days + 719468;  // days since 0000-03-01
  const int64_t era = FloorDiv(z, 146097);
  const int64_t doe = z - era * 146097;                                      // [0, 146096]
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;  // [0, 399]
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);                // [0, 365], from March 1
  const int64_t mp = (5 * doy + 2) / 153;                                    // [0, 11], March = 0
  Civil c;
  c.day = doy - (153 * mp + 2) / 5 + 1;
  c.month = mp < 10 ? mp + 3 : mp - 9;
  c.year = yoe + era * 400 + (c.month <= 2 ? 1 : 0);
  // Days before each month of a common year, January first.
  static const int64_t kBefore[12] = {0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334};
  c.day_of_year = kBefore[c.month - 1] + c.day + (c.month > 2 && IsLeap(c.year) ? 1 : 0);
  const int64_t from_sunday = days + 4;  // 1970-01-01 was a Thursday (4)
  c.day_of_week = from_sunday - FloorDiv(from_sunday, 7) * 7;
  return c;
}

int64_t Part(CalendarPart part, int64_t days) {
  const Civil c = CivilFromDays(days);
  switch (part) {
    case CalendarPart::kYear: return c.year;
    case CalendarPart::kMonth: return c.month;
    case CalendarPart::kDay: return c.day;
    case CalendarPart::kDayOfWeek: return c.day_of_week;
    case CalendarPart::kIsoDayOfWeek: return c.day_of_week == 0 ? 7 : c.day_of_week;
    case CalendarPart::kDayOfYear: return c.day_of_year;
    case CalendarPart::kQuarter: return (c.month - 1) / 3 + 1;
  }
  return 0;
}

}  // namespace

void CalendarPartOfDays(CalendarPart part, const int32_t* days, size_t n, int64_t* out) {
  for (size_t i = 0; i < n; ++i) out[i] = Part(part, days[i]);
}

void CalendarPartOfMicros(CalendarPart part, const int64_t* micros, size_t n, int64_t* out) {
  for (size_t i = 0; i < n; ++i) out[i] = Part(part, FloorDiv(micros[i], int64_t{86400} * 1000000));
}

}  // namespace reference
}  // namespace laneql
