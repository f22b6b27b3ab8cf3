// SUM kernels per SIMD target against a read-bandwidth probe measured in the same run, and
// against the scalar reference: memory-resident (default 10^8 rows) and cache-resident (64 KiB).
//
//   build/native/bench/laneql_sum_bench [rows] [runs]
//
// Prints median GB/s (and rows/s) per kernel, target and thread count; every SIMD result is
// checked against the scalar reference before it is timed.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench_util.h"
#include "laneql/sum.h"
#include "laneql/system_info.h"
#include "laneql/targets.h"

using laneql::bench::KeepAlive;
using laneql::bench::MedianSeconds;
using laneql::bench::Row;

int main(int argc, char** argv) {
  const size_t rows = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 100000000;
  const int runs = argc > 2 ? std::atoi(argv[2]) : 5;
  const int max_threads = laneql::LogicalProcessors();
  const size_t cache_rows = 8192;  // 64 KiB of doubles: L2-resident
  const int cache_repeats = static_cast<int>(std::max<size_t>(1, 200000000 / cache_rows / 8));

  std::vector<double> f64(rows);
  std::vector<int64_t> i64(rows);
  for (size_t i = 0; i < rows; ++i) {
    f64[i] = static_cast<double>(i % 1000003) * 0.25 - 1000.0;
    i64[i] = static_cast<int64_t>(i * 0x9E3779B97F4A7C15ull);
  }

  std::printf("cpu: %s, %d logical cpus, %zu rows (%.0f MB per column), median of %d\n",
              laneql::CpuModel().c_str(), max_threads, rows, rows * 8 / 1e6, runs);
  std::vector<double> probe(max_threads + 1);
  for (int t = 1; t <= max_threads; ++t) {
    probe[t] = laneql::bench::ProbeReadGBs(rows * sizeof(double), t, runs);
    std::printf("read-bandwidth probe (memchr), %d thread(s): %.2f GB/s\n", t, probe[t]);
  }
  std::printf("\n");
  laneql::bench::PrintHeader();

  const double ref_f64 = MedianSeconds(
      runs, [&] { KeepAlive(laneql::reference::SumFloat64(f64.data(), rows)); });
  Row("sum f64 scalar ref", "-", 1, rows * 8, rows, ref_f64, probe[1]);
  const double ref_i64 = MedianSeconds(
      runs, [&] { KeepAlive(laneql::reference::SumInt64(i64.data(), rows)); });
  Row("sum i64 scalar ref", "-", 1, rows * 8, rows, ref_i64, probe[1]);

  const double want_f64 = laneql::reference::SumFloat64(f64.data(), rows);
  const laneql::Int128 want_i64 = laneql::reference::SumInt64(i64.data(), rows);
  for (const laneql::SimdTarget& target : laneql::SupportedTargets()) {
    std::string error;
    if (!laneql::ForceTarget(target.name, &error)) continue;
    for (int t = 1; t <= max_threads; ++t) {
      double got = 0;
      const double s_f64 =
          MedianSeconds(runs, [&] { got = laneql::SumFloat64Parallel(f64.data(), rows, t); });
      if (std::memcmp(&got, &want_f64, sizeof got) != 0) {
        std::fprintf(stderr, "MISMATCH: float64 sum on %s\n", target.name.c_str());
        return 1;
      }
      Row("sum f64 (memory)", target.name, t, rows * 8, rows, s_f64, probe[t]);
      laneql::Int128 got_i = 0;
      const double s_i64 =
          MedianSeconds(runs, [&] { got_i = laneql::SumInt64Parallel(i64.data(), rows, t); });
      if (got_i != want_i64) {
        std::fprintf(stderr, "MISMATCH: int64 sum on %s\n", target.name.c_str());
        return 1;
      }
      Row("sum i64 (memory)", target.name, t, rows * 8, rows, s_i64, probe[t]);
    }
    const double s_cache = MedianSeconds(runs, [&] {
      for (int r = 0; r < cache_repeats; ++r) KeepAlive(laneql::SumFloat64(f64.data(), cache_rows));
    });
    Row("sum f64 (64 KiB cached)", target.name, 1, cache_rows * 8 * cache_repeats,
        cache_rows * cache_repeats, s_cache, probe[1]);
  }
  laneql::ResetTarget();
  return 0;
}
