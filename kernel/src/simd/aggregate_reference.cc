// Scalar references for the aggregate kernels: plain loops that spell out laneql/aggregate.h's
// definitions row by row. No Highway, no bit tricks shared with the kernels (the float order is
// written with isnan/signbit here, not with the kernels' integer keys), so a bug in a kernel
// cannot hide in a shared helper.
#include <algorithm>
#include <cmath>
#include <limits>

#include "laneql/aggregate.h"

namespace laneql {
namespace reference {
namespace {

bool Contributes(const uint64_t* select, const uint64_t* validity, size_t row) {
  const auto bit = [row](const uint64_t* mask) {
    return ((mask[row / 64] >> (row % 64)) & 1) != 0;
  };
  return (select == nullptr || bit(select)) && (validity == nullptr || bit(validity));
}

template <class T>
AggResult<T> Extreme(const T* data, size_t n, const uint64_t* select, const uint64_t* validity,
                     bool want_max) {
  AggResult<T> result;
  for (size_t i = 0; i < n; ++i) {
    if (!Contributes(select, validity, i)) continue;
    const T x = data[i];
    const bool better = want_max ? AggLess(result.value, x) : AggLess(x, result.value);
    if (result.count == 0 || better) result.value = x;
    ++result.count;
  }
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(result.value)) result.value = std::numeric_limits<T>::quiet_NaN();
  }
  return result;
}

}  // namespace

template <class T>
AggResult<SumValue<T>> AggregateSum(const T* data, size_t n, const uint64_t* select,
                                    const uint64_t* validity) {
  AggResult<SumValue<T>> result;
  if constexpr (std::is_floating_point_v<T>) {
    // laneql/sum.h's order; a row that does not contribute adds +0.0 in its slot.
    for (size_t begin = 0; begin < n; begin += kSumBlockRows) {
      const size_t end = std::min(n, begin + kSumBlockRows);
      double acc[kSumAccumulators] = {};  // all +0.0
      for (size_t i = begin; i < end; ++i) {
        const bool in = Contributes(select, validity, i);
        const size_t slot = (i - begin) % kSumAccumulators;
        acc[slot] = acc[slot] + (in ? static_cast<double>(data[i]) : 0.0);
        result.count += in;
      }
      for (size_t width = kSumAccumulators / 2; width != 0; width /= 2) {
        for (size_t j = 0; j < width; ++j) acc[j] = acc[j] + acc[j + width];
      }
      result.value = result.value + acc[0];
    }
    if (std::isnan(result.value)) result.value = std::numeric_limits<double>::quiet_NaN();
  } else {
    for (size_t i = 0; i < n; ++i) {
      if (!Contributes(select, validity, i)) continue;
      result.value += static_cast<Int128>(data[i]);
      ++result.count;
    }
  }
  return result;
}

template <class T>
AggResult<T> AggregateMin(const T* data, size_t n, const uint64_t* select,
                          const uint64_t* validity) {
  return Extreme(data, n, select, validity, /*want_max=*/false);
}

template <class T>
AggResult<T> AggregateMax(const T* data, size_t n, const uint64_t* select,
                          const uint64_t* validity) {
  return Extreme(data, n, select, validity, /*want_max=*/true);
}

#define LANEQL_AGG_REFERENCE(T)                                                                \
  template AggResult<SumValue<T>> AggregateSum<T>(const T*, size_t, const uint64_t*,           \
                                                  const uint64_t*);                            \
  template AggResult<T> AggregateMin<T>(const T*, size_t, const uint64_t*, const uint64_t*);   \
  template AggResult<T> AggregateMax<T>(const T*, size_t, const uint64_t*, const uint64_t*);
LANEQL_AGG_REFERENCE(int8_t)
LANEQL_AGG_REFERENCE(int16_t)
LANEQL_AGG_REFERENCE(int32_t)
LANEQL_AGG_REFERENCE(int64_t)
LANEQL_AGG_REFERENCE(uint8_t)
LANEQL_AGG_REFERENCE(uint16_t)
LANEQL_AGG_REFERENCE(uint32_t)
LANEQL_AGG_REFERENCE(uint64_t)
LANEQL_AGG_REFERENCE(float)
LANEQL_AGG_REFERENCE(double)
#undef LANEQL_AGG_REFERENCE

}  // namespace reference
}  // namespace laneql
