// `laneql sum`: the SUM kernels against their scalar references on generated columns, GB/s.
#include "commands.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "flags.h"
#include "laneql/sum.h"
#include "laneql/system_info.h"
#include "laneql/targets.h"

namespace laneql::cli {
namespace {

// splitmix64: tiny, fast, and the same sequence on every platform for a given seed.
struct SplitMix64 {
  uint64_t state;
  uint64_t Next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
};

template <class Fn>
double MedianMs(int runs, const Fn& fn) {
  std::vector<double> ms;
  for (int r = 0; r < runs; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    fn();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                     .count());
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

void PrintTiming(const char* what, size_t bytes, double ms) {
  std::printf("  %-22s %9.3f ms  %7.2f GB/s\n", what, ms, bytes / (ms * 1e6));
}

}  // namespace

int RunSum(const std::vector<std::string>& args) {
  Flags flags;
  if (!ParseFlags("sum", args, {{"--rows", "--type", "--threads", "--seed", "--runs", "--target"}, {}, 0},
                  &flags)) {
    return kExitUsage;
  }
  uint64_t rows = 0, threads = 0, seed = 0, runs = 0;
  if (!ParseCount("sum", "--rows", flags.Get("--rows", "10000000"), 0, uint64_t{1} << 34, &rows) ||
      !ParseCount("sum", "--threads", flags.Get("--threads", std::to_string(DefaultThreads())), 1,
                  1024, &threads) ||
      !ParseCount("sum", "--seed", flags.Get("--seed", "42"), 0, UINT64_MAX, &seed) ||
      !ParseCount("sum", "--runs", flags.Get("--runs", "5"), 1, 1000, &runs)) {
    return kExitUsage;
  }
  const std::string type = flags.Get("--type", "both");
  if (type != "float64" && type != "int64" && type != "both") {
    std::fprintf(stderr, "laneql sum: --type must be float64, int64 or both, got '%s'\n",
                 type.c_str());
    return kExitUsage;
  }
  if (!ApplyTarget("sum", flags)) return kExitUsage;

  const int t = static_cast<int>(threads), r = static_cast<int>(runs);
  std::printf("SUM over %llu generated rows, seed %llu, target %s, %d thread%s, median of %d\n",
              static_cast<unsigned long long>(rows), static_cast<unsigned long long>(seed),
              DispatchedTarget().name.c_str(), t, t == 1 ? "" : "s", r);
  bool all_match = true;
  if (type != "int64") {
    std::vector<double> column(rows);
    SplitMix64 rng{seed};
    // Prices-like values with a sign and four decimal digits of magnitude spread.
    for (double& v : column) v = (static_cast<int64_t>(rng.Next() % 2000001) - 1000000) / 100.0;
    double simd = 0, scalar = 0;
    const double simd_ms = MedianMs(r, [&] { simd = SumFloat64Parallel(column.data(), rows, t); });
    const double ref_ms = MedianMs(r, [&] { scalar = reference::SumFloat64(column.data(), rows); });
    const bool match = std::memcmp(&simd, &scalar, sizeof(double)) == 0;
    all_match &= match;
    std::printf("float64  sum = %.17g  (scalar reference %.17g: %s)\n", simd, scalar,
                match ? "bit-identical" : "MISMATCH");
    PrintTiming("SIMD kernel", rows * sizeof(double), simd_ms);
    PrintTiming("scalar ref (1 thread)", rows * sizeof(double), ref_ms);
    std::printf("  SIMD kernel vs scalar reference: %.2fx\n", ref_ms / simd_ms);
  }
  if (type != "float64") {
    std::vector<int64_t> column(rows);
    SplitMix64 rng{seed ^ 0x5EEDull};
    // The whole int64 range: the sum overflows 64 bits, which SUM(BIGINT) must survive.
    for (int64_t& v : column) v = static_cast<int64_t>(rng.Next());
    Int128 simd = 0, scalar = 0;
    const double simd_ms = MedianMs(r, [&] { simd = SumInt64Parallel(column.data(), rows, t); });
    const double ref_ms = MedianMs(r, [&] { scalar = reference::SumInt64(column.data(), rows); });
    const bool match = simd == scalar;
    all_match &= match;
    std::printf("int64    sum = %s  (scalar reference %s: %s)\n", Int128ToString(simd).c_str(),
                Int128ToString(scalar).c_str(), match ? "equal" : "MISMATCH");
    PrintTiming("SIMD kernel", rows * sizeof(int64_t), simd_ms);
    PrintTiming("scalar ref (1 thread)", rows * sizeof(int64_t), ref_ms);
    std::printf("  SIMD kernel vs scalar reference: %.2fx\n", ref_ms / simd_ms);
  }
  return all_match ? kExitOk : kExitDataError;
}

}  // namespace laneql::cli
