#!/usr/bin/env python3
"""End-to-end tests of `laneql -c`: run the built binary over small generated hits tables and
check what it prints, in every format, its exit statuses and its --profile file.

    python3 tests/cli/test_cli.py --laneql build/native/native-cli/laneql [unittest options]

ctest runs it (tests/cli/CMakeLists.txt). Expected numbers never come from a hard-coded copy of
the generator's data: each answer is checked against other queries that compute the same
numbers another way (a grouped count against filtered counts, a sum of groups against count(*)).
"""
import csv
import io
import json
import os
import pty
import re
import subprocess
import tempfile
import unittest

import cli_harness
from cli_harness import ROWS, laneql, query, scalar

# Queries whose whole output is fixed by their ORDER BY (no ties left to the engine), with float
# sums and averages (AVG), strings and dates, so that thread counts can be compared byte for byte.
DETERMINISTIC_QUERIES = [
    "SELECT count(*), sum(AdvEngineID), avg(ResolutionWidth), avg(UserID) FROM hits",
    "SELECT RegionID, count(*) AS c, avg(ResolutionWidth), sum(IsRefresh) FROM hits "
    "GROUP BY RegionID ORDER BY c DESC, RegionID",
    "SELECT SearchPhrase, count(*) AS c FROM hits WHERE SearchPhrase <> '' "
    "GROUP BY SearchPhrase ORDER BY c DESC, SearchPhrase LIMIT 20",
    "SELECT min(EventDate), max(EventDate), count(DISTINCT UserID) FROM hits",
    "SELECT CounterID, avg(length(URL)) AS l, count(*) AS c FROM hits WHERE URL <> '' "
    "GROUP BY CounterID ORDER BY l DESC, CounterID LIMIT 25",
]


class QueryResults(unittest.TestCase):
    def test_count_star_is_the_row_count(self):
        self.assertEqual(scalar("SELECT count(*) FROM hits"), str(ROWS))
        self.assertEqual(scalar("SELECT count(*) FROM hits", rows=2345), "2345")

    def test_grouped_counts_match_filtered_counts(self):
        header, body = query("SELECT AdvEngineID, count(*) AS c FROM hits "
                             "GROUP BY AdvEngineID ORDER BY c DESC, AdvEngineID")
        self.assertEqual(header, ["AdvEngineID", "c"])
        self.assertGreater(len(body), 0)
        self.assertEqual(sum(int(c) for _, c in body), ROWS)
        # Each group's count, computed independently by a filtered count.
        for engine, count in body[:3]:
            self.assertEqual(
                scalar(f"SELECT count(*) FROM hits WHERE AdvEngineID = {engine}"), count)
        # ... and the sum of AdvEngineID from the groups equals SUM over the table.
        self.assertEqual(sum(int(e) * int(c) for e, c in body),
                         int(scalar("SELECT sum(AdvEngineID) FROM hits")))

    def test_seed_changes_the_data_and_is_reproducible(self):
        sql = "SELECT sum(UserID) FROM hits"
        a = scalar(sql, "--seed", "7")
        self.assertEqual(scalar(sql, "--seed", "7"), a)
        self.assertNotEqual(scalar(sql, "--seed", "8"), a)
        # The default seed is the one --help names ("... (default 1000000 rows, seed 1)").
        help_text = laneql("--help", check=0).stdout
        self.assertIn("-c SQL", help_text)
        default_seed = re.search(r"(?:--seed, default |seed )(\d+)\)", help_text).group(1)
        self.assertEqual(scalar(sql), scalar(sql, "--seed", default_seed))

    def test_flag_spellings(self):
        sql = "SELECT count(*) FROM hits"
        out = laneql("-c", sql, "--rows=17", "--format=csv", "--threads=1", check=0).stdout
        self.assertEqual(out.split("\n")[1], "17")


class Formats(unittest.TestCase):
    SQL = ("SELECT RegionID, count(*) AS c, max(SearchPhrase) AS p, min(EventDate) AS d "
           "FROM hits GROUP BY RegionID ORDER BY c DESC, RegionID LIMIT 5")

    def run_format(self, fmt):
        return laneql("-c", self.SQL, "--rows", str(ROWS), "--format", fmt, check=0).stdout

    def test_every_format_prints_the_same_values(self):
        header, body = query(self.SQL)
        self.assertEqual(header, ["RegionID", "c", "p", "d"])
        self.assertEqual(len(body), 5)

        rows = list(csv.reader(io.StringIO(self.run_format("csv"))))
        self.assertEqual(rows[0], header)
        self.assertEqual(rows[1:], body)

        objects = json.loads(self.run_format("json"))
        self.assertEqual([list(o.keys()) for o in objects], [header] * 5)
        self.assertEqual([[str(o["RegionID"]), str(o["c"]), o["p"], o["d"]] for o in objects],
                         body)

        markdown = self.run_format("markdown").rstrip("\n").split("\n")
        self.assertEqual(len(markdown), 2 + 5)
        self.assertTrue(all(line.startswith("|") and line.endswith("|") for line in markdown))
        self.assertEqual([c.strip() for c in markdown[0].strip("|").split("|")], header)
        self.assertEqual([[c.strip() for c in line.strip("|").split("|")] for line in markdown[2:]],
                         body)

        table = self.run_format("table")
        self.assertIn("(5 rows)", table)
        for line, row in zip(table.split("\n")[2:7], body):
            self.assertEqual([c.strip() for c in line.split("|")], row)

    def test_default_is_tsv_when_not_a_terminal(self):
        out = laneql("-c", self.SQL, "--rows", str(ROWS), check=0).stdout
        self.assertEqual(out, self.run_format("tsv"))

    def test_default_is_table_on_a_terminal(self):
        try:
            master, slave = pty.openpty()
        except OSError as e:  # a sandbox without /dev/pts
            self.skipTest(f"no pseudo-terminal here: {e}")
        try:
            proc = subprocess.Popen([cli_harness.LANEQL, "-c", self.SQL, "--rows", str(ROWS)],
                                    stdout=slave, stderr=subprocess.PIPE)
            os.close(slave)
            slave = None
            out = b""
            while True:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # EIO: the child closed the terminal
                    break
                if not chunk:
                    break
                out += chunk
            self.assertEqual(proc.wait(timeout=300), 0, proc.stderr.read())
            proc.stderr.close()
        finally:
            os.close(master)
            if slave is not None:
                os.close(slave)
        # The terminal turns "\n" into "\r\n".
        self.assertEqual(out.decode().replace("\r\n", "\n"), self.run_format("table"))


class ExitStatuses(unittest.TestCase):
    def assert_fails(self, status, args, *in_stderr):
        proc = laneql(*args, check=status)
        self.assertEqual(proc.stdout, "")
        self.assertTrue(proc.stderr.strip(), "the error message goes to stderr")
        for text in in_stderr:
            self.assertIn(text, proc.stderr)
        return proc.stderr

    def test_query_errors_exit_1_with_the_place(self):
        self.assert_fails(1, ["-c", "SELECT NoSuchColumn FROM hits", "--rows", "10"],
                          "NoSuchColumn", "line 1", "column 8")
        self.assert_fails(1, ["-c", "SELECT count(*)\nFROM hits WHERE", "--rows", "10"],
                          "line 2")
        self.assert_fails(1, ["-c", "SELECT 1 FROM no_such_table", "--rows", "10"],
                          "no_such_table")

    def test_usage_errors_exit_2(self):
        sql = "SELECT 1"
        self.assert_fails(2, ["-c"], "missing SQL")
        self.assert_fails(2, ["-c", "  "], "empty")
        self.assert_fails(2, ["-c", sql, "--bogus"], "--bogus")
        self.assert_fails(2, ["-c", sql, "--bogus=1"], "--bogus")
        self.assert_fails(2, ["-c", sql, "--rows"], "--rows needs a value")
        self.assert_fails(2, ["-c", sql, "--rows", "ten"], "--rows", "ten")
        self.assert_fails(2, ["-c", sql, "--rows", "-5"], "--rows")
        self.assert_fails(2, ["-c", sql, "--rows", "1e3"], "--rows")
        self.assert_fails(2, ["-c", sql, "--seed", "x"], "--seed")
        self.assert_fails(2, ["-c", sql, "--threads", "two"], "--threads")
        self.assert_fails(2, ["-c", sql, "--threads", "100000"], "--threads")
        self.assert_fails(2, ["-c", sql, "--format", "xml"], "--format", "xml")
        self.assert_fails(2, ["-c", sql, "--profile", ""], "--profile")
        self.assert_fails(2, ["-c", sql, "extra"], "extra")


class Threads(unittest.TestCase):
    ROWS = 100_000  # several morsels, so that two threads have work to split

    def test_one_and_two_threads_print_the_same_bytes(self):
        for sql in DETERMINISTIC_QUERIES:
            for fmt in ("tsv", "json"):
                outs = [laneql("-c", sql, "--rows", str(self.ROWS), "--threads", str(t),
                               "--format", fmt, check=0).stdout for t in (1, 2)]
                self.assertEqual(outs[0], outs[1], f"{sql} ({fmt})")
                self.assertGreater(len(outs[0].split("\n")), 2)

    def test_default_thread_count_prints_the_same_bytes(self):
        sql = DETERMINISTIC_QUERIES[1]
        flags = ["--rows", str(self.ROWS), "--format", "tsv"]
        self.assertEqual(laneql("-c", sql, *flags, check=0).stdout,
                         laneql("-c", sql, *flags, "--threads", "1", check=0).stdout)


class Profile(unittest.TestCase):
    def test_profile_file_is_trace_event_json(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "q.json")
            sql = DETERMINISTIC_QUERIES[1]
            proc = laneql("-c", sql, "--rows", "50000", "--threads", "2", "--profile", path,
                          "--format", "tsv", check=0)
            # Profiling must not change the answer.
            self.assertEqual(proc.stdout, laneql("-c", sql, "--rows", "50000", "--threads", "2",
                                                 "--format", "tsv", check=0).stdout)
            if not os.path.exists(path):
                # An engine without the profiler records nothing: the CLI must say so, and then
                # there is nothing more to check here.
                self.assertIn("records no query profile", proc.stderr)
                self.skipTest("this build's engine records no profile (laneql says so)")
            self.assertNotIn("records no query profile", proc.stderr)
            with open(path, encoding="utf-8") as f:
                trace = json.load(f)
        events = trace["traceEvents"]
        names = [e for e in events if e.get("ph") == "M" and e.get("name") == "thread_name"]
        self.assertGreaterEqual(len(names), 1)
        self.assertTrue(all(isinstance(e["args"]["name"], str) for e in names))
        # Span events ("X") are asserted in detail by the kernel tests; here only their shape,
        # and only where the file has any.
        categories = {"scan", "aggregate", "convert", "merge", "sort", "output"}
        for span in (e for e in events if e.get("ph") == "X"):
            self.assertIn(span["cat"], categories)
            self.assertGreaterEqual(span["dur"], 0)
            self.assertGreaterEqual(span["ts"], 0)


if __name__ == "__main__":
    cli_harness.main()
