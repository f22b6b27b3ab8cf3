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

#include "laneql/rounding.h"
#include "target_compare.h"

namespace {

using laneql::bench::CompareOnTargets;

bool Bench(size_t rows, int runs) {
  std::mt19937_64 rng(3);
  std::vector<double> x(rows), want(rows), got(rows);
  for (double& v : x) v = std::uniform_real_distribution<double>(-1e6, 1e6)(rng);
  const char* names[] = {"floor", "ceil", "trunc", "round", "abs", "even"};
  for (int o = 0; o < 6; ++o) {
    const laneql::RoundingOp op = static_cast<laneql::RoundingOp>(o);
    if (!CompareOnTargets<double>(names[o], rows, runs, want, got,
                         [&] { laneql::reference::RoundFloat64(op, x.data(), rows, want.data()); },
                         [&] { laneql::RoundFloat64(op, x.data(), rows, got.data()); return true; })) {
      return false;
    }
  }
  if (!CompareOnTargets<double>("round(x, 2)", rows, runs, want, got,
                       [&] { laneql::reference::RoundFloat64Digits(x.data(), rows, 2, want.data()); },
                       [&] { laneql::RoundFloat64Digits(x.data(), rows, 2, got.data()); return true; })) {
    return false;
  }
  std::vector<int8_t> want8(rows), got8(rows);
  return CompareOnTargets<int8_t>("sign", rows, runs, want8, got8,
                         [&] { laneql::reference::SignFloat64(x.data(), rows, want8.data()); },
                         [&] { laneql::SignFloat64(x.data(), rows, got8.data()); return true; });
}

}  // namespace

int main(int argc, char** argv) { return laneql::bench::RunBatchThenMemory(argc, argv, 22, Bench); }
