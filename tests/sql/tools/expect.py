#!/usr/bin/env python3
"""Fills the expected rows and column types of SQL corpus records from DuckDB, the oracle.

    /work/main/.venv/bin/python tests/sql/tools/expect.py [--check] [--runner PATH] [FILE.test...]

For every `query` record it loads the file's tables into DuckDB, runs the SQL there and writes
DuckDB's answer (each value as CAST(x AS VARCHAR) spells it, NULL, "(empty)" for '') and result
types into the file, so the corpus expects DuckDB's results, never laneql's. `error` records keep
their message (it is laneql's), but DuckDB must reject the query too, unless the record says
`error unsupported` (valid SQL that laneql does not support), where DuckDB must accept it.

Checks that make a record unusable, reported with file:line (and the file left unchanged):
 - the result depends on the physical row order (ties under ORDER BY ... LIMIT, an
   `ordered` record whose ORDER BY does not fix the order, a floating-point sum whose rounding
   depends on the order): the query is also run on the tables loaded in reverse and both
   answers must match, unless the record says `tableorder` (its answer follows the rows'
   order as written, as first() or string_agg() do);
 - a result type laneql has no column type for (LIST, STRUCT, ...);
 - a value with a tab or newline (the expected-row format cannot hold it).

A `hits rows=N seed=S` table is made by laneql's generator: the native runner exports it
(--export-hits) as CSV, which is loaded into DuckDB. Without a built runner such files are
skipped with a warning.

--check changes nothing and exits 1 when any file would change (CI: the corpus is DuckDB's).
Format: tests/sql/README.md.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

import duckdb

# `query unordered tableorder`: the answer depends on the order of the tables' rows as written
# (first, string_agg, mode's ties, ...), which laneql keeps on one thread and DuckDB too; the
# check against the tables loaded in reverse is skipped.
TABLE_ORDER = "tableorder"

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS_DIR = os.path.dirname(HERE)
REPO = os.path.dirname(os.path.dirname(CORPUS_DIR))
DEFAULT_RUNNER = os.path.join(REPO, "build", "corpus", "tests", "sql", "sql_corpus_runner")

NULL_TEXT = "NULL"
EMPTY_TEXT = "(empty)"
# Result types that laneql's column model has (laneql::DuckDbTypeName's names).
LANEQL_RESULT_TYPES = {
    "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT",
    "HUGEINT", "FLOAT", "DOUBLE", "DATE", "TIMESTAMP", "TIMESTAMP_S", "VARCHAR", "BOOLEAN",
    "TIME", "INTERVAL",
}


class CorpusError(Exception):
    pass


class Record:
    def __init__(self, kind, header_index, words):
        self.kind = kind            # "query" or "error"
        self.header_index = header_index
        self.words = words          # the header's words
        self.sql_lines = []
        self.expected_start = None  # index of the first line after ----
        self.expected_end = None    # index just past the expected block


class TestFile:
    """The same format the C++ runner parses (tests/sql/runner/test_file.cc)."""

    def __init__(self, path):
        self.path = path
        with open(path, encoding="utf-8") as f:
            self.lines = f.read().split("\n")
        if self.lines and self.lines[-1] == "":
            self.lines.pop()
        self.tables = []  # (name, [(column, TYPE)], [[value or None]])
        self.hits = None  # "rows=N seed=S" words
        self.records = []
        self._parse()

    def fail(self, index, message):
        raise CorpusError(f"{self.path}:{index + 1}: {message}")

    def _block_end(self, i):
        return i >= len(self.lines) or self.lines[i].strip() == ""

    def _parse(self):
        i = 0
        while i < len(self.lines):
            line = self.lines[i]
            if line.strip() == "" or line.startswith("#"):
                i += 1
                continue
            words = line.split()
            if words[0] == "table":
                i = self._parse_table(i)
            elif words[0] == "hits":
                self.hits = words[1:]
                i += 1
            elif words[0] in ("query", "error"):
                i = self._parse_record(i, words)
            else:
                self.fail(i, f"unknown directive '{words[0]}'")
        if not self.records:
            raise CorpusError(f"{self.path}: the file has no records")

    def _parse_table(self, i):
        header = self.lines[i][len("table"):].strip()
        name, _, columns = header.partition("(")
        if not columns.endswith(")"):
            self.fail(i, "expected 'table name(column TYPE, ...)'")
        specs = [tuple(c.split()) for c in columns[:-1].split(",")]
        if any(len(s) != 2 for s in specs):
            self.fail(i, "bad column list")
        rows = []
        i += 1
        while not self._block_end(i):
            values = [v.strip(" \t") for v in self.lines[i].split("|")]
            if len(values) != len(specs):
                self.fail(i, f"row has {len(values)} values, table has {len(specs)} columns")
            rows.append([None if v == NULL_TEXT else "" if v == EMPTY_TEXT else v
                         for v in values])
            i += 1
        self.tables.append((name.strip(), specs, rows))
        return i

    def _parse_record(self, i, words):
        record = Record(words[0], i, words)
        i += 1
        while not self._block_end(i) and self.lines[i] != "----":
            record.sql_lines.append(self.lines[i])
            i += 1
        if self._block_end(i):
            self.fail(i, "record has no '----' line after its SQL")
        i += 1
        record.expected_start = i
        while not self._block_end(i):
            i += 1
        record.expected_end = i
        self.records.append(record)
        return i


def load_tables(con, test_file, hits_dir, reverse):
    for name, specs, rows in test_file.tables:
        con.execute(f"CREATE TABLE {name} ({', '.join(f'{c} {t}' for c, t in specs)})")
        if rows:
            casts = ", ".join(f"CAST(? AS {t})" for _, t in specs)
            con.executemany(f"INSERT INTO {name} VALUES ({casts})",
                            list(reversed(rows)) if reverse else rows)
    if hits_dir is not None:
        with open(os.path.join(hits_dir, "hits.schema"), encoding="utf-8") as f:
            schema = [line.split() for line in f if line.strip()]
        columns = ", ".join(f"'{c}': '{t}'" for c, t in schema)
        order = "ORDER BY rowid DESC" if reverse else ""
        # Strings are always quoted: "" is an empty string (DuckDB reads it as NULL by default).
        csv = os.path.join(hits_dir, "hits.csv").replace("'", "''")
        con.execute(f"CREATE TABLE hits AS SELECT * FROM read_csv('{csv}', header=true, "
                    f"columns={{{columns}}}, quote='\"', escape='\"', "
                    "allow_quoted_nulls=false)")
        # A CSV quoting slip would merge or split rows: the count must be what was generated.
        expected_rows = [int(w[5:]) for w in test_file.hits if w.startswith("rows=")]
        loaded = con.sql("SELECT COUNT(*) FROM hits").fetchall()[0][0]
        if expected_rows != [loaded]:
            raise CorpusError(f"{test_file.path}: hits.csv loaded {loaded} rows, expected "
                              f"{expected_rows}")
        if reverse:
            con.execute(f"CREATE TABLE hits_reversed AS SELECT * FROM hits {order}")
            con.execute("DROP TABLE hits")
            con.execute("ALTER TABLE hits_reversed RENAME TO hits")


def laneql_type(name, element=False):
    """Whether laneql has DuckDB's result type `name`: a named one, a DECIMAL, or a list of a
    fixed-width one (laneql/types.h)."""
    if name.endswith("[]") and not element:
        return name[:-2] != "VARCHAR" and laneql_type(name[:-2], element=True)
    return name in LANEQL_RESULT_TYPES or re.fullmatch(r"DECIMAL\(\d+,\d+\)", name) is not None


def duckdb_answer(con, sql):
    """(types, rows as tab-joined text) of `sql` in DuckDB."""
    types = [str(t) for t in con.sql(sql).types]
    rows = con.sql(f"SELECT CAST(COLUMNS(*) AS VARCHAR) FROM ({sql})").fetchall()
    text_rows = []
    for row in rows:
        values = [NULL_TEXT if v is None else EMPTY_TEXT if v == "" else v for v in row]
        if any("\t" in v or "\n" in v for v in values):
            raise ValueError("a value holds a tab or newline, which expected rows cannot hold")
        text_rows.append("\t".join(values))
    return types, text_rows


def export_hits(test_file, runner, temp_dir):
    if not os.path.exists(runner):
        return None
    subprocess.run([runner, "--export-hits", test_file.path, temp_dir], check=True)
    return temp_dir


def refresh(path, runner, check_only):
    """Returns a list of problems; rewrites the file when there are none (unless check_only)."""
    test_file = TestFile(path)
    problems = []
    with tempfile.TemporaryDirectory() as temp_dir:
        hits_dir = None
        if test_file.hits is not None:
            hits_dir = export_hits(test_file, runner, temp_dir)
            if hits_dir is None:
                print(f"warning: {path}: no runner at {runner}; hits file skipped",
                      file=sys.stderr)
                return []
        forward, backward = duckdb.connect(), duckdb.connect()
        load_tables(forward, test_file, hits_dir, reverse=False)
        load_tables(backward, test_file, hits_dir, reverse=True)
    new_lines = list(test_file.lines)
    # Replace from the last record up so earlier line indexes stay valid.
    for record in reversed(test_file.records):
        where = f"{path}:{record.header_index + 1}"
        sql = "\n".join(record.sql_lines)
        if record.kind == "error":
            unsupported = record.words[1:] == ["unsupported"]
            # In a transaction rolled back after, so that DELETE and the like change nothing.
            forward.execute("BEGIN TRANSACTION")
            try:
                result = forward.sql(sql)
                if result is not None:
                    result.fetchall()
                duckdb_ok = True
            except duckdb.Error:
                duckdb_ok = False
            forward.execute("ROLLBACK")
            if duckdb_ok and not unsupported:
                problems.append(f"{where}: DuckDB runs this query; mark it 'error unsupported' "
                                "if laneql deliberately rejects valid SQL")
            if unsupported and not duckdb_ok:
                problems.append(f"{where}: 'error unsupported' but DuckDB rejects it too")
            continue
        try:
            types, rows = duckdb_answer(forward, sql)
            _, rows_reversed = duckdb_answer(backward, sql)
        except (duckdb.Error, ValueError) as e:
            problems.append(f"{where}: {str(e).splitlines()[0]}")
            continue
        ordered = record.words[1] == "ordered"
        table_order = len(record.words) > 2 and record.words[2] == TABLE_ORDER
        if not ordered:
            rows.sort()
            rows_reversed.sort()
        if rows != rows_reversed and not table_order:
            problems.append(f"{where}: the result depends on the tables' row order "
                            "(ties under ORDER BY, LIMIT without a total order, or a "
                            "floating-point sum whose rounding depends on the order)")
            continue
        bad_types = [t for t in types if not laneql_type(t)]
        if bad_types:
            problems.append(f"{where}: DuckDB's result type {bad_types[0]} has no laneql "
                            "column type; change the query")
            continue
        new_lines[record.expected_start:record.expected_end] = rows
        flag = f" {TABLE_ORDER}" if table_order else ""
        new_lines[record.header_index] = f"query {record.words[1]}{flag} {','.join(types)}"
    if problems:
        return problems
    if new_lines != test_file.lines:
        if check_only:
            return [f"{path}: expectations differ from DuckDB's (run expect.py to refresh)"]
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(new_lines) + "\n")
        print(f"updated {path}")
    return []


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", help="corpus files (default: tests/sql/*.test)")
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 on a diff")
    parser.add_argument("--runner", default=DEFAULT_RUNNER, help="sql_corpus_runner, for hits")
    args = parser.parse_args()
    files = args.files or sorted(os.path.join(CORPUS_DIR, f) for f in os.listdir(CORPUS_DIR)
                                 if f.endswith(".test"))
    problems = []
    for path in files:
        try:
            problems += refresh(path, args.runner, args.check)
        except CorpusError as e:
            problems.append(str(e))
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
