"""Unit tests of the answer check (checks.py): each engine's values normalised to what DuckDB's
client gives, and the verdicts, on hand-made DuckDB answers (no engine needed):

  .venv/bin/python -m unittest bench/peers/test_checks.py
"""

import datetime
import decimal
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import checks  # noqa: E402


class NormalizeTest(unittest.TestCase):
    def test_laneql_json_values(self):
        row = (229, "2013-07-02", "2013-07-31 23:59:40", 1500.25, "http://x/", 170141183460469231731687303715884105727)
        types = ["INTEGER", "DATE", "TIMESTAMP", "DOUBLE", "VARCHAR", "HUGEINT"]
        self.assertEqual(checks.normalize_row(row, types), (
            229, datetime.date(2013, 7, 2), datetime.datetime(2013, 7, 31, 23, 59, 40), 1500.25,
            "http://x/", 170141183460469231731687303715884105727))
        self.assertEqual(checks.normalize_value(1500, "DOUBLE"), 1500.0)
        self.assertIsInstance(checks.normalize_value(1500, "DOUBLE"), float)
        self.assertIsNone(checks.normalize_value(None, "BIGINT"))

    def test_chdb_and_polars_values(self):
        utc = datetime.timezone.utc
        self.assertEqual(checks.normalize_value(1372759872, "TIMESTAMP"),  # chDB's DateTime
                         datetime.datetime(2013, 7, 2, 10, 11, 12))
        self.assertEqual(checks.normalize_value(datetime.datetime(2013, 7, 2, 10, tzinfo=utc), "TIMESTAMP"),
                         datetime.datetime(2013, 7, 2, 10))
        self.assertEqual(checks.normalize_value(b"\xd0\xb0", "VARCHAR"), "а")
        self.assertEqual(checks.normalize_value(decimal.Decimal("12"), "HUGEINT"), 12)
        self.assertEqual(checks.normalize_value(decimal.Decimal("1.5"), "DOUBLE"), 1.5)
        self.assertEqual(checks.normalize_value(datetime.datetime(2013, 7, 2), "DATE"), datetime.date(2013, 7, 2))

    def test_wrong_kinds_stay_wrong(self):
        self.assertEqual(checks.normalize_value("x1", "BIGINT")[0], "unparsable BIGINT")
        self.assertEqual(checks.normalize_value(5, "VARCHAR"), 5)  # not turned into '5'
        self.assertEqual(checks.normalize_value(datetime.datetime(2013, 7, 2, 1), "DATE"),
                         datetime.datetime(2013, 7, 2, 1))


def top3_reference():
    """DuckDB's answer to SELECT k, count(*) AS c ... ORDER BY c DESC LIMIT 2: full answer
    (a, 5), (b, 3), (c, 3), (d, 1); DuckDB's own pick (a, 5), (b, 3)."""
    full = [("a", 5), ("b", 3), ("c", 3), ("d", 1)]
    return checks.Reference("SELECT k, count(*) AS c FROM t GROUP BY k ORDER BY c DESC LIMIT 2",
                            ["k", "c"], ["VARCHAR", "BIGINT"], full[:2], full, [(r[1],) for r in full], True)


class VerdictTest(unittest.TestCase):
    def test_same_answer(self):
        self.assertEqual(top3_reference().verdict([("a", 5), ("b", 3)]), (checks.OK, ""))

    def test_other_tie_is_ok_but_said(self):
        status, detail = top3_reference().verdict([("a", 5), ("c", 3)])
        self.assertEqual(status, checks.OK_TIES)
        self.assertIn("other ties", detail)

    def test_wrong_value_row_count_and_width(self):
        self.assertEqual(top3_reference().verdict([("a", 6), ("b", 3)])[0], checks.MISMATCH)
        self.assertEqual(top3_reference().verdict([("a", 5)])[0], checks.MISMATCH)
        self.assertEqual(top3_reference().verdict([("a", 5), ("d", 1)])[0], checks.MISMATCH)
        status, detail = top3_reference().verdict([("a", 5, 1), ("b", 3, 1)])
        self.assertEqual((status, detail), (checks.MISMATCH, "3 columns, DuckDB 2"))

    def test_floats_to_the_tolerance(self):
        ref = checks.Reference("SELECT AVG(x) FROM t", ["a"], ["DOUBLE"], [(2.5e18,)], [(2.5e18,)], [()], True)
        self.assertEqual(ref.verdict([(2.5e18 * (1 + 1e-12),)])[0], checks.OK)
        self.assertEqual(ref.verdict([(9745497486440.094,)])[0], checks.MISMATCH)
        self.assertEqual(ref.verdict([("2.5e18",)])[0], checks.OK)  # laneql's text spelling

    def test_oracle_problem_is_not_blamed_on_the_engine(self):
        full = [("a", 5), ("b", 3)]
        ref = checks.Reference("SELECT k, c FROM t ORDER BY c DESC LIMIT 2", ["k", "c"],
                               ["VARCHAR", "BIGINT"], [("z", 9), ("b", 3)], full, [(5,), (3,)], True)
        self.assertEqual(ref.verdict(full)[0], checks.ORACLE)


if __name__ == "__main__":
    unittest.main()
