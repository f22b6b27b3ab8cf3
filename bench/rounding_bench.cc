// Rounding and sign kernels per SIMD target against their scalar references (the <cmath> calls
// in plain loops, compiled with the library's flags: for the baseline x86-64 target floor, ceil,
// trunc and round are library calls, fabs and sign may be vectorised by the compiler), on one
// engine batch (16,384 rows, cache-resident) and on a memory-resident array.
//
//   build/native/bench/laneql_rounding_bench [memory_rows] [runs]
//
// Prints median Mrows/s per kernel and target and the ratio to the reference; every result is
// checked against the reference before it is timed.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "bench_util.h"
#include "laneql/rounding.h"
#include "laneql/targets.h"

namespace {

using laneql::bench::MedianSeconds;

constexpr size_t kBatchRows = 16384;

// Rows per second of fn over `rows` rows: a batch-sized call is repeated to about 50 M rows.
double RowsPerSecond(size_t rows, int runs, const std::function<void()>& fn) {
  const int repeats = rows >= 1000000 ? 1 : static_cast<int>(50000000 / rows);
  const double s = MedianSeconds(runs, [&] {
    for (int r = 0; r < repeats; ++r) fn();
  });
  return static_cast<double>(rows) * repeats / s;
}

void Print(const std::string& kernel, const std::string& target, size_t rows, double rate, double ref_rate) {
  std::printf("%-22s %-10s %10zu %10.0f %7.2fx\n", kernel.c_str(), target.c_str(), rows, rate / 1e6,
              rate / ref_rate);
}

// Times `kernel` (writing `got`) on every target against `reference` (writing `want`).
template <typename R>
bool Compare(const std::string& name, size_t rows, int runs, std::vector<R>& want, std::vector<R>& got,
             const std::function<void()>& reference, const std::function<void()>& kernel) {
  const double ref = RowsPerSecond(rows, runs, reference);
  Print(name, "scalar ref", rows, ref, ref);
  for (const laneql::SimdTarget& target : laneql::SupportedTargets()) {
    std::string error;
    if (!laneql::ForceTarget(target.name, &error)) continue;
    kernel();
    if (std::memcmp(got.data(), want.data(), rows * sizeof(R)) != 0) {
      std::fprintf(stderr, "MISMATCH: %s on %s\n", name.c_str(), target.name.c_str());
      return false;
    }
    Print(name, target.name, rows, RowsPerSecond(rows, runs, kernel), ref);
  }
  laneql::ResetTarget();
  return true;
}

bool Bench(size_t rows, int runs) {
  std::mt19937_64 rng(3);
  std::vector<double> x(rows), want(rows), got(rows);
  for (double& v : x) v = std::uniform_real_distribution<double>(-1e6, 1e6)(rng);
  const char* names[] = {"floor", "ceil", "trunc", "round", "abs", "even"};
  for (int o = 0; o < 6; ++o) {
    const laneql::RoundingOp op = static_cast<laneql::RoundingOp>(o);
    if (!Compare<double>(names[o], rows, runs, want, got,
                         [&] { laneql::reference::RoundFloat64(op, x.data(), rows, want.data()); },
                         [&] { laneql::RoundFloat64(op, x.data(), rows, got.data()); })) {
      return false;
    }
  }
  if (!Compare<double>("round(x, 2)", rows, runs, want, got,
                       [&] { laneql::reference::RoundFloat64Digits(x.data(), rows, 2, want.data()); },
                       [&] { laneql::RoundFloat64Digits(x.data(), rows, 2, got.data()); })) {
    return false;
  }
  std::vector<int8_t> want8(rows), got8(rows);
  return Compare<int8_t>("sign", rows, runs, want8, got8,
                         [&] { laneql::reference::SignFloat64(x.data(), rows, want8.data()); },
                         [&] { laneql::SignFloat64(x.data(), rows, got8.data()); });
}

}  // namespace

int main(int argc, char** argv) {
  const size_t memory_rows = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 10000000;
  const int runs = argc > 2 ? std::atoi(argv[2]) : 5;
  std::printf("%-22s %-10s %10s %10s %8s\n", "kernel", "target", "rows", "Mrows/s", "vs ref");
  for (size_t rows : {kBatchRows, memory_rows}) {
    if (!Bench(rows, runs)) return 1;
  }
  return 0;
}
