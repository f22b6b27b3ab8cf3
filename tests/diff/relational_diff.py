#!/usr/bin/env python3
"""Relational differential test: N random multi-table queries (joins, subqueries, CTEs, set
operations; random_relational.py) checked against DuckDB on the same four small tables.

  .venv/bin/python tests/diff/relational_diff.py --queries 1000 --seed 1

Every --batch queries get a new data set (random_relational.make_tables), written as CSV and
loaded into both engines with the same column types; hits_diff_tool runs the batch through
laneql in one process (the tables made by CREATE TABLE / INSERT statements at its start). The
rules are random_diff.py's (diff_compare.py): rows as multisets unless ORDER BY fixes the order,
tie groups under LIMIT, floats to 1e-9 relative; a query fails when the answers differ, when one
engine rejects what the other runs (both rejecting is a pass), or when the result types differ.
Up to --minimize failures are minimised (parts of the query dropped, then rows of the tables,
while it still fails the same way) and printed with their tables. Exit 1 on any failure, 2 on a
set-up error.
"""

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
import json

import duckdb

import diff_compare
import random_relational as rr
import run_diff

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--queries", type=int, default=1000, help="how many queries (default 1000)")
    p.add_argument("--seed", type=int, default=1, help="generator seed (default 1)")
    p.add_argument("--batch", type=int, default=100,
                   help="queries per data set (default 100): each batch gets new tables")
    p.add_argument("--tool", default=os.path.join(REPO, "build", "native", "tests", "diff",
                                                  "hits_diff_tool"))
    p.add_argument("--workdir", default=None, help="where the CSV files go (default: temp)")
    p.add_argument("--minimize", type=int, default=3,
                   help="minimise at most this many failures (default 3; 0: none)")
    p.add_argument("--show", type=int, default=10, help="print at most this many failures")
    p.add_argument("--only", type=int, default=None, help="run query number ONLY alone")
    p.add_argument("--dump", default=None, help="write every query and its status to this file")
    p.add_argument("--timeout", type=float, default=300, help="seconds per laneql process")
    return p.parse_args(argv)


class DataSet:
    """One set of tables, in DuckDB and (as statements run first) in laneql."""

    def __init__(self, tables, tool, workdir, timeout):
        self.tables, self.tool, self.timeout = tables, tool, timeout
        self.temp = tempfile.TemporaryDirectory(prefix="laneql-reldiff-", dir=workdir)
        self.setup = []
        for name, rows in sorted(tables.items()):
            path = os.path.join(self.temp.name, name + ".csv")
            with open(path, "w", encoding="utf-8") as f:
                f.write(rr.csv_text(name, rows))
            quoted = path.replace("'", "''")
            self.setup += [rr.create_sql(name),
                           "INSERT INTO %s SELECT * FROM read_csv('%s', header => true, "
                           "quote => '\"', escape => '\"')" % (name, quoted)]
        self.connect()

    def connect(self):
        """A DuckDB connection holding the tables (again, after DuckDB failed internally)."""
        self.con = duckdb.connect()
        for name in sorted(self.tables):
            quoted = os.path.join(self.temp.name, name + ".csv").replace("'", "''")
            self.con.execute(rr.create_sql(name))
            self.con.execute("COPY %s FROM '%s' (FORMAT csv, HEADER true, QUOTE '\"', ESCAPE '\"', "
                             "NULLSTR '', ALLOW_QUOTED_NULLS false)" % (name, quoted))

    def close(self):
        self.con.close()
        self.temp.cleanup()

    def check_setup(self):
        """None when laneql's tables hold DuckDB's rows with DuckDB's types, else what differs."""
        checks = ["SELECT * FROM %s" % n for n in sorted(self.tables)]
        for sql, got in zip(checks, self.run_laneql(checks)):
            status, note = self.compare(sql, got)
            if status != "PASS" or "laneql/DuckDB" in note:
                return "%s: %s %s" % (sql, status, note)
        return None

    def run_laneql(self, sqls):
        """laneql's answers (hits_diff_tool's JSON results) to `sqls`, in one process after the
        set-up statements; a crash or a timeout ends the answers there, the rest run again."""
        lines = self.setup + list(sqls)
        with tempfile.TemporaryDirectory(prefix="laneql-reldiff-", dir=self.temp.name) as temp:
            queries_path = os.path.join(temp, "queries.sql")
            results_path = os.path.join(temp, "results.jsonl")
            with open(queries_path, "w", encoding="utf-8") as f:
                for sql in lines:
                    assert "\n" not in sql
                    f.write(sql + "\n")
            try:
                run = subprocess.run([self.tool, "--rows", "0", "--queries", queries_path,
                                      "--results", results_path], stderr=subprocess.PIPE,
                                     text=True, timeout=self.timeout)
                failure = None if run.returncode == 0 else "hits_diff_tool exited with %d" % (
                    run.returncode)
            except subprocess.TimeoutExpired:
                failure = "hits_diff_tool ran out of time (%g s)" % self.timeout
            results = {}
            if os.path.exists(results_path):
                with open(results_path, encoding="utf-8") as f:
                    results = {r["index"]: r for r in map(json.loads, f)}
        for i in range(len(self.setup)):
            if i not in results or results[i].get("error"):
                raise SystemExit("error: laneql's set-up statement failed: %s: %s" % (
                    self.setup[i], results.get(i, {}).get("error", failure)))
        out = [results.get(len(self.setup) + i) for i in range(len(sqls))]
        if failure:
            stopped = next(i for i in range(len(sqls) + 1) if out[i] is None)
            if stopped < len(sqls):
                out[stopped] = {"crash": failure}
                out[stopped + 1:] = self.run_laneql(sqls[stopped + 1:])
        return out

    def compare(self, sql, got):
        """(status, note): PASS, FAIL, ERROR (one engine rejects), TYPE, CRASH or ORACLE."""
        if got is None:
            return "FAIL", "no laneql result"
        if "crash" in got:
            return "CRASH", got["crash"]
        if got.get("error") == "":
            return "ERROR", "laneql fails with an empty error message"
        try:
            status, _, _, note = run_diff.diff_one(self.con, sql, got, False, diff_compare.WithQueryShape(sql))
        except duckdb.Error as e:
            duck_error = str(e).splitlines()[0]
            if duck_error.startswith(("INTERNAL Error", "FATAL Error")):
                # DuckDB's own failure, after which it refuses every query: a fresh connection.
                self.con.close()
                self.connect()
                return "ORACLE", "DuckDB fails internally: " + duck_error
            if got.get("error"):
                return "PASS", "both reject: DuckDB %s; laneql %s" % (duck_error, got["error"])
            return "ERROR", "DuckDB rejects (%s), laneql answers %d rows" % (
                duck_error, len(got["rows"]))
        except ValueError as e:
            return "ORACLE", str(e)
        if status == "FAIL" and got.get("error"):
            return "ERROR", note
        if status == "PASS" and "types laneql/DuckDB" in note:
            return "TYPE", note
        return status, note


def same_failure(status, note, other_status, other_note):
    """Whether a minimiser step fails as the original did: same status, same engine erring."""
    if status != other_status:
        return False
    if status == "ERROR":
        return other_note.startswith("DuckDB rejects") == note.startswith("DuckDB rejects")
    return True


def minimize_query(data, query, status, note, rounds=300):
    for _ in range(rounds):
        seen, steps = set(), []
        for step in query.smaller():
            if step.sql() not in seen:
                seen.add(step.sql())
                steps.append(step)
        if not steps:
            break
        for step, got in zip(steps, data.run_laneql([s.sql() for s in steps])):
            s, n = data.compare(step.sql(), got)
            if same_failure(status, note, s, n):
                query, note = step, n
                break
        else:
            break
    return query, note


def minimize_rows(args, tables, sql, status, note):
    """Tables with rows dropped (halves, quarters, ... down to single rows) while `sql` still
    fails the same way."""
    def fails(candidate):
        data = DataSet(candidate, args.tool, args.workdir, args.timeout)
        try:
            got = data.run_laneql([sql])[0]
            s, n = data.compare(sql, got)
        finally:
            data.close()
        return same_failure(status, note, s, n), n

    tables = dict(tables)
    for name in sorted(tables):
        if name not in sql:
            tables[name] = []
            continue
        chunk = len(tables[name])
        while chunk >= 1:
            start = 0
            while start < len(tables[name]):
                rows = tables[name]
                candidate = dict(tables, **{name: rows[:start] + rows[start + chunk:]})
                still, n = fails(candidate)
                if still:
                    tables, note = candidate, n
                else:
                    start += chunk
            chunk //= 2
    return tables, note


def describe_tables(tables, sql):
    """The tables `sql` names as corpus `table` blocks (tests/sql/README.md)."""
    out = []
    for name in sorted(tables):
        if name not in sql:
            continue
        out.append("table %s(%s)" % (name, ", ".join("%s %s" % c for c in rr.TABLES[name])))
        for row in tables[name]:
            out.append(" | ".join("NULL" if v is None else "(empty)" if v == "" else str(v)
                                  for v in row))
        out.append("")
    return "\n".join(out)


def report(args, tables, query, status, note):
    print("\n==> minimising %s: %s" % (status, query.sql()))
    data = DataSet(tables, args.tool, args.workdir, args.timeout)
    try:
        small, small_note = minimize_query(data, query, status, note)
    finally:
        data.close()
    rows, small_note = minimize_rows(args, tables, small.sql(), status, small_note)
    print("minimised: %s\n    %s: %s\n%s" % (small.sql(), status, small_note,
                                           describe_tables(rows, small.sql())))


def main(argv=None):
    args = parse_args(argv)
    if not os.access(args.tool, os.X_OK):
        print("error: no hits_diff_tool at %s (build the target hits_diff_tool)" % args.tool)
        return 2
    if args.workdir:
        os.makedirs(args.workdir, exist_ok=True)
    start = time.perf_counter()
    generator = rr.Generator(args.seed)
    queries = [generator.query() for _ in range(args.queries)]
    indexes = [args.only] if args.only is not None else list(range(len(queries)))
    outcomes, batches = {}, {}
    laneql_s = duck_s = 0.0
    for b in range(0, len(queries), args.batch):
        part = [i for i in indexes if b <= i < b + args.batch]
        if not part:
            continue
        tables = rr.make_tables(random.Random(args.seed * 1000003 + b // args.batch))
        data = DataSet(tables, args.tool, args.workdir, args.timeout)
        try:
            problem = data.check_setup()
            if problem:
                print("error: laneql's tables differ from DuckDB's: " + problem)
                return 2
            t0 = time.perf_counter()
            results = data.run_laneql([queries[i].sql() for i in part])
            t1 = time.perf_counter()
            for i, got in zip(part, results):
                outcomes[i] = data.compare(queries[i].sql(), got)
                batches[i] = tables
            laneql_s += t1 - t0
            duck_s += time.perf_counter() - t1
        finally:
            data.close()

    counts = {}
    for status, _ in outcomes.values():
        counts[status] = counts.get(status, 0) + 1
    both = sum(1 for s, n in outcomes.values() if s == "PASS" and n.startswith("both reject"))
    failures = [(i, s, n) for i, (s, n) in sorted(outcomes.items()) if s != "PASS"]
    if args.dump:
        with open(args.dump, "w", encoding="utf-8") as f:
            for i, (s, n) in sorted(outcomes.items()):
                f.write("%d\t%s\t%s\t%s\n" % (i, s, queries[i].sql(), n))
    for i, status, note in failures[:args.show]:
        print("%s #%d: %s\n    %s" % (status, i, queries[i].sql(), note))
    print("relational diff: %d queries (seed %d, %d per data set): %s; %d of the passes are "
          "errors in both engines" % (len(outcomes), args.seed, args.batch, ", ".join(
              "%d %s" % (c, s) for s, c in sorted(counts.items())), both))
    print("time: %.1f s in all, laneql %.1f s, DuckDB and checks %.1f s" % (
        time.perf_counter() - start, laneql_s, duck_s))
    for i, status, note in failures[:args.minimize]:
        report(args, batches[i], queries[i], status, note)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
