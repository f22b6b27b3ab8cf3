"""Unit tests of the TPC-H benchmark's pure parts: the report from a made-up document, the chart's
title, the dialect adjustments, the fingerprint query, the one-line query text and the argument
checks. No engine is needed (make test-diff runs these).

  .venv/bin/python -m unittest bench/tpch/test_tpch_bench.py
"""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "peers"))
sys.path.insert(0, HERE)

import chart  # noqa: E402
import run  # noqa: E402  (bench/tpch/run.py: HERE is first on the path)
import tpch_dataset  # noqa: E402
import tpch_dialects  # noqa: E402
import tpch_report  # noqa: E402


def timed(median, best=None):
    best = median if best is None else best
    return {"median_ms": median, "best_ms": best, "times_ms": [best, median, median + 1], "runs": 3, "rows": 4}


OK = {"laneql": ["ok", ""], "duckdb": ["reference", ""], "chdb": ["ok", ""], "polars": ["ok", ""]}


def document():
    results = [
        {"q": 1, "sql": "SELECT 1", "notes": [], "checks": OK,
         "engines": {"laneql": timed(10.0), "duckdb": timed(20.0), "chdb": timed(40.0), "polars": timed(5.0)}},
        {"q": 13, "sql": "SELECT 13", "notes": [],
         "checks": {**OK, "chdb": ["MISMATCH", "rows 0..1: (0, 50005) not in DuckDB's answer"]},
         "engines": {"laneql": timed(30.0), "duckdb": timed(15.0), "chdb": timed(10.0),
                     "polars": {"na": "SQLInterfaceError: correlated subquery"}}},
    ]
    phase = {"threads": 2, "floor_ms": {"laneql": 0.02, "duckdb": 0.3}, "results": results, "duration_s": 12,
             "engines": {"laneql": {"version": "laneql 0.1", "threads": 2, "form": "mapped", "load_s": 0.0},
                         "duckdb": {"version": "DuckDB 2.0.0", "threads": 2, "form": "tables", "load_s": 2.5,
                                    "rss_mb": 900.0}},
             "memory": {"laneql": {"max_rss_mb": 700.0}, "duckdb": {"rss_mb": 950.0, "max_rss_mb": 1500.0}}}
    wasm = {"repeat": 3, "peak_rss_mb": {"laneql-wasm": 1200.0, "duckdb-wasm": 2400.0},
            "engine_info": {"laneql-wasm": {"flavour": "simd128"}}, "results": [
                {"q": 1, "engines": {"laneql-wasm": timed(50.0), "duckdb-wasm": timed(200.0)}, "check": "ok",
                 "notes": []},
                {"q": 2, "engines": {"laneql-wasm": {"error": "out of memory"}, "duckdb-wasm": timed(90.0)},
                 "check": "not checked: laneql-wasm failed", "notes": []}]}
    return {"sf": 1, "repeat": 3, "engines": ["laneql", "duckdb", "chdb", "polars"], "query_count": 2,
            "threads": [2], "phases": [phase], "wasm": wasm,
            "machine": {"cpu": "Test CPU", "cpus": 2, "cores": 2, "threads_per_core": 1, "memory_gib": 8,
                        "os": "Linux", "load_start": "1.0", "load_end": "1.2"},
            "data": {"csv_folder": "build/tpch/sf1", "fingerprint_aggregates": 61, "duration_s": 30},
            "command": "python bench/tpch/run.py --sf 1", "started": "2026-01-01 00:00 UTC", "duration_s": 99}


class ReportTest(unittest.TestCase):
    def setUp(self):
        self.text = tpch_report.render(document())

    def test_query_rows_ratios_and_checks(self):
        self.assertIn("# TPC-H SF 1: laneql vs DuckDB, chDB, Polars", self.text)
        self.assertIn("## Native, 2 threads", self.text)
        # Q1: laneql 10 ms against DuckDB 20, chDB 40, Polars 5.
        self.assertRegex(self.text, r"\| 1 \| 10\.0 \| 20\.0 \| 40\.0 \| 5\.0+ \| 0\.50 \| 0\.25 \| 2\.00 \| ok \|")
        self.assertIn("| 13 |", self.text)
        self.assertIn("**chDB: MISMATCH**", self.text)
        self.assertIn("Polars n/a: SQLInterfaceError: correlated subquery", self.text)

    def test_memory_table(self):
        self.assertIn("| engine | 2 threads: after load | 2 threads: peak |", self.text)
        self.assertIn("| laneql | - | 700 |", self.text)
        self.assertIn("| DuckDB | 900 | 1500 |", self.text)
        self.assertIn("laneql-wasm 1200 MB, duckdb-wasm 2400 MB", self.text)

    def test_wasm_table(self):
        self.assertIn("| 1 | 50.0 | 200 | 0.25 | ok |", self.text)
        self.assertIn("| 2 | error | 90.0 | - | **not checked: laneql-wasm failed** |", self.text)
        self.assertIn("- #2: laneql-wasm: out of memory", self.text)
        self.assertIn("1 query every engine ran", self.text)

    def test_wasm_error_and_absence(self):
        doc = document()
        doc["wasm"] = {"error": "no laneql npm package"}
        self.assertIn("Not measured: no laneql npm package", tpch_report.render(doc))
        doc["wasm"] = None
        self.assertNotIn("laneql-wasm vs duckdb-wasm", tpch_report.render(doc))

    def test_setup(self):
        self.assertIn("tpchgen-cli's CSV files at SF 1 in `build/tpch/sf1`", self.text)
        self.assertIn("a 61-aggregate fingerprint", self.text)
        self.assertIn("2 threads, DuckDB: DuckDB 2.0.0 (threads: 2)", self.text)

    def test_known_cause_of_a_mismatch(self):
        doc = document()
        doc["phases"][0]["results"][1]["q"] = 15  # chDB's MISMATCH, a listed cause for Q15
        text = tpch_report.render(doc)
        self.assertIn("#15: chDB's answer differs, known cause: Q15 keeps", text)
        self.assertEqual(1, tpch_report.render(doc).count("known cause"))  # added once

    def test_chart_names_the_scale_factor(self):
        svg = chart.render(document(), "TPC-H SF 1")
        self.assertIn("TPC-H SF 1</text>", svg)
        self.assertTrue(svg.startswith("<svg"))


class PartsTest(unittest.TestCase):
    def test_one_line_drops_comments_and_semicolon(self):
        self.assertEqual(run.one_line("-- Q1\nSELECT a, -- the key\n  b\nFROM t;\n"), "SELECT a, b FROM t")

    def test_dialects(self):
        self.assertEqual(tpch_dialects.adapt("duckdb", 1, "SELECT 1"), ("SELECT 1", None))
        saved = dict(tpch_dialects.ADJUSTMENTS)
        try:
            tpch_dialects.ADJUSTMENTS["chdb"] = {3: ([("a", "b")], "why")}
            self.assertEqual(tpch_dialects.adapt("chdb", 3, "SELECT a"), ("SELECT b", "why"))
            with self.assertRaises(ValueError):
                tpch_dialects.adapt("chdb", 3, "SELECT c")
        finally:
            tpch_dialects.ADJUSTMENTS.clear()
            tpch_dialects.ADJUSTMENTS.update(saved)
        self.assertIn("SET join_use_nulls = 1", tpch_dialects.SETTINGS["chdb"])

    def test_fingerprint(self):
        sql = tpch_dataset.fingerprint_sql("t", [("a", "BIGINT"), ("s", "VARCHAR"), ("d", "DATE"),
                                                 ("x", "DOUBLE"), ("b", "BOOLEAN")])
        self.assertEqual(sql, "SELECT count(*), sum(a), sum(strlen(s)), min(d), max(d), sum(x) FROM t")
        self.assertTrue(tpch_dataset._same(1.0, 1.0 + 1e-12))
        self.assertFalse(tpch_dataset._same(1.0, 1.001))
        self.assertTrue(tpch_dataset._same(5, 5))
        self.assertFalse(tpch_dataset._same(None, 1.0))

    def test_arguments(self):
        args = run.parse_args(["--sf", "0.1", "--queries", "1,3-4", "--threads", "2"])
        self.assertEqual((args.sf, args.query_numbers, args.thread_counts), (0.1, [1, 3, 4], [2]))
        with self.assertRaises(SystemExit):
            run.parse_args(["--engines", "chdb,polars"])
        with self.assertRaises(SystemExit):
            run.parse_args(["--queries", "23"])


if __name__ == "__main__":
    unittest.main()
