// The SQL lexer and parser: every ClickBench query, the canonical form of each construct,
// exact error messages with positions, and robustness against arbitrary input.
#include <chrono>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "src/sql/ast.h"
#include "src/sql/lexer.h"
#include "src/sql/parser.h"

namespace laneql {
namespace sql {
namespace {

// The canonical form of a statement, or the error as text.
std::string Canonical(const std::string& sql) {
  SelectStatement statement;
  ParseError error;
  if (!ParseSelect(sql, &statement, &error)) return "ERROR " + error.ToString();
  return ToString(statement);
}

std::string CanonicalExpr(const std::string& sql) {
  ExprPtr expr;
  ParseError error;
  if (!ParseExpression(sql, &expr, &error)) return "ERROR " + error.ToString();
  return ToString(*expr);
}

// Printing a parsed statement and parsing the print gives the same print.
void ExpectStableRoundTrip(const SelectStatement& statement) {
  const std::string printed = ToString(statement);
  EXPECT_EQ(Canonical(printed), printed);
}

std::vector<std::string> ReadLines(const std::string& path) {
  std::vector<std::string> lines;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

std::vector<std::string> ClickBenchQueries() {
  std::vector<std::string> all;
  for (const char* name : {"queries.sql", "queries-duckdb.sql"}) {
    for (std::string& line : ReadLines(std::string(LANEQL_CLICKBENCH_DIR) + "/" + name)) {
      all.push_back(std::move(line));
    }
  }
  return all;
}

TEST(SqlParserClickBench, EveryQueryParses) {
  const std::vector<std::string> queries = ClickBenchQueries();
  if (queries.empty()) GTEST_SKIP() << "no ClickBench queries under " LANEQL_CLICKBENCH_DIR;
  EXPECT_EQ(queries.size(), 86u);
  for (const std::string& sql : queries) {
    SelectStatement statement;
    ParseError error;
    ASSERT_TRUE(ParseSelect(sql, &statement, &error)) << sql << "\n"
                                                      << error.ToStringWithExcerpt();
    EXPECT_TRUE(statement.has_from);
    EXPECT_EQ(statement.from.name, "hits");
    ExpectStableRoundTrip(statement);
  }
}

TEST(SqlParserClickBench, ShapesOfSelectedQueries) {
  const std::vector<std::string> queries = ClickBenchQueries();
  if (queries.size() < 43) GTEST_SKIP() << "no ClickBench queries under " LANEQL_CLICKBENCH_DIR;
  // Q19: EXTRACT; Q29: REGEXP_REPLACE with a backslash kept as is; Q40: CASE; Q41: IN (-1, 6).
  SelectStatement q19, q29, q40, q41;
  ASSERT_TRUE(ParseSelect(queries[18], &q19, nullptr));
  EXPECT_EQ(ToString(*q19.select_list[1].expr), "extract(minute FROM EventTime)");
  EXPECT_EQ(q19.select_list[1].alias, "m");
  ASSERT_TRUE(ParseSelect(queries[28], &q29, nullptr));
  EXPECT_EQ(ToString(*q29.select_list[0].expr),
            "regexp_replace(Referer, '^https?://(?:www\\.)?([^/]+)/.*$', '\\1')");
  ASSERT_TRUE(ParseSelect(queries[39], &q40, nullptr));
  EXPECT_EQ(ToString(*q40.select_list[3].expr),
            "CASE WHEN ((SearchEngineID = 0) AND (AdvEngineID = 0)) THEN Referer ELSE '' END");
  EXPECT_EQ(q40.limit, 10);
  EXPECT_EQ(q40.offset, 1000);
  ASSERT_TRUE(ParseSelect(queries[40], &q41, nullptr));
  EXPECT_NE(ToString(*q41.where).find("(TraficSourceID IN (-1, 6))"), std::string::npos);
  EXPECT_NE(ToString(*q41.where).find("(RefererHash = 3594120000172545465)"), std::string::npos);
}

struct Case {
  const char* sql;
  const char* canonical;
};

TEST(SqlParserCanonical, Expressions) {
  const Case cases[] = {
      {"1 + 2 * 3", "(1 + (2 * 3))"},
      {"(1 + 2) * 3", "((1 + 2) * 3)"},
      {"a - b - c", "((a - b) - c)"},
      {"a / b % c * d", "(((a / b) % c) * d)"},
      {"a * (b + c) / d", "((a * (b + c)) / d)"},
      {"-a * b", "((-a) * b)"},
      {"- 5", "-5"},
      {"-5 - -3.5", "(-5 - -3.5)"},
      {"- -5", "(- -5)"},
      {"+a", "a"},
      {"a OR b AND c", "(a OR (b AND c))"},
      {"a AND b OR c AND d", "((a AND b) OR (c AND d))"},
      {"NOT a = b", "(NOT (a = b))"},
      {"NOT a AND b", "((NOT a) AND b)"},
      {"NOT NOT a", "(NOT (NOT a))"},
      {"TRUE AND NOT FALSE OR NULL", "((TRUE AND (NOT FALSE)) OR NULL)"},
      {"a = b IS NULL", "((a = b) IS NULL)"},
      {"x IS NOT NULL OR y IS NULL", "((x IS NOT NULL) OR (y IS NULL))"},
      {"a IS NULL IS NOT NULL", "((a IS NULL) IS NOT NULL)"},
      {"a <> b AND a != c AND a<=b AND a>=b AND a<b AND a>b",
       "((((((a <> b) AND (a <> c)) AND (a <= b)) AND (a >= b)) AND (a < b)) AND (a > b))"},
      {"a + 1 BETWEEN 2 AND 3 AND b", "(((a + 1) BETWEEN 2 AND 3) AND b)"},
      {"a NOT BETWEEN 1 AND 2", "(a NOT BETWEEN 1 AND 2)"},
      {"a = b BETWEEN 1 AND 2", "(a = (b BETWEEN 1 AND 2))"},
      {"x IN (-1, 6)", "(x IN (-1, 6))"},
      {"x NOT IN ('a', 'b''c')", "(x NOT IN ('a', 'b''c'))"},
      {"URL NOT LIKE '%.google.%'", "(URL NOT LIKE '%.google.%')"},
      {"t ILIKE 'a!%%' ESCAPE '!'", "(t ILIKE 'a!%%' ESCAPE '!')"},
      {"a || b || 'c'", "((a || b) || 'c')"},
      {"a || 1 + 2", "(a || (1 + 2))"},
      {"a || b LIKE c", "((a || b) LIKE c)"},
      {"CASE WHEN (a = 0 AND b = 0) THEN r ELSE '' END",
       "CASE WHEN ((a = 0) AND (b = 0)) THEN r ELSE '' END"},
      {"CASE x WHEN 1 THEN 'one' WHEN 2 THEN 'two' END",
       "CASE x WHEN 1 THEN 'one' WHEN 2 THEN 'two' END"},
      {"CAST(a + 1 AS varchar(255))", "CAST((a + 1) AS VARCHAR(255))"},
      {"x::bigint + 1", "(CAST(x AS BIGINT) + 1)"},
      {"x::int::double", "CAST(CAST(x AS INT) AS DOUBLE)"},
      {"-x::int", "(-CAST(x AS INT))"},
      {"x::VARCHAR || 'a'", "(CAST(x AS VARCHAR) || 'a')"},
      {"DATE '2013-07-01'", "CAST('2013-07-01' AS DATE)"},
      {"timestamp '2013-07-01 12:00:00'", "CAST('2013-07-01 12:00:00' AS TIMESTAMP)"},
      {"date + 1", "(date + 1)"},
      {"COUNT(*)", "count(*)"},
      {"COUNT(DISTINCT UserID)", "count(DISTINCT UserID)"},
      {"now()", "now()"},
      {"extract(MINUTE FROM EventTime)", "extract(minute FROM EventTime)"},
      {"EXTRACT('year' FROM d)", "extract(year FROM d)"},
      {"extract(a, b)", "extract(a, b)"},
      {"DATE_TRUNC('minute', EventTime)", "date_trunc('minute', EventTime)"},
      {"\"My Func\"(x)", "\"my func\"(x)"},
      {"hits.URL", "hits.URL"},
      {"\"my table\".\"Select\"", "\"my table\".\"Select\""},
      {"\"a\"\"b\" + \"CASE\"", "(\"a\"\"b\" + \"CASE\")"},
      {"1.5 + .5 + 1e10 + 1.5E-3 + 1.", "((((1.5 + .5) + 1e10) + 1.5E-3) + 1.)"},
      {"12345678901234567890123", "12345678901234567890123"},
      {"a /* x /* nested */ y */ + -- to the end\n b", "(a + b)"},
      {"'it''s' || 'é'", "('it''s' || 'é')"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(CanonicalExpr(c.sql), c.canonical) << c.sql;
    // The canonical form reads back as itself.
    EXPECT_EQ(CanonicalExpr(c.canonical), c.canonical) << c.sql;
  }
}

TEST(SqlParserCanonical, Statements) {
  const Case cases[] = {
      {"select distinct a as x, b y, * from hits h where a > 1 group by a, 2 "
       "having count(*) > 10 order by x desc nulls last, b asc, c nulls first limit 10 offset 5;",
       "SELECT DISTINCT a AS x, b AS y, * FROM hits AS h WHERE (a > 1) GROUP BY a, 2 HAVING "
       "(count(*) > 10) ORDER BY x DESC NULLS LAST, b, c NULLS FIRST LIMIT 10 OFFSET 5"},
      {"SELECT 1 + 1", "SELECT (1 + 1)"},
      {"SELECT ALL a FROM t AS u", "SELECT a FROM t AS u"},
      {"SELECT a FROM t OFFSET 5 LIMIT 10", "SELECT a FROM t LIMIT 10 OFFSET 5"},
      {"SELECT \"Count\" AS \"from\" FROM \"hits\"", "SELECT Count AS \"from\" FROM hits"},
      {"SELECT t.a FROM t WHERE t.b IN (1) ORDER BY 1",
       "SELECT t.a FROM t WHERE (t.b IN (1)) ORDER BY 1"},
      {"SELECT a FROM t WHERE d >= DATE '2013-07-01' AND d <= '2013-07-31'",
       "SELECT a FROM t WHERE ((d >= CAST('2013-07-01' AS DATE)) AND (d <= '2013-07-31'))"},
      {"\n  SELECT\n  a\n  FROM t ; ", "SELECT a FROM t"},
      {"SELECT a first FROM t ORDER BY first", "SELECT a AS first FROM t ORDER BY first"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(Canonical(c.sql), c.canonical) << c.sql;
    EXPECT_EQ(Canonical(c.canonical), c.canonical) << c.sql;
  }
}

TEST(SqlParserCanonical, Windows) {
  const Case cases[] = {
      {"select row_number() over (partition by g order by x desc nulls first rows between 1 preceding "
       "and unbounded following) rn from t window w as (order by y), v as (w rows 2 preceding) qualify rn <= 2",
       "SELECT row_number() OVER (PARTITION BY g ORDER BY x DESC NULLS FIRST ROWS BETWEEN 1 PRECEDING AND "
       "UNBOUNDED FOLLOWING) AS rn FROM t WINDOW w AS (ORDER BY y), v AS (w ROWS BETWEEN 2 PRECEDING AND "
       "CURRENT ROW) QUALIFY (rn <= 2)"},
      {"SELECT count(*) OVER w, sum(x) over (w range between current row and 3 following) FROM t "
       "WINDOW w AS (ORDER BY x)",
       "SELECT count() OVER w, sum(x) OVER (w RANGE BETWEEN CURRENT ROW AND 3 FOLLOWING) FROM t "
       "WINDOW w AS (ORDER BY x)"},
      {"SELECT lag(x, 2, 0) OVER () + 1 FROM t", "SELECT (lag(x, 2, 0) OVER () + 1) FROM t"},
      {"SELECT sum(x) OVER (ROWS 1 FOLLOWING) FROM t",
       "ERROR syntax error at line 1, column 21: Frame starting from following row cannot end with current row"},
      {"SELECT sum(x) OVER (ORDER BY x ROWS BETWEEN 1 AND 2) FROM t",
       "ERROR syntax error at line 1, column 47: unexpected 'AND', expected 'PRECEDING' or 'FOLLOWING' after the "
       "frame offset"},
      {"SELECT sum(x) OVER FROM t",
       "ERROR syntax error at line 1, column 20: unexpected 'FROM', expected '(' or a window name after OVER"},
      {"select first_value(x ignore nulls) over (order by y groups between 1 preceding and current row exclude ties), "
       "lag(x, 1 respect nulls) over w, count(distinct x) over (w rows unbounded preceding exclude no others), "
       "min(x) over (w range current row exclude group), max(x) over (w rows 2 preceding exclude current row) "
       "from t window w as (partition by g)",
       "SELECT first_value(x IGNORE NULLS) OVER (ORDER BY y GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW EXCLUDE TIES), "
       "lag(x, 1) OVER w, count(DISTINCT x) OVER (w ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW), "
       "min(x) OVER (w RANGE BETWEEN CURRENT ROW AND CURRENT ROW EXCLUDE GROUP), "
       "max(x) OVER (w ROWS BETWEEN 2 PRECEDING AND CURRENT ROW EXCLUDE CURRENT ROW) FROM t WINDOW w AS (PARTITION BY g)"},
      {"SELECT abs(x IGNORE NULLS) FROM t",
       "ERROR syntax error at line 1, column 14: RESPECT/IGNORE NULLS is not supported for non-window functions"},
      {"SELECT sum(x) OVER (ORDER BY x ROWS 1 PRECEDING EXCLUDE GROUPS) FROM t",
       "ERROR syntax error at line 1, column 57: unexpected 'GROUPS', expected 'CURRENT ROW', 'GROUP', 'TIES' or "
       "'NO OTHERS' after 'EXCLUDE'"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(Canonical(c.sql), c.canonical) << c.sql;
    if (std::string(c.canonical).rfind("ERROR", 0) != 0) EXPECT_EQ(Canonical(c.canonical), c.canonical) << c.sql;
  }
}

TEST(SqlParserCanonical, PositionsOfNodes) {
  SelectStatement s;
  ParseError error;
  // Columns count UTF-8 code points: 'é' is two bytes but one column.
  ASSERT_TRUE(ParseSelect("SELECT a,\n  b + c AS sum\nFROM t WHERE\n\tx = 'é' AND y\nLIMIT 3",
                          &s, &error))
      << error.ToString();
  EXPECT_EQ(s.pos.line, 1);
  EXPECT_EQ(s.pos.column, 1);
  EXPECT_EQ(s.select_list[1].expr->pos.line, 2);
  EXPECT_EQ(s.select_list[1].expr->pos.column, 3);
  EXPECT_EQ(s.select_list[1].expr->right->pos.column, 7);
  EXPECT_EQ(s.select_list[1].alias_pos.column, 12);
  EXPECT_EQ(s.from.pos.line, 3);
  EXPECT_EQ(s.from.pos.column, 6);
  EXPECT_EQ(s.where->pos.line, 4);
  EXPECT_EQ(s.where->pos.column, 2);
  EXPECT_EQ(s.where->left->right->pos.column, 6);
  EXPECT_EQ(s.where->right->pos.line, 4);
  EXPECT_EQ(s.where->right->pos.column, 14);
  EXPECT_EQ(s.limit_pos.line, 5);
  EXPECT_EQ(s.limit_pos.column, 7);
  // A folded negative literal starts at its minus sign.
  ExprPtr expr;
  ASSERT_TRUE(ParseExpression("x IN (1,  - 2)", &expr, &error));
  EXPECT_EQ(expr->args[1]->text, "-2");
  EXPECT_EQ(expr->args[1]->pos.column, 11);
}

TEST(SqlParserLexer, TokensAndPositions) {
  std::vector<Token> tokens;
  ParseError error;
  // "1.e" is a malformed number, not 1. followed by the alias e.
  EXPECT_FALSE(Tokenize("select 1.e", &tokens, &error));
  EXPECT_EQ(error.message, "invalid number '1.e'");
  ASSERT_TRUE(Tokenize("select \"A\"\"b\" ::\r\n'x''y' <> != || -- c\n.5e3 1e+2 x.y", &tokens,
                       &error));
  const TokenKind kinds[] = {TokenKind::kKeyword,    TokenKind::kQuotedIdentifier,
                             TokenKind::kDoubleColon, TokenKind::kString,
                             TokenKind::kNotEquals,  TokenKind::kNotEquals,
                             TokenKind::kConcat,     TokenKind::kDecimal,
                             TokenKind::kDecimal,    TokenKind::kIdentifier,
                             TokenKind::kDot,        TokenKind::kIdentifier,
                             TokenKind::kEnd};
  ASSERT_EQ(tokens.size(), std::size(kinds));
  for (size_t i = 0; i < tokens.size(); ++i) EXPECT_EQ(tokens[i].kind, kinds[i]) << i;
  EXPECT_EQ(tokens[0].value, "SELECT");
  EXPECT_EQ(tokens[1].value, "A\"b");
  EXPECT_EQ(tokens[3].value, "x'y");
  EXPECT_EQ(tokens[3].pos.line, 2);
  EXPECT_EQ(tokens[3].pos.column, 1);
  EXPECT_EQ(tokens[7].value, ".5e3");
  EXPECT_EQ(tokens[7].pos.line, 3);
  EXPECT_EQ(tokens[8].value, "1e+2");
  EXPECT_EQ(tokens[8].pos.column, 6);
  EXPECT_EQ(tokens.back().pos.line, 3);
  EXPECT_EQ(tokens.back().pos.column, 14);
}

struct ErrorCase {
  const char* sql;
  const char* message;
  int line;
  int column;
};

TEST(SqlParserErrors, MessagesAndPositions) {
  const ErrorCase cases[] = {
      {"SELECT FROM hits", "unexpected 'FROM', expected an expression", 1, 8},
      {"SELECT a, FROM hits", "unexpected 'FROM', expected an expression", 1, 11},
      {"SELECT COUNT(* FROM hits",
       "unexpected 'FROM', expected ')' to close '(' at line 1, column 13", 1, 16},
      {"SELECT 'abc", "unterminated string literal", 1, 8},
      {"SELECT a FROM t /* x", "unterminated block comment", 1, 17},
      {"SELECT \"abc FROM t", "unterminated quoted identifier", 1, 8},
      {"SELECT a # b", "unexpected character '#'", 1, 10},
      {"SELECT a FROM t WHERE a = = 1", "unexpected '=', expected an expression", 1, 27},
      {"SELECT a = b = c", "unexpected '=': comparisons cannot be chained, add parentheses", 1,
       14},
      {"SELECT a FROM",
       "unexpected end of input, expected a table name, a file name in quotes, a table function "
       "or '('",
       1, 14},
      {"SELECT a FROM t GROUP a", "unexpected 'a', expected 'BY' after 'GROUP'", 1, 23},
      {"SELECT a FROM t ORDER x", "unexpected 'x', expected 'BY' after 'ORDER'", 1, 23},
      {"SELECT a FROM t LIMIT x",
       "unexpected 'x', expected a non-negative integer after 'LIMIT'", 1, 23},
      {"SELECT a FROM t LIMIT -1",
       "unexpected '-', expected a non-negative integer after 'LIMIT'", 1, 23},
      {"SELECT a FROM t LIMIT 99999999999999999999",
       "LIMIT value '99999999999999999999' is out of range", 1, 23},
      {"SELECT a FROM t OFFSET 1.5",
       "unexpected '1.5', expected a non-negative integer after 'OFFSET'", 1, 24},
      {"SELECT CASE WHEN a THEN b",
       "unexpected end of input, expected 'WHEN', 'ELSE' or 'END'", 1, 26},
      {"SELECT CASE WHEN a THEN b ELSE c FROM t",
       "unexpected 'FROM', expected 'END' to close 'CASE' at line 1, column 8", 1, 34},
      {"SELECT CASE a END", "unexpected 'END', expected 'WHEN'", 1, 15},
      {"SELECT CASE WHEN a b END", "unexpected 'b', expected 'THEN'", 1, 20},
      {"SELECT CAST(a AS foo)", "unknown type 'FOO'", 1, 18},
      {"SELECT CAST(a varchar)", "unexpected 'varchar', expected 'AS' in CAST", 1, 15},
      {"SELECT CAST(a AS VARCHAR(x))", "unexpected 'x', expected an integer type parameter", 1,
       26},
      {"SELECT a::", "unexpected end of input, expected a type name", 1, 11},
      {"SELECT a BETWEEN 1 OR 2", "unexpected 'OR', expected 'AND' in BETWEEN", 1, 20},
      {"SELECT a IN 1, 2", "unexpected '1', expected '(' after 'IN'", 1, 13},
      {"SELECT a IN (1, 2",
       "unexpected end of input, expected ')' to close '(' at line 1, column 13", 1, 18},
      {"SELECT a IS 5", "unexpected '5', expected 'NULL' after 'IS'", 1, 13},
      {"SELECT a FROM t; SELECT b FROM t",
       "unexpected 'SELECT' after ';': only one statement is supported", 1, 18},
      {"SELECT a FROM t JOIN u", "unexpected end of input, expected 'ON' or 'USING' after the "
       "joined table", 1, 23},
      {"SELECT a FROM t NATURAL u", "unexpected 'u', expected 'JOIN' after 'NATURAL'", 1, 25},
      {"SELECT a FROM (SELECT 1", "unexpected end of input, expected ')' to close '(' at line 1, "
       "column 15", 1, 24},
      {"SELECT a FROM t WHERE a IN (SELECT b FROM u", "unexpected end of input, expected ')' to "
       "close '(' at line 1, column 28", 1, 44},
      {"SELECT a FROM t UNION", "unexpected end of input, expected 'SELECT'", 1, 22},
      {"VALUES (1, 2), (3)", "VALUES rows must all have the same number of values (2 in the "
       "first, 1 here)", 1, 16},
      {"SELECT a WHERE a = SELECT 1", "unexpected 'SELECT': put a subquery in parentheses", 1, 20},
      {"SELECT a AS FROM t", "unexpected 'FROM', expected an alias after 'AS'", 1, 13},
      {"SELECT a FROM t ORDER BY a NULLS",
       "unexpected end of input, expected 'FIRST' or 'LAST' after 'NULLS'", 1, 33},
      {"SELECT a b c FROM t", "unexpected 'c', expected end of statement", 1, 12},
      {"SELECT a FROM t LIMIT 1 LIMIT 2", "unexpected 'LIMIT', expected end of statement", 1,
       25},
      {"UPDATE t SET a = 1", "unexpected 'UPDATE', expected a statement (SELECT, WITH, VALUES, CREATE, INSERT, DROP, COPY, "
       "DESCRIBE, SHOW TABLES or EXPLAIN)", 1, 1},
      {"", "unexpected end of input, expected a statement (SELECT, WITH, VALUES, CREATE, INSERT, DROP, COPY, "
       "DESCRIBE, SHOW TABLES or EXPLAIN)", 1, 1},
      {"  -- only a comment\n", "unexpected end of input, expected a statement (SELECT, WITH, VALUES, CREATE, INSERT, DROP, COPY, "
       "DESCRIBE, SHOW TABLES or EXPLAIN)", 2, 1},
      {"SELECT a,\n       b +\nFROM t", "unexpected 'FROM', expected an expression", 3, 1},
      {"SELECT 'é', x ! 1", "unexpected character '!'", 1, 15},
      {"SELECT a\r\nFROM t\r\nWHERE @", "unexpected character '@'", 3, 7},
      {"SELECT a \x01", "unexpected character 0x01", 1, 10},
      {"SELECT 123abc", "invalid number '123abc'", 1, 8},
      {"SELECT \"\" FROM t", "zero-length quoted identifier", 1, 8},
      {"SELECT a FROM t WHERE", "unexpected end of input, expected an expression", 1, 22},
      {"SELECT a.b.* FROM t", "unexpected '.', expected end of statement", 1, 11},
      {"SELECT COUNT(DISTINCT) FROM t", "unexpected ')', expected an expression", 1, 22},
      {"SELECT x ILIKE", "unexpected end of input, expected an expression", 1, 15},
      {"SELECT 'a very long string literal that goes on and on' FROM t WHERE",
       "unexpected end of input, expected an expression", 1, 69},
      {"SELECT a FROM t 'a very long string literal that goes on and on'",
       "unexpected string literal 'a very long string literal that goes on..., expected end of "
       "statement",
       1, 17},
  };
  for (const ErrorCase& c : cases) {
    SelectStatement statement;
    ParseError error;
    EXPECT_FALSE(ParseSelect(c.sql, &statement, &error)) << c.sql;
    EXPECT_EQ(error.message, c.message) << c.sql;
    EXPECT_EQ(error.line, c.line) << c.sql;
    EXPECT_EQ(error.column, c.column) << c.sql;
  }
}

TEST(SqlParserErrors, TextAndCaretExcerpt) {
  SelectStatement statement;
  ParseError error;
  ASSERT_FALSE(ParseSelect("SELECT a\nFROM t\nWHERE COUNT(* > 1", &statement, &error));
  EXPECT_EQ(error.ToString(),
            "syntax error at line 3, column 15: unexpected '>', expected ')' to close '(' at "
            "line 3, column 12");
  EXPECT_EQ(error.ToStringWithExcerpt(), error.ToString() + "\nWHERE COUNT(* > 1\n              ^");
  // Columns count code points, so the caret sits under the '!' after a two-byte 'é'.
  ASSERT_FALSE(ParseSelect("SELECT 'é' !", &statement, &error));
  EXPECT_EQ(error.excerpt, "SELECT 'é' !\n           ^");
  // A long line is cut around the column.
  std::string long_sql = "SELECT " + std::string(200, 'a') + " ! " + std::string(200, 'b');
  ASSERT_FALSE(ParseSelect(long_sql, &statement, &error));
  EXPECT_EQ(error.column, 209);
  EXPECT_EQ(error.excerpt, "..." + std::string(59, 'a') + " ! " + std::string(58, 'b') +
                               "...\n" + std::string(63, ' ') + "^");
}

TEST(SqlParserErrors, NestingLimits) {
  ExprPtr expr;
  ParseError error;
  const auto nested = [](int n) {
    return std::string(n, '(') + "1" + std::string(n, ')');
  };
  // The outermost expression is level 1, so 255 parentheses are the most accepted.
  EXPECT_TRUE(ParseExpression(nested(kMaxNestingDepth - 1), &expr, &error)) << error.ToString();
  EXPECT_FALSE(ParseExpression(nested(kMaxNestingDepth), &expr, &error));
  EXPECT_EQ(error.message, "expression nested too deeply: more than 256 levels");
  EXPECT_EQ(error.column, kMaxNestingDepth + 1);
  EXPECT_FALSE(ParseExpression(nested(100000), &expr, &error));
  EXPECT_EQ(error.message, "expression nested too deeply: more than 256 levels");
  // Function calls and CASE nest through the same counter (the deepest parser stacks).
  std::string calls, cases;
  for (int i = 0; i < kMaxNestingDepth - 1; ++i) {
    calls += "f(1, ";
    cases += "CASE WHEN ";
  }
  calls += "x" + std::string(kMaxNestingDepth - 1, ')');
  for (int i = 0; i < kMaxNestingDepth - 1; ++i) cases += " THEN 1 END";
  cases.insert(cases.size() - (kMaxNestingDepth - 1) * 11, "x");
  EXPECT_TRUE(ParseExpression(calls, &expr, &error)) << error.ToString();
  EXPECT_EQ(expr->height, kMaxNestingDepth);
  EXPECT_EQ(ToString(*expr).size(), calls.size());
  EXPECT_TRUE(ParseExpression(cases, &expr, &error)) << error.ToString();
  EXPECT_FALSE(ParseExpression("f(" + calls + ")", &expr, &error));
  std::string minus;
  for (int i = 0; i < 100000; ++i) minus += "- ";
  EXPECT_FALSE(ParseExpression(minus + "a", &expr, &error));
  EXPECT_EQ(error.message, "expression nested too deeply: more than 256 levels");
  std::string nots;
  for (int i = 0; i < 100000; ++i) nots += "NOT ";
  EXPECT_FALSE(ParseExpression(nots + "a", &expr, &error));
  EXPECT_EQ(error.message, "expression nested too deeply: more than 256 levels");
  // Long operator chains are loops in the parser, but the tree height is bounded too.
  std::string chain = "a";
  for (int i = 0; i < 900; ++i) chain += " OR a";
  EXPECT_TRUE(ParseExpression(chain, &expr, &error)) << error.ToString();
  EXPECT_EQ(expr->height, 901);
  EXPECT_EQ(ToString(*expr).size(), chain.size() + 2 * 900);  // the parentheses
  for (int i = 0; i < 200000; ++i) chain += " + a";
  EXPECT_FALSE(ParseExpression(chain, &expr, &error));
  EXPECT_EQ(error.message, "expression too deep: more than 1000 levels of operators");
  // Wide is fine: an IN list of 100,000 values is two levels high.
  std::string in_list = "x IN (0";
  for (int i = 1; i < 100000; ++i) in_list += ", " + std::to_string(i);
  EXPECT_TRUE(ParseExpression(in_list + ")", &expr, &error)) << error.ToString();
  EXPECT_EQ(expr->args.size(), 100000u);
}

TEST(SqlParserErrors, LengthLimit) {
  SelectStatement statement;
  ParseError error;
  // The limit itself is accepted: a comment pads a query to exactly kMaxSqlBytes.
  const std::string query = "SELECT a FROM t -- ";
  std::string padded = query + std::string(kMaxSqlBytes - query.size(), 'x');
  ASSERT_EQ(padded.size(), kMaxSqlBytes);
  EXPECT_TRUE(ParseSelect(padded, &statement, &error)) << error.ToString();
  // One byte more is not; the error points at the first byte past the limit (the comment runs
  // on one line, after the 19 bytes of the query).
  padded += 'x';
  ASSERT_FALSE(ParseSelect(padded, &statement, &error));
  EXPECT_EQ(error.message,
            "SQL text too long: 1048577 bytes, more than the limit of 1048576 bytes (1 MiB)");
  EXPECT_EQ(error.line, 1);
  EXPECT_EQ(error.column, static_cast<int>(kMaxSqlBytes) + 1);
  // Over many lines, with Cyrillic (two bytes, one column each) before the limit.
  std::string lines = "SELECT ";
  while (lines.size() < 2 * kMaxSqlBytes) lines += "'Яндекс',\n";
  ExprPtr expr;
  ASSERT_FALSE(ParseExpression(lines, &expr, &error));
  const size_t line_bytes = std::string("'Яндекс',\n").size();  // 15
  const size_t into = kMaxSqlBytes - 7;  // bytes past "SELECT " on line 1
  EXPECT_EQ(error.line, static_cast<int>(into / line_bytes) + 1);
  // The byte at the limit lies `into % line_bytes` bytes into its line: 'Янд = 1 + 3 columns for
  // 7 bytes, and so on.
  const std::string tail = std::string("'Яндекс',\n").substr(0, into % line_bytes);
  size_t columns = 0;
  for (unsigned char c : tail) columns += (c & 0xC0) != 0x80;
  EXPECT_EQ(error.column, static_cast<int>(columns) + 1);
  EXPECT_NE(error.message.find("more than the limit of 1048576 bytes"), std::string::npos);
}

// Any input gives a tree or an error, never a crash or a hang; what parses prints stably.
TEST(SqlParserRobustness, RandomBytesAndTruncations) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::string> seeds = ClickBenchQueries();
  seeds.push_back("SELECT CASE x WHEN 1 THEN CAST(a AS VARCHAR(3)) ELSE b::int END, 'q''s', "
                  "\"i\"\"d\" FROM t /* c */ WHERE a NOT BETWEEN -1 AND 2 OR b NOT ILIKE 'x' "
                  "ESCAPE '!' OR c IS NOT NULL -- end\n ORDER BY 1 NULLS FIRST OFFSET 2;");
  int parsed = 0, failed = 0;
  const auto check = [&](const std::string& sql) {
    SelectStatement statement;
    ParseError error;
    if (ParseSelect(sql, &statement, &error)) {
      ++parsed;
      const std::string printed = ToString(statement);
      ASSERT_EQ(Canonical(printed), printed) << sql;
    } else {
      ++failed;
      ASSERT_FALSE(error.message.empty()) << sql;
      ASSERT_GE(error.line, 1) << sql;
      ASSERT_GE(error.column, 1) << sql;
    }
  };
  // Every prefix of every seed (every 7th for the 3,000-byte query).
  for (const std::string& seed : seeds) {
    const size_t step = seed.size() > 1000 ? 7 : 1;
    for (size_t n = 0; n <= seed.size(); n += step) check(seed.substr(0, n));
  }
  // Mutations: bytes replaced, deleted or inserted, from SQL's alphabet or anything.
  std::mt19937 rng(20261121);
  const std::string alphabet = "()'\",.;:*-+/%<>=!|eE0123456789 \n\tabSELECTFROMWHEREANDNOT";
  for (int i = 0; i < 10000; ++i) {
    std::string sql = seeds[rng() % seeds.size()];
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits && !sql.empty(); ++e) {
      const size_t at = rng() % sql.size();
      const char byte = (rng() % 4 == 0) ? static_cast<char>(rng() % 256)
                                         : alphabet[rng() % alphabet.size()];
      switch (rng() % 3) {
        case 0: sql[at] = byte; break;
        case 1: sql.erase(at, 1); break;
        default: sql.insert(sql.begin() + static_cast<std::ptrdiff_t>(at), byte); break;
      }
    }
    check(sql);
  }
  // Pure noise.
  for (int i = 0; i < 3000; ++i) {
    std::string sql(rng() % 64, ' ');
    for (char& c : sql) c = static_cast<char>(rng() % 256);
    check(sql);
  }
  EXPECT_GT(parsed, 100);
  EXPECT_GT(failed, 1000);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 20.0);  // generous for sanitizer builds; about 0.5 s in Release
}

}  // namespace
}  // namespace sql
}  // namespace laneql
