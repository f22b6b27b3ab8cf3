// The CSV reader: RFC 4180 quoting, line ends, BOM, NULLs, header and delimiter detection, type
// inference and explicit schemas with range checks, bad rows (messages with line:column, skip
// mode), and identical results for every thread count.
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "laneql/csv.h"
#include "laneql/result.h"
#include "laneql/table.h"

namespace laneql {
namespace {

struct Read {
  bool ok = false;
  Table table;
  CsvReadStats stats;
  std::string error;
};

Read ReadText(std::string_view text, CsvReadOptions options = {}) {
  Read r;
  r.ok = ReadCsvText(text, options, &r.table, &r.stats, &r.error, "t.csv");
  return r;
}

CsvReadOptions WithSchema(std::vector<ColumnSpec> schema) {
  CsvReadOptions options;
  options.schema = std::move(schema);
  return options;
}

std::string Str(const Table& t, size_t c, size_t row) {
  return std::string(t.column(c).StringAt(row));
}
template <class T>
T Val(const Table& t, size_t c, size_t row) {
  return t.column(c).Values<T>()[row];
}

TEST(CsvReader, QuotesDelimitersAndEmbeddedNewlines) {
  Read r = ReadText("name,note\n\"a,b\",\"say \"\"hi\"\"\"\n\"multi\nline\",x\n");
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_EQ(r.table.num_rows(), 2u);
  EXPECT_EQ(r.table.column_name(0), "name");
  EXPECT_EQ(Str(r.table, 0, 0), "a,b");
  EXPECT_EQ(Str(r.table, 1, 0), "say \"hi\"");
  EXPECT_EQ(Str(r.table, 0, 1), "multi\nline");
  EXPECT_EQ(Str(r.table, 1, 1), "x");
}

TEST(CsvReader, CrlfBomAndNoFinalNewline) {
  Read r = ReadText("\xEF\xBB\xBF" "a,b\r\n1,\"x\"\r\n2,y");
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_EQ(r.table.num_columns(), 2u);
  EXPECT_EQ(r.table.column_name(0), "a");
  EXPECT_EQ(r.table.column(0).type(), TypeId::kInt64);
  ASSERT_EQ(r.table.num_rows(), 2u);
  EXPECT_EQ(Val<int64_t>(r.table, 0, 1), 2);
  EXPECT_EQ(Str(r.table, 1, 0), "x");
  EXPECT_EQ(Str(r.table, 1, 1), "y");
}

TEST(CsvReader, EmptyFieldsNullStringAndEmptyLines) {
  Read r = ReadText("s,i\n,\n\"\",5\n\nNA,7\n");
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_EQ(r.table.num_rows(), 3u);  // the empty line is no row
  const Column& s = r.table.column(0);
  EXPECT_FALSE(s.IsValid(0));        // empty unquoted: NULL
  EXPECT_TRUE(s.IsValid(1));         // "": an empty string
  EXPECT_EQ(Str(r.table, 0, 1), "");
  EXPECT_EQ(Str(r.table, 0, 2), "NA");  // no NULL string given
  EXPECT_FALSE(r.table.column(1).IsValid(0));
  CsvReadOptions options;
  options.null_string = "NA";
  Read n = ReadText("s,i\n,\n\"NA\",5\nNA,NA\n", options);
  ASSERT_TRUE(n.ok) << n.error;
  EXPECT_TRUE(n.table.column(0).IsValid(1));  // quoted: a value
  EXPECT_EQ(Str(n.table, 0, 1), "NA");
  EXPECT_FALSE(n.table.column(0).IsValid(2));
  EXPECT_FALSE(n.table.column(1).IsValid(2));
  EXPECT_EQ(n.table.column(1).type(), TypeId::kInt64);
}

TEST(CsvReader, RaggedRowsFailWithLineAndColumnOrAreSkipped) {
  const std::string text = "a,b,c\n1,2,3\n4,5\n6,7,8,9\n10,11,12\n";
  Read r = ReadText(text);
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.error, "t.csv:3:4: expected 3 fields, found 2");
  CsvReadOptions skip;
  skip.skip_bad_rows = true;
  Read s = ReadText(text, skip);
  ASSERT_TRUE(s.ok) << s.error;
  EXPECT_EQ(s.table.num_rows(), 2u);
  EXPECT_EQ(s.stats.rows, 2u);
  EXPECT_EQ(s.stats.bad_rows_skipped, 2u);
  EXPECT_EQ(s.stats.first_bad_row, r.error);
  EXPECT_EQ(Val<int64_t>(s.table, 0, 1), 10);
  // Too many fields: the column of the first extra field.
  Read m = ReadText("a,b\n1,2\n3,4,5\n");
  EXPECT_EQ(m.error, "t.csv:3:5: expected 2 fields, found 3");
}

TEST(CsvReader, LineNumbersCountNewlinesInsideQuotes) {
  Read r = ReadText("a,b\n\"x\ny\",1\nz,oops\n", WithSchema({{"a", TypeId::kString},
                                                            {"b", TypeId::kInt32}}));
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.error, "t.csv:4:3: field 2 (\"b\"): 'oops' is not a valid INTEGER");
}

TEST(CsvReader, UnterminatedQuoteAndStrayQuotes) {
  Read r = ReadText("a,b\n1,\"open\n2,3\n");
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.find("t.csv:2:3: field 2 (\"b\"): unterminated quoted field"),
            std::string::npos) << r.error;
  Read s = ReadText("a,b\nx,y\"z\n");
  ASSERT_FALSE(s.ok);
  EXPECT_NE(s.error.find("t.csv:2:3: field 2 (\"b\"): a quote inside an unquoted field"),
            std::string::npos) << s.error;
  // Quotes in a long unquoted field, blocks after its start (the scanner's 64-byte blocks).
  for (size_t lead : {1, 60, 63, 64, 100, 200}) {
    Read far = ReadText("a,b\n1," + std::string(lead, 'x') + "\"\"" + std::string(70, 'y') +
                        "\n2,ok\n");
    ASSERT_FALSE(far.ok) << lead;
    EXPECT_NE(far.error.find("t.csv:2:3: field 2 (\"b\"): a quote inside an unquoted field"),
              std::string::npos) << far.error;
  }
  Read t = ReadText("a,b\nx,\"y\"z\"\"\n");
  ASSERT_FALSE(t.ok);
  EXPECT_NE(t.error.find("text after the closing quote"), std::string::npos) << t.error;
}

TEST(CsvReader, InvalidUtf8IsABadRow) {
  Read r = ReadText("a,b\nok,1\nbad\xC3(,2\n");
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.error, "t.csv:3:1: field 1 (\"a\"): invalid UTF-8 in a VARCHAR value");
  Read ok = ReadText("a\n\xD0\xBF\xD1\x80\xD0\xB8\n");  // Cyrillic is fine
  ASSERT_TRUE(ok.ok) << ok.error;
}

TEST(CsvReader, OneMegabyteField) {
  std::string big(1 << 20, 'x');
  big[12345] = ',';
  big[500000] = '\n';
  const std::string text = "id,blob\n1,\"" + big + "\"\n2,short\n";
  Read r = ReadText(text);
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_EQ(r.table.num_rows(), 2u);
  EXPECT_EQ(Str(r.table, 1, 0), big);
  EXPECT_EQ(Str(r.table, 1, 1), "short");
}

TEST(CsvReader, ExplicitNarrowTypesCheckRanges) {
  const auto fails = [](const std::string& value, TypeId type, const std::string& expected) {
    Read r = ReadText("v\n" + value + "\n", WithSchema({{"v", type}}));
    EXPECT_FALSE(r.ok) << value;
    EXPECT_EQ(r.error, "t.csv:2:1: field 1 (\"v\"): " + expected);
  };
  fails("32768", TypeId::kInt16, "'32768' is out of range for SMALLINT");
  fails("-32769", TypeId::kInt16, "'-32769' is out of range for SMALLINT");
  fails("2147483648", TypeId::kInt32, "'2147483648' is out of range for INTEGER");
  fails("256", TypeId::kUInt8, "'256' is out of range for UTINYINT");
  fails("-1", TypeId::kUInt8, "'-1' is out of range for UTINYINT");
  fails("1.5", TypeId::kInt32, "'1.5' is not a valid INTEGER");
  fails(" 1", TypeId::kInt32, "' 1' is not a valid INTEGER");
  fails("1e39", TypeId::kFloat32, "'1e39' is out of range for FLOAT");
  fails("2021-02-29", TypeId::kDate32, "'2021-02-29' is out of range for DATE");
  Read ok = ReadText("v\n-32768\n32767\n", WithSchema({{"v", TypeId::kInt16}}));
  ASSERT_TRUE(ok.ok) << ok.error;
  EXPECT_EQ(Val<int16_t>(ok.table, 0, 0), -32768);
  EXPECT_EQ(Val<int16_t>(ok.table, 0, 1), 32767);
}

TEST(CsvReader, InferredBigintContradictedOrOverflowing) {
  std::string text = "n\n";
  for (int i = 0; i < 50; ++i) text += std::to_string(i) + "\n";
  Read over = ReadText(text + "9223372036854775808\n", [] {
    CsvReadOptions o;
    o.sample_rows = 10;
    return o;
  }());
  ASSERT_FALSE(over.ok);
  EXPECT_EQ(over.error,
            "t.csv:52:1: field 1 (\"n\"): '9223372036854775808' is out of range for BIGINT (the "
            "column's type was inferred from the first 10 rows; give an explicit schema to read "
            "it otherwise)");
  CsvReadOptions small;
  small.sample_rows = 10;
  Read word = ReadText(text + "abc\n", small);
  ASSERT_FALSE(word.ok);
  EXPECT_NE(word.error.find("'abc' is not a valid BIGINT"), std::string::npos) << word.error;
  // Within the sample it simply widens the type (a sample without limit too).
  CsvReadOptions unlimited;
  unlimited.sample_rows = SIZE_MAX;
  Read all = ReadText(text + "abc\n", unlimited);
  ASSERT_TRUE(all.ok) << all.error;
  EXPECT_EQ(all.table.column(0).type(), TypeId::kString);
  EXPECT_EQ(all.table.num_rows(), 51u);
  Read widened = ReadText(text + "1.5\n");
  ASSERT_TRUE(widened.ok) << widened.error;
  EXPECT_EQ(widened.table.column(0).type(), TypeId::kFloat64);
}

TEST(CsvReader, InfersEveryType) {
  Read r = ReadText(
      "b,i,d,day,ts,s\n"
      "true,1,1.5,2024-02-29,2024-01-02 03:04:05.123456,x\n"
      "FALSE,-7,-2,1970-01-01,1970-01-01 00:00:00,y\n");
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.table.column(0).type(), TypeId::kBool);
  EXPECT_EQ(r.table.column(1).type(), TypeId::kInt64);
  EXPECT_EQ(r.table.column(2).type(), TypeId::kFloat64);
  EXPECT_EQ(r.table.column(3).type(), TypeId::kDate32);
  EXPECT_EQ(r.table.column(4).type(), TypeId::kTimestampMicros);
  EXPECT_EQ(r.table.column(5).type(), TypeId::kString);
  EXPECT_EQ(Val<uint8_t>(r.table, 0, 1), 0);
  EXPECT_EQ(Val<double>(r.table, 2, 1), -2.0);
  EXPECT_EQ(Val<int32_t>(r.table, 3, 0), 19782);
  EXPECT_EQ(Val<int64_t>(r.table, 4, 0), 1704164645123456);
  EXPECT_EQ(Val<int64_t>(r.table, 4, 1), 0);
}

TEST(CsvReader, EveryExplicitType) {
  CsvReadOptions o = WithSchema({{"a", TypeId::kInt8}, {"b", TypeId::kInt16},
                                 {"c", TypeId::kInt32}, {"d", TypeId::kInt64},
                                 {"e", TypeId::kUInt8}, {"f", TypeId::kUInt16},
                                 {"g", TypeId::kUInt32}, {"h", TypeId::kUInt64},
                                 {"i", TypeId::kFloat32}, {"j", TypeId::kFloat64},
                                 {"k", TypeId::kDate32}, {"l", TypeId::kTimestampSeconds},
                                 {"m", TypeId::kTimestampMicros}, {"n", TypeId::kString},
                                 {"o", TypeId::kLargeString}, {"p", TypeId::kInt128},
                                 {"q", TypeId::kBool}});
  o.header = CsvReadOptions::Header::kNo;
  Read r = ReadText(
      "-128,-32768,-2147483648,-9223372036854775808,255,65535,4294967295,18446744073709551615,"
      "1.5,-0.25,0002-01-01 (BC),2000-01-01 00:00:01,2000-01-01 00:00:00.5,s,L,"
      "-170141183460469231731687303715884105728,t\n"
      ",,,,,,,,,,,,,,,,\n",
      o);
  ASSERT_TRUE(r.ok) << r.error;
  const Table& t = r.table;
  ASSERT_EQ(t.num_rows(), 2u);
  EXPECT_EQ(Val<int8_t>(t, 0, 0), -128);
  EXPECT_EQ(Val<int16_t>(t, 1, 0), -32768);
  EXPECT_EQ(Val<int32_t>(t, 2, 0), INT32_MIN);
  EXPECT_EQ(Val<int64_t>(t, 3, 0), INT64_MIN);
  EXPECT_EQ(Val<uint8_t>(t, 4, 0), 255);
  EXPECT_EQ(Val<uint16_t>(t, 5, 0), 65535);
  EXPECT_EQ(Val<uint32_t>(t, 6, 0), UINT32_MAX);
  EXPECT_EQ(Val<uint64_t>(t, 7, 0), UINT64_MAX);
  EXPECT_EQ(Val<float>(t, 8, 0), 1.5f);
  EXPECT_EQ(Val<double>(t, 9, 0), -0.25);
  EXPECT_EQ(Val<int32_t>(t, 10, 0), -719893);  // 2 BC = year -1: 366 + 365 days before 1 AD
  EXPECT_EQ(FormatValue(t.column(10), 0, ValueStyle::kText), "0002-01-01 (BC)");
  EXPECT_EQ(Val<int64_t>(t, 11, 0), 946684801);
  EXPECT_EQ(Val<int64_t>(t, 12, 0), 946684800500000);
  EXPECT_EQ(Str(t, 13, 0), "s");
  EXPECT_EQ(t.column(14).type(), TypeId::kLargeString);
  EXPECT_EQ(Str(t, 14, 0), "L");
  const __int128 min128 = static_cast<__int128>(static_cast<unsigned __int128>(1) << 127);
  EXPECT_TRUE(t.column(15).Values<__int128>()[0] == min128);
  EXPECT_EQ(Val<uint8_t>(t, 16, 0), 1);
  for (size_t c = 0; c < t.num_columns(); ++c) EXPECT_FALSE(t.column(c).IsValid(1)) << c;
}

TEST(CsvReader, HeaderDetection) {
  Read yes = ReadText("id,name\n1,a\n2,b\n");
  EXPECT_EQ(yes.table.column_name(0), "id");
  EXPECT_EQ(yes.table.num_rows(), 2u);
  Read no = ReadText("1,a\n2,b\n");
  EXPECT_EQ(no.table.column_name(0), "column0");
  EXPECT_EQ(no.table.num_rows(), 2u);
  Read strings = ReadText("first,last\nada,lovelace\n");  // distinct names above strings
  EXPECT_EQ(strings.table.column_name(1), "last");
  EXPECT_EQ(strings.table.num_rows(), 1u);
  Read repeated = ReadText("x,x\nada,lovelace\n");  // repeated values: data
  EXPECT_EQ(repeated.table.num_rows(), 2u);
  CsvReadOptions forced;
  forced.header = CsvReadOptions::Header::kYes;
  Read f = ReadText("x,x\n1,2\n", forced);
  ASSERT_TRUE(f.ok) << f.error;
  EXPECT_EQ(f.table.column_name(1), "x_1");
  forced.header = CsvReadOptions::Header::kNo;
  Read n = ReadText("id,name\n1,a\n", forced);
  EXPECT_EQ(n.table.num_rows(), 2u);
  EXPECT_EQ(n.table.column(0).type(), TypeId::kString);
  // Explicit schema: a header of the schema's names is skipped, a data first row is not.
  CsvReadOptions schema = WithSchema({{"id", TypeId::kInt32}, {"name", TypeId::kString}});
  EXPECT_EQ(ReadText("ID,Name\n1,a\n", schema).table.num_rows(), 1u);
  EXPECT_EQ(ReadText("1,a\n2,b\n", schema).table.num_rows(), 2u);
}

TEST(CsvReader, DelimiterDetectionAndTsv) {
  Read semi = ReadText("a;b;c\r\n\r\n\r\n1;2;3\r\n\r\n4;5;6\r\n");  // empty CRLF lines
  ASSERT_TRUE(semi.ok) << semi.error;
  EXPECT_EQ(semi.table.num_columns(), 3u);
  EXPECT_EQ(semi.table.num_rows(), 2u);
  Read pipe = ReadText("a|b\nx,y|2\n");
  ASSERT_TRUE(pipe.ok) << pipe.error;
  EXPECT_EQ(Str(pipe.table, 0, 0), "x,y");
  Read tsv = ReadText("a\tb\nhello, world\t1\n");
  ASSERT_TRUE(tsv.ok) << tsv.error;
  EXPECT_EQ(Str(tsv.table, 0, 0), "hello, world");
  CsvReadOptions tab;
  tab.delimiter = '\t';
  Read t = ReadText("a\tb\n1\t\"q\tq\"\n", tab);
  ASSERT_TRUE(t.ok) << t.error;
  EXPECT_EQ(Str(t.table, 1, 0), "q\tq");
}

TEST(CsvReader, EmptyAndHeaderOnly) {
  Read empty = ReadText("");
  ASSERT_TRUE(empty.ok) << empty.error;
  EXPECT_EQ(empty.table.num_columns(), 0u);
  Read header = ReadText("a,b\n");
  ASSERT_TRUE(header.ok) << header.error;
  EXPECT_EQ(header.table.num_columns(), 2u);
  EXPECT_EQ(header.table.num_rows(), 0u);
  EXPECT_EQ(header.table.column_name(1), "b");
  Read schema = ReadText("", WithSchema({{"x", TypeId::kInt32}}));
  ASSERT_TRUE(schema.ok) << schema.error;
  EXPECT_EQ(schema.table.num_columns(), 1u);
  EXPECT_EQ(schema.table.column(0).type(), TypeId::kInt32);
}

TEST(CsvReader, BadOptionsAndMissingFile) {
  CsvReadOptions o;
  o.escape = '\\';
  EXPECT_FALSE(ReadText("a\n", o).ok);
  Table t;
  std::string error;
  EXPECT_FALSE(ReadCsvFile("/nonexistent/dir/x.csv", {}, &t, nullptr, &error));
  EXPECT_EQ(error, "cannot open '/nonexistent/dir/x.csv': No such file or directory");
}

// A text of a few MB with quoted newlines, doubled quotes and NULLs, so chunks really split.
std::string BigText(bool with_bad_rows) {
  std::string text = "id,s,d\n";
  for (int i = 0; i < 60000; ++i) {
    text += std::to_string(i) + ",";
    if (i % 7 == 0) {
      text += "\"line\nbreak \"\"" + std::to_string(i) + "\"\"\"";
    } else if (i % 11 != 0) {
      text += "plain" + std::to_string(i * 31);
    }
    text += "," + std::to_string(i) + ".25\n";
    if (with_bad_rows && i % 9973 == 5000) text += "oops\n";
  }
  return text;
}

void ExpectSameTables(const Table& a, const Table& b) {
  ASSERT_EQ(a.num_rows(), b.num_rows());
  ASSERT_EQ(a.num_columns(), b.num_columns());
  for (size_t r = 0; r < a.num_rows(); ++r) {
    ASSERT_EQ(Val<int64_t>(a, 0, r), Val<int64_t>(b, 0, r));
    ASSERT_EQ(a.column(1).IsValid(r), b.column(1).IsValid(r));
    ASSERT_EQ(Str(a, 1, r), Str(b, 1, r));
    ASSERT_EQ(Val<double>(a, 2, r), Val<double>(b, 2, r));
  }
}

TEST(CsvReader, ThreadCountsGiveIdenticalResults) {
  const std::string text = BigText(false);
  ASSERT_GT(text.size(), 1000000u);
  Read one, two, three;
  for (auto [threads, read] : {std::pair{1, &one}, {2, &two}, {3, &three}}) {
    CsvReadOptions o;
    o.threads = threads;
    *read = ReadText(text, o);
    ASSERT_TRUE(read->ok) << read->error;
  }
  ASSERT_EQ(one.table.num_rows(), 60000u);
  EXPECT_EQ(Str(one.table, 1, 7), "line\nbreak \"7\"");
  EXPECT_FALSE(one.table.column(1).IsValid(11));
  ExpectSameTables(one.table, two.table);
  ExpectSameTables(one.table, three.table);
  // Bad rows: the same first error and count for every thread count.
  const std::string bad = BigText(true);
  std::string first_error;
  for (int threads : {1, 2, 3}) {
    CsvReadOptions o;
    o.threads = threads;
    Read fail = ReadText(bad, o);
    ASSERT_FALSE(fail.ok);
    if (threads == 1) first_error = fail.error;
    EXPECT_EQ(fail.error, first_error) << threads;
    o.skip_bad_rows = true;
    Read skip = ReadText(bad, o);
    ASSERT_TRUE(skip.ok) << skip.error;
    EXPECT_EQ(skip.stats.bad_rows_skipped, 6u);
    EXPECT_EQ(skip.stats.first_bad_row, first_error);
    EXPECT_EQ(skip.table.num_rows(), 60000u);
  }
  EXPECT_NE(first_error.find("expected 3 fields, found 1"), std::string::npos) << first_error;
}

#ifndef __EMSCRIPTEN__
TEST(CsvReader, ReadsAFile) {
  const std::string path = ::testing::TempDir() + "/laneql_csv_reader_test.csv";
  std::FILE* f = std::fopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  std::fputs("a,b\n1,x\n2,\n", f);
  std::fclose(f);
  Table t;
  CsvReadStats stats;
  std::string error;
  ASSERT_TRUE(ReadCsvFile(path, {}, &t, &stats, &error)) << error;
  EXPECT_EQ(t.num_rows(), 2u);
  EXPECT_EQ(stats.bytes, 11u);
  std::remove(path.c_str());
}
#endif

TEST(CsvReader, ProgressReachesTheTotalAndNeverPassesIt) {
  std::string text = "a,b\n";
  for (int i = 0; i < 50000; ++i) text += std::to_string(i) + ",x" + std::to_string(i % 7) + "\n";
  for (int threads : {1, 2}) {
    CsvReadOptions options;
    options.threads = threads;
    struct Call {
      size_t done, total, rows;
    };
    std::mutex mutex;
    std::vector<Call> calls;
    options.progress = [&](size_t done, size_t total, size_t rows) {
      std::lock_guard<std::mutex> lock(mutex);
      calls.push_back({done, total, rows});
    };
    Table table;
    std::string error;
    ASSERT_TRUE(ReadCsvText(text, options, &table, nullptr, &error)) << error;
    ASSERT_EQ(table.num_rows(), 50000u);
    ASSERT_GE(calls.size(), 2u) << "50,000 rows: a call every 1024 rows and one at the end";
    for (const Call& call : calls) {
      EXPECT_EQ(call.total, text.size());
      EXPECT_LE(call.done, call.total);
      EXPECT_LE(call.rows, table.num_rows());
    }
    EXPECT_EQ(calls.back().done, text.size());
    EXPECT_EQ(calls.back().rows, table.num_rows());
  }
}

}  // namespace
}  // namespace laneql
