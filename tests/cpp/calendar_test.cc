// Calendar kernels against their scalar reference, on every compiled target: every part of
// random day counts over the whole int32 range (the kernels' scalar path beyond ±2^27 days
// included), of the extremes and of the fast range's edges; microsecond counts over the whole
// int64 range and at both sides of midnights. And the proof of the multiply-and-shift
// divisions: every day of the fast range [-2^27, 2^27) (years -365,000 .. 369,000) against a
// calendar walked one day at a time, with the reference tied to the engine's own codec
// (common/civil_time.h) over the same range.
#include <cstdlib>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "hwy/targets.h"
#include "laneql/calendar.h"
#include "src/common/civil_time.h"
#include "target_param.h"

namespace laneql {
namespace {

constexpr CalendarPart kParts[] = {CalendarPart::kYear,         CalendarPart::kMonth,     CalendarPart::kDay,
                                   CalendarPart::kDayOfWeek,    CalendarPart::kIsoDayOfWeek,
                                   CalendarPart::kDayOfYear,    CalendarPart::kQuarter};
constexpr int32_t kFast = int32_t{1} << 27;
constexpr int64_t kMicrosPerDay = int64_t{86400} * 1000000;

std::vector<int32_t> EdgeDays() {
  const int32_t max = std::numeric_limits<int32_t>::max(), min = std::numeric_limits<int32_t>::min();
  return {0, -1, 1, 59, 60, -719468, -719469, -719162, 2932896, kFast - 1, kFast, -kFast, -kFast - 1, max, -max, min,
          max - 1, min + 1, 11016, -106751992, 106751991};
}

void CheckDays(const std::vector<int32_t>& days, const char* what) {
  const size_t n = days.size();
  for (CalendarPart part : kParts) {
    std::vector<int64_t> want(n + 1, 77), got(n + 1, 77);
    reference::CalendarPartOfDays(part, days.data(), n, want.data());
    CalendarPartOfDays(part, days.data(), n, got.data());
    for (size_t i = 0; i <= n; ++i) {
      ASSERT_EQ(want[i], got[i]) << what << " part " << static_cast<int>(part) << " n=" << n << " row " << i
                                 << " day " << (i < n ? days[i] : 0);
    }
  }
}

void CheckMicros(const std::vector<int64_t>& micros, const char* what) {
  const size_t n = micros.size();
  for (CalendarPart part : kParts) {
    std::vector<int64_t> want(n + 1, 77), got(n + 1, 77);
    reference::CalendarPartOfMicros(part, micros.data(), n, want.data());
    CalendarPartOfMicros(part, micros.data(), n, got.data());
    for (size_t i = 0; i <= n; ++i) {
      ASSERT_EQ(want[i], got[i]) << what << " part " << static_cast<int>(part) << " n=" << n << " row " << i
                                 << " micros " << (i < n ? micros[i] : 0);
    }
  }
}

LANEQL_PER_TARGET_SUITE(CalendarTest);

TEST_P(CalendarTest, DaysMatchReference) {
  std::mt19937_64 rng(11);
  const std::vector<int32_t> edges = EdgeDays();
  for (size_t n = 0; n <= 70; ++n) {
    for (int kind = 0; kind < 4; ++kind) {
      std::vector<int32_t> days(n);
      for (int32_t& d : days) {
        switch (kind) {
          case 0: d = static_cast<int32_t>(rng() % 146097 * 3) - 219145; break;  // around 1970, +-600 years
          case 1: d = static_cast<int32_t>(static_cast<int64_t>(rng() % (2 * uint64_t{kFast})) - kFast); break;
          case 2: d = static_cast<int32_t>(rng()); break;  // any int32: the wide path too
          default: d = edges[rng() % edges.size()]; break;
        }
      }
      CheckDays(days, "days");
    }
  }
  CheckDays(edges, "edges");
}

TEST_P(CalendarTest, MicrosMatchReference) {
  std::mt19937_64 rng(12);
  for (size_t n = 0; n <= 40; ++n) {
    for (int kind = 0; kind < 3; ++kind) {
      std::vector<int64_t> micros(n);
      for (int64_t& m : micros) {
        switch (kind) {
          case 0: m = static_cast<int64_t>(rng()); break;  // any int64
          case 1: {  // a midnight and its neighbours, within the whole range
            const int64_t day = static_cast<int64_t>(rng() % 213503982) - 106751991;
            m = day * kMicrosPerDay + static_cast<int64_t>(rng() % 3) - 1;
            break;
          }
          default: {
            const int64_t picks[] = {0, -1, 1, kMicrosPerDay - 1, kMicrosPerDay, -kMicrosPerDay, -kMicrosPerDay - 1,
                                     std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min(),
                                     std::numeric_limits<int64_t>::min() + 1, -std::numeric_limits<int64_t>::max()};
            m = picks[rng() % (sizeof(picks) / sizeof(picks[0]))];
            break;
          }
        }
      }
      CheckMicros(micros, "micros");
    }
  }
}

TEST_P(CalendarTest, EveryMidnightEdgeOfManyDays) {
  // Both sides of midnight of every 61st day over the whole TIMESTAMP range: where a one-off
  // floor division would show: 3.5 M days * 3 instants, the day-of-month part.
  const int64_t first = -106751991, last = 106751990;
  std::vector<int64_t> micros;
  micros.reserve(1 << 16);
  std::vector<int64_t> want, got;
  auto flush = [&] {
    want.resize(micros.size());
    got.resize(micros.size());
    reference::CalendarPartOfMicros(CalendarPart::kDay, micros.data(), micros.size(), want.data());
    CalendarPartOfMicros(CalendarPart::kDay, micros.data(), micros.size(), got.data());
    for (size_t i = 0; i < micros.size(); ++i) ASSERT_EQ(want[i], got[i]) << "micros " << micros[i];
    micros.clear();
  };
  const int64_t step = GetParam() == HWY_SCALAR || GetParam() == HWY_EMU128 ? 701 : 61;
  for (int64_t day = first; day <= last; day += step) {
    micros.push_back(day * kMicrosPerDay - 1);
    micros.push_back(day * kMicrosPerDay);
    micros.push_back(day * kMicrosPerDay + kMicrosPerDay - 1);
    if (micros.size() >= (1 << 16) - 3) {
      flush();
      if (HasFatalFailure()) return;
    }
  }
  flush();
}

// A calendar walked one day at a time: the oracle for the exhaustive test.
struct Walk {
  int64_t year, month, day, dow, doy;
  static bool Leap(int64_t y) { return y % 4 == 0 && (y % 100 != 0 || y % 400 == 0); }
  static int64_t MonthDays(int64_t y, int64_t m) {
    static const int64_t kDays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return kDays[m - 1] + (m == 2 && Leap(y) ? 1 : 0);
  }
  void Next() {
    dow = dow == 6 ? 0 : dow + 1;
    ++doy;
    if (++day <= MonthDays(year, month)) return;
    day = 1;
    if (++month <= 12) return;
    month = 1;
    doy = 1;
    ++year;
  }
};

Walk WalkFrom(int32_t day) {
  Walk w;
  for (CalendarPart part : kParts) {
    int64_t v = 0;
    reference::CalendarPartOfDays(part, &day, 1, &v);
    switch (part) {
      case CalendarPart::kYear: w.year = v; break;
      case CalendarPart::kMonth: w.month = v; break;
      case CalendarPart::kDay: w.day = v; break;
      case CalendarPart::kDayOfWeek: w.dow = v; break;
      case CalendarPart::kDayOfYear: w.doy = v; break;
      default: break;
    }
  }
  return w;
}

// The days the exhaustive tests cover: the whole fast range (about ±367,000 years) when
// LANEQL_EXHAUSTIVE_CALENDAR is set (8 to 19 s natively; minutes under qemu or wasm), else
// the ±11,000 years around 1970 (2^22 days each way), which make test runs everywhere.
int64_t ExhaustiveDays() {
  return std::getenv("LANEQL_EXHAUSTIVE_CALENDAR") != nullptr ? kFast : int64_t{1} << 22;
}

// Every day of that range, every part: the calendar is walked once and each block of days
// checked on the best target in full and on every other target (SCALAR and EMU128 included)
// every 8th block: the integer operations are exact on every target, and all blocks on all
// targets took 30 s.
TEST(CalendarExhaustive, EveryDayOfTheFastRange) {
  constexpr size_t kBlock = 1 << 16;
  const std::vector<int64_t> targets = testing::TargetsToTest();  // best first
  const int64_t range = ExhaustiveDays();
  Walk walk = WalkFrom(-range);
  std::vector<int32_t> days(kBlock);
  std::vector<int64_t> expected[7], got(kBlock);
  for (auto& e : expected) e.resize(kBlock);
  size_t block_index = 0;
  for (int64_t start = -range; start < range; start += kBlock, ++block_index) {
    for (size_t k = 0; k < kBlock; ++k) {
      days[k] = static_cast<int32_t>(start + static_cast<int64_t>(k));
      expected[0][k] = walk.year;
      expected[1][k] = walk.month;
      expected[2][k] = walk.day;
      expected[3][k] = walk.dow;
      expected[4][k] = walk.dow == 0 ? 7 : walk.dow;
      expected[5][k] = walk.doy;
      expected[6][k] = (walk.month - 1) / 3 + 1;
      walk.Next();
    }
    for (int64_t target : targets) {
      if (target != targets.front() && block_index % 8 != 0) continue;
      hwy::SetSupportedTargetsForTest(target);
      for (size_t p = 0; p < 7; ++p) {
        CalendarPartOfDays(kParts[p], days.data(), kBlock, got.data());
        if (got != expected[p]) {
          size_t k = 0;
          while (got[k] == expected[p][k]) ++k;
          hwy::SetSupportedTargetsForTest(0);
          FAIL() << hwy::TargetName(target) << ": day " << days[k] << " part " << p << ": want " << expected[p][k]
                 << ", got " << got[k];
        }
      }
    }
  }
  hwy::SetSupportedTargetsForTest(0);
}

// The reference is the engine's calendar (common/civil_time.h) over the same range; checked
// once, not per target.
TEST(CalendarReference, MatchesTheEngineCodecOverTheFastRange) {
  const int64_t range = ExhaustiveDays();
  for (int64_t day = -range; day < range; day += 7) {
    const civil::Date date = civil::CivilFromDays(day);
    const int32_t d = static_cast<int32_t>(day);
    int64_t year = 0, month = 0, dom = 0, dow = 0;
    reference::CalendarPartOfDays(CalendarPart::kYear, &d, 1, &year);
    reference::CalendarPartOfDays(CalendarPart::kMonth, &d, 1, &month);
    reference::CalendarPartOfDays(CalendarPart::kDay, &d, 1, &dom);
    reference::CalendarPartOfDays(CalendarPart::kDayOfWeek, &d, 1, &dow);
    if (year != date.year || month != date.month || dom != date.day || dow != civil::DayOfWeek(day)) {
      FAIL() << "day " << day;
    }
  }
  for (int32_t d : EdgeDays()) {
    const civil::Date date = civil::CivilFromDays(d);
    int64_t year = 0, doy = 0;
    reference::CalendarPartOfDays(CalendarPart::kYear, &d, 1, &year);
    reference::CalendarPartOfDays(CalendarPart::kDayOfYear, &d, 1, &doy);
    EXPECT_EQ(date.year, year) << d;
    EXPECT_EQ(d - civil::DaysFromCivil(date.year, 1, 1) + 1, doy) << d;
  }
}

}  // namespace
}  // namespace laneql
