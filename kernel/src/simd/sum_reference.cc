// Scalar references for the SUM kernels: plain loops that spell out laneql/sum.h's definition.
// No Highway and no vector types, so a bug in a kernel cannot hide in a shared helper.
#include <algorithm>

#include "laneql/sum.h"

namespace laneql {
namespace reference {

double SumFloat64(const double* data, size_t n) {
  double total = 0.0;
  for (size_t begin = 0; begin < n; begin += kSumBlockRows) {
    const size_t end = std::min(n, begin + kSumBlockRows);
    double acc[kSumAccumulators] = {};  // all +0.0
    for (size_t i = begin; i < end; ++i) {
      const size_t slot = (i - begin) % kSumAccumulators;
      acc[slot] = acc[slot] + data[i];
    }
    for (size_t width = kSumAccumulators / 2; width != 0; width /= 2) {
      for (size_t j = 0; j < width; ++j) acc[j] = acc[j] + acc[j + width];
    }
    total = total + acc[0];
  }
  return total;
}

Int128 SumInt64(const int64_t* data, size_t n) {
  Int128 total = 0;
  for (size_t i = 0; i < n; ++i) total += data[i];
  return total;
}

}  // namespace reference
}  // namespace laneql
