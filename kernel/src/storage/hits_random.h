// Internal to the hits generator: counter-based random numbers. A value is a hash of
// (seed, row, column) rather than the next output of a stateful generator, so any row can be
// produced alone, in any order, on any thread, and always comes out the same.
#ifndef LANEQL_STORAGE_HITS_RANDOM_H_
#define LANEQL_STORAGE_HITS_RANDOM_H_

#include <cstddef>
#include <cstdint>

// The generator's per-column loops are plain C++ that the compiler vectorises. Where the
// toolchain can pick a function version at load time (GCC and Clang on x86-64 Linux, through
// ifunc), the fill functions are also compiled for AVX2 and AVX-512, which have the 64-bit
// multiplies and gathers those loops need; elsewhere they build once for the baseline. The
// versions give the same bytes: the arithmetic is integer, and the little floating point
// (products of exact inputs, never a sum that could fuse into an FMA) rounds the same on every
// instruction set. (Checked by building the generator for the baseline, x86-64-v3 and -v4 with
// GCC and Clang and comparing the tables.)
// (A build may define LANEQL_HITS_MULTIVERSION empty, e.g. to compare the baseline's bytes.)
#ifndef LANEQL_HITS_MULTIVERSION
#if defined(__x86_64__) && defined(__linux__) && (defined(__GNUC__) || defined(__clang__))
#define LANEQL_HITS_MULTIVERSION \
  __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define LANEQL_HITS_MULTIVERSION
#endif
#endif

namespace laneql::hits {

// SplitMix64's finaliser: a bijection on 64 bits in which every input bit flips about half of
// the output bits, so consecutive counters give independent-looking values.
inline uint64_t Mix64(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

// The key of thing number `index` of a family (the rows of a seed, the users, the sites):
// SplitMix64's full finaliser, so neighbouring indices get unrelated keys.
inline uint64_t KeyOf(uint64_t family, uint64_t index) {
  return Mix64(family ^ (index * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e019ULL));
}

// Draw number `stream` (a column id or another small constant) for a key that is already a
// full hash (KeyOf's output). One multiply and a fold are enough on an avalanched key, and
// this runs about a hundred times per row, so it is half the cost of a second finaliser.
inline uint64_t Draw(uint64_t key, uint64_t stream) {
  const uint64_t x = (key ^ (stream * 0x9e3779b97f4a7c15ULL)) * 0xd6e8feb86659fd93ULL;
  return x ^ (x >> 32);
}

// Uniform in [0, n) from the high 32 bits (multiply-shift; the bias is below n / 2^32).
inline uint32_t Below(uint64_t h, uint32_t n) {
  return static_cast<uint32_t>(((h >> 32) * n) >> 32);
}
// Uniform in [0, 1) with 53 bits. (Conversions go through int64: exact here, and without the
// branches an unsigned conversion takes before AVX-512.)
inline double Unit(uint64_t h) {
  return static_cast<double>(static_cast<int64_t>(h >> 11)) * 0x1.0p-53;
}
// True with probability per_million / 1e6, from the low 32 bits (independent of Below's).
inline bool Chance(uint64_t h, uint32_t per_million) {
  // In 64 bits, so that 1,000,000 (always) does not overflow the 32-bit threshold; integer
  // arithmetic (a multiply by a reciprocal), which vectorises where a double conversion would
  // not.
  return (h & 0xffffffffu) < (static_cast<uint64_t>(per_million) << 32) / 1000000;
}

// A skewed index in [0, n), n < 2^32: n * u^1.5 for uniform u, dense near 0 (a heavy head and
// a long tail). Drawn as n * max(v, w)^3 for uniform v, w, which has the same law
// (P(max(v, w)^3 < x) = x^(2/3) = P(u^1.5 < x)) and needs no square root: a square root
// carries an errno branch that keeps the loops around it from vectorising. v is the high half
// of h, w the high half of a second draw from h; in 32-bit fixed point.
inline uint64_t SkewedIndex(uint64_t h, uint64_t n) {
  const uint64_t v = h >> 32;
  const uint64_t w = ((h ^ 0x2545f4914f6cdd1dULL) * 0xd6e8feb86659fd93ULL) >> 32;
  const uint64_t m = v > w ? v : w;
  const uint64_t m3 = (((m * m) >> 32) * m) >> 32;
  return (m3 * n) >> 32;
}
// Steeper: n * u^3 (a heavier head), for choices where a few values dominate; n < 2^32. In
// 32-bit fixed point from the high 32 bits: three multiplies, no floating point.
inline uint64_t SteepIndex(uint64_t h, uint64_t n) {
  const uint64_t u = h >> 32;
  const uint64_t u3 = (((u * u) >> 32) * u) >> 32;
  return (u3 * n) >> 32;
}
// `value` when keep, else 0, without a branch (the choices are coin flips a branch predictor
// cannot learn).
template <class T>
inline T KeepIf(bool keep, T value) {
  return static_cast<T>(value & -static_cast<T>(keep));
}

// A choice among a few values with fixed weights: entries in decreasing weight, the weights
// summing to 1,000,000 (per million); the last entry takes any rounding remainder.
template <class T>
struct Weighted {
  T value;
  uint32_t per_million;
};

// A Weighted list unrolled into a lookup on the top kPickBits bits of a hash, so a choice is a
// shift and one load rather than a scan with a branch per entry (unpredictable branches were
// most of the generator's time). Each of the 4,096 slots takes the value whose share covers
// the slot's middle, so each share comes out within 1/4096 of the list's.
constexpr int kPickBits = 12;
template <class T>
struct PickTable {
  T value[size_t{1} << kPickBits];
};
template <class T, size_t N>
constexpr PickTable<T> MakePickTable(const Weighted<T> (&table)[N]) {
  PickTable<T> out{};
  uint64_t start = 0;  // per million, where entry k's share begins
  size_t k = 0;
  for (size_t slot = 0; slot < (size_t{1} << kPickBits); ++slot) {
    const uint64_t middle = (2 * uint64_t{slot} + 1) * 1000000 / (uint64_t{2} << kPickBits);
    while (k + 1 < N && middle >= start + table[k].per_million) start += table[k++].per_million;
    out.value[slot] = table[k].value;
  }
  return out;
}
// Uses the top 12 bits of h (Chance uses the low 32, so both may read one draw).
template <class T>
inline T Pick(const PickTable<T>& table, uint64_t h) {
  return table.value[static_cast<uint32_t>(h >> (64 - kPickBits))];
}

}  // namespace laneql::hits

#endif  // LANEQL_STORAGE_HITS_RANDOM_H_
