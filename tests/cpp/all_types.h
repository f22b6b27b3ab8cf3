// Every TypeId (decimals and lists aside), for the tests that go through each type.
#ifndef LANEQL_TESTS_CPP_ALL_TYPES_H_
#define LANEQL_TESTS_CPP_ALL_TYPES_H_

#include "laneql/types.h"

namespace laneql::testing_types {

inline constexpr TypeId kAllTypes[] = {
    TypeId::kInt8,    TypeId::kInt16,   TypeId::kInt32,  TypeId::kInt64,
    TypeId::kUInt8,   TypeId::kUInt16,  TypeId::kUInt32, TypeId::kUInt64,
    TypeId::kFloat32, TypeId::kFloat64, TypeId::kDate32, TypeId::kTimestampSeconds,
    TypeId::kTimestampMicros, TypeId::kString, TypeId::kLargeString, TypeId::kInt128,
    TypeId::kBool,    TypeId::kTime,    TypeId::kInterval};
static_assert(sizeof(kAllTypes) / sizeof(kAllTypes[0]) == kNumTypeIds, "list every type");

}  // namespace laneql::testing_types

#endif  // LANEQL_TESTS_CPP_ALL_TYPES_H_
