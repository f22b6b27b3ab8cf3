#include "src/storage/zone_map.h"

#include "laneql/aggregate.h"
#include "src/storage/integer_values.h"

namespace laneql {
namespace internal {

namespace {

// fn(values) with the column's values as their C++ type, for the types zone maps support.
template <class Fn>
bool WithZoneValues(const Column& column, const Fn& fn) {
  switch (column.type()) {
    case TypeId::kTime: fn(column.Values<int64_t>()); return true;
    case TypeId::kBool: fn(column.Values<uint8_t>()); return true;
    case TypeId::kFloat32: fn(column.Values<float>()); return true;
    case TypeId::kFloat64: fn(column.Values<double>()); return true;
    default: return WithIntegerValues(column, fn);
  }
}

}  // namespace

bool ZoneMap::Supports(TypeId type) {
  switch (type) {
    case TypeId::kInt8: case TypeId::kInt16: case TypeId::kInt32: case TypeId::kInt64:
    case TypeId::kUInt8: case TypeId::kUInt16: case TypeId::kUInt32: case TypeId::kBool:
    case TypeId::kDate32: case TypeId::kTimestampSeconds: case TypeId::kTimestampMicros:
    case TypeId::kTime: case TypeId::kFloat32: case TypeId::kFloat64:
      return true;
    default:
      return false;
  }
}

ZoneMap::ZoneMap(size_t rows)
    : blocks_((rows + kZoneRows - 1) / kZoneRows),
      state_(new std::atomic<uint8_t>[blocks_]),
      min_(new std::atomic<int64_t>[blocks_]),
      max_(new std::atomic<int64_t>[blocks_]) {
  for (size_t b = 0; b < blocks_; ++b) state_[b].store(0, std::memory_order_relaxed);
}

Zone ComputeZone(const Column& column, size_t begin, size_t count) {
  Zone zone;
  const uint64_t* validity = column.validity() != nullptr ? column.validity() + begin / 64 : nullptr;
  WithZoneValues(column, [&](const auto* values) {
    // MIN and MAX in DuckDB's float order (NaN above +inf), which the keys keep.
    const auto lo = AggregateMin(values + begin, count, nullptr, validity);
    const auto hi = AggregateMax(values + begin, count, nullptr, validity);
    zone.any_value = lo.count != 0;
    zone.any_null = lo.count != count;
    if (zone.any_value) {
      zone.min = ZoneKey(lo.value);
      zone.max = ZoneKey(hi.value);
    }
  });
  return zone;
}

Zone ZoneMap::Get(const Column& column, size_t block) {
  const uint8_t state = state_[block].load(std::memory_order_acquire);
  if (state != 0) {
    Zone zone;
    zone.any_value = (state & kAnyValue) != 0;
    zone.any_null = (state & kAnyNull) != 0;
    zone.min = min_[block].load(std::memory_order_relaxed);
    zone.max = max_[block].load(std::memory_order_relaxed);
    return zone;
  }
  const size_t begin = block * kZoneRows;
  const size_t count = std::min(kZoneRows, column.length() - begin);
  const Zone zone = ComputeZone(column, begin, count);
  min_[block].store(zone.min, std::memory_order_relaxed);
  max_[block].store(zone.max, std::memory_order_relaxed);
  state_[block].store(static_cast<uint8_t>(kKnown | (zone.any_value ? kAnyValue : 0) |
                                           (zone.any_null ? kAnyNull : 0)),
                      std::memory_order_release);
  return zone;
}

}  // namespace internal
}  // namespace laneql
