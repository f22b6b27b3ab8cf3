// Which of several owners takes a key, by its hash: the owned scan (group_owned.h) splits the
// groups, or COUNT(DISTINCT)'s values (ungrouped, or grouped with few groups), among threads so
// that their tables are disjoint. Every thread reads every row's hash and keeps the rows whose
// hash falls to it, so this test runs once per row per thread and is written to stay cheap: a
// byte lookup, not a division.
#ifndef LANEQL_EXEC_HASH_OWNERSHIP_H_
#define LANEQL_EXEC_HASH_OWNERSHIP_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "laneql/predicate.h"

namespace laneql {
namespace exec {

class HashOwnership {
 public:
  HashOwnership() { Set(0, 1); }

  // Which of `owners` takes the key with this hash: bits 40..47, apart from the hash tables'
  // slot bits (low), their tag bits (top 7) and the two-level merge's partition bits (32..39).
  static uint32_t OwnerOf(uint64_t hash, uint32_t owners) {
    return static_cast<uint32_t>(((hash >> 40) & 0xff) % owners);
  }

  void Set(uint32_t owner, uint32_t owners) {
    owner_ = owner;
    owners_ = owners < 1 ? 1 : owners;
    for (uint32_t b = 0; b < 256; ++b) {
      owns_byte_[b] = OwnerOf(static_cast<uint64_t>(b) << 40, owners_) == owner_ ? 1 : 0;
    }
  }
  // False when this side owns every key (one owner): callers skip the filter.
  bool shared() const { return owners_ > 1; }

  // bits[i / 64] bit i % 64 = this side owns hashes[i], for i in [0, count); with `and_into`
  // the bits are ANDed into what bits holds.
  void Mark(const uint64_t* hashes, size_t count, uint64_t* bits, bool and_into) const {
    if ((owners_ & (owners_ - 1)) == 0 && owners_ <= 256) {
      // A power of two: the owner is hash bits 40.. as they are, a masked compare in vector
      // code (the byte lookup per row below was 1.6 % of an owned GROUP BY WatchID, ClientIP).
      const uint64_t field = uint64_t{owners_ - 1} << 40, value = uint64_t{owner_} << 40;
      if (!and_into) {
        MaskedEqualToMask(hashes, count, field, value, nullptr, bits);
        return;
      }
      // ANDed in through a word buffer of its own (the kernel's output overlaps no input).
      constexpr size_t kChunk = 64 * 64;
      uint64_t words[kChunk / 64];
      for (size_t base = 0; base < count; base += kChunk) {
        const size_t rows = std::min(kChunk, count - base);
        MaskedEqualToMask(hashes + base, rows, field, value, nullptr, words);
        for (size_t w = 0; w < (rows + 63) / 64; ++w) bits[base / 64 + w] &= words[w];
      }
      return;
    }
    // Each word built in a register (a read-modify-write of memory per row was 9 instructions).
    for (size_t base = 0; base < count; base += 64) {
      const size_t rows = std::min<size_t>(64, count - base);
      uint64_t word = 0;
      for (size_t j = 0; j < rows; ++j) {
        word |= static_cast<uint64_t>(owns_byte_[(hashes[base + j] >> 40) & 0xff]) << j;
      }
      bits[base / 64] = and_into ? bits[base / 64] & word : word;
    }
  }

 private:
  uint32_t owner_ = 0, owners_ = 1;
  // owns_byte_[b]: 1 when OwnerOf gives owner_ for hash bits 40..47 = b.
  uint8_t owns_byte_[256];
};

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_HASH_OWNERSHIP_H_
