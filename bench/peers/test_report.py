"""Unit tests of the peer benchmark's pure parts: the arithmetic (best/median, ratios, geometric
means), the report and the chart made from a hand-written result document (mismatches flagged,
n/a and errors shown, never dropped), and the dialect table. No engine is needed:

  .venv/bin/python -m unittest bench/peers/test_report.py bench/peers/test_checks.py
"""

import math
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chart  # noqa: E402
import dialects  # noqa: E402
import report  # noqa: E402
import stats  # noqa: E402


def timed(median, best=None):
    best = median if best is None else best
    return {"median_ms": median, "best_ms": best, "times_ms": [best, median, median + 1], "runs": 3,
            "rows": 1}


def record(q, engines, checks, notes=()):
    return {"q": q, "sql": "SELECT %d" % q, "engines": engines, "checks": checks, "notes": list(notes)}


OK = {"laneql": ["ok", ""], "duckdb": ["reference", ""], "chdb": ["ok", ""], "polars": ["ok", ""]}


def document():
    results = [
        record(1, {"laneql": timed(1.0), "duckdb": timed(2.0), "chdb": timed(4.0), "polars": timed(0.5)}, OK),
        record(2, {"laneql": timed(10.0), "duckdb": timed(5.0), "chdb": timed(40.0, 30.0),
                   "polars": {"na": "SQLInterfaceError: unsupported function"}},
               {**OK, "polars": ["n/a", "SQLInterfaceError: unsupported function"]}),
        record(3, {"laneql": timed(2.0), "duckdb": timed(8.0), "chdb": timed(1.0), "polars": timed(4.0)},
               {**OK, "chdb": ["MISMATCH", "rows 0..0: 1 not in DuckDB's answer (e.g. (9.7,))"]},
               ["chDB's answer differs, known cause: wraps"]),
        record(4, {"laneql": {"error": "binder error: nope"}, "duckdb": timed(3.0), "chdb": timed(3.0),
                   "polars": timed(3.0)}, {**OK, "laneql": ["error", "binder error: nope"]}),
    ]
    return {"rows": 1_000_000, "seed": 1, "repeat": 3, "engines": ["laneql", "duckdb", "chdb", "polars"],
            "query_count": 4, "threads": [1],
            "phases": [{"threads": 1, "floor_ms": {"laneql": 0.01, "duckdb": 0.5}, "results": results,
                        "engines": {"duckdb": {"version": "DuckDB 1.4.4", "threads": 1, "form": "table",
                                               "load_s": 1.0, "rss_mb": 100.0}}}],
            "wasm": {"repeat": 3, "results": [
                {"q": 1, "engines": {"laneql-wasm": timed(2.0), "duckdb-wasm": timed(8.0),
                                     "native": timed(1.0)}, "check": "ok", "notes": []},
                {"q": 29, "engines": {"laneql-wasm": {"error": "no RE2"}, "duckdb-wasm": timed(9.0),
                                      "native": timed(1.0)}, "check": "laneql-wasm error",
                 "notes": ["laneql-wasm: no RE2"]}]},
            "bandwidth": {"probe": {"1": 10.0}, "probe_runs": {"1": [9.0, 10.0]}, "probe_mb": 400,
                          "queries": [{"q": 2, "bytes": 2e6, "threads": {"1": {"best_ms": 0.4, "gbs": 5.0,
                                                                               "share": 0.5}}}]},
            "machine": {"cpu": "Test CPU", "cpus": 2, "cores": 2, "threads_per_core": 1,
                        "memory_gib": 8, "os": "Linux", "load_start": "1.00", "load_end": "1.10"},
            "conditions": "shared machine", "data": {"laneql": "a.laneql", "parquet": "a.parquet"},
            "command": "python bench/peers/run.py --rows 1000000", "started": "2026-01-01 00:00 UTC",
            "duration_s": 60}


class StatsTest(unittest.TestCase):
    def test_median_and_summary(self):
        self.assertEqual(stats.median([3, 1, 2]), 2)
        self.assertEqual(stats.median([4, 1, 3, 2]), 2.5)
        self.assertEqual(stats.summarize([5.0, 3.0, 4.0]), {"best_ms": 3.0, "median_ms": 4.0, "runs": 3})
        with self.assertRaises(ValueError):
            stats.median([])

    def test_geomean_and_ratio(self):
        self.assertAlmostEqual(stats.geomean([1, 100]), 10)
        self.assertAlmostEqual(stats.geomean([2, 8]), 4)
        self.assertIsNone(stats.geomean([]))
        self.assertGreater(stats.geomean([0, 1]), 0)  # a zero time does not break the log
        self.assertEqual(stats.ratio(1.0, 4.0), 0.25)
        self.assertIsNone(stats.ratio(None, 4.0))
        self.assertIsNone(stats.ratio(1.0, None))

    def test_pair_geomean_uses_the_queries_both_ran(self):
        results = document()["phases"][0]["results"]
        # laneql/Polars: q1 2.0, q3 0.5 (q2 n/a, q4 laneql error) -> geomean 1.0 over 2
        g, n = stats.pair_geomean(results, "laneql", "polars", "median_ms")
        self.assertEqual(n, 2)
        self.assertAlmostEqual(g, 1.0)
        # laneql/DuckDB: q1 0.5, q2 2.0, q3 0.25 -> (0.25)^(1/3)
        g, n = stats.pair_geomean(results, "laneql", "duckdb", "median_ms")
        self.assertEqual(n, 3)
        self.assertAlmostEqual(g, 0.25 ** (1 / 3))
        # ... and equals the ratio of the geomeans over the same queries.
        lane = stats.geomean([1.0, 10.0, 2.0])
        duck = stats.geomean([2.0, 5.0, 8.0])
        self.assertAlmostEqual(g, lane / duck)

    def test_common_geomeans(self):
        results = document()["phases"][0]["results"]
        means, n = stats.common_geomeans(results, ["laneql", "duckdb", "chdb", "polars"], "median_ms")
        self.assertEqual(n, 2)  # q1 and q3: q2 has Polars n/a, q4 a laneql error
        self.assertAlmostEqual(means["laneql"], math.sqrt(1.0 * 2.0))
        self.assertAlmostEqual(means["chdb"], math.sqrt(4.0 * 1.0))
        means, n = stats.common_geomeans(results, ["laneql"], "best_ms")
        self.assertEqual(n, 3)

    def test_formats(self):
        self.assertEqual(stats.fmt_ms(None), "-")
        self.assertEqual(stats.fmt_ms(1234.5), "1234")
        self.assertEqual(stats.fmt_ms(12.34), "12.3")
        self.assertEqual(stats.fmt_ms(1.234), "1.23")
        self.assertEqual(stats.fmt_ms(0.01234), "0.012")
        self.assertEqual(stats.fmt_ratio(12.34), "12.3")
        self.assertEqual(stats.fmt_ratio(0.5), "0.50")
        self.assertEqual(stats.fmt_ratio(0.0123), "0.012")
        self.assertEqual(stats.rows_label(10_000_000), "10m")
        self.assertEqual(stats.rows_label(200_000), "200k")
        self.assertEqual(stats.rows_label(1234), "1234")
        self.assertEqual(stats.rows_text(1_000_000), "1 M")
        self.assertEqual(stats.rows_text(200_000), "200 k")


class ReportTest(unittest.TestCase):
    def setUp(self):
        self.md = report.render(document())
        self.lines = self.md.splitlines()

    def row(self, prefix):
        return next(line for line in self.lines if line.startswith(prefix))

    def test_mismatch_is_flagged_not_hidden(self):
        q3 = self.row("| 3 |")
        self.assertIn("1.00 ✗", q3)            # chDB's time is shown, marked
        self.assertIn("**chDB: MISMATCH**", q3)  # and the check column says so
        self.assertIn("#3 chDB", self.row("| native, 1 thread |"))
        self.assertIn("chDB MISMATCH: rows 0..0", self.md)
        self.assertIn("known cause: wraps", self.md)

    def test_na_and_error_are_shown(self):
        q2 = self.row("| 2 |")
        self.assertIn("| n/a |", q2)
        self.assertIn("Polars n/a: SQLInterfaceError", self.md)
        q4 = self.row("| 4 |")
        self.assertTrue(q4.startswith("| 4 | error |"))
        self.assertIn("laneql error: binder error", self.md)

    def test_ratios_and_geomeans(self):
        q1 = self.row("| 1 |")
        self.assertEqual(q1.split(" | ")[5:8], ["0.50", "0.25", "2.00"])
        g = self.row("| **geomean (median)** |")
        cells = [c.strip() for c in g.split("|")[1:-1]]
        self.assertEqual(cells[1], "**%s**" % stats.fmt_ms(math.sqrt(2.0)))
        self.assertEqual(cells[5], "**%s**" % stats.fmt_ratio(0.25 ** (1 / 3)))
        self.assertIn("the 2 queries all engines ran", g)
        summary = self.row("| native, 1 thread |")
        self.assertIn("%s (3)" % stats.fmt_ratio(0.25 ** (1 / 3)), summary)

    def test_wasm_bandwidth_and_setup(self):
        self.assertIn("| 29 | error | 9.00 | 1.00 | - | - | **laneql-wasm error** |", self.md)
        self.assertIn("laneql-wasm / duckdb-wasm **0.25**", self.md)
        self.assertIn("| 2 | 2.0 | 0.400 | 5.0 | 50 % |", self.md)
        self.assertIn("1 thread **10.0 GB/s** (9.0 / 10.0)", self.md)
        self.assertIn("Test CPU, 2 CPUs", self.md)
        self.assertIn("**shared machine**", self.md)
        self.assertIn("`SELECT 1` 0.500 ms", self.md)


class ChartTest(unittest.TestCase):
    def test_bars_and_flags(self):
        svg = chart.render(document())
        self.assertTrue(svg.startswith("<svg"))
        self.assertTrue(svg.rstrip().endswith("</svg>"))
        self.assertIn("native, 1 thread", svg)
        self.assertIn("wasm in Node, 1 thread", svg)
        self.assertEqual(svg.count('fill="none" stroke="#c00"'), 1)   # q3's chDB bar, hollow
        self.assertIn("<title>#3 chDB: 2.00</title>", svg)
        self.assertIn("no ratio (Polars or laneql: no time)", svg)    # q2's n/a
        self.assertEqual(svg.count("<rect x=") - 4, 3 + 2 + 3 + 1)    # 4 legend swatches

    def test_scale_covers_the_ratios(self):
        self.assertEqual(chart.decades([("p", [(1, [("duckdb", 0.002, True)])])]), (-3, 1))
        self.assertEqual(chart.decades([("p", [(1, [("duckdb", 1.5, True), ("chdb", None, True)])])]), (-1, 1))
        self.assertEqual(chart.decades([("p", [(1, [("duckdb", 1e-9, True)]), (2, [("chdb", 30, True)])])]),
                         (-4, 2))


class DialectTest(unittest.TestCase):
    def test_adjustments_apply_and_say_why(self):
        q29 = ("SELECT REGEXP_REPLACE(Referer, '^https?://(?:www\\.)?([^/]+)/.*$', '\\1') AS k, "
               "AVG(length(Referer)) AS l FROM hits")
        sql, why = dialects.adapt("chdb", 29, q29)
        self.assertIn("(?:www\\\\.)", sql)
        self.assertIn("'\\\\1'", sql)
        self.assertIn("lengthUTF8(Referer)", sql)
        self.assertIn("backslash", why)
        self.assertEqual(dialects.adapt("duckdb", 29, q29), (q29, None))
        self.assertEqual(dialects.adapt("chdb", 1, "SELECT 1"), ("SELECT 1", None))

    def test_used_columns(self):
        schema = [("WatchID", "BIGINT"), ("Title", "VARCHAR"), ("URL", "VARCHAR"), ("UserID", "BIGINT")]
        queries = ["SELECT url, COUNT(*) FROM hits WHERE Title <> 'UserID' GROUP BY URL"]
        self.assertEqual(dialects.used_columns(queries, schema), ["Title", "URL"])
        self.assertEqual(dialects.used_columns(queries + ["SELECT UserID FROM hits"], schema),
                         ["Title", "URL", "UserID"])

    def test_a_changed_query_is_an_error(self):
        with self.assertRaises(ValueError):
            dialects.adapt("chdb", 28, "SELECT strlen(URL) FROM hits")


if __name__ == "__main__":
    unittest.main()
