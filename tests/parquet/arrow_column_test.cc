// ColumnFromArrow on arrays built in memory: the cases Parquet files rarely produce (sliced
// chunks with bit offsets, bytes left in null slots, every timestamp unit, a chunk per
// dictionary) and the errors.
#include "arrow_column.h"

#include <arrow/api.h>
#include <arrow/json/from_string.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "laneql/int128.h"

namespace laneql {
namespace parquet_internal {
namespace {

std::shared_ptr<arrow::Array> FromJson(const std::shared_ptr<arrow::DataType>& type,
                                       const std::string& json) {
  arrow::Result<std::shared_ptr<arrow::Array>> array =
      arrow::json::ArrayFromJSONString(type, json);
  EXPECT_TRUE(array.ok()) << array.status().ToString();
  return array.ok() ? *array : nullptr;
}

arrow::ChunkedArray Chunks(std::vector<std::shared_ptr<arrow::Array>> chunks) {
  std::shared_ptr<arrow::DataType> type = chunks.front()->type();
  return arrow::ChunkedArray(std::move(chunks), type);
}

Column Convert(const arrow::ChunkedArray& array) {
  Column column;
  std::string error;
  EXPECT_TRUE(ColumnFromArrow(array, "c", &column, &error)) << error;
  return column;
}

// Checks a fixed-width column row by row: nullopt = null, whose slot must read 0.
template <class T>
void ExpectFixed(const Column& column, TypeId type, const std::vector<std::optional<T>>& rows) {
  EXPECT_EQ(column.type(), type);
  ASSERT_EQ(column.length(), rows.size());
  size_t nulls = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].has_value()) {
      EXPECT_TRUE(column.IsValid(i)) << "row " << i;
      EXPECT_EQ(column.Values<T>()[i], *rows[i]) << "row " << i;
    } else {
      ++nulls;
      EXPECT_FALSE(column.IsValid(i)) << "row " << i;
      EXPECT_EQ(column.Values<T>()[i], T{0}) << "row " << i;
    }
  }
  EXPECT_EQ(column.null_count(), nulls);
}

void ExpectStrings(const Column& column, TypeId type,
                   const std::vector<std::optional<std::string>>& rows) {
  EXPECT_EQ(column.type(), type);
  ASSERT_EQ(column.length(), rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(column.IsValid(i), rows[i].has_value()) << "row " << i;
    EXPECT_EQ(column.StringAt(i), rows[i].value_or("")) << "row " << i;
  }
}

TEST(ArrowColumnTest, ConcatenatesSlicedChunksWithNulls) {
  // Offsets 3 and 61 put the chunks' validity bits off byte and word boundaries.
  std::string json = "[";
  std::vector<std::optional<int32_t>> expected;
  for (int i = 0; i < 130; ++i) {
    json += (i ? "," : "") + (i % 7 == 3 ? std::string("null") : std::to_string(i * 10));
  }
  json += "]";
  std::shared_ptr<arrow::Array> all = FromJson(arrow::int32(), json);
  ASSERT_NE(all, nullptr);
  auto row = [](int i) { return i % 7 == 3 ? std::nullopt : std::optional(i * 10); };
  for (int i = 3; i < 3 + 50; ++i) expected.push_back(row(i));
  for (int i = 61; i < 61 + 69; ++i) expected.push_back(row(i));
  Column column = Convert(Chunks({all->Slice(3, 50), all->Slice(61, 69)}));
  ExpectFixed<int32_t>(column, TypeId::kInt32, expected);
  // laneql's bitmaps keep the bits past the last row at 0.
  EXPECT_EQ(column.validity()[1] >> (119 - 64), 0u);
}

TEST(ArrowColumnTest, NullSlotsReadZeroWhateverArrowLeftThere) {
  std::vector<int64_t> values = {5, 999, 7};
  std::vector<uint8_t> valid_bits = {0b101};
  auto array = std::make_shared<arrow::Int64Array>(
      3, arrow::Buffer::Wrap(values), arrow::Buffer::Wrap(valid_bits), /*null_count=*/1);
  ExpectFixed<int64_t>(Convert(Chunks({array})), TypeId::kInt64, {5, std::nullopt, 7});

  // A null string row whose offsets still span bytes ("xyz") reads as empty.
  std::vector<int32_t> offsets = {0, 2, 5, 6};
  std::string bytes = "abxyzc";
  auto strings = std::make_shared<arrow::StringArray>(
      3, arrow::Buffer::Wrap(offsets), std::make_shared<arrow::Buffer>(bytes),
      arrow::Buffer::Wrap(valid_bits), /*null_count=*/1);
  Column column = Convert(Chunks({strings}));
  ExpectStrings(column, TypeId::kString, {"ab", std::nullopt, "c"});
  EXPECT_EQ(column.Offsets32()[3], 3);  // only the valid rows' bytes are kept
}

TEST(ArrowColumnTest, MapsEveryFixedWidthType) {
  ExpectFixed<int8_t>(Convert(Chunks({FromJson(arrow::int8(), "[-128, 127, null]")})),
                      TypeId::kInt8, {-128, 127, std::nullopt});
  ExpectFixed<int16_t>(Convert(Chunks({FromJson(arrow::int16(), "[-32768, 1]")})),
                       TypeId::kInt16, {-32768, 1});
  ExpectFixed<uint8_t>(Convert(Chunks({FromJson(arrow::uint8(), "[255, null]")})),
                       TypeId::kUInt8, {255, std::nullopt});
  ExpectFixed<uint16_t>(Convert(Chunks({FromJson(arrow::uint16(), "[65535]")})),
                        TypeId::kUInt16, {65535});
  ExpectFixed<uint32_t>(Convert(Chunks({FromJson(arrow::uint32(), "[4294967295]")})),
                        TypeId::kUInt32, {4294967295u});
  ExpectFixed<uint64_t>(
      Convert(Chunks({FromJson(arrow::uint64(), "[18446744073709551615, 0]")})),
      TypeId::kUInt64, {UINT64_MAX, 0});
  ExpectFixed<float>(Convert(Chunks({FromJson(arrow::float32(), "[1.5, null, -0.25]")})),
                     TypeId::kFloat32, {1.5f, std::nullopt, -0.25f});
  ExpectFixed<double>(Convert(Chunks({FromJson(arrow::float64(), "[1e300, -2.5]")})),
                      TypeId::kFloat64, {1e300, -2.5});
  ExpectFixed<int32_t>(Convert(Chunks({FromJson(arrow::date32(), "[-1, 0, 19000, null]")})),
                       TypeId::kDate32, {-1, 0, 19000, std::nullopt});
}

TEST(ArrowColumnTest, BoolBecomesOneBytePerValue) {
  std::shared_ptr<arrow::Array> all =
      FromJson(arrow::boolean(), "[true, false, true, null, true, true, false, true, false, true]");
  ASSERT_NE(all, nullptr);
  // A slice at bit 3 and a second chunk: the bits are read at their offsets.
  Column column = Convert(Chunks({all->Slice(3, 5), all->Slice(0, 2)}));
  ExpectFixed<uint8_t>(column, TypeId::kBool, {std::nullopt, 1, 1, 0, 1, 1, 0});
}

TEST(ArrowColumnTest, TimestampUnitsBecomeSecondsOrMicros) {
  ExpectFixed<int64_t>(
      Convert(Chunks({FromJson(arrow::timestamp(arrow::TimeUnit::SECOND), "[1372636800, -1]")})),
      TypeId::kTimestampSeconds, {1372636800, -1});
  ExpectFixed<int64_t>(
      Convert(Chunks({FromJson(arrow::timestamp(arrow::TimeUnit::MILLI), "[1, -1, null]")})),
      TypeId::kTimestampMicros, {1000, -1000, std::nullopt});
  ExpectFixed<int64_t>(
      Convert(Chunks({FromJson(arrow::timestamp(arrow::TimeUnit::MICRO), "[7, -7]")})),
      TypeId::kTimestampMicros, {7, -7});
  // Nanoseconds round toward negative infinity: -1 ns is in the microsecond before 0.
  ExpectFixed<int64_t>(
      Convert(Chunks({FromJson(arrow::timestamp(arrow::TimeUnit::NANO),
                               "[-1, -1000, -1001, 0, 999, 1999, null]")})),
      TypeId::kTimestampMicros, {-1, -1, -2, 0, 0, 1, std::nullopt});
}

TEST(ArrowColumnTest, TimesOfDayBecomeMicroseconds) {
  ExpectFixed<int64_t>(Convert(Chunks({FromJson(arrow::time32(arrow::TimeUnit::SECOND), "[0, 45296, null]")})),
                       TypeId::kTime, {0, 45296000000, std::nullopt});
  ExpectFixed<int64_t>(Convert(Chunks({FromJson(arrow::time32(arrow::TimeUnit::MILLI), "[1, 86399999]")})),
                       TypeId::kTime, {1000, 86399999000});
  ExpectFixed<int64_t>(Convert(Chunks({FromJson(arrow::time64(arrow::TimeUnit::MICRO), "[7, 86400000000]")})),
                       TypeId::kTime, {7, 86400000000});
  ExpectFixed<int64_t>(Convert(Chunks({FromJson(arrow::time64(arrow::TimeUnit::NANO), "[1999, 999, null]")})),
                       TypeId::kTime, {1, 0, std::nullopt});
}

TEST(ArrowColumnTest, MillisecondsThatOverflowMicrosAreAnError) {
  Column column;
  std::string error;
  EXPECT_FALSE(ColumnFromArrow(
      Chunks({FromJson(arrow::timestamp(arrow::TimeUnit::MILLI), "[0, 9223372036854775807]")}),
      "when", &column, &error));
  EXPECT_NE(error.find("column 'when'"), std::string::npos) << error;
  EXPECT_NE(error.find("overflows"), std::string::npos) << error;
  EXPECT_NE(error.find("row 1"), std::string::npos) << error;
  EXPECT_EQ(column.length(), 0u);  // left as it was
}

TEST(ArrowColumnTest, StringsAndBinaryOfBothOffsetWidths) {
  std::shared_ptr<arrow::Array> all = FromJson(arrow::utf8(), R"(["a", null, "", "héllo", "zz"])");
  ASSERT_NE(all, nullptr);
  Column strings = Convert(Chunks({all->Slice(1, 4), all->Slice(0, 1)}));
  ExpectStrings(strings, TypeId::kString, {std::nullopt, "", "héllo", "zz", "a"});
  EXPECT_EQ(strings.Offsets32()[0], 0);

  ExpectStrings(Convert(Chunks({FromJson(arrow::binary(), R"(["ab", null])")})),
                TypeId::kString, {"ab", std::nullopt});
  Column large = Convert(Chunks({FromJson(arrow::large_utf8(), R"(["x", null, "yz"])"),
                                 FromJson(arrow::large_utf8(), R"(["w"])")}));
  ExpectStrings(large, TypeId::kLargeString, {"x", std::nullopt, "yz", "w"});
  EXPECT_EQ(large.Offsets64()[4], 4);
  ExpectStrings(Convert(Chunks({FromJson(arrow::large_binary(), R"(["q"])")})),
                TypeId::kLargeString, {"q"});
}

TEST(ArrowColumnTest, DictionaryStringsAreDecodedPerChunk) {
  std::shared_ptr<arrow::DataType> type = arrow::dictionary(arrow::int8(), arrow::utf8());
  // Each chunk has its own dictionary; a row is null when its index or its entry is null.
  auto first = std::make_shared<arrow::DictionaryArray>(
      type, FromJson(arrow::int8(), "[0, 1, null, 1, 2]"),
      FromJson(arrow::utf8(), R"(["red", "green", null])"));
  auto second = std::make_shared<arrow::DictionaryArray>(
      type, FromJson(arrow::int8(), "[1, 0]"), FromJson(arrow::utf8(), R"(["blue", "cyan"])"));
  ExpectStrings(Convert(Chunks({first->Slice(1), second})), TypeId::kString,
                {"green", std::nullopt, "green", std::nullopt, "cyan", "blue"});

  std::shared_ptr<arrow::DataType> large_type =
      arrow::dictionary(arrow::uint32(), arrow::large_utf8());
  auto large = std::make_shared<arrow::DictionaryArray>(
      large_type, FromJson(arrow::uint32(), "[1, 1, 0]"),
      FromJson(arrow::large_utf8(), R"(["a", "b"])"));
  ExpectStrings(Convert(Chunks({large})), TypeId::kLargeString, {"b", "b", "a"});
}

TEST(ArrowColumnTest, DictionaryIndexOutsideTheDictionaryIsAnError) {
  std::shared_ptr<arrow::DataType> type = arrow::dictionary(arrow::int32(), arrow::utf8());
  auto bad = std::make_shared<arrow::DictionaryArray>(type, FromJson(arrow::int32(), "[0, 5]"),
                                                      FromJson(arrow::utf8(), R"(["a"])"));
  Column column;
  std::string error;
  EXPECT_FALSE(ColumnFromArrow(Chunks({bad}), "d", &column, &error));
  EXPECT_NE(error.find("column 'd': dictionary index 5 at row 1"), std::string::npos) << error;
}

TEST(ArrowColumnTest, UnsupportedTypesNameColumnAndType) {
  struct Case {
    std::shared_ptr<arrow::DataType> type;
    const char* json;
    const char* type_name;
  };
  const Case cases[] = {
      {arrow::list(arrow::int64()), "[[1, 2], null]", "list<item: int64>"},
      {arrow::decimal256(40, 2), R"(["1.25"])", "decimal256(40, 2)"},  // beyond 38 digits
      {arrow::dictionary(arrow::int32(), arrow::int64()), "[1]", "dictionary<values=int64"},
      {arrow::date64(), "[86400000]", "date64"},
      {arrow::null(), "[null]", "null"},
  };
  for (const Case& c : cases) {
    Column column;
    std::string error;
    std::shared_ptr<arrow::Array> array = FromJson(c.type, c.json);
    ASSERT_NE(array, nullptr) << c.type_name;
    EXPECT_FALSE(ColumnFromArrow(Chunks({array}), "odd", &column, &error)) << c.type_name;
    EXPECT_EQ(error.rfind("column 'odd': Arrow type ", 0), 0u) << error;
    EXPECT_NE(error.find(c.type_name), std::string::npos) << error;
  }
}

TEST(ArrowColumnTest, Decimal128IsDecimalOfItsPrecisionAndScale) {
  std::shared_ptr<arrow::Array> a = FromJson(arrow::decimal128(15, 2), R"(["1.25", null, "-0.05"])");
  std::shared_ptr<arrow::Array> b = FromJson(arrow::decimal128(15, 2), R"(["9999999999999.99"])");
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  Column column;
  std::string error;
  ASSERT_TRUE(ColumnFromArrow(Chunks({a, b}), "price", &column, &error)) << error;
  EXPECT_EQ(column.type(), DecimalType(15, 2));
  ASSERT_EQ(column.length(), 4u);
  EXPECT_EQ(column.Values<Int128>()[0], 125);
  EXPECT_FALSE(column.IsValid(1));
  EXPECT_EQ(column.Values<Int128>()[1], 0);  // a null slot is zeroed
  EXPECT_EQ(column.Values<Int128>()[2], -5);
  EXPECT_EQ(column.Values<Int128>()[3], static_cast<Int128>(999999999999999));
}

TEST(ArrowColumnTest, NoChunksGiveAnEmptyColumn) {
  arrow::ChunkedArray none(arrow::ArrayVector{}, arrow::utf8());
  Column column;
  std::string error;
  ASSERT_TRUE(ColumnFromArrow(none, "s", &column, &error)) << error;
  EXPECT_EQ(column.type(), TypeId::kString);
  EXPECT_EQ(column.length(), 0u);
}

}  // namespace
}  // namespace parquet_internal
}  // namespace laneql
