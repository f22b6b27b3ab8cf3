// The key columns of one side of a hash join, as the join reads them: 64-bit hashes of a range
// of rows (the hash kernels of laneql/hash.h, combined column by column as GROUP BY does), which
// rows have no NULL key, and the exact comparison of a build row's keys with a probe row's that
// follows a hash hit.
#ifndef LANEQL_EXEC_HASH_JOIN_KEYS_H_
#define LANEQL_EXEC_HASH_JOIN_KEYS_H_

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "laneql/column.h"

namespace laneql {
namespace exec {

// How a key column's values are compared: by bit pattern of a width, as floats (-0.0 = +0.0,
// NaN = NaN, which plain bit equality gets wrong both ways), or as strings of either offset
// width.
// kString32x64 / kString64x32: a string key with int32 offsets on the build side and int64
// (large_string) on the probe side, or the other way round.
enum class KeyCompare : uint8_t {
  kBits1, kBits2, kBits4, kBits8, kBits16, kFloat32, kFloat64, kString32, kString64, kString32x64, kString64x32
};

KeyCompare KeyCompareOf(TypeId type);

// Checks what HashJoinPairs requires of its key columns: as many on both sides (at least one),
// pairwise of one type, one length per side, at most kMaxJoinRows rows; `*build_rows` and
// `*probe_rows` get the lengths.
bool CheckJoinKeys(const std::vector<const Column*>& build, const std::vector<const Column*>& probe,
                   size_t* build_rows, size_t* probe_rows, std::string* error);

class JoinKeys {
 public:
  explicit JoinKeys(const std::vector<const Column*>& columns) : columns_(columns) {}
  // hashes[i] = the combined hash of row begin + i's keys, for i < n. A NULL row's hash is
  // arbitrary (NULL rows are never looked up or inserted). After OffsetsFrom(min) (one key
  // column of a type Column::IntegerRange takes), hashes[i] = value - min instead, in 64-bit
  // wrap-around arithmetic: equal "hashes" are equal keys, and a key in [min, min + 2^k) has
  // its own bucket in a table of 2^k buckets (a direct table, no comparison after a hit).
  void OffsetsFrom(int64_t min) {
    offsets_ = true;
    min_ = min;
  }
  void Hash(size_t begin, size_t n, uint64_t* hashes) const;
  // valid (BitmaskWords(n) words, overwritten): bit i set when row begin + i has no NULL key.
  // `begin` is a multiple of 64.
  void ValidRows(size_t begin, size_t n, uint64_t* valid) const;
  bool HasValidity() const;
  const std::vector<const Column*>& columns() const { return columns_; }

 private:
  const std::vector<const Column*>& columns_;
  bool offsets_ = false;
  int64_t min_ = 0;
};

// Exact equality of a build row's keys and a probe row's keys (both without NULLs).
class KeyMatcher {
 public:
  KeyMatcher(const std::vector<const Column*>& build, const std::vector<const Column*>& probe);
  bool Equal(size_t build_row, size_t probe_row) const {
    for (const Pair& pair : pairs_) {
      if (!PairEqual(pair, build_row, probe_row)) return false;
    }
    return true;
  }

  struct Pair {
    KeyCompare compare;
    const uint8_t* build_values;
    const uint8_t* probe_values;
    const void* build_offsets;  // string columns only
    const void* probe_offsets;
  };
  const std::vector<Pair>& pairs() const { return pairs_; }

  template <class T>
  static bool SameBits(const uint8_t* a, const uint8_t* b) {
    T x, y;
    std::memcpy(&x, a, sizeof(T));
    std::memcpy(&y, b, sizeof(T));
    return x == y;
  }
  template <class F>
  static bool SameFloat(const uint8_t* a, const uint8_t* b) {
    F x, y;
    std::memcpy(&x, a, sizeof(F));
    std::memcpy(&y, b, sizeof(F));
    return x == y || (std::isnan(x) && std::isnan(y));
  }
  template <class BuildOffset, class ProbeOffset = BuildOffset>
  static bool SameString(const Pair& pair, size_t build_row, size_t probe_row) {
    const BuildOffset* bo = static_cast<const BuildOffset*>(pair.build_offsets);
    const ProbeOffset* po = static_cast<const ProbeOffset*>(pair.probe_offsets);
    const size_t length = static_cast<size_t>(bo[build_row + 1] - bo[build_row]);
    if (length != static_cast<size_t>(po[probe_row + 1] - po[probe_row])) return false;
    return length == 0 ||
           std::memcmp(pair.build_values + bo[build_row], pair.probe_values + po[probe_row], length) == 0;
  }
  static bool PairEqual(const Pair& pair, size_t build_row, size_t probe_row) {
    switch (pair.compare) {
      case KeyCompare::kBits1: return pair.build_values[build_row] == pair.probe_values[probe_row];
      case KeyCompare::kBits2: return SameBits<uint16_t>(pair.build_values + build_row * 2, pair.probe_values + probe_row * 2);
      case KeyCompare::kBits4: return SameBits<uint32_t>(pair.build_values + build_row * 4, pair.probe_values + probe_row * 4);
      case KeyCompare::kBits8: return SameBits<uint64_t>(pair.build_values + build_row * 8, pair.probe_values + probe_row * 8);
      case KeyCompare::kBits16:
        return std::memcmp(pair.build_values + build_row * 16, pair.probe_values + probe_row * 16, 16) == 0;
      case KeyCompare::kFloat32: return SameFloat<float>(pair.build_values + build_row * 4, pair.probe_values + probe_row * 4);
      case KeyCompare::kFloat64: return SameFloat<double>(pair.build_values + build_row * 8, pair.probe_values + probe_row * 8);
      case KeyCompare::kString32: return SameString<int32_t>(pair, build_row, probe_row);
      case KeyCompare::kString64: return SameString<int64_t>(pair, build_row, probe_row);
      case KeyCompare::kString32x64: return SameString<int32_t, int64_t>(pair, build_row, probe_row);
      case KeyCompare::kString64x32: return SameString<int64_t, int32_t>(pair, build_row, probe_row);
    }
    return false;
  }

 private:
  std::vector<Pair> pairs_;
};

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_HASH_JOIN_KEYS_H_
