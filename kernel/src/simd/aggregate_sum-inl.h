// SUM kernels, compiled once per SIMD target: exact integer sums and float sums in the order of
// laneql/sum.h, each optionally restricted by select/validity bitmasks (laneql/aggregate.h).
// Both the aggregate family (aggregate.cc) and the original SUM entry points (sum.cc) use them.

// Per-target include guard: re-included once for every target by foreach_target.h.
#if defined(LANEQL_SIMD_AGGREGATE_SUM_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef LANEQL_SIMD_AGGREGATE_SUM_INL_H_
#undef LANEQL_SIMD_AGGREGATE_SUM_INL_H_
#else
#define LANEQL_SIMD_AGGREGATE_SUM_INL_H_
#endif

#include <stddef.h>
#include <stdint.h>

#include "hwy/highway.h"
#include "laneql/aggregate.h"
#include "laneql/sum.h"
#include "src/simd/aggregate_rows-inl.h"

HWY_BEFORE_NAMESPACE();
namespace laneql {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// ---------------------------------------------------------------------------------------------
// Exact integer SUM.
//
// Lanes are summed into uint64 accumulator lanes without ever overflowing them, in chunks of at
// most 2^31 rows, and each chunk's lanes are added into a 128-bit total:
//  - Signed values are biased into unsigned ones first (x ^ sign bit = x + 2^(bits-1)); the
//    bias of the contributing rows, count * 2^(bits-1), is subtracted at the end. Rows that do
//    not contribute are zeroed after the bias, so they add nothing.
//  - 8- and 16-bit lanes are widened into uint64 lanes holding sums of 8 or 4 of them
//    (SumsOf8, SumsOf4; HWY_SCALAR's one uint32 lane is promoted) and added into an
//    accumulator w, which cannot overflow: a whole chunk sums to less than 2^31 * 2^32.
//  - 32- and 64-bit lanes are added as uint64 lanes (a 64-bit lane holds two 32-bit values),
//    with two accumulators: w = sum of the lanes mod 2^64, h = sum of their high 32 bits. The
//    low halves then sum to L = (w - h * 2^32) mod 2^64 exactly, as L < 2^31 * 2^32 < 2^64, and
//    the lane's total is h * 2^32 + L for 64-bit values, h + L for pairs of 32-bit values:
//    add, shift, add per vector, no carries to track.
//  - int64 on targets with a native 64-bit arithmetic shift skips the bias: h sums the signed
//    high halves (x >> 32), and x = (x >> 32) * 2^32 + low half still holds.
// ---------------------------------------------------------------------------------------------

inline constexpr size_t kIntSumChunkRows = size_t{1} << 31;  // a multiple of 64
// x86 before AVX-512 emulates the 64-bit arithmetic shift with several instructions.
inline constexpr bool kNativeShiftRightI64 = !(HWY_ARCH_X86 && HWY_TARGET > HWY_AVX3);

template <typename T>
struct IntSumPlan {
  using TU = hwy::MakeUnsigned<T>;
  // 32/64-bit lanes as uint64 halves; HWY_SCALAR's one-lane vectors cannot be reinterpreted.
  static constexpr bool kHalves = sizeof(T) == 8 || (sizeof(T) == 4 && HWY_TARGET != HWY_SCALAR);
  static constexpr bool kSignedHigh = hwy::IsSigned<T>() && sizeof(T) == 8 && kNativeShiftRightI64;
  static constexpr TU kBias = (hwy::IsSigned<T>() && !kSignedHigh)
                                  ? static_cast<TU>(TU{1} << (sizeof(T) * 8 - 1))
                                  : TU{0};
};

// The uint64 lanes a (biased, masked) vector of T lanes adds to the accumulators.
template <typename T, class V>
HWY_INLINE auto WideLanes(V v) {
  if constexpr (IntSumPlan<T>::kHalves) {
    return hn::BitCast(hn::Repartition<uint64_t, hn::DFromV<V>>(), v);
  } else if constexpr (sizeof(T) == 1) {
    return hn::SumsOf8(v);
  } else if constexpr (sizeof(T) == 2) {
    return hn::SumsOf4(v);
  } else {
    return hn::PromoteTo(hn::Rebind<uint64_t, hn::DFromV<V>>(), v);  // HWY_SCALAR's uint32
  }
}

template <typename T, class VW>
HWY_INLINE void Accumulate(VW wide, VW& w, VW& h) {
  w = hn::Add(w, wide);
  if constexpr (IntSumPlan<T>::kSignedHigh) {
    const hn::RebindToSigned<hn::DFromV<VW>> di;
    h = hn::Add(h, hn::BitCast(hn::DFromV<VW>(), hn::ShiftRight<32>(hn::BitCast(di, wide))));
  } else if constexpr (IntSumPlan<T>::kHalves) {
    h = hn::Add(h, hn::ShiftRight<32>(wide));
  }
}

// The exact sum of all lanes of the accumulators (w, h).
template <typename T, class DW>
HWY_INLINE Int128 AccumulatorTotal(DW dw, hn::Vec<DW> w, hn::Vec<DW> h) {
  HWY_ALIGN uint64_t ws[hn::MaxLanes(dw)];
  HWY_ALIGN uint64_t hs[hn::MaxLanes(dw)];
  hn::Store(w, dw, ws);
  hn::Store(h, dw, hs);
  Int128 total = 0;
  for (size_t l = 0; l < hn::Lanes(dw); ++l) {
    if constexpr (IntSumPlan<T>::kHalves) {
      const uint64_t low_halves = ws[l] - (hs[l] << 32);  // mod 2^64, exact (see above)
      const Int128 high = IntSumPlan<T>::kSignedHigh
                              ? static_cast<Int128>(static_cast<int64_t>(hs[l]))
                              : static_cast<Int128>(hs[l]);
      total += (sizeof(T) == 8 ? high * (Int128{1} << 32) : high) + static_cast<Int128>(low_halves);
    } else {
      total += static_cast<Int128>(ws[l]);
    }
  }
  return total;
}

// Adds the contributing rows (`bits`) of the word of `rows` rows at x; kPartial: rows < 64, so
// loads must stop at x + rows.
template <typename T, bool kPartial, class DU, class VW>
HWY_INLINE void SumIntWord(DU du, const hn::TFromD<DU>* HWY_RESTRICT x, size_t rows,
                           uint64_t bits, VW& w, VW& h) {
  constexpr size_t N = hn::MaxLanes(DU());
  for (size_t off = 0; off < (kPartial ? rows : kWordRows); off += N) {
    auto v = LoadLanes<kPartial>(du, x + off, HWY_MIN(N, rows - off));
    if constexpr (IntSumPlan<T>::kBias != 0) v = hn::Xor(v, hn::Set(du, IntSumPlan<T>::kBias));
    Accumulate<T>(WideLanes<T>(ZeroUnselected(du, bits >> off, v)), w, h);
  }
}

template <typename T>
HWY_INLINE IntSum SumIntImpl(const T* HWY_RESTRICT data, size_t n,
                             const uint64_t* HWY_RESTRICT select,
                             const uint64_t* HWY_RESTRICT validity) {
  using Plan = IntSumPlan<T>;
  using TU = typename Plan::TU;
  const AggTag<TU> du;
  constexpr size_t N = hn::MaxLanes(AggTag<TU>());
  constexpr size_t kVecs = kWordRows / N;
  static_assert(kVecs * N == kWordRows, "a word must be whole vectors");
  const TU* HWY_RESTRICT x = reinterpret_cast<const TU*>(data);  // same-size types may alias
  const auto bias = hn::Set(du, Plan::kBias);
  using VW = decltype(WideLanes<T>(hn::Zero(du)));
#if HWY_HAVE_SCALABLE
  // On SVE, DFromV names the whole hardware vector, which can be wider than AggTag's 128 bits;
  // the lanes past AggTag's hold garbage (Set and Dup128MaskFromMaskBits fill every 128-bit
  // block), so the total must read only AggTag's lanes.
  const hn::Repartition<uint64_t, AggTag<TU>> dw;
#else
  const hn::DFromV<VW> dw;
#endif
  const bool masked = select != nullptr || validity != nullptr;

  Int128 total = 0;
  uint64_t count = 0;
  for (size_t begin = 0; begin < n; begin += kIntSumChunkRows) {
    const size_t end = HWY_MIN(n, begin + kIntSumChunkRows);
    VW w0 = hn::Zero(dw), w1 = hn::Zero(dw), h0 = hn::Zero(dw), h1 = hn::Zero(dw);
    size_t i = begin;
    if (!masked) {  // whole words, no masks: the streaming loop, two independent add chains
      for (; i + kWordRows <= end; i += kWordRows) {
        for (size_t k = 0; k < kVecs; k += 2) {
          auto v0 = hn::LoadU(du, x + i + k * N);
          if constexpr (Plan::kBias != 0) v0 = hn::Xor(v0, bias);
          Accumulate<T>(WideLanes<T>(v0), w0, h0);
          if (k + 1 < kVecs) {
            auto v1 = hn::LoadU(du, x + i + (k + 1) * N);
            if constexpr (Plan::kBias != 0) v1 = hn::Xor(v1, bias);
            Accumulate<T>(WideLanes<T>(v1), w1, h1);
          }
        }
      }
      count += i - begin;
    }
    for (; i + kWordRows <= end; i += kWordRows) {  // masked whole words
      const uint64_t bits = ContributingBits(select, validity, i / kWordRows, n);
      if (bits == 0) continue;
      count += static_cast<uint64_t>(hwy::PopCount(bits));
      SumIntWord<T, false>(du, x + i, kWordRows, bits, w0, h0);
    }
    if (i < end) {  // the last, partial word (only in the last chunk)
      const uint64_t bits = ContributingBits(select, validity, i / kWordRows, n);
      count += static_cast<uint64_t>(hwy::PopCount(bits));
      if (bits != 0) SumIntWord<T, true>(du, x + i, end - i, bits, w0, h0);
    }
    total += AccumulatorTotal<T>(dw, hn::Add(w0, w1), hn::Add(h0, h1));
  }
  // Undo the bias of the contributing rows (zeroed rows never carried it).
  total -= static_cast<Int128>(count) * static_cast<Int128>(Plan::kBias);
  return IntSum{total, count};
}

// ---------------------------------------------------------------------------------------------
// Float SUM in the order of laneql/sum.h, for float64 and float32 (converted to double first).
// ---------------------------------------------------------------------------------------------

// The tag for the double accumulators: kSumAccumulators lanes spread over whole vectors.
// Scalable vectors (SVE, RVV) may be wider than 16 doubles or of unknown width at compile time;
// there 128-bit vectors keep the number of vectors a compile-time constant.
#if HWY_HAVE_SCALABLE
using SumF64Tag = hn::FixedTag<double, 2>;
#else
using SumF64Tag = hn::CappedTag<double, kSumAccumulators>;
#endif

template <class D>
HWY_INLINE hn::Vec<D> LoadAsDouble(D d, const double* HWY_RESTRICT p) {
  return hn::LoadU(d, p);
}
template <class D>
HWY_INLINE hn::Vec<D> LoadAsDouble(D d, const float* HWY_RESTRICT p) {
  return hn::PromoteTo(d, hn::LoadU(hn::Rebind<float, D>(), p));
}
// `count` (1..Lanes(d)) values; the missing lanes are +0.0.
template <class D>
HWY_INLINE hn::Vec<D> LoadPartAsDouble(D d, const double* HWY_RESTRICT p, size_t count) {
  return LoadPart(d, p, count);
}
template <class D>
HWY_INLINE hn::Vec<D> LoadPartAsDouble(D d, const float* HWY_RESTRICT p, size_t count) {
  return hn::PromoteTo(d, LoadPart(hn::Rebind<float, D>(), p, count));
}
template <bool kPartial, class D, typename T>
HWY_INLINE hn::Vec<D> LoadLanesAsDouble(D d, const T* HWY_RESTRICT p, size_t count) {
  if constexpr (kPartial) {
    return LoadPartAsDouble(d, p, count);
  } else {
    (void)count;
    return LoadAsDouble(d, p);
  }
}

// Sum of the block of rows [begin, end) (begin a multiple of kSumBlockRows, end - begin <=
// kSumBlockRows) in the order of laneql/sum.h; rows that do not contribute add +0.0 to their
// accumulator, which leaves it unchanged (an IEEE sum that starts at +0.0 is never -0.0 in
// round-to-nearest, and NaN + 0.0 is NaN), so they are skipped or zeroed, whichever is cheaper.
// Vector k, lane l holds accumulator k * N + l, so row i lands in accumulator i % 16 whatever
// the vector width N. The accumulators are named variables, not an array, because scalable
// vectors cannot be array elements; `if constexpr` drops the ones a wide target does not need.
// Adds the number of contributing rows to *count.
template <typename T>
HWY_INLINE double SumFloatBlock(const T* HWY_RESTRICT x, size_t begin, size_t end, size_t n,
                                const uint64_t* HWY_RESTRICT select,
                                const uint64_t* HWY_RESTRICT validity, uint64_t* count) {
  const SumF64Tag d;
  constexpr size_t N = hn::MaxLanes(SumF64Tag());
  constexpr size_t V = kSumAccumulators / N;  // vectors of accumulators: 1, 2, 4, 8 or 16
  static_assert(V * N == kSumAccumulators, "accumulators must fill whole vectors");
  static_assert(kWordRows % kSumAccumulators == 0 && kSumBlockRows % kWordRows == 0,
                "words must hold whole accumulator rounds, blocks whole words");
  using Vec = hn::Vec<SumF64Tag>;
  const Vec zero = hn::Zero(d);
  Vec a0 = zero, a1 = zero, a2 = zero, a3 = zero, a4 = zero, a5 = zero, a6 = zero, a7 = zero;
  Vec a8 = zero, a9 = zero, a10 = zero, a11 = zero, a12 = zero, a13 = zero, a14 = zero,
      a15 = zero;

#define LANEQL_SUM_ALL_16(STEP) \
  STEP(0) STEP(1) STEP(2) STEP(3) STEP(4) STEP(5) STEP(6) STEP(7) \
  STEP(8) STEP(9) STEP(10) STEP(11) STEP(12) STEP(13) STEP(14) STEP(15)

  size_t i = begin;
  if (select == nullptr && validity == nullptr) {  // whole words, no masks: the streaming loop
    for (; i + kWordRows <= end; i += kWordRows) {
      for (size_t r = i; r < i + kWordRows; r += kSumAccumulators) {
#define LANEQL_SUM_STEP(k) \
  if constexpr (V > k) a##k = hn::Add(a##k, LoadAsDouble(d, x + r + k * N));
        LANEQL_SUM_ALL_16(LANEQL_SUM_STEP)
#undef LANEQL_SUM_STEP
      }
    }
    *count += i - begin;
  }
  // Masked words, then the last partial word: lane l of vector k of a 16-row round adds +0.0
  // instead of its row's value when the row does not contribute.
#define LANEQL_SUM_MASKED(k, kPartial)                                                    \
  if constexpr (V > k) {                                                                  \
    const size_t off = round + k * N;                                                     \
    if (!kPartial || off < rows) {                                                        \
      const Vec v = LoadLanesAsDouble<kPartial>(d, x + i + off, HWY_MIN(N, rows - off));  \
      a##k = hn::Add(a##k, ZeroUnselected(d, bits >> off, v));                            \
    }                                                                                     \
  }
#define LANEQL_SUM_MASKED_WHOLE(k) LANEQL_SUM_MASKED(k, false)
#define LANEQL_SUM_MASKED_PARTIAL(k) LANEQL_SUM_MASKED(k, true)
  for (; i + kWordRows <= end; i += kWordRows) {
    const uint64_t bits = ContributingBits(select, validity, i / kWordRows, n);
    if (bits == 0) continue;
    *count += static_cast<uint64_t>(hwy::PopCount(bits));
    const size_t rows = kWordRows;
    for (size_t round = 0; round < kWordRows; round += kSumAccumulators) {
      LANEQL_SUM_ALL_16(LANEQL_SUM_MASKED_WHOLE)
    }
  }
  if (i < end) {
    const uint64_t bits = ContributingBits(select, validity, i / kWordRows, n);
    *count += static_cast<uint64_t>(hwy::PopCount(bits));
    const size_t rows = end - i;
    for (size_t round = 0; round < rows && bits != 0; round += kSumAccumulators) {
      LANEQL_SUM_ALL_16(LANEQL_SUM_MASKED_PARTIAL)
    }
  }
#undef LANEQL_SUM_MASKED_PARTIAL
#undef LANEQL_SUM_MASKED_WHOLE
#undef LANEQL_SUM_MASKED

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

// Writes the block sums of rows [0, n); returns the number of contributing rows.
template <typename T>
HWY_INLINE uint64_t SumFloatBlocksImpl(const T* HWY_RESTRICT x, size_t n,
                                       const uint64_t* HWY_RESTRICT select,
                                       const uint64_t* HWY_RESTRICT validity,
                                       double* HWY_RESTRICT block_sums) {
  uint64_t count = 0;
  for (size_t begin = 0, b = 0; begin < n; begin += kSumBlockRows, ++b) {
    const size_t end = HWY_MIN(n, begin + kSumBlockRows);
    block_sums[b] = SumFloatBlock(x, begin, end, n, select, validity, &count);
  }
  return count;
}

// The block sums of rows [0, n) added in block order from +0.0 (NaN left as the adds made it).
template <typename T>
HWY_INLINE FloatSum SumFloatImpl(const T* HWY_RESTRICT x, size_t n,
                                 const uint64_t* HWY_RESTRICT select,
                                 const uint64_t* HWY_RESTRICT validity) {
  FloatSum result;  // +0.0, no rows
  for (size_t begin = 0; begin < n; begin += kSumBlockRows) {
    const size_t end = HWY_MIN(n, begin + kSumBlockRows);
    result.value += SumFloatBlock(x, begin, end, n, select, validity, &result.count);
  }
  return result;
}

}  // namespace HWY_NAMESPACE
}  // namespace laneql
HWY_AFTER_NAMESPACE();

#endif  // LANEQL_SIMD_AGGREGATE_SUM_INL_H_
