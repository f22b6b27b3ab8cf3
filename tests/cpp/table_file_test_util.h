// Helpers of the .laneql file tests (table_file_test.cc, table_file_corruption_test.cc):
// temporary paths, columns of every type with random values, comparisons byte for byte.
#ifndef LANEQL_TESTS_CPP_TABLE_FILE_TEST_UTIL_H_
#define LANEQL_TESTS_CPP_TABLE_FILE_TEST_UTIL_H_

#include <dirent.h>
#include <unistd.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "laneql/column.h"
#include "laneql/int128.h"
#include "laneql/interval.h"
#include "laneql/table.h"
#include "all_types.h"

namespace laneql::table_file_testing {

// The wasm test runner (node) has no real temporary directory to map files from.
#ifdef __EMSCRIPTEN__
#define SKIP_WITHOUT_FILES() GTEST_SKIP() << "file tests run natively only"
#else
#define SKIP_WITHOUT_FILES() \
  do {                       \
  } while (0)
#endif

using testing_types::kAllTypes;

// Names of this process's files: the pid alone is not unique where test runs in other PID
// namespaces share the temporary directory (sandboxes, containers), so a random tag joins it.
inline const std::string& FilePrefix() {
  static const std::string prefix = [] {
    std::random_device random;
    return "laneql_table_file_" + std::to_string(::getpid()) + "_" + std::to_string(random()) +
           "_";
  }();
  return prefix;
}

inline std::string TempPath(const std::string& name) {
  return ::testing::TempDir() + FilePrefix() + name;
}

inline std::string ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

inline void WriteBytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  ASSERT_TRUE(out.good()) << path;
}

// Files in the temporary directory whose names start with `prefix` (temporaries left behind).
inline std::vector<std::string> FilesStartingWith(const std::string& directory,
                                           const std::string& prefix) {
  std::vector<std::string> found;
  DIR* dir = ::opendir(directory.c_str());
  if (dir == nullptr) return found;
  while (dirent* entry = ::readdir(dir)) {
    const std::string name = entry->d_name;
    if (name.compare(0, prefix.size(), prefix) == 0) found.push_back(name);
  }
  ::closedir(dir);
  return found;
}

// ------------------------------ building and comparing columns

// Appends one non-null row of `type`, drawn from `rng` (floats include NaN, -0 and infinities;
// strings include empty and multi-byte ones).
inline void AppendRandom(TypeId type, std::mt19937_64& rng, Column* column) {
  const uint64_t bits = rng();
  bool ok = false;
  switch (type) {
    case TypeId::kInt8: ok = column->Append(static_cast<int8_t>(bits), nullptr); break;
    case TypeId::kInt16: ok = column->Append(static_cast<int16_t>(bits), nullptr); break;
    case TypeId::kInt32:
    case TypeId::kDate32: ok = column->Append(static_cast<int32_t>(bits), nullptr); break;
    case TypeId::kInt64:
    case TypeId::kTimestampSeconds:
    case TypeId::kTimestampMicros:
    case TypeId::kTime: ok = column->Append(static_cast<int64_t>(bits), nullptr); break;
    case TypeId::kInterval:
      ok = column->Append(PackInterval({static_cast<int32_t>(bits), static_cast<int32_t>(bits >> 32),
                                        static_cast<int64_t>(rng())}),
                          nullptr);
      break;
    case TypeId::kUInt8: ok = column->Append(static_cast<uint8_t>(bits), nullptr); break;
    case TypeId::kUInt16: ok = column->Append(static_cast<uint16_t>(bits), nullptr); break;
    case TypeId::kUInt32: ok = column->Append(static_cast<uint32_t>(bits), nullptr); break;
    case TypeId::kUInt64: ok = column->Append(bits, nullptr); break;
    case TypeId::kFloat32: {
      const float specials[] = {std::numeric_limits<float>::quiet_NaN(), -0.0f,
                                std::numeric_limits<float>::infinity(),
                                -std::numeric_limits<float>::infinity(),
                                std::numeric_limits<float>::denorm_min()};
      const float value = bits % 3 == 0 ? specials[(bits >> 8) % 5]
                                        : static_cast<float>(static_cast<int32_t>(bits)) / 7.0f;
      ok = column->Append(value, nullptr);
      break;
    }
    case TypeId::kFloat64: {
      const double specials[] = {std::numeric_limits<double>::quiet_NaN(), -0.0,
                                 std::numeric_limits<double>::infinity(),
                                 -std::numeric_limits<double>::infinity(), 1e-310};
      const double value = bits % 3 == 0 ? specials[(bits >> 8) % 5]
                                         : static_cast<double>(static_cast<int64_t>(bits)) / 3.0;
      ok = column->Append(value, nullptr);
      break;
    }
    case TypeId::kString:
    case TypeId::kLargeString: {
      static const char* const kWords[] = {"", "a", "Ärger", "москва", "https://example.org/"};
      std::string value;
      for (uint64_t n = bits % 4; n > 0; --n) value += kWords[(bits >> (8 * n)) % 5];
      ok = column->AppendString(value, nullptr);
      break;
    }
    case TypeId::kInt128: {
      const Int128 value = static_cast<Int128>(static_cast<int64_t>(rng())) * (Int128{1} << 64) +
                           static_cast<Int128>(bits);
      ok = column->Append(value, nullptr);
      break;
    }
    case TypeId::kBool: ok = column->Append(static_cast<bool>(bits & 1), nullptr); break;
  }
  ASSERT_TRUE(ok) << TypeName(type);
}

inline Column MakeColumn(TypeId type, size_t rows, bool with_nulls, uint64_t seed) {
  std::mt19937_64 rng(seed);
  Column column(type);
  for (size_t r = 0; r < rows; ++r) {
    if (with_nulls && r % 5 == 2) {
      EXPECT_TRUE(column.AppendNull(nullptr));
    } else {
      AppendRandom(type, rng, &column);
    }
  }
  return column;
}

// One column of every type, called by the type's name.
inline Table MakeEveryTypeTable(size_t rows, bool with_nulls) {
  Table table;
  uint64_t seed = rows * 31 + (with_nulls ? 1 : 0);
  for (TypeId type : kAllTypes) {
    EXPECT_TRUE(table.AddColumn(TypeName(type), MakeColumn(type, rows, with_nulls, ++seed),
                                nullptr));
  }
  return table;
}

inline bool SameBytes(const void* a, const void* b, size_t size) {
  return size == 0 || std::memcmp(a, b, size) == 0;
}

// The columns hold the same rows byte for byte (buffers compared over the sizes that hold data).
inline void ExpectSameColumn(const Column& want, const Column& got, const std::string& name) {
  SCOPED_TRACE(name);
  ASSERT_EQ(want.type(), got.type());
  ASSERT_EQ(want.length(), got.length());
  EXPECT_EQ(want.null_count(), got.null_count());
  ASSERT_EQ(want.values_buffer().size(), got.values_buffer().size());
  EXPECT_TRUE(SameBytes(want.values_buffer().data(), got.values_buffer().data(),
                        want.values_buffer().size()));
  if (IsString(want.type())) {
    const size_t bytes = (want.length() + 1) * OffsetByteWidth(want.type());
    const void* a = want.type() == TypeId::kString ? static_cast<const void*>(want.Offsets32())
                                                   : static_cast<const void*>(want.Offsets64());
    const void* b = got.type() == TypeId::kString ? static_cast<const void*>(got.Offsets32())
                                                  : static_cast<const void*>(got.Offsets64());
    EXPECT_TRUE(SameBytes(a, b, bytes));
  }
  ASSERT_EQ(want.validity() == nullptr, got.validity() == nullptr);
  if (want.validity() != nullptr) {
    EXPECT_TRUE(SameBytes(want.validity(), got.validity(),
                          BitmaskWords(want.length()) * sizeof(uint64_t)));
  }
}

inline void ExpectSameTable(const Table& want, const Table& got) {
  ASSERT_EQ(want.num_columns(), got.num_columns());
  ASSERT_EQ(want.num_rows(), got.num_rows());
  for (size_t c = 0; c < want.num_columns(); ++c) {
    EXPECT_EQ(want.column_name(c), got.column_name(c));
    ExpectSameColumn(want.column(c), got.column(c), want.column_name(c));
  }
}

}  // namespace laneql::table_file_testing

#endif  // LANEQL_TESTS_CPP_TABLE_FILE_TEST_UTIL_H_
