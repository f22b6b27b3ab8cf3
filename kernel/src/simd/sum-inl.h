// SUM kernels, compiled once per SIMD target (Highway's per-target include pattern).
// The float64 order is the one laneql/sum.h defines; the scalar reference follows it too.

// Per-target include guard: re-included once for every target by foreach_target.h.
#if defined(LANEQL_SIMD_SUM_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef LANEQL_SIMD_SUM_INL_H_
#undef LANEQL_SIMD_SUM_INL_H_
#else
#define LANEQL_SIMD_SUM_INL_H_
#endif

#include <stddef.h>
#include <stdint.h>

#include "hwy/highway.h"
#include "laneql/sum.h"

HWY_BEFORE_NAMESPACE();
namespace laneql {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The tag for the float64 accumulators: kSumAccumulators lanes spread over whole vectors.
// Scalable vectors (SVE, RVV) may be wider than 16 doubles or of unknown width at compile time;
// there 128-bit vectors keep the number of vectors a compile-time constant.
#if HWY_HAVE_SCALABLE
using SumF64Tag = hn::FixedTag<double, 2>;
#else
using SumF64Tag = hn::CappedTag<double, kSumAccumulators>;
#endif

// Sum of one block (n <= kSumBlockRows) in the order of laneql/sum.h. Vector k, lane l holds
// accumulator k * N + l, so row i lands in accumulator i % 16 whatever the vector width N.
// The accumulators are named variables, not an array, because scalable vectors cannot be
// array elements; `if constexpr` drops the ones a wide target does not need.
HWY_INLINE double SumFloat64Block(const double* HWY_RESTRICT x, size_t n) {
  const SumF64Tag d;
  constexpr size_t N = hn::MaxLanes(SumF64Tag());
  constexpr size_t V = kSumAccumulators / N;  // vectors of accumulators: 1, 2, 4, 8 or 16
  static_assert(V * N == kSumAccumulators, "accumulators must fill whole vectors");
  using Vec = hn::Vec<SumF64Tag>;
  const Vec zero = hn::Zero(d);
  Vec a0 = zero, a1 = zero, a2 = zero, a3 = zero, a4 = zero, a5 = zero, a6 = zero, a7 = zero;
  Vec a8 = zero, a9 = zero, a10 = zero, a11 = zero, a12 = zero, a13 = zero, a14 = zero,
      a15 = zero;

#define LANEQL_SUM_ALL_16(STEP) \
  STEP(0) STEP(1) STEP(2) STEP(3) STEP(4) STEP(5) STEP(6) STEP(7) \
  STEP(8) STEP(9) STEP(10) STEP(11) STEP(12) STEP(13) STEP(14) STEP(15)

  size_t i = 0;
  for (; i + kSumAccumulators <= n; i += kSumAccumulators) {
#define LANEQL_SUM_STEP(k) \
  if constexpr (V > k) a##k = hn::Add(a##k, hn::LoadU(d, x + i + k * N));
    LANEQL_SUM_ALL_16(LANEQL_SUM_STEP)
#undef LANEQL_SUM_STEP
  }
  // Tail of fewer than 16 rows: missing lanes load as +0.0, and acc + 0.0 == acc for every acc
  // an IEEE sum starting at +0.0 can reach (it is never -0.0 in round-to-nearest), NaN included.
  const size_t rest = n - i;
  if (rest != 0) {
#define LANEQL_SUM_TAIL(k)                                                       \
  if constexpr (V > k) {                                                         \
    if (rest > k * N) {                                                          \
      const size_t count = HWY_MIN(N, rest - k * N);                             \
      a##k = hn::Add(a##k, hn::LoadN(d, x + i + k * N, count));                  \
    }                                                                            \
  }
    LANEQL_SUM_ALL_16(LANEQL_SUM_TAIL)
#undef LANEQL_SUM_TAIL
  }

  HWY_ALIGN double acc[kSumAccumulators];
#define LANEQL_SUM_STORE(k) \
  if constexpr (V > k) hn::Store(a##k, d, acc + k * N);
  LANEQL_SUM_ALL_16(LANEQL_SUM_STORE)
#undef LANEQL_SUM_STORE
#undef LANEQL_SUM_ALL_16

  for (size_t width = kSumAccumulators / 2; width != 0; width /= 2) {
    for (size_t j = 0; j < width; ++j) acc[j] = acc[j] + acc[j + width];
  }
  return acc[0];
}

HWY_INLINE void SumFloat64BlocksImpl(const double* HWY_RESTRICT x, size_t n,
                                     double* HWY_RESTRICT block_sums) {
  for (size_t begin = 0, b = 0; begin < n; begin += kSumBlockRows, ++b) {
    block_sums[b] = SumFloat64Block(x + begin, HWY_MIN(kSumBlockRows, n - begin));
  }
}

HWY_INLINE double SumFloat64Impl(const double* HWY_RESTRICT x, size_t n) {
  double total = 0.0;
  for (size_t begin = 0; begin < n; begin += kSumBlockRows) {
    total += SumFloat64Block(x + begin, HWY_MIN(kSumBlockRows, n - begin));
  }
  return total;
}

// Exact int64 sum. Each value is split into its signed high and unsigned low 32 bits, summed in
// separate 64-bit lanes: a lane absorbs 2^31 values of either part without overflow (|high| <=
// 2^31, low < 2^32), so chunks of at most 2^31 rows are flushed into a 128-bit total.
HWY_INLINE Int128 SumInt64Impl(const int64_t* HWY_RESTRICT x, size_t n) {
  const hn::ScalableTag<int64_t> d;
  const hn::RebindToUnsigned<decltype(d)> du;
  const size_t N = hn::Lanes(d);
  const auto low_mask = hn::Set(du, 0xFFFFFFFFull);
  constexpr size_t kChunk = size_t{1} << 31;
  Int128 total = 0;
  while (n != 0) {
    const size_t chunk = HWY_MIN(n, kChunk);
    auto hi0 = hn::Zero(d), hi1 = hn::Zero(d);
    auto lo0 = hn::Zero(du), lo1 = hn::Zero(du);
    size_t i = 0;
    for (; i + 2 * N <= chunk; i += 2 * N) {
      const auto v0 = hn::LoadU(d, x + i);
      const auto v1 = hn::LoadU(d, x + i + N);
      hi0 = hn::Add(hi0, hn::ShiftRight<32>(v0));
      hi1 = hn::Add(hi1, hn::ShiftRight<32>(v1));
      lo0 = hn::Add(lo0, hn::And(hn::BitCast(du, v0), low_mask));
      lo1 = hn::Add(lo1, hn::And(hn::BitCast(du, v1), low_mask));
    }
    for (; i < chunk; i += N) {  // at most two more (partial) vectors; LoadN zero-fills
      const auto v = hn::LoadN(d, x + i, HWY_MIN(N, chunk - i));
      hi0 = hn::Add(hi0, hn::ShiftRight<32>(v));
      lo0 = hn::Add(lo0, hn::And(hn::BitCast(du, v), low_mask));
    }
    HWY_ALIGN int64_t hi[hn::MaxLanes(d)];
    HWY_ALIGN uint64_t lo[hn::MaxLanes(du)];
    hn::Store(hn::Add(hi0, hi1), d, hi);  // still <= 2^31 values per lane together
    hn::Store(hn::Add(lo0, lo1), du, lo);
    for (size_t l = 0; l < N; ++l) {
      total += static_cast<Int128>(hi[l]) * (Int128{1} << 32) + static_cast<Int128>(lo[l]);
    }
    x += chunk;
    n -= chunk;
  }
  return total;
}

}  // namespace HWY_NAMESPACE
}  // namespace laneql
HWY_AFTER_NAMESPACE();

#endif  // LANEQL_SIMD_SUM_INL_H_
