// The column model: types and their names, aligned buffers, columns (builders, copies, strings,
// nulls) and tables (case-insensitive names, equal lengths).
#include <cctype>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "laneql/aligned_buffer.h"
#include "laneql/column.h"
#include "laneql/int128.h"
#include "laneql/table.h"
#include "laneql/types.h"
#include "all_types.h"
#include "test_threads.h"

namespace laneql {
namespace {

using testing_types::kAllTypes;

// ------------------------------ types

TEST(Types, NamesRoundTrip) {
  for (TypeId t : kAllTypes) {
    TypeId parsed = TypeId::kInt8;
    ASSERT_TRUE(TypeFromName(TypeName(t), &parsed)) << TypeName(t);
    EXPECT_EQ(t, parsed) << TypeName(t);
    std::string upper = TypeName(t);
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    ASSERT_TRUE(TypeFromName(upper, &parsed)) << upper;
    EXPECT_EQ(t, parsed);
  }
  TypeId t;
  EXPECT_FALSE(TypeFromName("bigint", &t));  // a SQL name, not one of ours
  EXPECT_FALSE(TypeFromName("", &t));
}

TEST(Types, Names) {
  EXPECT_STREQ("int64", TypeName(TypeId::kInt64));
  EXPECT_STREQ("BIGINT", DuckDbTypeName(TypeId::kInt64));
  EXPECT_STREQ("SMALLINT", DuckDbTypeName(TypeId::kInt16));
  EXPECT_STREQ("UBIGINT", DuckDbTypeName(TypeId::kUInt64));
  EXPECT_STREQ("DOUBLE", DuckDbTypeName(TypeId::kFloat64));
  EXPECT_STREQ("DATE", DuckDbTypeName(TypeId::kDate32));
  EXPECT_STREQ("TIMESTAMP", DuckDbTypeName(TypeId::kTimestampMicros));
  EXPECT_STREQ("TIMESTAMP_S", DuckDbTypeName(TypeId::kTimestampSeconds));
  EXPECT_STREQ("VARCHAR", DuckDbTypeName(TypeId::kString));
  EXPECT_STREQ("VARCHAR", DuckDbTypeName(TypeId::kLargeString));
  EXPECT_STREQ("tsu:", ArrowFormat(TypeId::kTimestampMicros));
  EXPECT_STREQ("u", ArrowFormat(TypeId::kString));
  EXPECT_STREQ("U", ArrowFormat(TypeId::kLargeString));
  EXPECT_STREQ("tdD", ArrowFormat(TypeId::kDate32));
  EXPECT_STREQ("int128", TypeName(TypeId::kInt128));
  EXPECT_STREQ("HUGEINT", DuckDbTypeName(TypeId::kInt128));
  EXPECT_STREQ("d:38,0", ArrowFormat(TypeId::kInt128));
  EXPECT_STREQ("bool", TypeName(TypeId::kBool));
  EXPECT_STREQ("BOOLEAN", DuckDbTypeName(TypeId::kBool));
  EXPECT_STREQ("b", ArrowFormat(TypeId::kBool));
}

TEST(Types, SqlNames) {
  struct Case {
    const char* sql;
    TypeId want;
  };
  // Every type in ClickBench's create.sql, plus DuckDB's aliases.
  const Case cases[] = {
      {"BIGINT", TypeId::kInt64},          {"bigint", TypeId::kInt64},
      {"INT8", TypeId::kInt64},            {"INTEGER", TypeId::kInt32},
      {"int", TypeId::kInt32},             {"SMALLINT", TypeId::kInt16},
      {"TINYINT", TypeId::kInt8},          {"UBIGINT", TypeId::kUInt64},
      {"TEXT", TypeId::kString},           {"VARCHAR(255)", TypeId::kString},
      {"CHAR", TypeId::kString},           {" varchar ( 10 ) ", TypeId::kString},
      {"Date", TypeId::kDate32},           {"TIMESTAMP", TypeId::kTimestampMicros},
      {"TIMESTAMP_S", TypeId::kTimestampSeconds}, {"DOUBLE", TypeId::kFloat64},
      {"REAL", TypeId::kFloat32},          {"FLOAT", TypeId::kFloat32},
      {"HUGEINT", TypeId::kInt128},        {"int128", TypeId::kInt128},
      {"BOOLEAN", TypeId::kBool},          {"bool", TypeId::kBool},
      {"Logical", TypeId::kBool},
  };
  for (const Case& c : cases) {
    TypeId t = TypeId::kLargeString;
    ASSERT_TRUE(TypeFromSqlName(c.sql, &t)) << c.sql;
    EXPECT_EQ(c.want, t) << c.sql;
  }
  TypeId t;
  EXPECT_FALSE(TypeFromSqlName("VARCHAR(255", &t));
  EXPECT_FALSE(TypeFromSqlName("JSON", &t));  // not a type laneql has
  EXPECT_FALSE(TypeFromSqlName("", &t));
}

TEST(Types, WidthsAndClasses) {
  EXPECT_EQ(1u, TypeByteWidth(TypeId::kInt8));
  EXPECT_EQ(2u, TypeByteWidth(TypeId::kUInt16));
  EXPECT_EQ(4u, TypeByteWidth(TypeId::kFloat32));
  EXPECT_EQ(4u, TypeByteWidth(TypeId::kDate32));
  EXPECT_EQ(8u, TypeByteWidth(TypeId::kTimestampSeconds));
  EXPECT_EQ(8u, TypeByteWidth(TypeId::kTimestampMicros));
  EXPECT_EQ(0u, TypeByteWidth(TypeId::kString));
  EXPECT_EQ(4u, OffsetByteWidth(TypeId::kString));
  EXPECT_EQ(8u, OffsetByteWidth(TypeId::kLargeString));
  EXPECT_EQ(0u, OffsetByteWidth(TypeId::kInt64));
  EXPECT_EQ(16u, TypeByteWidth(TypeId::kInt128));
  EXPECT_EQ(1u, TypeByteWidth(TypeId::kBool));
  int integers = 0, floats = 0, strings = 0, temporal = 0, bools = 0;
  for (TypeId t : kAllTypes) {
    integers += IsInteger(t);
    floats += IsFloat(t);
    strings += IsString(t);
    temporal += IsTemporal(t);
    bools += IsBool(t);
    EXPECT_EQ(IsInteger(t), IsSignedInteger(t) || IsUnsignedInteger(t));
    EXPECT_EQ(!IsString(t), IsFixedWidth(t));
    EXPECT_EQ(1, IsInteger(t) + IsFloat(t) + IsString(t) + IsTemporal(t) + IsBool(t) + IsTime(t) + IsInterval(t))
        << TypeName(t);
  }
  EXPECT_EQ(9, integers);  // int128 is a signed integer
  EXPECT_EQ(1, bools);
  EXPECT_EQ(2, floats);
  EXPECT_EQ(2, strings);
  EXPECT_EQ(3, temporal);
  EXPECT_TRUE(IsSignedInteger(TypeId::kInt16));
  EXPECT_FALSE(IsSignedInteger(TypeId::kUInt16));
}

// ------------------------------ aligned buffers

bool PaddingIsZero(const AlignedBuffer& b) {
  for (size_t i = b.size(); i < b.capacity(); ++i) {
    if (b.data()[i] != 0) return false;
  }
  return true;
}

TEST(AlignedBuffer, AlignedPaddedAndZeroed) {
  for (size_t size : {size_t{1}, size_t{63}, size_t{64}, size_t{65}, size_t{1000}}) {
    AlignedBuffer b;
    ASSERT_TRUE(b.Resize(size, nullptr));
    EXPECT_EQ(size, b.size());
    EXPECT_EQ(0u, reinterpret_cast<uintptr_t>(b.data()) % 64) << size;
    EXPECT_EQ(0u, b.capacity() % 64);
    EXPECT_GE(b.capacity(), size);
    EXPECT_LT(b.capacity(), size + 64);  // a first allocation is exact, rounded to 64
    for (size_t i = 0; i < size; ++i) ASSERT_EQ(0, b.data()[i]);  // bytes gained are zero
    EXPECT_TRUE(PaddingIsZero(b));
  }
}

TEST(AlignedBuffer, EmptyIsFine) {
  AlignedBuffer b;
  EXPECT_EQ(0u, b.size());
  EXPECT_EQ(0u, b.capacity());
  EXPECT_EQ(nullptr, b.data());
  EXPECT_TRUE(b.empty());
  EXPECT_TRUE(b.Resize(0, nullptr));
  EXPECT_TRUE(b.Append(nullptr, 0, nullptr));
  EXPECT_TRUE(b.Assign(nullptr, 0, nullptr));
  EXPECT_TRUE(b.Reserve(0, nullptr));
  EXPECT_EQ(0u, b.size());
}

TEST(AlignedBuffer, ShrinkKeepsPaddingZero) {
  AlignedBuffer b;
  ASSERT_TRUE(b.Resize(100, nullptr));
  std::memset(b.data(), 0xFF, 100);
  ASSERT_TRUE(b.Resize(10, nullptr));
  EXPECT_TRUE(PaddingIsZero(b));
  ASSERT_TRUE(b.Resize(100, nullptr));  // the regrown bytes read as zero again
  EXPECT_EQ(0xFF, b.data()[9]);
  EXPECT_EQ(0, b.data()[10]);
  b.Clear();
  EXPECT_EQ(0u, b.size());
  EXPECT_TRUE(PaddingIsZero(b));
}

TEST(AlignedBuffer, AppendGrowsGeometricallyAndKeepsContents) {
  AlignedBuffer b;
  std::string want;
  size_t reallocations = 0;
  const uint8_t* last = nullptr;
  for (int i = 0; i < 10000; ++i) {
    const char c = static_cast<char>('a' + i % 26);
    ASSERT_TRUE(b.Append(&c, 1, nullptr));
    want.push_back(c);
    if (b.data() != last) ++reallocations;
    last = b.data();
  }
  EXPECT_EQ(want, std::string(reinterpret_cast<const char*>(b.data()), b.size()));
  EXPECT_LT(reallocations, 16u);  // doubling: about log2(10000 / 64)
  EXPECT_TRUE(PaddingIsZero(b));
}

TEST(AlignedBuffer, MoveOnly) {
  static_assert(!std::is_copy_constructible_v<AlignedBuffer>);
  static_assert(std::is_nothrow_move_constructible_v<AlignedBuffer>);
  AlignedBuffer a;
  ASSERT_TRUE(a.Assign("hello", 5, nullptr));
  const uint8_t* p = a.data();
  AlignedBuffer b(std::move(a));
  EXPECT_EQ(p, b.data());
  EXPECT_EQ(5u, b.size());
  EXPECT_EQ(nullptr, a.data());  // NOLINT(bugprone-use-after-move): moved-from is empty
  EXPECT_EQ(0u, a.size());
  AlignedBuffer c;
  ASSERT_TRUE(c.Resize(3, nullptr));
  c = std::move(b);
  EXPECT_EQ(p, c.data());
}

TEST(AlignedBuffer, ImpossibleSizesFailWithAMessage) {
  AlignedBuffer b;
  ASSERT_TRUE(b.Assign("abc", 3, nullptr));
  std::string error;
  for (size_t huge : {std::numeric_limits<size_t>::max(), std::numeric_limits<size_t>::max() - 63,
                      AlignedBuffer::kMaxSize + 1}) {
    error.clear();
    EXPECT_FALSE(b.Resize(huge, &error));
    EXPECT_NE(std::string::npos, error.find(std::to_string(huge))) << error;
    EXPECT_FALSE(b.Reserve(huge, &error));
    EXPECT_FALSE(b.Resize(huge, nullptr));  // no error string wanted: still no crash
  }
  // Through a volatile, from a source of 64 bytes: a constant size, or the 2 bytes of "x", made
  // GCC warn of the inline copy on a path never taken.
  volatile size_t everything = std::numeric_limits<size_t>::max();
  const char source[64] = "x";
  EXPECT_FALSE(b.Append(source, everything, &error));
  EXPECT_FALSE(error.empty());
  // Unchanged by the failures.
  EXPECT_EQ(3u, b.size());
  EXPECT_EQ(0, std::memcmp(b.data(), "abc", 3));
}

// ------------------------------ columns

TEST(Column, AppendAndReadFixedWidth) {
  Column c(TypeId::kInt64);
  std::string error;
  for (int64_t v : {int64_t{5}, std::numeric_limits<int64_t>::min(), int64_t{-1}}) {
    ASSERT_TRUE(c.Append(v, &error)) << error;
  }
  EXPECT_EQ(3u, c.length());
  EXPECT_EQ(0u, c.null_count());
  EXPECT_EQ(nullptr, c.validity());
  EXPECT_EQ(std::numeric_limits<int64_t>::min(), c.Values<int64_t>()[1]);
  EXPECT_EQ(~uint64_t{0}, c.Values<uint64_t>()[2]);  // the bit pattern of -1
  EXPECT_TRUE(c.IsValid(2));
  EXPECT_EQ(0u, reinterpret_cast<uintptr_t>(c.Values<int64_t>()) % 64);
  EXPECT_TRUE(PaddingIsZero(c.values_buffer()));
}

TEST(Column, Int128AndBoolColumns) {
  std::string error;
  Column wide(TypeId::kInt128);
  const Int128 min = static_cast<Int128>(static_cast<unsigned __int128>(1) << 127);
  ASSERT_TRUE(wide.Append(min, &error)) << error;
  ASSERT_TRUE(wide.AppendNull(&error)) << error;
  ASSERT_TRUE(wide.Append(Int128{-1}, &error)) << error;
  EXPECT_FALSE(wide.Append(int64_t{1}, &error));  // width 16 only
  ASSERT_EQ(3u, wide.length());
  EXPECT_TRUE(wide.Values<Int128>()[0] == min);
  EXPECT_TRUE(wide.Values<Int128>()[1] == 0);
  EXPECT_EQ(~uint64_t{0}, wide.values_buffer().As<uint64_t>()[5]);  // high half of -1
  EXPECT_FALSE(wide.IsValid(1));
  Column flags(TypeId::kBool);
  ASSERT_TRUE(flags.Append(uint8_t{1}, &error)) << error;
  ASSERT_TRUE(flags.Append(false, &error)) << error;  // sizeof(bool) == 1
  EXPECT_FALSE(flags.Append(int32_t{1}, &error));
  ASSERT_EQ(2u, flags.length());
  EXPECT_EQ(1, flags.Values<uint8_t>()[0]);
  EXPECT_EQ(0, flags.Values<uint8_t>()[1]);
}

TEST(Column, AppendRejectsTheWrongWidthOrKind) {
  Column c(TypeId::kInt32);
  std::string error;
  EXPECT_FALSE(c.Append(int64_t{1}, &error));
  EXPECT_NE(std::string::npos, error.find("int32")) << error;
  EXPECT_FALSE(c.AppendString("x", &error));
  Column s(TypeId::kString);
  EXPECT_FALSE(s.Append(int32_t{1}, &error));
  EXPECT_EQ(0u, c.length());
  EXPECT_EQ(0u, s.length());
  // Same width, other type: the bits are what counts (float into float32, int32 into date32).
  Column f(TypeId::kFloat32);
  EXPECT_TRUE(f.Append(1.5f, &error));
  Column d(TypeId::kDate32);
  EXPECT_TRUE(d.Append(int32_t{15887}, &error));
}

TEST(Column, NullsCreateTheBitmapLazily) {
  Column c(TypeId::kFloat64);
  std::string error;
  for (int i = 0; i < 70; ++i) ASSERT_TRUE(c.Append(double(i), &error));
  EXPECT_EQ(nullptr, c.validity());
  ASSERT_TRUE(c.AppendNull(&error));
  ASSERT_TRUE(c.Append(7.0, &error));
  ASSERT_TRUE(c.AppendNull(&error));
  ASSERT_EQ(73u, c.length());
  EXPECT_EQ(2u, c.null_count());
  ASSERT_NE(nullptr, c.validity());
  for (size_t i = 0; i < 73; ++i) EXPECT_EQ(i != 70 && i != 72, c.IsValid(i)) << i;
  EXPECT_EQ(0.0, c.Values<double>()[70]);  // a null slot holds zero bytes
  EXPECT_EQ(7.0, c.Values<double>()[71]);
  // Bits past the last row are 0 (the bitmask convention).
  EXPECT_EQ(0u, c.validity()[1] >> (73 - 64));
}

TEST(Column, Strings) {
  Column c(TypeId::kString);
  EXPECT_EQ(0, c.Offsets32()[0]);  // an empty column still has its one offset
  std::string error;
  const std::vector<std::string> rows = {"",         "Москва", "a", "",
                                         "😀 emoji", std::string(300, 'x')};
  for (const std::string& r : rows) ASSERT_TRUE(c.AppendString(r, &error)) << error;
  ASSERT_TRUE(c.AppendNull(&error));
  ASSERT_EQ(rows.size() + 1, c.length());
  for (size_t i = 0; i < rows.size(); ++i) EXPECT_EQ(rows[i], c.StringAt(i)) << i;
  EXPECT_EQ("", c.StringAt(rows.size()));
  EXPECT_FALSE(c.IsValid(rows.size()));
  EXPECT_EQ(1u, c.null_count());
  const int32_t* o = c.Offsets32();
  EXPECT_EQ(0, o[0]);
  EXPECT_EQ(o[rows.size()], o[rows.size() + 1]);  // the null row is empty
  EXPECT_EQ(static_cast<size_t>(o[c.length()]), c.values_buffer().size());
  EXPECT_EQ(0u, reinterpret_cast<uintptr_t>(c.StringData()) % 64);
}

// AllAscii: worked out once and kept (KnownAscii then says so without a scan), forgotten when
// a string is appended, true for no bytes at all, false for other types; both offset widths;
// answered alike by threads asking at once.
TEST(Column, AllAsciiIsKeptUntilAStringIsAppended) {
  LANEQL_SKIP_WITHOUT_THREADS();
  std::string error;
  for (TypeId type : {TypeId::kString, TypeId::kLargeString}) {
    Column c(type);
    EXPECT_FALSE(c.KnownAscii());
    EXPECT_TRUE(c.AllAscii());  // no bytes
    ASSERT_TRUE(c.AppendString("http://example.com/a?b=1", &error)) << error;
    ASSERT_TRUE(c.AppendNull(&error));
    EXPECT_FALSE(c.KnownAscii());  // forgotten by the append
    std::vector<std::thread> threads;
    std::vector<int> answers(4, -1);
    for (size_t t = 0; t < answers.size(); ++t) {
      threads.emplace_back([&c, &answers, t] { answers[t] = c.AllAscii() ? 1 : 0; });
    }
    for (std::thread& thread : threads) thread.join();
    EXPECT_EQ(std::vector<int>(4, 1), answers);
    EXPECT_TRUE(c.KnownAscii());
    ASSERT_TRUE(c.AppendString(std::string(300, 'x') + "\xC3\xA9", &error)) << error;  // é, past a block
    EXPECT_FALSE(c.KnownAscii());
    EXPECT_FALSE(c.AllAscii());
    EXPECT_FALSE(c.KnownAscii());  // known, and not ASCII
    Column moved = std::move(c);
    EXPECT_FALSE(moved.AllAscii());
  }
  Column numbers(TypeId::kInt32);
  ASSERT_TRUE(numbers.Append<int32_t>(65, &error));
  EXPECT_FALSE(numbers.AllAscii());
}

TEST(Column, LargeStrings) {
  Column c(TypeId::kLargeString);
  std::string error;
  ASSERT_TRUE(c.AppendString("привет", &error));
  ASSERT_TRUE(c.AppendString("", &error));
  ASSERT_TRUE(c.AppendString("ok", &error));
  EXPECT_EQ("привет", c.StringAt(0));
  EXPECT_EQ("", c.StringAt(1));
  EXPECT_EQ("ok", c.StringAt(2));
  EXPECT_EQ(14, c.Offsets64()[3]);
}

TEST(Column, FromFixedCopiesAndCountsNulls) {
  const std::vector<int32_t> values = {1, 2, 3, 4, 5};
  // Rows 1 and 3 null; bits past row 5 are garbage and must be ignored.
  const uint64_t validity = 0b10101 | (~uint64_t{0} << 5);
  Column c;
  std::string error;
  ASSERT_TRUE(Column::FromFixed(TypeId::kInt32, values.data(), 5, &validity, &c, &error));
  EXPECT_EQ(TypeId::kInt32, c.type());
  EXPECT_EQ(5u, c.length());
  EXPECT_EQ(2u, c.null_count());
  EXPECT_EQ(0b10101u, c.validity()[0]);
  EXPECT_NE(values.data(), c.Values<int32_t>());  // a copy
  EXPECT_EQ(0, std::memcmp(values.data(), c.Values<int32_t>(), 20));
  // A bitmap without nulls is dropped.
  const uint64_t all_valid = 0b11111;
  ASSERT_TRUE(Column::FromFixed(TypeId::kInt32, values.data(), 5, &all_valid, &c, &error));
  EXPECT_EQ(nullptr, c.validity());
  EXPECT_EQ(0u, c.null_count());
  ASSERT_TRUE(Column::FromFixed(TypeId::kInt32, nullptr, 0, nullptr, &c, &error));
  EXPECT_EQ(0u, c.length());
  EXPECT_FALSE(Column::FromFixed(TypeId::kString, values.data(), 5, nullptr, &c, &error));
  EXPECT_FALSE(Column::FromFixed(TypeId::kInt64, values.data(), SIZE_MAX / 4, nullptr, &c,
                                 &error));
  EXPECT_EQ(0u, c.length());  // failures leave the output alone
}

TEST(Column, ZeroedIsFilledInPlace) {
  Column c;
  std::string error;
  ASSERT_TRUE(Column::Zeroed(TypeId::kUInt16, 1000, &c, &error));
  EXPECT_EQ(1000u, c.length());
  for (size_t i = 0; i < 1000; ++i) ASSERT_EQ(0, c.Values<uint16_t>()[i]);
  c.MutableValues<uint16_t>()[999] = 7;
  EXPECT_EQ(7, c.Values<uint16_t>()[999]);
  EXPECT_TRUE(PaddingIsZero(c.values_buffer()));
  ASSERT_TRUE(c.Append(uint16_t{9}, &error));  // and it can still grow
  EXPECT_EQ(9, c.Values<uint16_t>()[1000]);
}

TEST(AlignedBuffer, ResizeForOverwriteKeepsContentsAndZeroPadding) {
  AlignedBuffer b;
  ASSERT_TRUE(b.ResizeForOverwrite(100, nullptr));
  EXPECT_EQ(100u, b.size());
  EXPECT_EQ(0u, reinterpret_cast<uintptr_t>(b.data()) % 64);
  EXPECT_LT(b.capacity(), 164u);  // a first allocation is exact, rounded to 64
  EXPECT_TRUE(PaddingIsZero(b));
  std::memset(b.data(), 0xAB, 100);
  ASSERT_TRUE(b.ResizeForOverwrite(5000, nullptr));  // grows: the old bytes move along
  EXPECT_EQ(0xAB, b.data()[99]);
  EXPECT_TRUE(PaddingIsZero(b));
  ASSERT_TRUE(b.ResizeForOverwrite(10, nullptr));  // shrinks like Resize
  EXPECT_TRUE(PaddingIsZero(b));
}

TEST(Column, FromBuffersTakesOverFilledBuffers) {
  std::string error;
  AlignedBuffer values;
  ASSERT_TRUE(values.ResizeForOverwrite(3 * sizeof(int32_t), &error));
  const int32_t numbers[3] = {7, -1, 42};
  std::memcpy(values.data(), numbers, sizeof(numbers));
  const uint8_t* filled = values.data();
  Column c;
  ASSERT_TRUE(Column::FromBuffers(TypeId::kInt32, 3, std::move(values), AlignedBuffer(),
                                  AlignedBuffer(), &c, &error)) << error;
  EXPECT_EQ(TypeId::kInt32, c.type());
  EXPECT_EQ(3u, c.length());
  EXPECT_EQ(filled, c.values_buffer().data());  // taken over, not copied
  EXPECT_EQ(42, c.Values<int32_t>()[2]);
  EXPECT_EQ(0u, c.null_count());

  AlignedBuffer bytes;
  AlignedBuffer offsets;
  ASSERT_TRUE(bytes.Append("abcdef", 6, &error));
  const int32_t ends[4] = {0, 2, 2, 6};
  ASSERT_TRUE(offsets.Append(ends, sizeof(ends), &error));
  AlignedBuffer validity;
  const uint64_t bits = 0xFFu & ~uint64_t{2};  // row 1 null, bits past the length ignored
  ASSERT_TRUE(validity.Append(&bits, sizeof(bits), &error));
  ASSERT_TRUE(Column::FromBuffers(TypeId::kString, 3, std::move(bytes), std::move(offsets),
                                  std::move(validity), &c, &error)) << error;
  EXPECT_EQ(TypeId::kString, c.type());
  EXPECT_EQ("ab", c.StringAt(0));
  EXPECT_EQ("", c.StringAt(1));
  EXPECT_EQ("cdef", c.StringAt(2));
  EXPECT_EQ(1u, c.null_count());
  EXPECT_FALSE(c.IsValid(1));

  ASSERT_TRUE(Column::FromBuffers(TypeId::kString, 0, AlignedBuffer(), AlignedBuffer(),
                                  AlignedBuffer(), &c, &error)) << error;
  EXPECT_EQ(0u, c.length());
}

TEST(Column, FromBuffersRejectsMismatchesAndKeepsTheBuffers) {
  std::string error;
  Column c;
  AlignedBuffer values;
  ASSERT_TRUE(values.Resize(8, &error));
  // 8 bytes are not 3 int32 values.
  EXPECT_FALSE(Column::FromBuffers(TypeId::kInt32, 3, std::move(values), AlignedBuffer(),
                                   AlignedBuffer(), &c, &error));
  EXPECT_FALSE(error.empty());
  EXPECT_EQ(8u, values.size());  // not taken on failure
  // Offsets on a fixed-width column.
  AlignedBuffer stray;
  ASSERT_TRUE(stray.Resize(4, &error));
  EXPECT_FALSE(Column::FromBuffers(TypeId::kInt64, 1, std::move(values), std::move(stray),
                                   AlignedBuffer(), &c, &error));
  // String offsets that decrease, do not start at 0, do not end at the byte count, or are
  // too few.
  const std::vector<std::vector<int32_t>> bad = {{0, 6, 4, 8}, {1, 2, 4, 8}, {0, 2, 4, 7}, {0, 8}};
  for (const std::vector<int32_t>& ends : bad) {
    AlignedBuffer offsets;
    ASSERT_TRUE(offsets.Append(ends.data(), ends.size() * sizeof(int32_t), &error));
    error.clear();
    EXPECT_FALSE(Column::FromBuffers(TypeId::kString, 3, std::move(values), std::move(offsets),
                                     AlignedBuffer(), &c, &error)) << ends[1];
    EXPECT_FALSE(error.empty());
  }
  // A validity bitmap too short for the rows.
  AlignedBuffer validity;
  ASSERT_TRUE(validity.Resize(8, &error));
  AlignedBuffer many;
  ASSERT_TRUE(many.Resize(100 * sizeof(int16_t), &error));
  EXPECT_FALSE(Column::FromBuffers(TypeId::kInt16, 100, std::move(many), AlignedBuffer(),
                                   std::move(validity), &c, &error));
  EXPECT_EQ(0u, c.length());  // *out untouched by every failure
}

TEST(Column, FromStringsRebasesASlice) {
  // An Arrow slice: offsets start at 3 inside the data.
  const std::string data = "xyzabcdef";
  const std::vector<int32_t> offsets = {3, 5, 5, 9};
  Column c;
  std::string error;
  ASSERT_TRUE(Column::FromStrings(offsets.data(), reinterpret_cast<const uint8_t*>(data.data()),
                                  3, nullptr, &c, &error)) << error;
  EXPECT_EQ(TypeId::kString, c.type());
  EXPECT_EQ(0, c.Offsets32()[0]);
  EXPECT_EQ("ab", c.StringAt(0));
  EXPECT_EQ("", c.StringAt(1));
  EXPECT_EQ("cdef", c.StringAt(2));
  EXPECT_EQ(6u, c.values_buffer().size());
  const std::vector<int64_t> offsets64 = {3, 5, 5, 9};
  ASSERT_TRUE(Column::FromLargeStrings(offsets64.data(),
                                       reinterpret_cast<const uint8_t*>(data.data()), 3, nullptr,
                                       &c, &error));
  EXPECT_EQ(TypeId::kLargeString, c.type());
  EXPECT_EQ("cdef", c.StringAt(2));
  ASSERT_TRUE(Column::FromStrings(nullptr, nullptr, 0, nullptr, &c, &error));
  EXPECT_EQ(0u, c.length());
  EXPECT_EQ(0, c.Offsets32()[0]);
}

TEST(Column, FromStringsRejectsBadOffsets) {
  const uint8_t data[8] = {};
  Column c;
  std::string error;
  const std::vector<int32_t> decreasing = {0, 4, 2};
  EXPECT_FALSE(Column::FromStrings(decreasing.data(), data, 2, nullptr, &c, &error));
  EXPECT_NE(std::string::npos, error.find("row 1")) << error;
  const std::vector<int32_t> negative = {-1, 2};
  EXPECT_FALSE(Column::FromStrings(negative.data(), data, 1, nullptr, &c, &error));
}

TEST(Column, MoveOnly) {
  static_assert(!std::is_copy_constructible_v<Column>);
  static_assert(std::is_nothrow_move_constructible_v<Column>);
  Column a(TypeId::kString);
  ASSERT_TRUE(a.AppendString("kept", nullptr));
  Column b = std::move(a);
  EXPECT_EQ("kept", b.StringAt(0));
}

// ------------------------------ tables

Column Int32Column(std::vector<int32_t> values) {
  Column c;
  EXPECT_TRUE(
      Column::FromFixed(TypeId::kInt32, values.data(), values.size(), nullptr, &c, nullptr));
  return c;
}

TEST(Table, CaseInsensitiveLookup) {
  Table t;
  std::string error;
  EXPECT_EQ(0u, t.num_rows());
  ASSERT_TRUE(t.AddColumn("UserID", Int32Column({1, 2, 3}), &error)) << error;
  ASSERT_TRUE(t.AddColumn("RegionID", Int32Column({4, 5, 6}), &error)) << error;
  EXPECT_EQ(3u, t.num_rows());
  EXPECT_EQ(2u, t.num_columns());
  EXPECT_EQ("RegionID", t.column_name(1));
  for (const char* name : {"RegionID", "regionid", "REGIONID", "rEgIoNiD"}) {
    const Column* c = t.FindColumn(name);
    ASSERT_NE(nullptr, c) << name;
    EXPECT_EQ(5, c->Values<int32_t>()[1]);
    EXPECT_EQ(1, t.ColumnIndex(name));
  }
  EXPECT_EQ(0, t.ColumnIndex("userid"));
  EXPECT_EQ(nullptr, t.FindColumn("URL"));
  EXPECT_EQ(-1, t.ColumnIndex("Region"));
}

TEST(Table, RejectsDuplicatesAndLengthMismatchNamingTheColumn) {
  Table t;
  std::string error;
  ASSERT_TRUE(t.AddColumn("UserID", Int32Column({1, 2, 3}), &error));
  EXPECT_FALSE(t.AddColumn("userid", Int32Column({1, 2, 3}), &error));
  EXPECT_NE(std::string::npos, error.find("userid")) << error;
  EXPECT_NE(std::string::npos, error.find("UserID")) << error;
  EXPECT_FALSE(t.AddColumn("URL", Int32Column({1, 2}), &error));
  EXPECT_NE(std::string::npos, error.find("URL")) << error;
  EXPECT_NE(std::string::npos, error.find("2 rows")) << error;
  EXPECT_FALSE(t.AddColumn("", Int32Column({1, 2, 3}), &error));
  EXPECT_EQ(1u, t.num_columns());  // unchanged by the failures
  EXPECT_EQ(nullptr, t.FindColumn("URL"));
  EXPECT_EQ(3u, t.num_rows());
}

TEST(Table, ReplaceRowsKeepsTheColumnObjectsAndRejectsAMismatch) {
  Table t;
  std::string error;
  ASSERT_TRUE(t.AddColumn("a", Int32Column({1, 2, 3}), &error) && t.AddColumn("b", Int32Column({4, 5, 6}), &error));
  const Column* a = &t.column(0);
  std::vector<Column> rows;
  rows.push_back(Int32Column({7}));
  rows.push_back(Int32Column({8}));
  ASSERT_TRUE(t.ReplaceRows(std::move(rows), &error)) << error;
  EXPECT_EQ(1u, t.num_rows());
  EXPECT_EQ(a, &t.column(0));  // a pointer held to the column reads the new rows
  EXPECT_EQ(7, a->Values<int32_t>()[0]);
  EXPECT_EQ(8, t.column(1).Values<int32_t>()[0]);
  // Too few columns, another type, unequal lengths: refused, the table unchanged.
  std::vector<Column> one;
  one.push_back(Int32Column({1, 2}));
  EXPECT_FALSE(t.ReplaceRows(std::move(one), &error));
  std::vector<Column> typed;
  typed.push_back(Int32Column({1}));
  typed.push_back(Column(TypeId::kInt64));
  EXPECT_FALSE(t.ReplaceRows(std::move(typed), &error));
  EXPECT_NE(std::string::npos, error.find("\"b\"")) << error;
  std::vector<Column> uneven;
  uneven.push_back(Int32Column({1, 2}));
  uneven.push_back(Int32Column({3}));
  EXPECT_FALSE(t.ReplaceRows(std::move(uneven), &error));
  EXPECT_EQ(1u, t.num_rows());
  EXPECT_EQ(7, t.column(0).Values<int32_t>()[0]);
}

TEST(Table, EmptyColumnsMakeAnEmptyTable) {
  Table t;
  std::string error;
  ASSERT_TRUE(t.AddColumn("a", Column(TypeId::kString), &error));
  ASSERT_TRUE(t.AddColumn("b", Column(TypeId::kInt64), &error));
  EXPECT_EQ(0u, t.num_rows());
  EXPECT_FALSE(t.AddColumn("c", Int32Column({1}), &error));
}

}  // namespace
}  // namespace laneql
