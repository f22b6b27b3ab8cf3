#!/usr/bin/env python3
"""End-to-end tests of `laneql bench` and `laneql info` (README, "The `laneql` program"): the report per
query, the --json document (keys and types), how a query file is split into queries, a failing
query reported without failing the command, and the option errors.

    python3 tests/cli/test_cli_bench.py --laneql build/native/native-cli/laneql

The rows bench reports are checked against the same queries run with `laneql -c`, the version
and targets against `laneql info --json`.
"""
import json
import os
import re
import tempfile
import unittest

import cli_harness
from cli_harness import laneql, nonempty_lines, write_text

TABLE_ROWS = 5000

# One per line (a `;` only inside a string), with a blank line and a failing query (3rd).
LINE_QUERIES = [
    "SELECT count(*) FROM h",
    "SELECT RegionID, count(*) AS c FROM h GROUP BY RegionID ORDER BY c DESC, RegionID LIMIT 5",
    "SELECT nope FROM h",
    "SELECT SearchPhrase FROM h WHERE SearchPhrase <> '' AND SearchPhrase <> ';' LIMIT 7",
]

# `;`-separated: multi-line queries, a comment and a string holding `;`.
SEMICOLON_FILE = ("-- the first query; counts\n"
                  "SELECT count(*)\n"
                  "  FROM h;\n"
                  "SELECT count(*) FROM h WHERE SearchPhrase <> ';';\n"
                  "\n"
                  "SELECT RegionID FROM h\n"
                  "  LIMIT 3;\n")
SEMICOLON_QUERIES = ["SELECT count(*) FROM h",
                     "SELECT count(*) FROM h WHERE SearchPhrase <> ';'",
                     "SELECT RegionID FROM h LIMIT 3"]

TOP_KEYS = {"version": str, "target": str, "threads": int, "table_rows": int, "queries": list}
QUERY_KEYS = {"index", "sql", "rows", "min_ms", "median_ms", "cpu_min_ms", "cpu_median_ms", "error"}


def normalized(sql):
    return " ".join(sql.split()).rstrip(";").strip()


class Bench(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls._tmp = tempfile.TemporaryDirectory()
        cls.tmp = cls._tmp.name
        cls.table = os.path.join(cls.tmp, "h.laneql")
        laneql("--rows", str(TABLE_ROWS), "-c", f"COPY hits TO '{cls.table}'", check=0)
        cls.lines_file = write_text(os.path.join(cls.tmp, "lines.sql"),
                                    "\n".join(LINE_QUERIES[:2]) + "\n\n" +
                                    "\n".join(LINE_QUERIES[2:]) + "\n")
        cls.semi_file = write_text(os.path.join(cls.tmp, "semi.sql"), SEMICOLON_FILE)
        cls.info = json.loads(laneql("info", "--json", check=0).stdout)

    @classmethod
    def tearDownClass(cls):
        cls._tmp.cleanup()

    def rows_of(self, sql):
        """The number of rows `laneql -c` returns for sql over the table."""
        out = laneql("--table", f"h={self.table}", "--format", "tsv", "-c", sql, check=0).stdout
        return len(out.split("\n")) - 2  # header and the final empty string

    def bench_json(self, queries_file, *flags):
        out = os.path.join(self.tmp, "bench.json")
        if os.path.exists(out):
            os.remove(out)
        proc = laneql("bench", "--queries", queries_file, "--table", f"h={self.table}",
                      "--json", out, *flags, check=0)
        with open(out, encoding="utf-8") as f:
            return proc, json.load(f)

    def check_document(self, doc, queries):
        self.assertEqual(set(doc), set(TOP_KEYS))
        for key, kind in TOP_KEYS.items():
            self.assertIs(type(doc[key]), kind, key)
        self.assertEqual(doc["version"], self.info["version"])
        self.assertIn(doc["target"], self.info["supported_targets"])
        self.assertEqual(doc["table_rows"], TABLE_ROWS)
        self.assertEqual(len(doc["queries"]), len(queries))
        for i, (q, sql) in enumerate(zip(doc["queries"], queries), start=1):
            self.assertEqual(set(q), QUERY_KEYS)
            self.assertIs(type(q["index"]), int)
            self.assertEqual(q["index"], i)
            self.assertIs(type(q["sql"]), str)
            self.assertEqual(normalized(q["sql"])[-len(sql):], sql)  # a comment may lead

    def check_ok(self, q, sql):
        self.assertIsNone(q["error"], q)
        self.assertIs(type(q["rows"]), int)
        self.assertEqual(q["rows"], self.rows_of(sql), sql)
        self.assertIs(type(q["min_ms"]), float, q)
        self.assertIs(type(q["median_ms"]), float, q)
        self.assertGreaterEqual(q["min_ms"], 0.0)
        self.assertLessEqual(q["min_ms"], q["median_ms"])
        # The process's CPU time in the runs: every thread's, so not bounded by the wall time.
        self.assertIs(type(q["cpu_min_ms"]), float, q)
        self.assertIs(type(q["cpu_median_ms"]), float, q)
        self.assertGreaterEqual(q["cpu_min_ms"], 0.0)
        self.assertLessEqual(q["cpu_min_ms"], q["cpu_median_ms"])

    def test_json_document_one_query_per_line(self):
        proc, doc = self.bench_json(self.lines_file, "--runs", "2", "--threads", "2")
        self.check_document(doc, LINE_QUERIES)
        self.assertEqual(doc["threads"], 2)
        for q, sql in zip(doc["queries"], LINE_QUERIES):
            if "nope" in sql:
                # The failing query is reported, and the command still succeeds.
                self.assertIsNone(q["rows"])
                self.assertIsNone(q["min_ms"])
                self.assertIsNone(q["median_ms"])
                self.assertIsNone(q["cpu_median_ms"])
                self.assertIs(type(q["error"]), str)
                self.assertIn("nope", q["error"])
            else:
                self.check_ok(q, sql)
        self.assertEqual(proc.returncode, 0)

    def test_semicolon_separated_file(self):
        _, doc = self.bench_json(self.semi_file, "--runs", "1")
        self.check_document(doc, SEMICOLON_QUERIES)
        for q, sql in zip(doc["queries"], SEMICOLON_QUERIES):
            self.check_ok(q, sql)

    def test_cpu_time_counts_every_thread(self):
        # A query that keeps both threads busy: its CPU time passes its wall time.
        heavy = write_text(os.path.join(self.tmp, "heavy.sql"),
                           "SELECT URL, count(*) AS c FROM h GROUP BY URL ORDER BY c DESC LIMIT 3\n")
        _, doc = self.bench_json(heavy, "--runs", "3", "--threads", "1")
        q = doc["queries"][0]
        self.check_ok(q, "SELECT URL, count(*) AS c FROM h GROUP BY URL ORDER BY c DESC LIMIT 3")
        # One thread: CPU time is at most the wall time (plus clock granularity).
        self.assertLessEqual(q["cpu_min_ms"], q["median_ms"] * 3 + 1.0)
        self.assertGreater(q["cpu_median_ms"], 0.0)

    def test_profile_dir_writes_a_trace_per_query(self):
        traces = os.path.join(self.tmp, "traces")
        os.makedirs(traces, exist_ok=True)
        proc, doc = self.bench_json(self.lines_file, "--runs", "1", "--profile-dir", traces)
        self.assertEqual(proc.returncode, 0)
        for q, sql in zip(doc["queries"], LINE_QUERIES):
            path = os.path.join(traces, "q%d.json" % q["index"])
            if "nope" in sql:
                self.assertFalse(os.path.exists(path))  # a failing query has no trace
                continue
            with open(path, encoding="utf-8") as f:
                trace = json.load(f)
            self.assertEqual(normalized(trace["otherData"]["query"]), sql)
            # Spans carry their thread's CPU time; no span's CPU time passes its duration much.
            # (count(*) is answered from the row count: no span at all.)
            timed = [e for e in trace["traceEvents"] if e["ph"] == "X" and "cpu_us" in e["args"]]
            self.assertEqual(bool(timed), "GROUP BY" in sql or "LIMIT" in sql, path)
            for e in timed:
                self.assertGreaterEqual(e["args"]["cpu_us"], 0.0)
                self.assertLessEqual(e["args"]["cpu_us"], e["dur"] + 50.0, e)
        proc = laneql("bench", "--queries", self.lines_file, "--table", f"h={self.table}", "--runs", "1",
                      "--profile-dir", os.path.join(self.tmp, "no", "such", "dir"), check=1)
        self.assertIn("profile", proc.stderr)

    def test_text_report_has_a_line_per_query(self):
        proc = laneql("bench", "--queries", self.lines_file, "--table", f"h={self.table}",
                      "--runs", "1", check=0)
        text = proc.stdout
        for word in ("rows", "min", "median"):
            self.assertIn(word, text.lower())
        lines = nonempty_lines(text)
        for i, sql in enumerate(LINE_QUERIES, start=1):
            # The line of query i starts with its index (after table borders or a '#').
            found = [l for l in lines if re.match(rf"^[\s|#Qq]*{i}\b", l)]
            self.assertEqual(len(found), 1, f"query {i} in:\n{text}")
            if "nope" in sql:
                self.assertIn("nope", found[0] + proc.stderr)
            else:
                tokens = re.split(r"[\s|]+", found[0].strip())
                self.assertIn(str(self.rows_of(sql)), tokens, found[0])
                # Two timings in milliseconds on the line.
                self.assertGreaterEqual(len(re.findall(r"\b\d+\.\d+\b", found[0])), 2, found[0])

    def test_target_is_reported(self):
        for target in (self.info["supported_targets"][-1], self.info["dispatched_target"]):
            _, doc = self.bench_json(self.semi_file, "--runs", "1", "--target", target)
            self.assertEqual(doc["target"], target)

    def test_option_errors(self):
        base = ["bench", "--queries", self.lines_file, "--table", f"h={self.table}"]
        for runs in ("0", "-1", "x", "1.5", ""):
            proc = laneql(*base, "--runs", runs, check=2)
            self.assertIn("--runs", proc.stderr, runs)
            self.assertEqual(proc.stdout, "")
        cases = [
            (["bench", "--table", f"h={self.table}"], "--queries"),
            (["bench", "--queries", self.lines_file], "--table"),
            (["bench", "--queries", self.lines_file, "--table", "noequals"], "--table"),
            ([*base, "--target", "BOGUS"], "BOGUS"),
            ([*base, "--bogus"], "--bogus"),
            ([*base, "--runs"], "--runs"),
        ]
        for args, text in cases:
            proc = laneql(*args, check=2)
            self.assertIn(text, proc.stderr, args)
            self.assertEqual(proc.stdout, "")
        for missing_args, name in (
                (["bench", "--queries", os.path.join(self.tmp, "none.sql"), "--table",
                  f"h={self.table}"], "none.sql"),
                (["bench", "--queries", self.lines_file, "--table",
                  f"h={os.path.join(self.tmp, 'none.laneql')}"], "none.laneql")):
            proc = laneql(*missing_args, check=1)
            self.assertIn(name, proc.stderr)
            self.assertEqual(proc.stdout, "")


class Info(unittest.TestCase):
    KEYS = {"version": str, "cpu": str, "compiled_targets": list, "supported_targets": list,
            "dispatched_target": str, "logical_processors": int, "threads": int}

    def test_json_keys_and_types(self):
        info = json.loads(laneql("info", "--json", check=0).stdout)
        self.assertEqual(set(info), set(self.KEYS))
        for key, kind in self.KEYS.items():
            self.assertIs(type(info[key]), kind, key)
        for key in ("compiled_targets", "supported_targets"):
            self.assertTrue(info[key] and all(type(t) is str for t in info[key]), key)
        self.assertTrue(set(info["supported_targets"]) <= set(info["compiled_targets"]))
        self.assertIn(info["dispatched_target"], info["supported_targets"])
        self.assertGreaterEqual(info["logical_processors"], 1)
        self.assertGreaterEqual(info["threads"], 1)

    def test_target_flag_chooses_the_dispatched_target(self):
        info = json.loads(laneql("info", "--json", check=0).stdout)
        for target in info["supported_targets"]:
            chosen = json.loads(laneql("info", "--json", "--target", target, check=0).stdout)
            self.assertEqual(chosen["dispatched_target"], target)
        proc = laneql("info", "--target", "BOGUS", check=2)
        self.assertIn("BOGUS", proc.stderr)
        self.assertEqual(proc.stdout, "")

    def test_text_shows_the_json_values(self):
        info = json.loads(laneql("info", "--json", check=0).stdout)
        text = laneql("info", check=0).stdout
        for key in ("version", "cpu", "dispatched_target"):
            self.assertIn(info[key], text, key)
        for target in info["compiled_targets"]:
            self.assertIn(target, text)
        self.assertIn(info["version"], laneql("--version", check=0).stdout)


if __name__ == "__main__":
    cli_harness.main()
