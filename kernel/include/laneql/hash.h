// Hashing of key columns for hash joins and GROUP BY: one uint64 hash per row, for fixed-width
// keys (8/16/32/64-bit integers, float32/64) and strings (int32 offsets + UTF-8 bytes), and the
// combination of several key columns into one hash per row. SIMD kernels (dispatched to the best
// target the CPU supports) and the plain scalar references that define the hash.
//
// The hash is the same on every SIMD target, thread count and build (native or wasm): hashes
// may be computed on one target and probed on another. It is built for power-of-two open
// addressing: the low bits (bucket index) and the high bits (Swiss-table tag, e.g. h >> 57) are
// both well distributed for sequential, strided (multiples of 2^k), small-range and random keys.
// It is not a cryptographic or DoS-resistant hash (there is no secret seed).
//
// Definition. Every row of a key column is first reduced to a 64-bit word v, then
//   hash of one column         h = Mix(v)
//   combined with next column  h' = Mix(h * kHashCombineMul + v)     (arithmetic mod 2^64)
// so hashing a column equals combining it into h = 0. Mix is the SplitMix64 output function
// (Stafford's "Mix13" constants, see kHashMix*): a bijection whose every output bit depends on
// every input bit. The multiply makes combining order-sensitive: (a, b) and (b, a) differ.
// The word v of a row:
//   - NULL (validity bit 0): kHashNullWord, whatever the type and whatever the value slot holds;
//   - integers: the value sign- or zero-extended to 64 bits (by value, so int8 -5, int32 -5 and
//     int64 -5 hash alike, and uint8 200 and int32 200 too), plus kHashGamma. Only the 64-bit
//     pattern counts, so uint64 2^64 - 1 and int64 -1 hash alike (equal hashes never imply
//     equal keys anyway);
//   - floats: the value as a double (float32 converts exactly) after normalisation, so that keys
//     SQL treats as equal hash equal: -0.0 becomes +0.0 and every NaN (any sign or payload)
//     becomes the quiet NaN 0x7FF8000000000000; then its IEEE bit pattern plus kHashGamma.
//     float32 1.5f and float64 1.5 therefore hash alike;
//   - strings: StringWord(bytes) below, computed over the raw bytes (no Unicode normalisation:
//     byte-equal strings hash equal, as SQL's binary collation compares them).
// StringWord of a string of len bytes (words are little-endian loads, all arithmetic mod 2^64):
//   - len == 0: kHashEmptyStringWord (a constant distinct from kHashNullWord: '' is not NULL);
//   - 1..16 bytes: two words a, b that together hold every byte:
//       len 8..16: a = U64(p), b = U64(p + len - 8)                        (they may overlap)
//       len 4..7:  a = U32(p) | U32(p + len - 4) << 32, b = 0
//       len 1..3:  a = p[0] | p[len / 2] << 8 | p[len - 1] << 16, b = 0
//     StringWord = Mix(a ^ (len * kHashShortKey)) ^ b  (the multiply spreads len over all 64
//     bits: added to a's low bits it would let strings of different lengths collide);
//   - 17 bytes and more: four accumulators acc[0..3] = 0 absorb 32-byte stripes. The full
//     stripes start at 32 * s for s < F = (len - 1) / 32; the final stripe, s = F, is made of
//     the two 16-byte pieces at f = max(len, 32) - 32 and at len - 16, i.e. its words are
//       U64(p + f), U64(p + f + 8), U64(p + len - 16), U64(p + len - 8)
//     (the last 32 bytes of a string of 32 bytes or more, which may overlap the previous
//     stripe; for 17..31 bytes the two pieces overlap each other). Word l of stripe s is absorbed as
//       x = w ^ (kHashStripeKey[l] + s * kHashStripeStep);  acc[l] += w + lo32(x) * hi32(x)
//     (a 32x32->64-bit multiply, which every SIMD target has, unlike a 64x64 one), then
//     StringWord = Mix(acc[0] + rotr32(acc[1]) + len) ^ Mix(acc[2] + rotr32(acc[3]))
//     with rotr32 a 32-bit rotation. The per-stripe keys make the sum order-sensitive.
//   The short path costs one branch and two Mixes; long strings are summed four lanes at a time.
#ifndef LANEQL_HASH_H_
#define LANEQL_HASH_H_

#include <cstddef>
#include <cstdint>

namespace laneql {

// ---- The constants that define the hash (changing any of them changes every hash value).
inline constexpr uint64_t kHashMix1 = 0xBF58476D1CE4E5B9ull;  // Mix(z): z ^= z >> 30; z *= Mix1;
inline constexpr uint64_t kHashMix2 = 0x94D049BB133111EBull;  //   z ^= z >> 27; z *= Mix2;
inline constexpr int kHashMixShift1 = 30;                      //   z ^= z >> 31.
inline constexpr int kHashMixShift2 = 27;
inline constexpr int kHashMixShift3 = 31;
// Added to fixed-width key words: spreads small keys (0, 1, 2, ...) away from Mix's fixed
// point Mix(0) = 0.
inline constexpr uint64_t kHashGamma = 0x9E3779B97F4A7C15ull;
// Odd and = 3 (mod 4): h1 * M + h2 == h2 * M + h1 only if h1 - h2 is 0 or 2^63.
inline constexpr uint64_t kHashCombineMul = 0xC2B2AE3D27D4EB4Full;
inline constexpr uint64_t kHashNullWord = 0xD1A6E55E9B9B1325ull;
inline constexpr uint64_t kHashEmptyStringWord = 0x566BF9D7C55A45F9ull;
inline constexpr uint64_t kHashShortKey = 0xCF0C26EF4243ED53ull;
inline constexpr uint64_t kHashStripeKey[4] = {0x5D96CF7F265BEDA9ull, 0xC1D77CFFB7DECC0Dull,
                                               0x5E6A0A2EDD70E34Dull, 0x0463513755AC0ECDull};
inline constexpr uint64_t kHashStripeStep = 0xB37523A53B4A3EE3ull;
inline constexpr size_t kHashStripeBytes = 32;
// The canonical NaN every float NaN is hashed as.
inline constexpr uint64_t kHashCanonicalNaN = 0x7FF8000000000000ull;

// ---- Column types.
enum class HashKeyType : uint8_t {
  kInt8, kUInt8, kInt16, kUInt16, kInt32, kUInt32, kInt64, kUInt64, kFloat32, kFloat64,
};

template <class T> struct HashKeyTypeOf;
template <> struct HashKeyTypeOf<int8_t> { static constexpr HashKeyType value = HashKeyType::kInt8; };
template <> struct HashKeyTypeOf<uint8_t> { static constexpr HashKeyType value = HashKeyType::kUInt8; };
template <> struct HashKeyTypeOf<int16_t> { static constexpr HashKeyType value = HashKeyType::kInt16; };
template <> struct HashKeyTypeOf<uint16_t> { static constexpr HashKeyType value = HashKeyType::kUInt16; };
template <> struct HashKeyTypeOf<int32_t> { static constexpr HashKeyType value = HashKeyType::kInt32; };
template <> struct HashKeyTypeOf<uint32_t> { static constexpr HashKeyType value = HashKeyType::kUInt32; };
template <> struct HashKeyTypeOf<int64_t> { static constexpr HashKeyType value = HashKeyType::kInt64; };
template <> struct HashKeyTypeOf<uint64_t> { static constexpr HashKeyType value = HashKeyType::kUInt64; };
template <> struct HashKeyTypeOf<float> { static constexpr HashKeyType value = HashKeyType::kFloat32; };
template <> struct HashKeyTypeOf<double> { static constexpr HashKeyType value = HashKeyType::kFloat64; };

// ---- SIMD kernels, single-threaded, dispatched at run time (see laneql/targets.h).
// `keys` holds n values of `type`; `validity` is an n-row bitmask (laneql/bitmask.h, 1 = not
// NULL) or nullptr for no NULLs. Any alignment is fine. HashKeys writes hashes[0..n);
// HashCombineKeys reads them (the hash of the previous columns) and overwrites them.
void HashKeys(HashKeyType type, const void* keys, size_t n, const uint64_t* validity,
              uint64_t* hashes);
void HashCombineKeys(HashKeyType type, const void* keys, size_t n, const uint64_t* validity,
                     uint64_t* hashes);
// Strings: row i is bytes[offsets[i], offsets[i + 1]) (Arrow layout: n + 1 offsets,
// non-decreasing; offsets[0] need not be 0).
void HashStrings(const int32_t* offsets, const uint8_t* bytes, size_t n, const uint64_t* validity,
                 uint64_t* hashes);
void HashCombineStrings(const int32_t* offsets, const uint8_t* bytes, size_t n,
                        const uint64_t* validity, uint64_t* hashes);

// Rows of `stride` >= 1 words each (row i at words[i * stride], no NULLs: a GROUP BY of several
// keys packs each row's keys, and its NULL flags, into words): hashes[i] = Mix(w0 + kHashGamma)
// with each further word w combined in as h = Mix(h * kHashCombineMul + w). Strides 2 to 4 are
// vector code; others go a row at a time.
void HashWideRows(const uint64_t* words, size_t stride, size_t n, uint64_t* hashes);

// Typed forms: HashKeys(int32_ptr, n, nullptr, hashes).
template <class T>
void HashKeys(const T* keys, size_t n, const uint64_t* validity, uint64_t* hashes) {
  HashKeys(HashKeyTypeOf<T>::value, keys, n, validity, hashes);
}
template <class T>
void HashCombineKeys(const T* keys, size_t n, const uint64_t* validity, uint64_t* hashes) {
  HashCombineKeys(HashKeyTypeOf<T>::value, keys, n, validity, hashes);
}

namespace reference {
// Plain scalar code, no Highway: the definition the kernels are tested against. Also usable for
// hashing a single value the way the kernels would (e.g. a constant probe key).
uint64_t Mix(uint64_t z);
// The 64-bit word of one value (before Mix), as defined above.
uint64_t KeyWord(HashKeyType type, const void* key);  // key points to one value of `type`
uint64_t StringWord(const uint8_t* p, size_t len);
inline uint64_t HashWord(uint64_t word) { return Mix(word); }
inline uint64_t CombineWord(uint64_t hash, uint64_t word) {
  return Mix(hash * kHashCombineMul + word);
}

void HashKeys(HashKeyType type, const void* keys, size_t n, const uint64_t* validity,
              uint64_t* hashes);
void HashCombineKeys(HashKeyType type, const void* keys, size_t n, const uint64_t* validity,
                     uint64_t* hashes);
void HashStrings(const int32_t* offsets, const uint8_t* bytes, size_t n, const uint64_t* validity,
                 uint64_t* hashes);
void HashCombineStrings(const int32_t* offsets, const uint8_t* bytes, size_t n,
                        const uint64_t* validity, uint64_t* hashes);
void HashWideRows(const uint64_t* words, size_t stride, size_t n, uint64_t* hashes);
}  // namespace reference

}  // namespace laneql

#endif  // LANEQL_HASH_H_
