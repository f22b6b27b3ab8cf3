// Row bitmasks: the currency between predicate, aggregate, gather and string kernels.
//
// Layout (the same as Arrow's validity bitmaps read as little-endian 64-bit words): row i is
// bit (i % 64) of word (i / 64); 1 = selected (or, for validity, non-null). Bits past the last
// row of the last word are always 0, so popcounts and word-wise AND/OR/NOT need no tail fix-up
// (NOT clears them again). A mask of n rows has BitmaskWords(n) words.
#ifndef LANEQL_BITMASK_H_
#define LANEQL_BITMASK_H_

#include <cstddef>
#include <cstdint>

namespace laneql {

inline constexpr size_t BitmaskWords(size_t rows) { return (rows + 63) / 64; }

inline bool BitmaskGet(const uint64_t* words, size_t row) {
  return (words[row / 64] >> (row % 64)) & 1;
}

inline void BitmaskSet(uint64_t* words, size_t row) { words[row / 64] |= uint64_t{1} << (row % 64); }

// The mask of the valid bits of the last word for n rows (all ones when n is a multiple of 64).
inline uint64_t BitmaskTailMask(size_t rows) {
  return rows % 64 == 0 ? ~uint64_t{0} : (uint64_t{1} << (rows % 64)) - 1;
}

}  // namespace laneql

#endif  // LANEQL_BITMASK_H_
