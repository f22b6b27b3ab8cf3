// A join's key filter: a register-blocked Bloom filter (laneql/bloom_filter.h) of the build
// keys' hashes, 16 bits a build row, 3 of them set per key in the key's 64-bit block. A probe
// row the filter rejects has no match; a SIMD pass over a batch's hashes marks the rows it
// passes, and only those read the buckets. For a selective join the buckets' branches were the
// cost: TPC-H Q17 probes 6 M lineitem rows against 204 parts, and about one row in 30,000
// matches. (The filter it replaced set one bit per key: about 6 % of the probe rows without a
// match passed it; three bits in a block pass about 1 %.) Built for build sides of at most
// kMaxRows rows (its bits stay in the L2 cache); a filter over a side that matches most probe
// rows only costs, so the probe stops asking it once it passes most rows (hash_join.cc).
#ifndef LANEQL_EXEC_JOIN_KEY_FILTER_H_
#define LANEQL_EXEC_JOIN_KEY_FILTER_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "laneql/aligned_buffer.h"
#include "laneql/bitmask.h"
#include "laneql/bloom_filter.h"

namespace laneql {
namespace exec {

class JoinKeyFilter {
 public:
  static constexpr size_t kMaxRows = size_t{1} << 18;
  static constexpr size_t kBitsPerRow = 16;

  // Inserts every valid row of `hashes` (`inserted` of them); none when inserted is 0 or above
  // kMaxRows (then enabled() is false).
  bool Build(const uint64_t* hashes, const uint64_t* valid, size_t rows, size_t inserted, std::string* error) {
    if (inserted == 0 || inserted > kMaxRows) return true;
    size_t words = 8;  // at least one cache line
    int log2 = 3;
    while (words * 64 < inserted * kBitsPerRow) {
      words *= 2;
      ++log2;
    }
    shift_ = 64 - log2;
    if (!words_.Resize(words * sizeof(uint64_t), error)) return false;  // zeroed
    uint64_t* filter = words_.As<uint64_t>();
    for (size_t row = 0; row < rows; ++row) {
      if (BitmaskGet(valid, row)) BloomInsert(filter, shift_, hashes[row]);
    }
    enabled_ = true;
    return true;
  }

  bool enabled() const { return enabled_; }

  // The rows i of [0, n) that are valid and that the filter passes, ascending, into out (n
  // entries of room); returns how many.
  size_t Candidates(const uint64_t* hashes, const uint64_t* valid, size_t n, uint32_t* out) const {
    constexpr size_t kChunk = 1024;
    uint64_t hits[kChunk / 64];
    size_t k = 0;
    for (size_t base = 0; base < n; base += kChunk) {
      const size_t m = n - base < kChunk ? n - base : kChunk;
      BloomFilterTest(words_.As<uint64_t>(), shift_, hashes + base, m, hits);
      for (size_t w = 0; w < (m + 63) / 64; ++w) {
        uint64_t bits = hits[w] & valid[base / 64 + w];
        while (bits != 0) {
          out[k++] = static_cast<uint32_t>(base + w * 64 + static_cast<size_t>(__builtin_ctzll(bits)));
          bits &= bits - 1;
        }
      }
    }
    return k;
  }

 private:
  AlignedBuffer words_;
  int shift_ = 61;
  bool enabled_ = false;
};

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_JOIN_KEY_FILTER_H_
