// The integer column types whose values read as int64 without loss (the signed integers, uint8
// to uint32, dates and timestamps): Column::IntegerRange's types, and the direct join and
// GROUP BY tables built on them.
#ifndef LANEQL_STORAGE_INTEGER_VALUES_H_
#define LANEQL_STORAGE_INTEGER_VALUES_H_

#include <cstdint>

#include "laneql/column.h"

namespace laneql {

// fn(values) with the column's values as their C++ type; false (fn not called) for other types.
template <class Fn>
bool WithIntegerValues(const Column& column, const Fn& fn) {
  switch (column.type()) {
    case TypeId::kInt8: fn(column.Values<int8_t>()); return true;
    case TypeId::kInt16: fn(column.Values<int16_t>()); return true;
    case TypeId::kInt32:
    case TypeId::kDate32: fn(column.Values<int32_t>()); return true;
    case TypeId::kInt64:
    case TypeId::kTimestampSeconds:
    case TypeId::kTimestampMicros: fn(column.Values<int64_t>()); return true;
    case TypeId::kUInt8: fn(column.Values<uint8_t>()); return true;
    case TypeId::kUInt16: fn(column.Values<uint16_t>()); return true;
    case TypeId::kUInt32: fn(column.Values<uint32_t>()); return true;
    default: return false;
  }
}

}  // namespace laneql

#endif  // LANEQL_STORAGE_INTEGER_VALUES_H_
