// Tests of the corpus runner's own logic, independent of the SQL engine: the file parser, the
// inline value parser and the comparison of hand-built Results with records.
#include <gtest/gtest.h>

#include <string>

#include "laneql/column.h"
#include "laneql/result.h"
#include "record_check.h"
#include "table_builder.h"
#include "test_file.h"

namespace laneql {
namespace corpus {
namespace {

TestFile ParseOk(const std::string& text) {
  TestFile file;
  std::string error;
  EXPECT_TRUE(ParseTestFile("f.test", text, &file, &error)) << error;
  return file;
}

std::string ParseError(const std::string& text) {
  TestFile file;
  std::string error;
  EXPECT_FALSE(ParseTestFile("f.test", text, &file, &error)) << text;
  return error;
}

TEST(CorpusFileParser, TablesHitsAndRecords) {
  const TestFile file = ParseOk(
      "# a comment\n"
      "table t(a INTEGER, s VARCHAR)\n"
      "1 | x y\n"
      "NULL|(empty)\n"
      "\n"
      "hits rows=100 seed=7\n"
      "\n"
      "query unordered BIGINT,VARCHAR\n"
      "SELECT a,\n"
      "  s FROM t\n"
      "----\n"
      "1\tx y\n"
      "NULL\t(empty)\n"
      "\n"
      "query ordered\n"
      "SELECT 1 FROM t WHERE false\n"
      "----\n"
      "\n"
      "error\n"
      "SELECT\n"
      "----\n"
      "syntax error\n"
      "second line\n");
  ASSERT_EQ(file.tables.size(), 1u);
  EXPECT_EQ(file.tables[0].name, "t");
  ASSERT_EQ(file.tables[0].columns.size(), 2u);
  EXPECT_EQ(file.tables[0].columns[1].type, "VARCHAR");
  ASSERT_EQ(file.tables[0].rows.size(), 2u);
  EXPECT_EQ(*file.tables[0].rows[0][1], "x y");
  EXPECT_FALSE(file.tables[0].rows[1][0].has_value());
  EXPECT_EQ(*file.tables[0].rows[1][1], "");
  EXPECT_EQ(file.tables[0].row_lines[1], 4);
  ASSERT_TRUE(file.hits.has_value());
  EXPECT_EQ(file.hits->rows, 100u);
  EXPECT_EQ(file.hits->seed, 7u);
  ASSERT_EQ(file.records.size(), 3u);
  EXPECT_EQ(file.records[0].line, 8);
  EXPECT_FALSE(file.records[0].ordered);
  EXPECT_EQ(file.records[0].types, (std::vector<std::string>{"BIGINT", "VARCHAR"}));
  EXPECT_EQ(file.records[0].sql, "SELECT a,\n  s FROM t");
  EXPECT_EQ(file.records[0].expected.size(), 2u);
  EXPECT_TRUE(file.records[1].ordered);
  EXPECT_TRUE(file.records[1].expected.empty());
  EXPECT_EQ(file.records[2].kind, RecordKind::kError);
  EXPECT_EQ(file.records[2].expected, (std::vector<std::string>{"syntax error", "second line"}));
}

TEST(CorpusFileParser, MalformedFilesSayWhereAndWhat) {
  EXPECT_EQ(ParseError(""), "f.test: the file has no records");
  EXPECT_EQ(ParseError("table t(a INTEGER)\n1\n"), "f.test: the file has no records");
  EXPECT_EQ(ParseError("select 1\n"),
            "f.test:1: unknown directive 'select' (expected table, hits, query or error)");
  EXPECT_EQ(ParseError("query ordered\nSELECT 1\n\n"),
            "f.test:1: record has no '----' line after its SQL");
  EXPECT_EQ(ParseError("query ordered\nSELECT 1"),
            "f.test:1: record has no '----' line after its SQL");
  EXPECT_EQ(ParseError("query\nSELECT 1\n----\n1\n"),
            "f.test:1: expected 'query ordered|unordered [tableorder] [TYPE,...]'");
  EXPECT_EQ(ParseError("query sorted\nSELECT 1\n----\n1\n"),
            "f.test:1: expected 'query ordered|unordered [tableorder] [TYPE,...]'");
  EXPECT_EQ(ParseError("query ordered\n----\n1\n"), "f.test:1: record has no SQL");
  EXPECT_EQ(ParseError("error\nSELECT\n----\n"), "f.test:1: error record has no expected message");
  EXPECT_EQ(ParseError("error maybe\nSELECT\n----\nx\n"),
            "f.test:1: expected 'error' or 'error unsupported'");
  EXPECT_EQ(ParseError("table t(a INTEGER, b TEXT)\n"), "f.test:1: unsupported column type 'TEXT'");
  EXPECT_EQ(ParseError("table t(a)\n"), "f.test:1: bad column 'a', expected 'name TYPE'");
  EXPECT_EQ(ParseError("table t a INTEGER\n"),
            "f.test:1: expected 'table name(column TYPE, ...)'");
  EXPECT_EQ(ParseError("table t(a INTEGER, b INTEGER)\n1|2|3\n"),
            "f.test:2: row has 3 values, table 't' has 2 columns");
  EXPECT_EQ(ParseError("table t(a VARCHAR)\n |\n"),
            "f.test:2: row has 2 values, table 't' has 1 columns");
  EXPECT_EQ(ParseError("table t(a VARCHAR, b VARCHAR)\nx|\n"),
            "f.test:2: empty value: write NULL or (empty)");
  EXPECT_EQ(ParseError("table t(a INTEGER)\n\ntable T(b INTEGER)\n"),
            "f.test:3: table 'T' is declared twice");
  EXPECT_EQ(ParseError("hits seed=1\n"), "f.test:1: hits needs rows=N");
  EXPECT_EQ(ParseError("hits rows=x\n"), "f.test:1: expected key=number, got 'rows=x'");
  EXPECT_EQ(ParseError("hits rows=1 speed=2\n"), "f.test:1: unknown hits option 'speed'");
  EXPECT_EQ(ParseError("table hits(a INTEGER)\n\nhits rows=1\n"),
            "f.test:3: table 'hits' is declared twice");
}

TEST(CorpusValues, DatesAndTimestamps) {
  int32_t days = 0;
  ASSERT_TRUE(ParseDate("1970-01-01", &days));
  EXPECT_EQ(days, 0);
  ASSERT_TRUE(ParseDate("2000-03-01", &days));
  EXPECT_EQ(days, 11017);
  ASSERT_TRUE(ParseDate("1969-12-31", &days));
  EXPECT_EQ(days, -1);
  ASSERT_TRUE(ParseDate("2024-02-29", &days));
  EXPECT_EQ(days, 19782);
  ASSERT_TRUE(ParseDate("0001-01-01", &days));
  EXPECT_EQ(days, -719162);
  EXPECT_FALSE(ParseDate("2023-02-29", &days));
  EXPECT_FALSE(ParseDate("1900-02-29", &days));
  EXPECT_FALSE(ParseDate("2023-13-01", &days));
  EXPECT_FALSE(ParseDate("2023-1-01", &days));
  EXPECT_FALSE(ParseDate("2023-01-01x", &days));
  int64_t micros = 0;
  ASSERT_TRUE(ParseTimestamp("1970-01-02 00:00:01.5", &micros));
  EXPECT_EQ(micros, 86401500000);
  ASSERT_TRUE(ParseTimestamp("1969-12-31 23:59:59.999999", &micros));
  EXPECT_EQ(micros, -1);
  ASSERT_TRUE(ParseTimestamp("2013-07-15", &micros));
  EXPECT_EQ(micros, 15901 * int64_t{86400000000});
  EXPECT_FALSE(ParseTimestamp("2013-07-15 24:00:00", &micros));
  EXPECT_FALSE(ParseTimestamp("2013-07-15 12:00", &micros));
  EXPECT_FALSE(ParseTimestamp("2013-07-15 12:00:00.1234567", &micros));
  EXPECT_FALSE(ParseTimestamp("2013-07-15T12:00:00", &micros));
}

TEST(CorpusValues, InlineTableRoundTripsThroughFormatValue) {
  const TestFile file = ParseOk(
      "table t(i8 TINYINT, u64 UBIGINT, i64 BIGINT, f FLOAT, d DOUBLE, dt DATE, ts TIMESTAMP, "
      "s VARCHAR, b BOOLEAN)\n"
      "-128 | 18446744073709551615 | -9223372036854775808 | 0.1 | -0.5 | 2000-02-29 | "
      "2013-07-15 12:34:56.12 | Привет | true\n"
      "NULL | NULL | NULL | NULL | NULL | NULL | NULL | (empty) | NULL\n"
      "\nquery ordered\nSELECT 1\n----\n1\n");
  Table table;
  std::string error;
  ASSERT_TRUE(BuildInlineTable(file.path, file.tables[0], &table, &error)) << error;
  ASSERT_EQ(table.num_rows(), 2u);
  const char* expected[] = {"-128",       "18446744073709551615",   "-9223372036854775808",
                            "0.1",        "-0.5",                   "2000-02-29",
                            "2013-07-15 12:34:56.12", "Привет",     "true"};
  for (size_t c = 0; c < table.num_columns(); ++c) {
    EXPECT_EQ(FormatValue(table.column(c), 0, ValueStyle::kText), expected[c]) << c;
    EXPECT_EQ(table.column(c).IsValid(1), c == 7) << c;
  }
}

TEST(CorpusValues, BadValuesNameLineColumnAndType) {
  const auto build_error = [](const std::string& type, const std::string& value) {
    const TestFile file =
        ParseOk("table t(c " + type + ")\n" + value + "\n\nquery ordered\nSELECT 1\n----\n1\n");
    Table table;
    std::string error;
    EXPECT_FALSE(BuildInlineTable(file.path, file.tables[0], &table, &error)) << value;
    return error;
  };
  EXPECT_EQ(build_error("TINYINT", "128"),
            "f.test:2: value '128' of column c (TINYINT): not a value of the type");
  EXPECT_EQ(build_error("UINTEGER", "-1"),
            "f.test:2: value '-1' of column c (UINTEGER): not a value of the type");
  EXPECT_EQ(build_error("INTEGER", "1.5"),
            "f.test:2: value '1.5' of column c (INTEGER): not a value of the type");
  EXPECT_EQ(build_error("DOUBLE", "1e999"),
            "f.test:2: value '1e999' of column c (DOUBLE): not a value of the type");
  EXPECT_EQ(build_error("DATE", "2023-02-30"),
            "f.test:2: value '2023-02-30' of column c (DATE): not a date (YYYY-MM-DD)");
  EXPECT_EQ(build_error("BOOLEAN", "yes"),
            "f.test:2: value 'yes' of column c (BOOLEAN): not a boolean (true or false)");
}

Column Int64Column(std::initializer_list<int64_t> values) {
  Column column(TypeId::kInt64);
  std::string error;
  for (int64_t v : values) EXPECT_TRUE(column.Append<int64_t>(v, &error)) << error;
  return column;
}

Column StringColumn(std::initializer_list<const char*> values) {
  Column column(TypeId::kString);
  std::string error;
  for (const char* v : values) {
    EXPECT_TRUE(v == nullptr ? column.AppendNull(&error) : column.AppendString(v, &error));
  }
  return column;
}

Result TwoColumnResult() {
  Result result;
  std::string error;
  EXPECT_TRUE(result.AddColumn("n", Int64Column({2, 1, 3}), &error)) << error;
  EXPECT_TRUE(result.AddColumn("s", StringColumn({"b", "", nullptr}), &error)) << error;
  return result;
}

Record QueryRecord(bool ordered, std::vector<std::string> expected,
                   std::vector<std::string> types = {}) {
  Record record;
  record.kind = RecordKind::kQuery;
  record.ordered = ordered;
  record.expected = std::move(expected);
  record.types = std::move(types);
  return record;
}

TEST(CorpusRecordCheck, RowsOrderAndTypes) {
  const Result result = TwoColumnResult();
  EXPECT_EQ(ResultRows(result), (std::vector<std::string>{"2\tb", "1\t(empty)", "3\tNULL"}));
  std::string report;
  EXPECT_TRUE(CheckRecord(QueryRecord(true, {"2\tb", "1\t(empty)", "3\tNULL"}), result, &report));
  EXPECT_TRUE(CheckRecord(QueryRecord(false, {"3\tNULL", "2\tb", "1\t(empty)"}), result, &report));
  // The same rows in another order fail an ordered record.
  EXPECT_FALSE(CheckRecord(QueryRecord(true, {"1\t(empty)", "2\tb", "3\tNULL"}), result, &report));
  EXPECT_NE(report.find("expected (3 rows)"), std::string::npos) << report;
  // A missing row, an extra row, a wrong value, an empty string written as nothing.
  EXPECT_FALSE(CheckRecord(QueryRecord(false, {"2\tb", "1\t(empty)"}), result, &report));
  EXPECT_FALSE(CheckRecord(QueryRecord(false, {"2\tb", "1\t(empty)", "3\tNULL", "4\tx"}), result,
                           &report));
  EXPECT_FALSE(CheckRecord(QueryRecord(false, {"2\tb", "1\t(empty)", "3\tnull"}), result, &report));
  EXPECT_FALSE(CheckRecord(QueryRecord(false, {"2\tb", "1\t", "3\tNULL"}), result, &report));
  // Types, when the record names them.
  const std::vector<std::string> rows = {"2\tb", "1\t(empty)", "3\tNULL"};
  EXPECT_TRUE(CheckRecord(QueryRecord(true, rows, {"BIGINT", "VARCHAR"}), result, &report));
  EXPECT_FALSE(CheckRecord(QueryRecord(true, rows, {"HUGEINT", "VARCHAR"}), result, &report));
  EXPECT_NE(report.find("actual types:   BIGINT,VARCHAR"), std::string::npos) << report;
  EXPECT_FALSE(CheckRecord(QueryRecord(true, rows, {"BIGINT"}), result, &report));
}

TEST(CorpusRecordCheck, Errors) {
  Record record;
  record.kind = RecordKind::kError;
  record.expected = {"unknown column 'x'"};
  std::string report;
  EXPECT_TRUE(CheckRecord(record, Result::Error("unknown column 'x'"), &report)) << report;
  EXPECT_FALSE(CheckRecord(record, Result::Error("unknown column 'y'"), &report));
  EXPECT_NE(report.find("got the error:\n    unknown column 'y'"), std::string::npos) << report;
  EXPECT_FALSE(CheckRecord(record, TwoColumnResult(), &report));
  EXPECT_NE(report.find("but the query succeeded"), std::string::npos) << report;
  // A query record fails on an error result even when nothing is expected.
  EXPECT_FALSE(CheckRecord(QueryRecord(true, {}), Result::Error("boom"), &report));
  EXPECT_NE(report.find("query failed: boom"), std::string::npos) << report;
}

}  // namespace
}  // namespace corpus
}  // namespace laneql
