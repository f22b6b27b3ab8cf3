// Files named in SQL: FROM 'x.csv' / 'x.tsv' / 'x.laneql', read_csv(...) with options, COPY ...
// TO in every format and back, and the errors for missing, unknown, malformed and corrupted
// files, through Database::Query. The readers have their own tests (csv_*_test.cc,
// table_file_test.cc); these check the SQL side: options, choice of reader, positions.
#include <cstdio>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "laneql/database.h"
#include "laneql/hits_generator.h"
#include "laneql/result.h"
#include "result_rows.h"
#include "laneql/table_file.h"

namespace laneql {
namespace {

// Every path handed out, removed when the test ends (SqlFiles::TearDown).
std::vector<std::string>& TempPaths() {
  static std::vector<std::string> paths;
  return paths;
}

// A random tag per process: test processes in other PID namespaces may share the directory.
std::string TempPath(const std::string& name) {
  static const std::string tag = std::to_string(std::random_device()());
  TempPaths().push_back(::testing::TempDir() + "sql_files_" + tag + "_" + name);
  return TempPaths().back();
}

void WriteText(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  ASSERT_TRUE(out.good()) << path;
}

std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::vector<std::string> Rows(const Result& result) { return testing::ResultRows(result); }

using Lines = std::vector<std::string>;

class SqlFiles : public ::testing::Test {
 protected:
  void SetUp() override {
#ifdef __EMSCRIPTEN__
    GTEST_SKIP() << "file tests run natively (the wasm test build has no real file system)";
#endif
  }
  Database db_{[] {
    DatabaseOptions options;
    options.threads = 2;
    return options;
  }()};
  void TearDown() override {
    for (const std::string& path : TempPaths()) std::remove(path.c_str());
    TempPaths().clear();
  }
  Result Query(const std::string& sql) { return db_.Query(sql); }
};

Table Hits(size_t rows, uint64_t seed) {
  HitsOptions options;
  options.rows = rows;
  options.seed = seed;
  Table table;
  std::string error;
  EXPECT_TRUE(GenerateHits(options, &table, &error)) << error;
  return table;
}

TEST_F(SqlFiles, CsvAndTsvByExtension) {
  const std::string csv = TempPath("people.csv");
  const std::string stem = csv.substr(csv.rfind('/') + 1, csv.size() - csv.rfind('/') - 5);
  WriteText(csv, "name,age,joined\nada,36,2020-01-02\n\"b, c\",,2021-03-04\n");
  EXPECT_EQ(Rows(Query("SELECT name, age, joined FROM '" + csv + "' ORDER BY name")),
            (Lines{"ada|36|2020-01-02", "b, c|NULL|2021-03-04"}));
  // The implicit alias is the file's stem.
  EXPECT_EQ(Rows(Query("SELECT \"" + stem + "\".age + 1 FROM '" + csv + "' WHERE age IS NOT NULL")),
            (Lines{"37"}));
  const std::string tsv = TempPath("t.tsv");
  WriteText(tsv, "k\tv\nx\t1.5\ny\t2.5\n");
  EXPECT_EQ(Rows(Query("SELECT sum(v), count(*) FROM '" + tsv + "'")), (Lines{"4.0|2"}));
}

TEST_F(SqlFiles, ReadCsvOptions) {
  const std::string path = TempPath("opts.txt");
  WriteText(path, "1|NA|x\n2|5|y\n");
  EXPECT_EQ(Rows(Query("SELECT column0, column1, column2 FROM read_csv('" + path +
                       "', delim => '|', header => false, nullstr => 'NA') ORDER BY 1")),
            (Lines{"1|NULL|x", "2|5|y"}));
  // ignore_errors skips the ragged row instead of failing.
  const std::string ragged = TempPath("ragged.csv");
  WriteText(ragged, "a,b\n1,2\n3\n4,5\n");
  const Result strict = Query("SELECT count(*) FROM '" + ragged + "'");
  ASSERT_FALSE(strict.ok());
  EXPECT_NE(strict.error().find(ragged + ":3:"), std::string::npos) << strict.error();
  EXPECT_EQ(Rows(Query("SELECT sum(a) FROM read_csv('" + ragged + "', ignore_errors => true)")),
            (Lines{"5"}));
  // schema => a file holding a CREATE TABLE statement: its names and types replace the header's.
  const std::string schema = TempPath("schema.sql");
  WriteText(schema, "CREATE TABLE t (x SMALLINT NOT NULL, y VARCHAR);\n");
  EXPECT_EQ(Rows(Query("SELECT x, length(y) FROM read_csv('" + ragged + "', schema => '" +
                       schema + "', ignore_errors => true) ORDER BY x")),
            (Lines{"1|1", "4|1"}));
}

TEST_F(SqlFiles, CopyToCsvTsvAndLaneqlAndBack) {
  ASSERT_TRUE(db_.Register("hits", Hits(3000, 7), nullptr));
  const std::string query =
      "SELECT UserID, SearchPhrase, EventTime, EventDate, ResolutionWidth, IsRefresh FROM hits "
      "WHERE CounterID < 100000 ORDER BY UserID, EventTime LIMIT 500";
  const Lines expected = Rows(Query(query));
  ASSERT_EQ(expected.size(), 500u);
  for (const std::string ext : {".csv", ".tsv", ".laneql"}) {
    const std::string path = TempPath("copy" + ext);
    std::remove(path.c_str());
    EXPECT_EQ(Rows(Query("COPY (" + query + ") TO '" + path + "'")), (Lines{"500"})) << ext;
    EXPECT_EQ(Rows(Query("SELECT * FROM '" + path + "' ORDER BY UserID, EventTime")), expected)
        << ext;
  }
  // Options: no header, another delimiter, a NULL spelling.
  const std::string path = TempPath("opts_out.csv");
  EXPECT_EQ(Rows(Query("COPY (SELECT 1 AS a, NULL AS b, 'x;y' AS c FROM hits LIMIT 1) TO '" +
                       path + "' (HEADER false, DELIMITER ';', NULL 'NA')")),
            (Lines{"1"}));
  EXPECT_EQ(ReadText(path), "1;NA;\"x;y\"\n");
  EXPECT_EQ(Rows(Query("COPY hits TO '" + TempPath("all.laneql") + "'")), (Lines{"3000"}));
  EXPECT_EQ(Rows(Query("SELECT count(*), count(DISTINCT UserID) FROM '" +
                       TempPath("all.laneql") + "'")),
            Rows(Query("SELECT count(*), count(DISTINCT UserID) FROM hits")));
}

TEST_F(SqlFiles, ErrorsNameTheFileAndThePlaceInTheQuery) {
  const Result missing = Query("SELECT *\nFROM   'no/such/file.csv'");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().find("cannot open 'no/such/file.csv'"), std::string::npos)
      << missing.error();
  EXPECT_EQ(missing.error_line(), 2);
  EXPECT_EQ(missing.error_column(), 8);
  const Result unknown = Query("SELECT * FROM 'x.json'");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().find("no reader for 'x.json'"), std::string::npos) << unknown.error();
  const Result option = Query("SELECT * FROM read_csv('x.csv', delimiter_typo => ',')");
  ASSERT_FALSE(option.ok());
  EXPECT_EQ(option.error(),
            "binder error at line 1, column 33: unknown option delimiter_typo of read_csv(): "
            "expected delim, quote, escape, header, nullstr, sample_size, ignore_errors, "
            "auto_detect or schema");
  const Result delim = Query("SELECT * FROM read_csv('x.csv', delim => ',,')");
  ASSERT_FALSE(delim.ok());
  EXPECT_NE(delim.error().find("takes one character"), std::string::npos) << delim.error();
  const Result function = Query("SELECT * FROM read_json('x.json')");
  ASSERT_FALSE(function.ok());
  EXPECT_NE(function.error().find("unknown table function read_json()"), std::string::npos);
  // COPY's own errors, on a query that works.
  const std::string source = TempPath("source.csv");
  WriteText(source, "a\n1\n");
  const Result copy_format =
      Query("COPY (SELECT a FROM '" + source + "') TO '" + TempPath("y.csv") + "' (FORMAT xml)");
  ASSERT_FALSE(copy_format.ok());
  EXPECT_NE(copy_format.error().find("COPY writes FORMAT csv, tsv or laneql, not 'xml'"),
            std::string::npos)
      << copy_format.error();
  const Result copy_dir = Query("COPY (SELECT a FROM '" + source + "') TO '/no/such/dir/out.csv'");
  ASSERT_FALSE(copy_dir.ok());
  EXPECT_NE(copy_dir.error().find("/no/such/dir/out.csv"), std::string::npos) << copy_dir.error();
  const Result copy_laneql_dir =
      Query("COPY (SELECT a FROM '" + source + "') TO '/no/such/dir/out.laneql'");
  ASSERT_FALSE(copy_laneql_dir.ok());
  EXPECT_NE(copy_laneql_dir.error().find("/no/such/dir/out.laneql"), std::string::npos)
      << copy_laneql_dir.error();
}

TEST_F(SqlFiles, CorruptTableFileFailsTheQueryThatReadsTheColumn) {
  ASSERT_TRUE(db_.Register("hits", Hits(2000, 3), nullptr));
  const std::string path = TempPath("corrupt.laneql");
  ASSERT_EQ(Rows(Query("COPY (SELECT WatchID, URL FROM hits) TO '" + path + "'")),
            (Lines{"2000"}));
  // Flip one byte near the end of the file: inside URL's bytes, the last buffer written.
  std::string bytes = ReadText(path);
  ASSERT_GT(bytes.size(), 4096u);
  const std::string url_sample = Rows(Query("SELECT URL FROM hits LIMIT 1 OFFSET 1999"))[0];
  const size_t at = bytes.rfind(url_sample);
  ASSERT_NE(at, std::string::npos);
  bytes[at] = static_cast<char>(bytes[at] ^ 0x20);
  WriteText(path, bytes);
  // count(*) reads no column; WatchID is intact; URL is caught before any kernel reads it.
  EXPECT_EQ(Rows(Query("SELECT count(*) FROM '" + path + "'")), (Lines{"2000"}));
  EXPECT_EQ(Rows(Query("SELECT count(WatchID) FROM '" + path + "'")), (Lines{"2000"}));
  const Result corrupt = Query("SELECT max(URL) FROM '" + path + "'");
  ASSERT_FALSE(corrupt.ok());
  EXPECT_NE(corrupt.error().find("URL"), std::string::npos) << corrupt.error();
  EXPECT_NE(corrupt.error().find("corrupt"), std::string::npos) << corrupt.error();
}

}  // namespace
}  // namespace laneql
