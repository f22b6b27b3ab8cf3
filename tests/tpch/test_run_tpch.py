"""Unit tests of run_tpch.py's pure parts (no data, no laneql, no DuckDB):
python3 -m unittest tests/tpch/test_run_tpch.py"""

import datetime
import decimal
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_tpch  # noqa: E402
import run_tpch_js  # noqa: E402
import tpch_data  # noqa: E402


class QueryListTest(unittest.TestCase):
    def test_numbers_and_ranges(self):
        self.assertEqual(run_tpch.parse_query_list("1,3,5-7"), [1, 3, 5, 6, 7])
        self.assertEqual(run_tpch.parse_query_list(" 7 , 5-6,q1, Q2-q3,6"), [1, 2, 3, 5, 6, 7])
        self.assertEqual(run_tpch.parse_query_list("22"), [22])
        self.assertEqual(run_tpch.parse_query_list("1-22"), list(range(1, 23)))
        self.assertEqual(run_tpch.parse_query_list("4-4"), [4])

    def test_rejects(self):
        for text in ("", "0", "23", "5-3", "x", "1,,2", "1-", "-3", "1.5", "2-30"):
            with self.assertRaises(ValueError, msg=text):
                run_tpch.parse_query_list(text)


class ExpectedListTest(unittest.TestCase):
    def test_comments_blank_lines_and_spellings(self):
        text = "# queries that pass\n\n6\n  q01  # a comment\nQ22\n#14\n6\n"
        self.assertEqual(run_tpch.parse_expected(text), {1, 6, 22})

    def test_empty_file(self):
        self.assertEqual(run_tpch.parse_expected("# nothing passes yet\n"), set())
        self.assertEqual(run_tpch.parse_expected(""), set())

    def test_rejects(self):
        for text in ("6 7\n", "0\n", "23\n", "q\n", "1-3\n", "six\n"):
            with self.assertRaises(ValueError, msg=text):
                run_tpch.parse_expected(text)

    def test_committed_list_parses(self):
        with open(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                               "expected_pass.txt"), encoding="utf-8") as f:
            self.assertTrue(run_tpch.parse_expected(f.read()) <= set(range(1, 23)))


class SummaryTest(unittest.TestCase):
    def test_summary_line(self):
        self.assertEqual(run_tpch.summary_line(0, 22), "0 passed, 22 failed")
        self.assertEqual(run_tpch.summary_line(21, 1), "21 passed, 1 failed")

    def test_labels(self):
        self.assertEqual(run_tpch.query_label(1), "q01")
        self.assertEqual(run_tpch.query_label(22), "q22")
        self.assertEqual(tpch_data.sf_name(0.01), "sf0.01")
        self.assertEqual(tpch_data.sf_name(1.0), "sf1")
        self.assertEqual(tpch_data.sf_name(10), "sf10")


class ShapeTest(unittest.TestCase):
    def test_with_clause_stays_in_front(self):
        sql = ("WITH revenue (supplier_no, total_revenue) AS (\n  SELECT l_suppkey, sum(x) FROM "
               "lineitem GROUP BY l_suppkey ORDER BY 1 LIMIT 3)\nSELECT s_suppkey, total_revenue "
               "FROM supplier, revenue WHERE s_suppkey = supplier_no ORDER BY s_suppkey LIMIT 5;\n")
        shape = run_tpch.Shape(sql)
        self.assertEqual((shape.limit, shape.offset), (5, 0))
        full, places, extras = shape.full_answer_sql(["s_suppkey", "total_revenue"])
        self.assertTrue(full.startswith("WITH revenue"))
        self.assertIn("ORDER BY 1 LIMIT 3)", full)  # the CTE's own LIMIT is kept
        self.assertTrue(full.endswith("ORDER BY s_suppkey"))
        self.assertEqual((places, extras), ([("out", 0)], 0))

    def test_plain_select(self):
        shape = run_tpch.Shape("SELECT a, sum(b) AS s FROM t GROUP BY a ORDER BY s DESC LIMIT 10")
        self.assertEqual(shape.limit, 10)
        self.assertEqual(shape.full_answer_sql(["a", "s"])[0],
                         "SELECT a, sum(b) AS s FROM t GROUP BY a ORDER BY s DESC")


class LaneqlAnswerTest(unittest.TestCase):
    def test_json_keeps_column_order_and_exact_numbers(self):
        names, rows = run_tpch.parse_laneql_json(
            '[\n\t{"b":1,"a":0.1000000000000000055511,"d":"1995-03-15","n":null,"s":"x"}\n]\n')
        self.assertEqual(names, ["b", "a", "d", "n", "s"])
        self.assertEqual(rows, [[1, decimal.Decimal("0.1000000000000000055511"), "1995-03-15",
                                 None, "x"]])
        self.assertEqual(run_tpch.parse_laneql_json("[\n]\n"), (None, []))
        with self.assertRaises(ValueError):
            run_tpch.parse_laneql_json('{"a": 1}')

    def test_values_by_duckdb_type(self):
        v = run_tpch.laneql_value
        self.assertEqual(v(7, "BIGINT"), 7)
        self.assertEqual(v(12345678901234567890123, "HUGEINT"), 12345678901234567890123)
        self.assertEqual(v(7, "DOUBLE"), 7.0)
        self.assertEqual(v(decimal.Decimal("0.5"), "DOUBLE"), 0.5)
        self.assertEqual(v(decimal.Decimal("0.50"), "DECIMAL(15,2)"), decimal.Decimal("0.50"))
        self.assertEqual(v("1998-09-02", "DATE"), datetime.date(1998, 9, 2))
        self.assertEqual(v("AIR", "VARCHAR"), "AIR")
        self.assertIsNone(v(None, "BIGINT"))
        # A value of another kind than DuckDB's column matches nothing.
        for value, duck_type in ((decimal.Decimal("7.0"), "BIGINT"), ("7", "BIGINT"),
                                 (7, "VARCHAR"), (True, "BIGINT"), ("x", "DOUBLE")):
            self.assertIsInstance(v(value, duck_type), tuple, (value, duck_type))

    def test_tables_named(self):
        sql = ("SELECT ps_partkey, n_name AS nation FROM partsupp, supplier, nation "
               "WHERE s_nationkey = n_nationkey")
        self.assertEqual(run_tpch.tables_named(sql), ["nation", "supplier", "partsupp"])
        self.assertEqual(run_tpch.tables_named("SELECT o_orderkey FROM Orders"), ["orders"])


class NpmAnswerTest(unittest.TestCase):
    def test_values_read_as_the_cli_answers_are(self):
        got = run_tpch_js.parse_npm_answers(
            '{"queries": {"1": {"names": ["n", "x", "d", "s"], "rows": '
            '[[9007199254740993, 3.0, "1995-03-15", null]]}}}')
        row = got["queries"]["1"]["rows"][0]
        self.assertEqual(row, [9007199254740993, decimal.Decimal("3.0"), "1995-03-15", None])
        # tpch_npm.mjs writes an integral DOUBLE as 3.0: in an integer column it matches nothing.
        self.assertIsInstance(run_tpch.laneql_value(row[1], "BIGINT"), tuple)
        self.assertEqual(run_tpch.laneql_value(row[1], "DOUBLE"), 3.0)

    def test_table_schema(self):
        tables = {"region": {"rows": 5, "names": ["r_regionkey", "r_name"],
                             "types": ["BIGINT", "VARCHAR"]}}
        self.assertEqual(run_tpch_js.table_schema(tables),
                         {"region": [("r_regionkey", "BIGINT"), ("r_name", "VARCHAR")]})


if __name__ == "__main__":
    unittest.main()
