"""Unit tests of the random query generator and the minimiser's steps (no laneql needed):
the same seed gives the same queries, DuckDB binds every generated query and every minimiser
step, and each step is strictly smaller."""

import datetime
import os
import sys
import unittest

import duckdb

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import random_minimize  # noqa: E402
import random_queries  # noqa: E402
import run_diff  # noqa: E402

SAMPLE = {"int": [0, 1, 5, -3, 1000, 32000], "str": ["abc", "Москва", "", "x%y_z", "it's"],
          "date": [datetime.date(2013, 7, 1), datetime.date(2013, 7, 31)],
          "ts": [datetime.datetime(2013, 7, 1, 12, 3, 4), datetime.datetime(2013, 7, 2, 0, 0, 0)]}


def columns():
    if run_diff.CLICKBENCH is None:
        return None
    return run_diff.hits_columns(os.path.join(run_diff.CLICKBENCH, "create.sql"))


@unittest.skipIf(columns() is None, "ClickBench's create.sql not found")
class RandomQueriesTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.columns = columns()
        samples = {n: SAMPLE[random_queries.kind_of(t)] for n, t in cls.columns}
        cls.pool = random_queries.ValuePool(cls.columns, samples)
        cls.con = duckdb.connect()
        cls.con.execute("CREATE TABLE hits (%s)" % ", ".join("%s %s" % c for c in cls.columns))

    def generate(self, seed, n):
        generator = random_queries.QueryGenerator(self.pool, seed)
        return [generator.query() for _ in range(n)]

    def test_same_seed_same_queries(self):
        first = [q.sql() for q in self.generate(5, 50)]
        self.assertEqual(first, [q.sql() for q in self.generate(5, 50)])
        self.assertNotEqual(first, [q.sql() for q in self.generate(6, 50)])

    def test_duckdb_binds_every_query(self):
        for query in self.generate(11, 400):
            sql = query.sql()
            self.assertNotIn("\n", sql)
            try:
                self.con.execute("EXPLAIN " + sql)
            except duckdb.Error as e:
                self.fail("%s\n%s" % (sql, e))

    def test_queries_cover_the_features(self):
        text = " ".join(q.sql() for q in self.generate(3, 400))
        for feature in [" WHERE ", " GROUP BY ", " HAVING ", " ORDER BY ", " LIMIT ", " OFFSET ",
                        " LIKE ", " NOT LIKE ", " BETWEEN ", " IN (", " IS NULL", "CASE WHEN",
                        "count(DISTINCT", "sum(", "avg(", "min(", "max(", "extract(",
                        "date_trunc(", "length(", " OR ", "NOT (", "SELECT DISTINCT"]:
            self.assertIn(feature, text)

    def test_minimiser_steps_are_smaller_and_valid(self):
        for query in self.generate(17, 60):
            for step in random_minimize.candidates(query):
                self.assertLess(len(step.sql()), len(query.sql()) + len("count(*)"))
                self.assertNotEqual(step.sql(), query.sql())
                try:
                    self.con.execute("EXPLAIN " + step.sql())
                except duckdb.Error as e:
                    self.fail("step of %s:\n%s\n%s" % (query.sql(), step.sql(), e))


if __name__ == "__main__":
    unittest.main()
