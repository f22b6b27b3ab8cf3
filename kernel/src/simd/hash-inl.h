// Hash kernels, compiled once per SIMD target (Highway's per-target include pattern). They
// compute exactly the hash laneql/hash.h defines; the scalar reference spells it out too.

// Per-target include guard: re-included once for every target by foreach_target.h.
#if defined(LANEQL_SIMD_HASH_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef LANEQL_SIMD_HASH_INL_H_
#undef LANEQL_SIMD_HASH_INL_H_
#else
#define LANEQL_SIMD_HASH_INL_H_
#endif

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "hwy/highway.h"
#include "laneql/bitmask.h"
#include "laneql/hash.h"

HWY_BEFORE_NAMESPACE();
namespace laneql {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using HashTag = hn::ScalableTag<uint64_t>;

// ---------------------------------------------------------------- 64-bit mixing

// x * c mod 2^64. AVX-512 (vpmullq), SVE, RVV and the one-lane targets multiply 64-bit lanes
// natively, and WASM through its i64x2.mul. SSE4, AVX2 and NEON only multiply 32x32->64 bits
// (MulEven), so the product is assembled from three of those, with the constant's halves split
// once:
//   x * c = lo(x) * lo(c) + ((hi(x) * lo(c) + lo(x) * hi(c)) << 32)   (mod 2^64).
#undef LANEQL_HASH_NATIVE_MUL64  // defined anew for every target
#if HWY_TARGET == HWY_SCALAR || HWY_TARGET == HWY_EMU128 || HWY_HAVE_SCALABLE || \
    (HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3)
#define LANEQL_HASH_NATIVE_MUL64 1
#else
#define LANEQL_HASH_NATIVE_MUL64 0
#endif

template <class D>
HWY_INLINE hn::Vec<D> MulConst64(D d, hn::Vec<D> x, uint64_t c) {
#if LANEQL_HASH_NATIVE_MUL64
  return hn::Mul(x, hn::Set(d, c));
#elif HWY_TARGET == HWY_WASM
  // wasm SIMD multiplies 64-bit lanes (i64x2.mul), which Highway 1.2 does not offer as Mul: one
  // instruction for the three MulEven below (each two there: a mask and i64x2.mul).
  return hn::Vec<D>{wasm_i64x2_mul(x.raw, hn::Set(d, c).raw)};
#else
  const hn::Repartition<uint32_t, D> d32;
  const auto c_lo = hn::BitCast(d32, hn::Set(d, c & 0xFFFFFFFFu));
  const auto c_hi = hn::BitCast(d32, hn::Set(d, c >> 32));
  const auto x32 = hn::BitCast(d32, x);
  const auto x_hi = hn::BitCast(d32, hn::ShiftRight<32>(x));
  const auto cross = hn::Add(hn::MulEven(x_hi, c_lo), hn::MulEven(x32, c_hi));
  return hn::Add(hn::MulEven(x32, c_lo), hn::ShiftLeft<32>(cross));
#endif
}

// Returns v unchanged, but from a register. On AVX-512 the compiler folds a load into a
// following vpmullq as its memory operand, and that form measured about 3x slower than
// load + register vpmullq on the Sapphire Rapids this was tuned on (combining: 1.85 vs 0.6
// ns/row). The empty asm hides where v came from, so the load stays separate.
template <class V>
HWY_INLINE V KeepInRegister(V v) {
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3 && (defined(__GNUC__) || defined(__clang__))
  asm("" : "+v"(v.raw));
#endif
  return v;
}

// Mix of laneql/hash.h on every lane.
template <class D>
HWY_INLINE hn::Vec<D> MixVec(D d, hn::Vec<D> z) {
  z = MulConst64(d, hn::Xor(z, hn::ShiftRight<kHashMixShift1>(z)), kHashMix1);
  z = MulConst64(d, hn::Xor(z, hn::ShiftRight<kHashMixShift2>(z)), kHashMix2);
  return hn::Xor(z, hn::ShiftRight<kHashMixShift3>(z));
}

// The same on one value, for per-row work (short strings, NULL rows).
HWY_INLINE uint64_t MixOne(uint64_t z) {
  z = (z ^ (z >> kHashMixShift1)) * kHashMix1;
  z = (z ^ (z >> kHashMixShift2)) * kHashMix2;
  return z ^ (z >> kHashMixShift3);
}

// The hash of word v, or its combination into the previous hash h.
template <bool kCombine, class D>
HWY_INLINE hn::Vec<D> HashOrCombine(D d, const uint64_t* HWY_RESTRICT prev, hn::Vec<D> v) {
  if constexpr (kCombine) {
    v = hn::Add(MulConst64(d, KeepInRegister(hn::LoadU(d, prev)), kHashCombineMul), v);
  }
  return MixVec(d, v);
}

// ---------------------------------------------------------------- fixed-width keys

// The 64-bit words (before kHashGamma) of one vector of keys: integers widened by value,
// floats widened to double and normalised (-0.0 -> +0.0, any NaN -> kHashCanonicalNaN).
template <class T, class D>
HWY_INLINE hn::Vec<D> KeyWords(D d, hn::VFromD<hn::Rebind<T, D>> keys) {
  if constexpr (hwy::IsFloat<T>()) {
    const hn::RebindToFloat<D> df;
    hn::Vec<decltype(df)> x;
    if constexpr (sizeof(T) == 4) {
      x = hn::PromoteTo(df, keys);  // exact
    } else {
      x = keys;
    }
    x = hn::IfThenZeroElse(hn::Eq(x, hn::Zero(df)), x);  // -0.0 == +0.0: both become +0.0
    return hn::IfThenElse(hn::RebindMask(d, hn::IsNaN(x)), hn::Set(d, kHashCanonicalNaN),
                          hn::BitCast(d, x));
  } else if constexpr (sizeof(T) == 8) {
    return hn::BitCast(d, keys);
  } else if constexpr (hwy::IsSigned<T>()) {
    return hn::BitCast(d, hn::PromoteTo(hn::RebindToSigned<D>(), keys));  // sign-extends
  } else {
    return hn::PromoteTo(d, keys);  // zero-extends
  }
}

// hashes[i] = hash (or combination) of keys[i] for all i < n, every row valid. Not inlined: it
// is called per run of rows, and 3 inlined copies per type x 10 types x 2 modes in one function
// made the sanitizer build of this file take minutes.
template <class T, bool kCombine>
HWY_NOINLINE void HashFixedRange(const T* HWY_RESTRICT keys, size_t n,
                               uint64_t* HWY_RESTRICT hashes) {
  const HashTag d;
  const hn::Rebind<T, HashTag> dk;  // as many keys as d has uint64 lanes
  const size_t N = hn::Lanes(d);
  const auto gamma = hn::Set(d, kHashGamma);
  size_t i = 0;
  // Two vectors per iteration: rows are independent, so this only gives the core more loads
  // and multiplies in flight.
  for (; i + 2 * N <= n; i += 2 * N) {
    const auto v0 = hn::Add(KeyWords<T>(d, hn::LoadU(dk, keys + i)), gamma);
    const auto v1 = hn::Add(KeyWords<T>(d, hn::LoadU(dk, keys + i + N)), gamma);
    const auto h0 = HashOrCombine<kCombine>(d, hashes + i, v0);
    const auto h1 = HashOrCombine<kCombine>(d, hashes + i + N, v1);
    hn::StoreU(h0, d, hashes + i);
    hn::StoreU(h1, d, hashes + i + N);
  }
  for (; i < n; i += N) {  // at most two partial vectors; LoadN/StoreN touch only `count` rows
    const size_t count = HWY_MIN(N, n - i);
    auto v = hn::Add(KeyWords<T>(d, hn::LoadN(dk, keys + i, count)), gamma);
    if constexpr (kCombine) {
      v = hn::Add(MulConst64(d, KeepInRegister(hn::LoadN(d, hashes + i, count)), kHashCombineMul),
                 v);
    }
    hn::StoreN(MixVec(d, v), d, hashes + i, count);
  }
}

// One NULL row: its word is kHashNullWord.
template <bool kCombine>
HWY_INLINE uint64_t NullHash(uint64_t prev) {
  return MixOne(kCombine ? prev * kHashCombineMul + kHashNullWord : kHashNullWord);
}

// With a validity mask: maximal runs of all-valid 64-row words go to the vector loop in one
// piece; a word with NULLs is hashed whole and its NULL rows are then overwritten (from the
// previous hashes saved beforehand when combining). NULLs are rare in practice, so this keeps
// the vector loop free of mask handling.
template <class T, bool kCombine>
HWY_INLINE void HashFixedColumn(const T* HWY_RESTRICT keys, size_t n,
                                const uint64_t* HWY_RESTRICT validity,
                                uint64_t* HWY_RESTRICT hashes) {
  if (validity == nullptr) return HashFixedRange<T, kCombine>(keys, n, hashes);
  size_t run_begin = 0;
  for (size_t w = 0; w < BitmaskWords(n); ++w) {
    const size_t begin = w * 64, rows = HWY_MIN(size_t{64}, n - begin);
    const uint64_t all = BitmaskTailMask(rows);
    const uint64_t valid = validity[w] & all;
    if (valid == all) continue;  // extends the current run
    HashFixedRange<T, kCombine>(keys + run_begin, begin - run_begin, hashes + run_begin);
    run_begin = begin + rows;
    uint64_t saved[64];
    if (kCombine) memcpy(saved, hashes + begin, rows * sizeof(uint64_t));
    if (valid != 0) HashFixedRange<T, kCombine>(keys + begin, rows, hashes + begin);
    for (uint64_t nulls = ~valid & all; nulls != 0; nulls &= nulls - 1) {
      const size_t j = hwy::Num0BitsBelowLS1Bit_Nonzero64(nulls);
      hashes[begin + j] = NullHash<kCombine>(kCombine ? saved[j] : 0);
    }
  }
  HashFixedRange<T, kCombine>(keys + run_begin, n - run_begin, hashes + run_begin);
}

template <bool kCombine>
HWY_INLINE void HashKeysTyped(HashKeyType type, const void* keys, size_t n,
                              const uint64_t* validity, uint64_t* hashes) {
  switch (type) {
    case HashKeyType::kInt8:
      return HashFixedColumn<int8_t, kCombine>(static_cast<const int8_t*>(keys), n, validity, hashes);
    case HashKeyType::kUInt8:
      return HashFixedColumn<uint8_t, kCombine>(static_cast<const uint8_t*>(keys), n, validity, hashes);
    case HashKeyType::kInt16:
      return HashFixedColumn<int16_t, kCombine>(static_cast<const int16_t*>(keys), n, validity, hashes);
    case HashKeyType::kUInt16:
      return HashFixedColumn<uint16_t, kCombine>(static_cast<const uint16_t*>(keys), n, validity, hashes);
    case HashKeyType::kInt32:
      return HashFixedColumn<int32_t, kCombine>(static_cast<const int32_t*>(keys), n, validity, hashes);
    case HashKeyType::kUInt32:
      return HashFixedColumn<uint32_t, kCombine>(static_cast<const uint32_t*>(keys), n, validity, hashes);
    case HashKeyType::kInt64:  // same 64 bits either way
    case HashKeyType::kUInt64:
      return HashFixedColumn<uint64_t, kCombine>(static_cast<const uint64_t*>(keys), n, validity, hashes);
    case HashKeyType::kFloat32:
      return HashFixedColumn<float, kCombine>(static_cast<const float*>(keys), n, validity, hashes);
    case HashKeyType::kFloat64:
      return HashFixedColumn<double, kCombine>(static_cast<const double*>(keys), n, validity, hashes);
  }
}

HWY_INLINE void HashKeysImpl(HashKeyType type, const void* keys, size_t n,
                             const uint64_t* validity, uint64_t* hashes, bool combine) {
  if (combine) {
    HashKeysTyped<true>(type, keys, n, validity, hashes);
  } else {
    HashKeysTyped<false>(type, keys, n, validity, hashes);
  }
}

// ---------------------------------------------------------------- rows of words

// One vector of rows' hashes from their words w[0..kStride): Mix(w0 + kHashGamma), each next
// word combined in (see HashWideRows in laneql/hash.h).
template <size_t kStride, class D>
HWY_INLINE hn::Vec<D> HashRowVector(D d, const uint64_t* HWY_RESTRICT rows) {
  hn::Vec<D> w0, w1, w2, w3;
  if constexpr (kStride == 2) hn::LoadInterleaved2(d, rows, w0, w1);
  if constexpr (kStride == 3) hn::LoadInterleaved3(d, rows, w0, w1, w2);
  if constexpr (kStride == 4) hn::LoadInterleaved4(d, rows, w0, w1, w2, w3);
  auto h = MixVec(d, hn::Add(w0, hn::Set(d, kHashGamma)));
  h = MixVec(d, hn::Add(MulConst64(d, h, kHashCombineMul), w1));
  if constexpr (kStride >= 3) h = MixVec(d, hn::Add(MulConst64(d, h, kHashCombineMul), w2));
  if constexpr (kStride >= 4) h = MixVec(d, hn::Add(MulConst64(d, h, kHashCombineMul), w3));
  return h;
}

HWY_INLINE uint64_t HashRowScalar(const uint64_t* HWY_RESTRICT row, size_t stride) {
  uint64_t h = MixOne(row[0] + kHashGamma);
  for (size_t j = 1; j < stride; ++j) h = MixOne(h * kHashCombineMul + row[j]);
  return h;
}

template <size_t kStride>
HWY_NOINLINE void HashRowsOfStride(const uint64_t* HWY_RESTRICT words, size_t n,
                                   uint64_t* HWY_RESTRICT hashes) {
  const HashTag d;
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  for (; i + N <= n; i += N) hn::StoreU(HashRowVector<kStride>(d, words + i * kStride), d, hashes + i);
  for (; i < n; ++i) hashes[i] = HashRowScalar(words + i * kStride, kStride);  // the tail
}

HWY_INLINE void HashWideRowsImpl(const uint64_t* words, size_t stride, size_t n,
                                 uint64_t* hashes) {
  switch (stride) {
    case 2: return HashRowsOfStride<2>(words, n, hashes);
    case 3: return HashRowsOfStride<3>(words, n, hashes);
    case 4: return HashRowsOfStride<4>(words, n, hashes);
    default:
      for (size_t i = 0; i < n; ++i) hashes[i] = HashRowScalar(words + i * stride, stride);
  }
}

// ---------------------------------------------------------------- strings

HWY_INLINE uint64_t LoadLE64(const uint8_t* p) {
  uint64_t v;
  memcpy(&v, p, sizeof v);  // every laneql target is little-endian
  return v;
}
HWY_INLINE uint64_t LoadLE32(const uint8_t* p) {
  uint32_t v;
  memcpy(&v, p, sizeof v);
  return v;
}

HWY_INLINE uint64_t RotateRight32(uint64_t x) { return (x >> 32) | (x << 32); }

// StringWord for 1..16 bytes: two possibly overlapping loads instead of a byte loop.
HWY_INLINE uint64_t ShortStringWord(const uint8_t* p, size_t len) {
  uint64_t a, b = 0;
  if (len >= 8) {
    a = LoadLE64(p);
    b = LoadLE64(p + len - 8);
  } else if (len >= 4) {
    a = LoadLE32(p) | (LoadLE32(p + len - 4) << 32);
  } else {
    a = uint64_t{p[0]} | (uint64_t{p[len / 2]} << 8) | (uint64_t{p[len - 1]} << 16);
  }
  return MixOne(a ^ (len * kHashShortKey)) ^ b;
}

// Four accumulator lanes (one 32-byte stripe) spread over whole vectors: one vector on AVX2 and
// AVX-512 (256-bit), two on 128-bit targets, four on HWY_SCALAR. Scalable vectors use 128 bits
// so that the number of vectors is a compile-time constant.
#if HWY_HAVE_SCALABLE
using StripeTag = hn::FixedTag<uint64_t, 2>;
#else
using StripeTag = hn::CappedTag<uint64_t, 4>;
#endif

// Loads the 8 * Lanes(d) bytes at p as little-endian uint64 lanes, at any alignment.
template <class D>
HWY_INLINE hn::Vec<D> LoadWords(D d, const uint8_t* p) {
#if HWY_TARGET == HWY_SCALAR
  return hn::Set(d, LoadLE64(p));
#else
  return hn::BitCast(d, hn::LoadU(hn::Repartition<uint8_t, D>(), p));
#endif
}

// acc += w + lo32(w ^ key) * hi32(w ^ key) in every lane.
template <class D>
HWY_INLINE hn::Vec<D> Absorb(D d, hn::Vec<D> acc, hn::Vec<D> w, hn::Vec<D> key) {
  const auto x = hn::Xor(w, key);
#if HWY_TARGET == HWY_SCALAR
  const auto product = hn::Mul(hn::And(x, hn::Set(d, 0xFFFFFFFFu)), hn::ShiftRight<32>(x));
#else
  (void)d;
  const hn::Repartition<uint32_t, D> d32;
  const auto product = hn::MulEven(hn::BitCast(d32, x), hn::BitCast(d32, hn::ShiftRight<32>(x)));
#endif
  return hn::Add(acc, hn::Add(w, product));
}

// StringWord for 17 bytes and more (laneql/hash.h): vector k holds lanes k*N .. k*N+N-1.
// A template on the tag so that `if constexpr` discards the branches of other widths.
template <class D>
HWY_INLINE uint64_t LongStringWord(D d, const uint8_t* p, size_t len) {
  constexpr size_t N = hn::MaxLanes(D());
  constexpr size_t V = 4 / N;  // vectors per stripe: 1, 2 or 4
  static_assert(V * N == 4, "a stripe must fill whole vectors");
  using Vec = hn::Vec<D>;
  const Vec step = hn::Set(d, kHashStripeStep);
  const Vec zero = hn::Zero(d);
  Vec a0 = zero, a1 = zero, a2 = zero, a3 = zero;
  Vec key0 = zero, key1 = zero, key2 = zero, key3 = zero;  // lane keys of the current stripe
#define LANEQL_HASH_ALL_4(STEP) STEP(0) STEP(1) STEP(2) STEP(3)
#define LANEQL_HASH_INIT_KEY(j) \
  if constexpr (V > j) key##j = hn::LoadU(d, kHashStripeKey + j * N);
  LANEQL_HASH_ALL_4(LANEQL_HASH_INIT_KEY)
#undef LANEQL_HASH_INIT_KEY

  const size_t full_stripes = (len - 1) / kHashStripeBytes;
  for (size_t s = 0; s < full_stripes; ++s) {
    const uint8_t* stripe = p + s * kHashStripeBytes;
#define LANEQL_HASH_ABSORB(j)                                            \
  if constexpr (V > j) {                                                 \
    a##j = Absorb(d, a##j, LoadWords(d, stripe + j * N * 8), key##j);    \
    key##j = hn::Add(key##j, step);                                      \
  }
    LANEQL_HASH_ALL_4(LANEQL_HASH_ABSORB)
#undef LANEQL_HASH_ABSORB
  }

  // The final stripe: 16 bytes at f (lanes 0, 1) and the last 16 bytes (lanes 2, 3).
  const uint8_t* first = p + (HWY_MAX(len, size_t{32}) - 32);
  const uint8_t* last = p + len - 16;
#if HWY_TARGET != HWY_SCALAR  // (which has no Combine)
  if constexpr (N == 4) {
    const hn::Half<D> dh;
    a0 = Absorb(d, a0, hn::Combine(d, LoadWords(dh, last), LoadWords(dh, first)), key0);
  } else
#endif
  if constexpr (N == 2) {
    a0 = Absorb(d, a0, LoadWords(d, first), key0);
    a1 = Absorb(d, a1, LoadWords(d, last), key1);
  } else {
    a0 = Absorb(d, a0, LoadWords(d, first), key0);
    a1 = Absorb(d, a1, LoadWords(d, first + 8), key1);
    a2 = Absorb(d, a2, LoadWords(d, last), key2);
    a3 = Absorb(d, a3, LoadWords(d, last + 8), key3);
  }

  HWY_ALIGN uint64_t acc[4];
#define LANEQL_HASH_STORE(j) \
  if constexpr (V > j) hn::Store(a##j, d, acc + j * N);
  LANEQL_HASH_ALL_4(LANEQL_HASH_STORE)
#undef LANEQL_HASH_STORE
#undef LANEQL_HASH_ALL_4
  return MixOne(acc[0] + RotateRight32(acc[1]) + len) ^ MixOne(acc[2] + RotateRight32(acc[3]));
}

// Rows are reduced to words a chunk at a time (per-row branches and loads), then the chunk is
// hashed or combined as vectors. A chunk whose strings are all empty (common: most
// ClickBench SearchPhrase values are '') is recognised from two offsets alone.
inline constexpr size_t kStringChunkRows = 256;

template <bool kCombine>
HWY_INLINE void HashStringsTyped(const int32_t* HWY_RESTRICT offsets,
                                 const uint8_t* HWY_RESTRICT bytes, size_t n,
                                 const uint64_t* HWY_RESTRICT validity,
                                 uint64_t* HWY_RESTRICT hashes) {
  const HashTag d;
  const size_t N = hn::Lanes(d);
  HWY_ALIGN uint64_t words[kStringChunkRows];
  for (size_t begin = 0; begin < n; begin += kStringChunkRows) {
    const size_t rows = HWY_MIN(kStringChunkRows, n - begin);
    const int32_t* off = offsets + begin;
    if (validity == nullptr && off[rows] == off[0]) {
      for (size_t j = 0; j < rows; ++j) words[j] = kHashEmptyStringWord;
    } else {
      for (size_t j = 0; j < rows; ++j) {
        const size_t len = static_cast<size_t>(off[j + 1] - off[j]);
        const uint8_t* p = bytes + off[j];
        uint64_t word;
        if (validity != nullptr && !BitmaskGet(validity, begin + j)) {
          word = kHashNullWord;
        } else if (len == 0) {
          word = kHashEmptyStringWord;
        } else if (len <= 16) {
          word = ShortStringWord(p, len);
        } else {
          word = LongStringWord(StripeTag(), p, len);
        }
        words[j] = word;
      }
    }
    uint64_t* out = hashes + begin;
    size_t j = 0;
    for (; j + N <= rows; j += N) {
      hn::StoreU(HashOrCombine<kCombine>(d, out + j, hn::Load(d, words + j)), d, out + j);
    }
    if (j < rows) {
      const size_t count = rows - j;
      auto v = hn::LoadN(d, words + j, count);
      if constexpr (kCombine) {
        v = hn::Add(MulConst64(d, KeepInRegister(hn::LoadN(d, out + j, count)), kHashCombineMul),
                    v);
      }
      hn::StoreN(MixVec(d, v), d, out + j, count);
    }
  }
}

HWY_INLINE void HashStringsImpl(const int32_t* offsets, const uint8_t* bytes, size_t n,
                                const uint64_t* validity, uint64_t* hashes, bool combine) {
  if (combine) {
    HashStringsTyped<true>(offsets, bytes, n, validity, hashes);
  } else {
    HashStringsTyped<false>(offsets, bytes, n, validity, hashes);
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace laneql
HWY_AFTER_NAMESPACE();

#endif  // LANEQL_SIMD_HASH_INL_H_
