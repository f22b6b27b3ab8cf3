// Zone maps: for each block of kZoneRows rows of a column, the smallest and largest non-NULL
// value and whether the block holds a NULL, so that a filter can pass over a block its
// condition cannot select (or take a whole block it selects entirely) without reading the rows.
// Columns sorted or clustered by a value (a time series by its timestamp, ClickBench's hits by
// CounterID and EventDate, TPC-H's lineitem by l_orderkey) make most blocks decidable.
//
// A block's range is worked out the first time a filter asks for it (two SIMD passes over rows
// that the filter is about to read anyway) and kept with the column (Column::Zones), so later
// queries decide the block without touching it. Thread-safe: threads that work out one block at
// once store the same answer.
//
// Values are kept as order keys in int64: integers as themselves, floats so that the keys order
// as DuckDB's float comparisons do (-0.0 equal to +0.0, NaN equal to NaN and above +inf).
#ifndef LANEQL_STORAGE_ZONE_MAP_H_
#define LANEQL_STORAGE_ZONE_MAP_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>

#include "laneql/column.h"
#include "laneql/types.h"

namespace laneql {
namespace internal {

// Rows per block: a multiple of 64 (blocks start on mask words) dividing the scans' batches.
inline constexpr size_t kZoneRows = 8192;

// A float as an int64 that orders as the predicate kernels compare (laneql/predicate.h).
inline int64_t FloatOrderKey(double value) {
  if (value != value) return INT64_MAX;  // NaN, any payload
  if (value == 0) value = 0.0;           // -0.0 equals +0.0
  int64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits >= 0 ? bits : bits ^ INT64_MAX;
}

// A value of a column type ZoneMap supports as its order key.
template <class T>
int64_t ZoneKey(T value) {
  if constexpr (std::is_floating_point_v<T>) {
    return FloatOrderKey(static_cast<double>(value));
  } else {
    static_assert(sizeof(T) < 8 || std::is_signed_v<T>, "uint64 values do not fit an int64 key");
    return static_cast<int64_t>(value);
  }
}

// One block's zone.
struct Zone {
  bool any_value = false;  // false: every row is NULL (min and max unset)
  bool any_null = false;
  int64_t min = 0, max = 0;  // order keys
};

class ZoneMap {
 public:
  // Whether columns of `type` get zone maps: the integers that read as int64 without loss
  // (storage/integer_values.h), booleans, dates, timestamps and floats.
  static bool Supports(TypeId type);
  explicit ZoneMap(size_t rows);
  size_t blocks() const { return blocks_; }
  // Block `block`'s zone, worked out from `column` (the column this map belongs to) the first
  // time.
  Zone Get(const Column& column, size_t block);
  // Whether Get(block) would return at no cost.
  bool Known(size_t block) const { return state_[block].load(std::memory_order_acquire) != 0; }

 private:
  static constexpr uint8_t kKnown = 1, kAnyValue = 2, kAnyNull = 4;
  size_t blocks_;
  std::unique_ptr<std::atomic<uint8_t>[]> state_;  // 0 = not worked out yet
  std::unique_ptr<std::atomic<int64_t>[]> min_, max_;
};

// The zone of rows [begin, begin + count) of `column` (exposed for tests; ZoneMap::Get uses it).
Zone ComputeZone(const Column& column, size_t begin, size_t count);

}  // namespace internal
}  // namespace laneql

#endif  // LANEQL_STORAGE_ZONE_MAP_H_
