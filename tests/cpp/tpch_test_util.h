// Helpers of the TPC-H generator's tests (tpch_generator_test.cc, tpch_values_test.cc): the
// tables of one scale factor, typed reads of their columns and SQL LIKE for the queries'
// patterns.
#ifndef LANEQL_TESTS_CPP_TPCH_TEST_UTIL_H_
#define LANEQL_TESTS_CPP_TPCH_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "laneql/int128.h"
#include "laneql/tpch_generator.h"
#include "laneql/types.h"

namespace laneql::tpch_test {

using Tables = std::vector<std::pair<std::string, Table>>;

inline Tables Generate(double scale_factor, uint64_t seed, int threads) {
  TpchOptions options;
  options.scale_factor = scale_factor;
  options.seed = seed;
  options.threads = threads;
  Tables tables;
  std::string error;
  EXPECT_TRUE(GenerateTpch(options, &tables, &error)) << error;
  return tables;
}

// SF 0.01 with the default seed, built once for the tests that only read it.
inline const Tables& Small() {
  static const Tables* const kTables = new Tables(Generate(0.01, 1, 2));
  return *kTables;
}

inline const Table& Get(const Tables& tables, std::string_view name) {
  for (const auto& [table_name, table] : tables) {
    if (table_name == name) return table;
  }
  ADD_FAILURE() << "no table " << name;
  static const Table kEmpty;
  return kEmpty;
}

inline const Column& Col(const Table& table, std::string_view name) {
  const Column* column = table.FindColumn(name);
  EXPECT_NE(column, nullptr) << name;
  return *column;
}

// A key or other integer column's value, whatever its width.
inline int64_t Int(const Column& column, size_t row) {
  switch (column.type()) {
    case TypeId::kInt32:
    case TypeId::kDate32:
      return column.Values<int32_t>()[row];
    case TypeId::kInt64:
      return column.Values<int64_t>()[row];
    default:
      ADD_FAILURE() << "not an integer column: " << TypeName(column.type());
      return 0;
  }
}
// A DECIMAL(15,2) value in hundredths.
inline int64_t Cents(const Column& column, size_t row) {
  EXPECT_EQ(column.type(), DecimalType(15, 2));
  return static_cast<int64_t>(column.Values<Int128>()[row]);
}

// SQL LIKE for the patterns the queries use: '%' only (any run of characters).
inline bool Like(std::string_view text, std::string_view pattern) {
  const size_t percent = pattern.find('%');
  if (percent == std::string_view::npos) return text == pattern;
  if (text.substr(0, percent) != pattern.substr(0, percent)) return false;
  std::string_view rest = pattern.substr(percent + 1);
  text.remove_prefix(percent);
  if (rest.empty()) return true;
  for (size_t at = 0; at <= text.size(); ++at) {
    if (Like(text.substr(at), rest)) return true;
  }
  return false;
}

inline size_t CountLike(const Table& table, std::string_view column, std::string_view pattern) {
  const Column& c = Col(table, column);
  size_t n = 0;
  for (size_t r = 0; r < c.length(); ++r) n += Like(c.StringAt(r), pattern);
  return n;
}

}  // namespace laneql::tpch_test

#endif  // LANEQL_TESTS_CPP_TPCH_TEST_UTIL_H_
