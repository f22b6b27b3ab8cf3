// Arithmetic kernels per SIMD target against their scalar references (plain loops compiled with
// the library's flags, which the compiler may vectorise for the baseline target), on one
// engine batch (16,384 rows, cache-resident, the size the evaluator hands them) and on a
// memory-resident array.
//
//   build/native/bench/laneql_arith_bench [memory_rows] [runs]
//
// Prints median Mrows/s per kernel and target and the ratio to the reference; every result is
// checked against the reference before it is timed.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "laneql/arith.h"
#include "target_compare.h"

namespace {

using laneql::bench::CompareOnTargets;

constexpr int kNameWidth = 34;  // the longest kernel name
const char* kOpNames[] = {"+", "-", "*", "/"};

// Float operators: column op column and column op constant.
bool BenchFloat(size_t rows, int runs) {
  std::mt19937_64 rng(42);
  std::vector<double> x(rows), y(rows), want(rows), got(rows);
  for (size_t i = 0; i < rows; ++i) {
    x[i] = std::uniform_real_distribution<double>(-1000, 1000)(rng);
    y[i] = std::uniform_real_distribution<double>(-1000, 1000)(rng);
  }
  for (int o = 0; o < 4; ++o) {
    const laneql::FloatOp op = static_cast<laneql::FloatOp>(o);
    for (bool y_constant : {false, true}) {
      const std::string name = std::string("f64 x ") + kOpNames[o] + (y_constant ? " const" : " y");
      if (!CompareOnTargets<double>(
              name, rows, runs, want, got,
              [&] { laneql::reference::FloatArithmetic(op, x.data(), false, y.data(), y_constant, rows, want.data()); },
              [&] {
                laneql::FloatArithmetic(op, x.data(), false, y.data(), y_constant, rows, got.data());
                return true;
              },
              kNameWidth)) {
        return false;
      }
    }
  }
  return true;
}

// Checked integer multiply, column * column, values whose products fit (the common case).
// Operands up to `bound` in magnitude (0 = just below the square root of the maximum).
template <typename T>
bool BenchMultiply(const char* type_name, size_t rows, int runs, int64_t bound = 0) {
  std::mt19937_64 rng(7);
  const int64_t small = bound != 0 ? bound
                                   : static_cast<int64_t>(std::sqrt(static_cast<double>(std::numeric_limits<T>::max()))) - 1;
  std::vector<T> x(rows), y(rows), want(rows), got(rows);
  for (size_t i = 0; i < rows; ++i) {
    if constexpr (std::is_signed_v<T>) {
      x[i] = static_cast<T>(static_cast<int64_t>(rng() % (2 * small + 1)) - small);
      y[i] = static_cast<T>(static_cast<int64_t>(rng() % (2 * small + 1)) - small);
    } else {
      x[i] = static_cast<T>(rng() % (small + 1));
      y[i] = static_cast<T>(rng() % (small + 1));
    }
  }
  const std::string name = std::string(type_name) + " x * y checked" + (bound != 0 ? " |x| < 2^31" : "");
  return CompareOnTargets<T>(
      name, rows, runs, want, got,
      [&] {
        laneql::bench::KeepAlive(
            laneql::reference::MultiplyWithoutOverflow(x.data(), false, y.data(), false, rows, nullptr, want.data()));
      },
      [&] { return laneql::MultiplyWithoutOverflow(x.data(), false, y.data(), false, rows, nullptr, got.data()); },
      kNameWidth);
}

}  // namespace

int main(int argc, char** argv) {
  return laneql::bench::RunBatchThenMemory(argc, argv, kNameWidth, [](size_t rows, int runs) {
    return BenchFloat(rows, runs) && BenchMultiply<int8_t>("i8", rows, runs) &&
           BenchMultiply<int16_t>("i16", rows, runs) && BenchMultiply<int32_t>("i32", rows, runs) &&
           BenchMultiply<int64_t>("i64", rows, runs) && BenchMultiply<int64_t>("i64", rows, runs, 2147483647) &&
           BenchMultiply<uint64_t>("u64", rows, runs);
  });
}
