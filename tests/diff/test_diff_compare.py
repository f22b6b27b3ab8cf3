"""Unit tests of the differential test's comparison rules (diff_compare.py), so that a lenient
checker cannot hide engine bugs: python3 -m unittest tests/diff/test_diff_compare.py"""

import datetime
import decimal
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import diff_compare as dc  # noqa: E402


class QueryShapeTest(unittest.TestCase):
    def test_limit_offset_and_keys(self):
        s = dc.QueryShape("SELECT URL, COUNT(*) AS c FROM hits WHERE x = 'a, LIMIT 3' "
                          "GROUP BY URL ORDER BY c DESC, URL LIMIT 10 OFFSET 1000;")
        self.assertEqual(s.limit, 10)
        self.assertEqual(s.offset, 1000)
        self.assertEqual(s.order_keys, ["c", "URL"])
        sql, places, extras = s.full_answer_sql(["URL", "c"])
        self.assertTrue(sql.endswith("ORDER BY c DESC, URL"))
        self.assertEqual(places, [("out", 1), ("out", 0)])
        self.assertEqual(extras, 0)

    def test_key_not_selected_is_appended(self):
        s = dc.QueryShape("SELECT SearchPhrase FROM hits ORDER BY EventTime, SearchPhrase LIMIT 10")
        sql, places, extras = s.full_answer_sql(["SearchPhrase"])
        self.assertEqual(sql, "SELECT SearchPhrase, EventTime AS __diff_key_0 FROM hits "
                              "ORDER BY EventTime, SearchPhrase")
        self.assertEqual(places, [("extra", 0), ("out", 0)])

    def test_expression_key_and_star(self):
        s = dc.QueryShape("SELECT DATE_TRUNC('minute', EventTime) AS M, COUNT(*) FROM hits "
                          "GROUP BY DATE_TRUNC('minute', EventTime) "
                          "ORDER BY DATE_TRUNC('minute',EventTime) LIMIT 10")
        self.assertEqual(s.full_answer_sql(["M", "count"])[1], [("out", 0)])
        self.assertEqual(dc.QueryShape("SELECT COUNT(*) FROM t ORDER BY COUNT(*) DESC")
                         .full_answer_sql(["n"])[1], [("out", 0)])
        star = dc.QueryShape("SELECT * FROM hits WHERE a LIKE '%g%' ORDER BY EventTime LIMIT 10")
        self.assertEqual(star.full_answer_sql(["WatchID", "EventTime"])[1], [("out", 1)])

    def test_position_key_beside_a_number_literal(self):
        s = dc.QueryShape("SELECT a, 3, b FROM t ORDER BY 3 LIMIT 2")
        self.assertEqual(s.full_answer_sql(["a", "3", "b"])[1], [("out", 2)])

    def test_no_order_no_limit(self):
        s = dc.QueryShape("SELECT extract(minute FROM EventTime) AS m FROM hits")
        self.assertEqual((s.limit, s.offset, s.order_keys), (None, 0, []))
        self.assertEqual(s.select_items, [("extract(minute FROM EventTime)", "m")])


class ValueTest(unittest.TestCase):
    def test_values(self):
        self.assertEqual(dc.laneql_value("170141183460469231731687303715884105727", "HUGEINT"),
                         2**127 - 1)
        self.assertEqual(dc.laneql_value("2013-07-15 12:34:56.12", "TIMESTAMP"),
                         datetime.datetime(2013, 7, 15, 12, 34, 56, 120000))
        self.assertEqual(dc.laneql_value("2013-07-02", "DATE"), datetime.date(2013, 7, 2))
        self.assertFalse(dc.values_match(dc.laneql_value("2013-07-32", "DATE"),
                                         datetime.date(2013, 7, 2)))
        # DECIMAL exactly, as DuckDB's client gives it (DuckDB prints DECIMAL(1,1) 0.5 as ".5").
        self.assertEqual(dc.laneql_value("-12.50", "DECIMAL(38,2)"), decimal.Decimal("-12.50"))
        self.assertTrue(dc.values_match(dc.laneql_value(".5", "DECIMAL(1,1)"), decimal.Decimal("0.5")))
        self.assertFalse(dc.values_match(dc.laneql_value("0.51", "DECIMAL(3,2)"), decimal.Decimal("0.5")))
        self.assertFalse(dc.values_match(dc.laneql_value("x", "DECIMAL(3,2)"), decimal.Decimal("0.5")))

    def test_match_rules(self):
        self.assertTrue(dc.values_match(1513.4908, 1513.4908 * (1 + 5e-10)))
        self.assertFalse(dc.values_match(1513.4908, 1513.4908 * (1 + 5e-9)))
        self.assertFalse(dc.values_match(2**62 + 1, 2**62))  # integers exact, not via float
        self.assertTrue(dc.values_match(float("nan"), float("nan")))
        self.assertFalse(dc.values_match("", None))
        self.assertFalse(dc.values_match("1", 1))


class WindowTest(unittest.TestCase):
    # DuckDB's full answer ordered by count: a tie group of 3 rows with count 5 around LIMIT 2.
    rows = [("a", 9), ("b", 5), ("c", 5), ("d", 5), ("e", 1)]
    keys = [(9,), (5,), (5,), (5,), (1,)]

    def check(self, got, offset=0, limit=2):
        return dc.check_window(got, self.rows, self.keys, offset, limit, True, set())

    def test_any_tied_row_at_the_boundary(self):
        self.assertIsNone(self.check([("a", 9), ("b", 5)]))
        self.assertIsNone(self.check([("a", 9), ("d", 5)]))

    def test_wrong_rows_fail(self):
        self.assertIsNotNone(self.check([("a", 9), ("e", 1)]))  # not in the tie group
        self.assertIsNotNone(self.check([("b", 5), ("a", 9)]))  # order across groups
        self.assertIsNotNone(self.check([("a", 9)]))  # too few
        self.assertIsNotNone(self.check([("a", 9), ("b", 5), ("c", 5)]))  # too many
        self.assertIsNotNone(self.check([("a", 9), ("b", 6)]))

    def test_offset_window_spanning_groups(self):
        self.assertIsNone(self.check([("d", 5), ("c", 5), ("b", 5), ("e", 1)], offset=1, limit=10))
        self.assertIsNotNone(self.check([("d", 5), ("c", 5), ("c", 5), ("e", 1)], offset=1,
                                        limit=10))  # a multiset, not a set
        self.assertIsNone(self.check([], offset=7, limit=10))

    def test_unordered_answer_is_a_multiset(self):
        rows = [("x", 1.0), ("y", 2.0)]
        keys = [(), ()]
        self.assertIsNone(dc.check_window([("y", 2.0 + 1e-12), ("x", 1.0)], rows, keys, 0, None,
                                          True, {1}))
        self.assertIsNotNone(dc.check_window([("y", 2.0), ("y", 2.0)], rows, keys, 0, None,
                                             True, {1}))


if __name__ == "__main__":
    unittest.main()
