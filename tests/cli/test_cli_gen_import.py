#!/usr/bin/env python3
"""End-to-end tests of `laneql gen hits` and `laneql import` (README, "The `laneql` program"): the files
they write (.laneql, .csv, .tsv), their determinism, that they hold the same data as the lazily
generated `hits` or the CSV they came from, their errors and exit statuses, and the progress bar
(only when stderr is a terminal).

    python3 tests/cli/test_cli_gen_import.py --laneql build/native/native-cli/laneql

Data is never compared with hard-coded generator values: a written file is queried and compared
with the same query over the generated table (or over the source CSV).
"""
import json
import os
import re
import tempfile
import unittest

import cli_harness
from cli_harness import laneql, nonempty_lines, read_bytes, run_with_tty_stderr, write_text

# Aggregates over most kinds of hits columns: integers, a big sum, strings, dates, timestamps.
HITS_CHECKS = [
    "SELECT count(*), sum(UserID), count(DISTINCT UserID), sum(ResolutionWidth) FROM {t}",
    "SELECT min(EventDate), max(EventDate), min(EventTime), max(EventTime), "
    "sum(length(URL)), count(DISTINCT SearchPhrase) FROM {t}",
    "SELECT RegionID, count(*) AS c, sum(AdvEngineID) FROM {t} "
    "GROUP BY RegionID ORDER BY c DESC, RegionID LIMIT 10",
]

PEOPLE_CSV = ('name,age,joined,score,note\n'
              'ann,30,2020-01-02,1.5,"hello, world"\n'
              'bob,,2021-03-04,2.25,"say ""hi"""\n'
              'cid,25,2019-12-31,-0.5,\n'
              'dee,41,2018-06-30,10,plain\n')


def schema_columns(text):
    """The `    col TYPE` lines of a .schema answer -> [(col, TYPE)]."""
    return [tuple(m.groups()) for m in re.finditer(r"^    (\S+) ([^,\n]+),?$", text, re.M)]


class Case(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self._tmp.cleanup)

    def path(self, name):
        return os.path.join(self._tmp.name, name)

    def gen(self, out, rows, *flags):
        """Runs gen; checks the summary line on stdout and that stderr (a pipe) stays empty."""
        proc = laneql("gen", "hits", "--rows", str(rows), "--out", out, *flags, check=0)
        lines = nonempty_lines(proc.stdout)
        self.assertEqual(len(lines), 1, proc.stdout)
        self.assertTrue(lines[0].startswith(f"wrote {rows} rows to {out}"), lines[0])
        self.assertEqual(proc.stderr, "", "no progress output when stderr is not a terminal")
        return read_bytes(out)

    def import_(self, src, out, *flags):
        proc = laneql("import", src, out, *flags, check=0)
        self.assertEqual(len(nonempty_lines(proc.stdout)), 1, proc.stdout)
        self.assertEqual(proc.stderr, "", "no progress output when stderr is not a terminal")
        return proc.stdout

    def on_table(self, table_path, sql, *flags, fmt="tsv"):
        return laneql("--table", f"t={table_path}", "--format", fmt, *flags, "-c", sql,
                      check=0).stdout

    def on_hits(self, sql, rows, *flags):
        return laneql("--rows", str(rows), "--format", "tsv", *flags, "-c", sql, check=0).stdout

    def assert_fails(self, status, args, *in_stderr):
        proc = laneql(*args, check=status)
        self.assertEqual(proc.stdout, "")
        self.assertTrue(proc.stderr.strip(), "the error message goes to stderr")
        for text in in_stderr:
            self.assertIn(text, proc.stderr, args)
        return proc.stderr


class Gen(Case):
    def test_each_format_is_written_with_a_summary_line(self):
        for ext in ("laneql", "csv", "tsv"):
            data = self.gen(self.path(f"h.{ext}"), 2000)
            self.assertGreater(len(data), 2000, ext)
        # CSV and TSV: a header and one line per row (no field of hits holds a newline).
        for ext, sep in (("csv", ","), ("tsv", "\t")):
            lines = read_bytes(self.path(f"h.{ext}")).decode().rstrip("\n").split("\n")
            self.assertIn("UserID", lines[0].split(sep))
            self.assertEqual(len(lines), 2001, ext)

    def test_bytes_do_not_depend_on_threads_or_reruns(self):
        # 20000 rows: enough for several chunks, so that two threads split the work.
        for ext in ("laneql", "csv", "tsv"):
            one = self.gen(self.path(f"t1.{ext}"), 20000, "--threads", "1", "--seed", "3")
            two = self.gen(self.path(f"t2.{ext}"), 20000, "--threads", "2", "--seed", "3")
            again = self.gen(self.path(f"t2b.{ext}"), 20000, "--threads", "2", "--seed", "3")
            self.assertTrue(one == two == again, ext)

    def test_laneql_file_made_in_column_groups_is_the_same(self):
        # Past --memory the table is made and written a few columns at a time.
        whole = self.gen(self.path("whole.laneql"), 20000, "--seed", "4")
        for budget in ("1MB", "100KB"):
            parts = self.gen(self.path(f"parts-{budget}.laneql"), 20000, "--seed", "4", "--memory", budget)
            self.assertEqual(whole, parts, budget)
        self.assert_fails(2, ["gen", "hits", "--rows", "10", "--out", self.path("x.laneql"),
                              "--memory", "lots"], "--memory")

    def test_seed_changes_the_bytes(self):
        a = self.gen(self.path("a.laneql"), 2000, "--seed", "5")
        b = self.gen(self.path("b.laneql"), 2000, "--seed", "6")
        self.assertNotEqual(a, b)

    def test_laneql_file_holds_the_lazily_generated_hits(self):
        out = self.path("h.laneql")
        self.gen(out, 3000, "--seed", "9")
        for sql in HITS_CHECKS:
            self.assertEqual(self.on_table(out, sql.format(t="t")),
                             self.on_hits(sql.format(t="hits"), 3000, "--seed", "9"), sql)
        # Row for row: the whole table written back as CSV, from the file and from generation.
        a, b = self.path("a.csv"), self.path("b.csv")
        laneql("--table", f"hits={out}", "--threads", "1", "-c", f"COPY hits TO '{a}'", check=0)
        laneql("--rows", "3000", "--seed", "9", "--threads", "1", "-c", f"COPY hits TO '{b}'",
               check=0)
        self.assertEqual(read_bytes(a), read_bytes(b))

    def test_default_seed_is_the_query_default(self):
        out = self.path("d.laneql")
        self.gen(out, 2000)
        sql = HITS_CHECKS[0]
        self.assertEqual(self.on_table(out, sql.format(t="t")),
                         self.on_hits(sql.format(t="hits"), 2000))

    def test_csv_and_tsv_files_hold_the_lazily_generated_hits(self):
        for ext in ("csv", "tsv"):
            out = self.path(f"h.{ext}")
            self.gen(out, 3000, "--seed", "4")
            proc = laneql("--table", f"t={out}", "-c", "SELECT count(*) FROM t", check=0)
            self.assertEqual(proc.stderr, "", "no progress loading a CSV without a terminal")
            for sql in HITS_CHECKS:
                self.assertEqual(self.on_table(out, sql.format(t="t")),
                                 self.on_hits(sql.format(t="hits"), 3000, "--seed", "4"),
                                 f"{ext}: {sql}")

    def test_usage_errors_exit_2(self):
        out = self.path("x.laneql")
        self.assert_fails(2, ["gen", "hits", "--out", out], "--rows")
        self.assert_fails(2, ["gen", "hits", "--rows", "100"], "--out")
        self.assert_fails(2, ["gen", "hits", "--rows", "ten", "--out", out], "--rows")
        self.assert_fails(2, ["gen", "hits", "--rows", "100", "--out", out, "--seed", "x"],
                          "--seed")
        self.assert_fails(2, ["gen", "hits", "--rows", "100", "--out", out, "--bogus"],
                          "--bogus")
        for bad in ("x.json", "x.parquet.tmp", "x"):
            bad_out = self.path(bad)
            self.assert_fails(2, ["gen", "hits", "--rows", "100", "--out", bad_out], bad)
            self.assertFalse(os.path.exists(bad_out), bad)
        self.assertFalse(os.path.exists(out))

    def test_unknown_table_exits_2_naming_it(self):
        out = self.path("x.laneql")
        self.assert_fails(2, ["gen", "nothits", "--rows", "100", "--out", out], "nothits")
        self.assertFalse(os.path.exists(out))

    def assert_bar_drawn_and_erased(self, tty, what):
        # A bar redraws one line: carriage returns, a percentage and a measure of the work done
        # (the issue names rows, MB/s and ETA; which of them a bar shows is the program's
        # choice: the ETA, for one, is left out of short runs).
        self.assertIn(b"\r", tty, what)
        self.assertRegex(tty, rb"\d+%", what)
        self.assertTrue(b"rows" in tty or b"MB/s" in tty, (what, tty[-300:]))
        # Erased when done: what is drawn last is blank (spaces or an erase-line sequence).
        last = [part for part in tty.split(b"\r") if part][-1]
        self.assertTrue(last.strip() == b"" or re.fullmatch(rb"\s*\x1b\[[012]?K\s*", last),
                        (what, tty[-300:]))

    def test_progress_bar_only_on_a_terminal(self):
        # (Without a terminal, Case.gen checks that stderr stays empty.) The bar is redrawn at
        # intervals, the first 100 ms in: 300000 rows take 0.2-0.4 s to generate and write.
        # (When the bar covered the generation alone, about 0.1 s, it was sometimes not drawn.)
        out = self.path("big.laneql")
        status, stdout, tty = run_with_tty_stderr(
            self, ["gen", "hits", "--rows", "300000", "--out", out, "--threads", "2"])
        self.assertEqual(status, 0, tty)
        self.assertTrue(nonempty_lines(stdout)[0].startswith(f"wrote 300000 rows to {out}"))
        self.assert_bar_drawn_and_erased(tty, "gen")
        self.assertNotIn(b"wrote", tty, "the summary belongs on stdout")
        self.assertEqual(nonempty_lines(self.on_table(out, "SELECT count(*) AS n FROM t")),
                         ["n", "300000"])

    def test_csv_progress_bars_on_a_terminal(self):
        # gen to CSV, import and loading a --table CSV draw a bar too, only on stderr.
        src = self.path("m.csv")
        cases = [(["gen", "hits", "--rows", "60000", "--out", src], None),
                 (["import", src, self.path("m.laneql")], None),
                 (["--table", f"t={src}", "-c", "SELECT count(*) AS n FROM t"], ["n", "60000"])]
        for args, expected in cases:
            status, stdout, tty = run_with_tty_stderr(self, args)
            self.assertEqual(status, 0, tty)
            self.assert_bar_drawn_and_erased(tty, args[0])
            if expected is None:  # the one summary line
                self.assertEqual(len(nonempty_lines(stdout)), 1, stdout)
            else:
                self.assertEqual(nonempty_lines(stdout), expected)


class Import(Case):
    def setUp(self):
        super().setUp()
        self.csv = write_text(self.path("people.csv"), PEOPLE_CSV)

    def assert_same_table(self, a, b, sql="SELECT * FROM t ORDER BY name"):
        for fmt in ("tsv", "json"):  # json tells NULL from ''
            self.assertEqual(self.on_table(a, sql, fmt=fmt), self.on_table(b, sql, fmt=fmt), fmt)

    def test_csv_round_trip(self):
        out = self.path("people.laneql")
        self.import_(self.csv, out)
        self.assert_same_table(out, self.csv)
        rows = json.loads(self.on_table(out, "SELECT * FROM t ORDER BY name", fmt="json"))
        self.assertEqual([r["note"] for r in rows][:2], ["hello, world", 'say "hi"'])
        # The same column types as the CSV read directly.
        schema = [laneql("--table", f"t={p}", "-", input=".schema t\n", check=0).stdout
                  for p in (out, self.csv)]
        self.assertEqual(schema[0], schema[1])
        self.assertEqual([c for c, _ in schema_columns(schema[0])],
                         ["name", "age", "joined", "score", "note"])

    def test_tsv_and_delimiter(self):
        # Without quoted fields: how a TSV quotes is not what this compares.
        plain = PEOPLE_CSV.replace('"hello, world"', "hello world").replace('"say ""hi"""', "hi")
        csv = write_text(self.path("plain.csv"), plain)
        tsv = write_text(self.path("plain.tsv"), plain.replace(",", "\t"))
        semi = write_text(self.path("semi.csv"), plain.replace(",", ";"))
        self.import_(tsv, self.path("from_tsv.laneql"))
        self.import_(semi, self.path("from_semi.laneql"), "--delimiter", ";")
        self.import_(csv, self.path("from_csv.laneql"))
        self.assert_same_table(self.path("from_tsv.laneql"), self.path("from_csv.laneql"))
        self.assert_same_table(self.path("from_semi.laneql"), self.path("from_csv.laneql"))
        self.assert_same_table(self.path("from_csv.laneql"), csv)

    def test_generated_csv_imports_to_the_generated_table(self):
        src, out = self.path("h.csv"), self.path("h.laneql")
        self.gen(src, 3000, "--seed", "2")
        self.import_(src, out, "--threads", "2")
        for sql in HITS_CHECKS:
            self.assertEqual(self.on_table(out, sql.format(t="t")),
                             self.on_hits(sql.format(t="hits"), 3000, "--seed", "2"), sql)

    def test_laneql_input(self):
        # IN may be a .laneql file too: the copy holds the same table.
        src, out = self.path("g.laneql"), self.path("copy.laneql")
        self.gen(src, 3000)
        self.import_(src, out)
        for sql in HITS_CHECKS:
            self.assertEqual(self.on_table(out, sql.format(t="t")),
                             self.on_table(src, sql.format(t="t")), sql)

    def test_schema_file_names_and_types_the_columns(self):
        create = write_text(self.path("create.sql"),
                            "CREATE TABLE people (\n  who VARCHAR,\n  years DOUBLE,\n"
                            "  since DATE,\n  points DOUBLE,\n  remark VARCHAR\n);\n")
        out = self.path("typed.laneql")
        self.import_(self.csv, out, "--schema", create)
        columns = schema_columns(laneql("--table", f"t={out}", "-", input=".schema t\n",
                                        check=0).stdout)
        self.assertEqual(columns, [("who", "VARCHAR"), ("years", "DOUBLE"), ("since", "DATE"),
                                   ("points", "DOUBLE"), ("remark", "VARCHAR")])
        # The header line is not a row; the values are those of the CSV.
        typed = self.on_table(out, "SELECT count(*), sum(years), min(since) FROM t")
        plain = self.on_table(self.csv, "SELECT count(*), sum(age), min(joined) FROM t")
        t_count, t_sum, t_min = typed.split("\n")[1].split("\t")
        p_count, p_sum, p_min = plain.split("\n")[1].split("\t")
        self.assertEqual((t_count, float(t_sum), t_min), (p_count, float(p_sum), p_min))

    def test_broken_csv_exits_1_with_file_line_column(self):
        ragged = write_text(self.path("ragged.csv"), "a,b\n1,2\n3,4,5\n6,7\n")
        stderr = self.assert_fails(1, ["import", ragged, self.path("r.laneql")])
        self.assertRegex(stderr, re.escape(ragged) + r":3:\d+:")
        # A value that does not fit the --schema type, on line 4.
        create = write_text(self.path("ab.sql"), "CREATE TABLE ab (a BIGINT, b BIGINT);\n")
        bad = write_text(self.path("bad_value.csv"), "a,b\n1,2\n3,4\n5,x\n")
        stderr = self.assert_fails(1, ["import", bad, self.path("b.laneql"), "--schema", create])
        self.assertRegex(stderr, re.escape(bad) + r":4:\d+:")
        # An unterminated quote.
        quote = write_text(self.path("quote.csv"), 'a,b\n1,"2\n')
        stderr = self.assert_fails(1, ["import", quote, self.path("q.laneql")])
        self.assertRegex(stderr, re.escape(quote) + r":\d+:\d+:")

    def test_usage_and_file_errors(self):
        self.assert_fails(2, ["import", self.csv, self.path("out.csv")], "out.csv")
        self.assertFalse(os.path.exists(self.path("out.csv")))
        self.assert_fails(2, ["import", self.csv])
        self.assert_fails(2, ["import", self.csv, self.path("o.laneql"), "--bogus"], "--bogus")
        self.assert_fails(2, ["import", self.csv, self.path("o.laneql"), "--schema"],
                          "--schema")
        self.assert_fails(2, ["import", self.csv, self.path("o.laneql"), "--delimiter", ";;"],
                          "--delimiter")
        self.assert_fails(2, ["import", self.csv, self.path("o.laneql"), "--threads", "x"],
                          "--threads")
        missing = self.path("missing.csv")
        self.assert_fails(1, ["import", missing, self.path("o.laneql")], missing)
        missing_schema = self.path("missing.sql")
        self.assert_fails(1, ["import", self.csv, self.path("o.laneql"), "--schema",
                              missing_schema], missing_schema)


if __name__ == "__main__":
    cli_harness.main()
