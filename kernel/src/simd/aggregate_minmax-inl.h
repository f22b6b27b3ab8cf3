// MIN and MAX kernels, compiled once per SIMD target, optionally restricted by select/validity
// bitmasks; the float order is the one laneql/aggregate.h defines (DuckDB's, -0.0 < +0.0).

// Per-target include guard: re-included once for every target by foreach_target.h.
#if defined(LANEQL_SIMD_AGGREGATE_MINMAX_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef LANEQL_SIMD_AGGREGATE_MINMAX_INL_H_
#undef LANEQL_SIMD_AGGREGATE_MINMAX_INL_H_
#else
#define LANEQL_SIMD_AGGREGATE_MINMAX_INL_H_
#endif

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <limits>
#include <type_traits>

#include "hwy/highway.h"
#include "laneql/aggregate.h"
#include "src/simd/aggregate_rows-inl.h"

HWY_BEFORE_NAMESPACE();
namespace laneql {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Floats are compared through integer keys of their width whose signed order is the float order
// of laneql/aggregate.h: non-negative floats keep their bits (larger float, larger bits),
// negative ones flip every bit but the sign (larger magnitude, lower key; -0.0 becomes -1, just
// below +0.0's 0), and every NaN becomes the largest key. Integer MIN/MAX then gives the same
// answer on every target, with no dependence on how a target's float min/max treats NaN or
// signed zeros. Integers are their own keys.
template <typename T>
using KeyOf = std::conditional_t<std::is_same_v<T, float>, int32_t,
                                 std::conditional_t<std::is_same_v<T, double>, int64_t, T>>;

template <class DK, class V>
HWY_INLINE hn::Vec<DK> ToKey(DK dk, V v) {
  if constexpr (hwy::IsFloat<hn::TFromV<V>>()) {
    const hn::RebindToUnsigned<DK> du;
    const auto bits = hn::BitCast(dk, v);
    // All ones but the sign bit for negative values, zero otherwise.
    const auto sign = hn::BitCast(du, hn::BroadcastSignBit(bits));
    const auto flip = hn::BitCast(dk, hn::ShiftRight<1>(sign));
    const auto nan_key = hn::Set(dk, hwy::LimitsMax<hn::TFromD<DK>>());
    return hn::IfThenElse(hn::RebindMask(dk, hn::IsNaN(v)), nan_key, hn::Xor(bits, flip));
  } else {
    (void)dk;
    return v;
  }
}

// Back from a key to its value; the NaN key gives the canonical quiet NaN.
template <typename T, typename K>
HWY_INLINE T FromKey(K key) {
  if constexpr (std::is_floating_point_v<T>) {
    if (key == hwy::LimitsMax<K>()) return std::numeric_limits<T>::quiet_NaN();
    const K bits = key < 0 ? static_cast<K>(key ^ hwy::LimitsMax<K>()) : key;
    T value;
    memcpy(&value, &bits, sizeof(value));
    return value;
  } else {
    return key;
  }
}

template <bool kMax, class V>
HWY_INLINE V MinOrMax(V a, V b) {
  if constexpr (kMax) {
    return hn::Max(a, b);
  } else {
    return hn::Min(a, b);
  }
}

// Folds the contributing rows (`bits`) of the word of `rows` rows at x into acc; rows that do
// not contribute take the identity. kPartial: rows < 64, so loads must stop at x + rows.
template <bool kMax, bool kPartial, class D, class DK>
HWY_INLINE void MinMaxWord(D d, DK dk, const hn::TFromD<D>* HWY_RESTRICT x, size_t rows,
                           uint64_t bits, hn::Vec<DK> identity, hn::Vec<DK>& acc) {
  constexpr size_t N = hn::MaxLanes(D());
  for (size_t off = 0; off < (kPartial ? rows : kWordRows); off += N) {
    const auto key = ToKey(dk, LoadLanes<kPartial>(d, x + off, HWY_MIN(N, rows - off)));
    acc = MinOrMax<kMax>(acc, OtherUnselected(dk, bits >> off, key, identity));
  }
}

// MIN (kMax false) or MAX (kMax true) of the contributing rows of [0, n).
template <bool kMax, typename T>
HWY_INLINE AggResult<T> MinMaxImpl(const T* HWY_RESTRICT x, size_t n,
                                   const uint64_t* HWY_RESTRICT select,
                                   const uint64_t* HWY_RESTRICT validity) {
  using K = KeyOf<T>;
  const AggTag<T> d;
  const hn::Rebind<K, decltype(d)> dk;
  constexpr size_t N = hn::MaxLanes(AggTag<T>());
  constexpr size_t kVecs = kWordRows / N;
  static_assert(kVecs * N == kWordRows, "a word must be whole vectors");
  // Rows that do not contribute take the value that cannot win. For float MAX that key
  // (LimitsMin) is no float's key, so it never leaks into a result with count > 0.
  const K kIdentity = kMax ? hwy::LimitsMin<K>() : hwy::LimitsMax<K>();
  const auto identity = hn::Set(dk, kIdentity);
  auto acc0 = identity, acc1 = identity;
  uint64_t count = 0;

  size_t i = 0;
  if (select == nullptr && validity == nullptr) {  // whole words, no masks: the streaming loop
    for (; i + kWordRows <= n; i += kWordRows) {
      for (size_t k = 0; k < kVecs; k += 2) {
        acc0 = MinOrMax<kMax>(acc0, ToKey(dk, hn::LoadU(d, x + i + k * N)));
        if (k + 1 < kVecs) {
          acc1 = MinOrMax<kMax>(acc1, ToKey(dk, hn::LoadU(d, x + i + (k + 1) * N)));
        }
      }
    }
    count += i;
  }
  for (; i + kWordRows <= n; i += kWordRows) {  // masked whole words
    const uint64_t bits = ContributingBits(select, validity, i / kWordRows, n);
    if (bits == 0) continue;
    count += static_cast<uint64_t>(hwy::PopCount(bits));
    MinMaxWord<kMax, false>(d, dk, x + i, kWordRows, bits, identity, acc0);
  }
  if (i < n) {  // the last, partial word
    const uint64_t bits = ContributingBits(select, validity, i / kWordRows, n);
    count += static_cast<uint64_t>(hwy::PopCount(bits));
    if (bits != 0) MinMaxWord<kMax, true>(d, dk, x + i, n - i, bits, identity, acc1);
  }

  HWY_ALIGN K lanes[hn::MaxLanes(decltype(dk)())];
  hn::Store(MinOrMax<kMax>(acc0, acc1), dk, lanes);
  K best = kIdentity;
  for (size_t l = 0; l < hn::Lanes(dk); ++l) {
    best = kMax ? HWY_MAX(best, lanes[l]) : HWY_MIN(best, lanes[l]);
  }
  if (count == 0) return AggResult<T>{};
  return AggResult<T>{FromKey<T>(best), count};
}

}  // namespace HWY_NAMESPACE
}  // namespace laneql
HWY_AFTER_NAMESPACE();

#endif  // LANEQL_SIMD_AGGREGATE_MINMAX_INL_H_
