// Test data for the hash join tests: key columns of every type drawn from a small domain of
// values (so keys repeat and match across sides), with the values SQL compares specially
// (-0.0 and +0.0, NaNs of several payloads, empty and multi-byte strings), and the plain
// comparisons the nested-loop references use.
#ifndef LANEQL_TESTS_CPP_HASH_JOIN_TEST_UTIL_H_
#define LANEQL_TESTS_CPP_HASH_JOIN_TEST_UTIL_H_

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "laneql/column.h"
#include "laneql/int128.h"
#include "laneql/interval.h"

namespace laneql {
namespace join_test {

inline uint64_t NaNBits(uint64_t payload, bool negative) {
  return (negative ? 0xFFF0000000000000ull : 0x7FF0000000000000ull) | payload;
}

// Value number d of a type's domain; numbers >= 100 are plain distinct values.
inline void AppendValue(Column* column, int d) {
  std::string error;
  bool ok = true;
  switch (column->type()) {
    case TypeId::kInt8: ok = column->Append<int8_t>(static_cast<int8_t>(d - 64), &error); break;
    case TypeId::kInt16: ok = column->Append<int16_t>(static_cast<int16_t>(d * 300 - 7000), &error); break;
    case TypeId::kInt32: ok = column->Append<int32_t>(d - 10, &error); break;
    case TypeId::kInt64: ok = column->Append<int64_t>(int64_t{d} * 1000000000007 - 5, &error); break;
    case TypeId::kUInt8: ok = column->Append<uint8_t>(static_cast<uint8_t>(d), &error); break;
    case TypeId::kUInt16: ok = column->Append<uint16_t>(static_cast<uint16_t>(d * 250), &error); break;
    case TypeId::kUInt32: ok = column->Append<uint32_t>(0xFFFFFFF0u - static_cast<uint32_t>(d), &error); break;
    case TypeId::kUInt64: ok = column->Append<uint64_t>(~uint64_t{0} - static_cast<uint64_t>(d), &error); break;
    case TypeId::kDate32: ok = column->Append<int32_t>(d * 7 - 100, &error); break;
    case TypeId::kTimestampSeconds:
    case TypeId::kTimestampMicros:
    case TypeId::kTime: ok = column->Append<int64_t>(int64_t{d} * 86400000000 + 1, &error); break;
    case TypeId::kInterval: ok = column->Append<Int128>(PackInterval({d % 7 - 3, d % 5, int64_t{d} * 1000 - 7}), &error); break;
    case TypeId::kBool: ok = column->Append<uint8_t>(static_cast<uint8_t>(d % 2), &error); break;
    case TypeId::kInt128: {
      const Int128 value = (static_cast<Int128>(d % 5) << 64) + d / 5;  // both halves vary
      ok = column->Append<Int128>(value, &error);
      break;
    }
    case TypeId::kFloat32:
    case TypeId::kFloat64: {
      // -0.0 and +0.0, and NaNs of either sign and several payloads, are each one value.
      static const uint64_t kSpecial[] = {0, 0x8000000000000000ull, NaNBits(0x8000000000000ull, false),
                                          NaNBits(0x8000000000000ull, true), NaNBits(0x8000000000123ull, false)};
      double value;
      if (d < 5) {
        std::memcpy(&value, &kSpecial[d], 8);
      } else {
        value = (d - 5) * 0.25 - 3.0;
      }
      if (column->type() == TypeId::kFloat64) {
        ok = column->Append<double>(value, &error);
      } else {
        ok = column->Append<float>(static_cast<float>(value), &error);
      }
      break;
    }
    case TypeId::kString:
    case TypeId::kLargeString: {
      static const char* kSpecial[] = {"", "a", "\xC3\xA9t\xC3\xA9", "\xE6\x97\xA5\xE6\x9C\xAC", "a ",
                                       "a string longer than thirty-two bytes, to hash in stripes"};
      ok = column->AppendString(d < 6 ? std::string(kSpecial[d]) : "key-" + std::to_string(d), &error);
      break;
    }
  }
  if (!ok) throw std::runtime_error(error);
}

inline void AppendNull(Column* column) {
  std::string error;
  if (!column->AppendNull(&error)) throw std::runtime_error(error);
}

// Whether two non-NULL values are equal as SQL compares them (floats: -0.0 = +0.0, NaN = NaN).
inline bool ValuesEqual(const Column& a, size_t i, const Column& b, size_t j) {
  switch (a.type()) {
    case TypeId::kFloat32: {
      const float x = a.Values<float>()[i], y = b.Values<float>()[j];
      return x == y || (std::isnan(x) && std::isnan(y));
    }
    case TypeId::kFloat64: {
      const double x = a.Values<double>()[i], y = b.Values<double>()[j];
      return x == y || (std::isnan(x) && std::isnan(y));
    }
    case TypeId::kString:
    case TypeId::kLargeString: return a.StringAt(i) == b.StringAt(j);
    default: {
      const size_t w = TypeByteWidth(a.type());
      return std::memcmp(a.values_buffer().data() + i * w, b.values_buffer().data() + j * w, w) == 0;
    }
  }
}

// A value spelled exactly (bit patterns for fixed-width types), "NULL" for NULL.
inline std::string Spell(const Column& column, size_t row) {
  if (!column.IsValid(row)) return "NULL";
  if (IsString(column.type())) return "'" + std::string(column.StringAt(row)) + "'";
  const size_t w = TypeByteWidth(column.type());
  std::string out;
  for (size_t k = 0; k < w; ++k) out += std::to_string(column.values_buffer().data()[row * w + k]) + ".";
  return out;
}

// A column of `rows` values drawn from [first, first + domain), each NULL with probability
// null_rate.
inline Column RandomColumn(TypeId type, size_t rows, int first, int domain, double null_rate, std::mt19937_64* rng) {
  Column column(type);
  std::uniform_int_distribution<int> value(first, first + domain - 1);
  std::bernoulli_distribution is_null(null_rate);
  for (size_t i = 0; i < rows; ++i) {
    if (null_rate > 0 && is_null(*rng)) {
      AppendNull(&column);
    } else {
      AppendValue(&column, value(*rng));
    }
  }
  return column;
}

inline std::vector<const Column*> Pointers(const std::vector<Column>& columns) {
  std::vector<const Column*> out;
  for (const Column& c : columns) out.push_back(&c);
  return out;
}

}  // namespace join_test
}  // namespace laneql

#endif  // LANEQL_TESTS_CPP_HASH_JOIN_TEST_UTIL_H_
