// Calendar kernels per SIMD target against their scalar reference (Hinnant's civil_from_days in
// a plain 64-bit loop, compiled with the library's flags), on one engine batch (16,384 rows,
// cache-resident) and on a memory-resident array, for DATE day counts and TIMESTAMP
// microseconds of 1900..2100.
//
//   build/native/bench/laneql_calendar_bench [memory_rows] [runs]
//
// Prints median Mrows/s per part and target and the ratio to the reference; every result is
// checked against the reference before it is timed.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "laneql/calendar.h"
#include "target_compare.h"

namespace {

using laneql::bench::CompareOnTargets;

bool Bench(size_t rows, int runs) {
  std::mt19937_64 rng(5);
  std::vector<int32_t> days(rows);
  std::vector<int64_t> micros(rows), want(rows), got(rows);
  for (size_t i = 0; i < rows; ++i) {
    days[i] = static_cast<int32_t>(rng() % 73049) - 25567;  // 1900-01-01 .. 2099-12-31
    micros[i] = static_cast<int64_t>(days[i]) * 86400000000 + static_cast<int64_t>(rng() % 86400000000);
  }
  const char* names[] = {"year", "month", "day", "dayofweek", "isodow", "dayofyear", "quarter"};
  for (int p = 0; p < 7; ++p) {
    const laneql::CalendarPart part = static_cast<laneql::CalendarPart>(p);
    if (!CompareOnTargets<int64_t>(
            std::string(names[p]) + "(DATE)", rows, runs, want, got,
            [&] { laneql::reference::CalendarPartOfDays(part, days.data(), rows, want.data()); },
            [&] { laneql::CalendarPartOfDays(part, days.data(), rows, got.data()); return true; }) ||
        !CompareOnTargets<int64_t>(
            std::string(names[p]) + "(TIMESTAMP)", rows, runs, want, got,
            [&] { laneql::reference::CalendarPartOfMicros(part, micros.data(), rows, want.data()); },
            [&] { laneql::CalendarPartOfMicros(part, micros.data(), rows, got.data()); return true; })) {
      return false;
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) { return laneql::bench::RunBatchThenMemory(argc, argv, 22, Bench); }
