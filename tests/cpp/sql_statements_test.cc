// Statements that change the catalog (CREATE TABLE [AS], INSERT, CREATE VIEW, DROP), the ones
// that read it (DESCRIBE, SHOW TABLES), several statements in one Query, and what a reader
// holding a table sees while an INSERT replaces it.
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "laneql/database.h"
#include "result_rows.h"

namespace laneql {
namespace {

using testing::ResultRows;
using Rows = std::vector<std::string>;

TEST(SqlStatements, CreateInsertSelectDrop) {
  Database db;
  EXPECT_EQ(ResultRows(db.Query("CREATE TABLE t (a INTEGER, b VARCHAR, c DOUBLE)")), Rows{});
  EXPECT_EQ(ResultRows(db.Query("INSERT INTO t VALUES (1, 'x', 1.5), (2, NULL, 2)")), Rows{"2"});
  EXPECT_EQ(ResultRows(db.Query("INSERT INTO t (c, a) VALUES (7, 3)")), Rows{"1"});
  EXPECT_EQ(ResultRows(db.Query("INSERT INTO t SELECT a + 10, b, c FROM t WHERE a < 3")), Rows{"2"});
  EXPECT_EQ(ResultRows(db.Query("SELECT * FROM t ORDER BY a")),
            (Rows{"1|x|1.5", "2|NULL|2.0", "3|NULL|7.0", "11|x|1.5", "12|NULL|2.0"}));
  EXPECT_EQ(ResultRows(db.Query("SELECT typeof_check FROM t")),
            Rows{"ERROR binder error at line 1, column 8: column \"typeof_check\" not found in table \"t\""});
  EXPECT_EQ(ResultRows(db.Query("CREATE TABLE t (z INTEGER)")),
            Rows{"ERROR catalog error at line 1, column 14: table \"t\" already exists"});
  EXPECT_EQ(ResultRows(db.Query("CREATE TABLE IF NOT EXISTS t (z INTEGER)")), Rows{});
  EXPECT_EQ(ResultRows(db.Query("SELECT count(*) FROM t")), Rows{"5"});
  EXPECT_EQ(ResultRows(db.Query("INSERT INTO t VALUES (1, 2)")),
            Rows{"ERROR binder error at line 1, column 13: table \"t\" has 3 columns but 2 values were supplied"});
  EXPECT_EQ(ResultRows(db.Query("INSERT INTO t VALUES ('nope', 'x', 1)")),
            Rows{"ERROR conversion error at line 1, column 15: could not convert string 'nope' to INTEGER"});
  EXPECT_EQ(ResultRows(db.Query("DROP TABLE t")), Rows{});
  EXPECT_EQ(ResultRows(db.Query("DROP TABLE t")),
            Rows{"ERROR catalog error at line 1, column 12: table \"t\" does not exist"});
  EXPECT_EQ(ResultRows(db.Query("DROP TABLE IF EXISTS t")), Rows{});
  EXPECT_EQ(db.FindTable("t"), nullptr);
}

TEST(SqlStatements, CreateTableAsAndReplace) {
  Database db;
  ASSERT_EQ(ResultRows(db.Query("CREATE TABLE s AS SELECT range_value AS v FROM (VALUES (1), (2), (3)) x(range_value)")),
            Rows{});
  EXPECT_EQ(ResultRows(db.Query("SELECT sum(v) FROM s")), Rows{"6"});
  EXPECT_EQ(ResultRows(db.Query("CREATE OR REPLACE TABLE s AS SELECT 'a' AS w")), Rows{});
  EXPECT_EQ(ResultRows(db.Query("SELECT * FROM s")), Rows{"a"});
  EXPECT_EQ(ResultRows(db.Query("CREATE TEMP TABLE u AS SELECT 1 AS x, 1 AS x")),
            Rows{"ERROR binder error at line 1, column 19: duplicate column name \"x\" (the table already has \"x\")"});
}

TEST(SqlStatements, ViewsDescribeShowTables) {
  Database db;
  ASSERT_EQ(ResultRows(db.Query("CREATE TABLE t AS SELECT * FROM (VALUES (1, 'x'), (2, 'y')) v(a, b)")), Rows{});
  EXPECT_EQ(ResultRows(db.Query("CREATE VIEW big(n) AS SELECT a FROM t WHERE a > 1")), Rows{});
  EXPECT_EQ(ResultRows(db.Query("SELECT n FROM big")), Rows{"2"});
  EXPECT_EQ(ResultRows(db.Query("INSERT INTO t VALUES (3, 'z')")), Rows{"1"});
  EXPECT_EQ(ResultRows(db.Query("SELECT n FROM big ORDER BY n")), (Rows{"2", "3"}));  // a view reads the table now
  EXPECT_EQ(ResultRows(db.Query("CREATE VIEW bigger AS SELECT n * 10 AS m FROM big")), Rows{});
  EXPECT_EQ(ResultRows(db.Query("SELECT sum(m) FROM bigger")), Rows{"50"});
  EXPECT_EQ(ResultRows(db.Query("SHOW TABLES")), (Rows{"big", "bigger", "t"}));
  EXPECT_EQ(ResultRows(db.Query("DESCRIBE t")), (Rows{"a|INTEGER|YES|NULL|NULL|NULL", "b|VARCHAR|YES|NULL|NULL|NULL"}));
  EXPECT_EQ(ResultRows(db.Query("DESCRIBE SELECT a + 1, b FROM t")).size(), 2u);
  EXPECT_EQ(ResultRows(db.Query("INSERT INTO big VALUES (1)")),
            Rows{"ERROR binder error at line 1, column 13: cannot insert into view \"big\""});
  EXPECT_EQ(ResultRows(db.Query("DROP TABLE big")),
            Rows{"ERROR catalog error at line 1, column 12: table \"big\" does not exist"});
  EXPECT_EQ(ResultRows(db.Query("DROP VIEW big")), Rows{});
  EXPECT_EQ(ResultRows(db.Query("SELECT * FROM bigger")),
            Rows{"ERROR binder error at line 1, column 15: view \"bigger\" cannot be read: binder error at line "
                 "1, column 25: table \"big\" does not exist"});
  EXPECT_EQ(ResultRows(db.Query("CREATE VIEW loop1 AS SELECT * FROM loop1")), Rows{});
  EXPECT_EQ(ResultRows(db.Query("SELECT * FROM loop1")),
            Rows{"ERROR binder error at line 1, column 15: view \"loop1\" refers to itself"});
}

TEST(SqlStatements, SeveralStatementsInOneQuery) {
  Database db;
  EXPECT_EQ(ResultRows(db.Query("CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (4), (5);\n"
                                "SELECT sum(a) FROM t;")),
            Rows{"9"});
  // The first failing statement stops them, its position counted in the whole text.
  const Result failed = db.Query("INSERT INTO t VALUES (6);\nSELECT nope FROM t; INSERT INTO t VALUES (7)");
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.error_line(), 2);
  EXPECT_EQ(failed.error_column(), 8);
  EXPECT_EQ(ResultRows(db.Query("SELECT count(*) FROM t")), Rows{"3"});
  EXPECT_EQ(ResultRows(db.Query("SELECT 1; ;")), Rows{"1"});
}

TEST(SqlStatements, ReadersKeepTheTableTheyHoldWhileAnInsertReplacesIt) {
  Database db;
  ASSERT_EQ(ResultRows(db.Query("CREATE TABLE t AS SELECT 1 AS a")), Rows{});
  const std::shared_ptr<const Table> before = db.FindTableShared("t");
  ASSERT_NE(before, nullptr);
  ASSERT_EQ(ResultRows(db.Query("INSERT INTO t VALUES (2), (3)")), Rows{"2"});
  EXPECT_EQ(before->num_rows(), 1u);  // the snapshot a reader held is unchanged
  EXPECT_EQ(db.FindTableShared("t")->num_rows(), 3u);
}

TEST(SqlStatements, AJoinOverTheMemoryLimitFailsAndTheDatabaseGoesOn) {
  Database db;
  // 300 rows of one key, each with a 16 KiB string: the self-join has only 90,000 pairs, but
  // its gathered rows would hold about 1.5 GB of one side's strings (the query reads them, so
  // column pruning keeps them).
  ASSERT_EQ(ResultRows(db.Query(
                "CREATE TABLE wide AS WITH RECURSIVE w(s, i) AS (SELECT 'x', 0 UNION ALL "
                "SELECT s || s, i + 1 FROM w WHERE i < 14), r(n) AS (SELECT 1 UNION ALL SELECT n + 1 "
                "FROM r WHERE n < 300) SELECT 1 AS k, n, s FROM r, w WHERE i = 14")),
            Rows{});
  ASSERT_EQ(ResultRows(db.Query("SELECT count(*), max(length(s)) FROM wide")), (Rows{"300|16384"}));
  QueryOptions options;
  options.memory_limit_bytes = 32 << 20;
  const Result over = db.Query("SELECT count(x.s) FROM wide x JOIN wide y ON x.k = y.k", options);
  ASSERT_FALSE(over.ok());
  EXPECT_EQ(over.error().rfind("out of memory", 0), 0u) << over.error();
  EXPECT_EQ(ResultRows(db.Query("SELECT count(*) FROM wide x JOIN wide y ON x.n = y.n", options)), Rows{"300"});
}

TEST(SqlStatements, RecursionThatDoesNotEndFailsAtItsLimit) {
  Database db;
  QueryOptions options;
  options.max_recursion_rounds = 50;
  const char* endless = "WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t) SELECT count(*) FROM t";
  EXPECT_EQ(ResultRows(db.Query(endless, options)),
            Rows{"ERROR binder error at line 1, column 16: WITH RECURSIVE query \"t\" still added rows after 50 "
                 "rounds: stopped (does its recursive part lack the condition that ends it?)"});
  options.max_recursion_rounds = 100;  // 60 rounds are enough for this one
  EXPECT_EQ(ResultRows(db.Query("WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 60) "
                                "SELECT count(*), sum(n) FROM t", options)),
            Rows{"60|1830"});
}

}  // namespace
}  // namespace laneql
