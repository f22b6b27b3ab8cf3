#!/usr/bin/env python3
"""End-to-end tests of laneql's query limits: --memory-limit and --timeout, the .memory_limit and
.timeout dot commands, and their error messages (README, "Limits").

    python3 tests/cli/test_cli_limits.py --laneql build/native/native-cli/laneql

(Ctrl-C cancelling a running query in the shell is tested in test_cli_repl.py.)
"""
import unittest

import cli_harness
from cli_harness import laneql, parse_tsv

ROWS = "200000"
# 200,000 rows of hits: nearly as many distinct WatchIDs, far more than 2 MiB of GROUP BY hash table.
MANY_GROUPS = "SELECT WatchID, count(*) AS c FROM hits GROUP BY WatchID ORDER BY c DESC LIMIT 1"
# Tens of milliseconds at least: string groups, then a sort of them.
SLOW = "SELECT URL, count(*) AS c FROM hits GROUP BY URL ORDER BY URL"


def run(*args, check):
    return laneql(*args, "--rows", ROWS, "--format", "tsv", check=check)


class MemoryLimit(unittest.TestCase):
    def test_over_the_limit_fails_with_the_limit_and_what_grew(self):
        err = run("-c", MANY_GROUPS, "--memory-limit", "2MiB", check=1).stderr
        # Two threads grow the hash table and the aggregate states side by side; whichever
        # crosses the limit first is named, and on a loaded machine either can be first.
        self.assertRegex(err, r"out of memory: the query needs more than the memory limit of "
                              r"2 MiB \(while growing the (GROUP BY hash table|aggregate states)\)")
        # Without the limit (and with a roomy one) the same query answers, the same way.
        expected = run("-c", MANY_GROUPS, check=0).stdout
        header, rows = parse_tsv(expected)
        self.assertEqual((header, len(rows)), (["WatchID", "c"], 1))
        for flags in (["--memory-limit", "none"], ["--memory-limit", "4GB"]):
            self.assertEqual(run("-c", MANY_GROUPS, *flags, check=0).stdout, expected, flags)

    def test_small_queries_fit_under_a_small_limit(self):
        out = run("-c", "SELECT count(*), max(ResolutionWidth) FROM hits", "--memory-limit", "2MB",
                  check=0).stdout
        self.assertEqual(parse_tsv(out)[1][0][0], ROWS)

    def test_dot_command_sets_and_reports_the_limit(self):
        script = (".memory_limit 1.5GiB\n.memory_limit 2MiB\n"
                  "SELECT count(*) FROM hits;\n.memory_limit none\n" + MANY_GROUPS + ";\n")
        proc = laneql("--rows", ROWS, "--format", "tsv", input=script, check=0)
        self.assertIn("memory limit: 1.5 GiB\nmemory limit: 2 MiB\n", proc.stdout)
        self.assertIn("memory limit: no limit\n", proc.stdout)
        self.assertIn(ROWS + "\n", proc.stdout)
        # The limit applies to the statements after it; a script stops at the failing one.
        script = ".memory_limit 2MiB\n" + MANY_GROUPS + ";\nSELECT 42 AS after;\n"
        proc = laneql("--rows", ROWS, "--format", "tsv", input=script, check=1)
        self.assertIn("memory limit of 2 MiB", proc.stderr)
        self.assertNotIn("42", proc.stdout)

    def test_bad_sizes_are_usage_errors(self):
        for value in ("lots", "12XB", "-5MB", "0.1B", ""):
            err = run("-c", "SELECT 1", "--memory-limit", value, check=2).stderr
            self.assertIn("--memory-limit", err, value)
        proc = laneql(input=".memory_limit plenty\n", check=1)
        self.assertIn(".memory_limit: a memory limit is a size such as 512MB", proc.stderr)
        self.assertIn("line 1", proc.stderr)


class Timeout(unittest.TestCase):
    def test_a_slow_query_times_out_and_a_generous_timeout_changes_nothing(self):
        err = run("-c", SLOW, "--timeout", "1ms", check=1).stderr
        self.assertIn("query timed out after 1 ms", err)
        expected = run("-c", SLOW, check=0).stdout
        self.assertEqual(run("-c", SLOW, "--timeout", "10min", check=0).stdout, expected)

    def test_dot_command_and_bad_durations(self):
        proc = laneql(input=".timeout 5s\n.timeout 250ms\n.timeout none\n", check=0)
        self.assertEqual(proc.stdout, "timeout: 5 s\ntimeout: 250 ms\ntimeout: no timeout\n")
        for value in ("soon", "5h", "0.1ms"):
            err = run("-c", "SELECT 1", "--timeout", value, check=2).stderr
            self.assertIn("--timeout", err, value)


if __name__ == "__main__":
    cli_harness.main()
