// A join's key filter: one bit per value of a build key hash's top bits, set for every build
// row. A probe row whose bit is clear has no match; a branch-free pass over a batch's hashes
// lists the rows whose bit is set, and only those read the buckets. For a selective join the
// buckets' branches were the cost: TPC-H Q17 probes 6 M lineitem rows against 204 parts, and
// about one row in 30,000 matches. Built for build sides of at most kMaxRows rows (its bits,
// 16 per row, stay in the L2 cache); a filter over a side that matches most probe rows only
// costs, so the probe stops asking it once it passes most rows (hash_join.cc).
#ifndef LANEQL_EXEC_JOIN_KEY_FILTER_H_
#define LANEQL_EXEC_JOIN_KEY_FILTER_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "laneql/aligned_buffer.h"
#include "laneql/bitmask.h"

namespace laneql {
namespace exec {

class JoinKeyFilter {
 public:
  static constexpr size_t kMaxRows = size_t{1} << 18;
  static constexpr size_t kBitsPerRow = 16;

  // Sets the bit of every valid row of `hashes` (`inserted` of them); none when inserted is 0
  // or above kMaxRows (then enabled() is false).
  bool Build(const uint64_t* hashes, const uint64_t* valid, size_t rows, size_t inserted, std::string* error) {
    if (inserted == 0 || inserted > kMaxRows) return true;
    size_t bits = 512;
    int log2 = 9;
    while (bits < inserted * kBitsPerRow) {
      bits *= 2;
      ++log2;
    }
    shift_ = 64 - log2;
    if (!bits_.Resize(bits / 8, error)) return false;  // zeroed
    uint64_t* words = bits_.As<uint64_t>();
    for (size_t row = 0; row < rows; ++row) {
      if (!BitmaskGet(valid, row)) continue;
      const uint64_t bit = hashes[row] >> shift_;
      words[bit / 64] |= uint64_t{1} << (bit % 64);
    }
    enabled_ = true;
    return true;
  }

  bool enabled() const { return enabled_; }

  // The rows i of [0, n) that are valid and whose bit is set, ascending, into out (n entries
  // of room); returns how many.
  size_t Candidates(const uint64_t* hashes, const uint64_t* valid, size_t n, uint32_t* out) const {
    const uint64_t* words = bits_.As<uint64_t>();
    size_t k = 0;
    for (size_t i = 0; i < n; ++i) {
      const uint64_t bit = hashes[i] >> shift_;
      out[k] = static_cast<uint32_t>(i);
      k += ((words[bit / 64] >> (bit % 64)) & (valid[i / 64] >> (i % 64))) & 1;
    }
    return k;
  }

 private:
  AlignedBuffer bits_;
  int shift_ = 63;
  bool enabled_ = false;
};

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_JOIN_KEY_FILTER_H_
