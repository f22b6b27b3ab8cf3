// The parser's FROM sources (a table, a file path, a table function with named options) and
// the COPY statement: canonical forms, the implicit alias of a file, and errors with positions.
#include <string>

#include "gtest/gtest.h"
#include "src/sql/ast.h"
#include "src/sql/parser.h"

namespace laneql {
namespace sql {
namespace {

std::string Canonical(const std::string& sql) {
  Statement statement;
  ParseError error;
  if (!ParseStatement(sql, &statement, &error)) return "ERROR " + error.ToString();
  return ToString(statement);
}

TEST(SqlParserSources, FilePathsAndTheirImplicitAlias) {
  Statement statement;
  ParseError error;
  ASSERT_TRUE(ParseStatement("SELECT count(*) FROM 'data/hits.csv'", &statement, &error))
      << error.ToString();
  ASSERT_EQ(statement.kind, StatementKind::kSelect);
  const TableRef& from = statement.query->select.from;
  EXPECT_EQ(from.kind, TableRefKind::kFile);
  EXPECT_EQ(from.path, "data/hits.csv");
  EXPECT_EQ(from.name, "hits");  // DuckDB's implicit alias: no folders, no extensions
  EXPECT_EQ(from.pos.column, 22);
  EXPECT_EQ(Canonical("select a from 'x.laneql' as t"), "SELECT a FROM 'x.laneql' AS t");
  EXPECT_EQ(Canonical("SELECT a FROM 'it''s.csv'"), "SELECT a FROM 'it''s.csv'");
  EXPECT_EQ(Canonical("SELECT 1 FROM 'a.tar.gz'"), "SELECT 1 FROM 'a.tar.gz'");
  ASSERT_TRUE(ParseStatement("SELECT 1 FROM '/tmp/.hidden'", &statement, &error));
  EXPECT_EQ(statement.query->select.from.name, ".hidden");  // a leading dot is not an extension
}

TEST(SqlParserSources, TableFunctionsWithNamedOptions) {
  EXPECT_EQ(Canonical("SELECT * FROM read_csv('h.tsv', delim => '\\t', header => true)"),
            "SELECT * FROM read_csv('h.tsv', delim => '\\t', header => TRUE)");
  // DuckDB's `name = value` spelling too, and function names in any case.
  EXPECT_EQ(Canonical("SELECT * FROM READ_CSV('h.csv', sample_size = 100) h2"),
            "SELECT * FROM read_csv('h.csv', sample_size => 100) AS h2");
  EXPECT_EQ(Canonical("SELECT * FROM read_parquet('x.parquet')"),
            "SELECT * FROM read_parquet('x.parquet')");
  Statement statement;
  ParseError error;
  ASSERT_TRUE(ParseStatement("SELECT * FROM read_csv('a/b.csv', nullstr => 'NA')", &statement,
                             &error));
  const TableRef& from = statement.query->select.from;
  EXPECT_EQ(from.kind, TableRefKind::kFunction);
  EXPECT_EQ(from.function, "read_csv");
  EXPECT_EQ(from.name, "b");
  ASSERT_EQ(from.options.size(), 1u);
  EXPECT_EQ(from.options[0].name, "nullstr");
  EXPECT_EQ(from.options[0].pos.column, 35);
}

TEST(SqlParserSources, CopyStatements) {
  EXPECT_EQ(Canonical("COPY (SELECT a FROM t WHERE a > 1) TO 'out.csv'"),
            "COPY (SELECT a FROM t WHERE (a > 1)) TO 'out.csv'");
  EXPECT_EQ(Canonical("copy t to 'out.tsv' with (header false, delimiter '|', format csv);"),
            "COPY (SELECT * FROM t) TO 'out.tsv' (header FALSE, delimiter '|', format 'csv')");
  EXPECT_EQ(Canonical("COPY (SELECT 1 FROM t) TO 'o.csv' (HEADER, NULL 'NA')"),
            "COPY (SELECT 1 FROM t) TO 'o.csv' (HEADER, \"NULL\" 'NA')");
  // The printed form parses to itself.
  const std::string printed = Canonical("COPY t TO 'x.laneql' (FORMAT laneql)");
  EXPECT_EQ(Canonical(printed), printed);
  // A name or a call in parentheses stays one when printed: bare, it would read back as text
  // (found by the SQL fuzzer).
  const std::string names =
      Canonical("COPY t TO 'x.csv' (DELIMITER (d), SEP (f(1)), QUOTE (\"q\"))");
  EXPECT_EQ(names, "COPY (SELECT * FROM t) TO 'x.csv' (DELIMITER (d), SEP (f(1)), QUOTE (q))");
  EXPECT_EQ(Canonical(names), names);
}

TEST(SqlParserSources, ErrorsSayWhatAndWhere) {
  EXPECT_EQ(Canonical("SELECT * FROM ''"),
            "ERROR syntax error at line 1, column 15: empty file name in FROM");
  EXPECT_EQ(Canonical("SELECT * FROM read_csv(hits)"),
            "ERROR syntax error at line 1, column 24: unexpected 'hits', expected a file name in "
            "quotes as the first argument of read_csv()");
  EXPECT_EQ(Canonical("SELECT * FROM read_csv('x.csv', header)"),
            "ERROR syntax error at line 1, column 39: unexpected ')', expected '=>' after option "
            "header");
  EXPECT_EQ(Canonical("SELECT * FROM read_csv('x.csv', delim => ',' "),
            "ERROR syntax error at line 1, column 46: unexpected end of input, expected ')' to "
            "close '(' at line 1, column 23");
  EXPECT_EQ(Canonical("COPY (SELECT 1 FROM t) 'x.csv'"),
            "ERROR syntax error at line 1, column 24: unexpected string literal 'x.csv', "
            "expected 'TO' after the query of COPY");
  EXPECT_EQ(Canonical("COPY t FROM 'x.csv'"),
            "ERROR syntax error at line 1, column 8: COPY ... FROM is not supported: read files "
            "with SELECT ... FROM 'file'");
  EXPECT_EQ(Canonical("COPY (DELETE) TO 'x'"),
            "ERROR syntax error at line 1, column 7: unexpected 'DELETE', expected a query after "
            "'COPY ('");
  // ParseSelect is for SELECT alone.
  SelectStatement select;
  ParseError error;
  EXPECT_FALSE(ParseSelect("COPY t TO 'x.csv'", &select, &error));
  EXPECT_NE(error.ToString().find("expected a single SELECT statement"), std::string::npos)
      << error.ToString();
}

}  // namespace
}  // namespace sql
}  // namespace laneql
