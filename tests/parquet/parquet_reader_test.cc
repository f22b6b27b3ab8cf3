// ReadParquetFile on files pyarrow wrote (the CTest fixture parquet_test_files runs
// write_clickbench_parquet.py and write_type_parquet_files.py into LANEQL_PARQUET_TEST_DIR).
#include "laneql/parquet.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "laneql/file_readers.h"

namespace laneql {
namespace {

std::string TestFile(const std::string& name) {
  return std::string(LANEQL_PARQUET_TEST_DIR) + "/" + name;
}

// Reads a fixture file; a missing one means the test ran outside ctest.
bool ReadTestFile(const std::string& name, Table* table) {
  const std::string path = TestFile(name);
  if (!std::ifstream(path)) {
    ADD_FAILURE() << path << " is missing: run through ctest, whose fixture writes it";
    return false;
  }
  std::string error;
  const bool ok = ReadParquetFile(path, table, &error);
  EXPECT_TRUE(ok) << error;
  return ok;
}

const Column& ColumnOf(const Table& table, const char* name) {
  const Column* column = table.FindColumn(name);
  EXPECT_NE(column, nullptr) << name;
  static const Column kMissing;
  return column != nullptr ? *column : kMissing;
}

template <class T>
void ExpectFixed(const Table& table, const char* name, TypeId type,
                 const std::vector<std::optional<T>>& rows) {
  SCOPED_TRACE(name);
  const Column& column = ColumnOf(table, name);
  EXPECT_EQ(column.type(), type);
  ASSERT_EQ(column.length(), rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(column.IsValid(i), rows[i].has_value()) << "row " << i;
    EXPECT_EQ(column.Values<T>()[i], rows[i].value_or(T{0})) << "row " << i;
  }
}

void ExpectStrings(const Table& table, const char* name, TypeId type,
                   const std::vector<std::optional<std::string>>& rows) {
  SCOPED_TRACE(name);
  const Column& column = ColumnOf(table, name);
  EXPECT_EQ(column.type(), type);
  ASSERT_EQ(column.length(), rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(column.IsValid(i), rows[i].has_value()) << "row " << i;
    EXPECT_EQ(column.StringAt(i), rows[i].value_or("")) << "row " << i;
  }
}

constexpr std::nullopt_t kNull = std::nullopt;

TEST(ParquetReaderTest, ReadsEveryMappedType) {
  Table table;
  if (!ReadTestFile("types.parquet", &table)) return;
  EXPECT_EQ(table.num_rows(), 5u);
  EXPECT_EQ(table.num_columns(), 21u);
  ExpectFixed<int8_t>(table, "i8", TypeId::kInt8, {-128, 127, kNull, 0, -1});
  ExpectFixed<int16_t>(table, "i16", TypeId::kInt16, {-32768, 32767, kNull, 0, 7});
  ExpectFixed<int32_t>(table, "i32", TypeId::kInt32, {INT32_MIN, INT32_MAX, kNull, 0, 42});
  ExpectFixed<int64_t>(table, "i64", TypeId::kInt64,
                       {INT64_MIN, INT64_MAX, kNull, 0, 1234567890123});
  ExpectFixed<uint8_t>(table, "u8", TypeId::kUInt8, {0, 255, kNull, 1, 200});
  ExpectFixed<uint16_t>(table, "u16", TypeId::kUInt16, {0, 65535, kNull, 1, 15887});
  ExpectFixed<uint32_t>(table, "u32", TypeId::kUInt32, {0, UINT32_MAX, kNull, 1, 3000000000u});
  ExpectFixed<uint64_t>(table, "u64", TypeId::kUInt64,
                        {0, UINT64_MAX, kNull, 1, uint64_t{1} << 63});
  ExpectFixed<float>(table, "f32", TypeId::kFloat32, {-1.5f, 3.25f, kNull, 0.0f, 1e30f});
  ExpectFixed<double>(table, "f64", TypeId::kFloat64, {-1.5, 1e300, kNull, 0.0, 0.1});
  ExpectFixed<uint8_t>(table, "flag", TypeId::kBool, {1, 0, kNull, 1, 0});
  ExpectFixed<int32_t>(table, "day", TypeId::kDate32, {0, 15887, kNull, -1, 19000});
  // Parquet stores timestamp[s] as milliseconds; both arrive as microseconds.
  ExpectFixed<int64_t>(table, "ts_s", TypeId::kTimestampMicros,
                       {1372636800000000, -1000000, kNull, 0, 1000000});
  ExpectFixed<int64_t>(table, "ts_ms", TypeId::kTimestampMicros,
                       {0, 1372636800123000, kNull, -1000, 1000});
  ExpectFixed<int64_t>(table, "ts_us", TypeId::kTimestampMicros,
                       {0, 1372636800123456, kNull, -1, 1});
  ExpectFixed<int64_t>(table, "ts_ns", TypeId::kTimestampMicros,
                       {-1, 1372636800123456, kNull, -1, 1});
  ExpectStrings(table, "name", TypeId::kString, {"", "h\xc3\xa9llo", kNull, "laneql",
                                                 std::string(100, 'x')});
  ExpectStrings(table, "bytes", TypeId::kString,
                {std::string("\x00\xff", 2), "", kNull, "abc", "\x80"});
  ExpectStrings(table, "big_name", TypeId::kLargeString, {"a", "", kNull, "\xc3\xbc", "zz"});
  ExpectStrings(table, "big_bytes", TypeId::kLargeString, {"\x01", "\x02\x03", kNull, "", "\xfe"});
  ExpectStrings(table, "dict_name", TypeId::kString, {"red", "green", kNull, "red", "blue"});
}

// hits_sample.expected.tsv: a header, then one line per row; integers in decimal, byte strings
// in hex, nulls as \N (see write_clickbench_parquet.py).
std::vector<std::vector<std::string>> ReadExpectedRows(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::vector<std::string>> rows;
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream stream(line);
    std::string cell;
    while (std::getline(stream, cell, '\t')) cells.push_back(cell);
    if (!line.empty() && line.back() == '\t') cells.push_back("");
    rows.push_back(std::move(cells));
  }
  return rows;
}

std::string FromHex(const std::string& hex) {
  std::string bytes;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    bytes.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  }
  return bytes;
}

// The cell of a fixed-width column as text, as Python printed it.
std::string FixedAsText(const Column& column, size_t row) {
  switch (column.type()) {
    case TypeId::kInt16:
      return std::to_string(column.Values<int16_t>()[row]);
    case TypeId::kUInt16:
      return std::to_string(column.Values<uint16_t>()[row]);
    case TypeId::kInt32:
      return std::to_string(column.Values<int32_t>()[row]);
    case TypeId::kInt64:
      return std::to_string(column.Values<int64_t>()[row]);
    default:
      return "<unexpected type>";
  }
}

TEST(ParquetReaderTest, ReadsClickBenchStyleFileValueByValue) {
  Table table;
  if (!ReadTestFile("hits_sample.parquet", &table)) return;
  const std::vector<std::vector<std::string>> expected =
      ReadExpectedRows(TestFile("hits_sample.expected.tsv"));
  ASSERT_EQ(expected.size(), 3001u);
  const std::vector<std::string>& names = expected[0];
  ASSERT_EQ(table.num_columns(), names.size());
  ASSERT_EQ(table.num_rows(), 3000u);

  // The types hits.parquet uses: text is BINARY, EventDate a uint16 day number.
  const std::pair<const char*, TypeId> types[] = {
      {"WatchID", TypeId::kInt64},   {"JavaEnable", TypeId::kInt16},
      {"Title", TypeId::kString},    {"EventTime", TypeId::kInt64},
      {"EventDate", TypeId::kUInt16}, {"CounterID", TypeId::kInt32},
      {"URL", TypeId::kString},      {"RefererHash", TypeId::kInt64},
      {"UTMSource", TypeId::kString}};
  for (const auto& [name, type] : types) EXPECT_EQ(ColumnOf(table, name).type(), type) << name;

  size_t nulls = 0;
  for (size_t c = 0; c < names.size(); ++c) {
    SCOPED_TRACE(names[c]);
    EXPECT_EQ(table.column_name(c), names[c]);
    const Column& column = table.column(c);
    const bool is_string = column.type() == TypeId::kString;
    for (size_t row = 0; row < table.num_rows(); ++row) {
      const std::vector<std::string>& cells = expected[row + 1];
      ASSERT_EQ(cells.size(), names.size()) << "line " << row + 2;
      const std::string& cell = cells[c];
      if (cell == "\\N") {
        ++nulls;
        ASSERT_FALSE(column.IsValid(row)) << "row " << row;
        continue;
      }
      ASSERT_TRUE(column.IsValid(row)) << "row " << row;
      if (is_string) {
        ASSERT_EQ(column.StringAt(row), FromHex(cell)) << "row " << row;
      } else {
        ASSERT_EQ(FixedAsText(column, row), cell) << "row " << row;
      }
    }
  }
  EXPECT_GT(nulls, 1000u);  // both nullable columns are about 30% null
}

TEST(ParquetReaderTest, ReadsFileWithoutRows) {
  Table table;
  if (!ReadTestFile("empty.parquet", &table)) return;
  EXPECT_EQ(table.num_rows(), 0u);
  ASSERT_EQ(table.num_columns(), 2u);
  EXPECT_EQ(table.column(0).type(), TypeId::kInt32);
  EXPECT_EQ(table.column(1).type(), TypeId::kString);
}

// Reads `name`, expecting a failure whose message starts with the path and contains `needle`;
// the table passed in is left as it was.
void ExpectReadError(const std::string& name, const std::string& needle) {
  const std::string path = TestFile(name);
  Table table;
  std::string error;
  ASSERT_FALSE(ReadParquetFile(path, &table, &error));
  EXPECT_EQ(error.rfind(path + ": ", 0), 0u) << error;
  EXPECT_NE(error.find(needle), std::string::npos) << error;
  EXPECT_EQ(table.num_columns(), 0u);
}

TEST(ParquetReaderTest, UnsupportedColumnTypeNamesColumnAndType) {
  ExpectReadError("list.parquet", "column 'tags': Arrow type list<element: int64>");
}

TEST(ParquetReaderTest, MissingFileIsAnError) {
  ExpectReadError("no_such_file.parquet", "cannot open");
}

TEST(ParquetReaderTest, FileThatIsNotParquetIsAnError) {
  ExpectReadError("not_parquet.parquet", "not a readable Parquet file");
}

TEST(ParquetReaderTest, TruncatedFileIsAnError) {
  ExpectReadError("truncated.parquet", "not a readable Parquet file");
}

TEST(ParquetReaderTest, CorruptColumnChunksAreAnError) {
  // The footer still parses; the page headers and data under it do not.
  ExpectReadError("corrupt_pages.parquet", "cannot read");
}

TEST(ParquetReaderTest, InstallRegistersParquetExtension) {
  InstallParquetReader();
  EXPECT_EQ(FindTableFileReader("X.PARQUET"), &ReadParquetFile);
  EXPECT_EQ(FindTableFileReader("data/hits.parquet"), &ReadParquetFile);
  EXPECT_NE(FindTableFileReader("hits.parquet.csv"), &ReadParquetFile);
}

}  // namespace
}  // namespace laneql
