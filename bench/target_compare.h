// The kernel benchmarks' shared loop (arith, rounding, calendar): a kernel timed on every
// compiled SIMD target against its scalar reference, its output checked against the
// reference's before it is timed, one table row per target.
#ifndef LANEQL_BENCH_TARGET_COMPARE_H_
#define LANEQL_BENCH_TARGET_COMPARE_H_

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "bench_util.h"
#include "laneql/targets.h"

namespace laneql::bench {

// One engine batch: cache-resident.
constexpr size_t kBatchRows = 16384;

// Rows per second of fn over `rows` rows: a batch-sized call is repeated to about 50 M rows.
inline double RowsPerSecond(size_t rows, int runs, const std::function<void()>& fn) {
  const int repeats = rows >= 1000000 ? 1 : static_cast<int>(50000000 / rows);
  const double s = MedianSeconds(runs, [&] {
    for (int r = 0; r < repeats; ++r) fn();
  });
  return static_cast<double>(rows) * repeats / s;
}

// kernel, target, rows, Mrows/s and the ratio to the reference, the kernel's name `width` wide.
inline void PrintRate(const std::string& kernel, const std::string& target, size_t rows, double rate,
                      double ref_rate, int width) {
  std::printf("%-*s %-10s %10zu %10.0f %7.2fx\n", width, kernel.c_str(), target.c_str(), rows, rate / 1e6,
              rate / ref_rate);
}

// Times `reference` (writing `want`), then `kernel` (writing `got`; false when it reports a
// failure) on every target; false, with MISMATCH on stderr, when a target's output differs.
template <typename R>
bool CompareOnTargets(const std::string& name, size_t rows, int runs, const std::vector<R>& want,
                      const std::vector<R>& got, const std::function<void()>& reference,
                      const std::function<bool()>& kernel, int width = 22) {
  const double ref = RowsPerSecond(rows, runs, reference);
  PrintRate(name, "scalar ref", rows, ref, ref, width);
  for (const SimdTarget& target : SupportedTargets()) {
    std::string error;
    if (!ForceTarget(target.name, &error)) continue;
    if (!kernel() || std::memcmp(got.data(), want.data(), rows * sizeof(R)) != 0) {
      std::fprintf(stderr, "MISMATCH: %s on %s\n", name.c_str(), target.name.c_str());
      ResetTarget();
      return false;
    }
    PrintRate(name, target.name, rows, RowsPerSecond(rows, runs, [&] { kernel(); }), ref, width);
  }
  ResetTarget();
  return true;
}

// The benchmarks' main: `bench(rows, runs)` on one batch, then on argv[1] rows (10 M by default)
// of memory-resident data, argv[2] runs each (5); the table's header first. 1 when a run fails.
inline int RunBatchThenMemory(int argc, char** argv, int width, const std::function<bool(size_t, int)>& bench) {
  const size_t memory_rows = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 10000000;
  const int runs = argc > 2 ? std::atoi(argv[2]) : 5;
  std::printf("%-*s %-10s %10s %10s %8s\n", width, "kernel", "target", "rows", "Mrows/s", "vs ref");
  for (size_t rows : {kBatchRows, memory_rows}) {
    if (!bench(rows, runs)) return 1;
  }
  return 0;
}

}  // namespace laneql::bench

#endif  // LANEQL_BENCH_TARGET_COMPARE_H_
