// The CSV writer: quoting rules, NULLs, TSV, file errors, and round trips through the reader
// (every type; 20,000 generated hits rows with the create.sql schema).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "laneql/csv.h"
#include "laneql/hits_generator.h"
#include "laneql/result.h"

namespace laneql {
namespace {

Column Strings(const std::vector<const char*>& values) {
  Column c(TypeId::kString);
  std::string error;
  for (const char* v : values) {
    EXPECT_TRUE(v == nullptr ? c.AppendNull(&error) : c.AppendString(v, &error)) << error;
  }
  return c;
}

template <class T>
Column Fixed(TypeId type, const std::vector<T>& values, int null_row = -1) {
  Column c(type);
  std::string error;
  for (size_t i = 0; i < values.size(); ++i) {
    EXPECT_TRUE(static_cast<int>(i) == null_row ? c.AppendNull(&error)
                                                : c.Append<T>(values[i], &error))
        << error;
  }
  return c;
}

TEST(CsvWriter, QuotesOnlyWhatNeedsIt) {
  Result r;
  std::string error;
  ASSERT_TRUE(r.AddColumn("s", Strings({"plain", "a,b", "say \"hi\"", "", nullptr, "x\ny", "c\r"}),
                          &error));
  ASSERT_TRUE(r.AddColumn("n,m", Fixed<int32_t>(TypeId::kInt32, {1, -2, 3, 4, 5, 6, 7}, 6),
                          &error));
  std::string out;
  AppendCsv(r, {}, &out);
  EXPECT_EQ(out,
            "s,\"n,m\"\nplain,1\n\"a,b\",-2\n\"say \"\"hi\"\"\",3\n\"\",4\n,5\n\"x\ny\",6\n"
            "\"c\r\",\n");
  CsvWriteOptions tsv;
  tsv.delimiter = '\t';
  tsv.header = false;
  tsv.null_string = "NULL";
  Result t;
  ASSERT_TRUE(t.AddColumn("s", Strings({"a,b", "t\tu", nullptr, "NULL"}), &error));
  out.clear();
  AppendCsv(t, tsv, &out);
  EXPECT_EQ(out, "a,b\n\"t\tu\"\nNULL\n\"NULL\"\n");
}

TEST(CsvWriter, EveryTypeRoundTripsThroughTheReader) {
  Result r;
  std::string error;
  ASSERT_TRUE(r.AddColumn("i8", Fixed<int8_t>(TypeId::kInt8, {-128, 127, 0}, 2), &error));
  ASSERT_TRUE(r.AddColumn("u64", Fixed<uint64_t>(TypeId::kUInt64, {UINT64_MAX, 0, 1}), &error));
  ASSERT_TRUE(r.AddColumn("f32", Fixed<float>(TypeId::kFloat32, {1.1f, -0.0f, INFINITY}), &error));
  ASSERT_TRUE(r.AddColumn("f64", Fixed<double>(TypeId::kFloat64,
                                               {0.1, std::nan(""), -1e300}), &error));
  ASSERT_TRUE(r.AddColumn("d", Fixed<int32_t>(TypeId::kDate32, {-719893, 0, 2932896}), &error));
  ASSERT_TRUE(r.AddColumn("ts", Fixed<int64_t>(TypeId::kTimestampSeconds, {-1, 0, 1700000000}),
                          &error));
  ASSERT_TRUE(r.AddColumn("tu", Fixed<int64_t>(TypeId::kTimestampMicros,
                                               {-1, 1700000000123450, INT64_MAX}), &error));
  ASSERT_TRUE(r.AddColumn("b", Fixed<uint8_t>(TypeId::kBool, {1, 0, 1}, 0), &error));
  ASSERT_TRUE(r.AddColumn("h", Fixed<__int128>(TypeId::kInt128,
                                               {-((__int128)1 << 100), 0, 42}), &error));
  ASSERT_TRUE(r.AddColumn("s", Strings({"", nullptr, "\xD0\xBF\"\n,"}), &error));
  std::string text;
  AppendCsv(r, {}, &text);
  CsvReadOptions options;
  for (size_t c = 0; c < r.num_columns(); ++c) options.schema.push_back({r.name(c), r.type(c)});
  Table t;
  CsvReadStats stats;
  ASSERT_TRUE(ReadCsvText(text, options, &t, &stats, &error)) << error << "\n" << text;
  ASSERT_EQ(t.num_rows(), 3u);
  for (size_t c = 0; c < r.num_columns(); ++c) {
    for (size_t row = 0; row < 3; ++row) {
      EXPECT_EQ(t.column(c).IsValid(row), r.column(c).IsValid(row)) << r.name(c) << row;
      EXPECT_EQ(FormatValue(t.column(c), row, ValueStyle::kText),
                FormatValue(r.column(c), row, ValueStyle::kText))
          << r.name(c) << " row " << row;
    }
  }
  EXPECT_TRUE(std::signbit(t.column(2).Values<float>()[1]));
}

// A copy of a table's columns as a Result (what AppendCsv takes).
Result ResultOf(const Table& table) {
  Result result;
  std::string error;
  for (size_t c = 0; c < table.num_columns(); ++c) {
    const Column& column = table.column(c);
    Column copy;
    const bool ok =
        column.type() == TypeId::kString
            ? Column::FromStrings(column.Offsets32(), column.StringData(), column.length(),
                                  column.validity(), &copy, &error)
            : Column::FromFixed(column.type(), column.values_buffer().data(), column.length(),
                                column.validity(), &copy, &error);
    EXPECT_TRUE(ok && result.AddColumn(table.column_name(c), std::move(copy), &error)) << error;
  }
  return result;
}

void ExpectSameColumns(const Table& generated, const Table& back) {
  ASSERT_EQ(back.num_rows(), generated.num_rows());
  ASSERT_EQ(back.num_columns(), generated.num_columns());
  for (size_t c = 0; c < back.num_columns(); ++c) {
    const Column& a = generated.column(c);
    const Column& b = back.column(c);
    ASSERT_EQ(b.type(), a.type()) << generated.column_name(c);
    ASSERT_EQ(back.column_name(c), generated.column_name(c));
    if (IsString(a.type())) {
      for (size_t row = 0; row < a.length(); ++row) {
        ASSERT_EQ(b.StringAt(row), a.StringAt(row)) << generated.column_name(c) << " " << row;
      }
    } else {
      ASSERT_EQ(std::memcmp(a.values_buffer().data(), b.values_buffer().data(),
                            a.length() * TypeByteWidth(a.type())),
                0)
          << generated.column_name(c);
    }
    ASSERT_EQ(b.null_count(), a.null_count());
  }
}

// 20,000 generated hits rows -> CSV text (AppendCsv) -> ReadCsvText with the create.sql types
// (HitsSchema; create_table_test checks they are create.sql's) -> every value identical.
TEST(CsvWriter, HitsRoundTripWithTheCreateTableSchema) {
  HitsOptions hits;
  hits.rows = 20000;
  Table generated;
  std::string error;
  ASSERT_TRUE(GenerateHits(hits, &generated, &error)) << error;
  std::string text;
  AppendCsv(ResultOf(generated), {}, &text);
  // From the table directly, and slice by slice with the header only once (laneql gen's way
  // of writing a big CSV), the same bytes.
  std::string from_table, by_slices;
  AppendCsv(generated, {}, &from_table);
  EXPECT_TRUE(from_table == text);
  for (size_t first = 0; first < hits.rows; first += 7000) {
    Table slice;
    ASSERT_TRUE(GenerateHitsRange(hits, first, std::min<size_t>(7000, hits.rows - first), &slice, &error)) << error;
    CsvWriteOptions slice_options;
    slice_options.header = first == 0;
    AppendCsv(slice, slice_options, &by_slices);
  }
  EXPECT_TRUE(by_slices == text);
  CsvReadOptions options;
  for (const HitsColumnSpec& spec : HitsSchema()) options.schema.push_back({spec.name, spec.type});
  for (int threads : {1, 2}) {
    options.threads = threads;
    Table back;
    CsvReadStats stats;
    ASSERT_TRUE(ReadCsvText(text, options, &back, &stats, &error, "hits.csv")) << error;
    EXPECT_EQ(stats.rows, generated.num_rows());
    ExpectSameColumns(generated, back);
  }
#ifndef __EMSCRIPTEN__
  // The file writer writes the same bytes, and the file reader reads them back.
  const std::string path = ::testing::TempDir() + "/laneql_csv_hits_roundtrip.csv";
  ASSERT_TRUE(WriteCsvFile(generated, path, {}, &error)) << error;
  std::ifstream in(path, std::ios::binary);
  std::stringstream file;
  file << in.rdbuf();
  EXPECT_TRUE(file.str() == text);
  Table back;
  ASSERT_TRUE(ReadCsvFile(path, options, &back, nullptr, &error)) << error;
  ExpectSameColumns(generated, back);
  std::remove(path.c_str());
#endif
}

#ifndef __EMSCRIPTEN__
TEST(CsvWriter, FileErrorsNameThePath) {
  Table t;
  std::string error;
  EXPECT_FALSE(WriteCsvFile(t, "/nonexistent/dir/out.csv", {}, &error));
  EXPECT_EQ(error, "cannot write '/nonexistent/dir/out.csv': No such file or directory");
}
#endif

}  // namespace
}  // namespace laneql
