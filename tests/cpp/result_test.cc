// Result and its printers. Every value spelling claimed to be DuckDB's was checked against
// DuckDB 1.4.4 (SELECT CAST(x AS VARCHAR), COPY ... TO csv / json); 2.0.0 prints them alike.
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "laneql/column.h"
#include "laneql/int128.h"
#include "laneql/result.h"
#include "laneql/result_printers.h"

namespace laneql {
namespace {

template <class T>
Column Fixed(TypeId type, const std::vector<std::optional<T>>& values) {
  Column column(type);
  std::string error;
  for (const std::optional<T>& v : values) {
    const bool ok = v ? column.Append(*v, &error) : column.AppendNull(&error);
    EXPECT_TRUE(ok) << error;
  }
  return column;
}

Column Strings(const std::vector<std::optional<std::string>>& values,
               TypeId type = TypeId::kString) {
  Column column(type);
  std::string error;
  for (const std::optional<std::string>& v : values) {
    const bool ok = v ? column.AppendString(*v, &error) : column.AppendNull(&error);
    EXPECT_TRUE(ok) << error;
  }
  return column;
}

template <class T>
std::string Text(TypeId type, T value) {
  return FormatValue(Fixed<T>(type, {value}), 0, ValueStyle::kText);
}
std::string Dbl(double v) { return Text(TypeId::kFloat64, v); }
std::string Flt(float v) { return Text(TypeId::kFloat32, v); }
std::string Day(int32_t days) { return Text(TypeId::kDate32, days); }
std::string Micros(int64_t us) { return Text(TypeId::kTimestampMicros, us); }
std::string Seconds(int64_t s) { return Text(TypeId::kTimestampSeconds, s); }

const Int128 kInt128Max =
    static_cast<Int128>((static_cast<unsigned __int128>(1) << 127) - 1);
const Int128 kInt128Min = -kInt128Max - 1;

void Add(Result* result, const char* name, Column column) {
  std::string error;
  ASSERT_TRUE(result->AddColumn(name, std::move(column), &error)) << error;
}

// ------------------------------------------------------------------ Result itself

TEST(Result, ColumnsAndErrors) {
  Result empty;
  EXPECT_TRUE(empty.ok());
  EXPECT_EQ(0u, empty.num_columns());
  EXPECT_EQ(0u, empty.num_rows());

  Result r;
  Add(&r, "a", Fixed<int64_t>(TypeId::kInt64, {1, 2}));
  Add(&r, "b", Strings({"x", std::nullopt}));
  EXPECT_EQ(2u, r.num_columns());
  EXPECT_EQ(2u, r.num_rows());
  EXPECT_EQ("b", r.name(1));
  EXPECT_EQ(TypeId::kString, r.type(1));
  EXPECT_FALSE(r.column(1).IsValid(1));
  std::string error;
  EXPECT_FALSE(r.AddColumn("c", Fixed<int64_t>(TypeId::kInt64, {1}), &error));
  EXPECT_NE(std::string::npos, error.find("'c' has 1 rows, the result has 2")) << error;
  EXPECT_EQ(2u, r.num_columns());

  Result failed = Result::Error("no such table: hits2");
  EXPECT_FALSE(failed.ok());
  EXPECT_EQ("no such table: hits2", failed.error());
  EXPECT_FALSE(failed.AddColumn("a", Column(TypeId::kInt64), &error));
  EXPECT_EQ(0u, failed.num_columns());
  EXPECT_EQ("Error: no such table: hits2\n", PrintTable(failed));
  EXPECT_EQ("Error: no such table: hits2\n", PrintCsv(failed));
  EXPECT_EQ("Error: no such table: hits2\n", PrintTsv(failed));
  EXPECT_EQ("Error: no such table: hits2\n", PrintMarkdown(failed));
  EXPECT_EQ("{\"error\":\"no such table: hits2\"}\n", PrintJson(failed));
  EXPECT_EQ(0, failed.error_line());
}

// Errors raised while a query runs travel as text; their place comes from it.
TEST(Result, ErrorPositionFromTheLocatedMessage) {
  const Result located = Result::Error("conversion error at line 3, column 14: could not convert");
  EXPECT_EQ(3, located.error_line());
  EXPECT_EQ(14, located.error_column());
  const Result given = Result::Error("type error at line 3, column 14: x", 1, 2);
  EXPECT_EQ(1, given.error_line());
  EXPECT_EQ(2, given.error_column());
  for (const char* text : {"out of memory while running the query",
                           "hits.csv:12:7: a binder error at line 1, column 2: inside",
                           "binder error at line x, column 2: bad", "error at line 1, column 2"}) {
    const Result r = Result::Error(text);
    EXPECT_EQ(0, r.error_line()) << text;
    EXPECT_EQ(0, r.error_column()) << text;
  }
}

// ------------------------------------------------------------------ FormatValue

TEST(ResultValue, Integers) {
  EXPECT_EQ("-128", Text<int8_t>(TypeId::kInt8, -128));
  EXPECT_EQ("-32768", Text<int16_t>(TypeId::kInt16, -32768));
  EXPECT_EQ("2147483647", Text<int32_t>(TypeId::kInt32, 2147483647));
  EXPECT_EQ("-9223372036854775808",
            Text<int64_t>(TypeId::kInt64, std::numeric_limits<int64_t>::min()));
  EXPECT_EQ("255", Text<uint8_t>(TypeId::kUInt8, 255));
  EXPECT_EQ("65535", Text<uint16_t>(TypeId::kUInt16, 65535));
  EXPECT_EQ("4294967295", Text<uint32_t>(TypeId::kUInt32, 4294967295u));
  EXPECT_EQ("18446744073709551615", Text<uint64_t>(TypeId::kUInt64, ~uint64_t{0}));
  EXPECT_EQ("-170141183460469231731687303715884105728", Text(TypeId::kInt128, kInt128Min));
  EXPECT_EQ("170141183460469231731687303715884105727", Text(TypeId::kInt128, kInt128Max));
  EXPECT_EQ("0", Text(TypeId::kInt128, Int128{0}));
  EXPECT_EQ("true", Text<uint8_t>(TypeId::kBool, 1));
  EXPECT_EQ("false", Text<uint8_t>(TypeId::kBool, 0));
}

TEST(ResultValue, DoublesAsDuckDb) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ("1513.4908", Dbl(1513.4908));
  EXPECT_EQ("2.528953029789716e+18", Dbl(2.528953029789716e+18));
  EXPECT_EQ("nan", Dbl(nan));
  EXPECT_EQ("-nan", Dbl(-nan));
  EXPECT_EQ("inf", Dbl(inf));
  EXPECT_EQ("-inf", Dbl(-inf));
  EXPECT_EQ("0.0", Dbl(0.0));
  EXPECT_EQ("-0.0", Dbl(-0.0));
  EXPECT_EQ("1.0", Dbl(1.0));
  EXPECT_EQ("100.0", Dbl(100.0));
  EXPECT_EQ("1.7976931348623157e+308", Dbl(std::numeric_limits<double>::max()));
  EXPECT_EQ("5e-324", Dbl(std::numeric_limits<double>::denorm_min()));
  EXPECT_EQ("-5e-324", Dbl(-std::numeric_limits<double>::denorm_min()));
  EXPECT_EQ("2.2250738585072014e-308", Dbl(std::numeric_limits<double>::min()));
  EXPECT_EQ("1e+16", Dbl(1e16));  // positional up to exponent 15, then scientific
  EXPECT_EQ("1000000000000000.0", Dbl(1e15));
  EXPECT_EQ("9007199254740992.0", Dbl(9007199254740992.0));
  EXPECT_EQ("1.2345678901234568e+17", Dbl(123456789012345678.0));
  EXPECT_EQ("0.0001", Dbl(0.0001));  // positional down to exponent -4
  EXPECT_EQ("1e-05", Dbl(0.00001));
  EXPECT_EQ("2.5e-05", Dbl(2.5e-5));
  EXPECT_EQ("1e-07", Dbl(1e-7));
  EXPECT_EQ("1.5e-10", Dbl(1.5e-10));
  EXPECT_EQ("1e+100", Dbl(1e100));
  EXPECT_EQ("0.30000000000000004", Dbl(0.1 + 0.2));
}

TEST(ResultValue, FloatsAsDuckDb) {
  EXPECT_EQ("0.1", Flt(0.1f));  // the float's own shortest digits, not the double's
  EXPECT_EQ("1.5", Flt(1.5f));
  EXPECT_EQ("-0.0", Flt(-0.0f));
  EXPECT_EQ("123.456", Flt(123.456f));
  EXPECT_EQ("123456790.0", Flt(123456789.0f));
  EXPECT_EQ("16777216.0", Flt(16777216.0f));
  EXPECT_EQ("1000000000000000.0", Flt(1e15f));
  EXPECT_EQ("1e+16", Flt(1e16f));
  EXPECT_EQ("3.4028235e+38", Flt(std::numeric_limits<float>::max()));
  EXPECT_EQ("1e-45", Flt(std::numeric_limits<float>::denorm_min()));
  EXPECT_EQ("1e-05", Flt(1e-5f));
  EXPECT_EQ("nan", Flt(std::numeric_limits<float>::quiet_NaN()));
  EXPECT_EQ("-inf", Flt(-std::numeric_limits<float>::infinity()));
}

TEST(ResultValue, DatesAsDuckDb) {
  EXPECT_EQ("1970-01-01", Day(0));
  EXPECT_EQ("1969-12-31", Day(-1));
  EXPECT_EQ("2000-02-29", Day(11016));  // leap: divisible by 400
  EXPECT_EQ("2024-02-29", Day(19782));
  EXPECT_EQ("1600-02-29", Day(-135081));
  EXPECT_EQ("1900-02-28", Day(-25509));  // not leap: divisible by 100
  EXPECT_EQ("1900-03-01", Day(-25508));
  EXPECT_EQ("0001-01-01", Day(-719162));
  EXPECT_EQ("0001-12-31 (BC)", Day(-719163));  // year 0 is 1 BC ...
  EXPECT_EQ("0001-02-29 (BC)", Day(-719469));  // ... and a leap year
  EXPECT_EQ("0005-02-29 (BC)", Day(-720930));
  EXPECT_EQ("9999-12-31", Day(2932896));
  EXPECT_EQ("10000-01-01", Day(2932897));
  EXPECT_EQ("5881580-07-10", Day(2147483646));
  EXPECT_EQ("5877642-06-25 (BC)", Day(-2147483646));
  // DuckDB's +-infinity dates are INT32_MAX and its negation.
  EXPECT_EQ("infinity", Day(std::numeric_limits<int32_t>::max()));
  EXPECT_EQ("-infinity", Day(-std::numeric_limits<int32_t>::max()));
  EXPECT_EQ("5877642-06-23 (BC)", Day(std::numeric_limits<int32_t>::min()));  // no crash
}

TEST(ResultValue, TimestampsAsDuckDb) {
  EXPECT_EQ("1970-01-01 00:00:00", Micros(0));
  EXPECT_EQ("1970-01-01 00:00:00.5", Micros(500000));
  EXPECT_EQ("1969-12-31 23:59:59.999999", Micros(-1));
  EXPECT_EQ("2013-07-15 12:34:56.12", Micros(1373891696120000));
  EXPECT_EQ("2013-07-15 12:34:56.000001", Micros(1373891696000001));
  EXPECT_EQ("2013-07-15 12:34:56", Micros(1373891696000000));
  EXPECT_EQ("0001-01-01 00:00:00", Micros(-62135596800000000));
  EXPECT_EQ("0001-12-31 (BC) 23:59:59.5", Micros(-62135596800500000));
  EXPECT_EQ("294247-01-10 04:00:54.775806", Micros(9223372036854775806));
  EXPECT_EQ("290309-12-22 (BC) 00:00:00", Micros(-9223372022400000000));
  EXPECT_EQ("infinity", Micros(std::numeric_limits<int64_t>::max()));
  EXPECT_EQ("-infinity", Micros(-std::numeric_limits<int64_t>::max()));
  EXPECT_EQ("290309-12-21 (BC) 19:59:05.224192", Micros(std::numeric_limits<int64_t>::min()));

  EXPECT_EQ("1969-12-31 23:59:59", Seconds(-1));
  EXPECT_EQ("2013-07-15 12:34:56", Seconds(1373891696));
  EXPECT_EQ("infinity", Seconds(std::numeric_limits<int64_t>::max()));
  // Far outside DuckDB's range, and days * 86400 would overflow: still the right time of day.
  const std::string far = Seconds(std::numeric_limits<int64_t>::min());
  EXPECT_EQ(" (BC) 08:29:52", far.substr(far.size() - 14)) << far;
}

TEST(ResultValue, NullsAndStrings) {
  Column s = Strings({"plain", std::nullopt, "", "é\t\"x\"\\"}, TypeId::kLargeString);
  EXPECT_EQ("plain", FormatValue(s, 0, ValueStyle::kText));
  EXPECT_EQ("NULL", FormatValue(s, 1, ValueStyle::kText));
  EXPECT_EQ("", FormatValue(s, 2, ValueStyle::kText));
  EXPECT_EQ("é\t\"x\"\\", FormatValue(s, 3, ValueStyle::kText));
  EXPECT_EQ("null", FormatValue(s, 1, ValueStyle::kJson));
  EXPECT_EQ("\"é\\t\\\"x\\\"\\\\\"", FormatValue(s, 3, ValueStyle::kJson));
  Column i = Fixed<int32_t>(TypeId::kInt32, {std::nullopt, 7});
  EXPECT_EQ("NULL", FormatValue(i, 0, ValueStyle::kText));
  EXPECT_EQ("7", FormatValue(i, 1, ValueStyle::kText));
}

TEST(ResultValue, JsonValues) {
  const auto json = [](const Column& c, size_t row) {
    return FormatValue(c, row, ValueStyle::kJson);
  };
  const double inf = std::numeric_limits<double>::infinity();
  Column d = Fixed<double>(TypeId::kFloat64, {1.5, std::nan(""), inf, -inf, -0.0, 1e300});
  EXPECT_EQ("1.5", json(d, 0));
  EXPECT_EQ("null", json(d, 1));  // JSON has no NaN or infinities
  EXPECT_EQ("null", json(d, 2));
  EXPECT_EQ("null", json(d, 3));
  EXPECT_EQ("-0.0", json(d, 4));
  EXPECT_EQ("1e+300", json(d, 5));
  EXPECT_EQ("null", json(Fixed<float>(TypeId::kFloat32, {std::nanf("")}), 0));
  EXPECT_EQ("-170141183460469231731687303715884105728",
            json(Fixed<Int128>(TypeId::kInt128, {kInt128Min}), 0));
  EXPECT_EQ("true", json(Fixed<uint8_t>(TypeId::kBool, {1}), 0));
  EXPECT_EQ("\"2000-02-29\"", json(Fixed<int32_t>(TypeId::kDate32, {11016}), 0));
  EXPECT_EQ("\"1970-01-01 00:00:00.5\"",
            json(Fixed<int64_t>(TypeId::kTimestampMicros, {500000}), 0));
  // Control characters, valid multi-byte UTF-8 kept, invalid bytes replaced by U+FFFD.
  Column s =
      Strings({std::string("a\x01\x1f\b\f\r\n", 7), "日本 😀", "bad\xff\xc3(\xed\xa0\x80"});
  EXPECT_EQ("\"a\\u0001\\u001f\\b\\f\\r\\n\"", json(s, 0));
  EXPECT_EQ("\"日本 😀\"", json(s, 1));
  EXPECT_EQ("\"bad\xEF\xBF\xBD\xEF\xBF\xBD(\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\"", json(s, 2));
}

// ------------------------------------------------------------------ printers

// Three rows holding every type, NULLs, extremes, unicode and the cases CSV must quote.
Result EveryType() {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  Result r;
  Add(&r, "i64", Fixed<int64_t>(TypeId::kInt64, {1, std::numeric_limits<int64_t>::min(), {}}));
  Add(&r, "h", Fixed<Int128>(TypeId::kInt128, {kInt128Max, kInt128Min, Int128{0}}));
  Add(&r, "d", Fixed<double>(TypeId::kFloat64, {1513.4908, nan, -0.0}));
  Add(&r, "f", Fixed<float>(TypeId::kFloat32, {1.5f, {}, -inf}));
  Add(&r, "b", Fixed<uint8_t>(TypeId::kBool, {1, 0, {}}));
  Add(&r, "dt", Fixed<int32_t>(TypeId::kDate32, {0, -1, 11016}));
  Add(&r, "ts", Fixed<int64_t>(TypeId::kTimestampMicros, {0, 500000, {}}));
  Add(&r, "tss", Fixed<int64_t>(TypeId::kTimestampSeconds, {-1, 1373891696, 0}));
  Add(&r, "s", Strings({"plain", "a,b \"q\"", {}}));
  Add(&r, "u", Strings({"日本", "", " x "}, TypeId::kLargeString));
  return r;
}

Result NoRows() {
  Result r;
  Add(&r, "n", Column(TypeId::kInt64));
  Add(&r, "s", Column(TypeId::kString));
  return r;
}

TEST(ResultTable, EveryType) {
  EXPECT_EQ(
      "                  i64 |                                        h |         d | "
      "   f | b     | dt         | ts                    | tss                 | s       | u\n"
      "----------------------+------------------------------------------+-----------+"
      "------+-------+------------+-----------------------+---------------------+---------+-----\n"
      "                    1 |  170141183460469231731687303715884105727 | 1513.4908 | "
      " 1.5 | true  | 1970-01-01 | 1970-01-01 00:00:00   | 1969-12-31 23:59:59 | plain   | 日本\n"
      " -9223372036854775808 | -170141183460469231731687303715884105728 |       nan | "
      "NULL | false | 1969-12-31 | 1970-01-01 00:00:00.5 | 2013-07-15 12:34:56 | a,b \"q\" |\n"
      "                 NULL |                                        0 |      -0.0 | "
      "-inf | NULL  | 2000-02-29 | NULL                  | 1970-01-01 00:00:00 | NULL    |  x\n"
      "(3 rows)\n",
      PrintTable(EveryType()));
}

TEST(ResultTable, EmptyAndSingleRow) {
  EXPECT_EQ(
      " n | s\n"
      "---+---\n"
      "(0 rows)\n",
      PrintTable(NoRows()));
  EXPECT_EQ("(0 rows)\n", PrintTable(Result()));
  Result one;
  Add(&one, "count_star()", Fixed<int64_t>(TypeId::kInt64, {99997497}));
  EXPECT_EQ(
      " count_star()\n"
      "--------------\n"
      "     99997497\n"
      "(1 row)\n",
      PrintTable(one));
}

TEST(ResultTable, UnicodeWidthTruncationAndEscapes) {
  Result r;
  Add(&r, "word", Strings({"héllo wörld", "日本語テキスト", "ok", "tab\there\nnewline"}));
  Add(&r, "ctl", Strings({"\x1b[31m", "\x7f", "", {}}));
  Add(&r, "n", Fixed<int64_t>(TypeId::kInt64, {1, 22, 1234567, -5}));
  TableOptions options;
  options.max_width = 6;  // 5 code points and "…"
  EXPECT_EQ(
      " word   | ctl    |      n\n"
      "--------+--------+--------\n"
      " héllo… | \\x1b[… |      1\n"
      " 日本語テキ… | \\x7f   |     22\n"
      " ok     |        | 12345…\n"
      " tab\\t… | NULL   |     -5\n"
      "(4 rows)\n",
      PrintTable(r, options));
  options.max_width = 0;  // no limit; widths in code points, not bytes
  EXPECT_EQ(
      " word               | ctl      |       n\n"
      "--------------------+----------+---------\n"
      " héllo wörld        | \\x1b[31m |       1\n"
      " 日本語テキスト            | \\x7f     |      22\n"  // 7 code points + 11 spaces
      " ok                 |          | 1234567\n"
      " tab\\there\\nnewline | NULL     |      -5\n"
      "(4 rows)\n",
      PrintTable(r, options));
}

TEST(ResultTable, MaxRowsShowsHeadAndTail) {
  std::vector<std::optional<int64_t>> values;
  for (int64_t i = 0; i < 10; ++i) values.push_back(i * 11);
  Result r;
  Add(&r, "v", Fixed<int64_t>(TypeId::kInt64, values));
  TableOptions options;
  options.max_rows = 5;  // 3 first, 2 last
  EXPECT_EQ(
      "  v\n"
      "----\n"
      "  0\n"
      " 11\n"
      " 22\n"
      " … 5 rows …\n"
      " 88\n"
      " 99\n"
      "(10 rows)\n",
      PrintTable(r, options));
  options.max_rows = 10;  // fits: every row
  EXPECT_EQ(std::string::npos, PrintTable(r, options).find("…"));
}

TEST(ResultCsv, EveryType) {
  // DuckDB's COPY TO csv writes the same except that it leaves " x " unquoted.
  EXPECT_EQ(
      "i64,h,d,f,b,dt,ts,tss,s,u\n"
      "1,170141183460469231731687303715884105727,1513.4908,1.5,true,1970-01-01,"
      "1970-01-01 00:00:00,1969-12-31 23:59:59,plain,日本\n"
      "-9223372036854775808,-170141183460469231731687303715884105728,nan,,false,1969-12-31,"
      "1970-01-01 00:00:00.5,2013-07-15 12:34:56,\"a,b \"\"q\"\"\",\"\"\n"
      ",0,-0.0,-inf,,2000-02-29,,1970-01-01 00:00:00,,\" x \"\n",
      PrintCsv(EveryType()));
}

TEST(ResultCsv, QuotingEmptyAndHeaderless) {
  Result r;
  Add(&r, "a b", Strings({"cr\rx", "lf\nx", "tab\tx", "lead ", "mid dle", "é,"}));
  Add(&r, "", Strings({"", {}, "\"", "x", "y", "z"}));
  EXPECT_EQ(
      "a b,\"\"\n"
      "\"cr\rx\",\"\"\n"
      "\"lf\nx\",\n"
      "tab\tx,\"\"\"\"\n"
      "\"lead \",x\n"
      "mid dle,y\n"
      "\"é,\",z\n",
      PrintCsv(r));
  DelimitedOptions no_header;
  no_header.header = false;
  EXPECT_EQ("", PrintCsv(NoRows(), no_header));
  EXPECT_EQ("n,s\n", PrintCsv(NoRows()));
  EXPECT_EQ("", PrintCsv(Result()));
}

TEST(ResultTsv, EveryTypeAndEscapes) {
  EXPECT_EQ(
      "i64\th\td\tf\tb\tdt\tts\ttss\ts\tu\n"
      "1\t170141183460469231731687303715884105727\t1513.4908\t1.5\ttrue\t1970-01-01\t"
      "1970-01-01 00:00:00\t1969-12-31 23:59:59\tplain\t日本\n"
      "-9223372036854775808\t-170141183460469231731687303715884105728\tnan\t\\N\tfalse\t"
      "1969-12-31\t1970-01-01 00:00:00.5\t2013-07-15 12:34:56\ta,b \"q\"\t\n"
      "\\N\t0\t-0.0\t-inf\t\\N\t2000-02-29\t\\N\t1970-01-01 00:00:00\t\\N\t x \n",
      PrintTsv(EveryType()));
  Result r;
  Add(&r, "a\tb", Strings({"back\\slash", "t\tn\nr\r", {}}));
  EXPECT_EQ("a\\tb\nback\\\\slash\nt\\tn\\nr\\r\n\\N\n", PrintTsv(r));
  EXPECT_EQ("n\ts\n", PrintTsv(NoRows()));
  EXPECT_EQ("", PrintTsv(Result()));
}

TEST(ResultJson, EveryType) {
  const std::string row0 =
      "{\"i64\":1,\"h\":170141183460469231731687303715884105727,\"d\":1513.4908,\"f\":1.5,"
      "\"b\":true,\"dt\":\"1970-01-01\",\"ts\":\"1970-01-01 00:00:00\","
      "\"tss\":\"1969-12-31 23:59:59\",\"s\":\"plain\",\"u\":\"日本\"}";
  const std::string row1 =
      "{\"i64\":-9223372036854775808,\"h\":-170141183460469231731687303715884105728,"
      "\"d\":null,\"f\":null,\"b\":false,\"dt\":\"1969-12-31\","
      "\"ts\":\"1970-01-01 00:00:00.5\",\"tss\":\"2013-07-15 12:34:56\","
      "\"s\":\"a,b \\\"q\\\"\",\"u\":\"\"}";
  const std::string row2 =
      "{\"i64\":null,\"h\":0,\"d\":-0.0,\"f\":null,\"b\":null,\"dt\":\"2000-02-29\","
      "\"ts\":null,\"tss\":\"1970-01-01 00:00:00\",\"s\":null,\"u\":\" x \"}";
  EXPECT_EQ("[\n\t" + row0 + ",\n\t" + row1 + ",\n\t" + row2 + "\n]\n", PrintJson(EveryType()));
  JsonOptions lines;
  lines.lines = true;
  EXPECT_EQ(row0 + "\n" + row1 + "\n" + row2 + "\n", PrintJson(EveryType(), lines));
}

TEST(ResultJson, EmptyAndEscapedKeys) {
  EXPECT_EQ("[]\n", PrintJson(NoRows()));
  EXPECT_EQ("[]\n", PrintJson(Result()));
  JsonOptions lines;
  lines.lines = true;
  EXPECT_EQ("", PrintJson(NoRows(), lines));
  Result r;
  Add(&r, "say \"hi\"\n", Fixed<int8_t>(TypeId::kInt8, {-128}));
  EXPECT_EQ("[\n\t{\"say \\\"hi\\\"\\n\":-128}\n]\n", PrintJson(r));
}

TEST(ResultMarkdown, EveryTypeAndEscapes) {
  EXPECT_EQ(
      "| i64 | h | d | f | b | dt | ts | tss | s | u |\n"
      "| ---: | ---: | ---: | ---: | --- | --- | --- | --- | --- | --- |\n"
      "| 1 | 170141183460469231731687303715884105727 | 1513.4908 | 1.5 | true | 1970-01-01 | "
      "1970-01-01 00:00:00 | 1969-12-31 23:59:59 | plain | 日本 |\n"
      "| -9223372036854775808 | -170141183460469231731687303715884105728 | nan | NULL | false | "
      "1969-12-31 | 1970-01-01 00:00:00.5 | 2013-07-15 12:34:56 | a,b \"q\" |  |\n"
      "| NULL | 0 | -0.0 | -inf | NULL | 2000-02-29 | NULL | 1970-01-01 00:00:00 | NULL |  x  |\n",
      PrintMarkdown(EveryType()));
  Result r;
  Add(&r, "a|b", Strings({"x|y", "back\\|slash", "two\nlines", "crlf\r\nend"}));
  EXPECT_EQ(
      "| a\\|b |\n"
      "| --- |\n"
      "| x\\|y |\n"
      "| back\\\\\\|slash |\n"
      "| two<br>lines |\n"
      "| crlf<br>end |\n",
      PrintMarkdown(r));
  EXPECT_EQ("| n | s |\n| ---: | --- |\n", PrintMarkdown(NoRows()));
  EXPECT_EQ("", PrintMarkdown(Result()));
}

}  // namespace
}  // namespace laneql
