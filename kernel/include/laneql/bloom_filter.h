// A register-blocked Bloom filter over 64-bit hashes (laneql/hash.h's): one 64-bit word per
// block, kBloomBitsPerKey bits of it set per key. A key's block is the top bits of its hash (so
// a filter of 2^b words takes h >> (64 - b)); its bits are three 6-bit fields from the middle
// of the hash, which the bucket index (the low bits) and the block (the top bits) leave alone.
// Testing a key is one word load and one compare, with no second cache line: what a join's
// probe asks of every probe row before it reads the hash table (exec/join_key_filter.h).
//
// BloomFilterTest is a SIMD kernel (gathered words, per-lane shifts, one compare per vector)
// dispatched to the best target; BloomFilterTestReference is the plain loop that defines it.
#ifndef LANEQL_BLOOM_FILTER_H_
#define LANEQL_BLOOM_FILTER_H_

#include <cstddef>
#include <cstdint>

namespace laneql {

inline constexpr int kBloomBitsPerKey = 3;
inline constexpr int kBloomBitShifts[kBloomBitsPerKey] = {20, 26, 32};

// The bits a hash sets (and tests) in its block.
inline uint64_t BloomKeyBits(uint64_t hash) {
  uint64_t bits = 0;
  for (int shift : kBloomBitShifts) bits |= uint64_t{1} << ((hash >> shift) & 63);
  return bits;
}

// The block of `hash` in a filter whose word count is 2^(64 - shift), shift in [1, 64).
inline uint64_t BloomBlock(uint64_t hash, int shift) { return hash >> shift; }

inline void BloomInsert(uint64_t* words, int shift, uint64_t hash) {
  words[BloomBlock(hash, shift)] |= BloomKeyBits(hash);
}

// Bit i of hits (words 0 .. (n + 63) / 64 - 1, bits past n cleared) = whether hashes[i] may
// have been inserted into the filter of `words` (2^(64 - shift) of them): false only for a
// hash that never was.
void BloomFilterTest(const uint64_t* words, int shift, const uint64_t* hashes, size_t n, uint64_t* hits);
void BloomFilterTestReference(const uint64_t* words, int shift, const uint64_t* hashes, size_t n,
                              uint64_t* hits);

}  // namespace laneql

#endif  // LANEQL_BLOOM_FILTER_H_
