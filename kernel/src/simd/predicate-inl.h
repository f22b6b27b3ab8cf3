// Predicate kernels, compiled once per SIMD target (Highway's per-target include pattern).
//
// Only three comparisons are compiled per type and target: x == c, x < c and x <= c. The public
// wrappers (predicate.cc) map the six SQL operators, DuckDB's NaN order and NULLs onto them:
// x <> c is NOT (x == c), x >= c is NOT (x < c), x > c is NOT (x <= c), where the NOT is an XOR
// of the finished 64-bit word (`flip`), so it costs nothing per row. That keeps the code
// generated per target at 3 compare loops + BETWEEN + IN per type instead of 6 + 2.

// Per-target include guard: re-included once for every target by foreach_target.h.
#if defined(LANEQL_SIMD_PREDICATE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef LANEQL_SIMD_PREDICATE_INL_H_
#undef LANEQL_SIMD_PREDICATE_INL_H_
#else
#define LANEQL_SIMD_PREDICATE_INL_H_
#endif

#include <stddef.h>
#include <stdint.h>

#include "hwy/highway.h"
#include "laneql/bitmask.h"

HWY_BEFORE_NAMESPACE();
namespace laneql {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The comparisons the kernels implement; the public wrappers reduce the six SQL ones to these.
enum PredicateCoreOp : int { kCoreEq = 0, kCoreLt = 1, kCoreLe = 2 };

// At most 64 lanes, so one vector never spans two mask words. Lane counts are powers of two
// (SVE included, as Highway rounds its vectors down to one), so 64 / Lanes vectors fill a word.
template <typename T>
using PredicateTag = hn::CappedTag<T, 64>;

// The mask's lane bits, lane 0 in bit 0. StoreMaskBits writes whole bytes, (lanes + 7) / 8 of
// them (for fewer than 8 lanes, the unused high bits of its one byte are 0).
template <class D>
HWY_INLINE uint64_t MaskLaneBits(D d, hn::Mask<D> m) {
#if HWY_HAVE_SCALABLE || HWY_IS_BIG_ENDIAN
  // Lane count known only at run time (or bytes in the wrong order for a plain copy).
  uint8_t bytes[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  hn::StoreMaskBits(d, m, bytes);
  uint64_t bits = 0;
  for (int b = 7; b >= 0; --b) bits = (bits << 8) | bytes[b];
  return bits;
#else
  // Read back exactly the bytes written, as an integer of that size (1, 2, 4 or 8 bytes, as
  // lane counts are powers of two): the compiler then keeps it in a register (e.g. one KMOV).
  constexpr size_t kBytes = (hn::MaxLanes(D()) + 7) / 8;
  uint8_t bytes[8];
  hn::StoreMaskBits(d, m, bytes);
  hwy::UnsignedFromSize<kBytes> bits;
  hwy::CopyBytes<kBytes>(bytes, &bits);
  return bits;
#endif
}

// One whole mask word: 64 rows starting at x, 64 / Lanes(d) independent loads and compares.
// Lanes(d) is a compile-time constant on fixed-width targets, so the loop unrolls completely,
// unless kUnroll is false: a predicate that is itself many independent compares (IN) has enough
// work per vector to unroll only 4 times; unrolling its 16 compares 32 times (int64 on SSE4)
// made functions so large that the sanitizer build of this file took minutes.
template <bool kUnroll, class D, class Pred>
HWY_INLINE uint64_t PredicateWord(D d, const hn::TFromD<D>* HWY_RESTRICT x, const Pred& pred) {
  const size_t N = hn::Lanes(d);
  uint64_t bits = 0;
  if constexpr (kUnroll && HWY_TARGET != HWY_SCALAR) {
    HWY_UNROLL(64)
    for (size_t j = 0; j < 64; j += N) bits |= MaskLaneBits(d, pred(hn::LoadU(d, x + j))) << j;
  } else if constexpr (HWY_TARGET != HWY_SCALAR) {
    HWY_UNROLL(4)
    for (size_t j = 0; j < 64; j += N) bits |= MaskLaneBits(d, pred(hn::LoadU(d, x + j))) << j;
  } else {
    // One lane per vector: unrolling 64 rows times 10 types and 7 predicates made this
    // fallback target 80 % of the object code and of the compile time, for no gain.
    HWY_UNROLL(1)
    for (size_t j = 0; j < 64; j += N) bits |= MaskLaneBits(d, pred(hn::LoadU(d, x + j))) << j;
  }
  return bits;
}

// The last, partial word: `rest` < 64 rows, read with LoadN so nothing past row `rest` is
// touched. Lanes past the end load as 0 and may compare true; the caller clears their bits.
template <class D, class Pred>
HWY_INLINE uint64_t PredicatePartialWord(D d, const hn::TFromD<D>* HWY_RESTRICT x, size_t rest,
                                         const Pred& pred) {
  const size_t N = hn::Lanes(d);
  uint64_t bits = 0;
  for (size_t j = 0; j < rest; j += N) {
    bits |= MaskLaneBits(d, pred(hn::LoadN(d, x + j, HWY_MIN(N, rest - j)))) << j;
  }
  return bits;
}

// The shared loop of every predicate: out word w = (pred bits XOR flip) AND validity, and bits
// past `rows` cleared.
template <bool kUnroll = true, typename T, class Pred>
HWY_INLINE void PredicateToMask(const T* HWY_RESTRICT x, size_t rows, const Pred& pred,
                                uint64_t flip, const uint64_t* HWY_RESTRICT validity,
                                uint64_t* HWY_RESTRICT out) {
  const PredicateTag<T> d;
  const size_t full_words = rows / 64;
  // One loop for both cases (a predictable branch per 64 rows), not one copy of the unrolled
  // word per case: half the code per predicate.
  for (size_t w = 0; w < full_words; ++w) {
    const uint64_t valid = validity == nullptr ? ~uint64_t{0} : validity[w];
    out[w] = (PredicateWord<kUnroll>(d, x + w * 64, pred) ^ flip) & valid;
  }
  const size_t rest = rows % 64;
  if (rest != 0) {
    const uint64_t bits = PredicatePartialWord(d, x + full_words * 64, rest, pred) ^ flip;
    const uint64_t valid = validity == nullptr ? ~uint64_t{0} : validity[full_words];
    out[full_words] = bits & valid & BitmaskTailMask(rows);
  }
}

// x <op> c for op in {==, <, <=}, with IEEE float semantics (NaN compares false); the op is
// chosen once, outside the loop.
template <typename T>
HWY_INLINE void CompareImpl(const T* HWY_RESTRICT x, size_t rows, int core_op, T c,
                            uint64_t flip, const uint64_t* HWY_RESTRICT validity,
                            uint64_t* HWY_RESTRICT out) {
  // The lambdas capture the scalar and broadcast it inside (hoisted out of the loop once
  // inlined): SVE vectors are sizeless and cannot be captured (g++ 12 crashes on it).
  const PredicateTag<T> d;
  switch (core_op) {
    case kCoreEq:
      PredicateToMask(x, rows, [d, c](auto v) HWY_ATTR { return hn::Eq(v, hn::Set(d, c)); },
                      flip, validity, out);
      break;
    case kCoreLt:
      PredicateToMask(x, rows, [d, c](auto v) HWY_ATTR { return hn::Lt(v, hn::Set(d, c)); },
                      flip, validity, out);
      break;
    default:
      PredicateToMask(x, rows, [d, c](auto v) HWY_ATTR { return hn::Le(v, hn::Set(d, c)); },
                      flip, validity, out);
      break;
  }
}

// (x & bits) == value, on 64-bit words (no NaN question: bit patterns).
HWY_INLINE void MaskedEqualImpl(const uint64_t* HWY_RESTRICT x, size_t rows, uint64_t bits,
                                uint64_t value, const uint64_t* validity, uint64_t* out) {
  const PredicateTag<uint64_t> d;  // scalars captured: see CompareImpl
  PredicateToMask(
      x, rows,
      [d, bits, value](auto v) HWY_ATTR {
        return hn::Eq(hn::And(v, hn::Set(d, bits)), hn::Set(d, value));
      },
      0, validity, out);
}

// lo <= x AND x <= hi with IEEE semantics: a NaN x is outside every range with non-NaN bounds,
// which is DuckDB's answer too (NaN is above hi). NaN bounds are mapped away by the caller.
template <typename T>
HWY_INLINE void BetweenImpl(const T* HWY_RESTRICT x, size_t rows, T lo, T hi,
                            const uint64_t* HWY_RESTRICT validity, uint64_t* HWY_RESTRICT out) {
  const PredicateTag<T> d;  // bounds captured as scalars: see CompareImpl
  PredicateToMask(
      x, rows,
      [d, lo, hi](auto v) HWY_ATTR {
        return hn::And(hn::Le(hn::Set(d, lo), v), hn::Le(v, hn::Set(d, hi)));
      },
      0, validity, out);
}

// x == list[0] OR ... OR x == list[K - 1] (no NaN in the list), OR x is NaN when match_nan.
// K is a compile-time constant (4, 8 or 16; the caller pads shorter lists by repeating a
// constant) so the compares unroll into independent instructions and the broadcasts leave the
// loop: with a run-time count the per-constant loop was 3 to 4 times slower.
template <size_t K, typename T>
HWY_INLINE void InListImpl(const T* HWY_RESTRICT x, size_t rows, const T* HWY_RESTRICT list,
                           bool match_nan, const uint64_t* HWY_RESTRICT validity,
                           uint64_t* HWY_RESTRICT out) {
  const PredicateTag<T> d;
  PredicateToMask</*kUnroll=*/false>(
      x, rows,
      [d, list, match_nan](auto v) HWY_ATTR {
        auto m = hn::Eq(v, hn::Set(d, list[0]));
        HWY_UNROLL(16)
        for (size_t k = 1; k < K; ++k) m = hn::Or(m, hn::Eq(v, hn::Set(d, list[k])));
        if constexpr (hwy::IsFloat<T>()) {
          if (match_nan) m = hn::Or(m, hn::IsNaN(v));
        } else {
          (void)match_nan;
        }
        return m;
      },
      0, validity, out);
}

// Dispatches on the padded list length (count <= kInListSimdMax, padded to 4, 8 or 16).
template <typename T>
HWY_INLINE void InListPaddedImpl(const T* HWY_RESTRICT x, size_t rows,
                                 const T* HWY_RESTRICT list, size_t padded_count, bool match_nan,
                                 const uint64_t* HWY_RESTRICT validity,
                                 uint64_t* HWY_RESTRICT out) {
  if (padded_count <= 4) return InListImpl<4>(x, rows, list, match_nan, validity, out);
  if (padded_count <= 8) return InListImpl<8>(x, rows, list, match_nan, validity, out);
  InListImpl<16>(x, rows, list, match_nan, validity, out);
}

// ------------------------------ two columns

// x[i] <op> y[i] for op in {==, <, <=}, a word of 64 rows at a time like PredicateToMask; the
// row is valid where both columns are. Floats follow DuckDB's total order here (NaN equals NaN
// and is above everything), so that NOT of the word (`flip`) gives <>, >= and > in that order too.
template <int kOp, class D>
HWY_INLINE hn::Mask<D> CompareVectors(D, hn::Vec<D> a, hn::Vec<D> b) {
  if constexpr (hwy::IsFloat<hn::TFromD<D>>()) {
    if constexpr (kOp == kCoreEq) return hn::Or(hn::Eq(a, b), hn::And(hn::IsNaN(a), hn::IsNaN(b)));
    if constexpr (kOp == kCoreLt) return hn::Or(hn::Lt(a, b), hn::AndNot(hn::IsNaN(a), hn::IsNaN(b)));
    if constexpr (kOp == kCoreLe) return hn::Or(hn::Le(a, b), hn::IsNaN(b));
  } else {
    if constexpr (kOp == kCoreEq) return hn::Eq(a, b);
    if constexpr (kOp == kCoreLt) return hn::Lt(a, b);
    if constexpr (kOp == kCoreLe) return hn::Le(a, b);
  }
}

template <int kOp, typename T>
HWY_INLINE void CompareColumnsLoop(const T* HWY_RESTRICT x, const T* HWY_RESTRICT y, size_t rows,
                                   uint64_t flip, const uint64_t* HWY_RESTRICT valid_x,
                                   const uint64_t* HWY_RESTRICT valid_y, uint64_t* HWY_RESTRICT out) {
  const PredicateTag<T> d;
  const size_t N = hn::Lanes(d);
  const auto valid = [valid_x, valid_y](size_t w) {
    return (valid_x == nullptr ? ~uint64_t{0} : valid_x[w]) & (valid_y == nullptr ? ~uint64_t{0} : valid_y[w]);
  };
  const size_t full_words = rows / 64;
  for (size_t w = 0; w < full_words; ++w) {
    const T* HWY_RESTRICT a = x + w * 64;
    const T* HWY_RESTRICT b = y + w * 64;
    uint64_t bits = 0;
    for (size_t j = 0; j < 64; j += N) {
      bits |= MaskLaneBits(d, CompareVectors<kOp>(d, hn::LoadU(d, a + j), hn::LoadU(d, b + j))) << j;
    }
    out[w] = (bits ^ flip) & valid(w);
  }
  const size_t rest = rows % 64;
  if (rest != 0) {
    const T* HWY_RESTRICT a = x + full_words * 64;
    const T* HWY_RESTRICT b = y + full_words * 64;
    uint64_t bits = 0;
    for (size_t j = 0; j < rest; j += N) {
      const size_t n = HWY_MIN(N, rest - j);
      bits |= MaskLaneBits(d, CompareVectors<kOp>(d, hn::LoadN(d, a + j, n), hn::LoadN(d, b + j, n))) << j;
    }
    out[full_words] = (bits ^ flip) & valid(full_words) & BitmaskTailMask(rows);
  }
}

// The op chosen once, outside the loop.
template <typename T>
HWY_INLINE void CompareColumnsImpl(const T* HWY_RESTRICT x, const T* HWY_RESTRICT y, size_t rows,
                                   int core_op, uint64_t flip, const uint64_t* HWY_RESTRICT valid_x,
                                   const uint64_t* HWY_RESTRICT valid_y, uint64_t* HWY_RESTRICT out) {
  switch (core_op) {
    case kCoreEq: return CompareColumnsLoop<kCoreEq>(x, y, rows, flip, valid_x, valid_y, out);
    case kCoreLt: return CompareColumnsLoop<kCoreLt>(x, y, rows, flip, valid_x, valid_y, out);
    default: return CompareColumnsLoop<kCoreLe>(x, y, rows, flip, valid_x, valid_y, out);
  }
}

// ------------------------------ mask algebra

// out = op(a, b) word by word; out may be a or b (each vector is loaded before it is stored).
template <class Op>
HWY_INLINE void MaskBinaryImpl(const uint64_t* a, const uint64_t* b, size_t rows, uint64_t* out,
                               const Op& op) {
  const hn::ScalableTag<uint64_t> d;
  const size_t N = hn::Lanes(d);
  const size_t words = BitmaskWords(rows);
  size_t i = 0;
  for (; i + 2 * N <= words; i += 2 * N) {
    const auto r0 = op(hn::LoadU(d, a + i), hn::LoadU(d, b + i));
    const auto r1 = op(hn::LoadU(d, a + i + N), hn::LoadU(d, b + i + N));
    hn::StoreU(r0, d, out + i);
    hn::StoreU(r1, d, out + i + N);
  }
  for (; i < words; i += N) {
    const size_t n = HWY_MIN(N, words - i);
    hn::StoreN(op(hn::LoadN(d, a + i, n), hn::LoadN(d, b + i, n)), d, out + i, n);
  }
  if (words != 0) out[words - 1] &= BitmaskTailMask(rows);
}

HWY_INLINE void MaskAndImpl(const uint64_t* a, const uint64_t* b, size_t rows, uint64_t* out) {
  MaskBinaryImpl(a, b, rows, out, [](auto va, auto vb) HWY_ATTR { return hn::And(va, vb); });
}
HWY_INLINE void MaskOrImpl(const uint64_t* a, const uint64_t* b, size_t rows, uint64_t* out) {
  MaskBinaryImpl(a, b, rows, out, [](auto va, auto vb) HWY_ATTR { return hn::Or(va, vb); });
}
HWY_INLINE void MaskAndNotImpl(const uint64_t* a, const uint64_t* b, size_t rows,
                               uint64_t* out) {
  // Highway's AndNot(x, y) is ~x & y.
  MaskBinaryImpl(a, b, rows, out, [](auto va, auto vb) HWY_ATTR { return hn::AndNot(vb, va); });
}
HWY_INLINE void MaskNotImpl(const uint64_t* a, size_t rows, const uint64_t* validity,
                            uint64_t* out) {
  if (validity != nullptr) {
    MaskBinaryImpl(a, validity, rows, out,
                   [](auto va, auto vv) HWY_ATTR { return hn::AndNot(va, vv); });
  } else {
    // b = a only to share the loop; the second operand is ignored.
    MaskBinaryImpl(a, a, rows, out, [](auto va, auto) HWY_ATTR { return hn::Not(va); });
  }
}

// Popcount of the words (of a & b when kAnd); the last word is masked to rows. Vectors where the
// CPU has a vector popcount (AVX-512 VPOPCNTQ from Ice Lake / Zen 4 on, NEON, SVE, ...);
// elsewhere on x86 the scalar POPCNT (one word per cycle) beats Highway's emulated
// PopulationCount (nibble lookups: ~5 cycles per word on SSE4).
template <bool kAnd>
HWY_INLINE size_t CountBitsImpl(const uint64_t* HWY_RESTRICT a, const uint64_t* HWY_RESTRICT b,
                                size_t rows) {
  const size_t words = BitmaskWords(rows);
  if (words == 0) return 0;
  const size_t body = words - 1;  // the last word is done separately, masked
  size_t i = 0;
  size_t total = 0;
#if HWY_ARCH_X86 && HWY_TARGET > HWY_AVX3_DL
  size_t t0 = 0, t1 = 0, t2 = 0, t3 = 0;
  for (; i + 4 <= body; i += 4) {
    t0 += hwy::PopCount(kAnd ? a[i] & b[i] : a[i]);
    t1 += hwy::PopCount(kAnd ? a[i + 1] & b[i + 1] : a[i + 1]);
    t2 += hwy::PopCount(kAnd ? a[i + 2] & b[i + 2] : a[i + 2]);
    t3 += hwy::PopCount(kAnd ? a[i + 3] & b[i + 3] : a[i + 3]);
  }
  total = t0 + t1 + t2 + t3;
#else
  const hn::ScalableTag<uint64_t> d;
  const size_t N = hn::Lanes(d);
  auto load = [d, a, b](size_t k) HWY_ATTR {
    if constexpr (kAnd) {
      return hn::And(hn::LoadU(d, a + k), hn::LoadU(d, b + k));
    } else {
      (void)b;
      return hn::LoadU(d, a + k);
    }
  };
  auto acc0 = hn::Zero(d), acc1 = hn::Zero(d);
  for (; i + 2 * N <= body; i += 2 * N) {
    acc0 = hn::Add(acc0, hn::PopulationCount(load(i)));
    acc1 = hn::Add(acc1, hn::PopulationCount(load(i + N)));
  }
  total = static_cast<size_t>(hn::ReduceSum(d, hn::Add(acc0, acc1)));
#endif
  for (; i < words; ++i) {
    uint64_t word = kAnd ? a[i] & b[i] : a[i];
    if (i == words - 1) word &= BitmaskTailMask(rows);
    total += hwy::PopCount(word);
  }
  return total;
}

// Words with fewer set bits than this go bit by bit (count trailing zeros, clear lowest bit,
// ~1 ns per bit); denser ones through Compress, whose cost per word falls with the vector width
// (4 compressions per word with 512-bit vectors, 16 with 128-bit ones). Set from the density
// sweep of bench/predicate_bench.cc on Sapphire Rapids (AVX3, AVX2 and SSE4 code).
// SVE and RVV have a native compress instruction, so they count as wide.
#if (HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3) || (HWY_TARGET & HWY_ALL_SVE) || \
    HWY_TARGET == HWY_RVV
inline constexpr size_t kDenseWordBits = 10;
#elif HWY_TARGET == HWY_AVX2
inline constexpr size_t kDenseWordBits = 20;
#else
inline constexpr size_t kDenseWordBits = 36;
#endif

// Writes the row numbers of the set bits of `bits` (row = base + bit) to out, ascending.
// CompressStore may write a whole vector past the indices it stores, up to out + 64 in all:
// the caller only calls this where out has room for 64 entries.
HWY_INLINE void DenseWordToIndices(uint64_t bits, uint32_t base, uint32_t* HWY_RESTRICT out) {
  const hn::CappedTag<uint32_t, 64> d;
  const size_t N = hn::Lanes(d);
  uint8_t bytes[16] = {0};  // LoadMaskBits may read up to 8 bytes from its pointer
#if HWY_IS_LITTLE_ENDIAN
  hwy::CopyBytes<8>(&bits, bytes);
#else
  for (int b = 0; b < 8; ++b) bytes[b] = static_cast<uint8_t>(bits >> (8 * b));
#endif
  const auto step = hn::Set(d, static_cast<uint32_t>(N));
  auto indices = hn::Iota(d, base);
  size_t written = 0;
  for (size_t j = 0; j < 64; j += N) {
    // Whole bytes of the word for 8 or more lanes; below that, the bits shifted down (lane
    // counts below 8 do not start on byte boundaries). LoadMaskBits ignores bits >= N.
    const uint8_t sub = static_cast<uint8_t>(bits >> j);
    const uint8_t* lane_bits = N >= 8 ? bytes + j / 8 : &sub;
    written += hn::CompressStore(indices, hn::LoadMaskBits(d, lane_bits), d, out + written);
    indices = hn::Add(indices, step);
  }
}

// The first word from which on fewer than 64 set bits remain (to the end of the mask): from
// there, whole-vector stores could pass the end of `out`, so those words go bit by bit.
HWY_INLINE size_t FirstUnsafeWord(const uint64_t* HWY_RESTRICT words, size_t n_words,
                                  uint64_t last_word_mask) {
  size_t remaining = 0;
  for (size_t w = n_words; w-- > 0;) {
    remaining += hwy::PopCount(w + 1 == n_words ? words[w] & last_word_mask : words[w]);
    if (remaining >= 64) return w + 1;
  }
  return 0;
}

HWY_INLINE size_t MaskToIndicesImpl(const uint64_t* HWY_RESTRICT words, size_t rows,
                                    uint32_t* HWY_RESTRICT out) {
  const size_t n_words = BitmaskWords(rows);
  const uint64_t last_word_mask = BitmaskTailMask(rows);
#if HWY_TARGET != HWY_SCALAR
  // Found lazily, at the first dense word: sparse masks never pay for the backward scan.
  size_t first_unsafe = n_words + 1;  // unknown
#endif
  uint32_t* HWY_RESTRICT next = out;
  for (size_t w = 0; w < n_words; ++w) {
    uint64_t bits = words[w];
    if (w + 1 == n_words) bits &= last_word_mask;
    if (bits == 0) continue;
    const uint32_t base = static_cast<uint32_t>(w * 64);
#if HWY_TARGET == HWY_SCALAR
    // No POPCNT in this target's baseline: stop at the last bit instead of counting them.
    do {
      *next++ = base + static_cast<uint32_t>(hwy::Num0BitsBelowLS1Bit_Nonzero64(bits));
      bits &= bits - 1;
    } while (bits != 0);
#else
    const size_t count = hwy::PopCount(bits);
    if (count >= kDenseWordBits) {
      if (first_unsafe > n_words) first_unsafe = FirstUnsafeWord(words, n_words, last_word_mask);
      if (w < first_unsafe) {
        DenseWordToIndices(bits, base, next);
        next += count;
        continue;
      }
    }
    // `count` iterations, then one add: the only dependency from word to word is next +=
    // count. (A do-while on bits != 0 let GCC rebuild next from a POPCNT after the loop, which
    // put POPCNT's latency on that chain: 4 cycles per word.)
    for (size_t i = 0; i < count; ++i) {
      next[i] = base + static_cast<uint32_t>(hwy::Num0BitsBelowLS1Bit_Nonzero64(bits));
      bits &= bits - 1;
    }
    next += count;
#endif
  }
  return static_cast<size_t>(next - out);
}

}  // namespace HWY_NAMESPACE
}  // namespace laneql
HWY_AFTER_NAMESPACE();

#endif  // LANEQL_SIMD_PREDICATE_INL_H_
