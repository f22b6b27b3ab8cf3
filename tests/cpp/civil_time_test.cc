// The civil calendar codec (src/common/civil_time.h) against a plain reference: a calendar
// walked one day at a time from 1970-01-01, which needs nothing but month lengths, so that the
// era arithmetic is checked on every day of ten thousand years rather than on chosen dates.
#include "src/common/civil_time.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

namespace laneql {
namespace {

using civil::Date;

// The reference: the Gregorian rule as written, and a date stepped by one day.
bool ReferenceLeap(int64_t year) {
  if (year % 400 == 0) return true;
  if (year % 100 == 0) return false;
  return year % 4 == 0;
}

int ReferenceMonthLength(int64_t year, int month) {
  switch (month) {
    case 2: return ReferenceLeap(year) ? 29 : 28;
    case 4: case 6: case 9: case 11: return 30;
    default: return 31;
  }
}

void NextDay(Date* d) {
  if (++d->day <= ReferenceMonthLength(d->year, d->month)) return;
  d->day = 1;
  if (++d->month <= 12) return;
  d->month = 1;
  ++d->year;
}

void PreviousDay(Date* d) {
  if (--d->day >= 1) return;
  if (--d->month < 1) {
    d->month = 12;
    --d->year;
  }
  d->day = ReferenceMonthLength(d->year, d->month);
}

// Both directions of the codec at one day; reports the first mismatch only (the walk covers
// millions of days).
::testing::AssertionResult Agrees(const Date& d, int64_t days) {
  const int64_t from_civil = civil::DaysFromCivil(d.year, d.month, d.day);
  const Date back = civil::CivilFromDays(days);
  if (from_civil != days || back.year != d.year || back.month != d.month || back.day != d.day) {
    return ::testing::AssertionFailure()
           << d.year << "-" << d.month << "-" << d.day << " is day " << days
           << "; DaysFromCivil gives " << from_civil << ", CivilFromDays gives " << back.year
           << "-" << back.month << "-" << back.day;
  }
  return ::testing::AssertionSuccess();
}

// CivilFromDays' 32-bit form and its general one meet at the form's edges: the walk crosses
// each from a date the other form gave.
TEST(CivilTime, TheFastFormsEdgesAgreeWithTheWalk) {
  for (const int64_t edge : {civil::kCivilFastFirstDay, civil::kCivilFastLastDay + 1}) {
    int64_t days = edge - 100000;
    Date d = civil::CivilFromDays(days);
    for (; days < edge + 100000; ++days) {
      ASSERT_TRUE(Agrees(d, days));
      NextDay(&d);
    }
  }
}

TEST(CivilTime, EveryDayFromYearMinus5000To5000RoundTrips) {
  Date d{1970, 1, 1};
  int64_t days = 0;
  while (d.year <= 5000) {
    ASSERT_TRUE(Agrees(d, days));
    NextDay(&d);
    ++days;
  }
  d = Date{1970, 1, 1};
  days = 0;
  while (d.year >= -5000) {
    ASSERT_TRUE(Agrees(d, days));
    PreviousDay(&d);
    --days;
  }
}

TEST(CivilTime, LeapYearsAndMonthLengths) {
  for (int64_t year = -2000; year <= 2400; ++year) {
    ASSERT_EQ(civil::IsLeapYear(year), ReferenceLeap(year)) << year;
    for (int month = 1; month <= 12; ++month) {
      ASSERT_EQ(civil::DaysInMonth(year, month), ReferenceMonthLength(year, month))
          << year << "-" << month;
    }
  }
  EXPECT_TRUE(civil::IsLeapYear(2000));
  EXPECT_FALSE(civil::IsLeapYear(1900));
  EXPECT_TRUE(civil::IsLeapYear(2024));
  EXPECT_FALSE(civil::IsLeapYear(2023));
  // Year 0 (1 BC) is divisible by 400; -100 (101 BC) is a century that is not.
  EXPECT_TRUE(civil::IsLeapYear(0));
  EXPECT_TRUE(civil::IsLeapYear(-4));
  EXPECT_FALSE(civil::IsLeapYear(-1));
  EXPECT_FALSE(civil::IsLeapYear(-100));
  EXPECT_EQ(civil::DaysInMonth(1900, 2), 28);
  EXPECT_EQ(civil::DaysInMonth(2000, 2), 29);
  EXPECT_EQ(civil::DaysInMonth(2023, 12), 31);
  EXPECT_EQ(civil::DaysInMonth(2023, 4), 30);
}

TEST(CivilTime, Anchors) {
  EXPECT_EQ(civil::DaysFromCivil(1970, 1, 1), 0);
  EXPECT_EQ(civil::DaysFromCivil(1969, 12, 31), -1);
  EXPECT_EQ(civil::DaysFromCivil(2000, 2, 29), 11016);
  EXPECT_EQ(civil::DaysFromCivil(2000, 3, 1) - civil::DaysFromCivil(2000, 2, 28), 2);
  EXPECT_EQ(civil::DaysFromCivil(1900, 3, 1) - civil::DaysFromCivil(1900, 2, 28), 1);
  // 0001-01-01 (AD) and the day before it, 0000-12-31: DuckDB's "0001-12-31 (BC)".
  EXPECT_EQ(civil::DaysFromCivil(1, 1, 1), -719162);
  EXPECT_EQ(civil::DaysFromCivil(0, 12, 31), -719163);
  const Date bc = civil::CivilFromDays(-719163);
  EXPECT_EQ(bc.year, 0);
  EXPECT_EQ(bc.month, 12);
  EXPECT_EQ(bc.day, 31);
  // Year 0 has a leap day; day -719469 is 0000-02-29.
  const Date leap_bc = civil::CivilFromDays(-719469);
  EXPECT_EQ(leap_bc.year, 0);
  EXPECT_EQ(leap_bc.month, 2);
  EXPECT_EQ(leap_bc.day, 29);
  // The ends of DATE's int32 range, away from the era the walk covers.
  const Date last = civil::CivilFromDays(std::numeric_limits<int32_t>::max() - 1);
  EXPECT_EQ(civil::DaysFromCivil(last.year, last.month, last.day),
            std::numeric_limits<int32_t>::max() - 1);
  const Date first = civil::CivilFromDays(-(std::numeric_limits<int32_t>::max() - 1));
  EXPECT_EQ(civil::DaysFromCivil(first.year, first.month, first.day),
            -(std::numeric_limits<int32_t>::max() - 1));
  EXPECT_EQ(last.year, 5881580);  // DuckDB prints 5881580-07-10 for this day
  EXPECT_EQ(last.month, 7);
  EXPECT_EQ(last.day, 10);
}

TEST(CivilTime, FloorDivisionRoundsTowardsMinusInfinity) {
  int64_t q, r;
  civil::FloorDivMod(7, 3, &q, &r);
  EXPECT_EQ(q, 2);
  EXPECT_EQ(r, 1);
  civil::FloorDivMod(-7, 3, &q, &r);
  EXPECT_EQ(q, -3);
  EXPECT_EQ(r, 2);
  civil::FloorDivMod(-6, 3, &q, &r);
  EXPECT_EQ(q, -2);
  EXPECT_EQ(r, 0);
  EXPECT_EQ(civil::FloorDiv(-1, civil::kMicrosPerDay), -1);
  EXPECT_EQ(civil::FloorDiv(civil::kMicrosPerDay - 1, civil::kMicrosPerDay), 0);
  // INT64_MIN: the quotient is formed without multiplying back.
  const int64_t min = std::numeric_limits<int64_t>::min();
  civil::FloorDivMod(min, civil::kMicrosPerDay, &q, &r);
  EXPECT_GE(r, 0);
  EXPECT_LT(r, civil::kMicrosPerDay);
  EXPECT_EQ(static_cast<__int128>(q) * civil::kMicrosPerDay + r, static_cast<__int128>(min));
}

TEST(CivilTime, TimestampSplitsIntoDayAndTimeOfDay) {
  int64_t days, of_day;
  // One microsecond before the epoch is the last microsecond of 1969-12-31.
  civil::SplitTimestamp(-1, civil::kMicrosPerDay, &days, &of_day);
  EXPECT_EQ(days, -1);
  EXPECT_EQ(of_day, civil::kMicrosPerDay - 1);
  const civil::TimeOfDay t = civil::TimeOfDayFromMicros(of_day);
  EXPECT_EQ(t.hour, 23);
  EXPECT_EQ(t.minute, 59);
  EXPECT_EQ(t.second, 59);
  EXPECT_EQ(t.micros, 999999);
  civil::SplitTimestamp(-civil::kSecondsPerDay, civil::kSecondsPerDay, &days, &of_day);
  EXPECT_EQ(days, -1);
  EXPECT_EQ(of_day, 0);

  // Split and compose are inverses on both sides of the epoch, in micros and in seconds.
  const int64_t samples[] = {0, 1, -1, 86'399'999'999, -86'400'000'000, -86'400'000'001,
                             951'782'400'123'456, -62'135'596'800'000'001,
                             std::numeric_limits<int64_t>::min() + 2 * civil::kMicrosPerDay,
                             std::numeric_limits<int64_t>::max() - 1};
  for (const int64_t ticks : samples) {
    for (const int64_t per_day : {civil::kMicrosPerDay, civil::kSecondsPerDay}) {
      civil::SplitTimestamp(ticks, per_day, &days, &of_day);
      ASSERT_GE(of_day, 0) << ticks;
      ASSERT_LT(of_day, per_day) << ticks;
      int64_t back = 0;
      ASSERT_TRUE(civil::ComposeTimestamp(days, of_day, per_day, &back)) << ticks;
      EXPECT_EQ(back, ticks);
    }
  }
  // 2000-02-29 12:34:56.123456 from its parts, and back.
  const int64_t micros_of_day = civil::MicrosOfDay(12, 34, 56, 123456);
  EXPECT_EQ(micros_of_day, ((12 * 60 + 34) * 60 + 56) * int64_t{1'000'000} + 123456);
  int64_t ts = 0;
  ASSERT_TRUE(civil::ComposeTimestamp(11016, micros_of_day, civil::kMicrosPerDay, &ts));
  EXPECT_EQ(ts, 951'827'696'123'456);
  const civil::TimeOfDay noon = civil::TimeOfDayFromMicros(micros_of_day);
  EXPECT_EQ(noon.hour, 12);
  EXPECT_EQ(noon.minute, 34);
  EXPECT_EQ(noon.second, 56);
  EXPECT_EQ(noon.micros, 123456);
  EXPECT_EQ(civil::MicrosOfDay(24, 0, 0, 0), civil::kMicrosPerDay);
}

TEST(CivilTime, ComposeReportsOverflow) {
  int64_t ticks = 7;
  const int64_t max_days = std::numeric_limits<int64_t>::max() / civil::kMicrosPerDay;
  EXPECT_FALSE(civil::ComposeTimestamp(max_days + 1, 0, civil::kMicrosPerDay, &ticks));
  EXPECT_FALSE(civil::ComposeTimestamp(-max_days - 1, 0, civil::kMicrosPerDay, &ticks));
  // The last part-day above INT64_MIN splits, but its day's midnight does not fit.
  int64_t days, of_day;
  civil::SplitTimestamp(std::numeric_limits<int64_t>::min() + 1, civil::kMicrosPerDay, &days,
                        &of_day);
  EXPECT_EQ(days, -max_days - 1);
  EXPECT_FALSE(civil::ComposeTimestamp(days, of_day, civil::kMicrosPerDay, &ticks));
  // The day itself fits but the time of day pushes it over.
  EXPECT_FALSE(civil::ComposeTimestamp(max_days, civil::kMicrosPerDay - 1, civil::kMicrosPerDay,
                                       &ticks));
  EXPECT_EQ(ticks, 7);  // untouched on failure
  EXPECT_TRUE(civil::ComposeTimestamp(max_days, 0, civil::kMicrosPerDay, &ticks));
  EXPECT_EQ(ticks, max_days * civil::kMicrosPerDay);
  EXPECT_TRUE(civil::ComposeTimestamp(-max_days, 0, civil::kMicrosPerDay, &ticks));
  EXPECT_EQ(ticks, -max_days * civil::kMicrosPerDay);
}

}  // namespace
}  // namespace laneql
