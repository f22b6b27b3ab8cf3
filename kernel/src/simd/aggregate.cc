// Dispatch for the aggregate kernels (laneql/aggregate.h): foreach_target.h compiles this file
// once per SIMD target, and HWY_DYNAMIC_DISPATCH calls the best one the CPU supports (or the one
// ForceTarget chose). One exported function per operation and element type.
#include "laneql/aggregate.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/simd/aggregate.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "src/simd/aggregate_minmax-inl.h"
#include "src/simd/aggregate_sum-inl.h"

// X(type, name) for every element type the family supports.
#define LANEQL_AGG_INT_TYPES(X) \
  X(int8_t, I8) X(int16_t, I16) X(int32_t, I32) X(int64_t, I64) \
  X(uint8_t, U8) X(uint16_t, U16) X(uint32_t, U32) X(uint64_t, U64)
#define LANEQL_AGG_FLOAT_TYPES(X) X(float, F32) X(double, F64)
#define LANEQL_AGG_ALL_TYPES(X) LANEQL_AGG_INT_TYPES(X) LANEQL_AGG_FLOAT_TYPES(X)

HWY_BEFORE_NAMESPACE();
namespace laneql {
namespace HWY_NAMESPACE {

#define LANEQL_AGG_INT_SUM_TARGET(T, Name)                                                   \
  IntSum Sum##Name##Target(const T* HWY_RESTRICT x, size_t n, const uint64_t* select,        \
                           const uint64_t* validity) {                                       \
    return SumIntImpl(x, n, select, validity);                                               \
  }
LANEQL_AGG_INT_TYPES(LANEQL_AGG_INT_SUM_TARGET)
#undef LANEQL_AGG_INT_SUM_TARGET

#define LANEQL_AGG_FLOAT_SUM_TARGET(T, Name)                                                 \
  FloatSum Sum##Name##Target(const T* HWY_RESTRICT x, size_t n, const uint64_t* select,      \
                             const uint64_t* validity) {                                     \
    return SumFloatImpl(x, n, select, validity);                                             \
  }                                                                                          \
  uint64_t SumBlocks##Name##Target(const T* HWY_RESTRICT x, size_t n, const uint64_t* select, \
                                   const uint64_t* validity, double* HWY_RESTRICT out) {     \
    return SumFloatBlocksImpl(x, n, select, validity, out);                                  \
  }
LANEQL_AGG_FLOAT_TYPES(LANEQL_AGG_FLOAT_SUM_TARGET)
#undef LANEQL_AGG_FLOAT_SUM_TARGET

#define LANEQL_AGG_MINMAX_TARGET(T, Name)                                                    \
  AggResult<T> Min##Name##Target(const T* HWY_RESTRICT x, size_t n, const uint64_t* select,  \
                                 const uint64_t* validity) {                                 \
    return MinMaxImpl<false>(x, n, select, validity);                                        \
  }                                                                                          \
  AggResult<T> Max##Name##Target(const T* HWY_RESTRICT x, size_t n, const uint64_t* select,  \
                                 const uint64_t* validity) {                                 \
    return MinMaxImpl<true>(x, n, select, validity);                                         \
  }
LANEQL_AGG_ALL_TYPES(LANEQL_AGG_MINMAX_TARGET)
#undef LANEQL_AGG_MINMAX_TARGET

}  // namespace HWY_NAMESPACE
}  // namespace laneql
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <cmath>
#include <limits>

namespace laneql {

#define LANEQL_AGG_EXPORT(T, Name) \
  HWY_EXPORT(Sum##Name##Target);   \
  HWY_EXPORT(Min##Name##Target);   \
  HWY_EXPORT(Max##Name##Target);
LANEQL_AGG_ALL_TYPES(LANEQL_AGG_EXPORT)
#undef LANEQL_AGG_EXPORT
HWY_EXPORT(SumBlocksF32Target);
HWY_EXPORT(SumBlocksF64Target);

namespace {

double CanonicalNaN(double sum) {
  return std::isnan(sum) ? std::numeric_limits<double>::quiet_NaN() : sum;
}

// Overloads by element type, so the public templates below are one line each.
#define LANEQL_AGG_DISPATCH(T, Name)                                                        \
  AggResult<SumValue<T>> SumOf(const T* x, size_t n, const uint64_t* s, const uint64_t* v) { \
    return HWY_DYNAMIC_DISPATCH(Sum##Name##Target)(x, n, s, v);                             \
  }                                                                                         \
  AggResult<T> MinOf(const T* x, size_t n, const uint64_t* s, const uint64_t* v) {          \
    return HWY_DYNAMIC_DISPATCH(Min##Name##Target)(x, n, s, v);                             \
  }                                                                                         \
  AggResult<T> MaxOf(const T* x, size_t n, const uint64_t* s, const uint64_t* v) {          \
    return HWY_DYNAMIC_DISPATCH(Max##Name##Target)(x, n, s, v);                             \
  }
LANEQL_AGG_ALL_TYPES(LANEQL_AGG_DISPATCH)
#undef LANEQL_AGG_DISPATCH

uint64_t SumBlocksOf(const float* x, size_t n, const uint64_t* s, const uint64_t* v,
                     double* out) {
  return HWY_DYNAMIC_DISPATCH(SumBlocksF32Target)(x, n, s, v, out);
}
uint64_t SumBlocksOf(const double* x, size_t n, const uint64_t* s, const uint64_t* v,
                     double* out) {
  return HWY_DYNAMIC_DISPATCH(SumBlocksF64Target)(x, n, s, v, out);
}

}  // namespace

template <class T>
AggResult<SumValue<T>> AggregateSum(const T* data, size_t n, const uint64_t* select,
                                    const uint64_t* validity) {
  AggResult<SumValue<T>> result = SumOf(data, n, select, validity);
  if constexpr (std::is_floating_point_v<T>) result.value = CanonicalNaN(result.value);
  return result;
}
template <class T>
AggResult<T> AggregateMin(const T* data, size_t n, const uint64_t* select,
                          const uint64_t* validity) {
  return MinOf(data, n, select, validity);
}
template <class T>
AggResult<T> AggregateMax(const T* data, size_t n, const uint64_t* select,
                          const uint64_t* validity) {
  return MaxOf(data, n, select, validity);
}
template <class T>
uint64_t AggregateSumBlocks(const T* data, size_t n, const uint64_t* select,
                            const uint64_t* validity, double* block_sums) {
  return SumBlocksOf(data, n, select, validity, block_sums);
}

double FoldBlockSums(const double* block_sums, size_t blocks) {
  double total = 0.0;
  for (size_t b = 0; b < blocks; ++b) total += block_sums[b];
  return CanonicalNaN(total);
}

#define LANEQL_AGG_INSTANTIATE(T, Name)                                                   \
  template AggResult<SumValue<T>> AggregateSum<T>(const T*, size_t, const uint64_t*,      \
                                                  const uint64_t*);                       \
  template AggResult<T> AggregateMin<T>(const T*, size_t, const uint64_t*, const uint64_t*); \
  template AggResult<T> AggregateMax<T>(const T*, size_t, const uint64_t*, const uint64_t*);
LANEQL_AGG_ALL_TYPES(LANEQL_AGG_INSTANTIATE)
#undef LANEQL_AGG_INSTANTIATE
template uint64_t AggregateSumBlocks<float>(const float*, size_t, const uint64_t*,
                                            const uint64_t*, double*);
template uint64_t AggregateSumBlocks<double>(const double*, size_t, const uint64_t*,
                                             const uint64_t*, double*);

}  // namespace laneql
#endif  // HWY_ONCE
