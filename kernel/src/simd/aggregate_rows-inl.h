// Row selection shared by the aggregate kernels (per target): which rows of a 64-row word
// contribute, and lane masks for a vector's share of that word.
//
// Every aggregate kernel walks its input in 64-row words, the granularity of laneql/bitmask.h:
// one select word and one validity word cover exactly 64 rows, so a word whose rows all
// contribute takes the unmasked path, a word with none is skipped, and only mixed words pay for
// lane masks.

// Per-target include guard: re-included once for every target by foreach_target.h.
#if defined(LANEQL_SIMD_AGGREGATE_ROWS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef LANEQL_SIMD_AGGREGATE_ROWS_INL_H_
#undef LANEQL_SIMD_AGGREGATE_ROWS_INL_H_
#else
#define LANEQL_SIMD_AGGREGATE_ROWS_INL_H_
#endif

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "hwy/highway.h"
#include "laneql/bitmask.h"

HWY_BEFORE_NAMESPACE();
namespace laneql {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

inline constexpr size_t kWordRows = 64;

// The vector tag of the aggregate kernels for lanes of T: whole vectors of at most 64 lanes, so
// a 64-row word is a whole number of vectors on every target (1 vector of 64 uint8 on AVX-512,
// 64 vectors of 1 lane on HWY_SCALAR). Scalable vectors (SVE, RVV) use 128-bit vectors, whose
// lane count is a compile-time power of two.
#if HWY_HAVE_SCALABLE
template <class T>
using AggTag = hn::FixedTag<T, 16 / sizeof(T)>;
#else
template <class T>
using AggTag = hn::CappedTag<T, kWordRows>;
#endif

// Rows of word w that contribute: selected, non-null and below n (bits past the range's end may
// belong to the next rows of the column the masks describe, so they are cleared here).
HWY_INLINE uint64_t ContributingBits(const uint64_t* select, const uint64_t* validity, size_t w,
                                     size_t n) {
  uint64_t bits = ~uint64_t{0};
  if (select != nullptr) bits &= select[w];
  if (validity != nullptr) bits &= validity[w];
  if ((w + 1) * kWordRows > n) bits &= BitmaskTailMask(n);
  return bits;
}

// Lane l of the result is bit l of `bits` (the lanes of d take the low Lanes(d) bits).
template <class D>
HWY_INLINE hn::Mask<D> LaneMask(D d, uint64_t bits) {
  constexpr size_t N = hn::MaxLanes(D());
  if constexpr (N * sizeof(hn::TFromD<D>) <= 16) {
    // At most 16 lanes in at most 128 bits (HWY_SCALAR's single lane included): from a register.
    return hn::Dup128MaskFromMaskBits(d, static_cast<unsigned>(bits & ((uint64_t{1} << N) - 1)));
  } else {
    // LoadMaskBits wants the bits as little-endian bytes, up to 8 of them.
    uint8_t bytes[8];
#if HWY_IS_LITTLE_ENDIAN
    memcpy(bytes, &bits, sizeof(bytes));
#else
    for (size_t i = 0; i < 8; ++i) bytes[i] = static_cast<uint8_t>(bits >> (8 * i));
#endif
    return hn::LoadMaskBits(d, bytes);
  }
}

// All ones if bit 0 of `bits` is set, else zero, as a one-lane vector: HWY_SCALAR's mask.
// Compilers turn a one-lane IfThenElse into a branch, which mispredicts on random masks; this
// arithmetic does not.
template <class D>
HWY_INLINE hn::Vec<D> OneLaneMask(D d, uint64_t bits) {
  const hn::RebindToUnsigned<D> du;
  using TU = hn::TFromD<decltype(du)>;
  return hn::BitCast(d, hn::Set(du, static_cast<TU>(TU{0} - static_cast<TU>(bits & 1))));
}

// v in the lanes whose bit is set in `bits` (lane l: bit l), zero in the others.
template <class D>
HWY_INLINE hn::Vec<D> ZeroUnselected(D d, uint64_t bits, hn::Vec<D> v) {
  if constexpr (hn::MaxLanes(D()) == 1) {
    return hn::And(OneLaneMask(d, bits), v);
  } else {
    return hn::IfThenElseZero(LaneMask(d, bits), v);
  }
}

// v in the lanes whose bit is set in `bits`, `other` in the others.
template <class D>
HWY_INLINE hn::Vec<D> OtherUnselected(D d, uint64_t bits, hn::Vec<D> v, hn::Vec<D> other) {
  if constexpr (hn::MaxLanes(D()) == 1) {
    const hn::Vec<D> m = OneLaneMask(d, bits);
    return hn::Or(hn::And(m, v), hn::AndNot(m, other));
  } else {
    return hn::IfThenElse(LaneMask(d, bits), v, other);
  }
}

// Loads the `count` lanes (1..Lanes(d)) at p; missing lanes read as zero, nothing past
// p + count is touched.
template <class D, typename T>
HWY_INLINE hn::Vec<D> LoadPart(D d, const T* HWY_RESTRICT p, size_t count) {
  return count == hn::Lanes(d) ? hn::LoadU(d, p) : hn::LoadN(d, p, count);
}

// A whole vector at p, or (kPartial) the `count` lanes at p as LoadPart.
template <bool kPartial, class D, typename T>
HWY_INLINE hn::Vec<D> LoadLanes(D d, const T* HWY_RESTRICT p, size_t count) {
  if constexpr (kPartial) {
    return LoadPart(d, p, count);
  } else {
    (void)count;
    return hn::LoadU(d, p);
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace laneql
HWY_AFTER_NAMESPACE();

#endif  // LANEQL_SIMD_AGGREGATE_ROWS_INL_H_
