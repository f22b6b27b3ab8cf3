// The plain loop that defines BloomFilterTest (laneql/bloom_filter.h).
#include <cstring>

#include "laneql/bloom_filter.h"

namespace laneql {

void BloomFilterTestReference(const uint64_t* words, int shift, const uint64_t* hashes, size_t n,
                              uint64_t* hits) {
  std::memset(hits, 0, (n + 63) / 64 * sizeof(uint64_t));
  for (size_t i = 0; i < n; ++i) {
    const uint64_t bits = BloomKeyBits(hashes[i]);
    if ((words[BloomBlock(hashes[i], shift)] & bits) == bits) hits[i / 64] |= uint64_t{1} << (i % 64);
  }
}

}  // namespace laneql
