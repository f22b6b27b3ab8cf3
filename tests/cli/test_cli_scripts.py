#!/usr/bin/env python3
"""End-to-end tests of laneql running SQL scripts: several statements in `-c`, FILE.sql, `-` and
SQL on stdin, `--table NAME=PATH` (.csv, .tsv, .laneql), the lazily generated `hits`, `--timer`,
dot commands in scripts, error positions in the whole script and the exit statuses
(README, "The `laneql` program").

    python3 tests/cli/test_cli_scripts.py --laneql build/native/native-cli/laneql

Expected results come from a second way of computing the same thing (the same SQL run alone, a
file queried by path, a table written and read back), never from a copy of the generator's data;
only the small CSV files written here have values spelled out.
"""
import json
import os
import re
import tempfile
import unittest

import cli_harness
from cli_harness import laneql, nonempty_lines, parse_tsv, write_text

SQL1 = "SELECT count(*) AS n FROM hits"
SQL2 = ("SELECT AdvEngineID, count(*) AS c FROM hits GROUP BY AdvEngineID "
        "ORDER BY c DESC, AdvEngineID")
RUN_TIME = re.compile(r"^Run Time: \d+\.\d{3} ms$")

# A small hand-written table (with a NULL), in CSV and TSV.
PEOPLE = [["name", "age", "joined", "score"],
          ["ann", "30", "2020-01-02", "1.5"],
          ["bob", "", "2021-03-04", "2.25"],
          ["cid", "25", "2019-12-31", "-0.5"],
          ["dee", "41", "2018-06-30", "10"]]
INTEGER_TYPES = {"BIGINT", "INTEGER", "SMALLINT", "TINYINT", "HUGEINT",
                 "UBIGINT", "UINTEGER", "USMALLINT", "UTINYINT"}
DUCKDB_TYPES = INTEGER_TYPES | {"DOUBLE", "FLOAT", "REAL", "VARCHAR", "DATE", "TIMESTAMP",
                                "BOOLEAN", "DECIMAL", "TIME", "BLOB"}


def run_c(sql, *flags, rows=1000):
    return laneql("-c", sql, "--rows", str(rows), *flags, check=0).stdout


def parse_schema(text):
    """`CREATE TABLE t (\\n    col TYPE,\\n ...\\n);` -> (t, [(col, TYPE), ...])."""
    lines = text.rstrip("\n").split("\n")
    head = re.fullmatch(r"CREATE TABLE (\S+) \(", lines[0])
    assert head and lines[-1] == ");", f"not a CREATE TABLE statement: {text!r}"
    columns = []
    for i, line in enumerate(lines[1:-1]):
        last = i == len(lines) - 3
        m = re.fullmatch(r"    (\S+) ([A-Z][A-Z0-9_() ,]*?)" + ("" if last else ","), line)
        assert m, f"column line {line!r} of {text!r}"
        columns.append((m.group(1), m.group(2)))
    return head.group(1), columns


class ScriptCase(unittest.TestCase):
    """A temporary directory with people.csv / people.tsv for every test of the class."""

    @classmethod
    def setUpClass(cls):
        cls._tmp = tempfile.TemporaryDirectory()
        cls.tmp = cls._tmp.name
        cls.csv = write_text(cls.path("people.csv"), "".join(",".join(r) + "\n" for r in PEOPLE))
        cls.tsv = write_text(cls.path("people.tsv"), "".join("\t".join(r) + "\n" for r in PEOPLE))

    @classmethod
    def tearDownClass(cls):
        cls._tmp.cleanup()

    @classmethod
    def path(cls, name):
        return os.path.join(cls.tmp, name)

    def script(self, name, text):
        return write_text(self.path(name), text)

    def assert_fails(self, status, args, *in_stderr, input=None):
        """Exit status `status`, nothing on stdout, a message on stderr holding each text."""
        proc = laneql(*args, check=status, input=input)
        self.assertEqual(proc.stdout, "", f"stdout of a usage/data error: {args}")
        self.assertTrue(proc.stderr.strip(), "the error message goes to stderr")
        for text in in_stderr:
            self.assertIn(text, proc.stderr, args)
        return proc.stderr


class SeveralStatements(ScriptCase):
    def test_c_prints_each_result_in_turn(self):
        both = run_c(f"{SQL1}; {SQL2};")
        self.assertEqual(nonempty_lines(both), nonempty_lines(run_c(SQL1) + run_c(SQL2)))
        # ... and in the order written.
        self.assertEqual(nonempty_lines(run_c(f"{SQL2}; {SQL1}")),
                         nonempty_lines(run_c(SQL2) + run_c(SQL1)))

    def test_semicolons_in_strings_quoted_identifiers_and_comments_do_not_split(self):
        text = ("SELECT count(*) AS n FROM hits WHERE SearchPhrase <> 'a;b' "
                "AND SearchPhrase <> 'it''s;x';\n"
                "-- a comment; still a comment\n"
                "SELECT count(*) AS \"x;y\" /* ; */ FROM hits;\n")
        lines = nonempty_lines(run_c(text))
        # Two results of one row each: header, value, header, value.
        self.assertEqual(len(lines), 4, lines)
        self.assertEqual([lines[0], lines[2]], ["n", "x;y"])
        self.assertEqual(lines[1], lines[3])  # no SearchPhrase is 'a;b' or "it's;x"

    def test_empty_statements_are_skipped(self):
        self.assertEqual(nonempty_lines(run_c(f";; ;\n{SQL1};;\n;")), nonempty_lines(run_c(SQL1)))

    def test_last_statement_needs_no_semicolon(self):
        self.assertEqual(nonempty_lines(run_c(f"{SQL1};\n{SQL2}")),
                         nonempty_lines(run_c(SQL1) + run_c(SQL2)))


class FilesAndStdin(ScriptCase):
    TEXT = f"{SQL1};\n\n{SQL2};\n"

    def expected(self):
        return run_c(self.TEXT)

    def test_sql_file(self):
        path = self.script("two.sql", self.TEXT)
        self.assertEqual(laneql(path, "--rows", "1000", check=0).stdout, self.expected())
        # Options before or after the file.
        self.assertEqual(laneql("--rows", "1000", path, check=0).stdout, self.expected())

    def test_dash_reads_stdin(self):
        self.assertEqual(laneql("-", "--rows", "1000", input=self.TEXT, check=0).stdout,
                         self.expected())

    def test_stdin_not_a_terminal_is_read_without_arguments(self):
        self.assertEqual(laneql("--rows", "1000", input=self.TEXT, check=0).stdout,
                         self.expected())

    def test_default_format_is_tsv_when_not_a_terminal(self):
        path = self.script("one.sql", SQL2 + ";\n")
        self.assertEqual(laneql(path, "--rows", "1000", check=0).stdout,
                         laneql(path, "--rows", "1000", "--format", "tsv", check=0).stdout)
        json_out = laneql(path, "--rows", "1000", "--format", "json", check=0).stdout
        header, body = parse_tsv(laneql(path, "--rows", "1000", check=0).stdout)
        self.assertEqual([[str(o[k]) for k in header] for o in json.loads(json_out)], body)

    def test_script_without_statements_prints_nothing(self):
        # Empty statements are skipped: nothing to run is not an error.
        self.assertEqual(laneql("-", input="", check=0).stdout, "")
        path = self.script("comments.sql", "-- only a comment;\n/* and ; another */\n;\n")
        self.assertEqual(laneql(path, check=0).stdout, "")

    def test_missing_file_exits_1_naming_it(self):
        missing = self.path("no_such_script.sql")
        self.assert_fails(1, [missing, "--rows", "10"], missing)


class Tables(ScriptCase):
    COLUMNS = "name, age, joined, score"

    def test_csv_table_equals_the_file_queried_by_path(self):
        sql = f"SELECT {self.COLUMNS} FROM {{}} ORDER BY name"
        by_name = laneql("--table", f"p={self.csv}", "-c", sql.format("p"), check=0).stdout
        by_path = laneql("-c", sql.format(f"'{self.csv}'"), check=0).stdout
        self.assertEqual(by_name, by_path)
        header, body = parse_tsv(by_name)
        self.assertEqual(header, PEOPLE[0])
        self.assertEqual([r[0] for r in body], [r[0] for r in PEOPLE[1:]])
        self.assertEqual(laneql("--table", f"p={self.csv}", "-c",
                                "SELECT count(*), sum(age), count(age) FROM p", check=0).stdout
                         .split("\n")[1].split("\t"), ["4", "96", "3"])

    def test_tsv_table_equals_the_csv_table(self):
        sql = f"SELECT {self.COLUMNS} FROM p ORDER BY name"
        self.assertEqual(laneql("--table", f"p={self.tsv}", "-c", sql, check=0).stdout,
                         laneql("--table", f"p={self.csv}", "-c", sql, check=0).stdout)

    def test_laneql_table_equals_the_generated_hits(self):
        path = self.path("hits2000.laneql")
        laneql("--rows", "2000", "-c", f"COPY hits TO '{path}'", check=0)
        sql = ("SELECT count(*), sum(UserID), count(DISTINCT UserID), min(EventTime), "
               "max(EventDate), sum(length(URL)) FROM {}")
        self.assertEqual(laneql("--table", f"h={path}", "-c", sql.format("h"), check=0).stdout,
                         run_c(sql.format("hits"), rows=2000))
        # Registered as `hits`, the file replaces the generated table (whatever --rows says).
        self.assertEqual(laneql("--table", f"hits={path}", "--rows", "10", "-c",
                                sql.format("hits"), check=0).stdout,
                         run_c(sql.format("hits"), rows=2000))

    def test_several_tables_and_hits_in_one_script(self):
        out = laneql("--table", f"p={self.csv}", "--table", f"q={self.tsv}", "--rows", "1234",
                     "-c", "SELECT count(*) AS a FROM p; SELECT count(*) AS b FROM q; "
                     "SELECT count(*) AS c FROM hits", check=0).stdout
        self.assertEqual(nonempty_lines(out), ["a", "4", "b", "4", "c", "1234"])

    def test_other_tables_never_generate_hits(self):
        # 20 million rows would take far longer than the timeout to generate.
        proc = laneql("--rows", "20000000", "--table", f"p={self.csv}", "-c",
                      "SELECT count(*) AS n FROM p", check=0, timeout=20)
        self.assertEqual(proc.stdout, "n\n4\n")

    def test_select_without_a_table_never_generates_hits(self):
        proc = laneql("--rows", "20000000", "-c", "SELECT 42 AS answer", check=0, timeout=20)
        self.assertEqual(proc.stdout, "answer\n42\n")

    def test_bad_table_specs_exit_2(self):
        for spec in ("noequals", "=" + self.csv, "p=", "="):
            self.assert_fails(2, ["--table", spec, "-c", "SELECT count(*) FROM p"], "--table")
        self.assert_fails(2, ["-c", "SELECT 1", "--table"], "--table")

    def test_missing_or_broken_table_file_exits_1_naming_it(self):
        for name, content in (("missing.csv", None), ("missing.laneql", None),
                              ("garbage.laneql", "this is not a laneql file\n" * 10),
                              ("ragged.csv", "a,b\n1,2\n3,4,5\n6,7\n")):
            path = self.path(name)
            if content is not None:
                write_text(path, content)
            self.assert_fails(1, ["--table", f"t={path}", "-c", "SELECT count(*) FROM t"], path)


class Timer(ScriptCase):
    def test_timer_prints_run_time_after_each_statement(self):
        plain = run_c(f"{SQL1}; {SQL2}")
        timed = run_c(f"{SQL1}; {SQL2}", "--timer").split("\n")
        times = [i for i, line in enumerate(timed) if RUN_TIME.match(line)]
        self.assertEqual(len(times), 2, timed)
        # The timer lines are extra lines: without them, the output is unchanged.
        self.assertEqual(nonempty_lines("\n".join(l for l in timed if not RUN_TIME.match(l))),
                         nonempty_lines(plain))
        # One after each result: the first after the first result, the second at the end.
        self.assertEqual(nonempty_lines("\n".join(timed[:times[0]])), nonempty_lines(run_c(SQL1)))
        self.assertEqual(nonempty_lines("\n".join(timed[times[1] + 1:])), [])


class DotCommands(ScriptCase):
    def run_script(self, text, *flags, check=0):
        path = self.script("dot.sql", text)
        return laneql("--table", f"p={self.csv}", path, *flags, check=check)

    def test_tables_sorted_and_hits_listed(self):
        out = laneql("--table", f"zeta={self.csv}", "--table", f"alpha={self.tsv}", "-",
                     input=".tables\n", check=0).stdout
        self.assertEqual(nonempty_lines(out), ["alpha", "hits", "zeta"])
        # A table registered as hits is listed once.
        out = laneql("--table", f"hits={self.csv}", "-", input=".tables\n", check=0).stdout
        self.assertEqual(nonempty_lines(out), ["hits"])

    def test_schema_of_a_csv_table(self):
        name, columns = parse_schema(self.run_script(".schema p\n").stdout)
        self.assertEqual(name, "p")
        self.assertEqual([c for c, _ in columns], PEOPLE[0])
        types = dict(columns)
        self.assertEqual(types["name"], "VARCHAR")
        self.assertIn(types["age"], INTEGER_TYPES)
        self.assertEqual(types["joined"], "DATE")
        self.assertEqual(types["score"], "DOUBLE")

    def test_schema_of_hits_names_its_columns(self):
        name, columns = parse_schema(laneql("--rows", "10", "-", input=".schema hits\n",
                                            check=0).stdout)
        self.assertEqual(name, "hits")
        header, _ = parse_tsv(run_c("SELECT * FROM hits LIMIT 1", rows=10))
        self.assertEqual([c for c, _ in columns], header)
        for column, type_name in columns:
            self.assertIn(type_name.split("(")[0], DUCKDB_TYPES, column)

    def test_schema_of_an_unknown_table_fails(self):
        stderr = self.assert_fails(1, ["-"], "no_such_table", input=".schema no_such_table\n")
        self.assertTrue(stderr)

    def test_mode_changes_the_format_between_statements(self):
        sql = "SELECT name, age FROM p ORDER BY name"
        out = self.run_script(f".mode csv\n{sql};\n.mode json\n{sql};\n.mode tsv\n{sql};\n")
        expected = "".join(laneql("--table", f"p={self.csv}", "--format", fmt, "-c", sql,
                                  check=0).stdout for fmt in ("csv", "json", "tsv"))
        self.assertEqual(nonempty_lines(out.stdout), nonempty_lines(expected))

    def test_timer_on_and_off(self):
        sql = "SELECT count(*) AS n FROM p;\n"
        lines = nonempty_lines(self.run_script(f"{sql}.timer on\n{sql}.timer off\n{sql}").stdout)
        self.assertEqual([bool(RUN_TIME.match(l)) for l in lines],
                         [False, False, False, False, True, False, False])

    def test_threads_keeps_the_answer(self):
        sql = ("SELECT RegionID, count(*) AS c, sum(AdvEngineID) FROM hits "
               "GROUP BY RegionID ORDER BY c DESC, RegionID;\n")
        with_dot = laneql("--rows", "20000", "-", input=f".threads 1\n{sql}", check=0).stdout
        # .threads may confirm the new count ("threads: 1") before the result.
        lines = with_dot.split("\n")
        if re.fullmatch(r"threads:? 1", lines[0]):
            with_dot = "\n".join(lines[1:])
        self.assertEqual(with_dot, run_c(sql, "--threads", "2", rows=20000))

    def test_tables_made_in_sql_live_across_statements_and_dot_commands(self):
        script = ("CREATE TABLE made AS SELECT * FROM (VALUES (1, 'a'), (2, 'b')) v(n, s);\n"
                  "INSERT INTO made VALUES (3, 'c');\n.threads 1\n.mode csv\n.tables\n"
                  "SELECT sum(n) AS total FROM made;\n")
        out = nonempty_lines(laneql("-", input=script, check=0).stdout)
        self.assertIn("made", out)             # .tables
        self.assertEqual(out[-2:], ["total", "6"])

    def test_settings_without_an_argument_print_the_value_in_force(self):
        out = laneql("--threads", "1", "-", input=".threads\n.threads 2\n.threads\n",
                     check=0).stdout
        self.assertEqual(nonempty_lines(out), ["threads: 1", "threads: 2", "threads: 2"])
        out = laneql("--timeout", "5s", "-", input=".timeout\n", check=0).stdout
        self.assertEqual(len(nonempty_lines(out)), 1)
        self.assertIn("5", out)

    def test_dot_commands_through_stdin(self):
        out = laneql("--table", f"p={self.csv}", "-", input=".mode csv\nSELECT name FROM p "
                     "ORDER BY name;\n", check=0).stdout
        self.assertEqual(nonempty_lines(out), ["name", "ann", "bob", "cid", "dee"])

    def test_unknown_dot_command_or_bad_argument_stops_the_script(self):
        first = "SELECT count(*) AS first_result FROM p;\n"
        never = "SELECT count(*) AS never_printed FROM p;\n"
        for bad in (".bogus", ".mode xml", ".threads many", ".threads 1025", ".timer maybe"):
            proc = self.run_script(f"{first}{bad}\n{never}", check=1)
            self.assertIn("first_result", proc.stdout, bad)
            self.assertNotIn("never_printed", proc.stdout, bad)
            self.assertTrue(proc.stderr.strip(), bad)
        proc = self.run_script(f"{first}\n.bogus\n{never}", check=1)
        self.assertIn(".bogus", proc.stderr)
        self.assertIn("line 3", proc.stderr)  # where it is in the file

    def test_quit_ends_a_script(self):
        proc = self.run_script("SELECT count(*) AS before_quit FROM p;\n.quit\n"
                               "SELECT count(*) AS after_quit FROM p;\n")
        self.assertIn("before_quit", proc.stdout)
        self.assertNotIn("after_quit", proc.stdout)


class Errors(ScriptCase):
    def test_error_position_is_in_the_whole_file_and_the_script_stops(self):
        text = ("SELECT count(*) AS a FROM hits;\n"
                "\n"
                "SELECT NoSuchColumn FROM hits;\n"
                "SELECT count(*) AS never_printed FROM hits;\n")
        proc = laneql(self.script("err.sql", text), "--rows", "100", check=1)
        self.assertIn("line 3", proc.stderr)
        self.assertIn("column 8", proc.stderr)
        self.assertIn("NoSuchColumn", proc.stderr)
        # The result before the error is printed; nothing after it runs.
        self.assertEqual(nonempty_lines(proc.stdout),
                         nonempty_lines(run_c("SELECT count(*) AS a FROM hits", rows=100)))
        self.assertNotIn("never_printed", proc.stdout)

    def test_error_column_counts_from_the_start_of_the_line_in_c(self):
        # "SELECT count(*) FROM hits; SELECT " is 34 characters: nope starts in column 35.
        proc = laneql("-c", "SELECT count(*) FROM hits; SELECT nope FROM hits", "--rows", "100",
                      check=1)
        self.assertIn("line 1, column 35", proc.stderr)
        self.assertEqual(nonempty_lines(proc.stdout),
                         nonempty_lines(run_c("SELECT count(*) FROM hits", rows=100)))

    def test_error_position_after_comments_and_multiline_statements(self):
        text = ("-- a comment; with a semicolon\n"
                "SELECT count(*)\n"
                "  FROM hits;\n"
                "/* block\n"
                " ; */ SELECT\n"
                "  bad_col FROM hits;\n")
        proc = laneql("-", "--rows", "100", input=text, check=1)
        self.assertIn("line 6, column 3", proc.stderr)
        self.assertIn("bad_col", proc.stderr)

    def test_syntax_error_in_a_later_statement(self):
        proc = laneql("-c", "SELECT count(*) AS a FROM hits;\nSELECT FROM FROM;", "--rows",
                      "100", check=1)
        self.assertIn("line 2", proc.stderr)
        self.assertEqual(nonempty_lines(proc.stdout),
                         nonempty_lines(run_c("SELECT count(*) AS a FROM hits", rows=100)))

    def test_error_in_the_first_statement_prints_nothing(self):
        proc = laneql("-c", "SELECT nope FROM hits; SELECT count(*) FROM hits", "--rows", "100",
                      check=1)
        self.assertEqual(proc.stdout, "")


class UsageErrors(ScriptCase):
    def test_every_usage_error_exits_2_naming_the_flag(self):
        sql = "SELECT count(*) FROM hits"
        script = self.script("ok.sql", sql + ";\n")
        cases = [
            (["-c", sql, "extra.sql"], ["extra.sql"]),
            (["-c", sql, "--bogus"], ["--bogus"]),
            ([script, "--bogus"], ["--bogus"]),
            (["-c"], ["-c"]),
            (["-c", sql, "--table"], ["--table"]),
            (["-c", sql, "--format", "xml"], ["--format", "xml"]),
            ([script, "--format", "xml"], ["--format", "xml"]),
            (["-c", sql, "--threads", "-1"], ["--threads"]),
            (["-c", sql, "--threads", "1025"], ["--threads"]),
            (["-c", sql, "--threads"], ["--threads"]),
            (["-c", sql, "--rows", "x"], ["--rows"]),
            ([script, "--seed", "x"], ["--seed"]),
            (["-c", sql, "--profile"], ["--profile"]),
            (["-c", sql, "--target"], ["--target"]),
        ]
        for args, texts in cases:
            with self.subTest(args=args):
                self.assert_fails(2, args, *texts)

    def test_bad_target_exits_2(self):
        stderr = self.assert_fails(2, ["-c", "SELECT count(*) FROM hits", "--target", "BOGUS"])
        self.assertTrue("BOGUS" in stderr or "--target" in stderr, stderr)

    def test_good_target_and_thread_limits_are_accepted(self):
        info = json.loads(laneql("info", "--json", check=0).stdout)
        sql = "SELECT count(*), sum(ResolutionWidth), avg(UserID) FROM hits"
        expected = run_c(sql)
        for target in (info["supported_targets"][-1], info["dispatched_target"]):
            self.assertEqual(run_c(sql, "--target", target), expected, target)
        for threads in ("0", "1", "1024"):
            self.assertEqual(run_c(sql, "--threads", threads), expected, threads)


if __name__ == "__main__":
    cli_harness.main()
