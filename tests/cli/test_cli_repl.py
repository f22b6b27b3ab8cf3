#!/usr/bin/env python3
"""End-to-end tests of the laneql REPL (README, "The `laneql` program"), driven through a
pseudo-terminal as a user types: prompts, results as tables, statements over several lines, dot
commands, errors that keep it running, Ctrl-C while typing and while a query runs, .quit and
Ctrl-D, and the history file.

    python3 tests/cli/test_cli_repl.py --laneql build/native/native-cli/laneql

Every wait reads until a pattern appears, with a deadline (cli_harness.Terminal.expect); results
are compared with what `laneql -c` prints for the same SQL.
"""
import os
import re
import tempfile
import time
import unittest

import cli_harness
from cli_harness import Terminal, laneql, openpty_or_skip

PROMPT = r"laneql> "
CONTINUATION = r"   \.\.\.> "
ROWS = 2000
SQL = ("SELECT AdvEngineID, count(*) AS c FROM hits GROUP BY AdvEngineID "
       "ORDER BY c DESC, AdvEngineID;")
# Several exact distinct counts and a large grouping: seconds over 3 million rows, long enough to
# be interrupted half a second in.
LONG_ROWS = 3_000_000
LONG_SQL = ("SELECT count(DISTINCT URL) AS urls, count(DISTINCT Referer) AS refs, "
            "count(DISTINCT UserID) AS users, count(DISTINCT SearchPhrase) AS phrases, "
            "count(DISTINCT Title) AS titles, count(DISTINCT ClientIP) AS ips FROM hits;")


def printed(sql, fmt="table"):
    """What `laneql -c` prints for sql, without trailing newlines."""
    return laneql("-c", sql, "--rows", str(ROWS), "--format", fmt, check=0).stdout.rstrip("\n")


class Repl(unittest.TestCase):
    def setUp(self):
        for fd in openpty_or_skip(self):  # skips where there are no pseudo-terminals
            os.close(fd)
        self._tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self._tmp.cleanup)
        self.history = os.path.join(self._tmp.name, "history")

    def start(self, *args, rows=ROWS, history=True):
        env = dict(os.environ, TERM="dumb", HOME=self._tmp.name)  # no ~/.editrc, no ~ history
        env.pop("LANEQL_HISTORY", None)
        if history:
            env["LANEQL_HISTORY"] = self.history
        t = Terminal(["--rows", str(rows), *args], env)
        self.addCleanup(t.close)
        t.expect(PROMPT, timeout=30)
        return t

    def run_line(self, t, line, timeout=60, prompt=PROMPT):
        """Types line and Enter; returns the output up to the next prompt (which it consumes)."""
        t.settle()
        t.sendline(line)
        # The echo of the line, ended by Enter: prompts redrawn while typing lie before it.
        t.expect(re.escape(line[-30:]) + r"[ \t]*\n", timeout=10)
        start = t.pos
        t.expect(prompt, timeout=timeout)
        return t.text[start:t.pos - len(prompt.replace("\\", ""))]

    def quit(self, t, command=".quit"):
        t.settle()
        t.sendline(command)
        self.assertEqual(t.wait(), 0, t.text[-2000:])

    def test_query_prints_a_table(self):
        t = self.start()
        self.assertIn(printed(SQL), self.run_line(t, SQL))
        self.quit(t)

    def test_statement_over_two_lines(self):
        t = self.start()
        first, second = SQL.split(" GROUP BY ")
        t.settle()
        t.sendline(first)
        t.expect(re.escape(first[-30:]) + r"[ \t]*\n", timeout=10)
        t.expect(CONTINUATION)
        self.assertIn(printed(SQL), self.run_line(t, "GROUP BY " + second))
        # A `;` inside a string does not end the statement.
        t.settle()
        t.sendline("SELECT count(*) AS n FROM hits WHERE SearchPhrase <> ';'")
        t.expect(CONTINUATION)
        out = self.run_line(t, ";")
        self.assertIn(printed("SELECT count(*) AS n FROM hits WHERE SearchPhrase <> ';'"), out)
        self.quit(t)

    def test_dot_commands(self):
        t = self.start()
        self.assertIn("hits", self.run_line(t, ".tables").split())
        self.assertIn("CREATE TABLE hits (", self.run_line(t, ".schema hits"))
        help_text = self.run_line(t, ".help")
        for command in (".tables", ".schema", ".mode", ".timer", ".threads", ".quit"):
            self.assertIn(command, help_text)
        self.run_line(t, ".mode csv")
        self.assertIn(printed(SQL, "csv"), self.run_line(t, SQL))
        self.run_line(t, ".timer on")
        self.assertRegex(self.run_line(t, SQL), r"(?m)^Run Time: \d+\.\d{3} ms$")
        self.run_line(t, ".timer off")
        self.assertNotIn("Run Time", self.run_line(t, SQL))
        self.run_line(t, ".threads 1")
        self.assertIn(printed(SQL, "csv"), self.run_line(t, SQL))
        self.run_line(t, ".mode table")
        self.assertIn(printed(SQL), self.run_line(t, SQL))
        # A bad dot command is reported, and the REPL goes on.
        self.assertIn(".bogus", self.run_line(t, ".bogus"))
        self.assertIn(printed(SQL), self.run_line(t, SQL))
        self.quit(t, ".exit")

    def test_errors_keep_the_repl_running(self):
        t = self.start()
        out = self.run_line(t, "SELECT nope FROM hits;")
        self.assertIn("nope", out)
        self.assertIn("line 1", out)
        out = self.run_line(t, "SELECT count(*) FROM no_such_table;")
        self.assertIn("no_such_table", out)
        self.assertIn(printed(SQL), self.run_line(t, SQL))
        self.quit(t)

    def test_ctrl_c_while_typing_discards_the_line(self):
        t = self.start()
        t.settle()
        t.send("SELECT garbage_text")
        t.expect("garbage_text", timeout=10)
        t.send(b"\x03")
        t.expect(PROMPT, timeout=10)
        out = self.run_line(t, SQL)
        self.assertIn(printed(SQL), out)
        self.assertNotIn("garbage_text", out)
        # ... also in the middle of a statement over several lines.
        t.settle()
        t.sendline("SELECT more_garbage")
        t.expect(CONTINUATION, timeout=10)
        t.settle()
        t.send(b"\x03")
        t.expect(PROMPT, timeout=10)
        out = self.run_line(t, SQL)
        self.assertIn(printed(SQL), out)
        self.assertNotIn("more_garbage", out)
        self.quit(t)

    def test_ctrl_c_interrupts_a_running_query(self):
        t = self.start("--threads", "1", rows=LONG_ROWS)
        count = "SELECT count(*) AS n FROM hits;"
        self.assertIn(str(LONG_ROWS), self.run_line(t, count, timeout=180))  # generates hits
        t.settle()
        t.sendline(LONG_SQL)
        t.expect(re.escape(LONG_SQL[-30:]) + r"[ \t]*\n", timeout=10)
        started, start = time.monotonic(), t.pos
        time.sleep(0.5)
        t.send(b"\x03")
        t.expect("interrupted", timeout=60)
        # No result table ("(1 row)") came before the interruption.
        self.assertNotRegex(t.text[start:t.pos], r"\(\d+ rows?\)",
                            "the query finished before Ctrl-C")
        t.expect(PROMPT, timeout=30)
        # The REPL still works, with the same table.
        self.assertIn(str(LONG_ROWS), self.run_line(t, count, timeout=60))
        self.assertLess(time.monotonic() - started, 120)
        self.quit(t)

    def test_ctrl_d_on_an_empty_line_exits_0(self):
        t = self.start()
        t.settle()
        t.send(b"\x04")
        self.assertEqual(t.wait(), 0, t.text[-2000:])

    def test_history_is_written_and_read_back(self):
        t = self.start()
        marker = "SELECT 4242 AS marker_col FROM hits LIMIT 1;"
        self.assertIn("4242", self.run_line(t, marker))
        # Ctrl-D, not .quit, which would be the newest history entry.
        t.settle()
        t.send(b"\x04")
        self.assertEqual(t.wait(), 0)
        with open(self.history, encoding="utf-8", errors="replace") as f:
            self.assertIn("marker_col", f.read())
        # A new session reads it: Ctrl-P (previous line) and Enter run the query again.
        t = self.start()
        t.settle()
        t.send(b"\x10")
        t.expect("marker_col", timeout=10)
        t.send("\r")
        t.expect(r"4242", timeout=30)
        t.expect(PROMPT, timeout=30)
        self.quit(t)

    def test_history_defaults_to_the_home_directory(self):
        t = self.start(history=False)
        self.run_line(t, "SELECT 4343 AS home_marker FROM hits LIMIT 1;")
        self.quit(t)
        with open(os.path.join(self._tmp.name, ".laneql_history"), encoding="utf-8",
                  errors="replace") as f:
            self.assertIn("home_marker", f.read())


if __name__ == "__main__":
    cli_harness.main()
