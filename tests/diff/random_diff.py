#!/usr/bin/env python3
"""Random differential test: N random SELECTs over laneql's generated hits table, each checked
against DuckDB on the same rows (rules in diff_compare.py; generator in random_queries.py).

  .venv/bin/python tests/diff/random_diff.py --queries 1000 --seed 1 --rows 100000

hits_diff_tool generates the rows and writes them as CSV; DuckDB loads them and a sample of
them gives the generator its constants; the tool then runs every generated query through
laneql in one process. A query fails when the answers differ, when one engine rejects a query
the other runs, or when the result column types differ. Each failure (up to --minimize) is
minimised (random_minimize.py) and written as a regression record for tests/sql, with
DuckDB's rows as the expectation. Exit 1 on any failure, 2 on a set-up error.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

import duckdb

import diff_compare
import random_queries
import run_diff

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SAMPLE_ROWS = 400


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--queries", type=int, default=1000, help="how many queries (default 1000)")
    p.add_argument("--seed", type=int, default=1, help="query generator seed (default 1)")
    p.add_argument("--rows", type=int, default=100_000, help="rows of hits (default 100000)")
    p.add_argument("--data-seed", type=int, default=1, help="hits generator seed (default 1)")
    p.add_argument("--tool", default=os.path.join(REPO, "build", "native", "tests", "diff",
                                                  "hits_diff_tool"))
    p.add_argument("--runner", default=os.path.join(REPO, "build", "native", "tests", "sql",
                                                    "sql_corpus_runner"),
                   help="sql_corpus_runner (exports hits for the regression records)")
    p.add_argument("--create", default=run_diff.CLICKBENCH and os.path.join(
        run_diff.CLICKBENCH, "create.sql"), help="ClickBench's create.sql (column types)")
    p.add_argument("--workdir", default=None, help="where the CSV goes (default: a temp folder)")
    p.add_argument("--minimize", type=int, default=3,
                   help="minimise at most this many failures (default 3; 0: none)")
    p.add_argument("--regressions", default=os.path.join(REPO, "tests", "sql",
                                                         "random_regressions.test"),
                   help="where minimised failures go (a tests/sql file)")
    p.add_argument("--no-write", action="store_true", help="print regressions, write nothing")
    p.add_argument("--show", type=int, default=10, help="print at most this many failures")
    p.add_argument("--dump", default=None, help="write every query and its status to this file")
    return p.parse_args()


class Oracle:
    """The hits rows in DuckDB and laneql's tool over the same (rows, seed)."""

    def __init__(self, tool, create, rows, seed, workdir):
        self.tool, self.rows, self.seed, self.workdir = tool, rows, seed, workdir
        self.columns = run_diff.hits_columns(create)
        with tempfile.TemporaryDirectory(prefix="laneql-rdiff-", dir=workdir) as temp:
            csv_path = os.path.join(temp, "hits.csv")
            self._tool(["--csv", csv_path])
            self.con = duckdb.connect()
            run_diff.load_hits(self.con, csv_path, self.columns)
        loaded = self.con.execute("SELECT count(*) FROM hits").fetchall()[0][0]
        if loaded != rows:
            raise SystemExit("error: DuckDB loaded %d rows, expected %d" % (loaded, rows))

    def _tool(self, extra, may_fail=False):
        command = [self.tool, "--rows", str(self.rows), "--seed", str(self.seed)] + extra
        run = subprocess.run(command, stderr=subprocess.PIPE, text=True)
        if run.returncode != 0 and not may_fail:
            raise SystemExit("error: hits_diff_tool exited with %d: %s" % (run.returncode,
                                                                           run.stderr.strip()))
        return run

    def pool(self, sample_seed):
        """A ValuePool of SAMPLE_ROWS rows picked by a seeded generator (by position, so the same
        seed picks the same rows)."""
        rng = random.Random(sample_seed)
        picks = sorted(rng.sample(range(self.rows), min(SAMPLE_ROWS, self.rows)))
        cursor = self.con.execute("SELECT * FROM hits WHERE rowid IN (%s) ORDER BY rowid"
                                  % ",".join(map(str, picks)))
        names = [d[0] for d in cursor.description]
        samples = {n: [] for n in names}
        for row in cursor.fetchall():
            for n, v in zip(names, row):
                samples[n].append(v)
        return random_queries.ValuePool(self.columns, samples)

    def run_laneql(self, sqls):
        """laneql's answers (hits_diff_tool's JSON results) to `sqls`, in one process."""
        with tempfile.TemporaryDirectory(prefix="laneql-rdiff-", dir=self.workdir) as temp:
            queries_path = os.path.join(temp, "queries.sql")
            results_path = os.path.join(temp, "results.jsonl")
            with open(queries_path, "w", encoding="utf-8") as f:
                for sql in sqls:
                    assert "\n" not in sql
                    f.write(sql + "\n")
            run = self._tool(["--queries", queries_path, "--results", results_path],
                             may_fail=True)
            results = {}
            if os.path.exists(results_path):
                with open(results_path, encoding="utf-8") as f:
                    results = {r["index"]: r for r in map(json.loads, f)}
        if run.returncode != 0:
            # A crash: the tool writes (and flushes) each result as it goes, so the first query
            # without one is where it stopped; the rest are run again without it.
            stopped = next(i for i in range(len(sqls) + 1) if i not in results)
            print("laneql stopped (exit %d) at query %d: %s" % (
                run.returncode, stopped, (run.stderr.strip().splitlines() or [""])[-1]))
            if stopped < len(sqls):
                results[stopped] = {"crash": "hits_diff_tool exited with %d" % run.returncode}
                rest = self.run_laneql(sqls[stopped + 1:])
                results.update({stopped + 1 + i: r for i, r in enumerate(rest)})
        return [results.get(i) for i in range(len(sqls))]

    def compare(self, sql, got):
        """(status, note): PASS, FAIL (answers differ), ERROR (one engine rejects the query),
        TYPE (result types differ), CRASH (laneql's process died) or ORACLE (the checker cannot
        judge)."""
        if got is None:
            return "FAIL", "no laneql result"
        if "crash" in got:
            return "CRASH", got["crash"]
        if got.get("error") == "":
            return "ERROR", "laneql fails with an empty error message"
        try:
            status, _, _, note = run_diff.diff_one(self.con, sql, got, self_check=False)
        except duckdb.Error as e:
            duck_error = str(e).splitlines()[0]
            if got.get("error"):
                return "PASS", "both reject: DuckDB %s; laneql %s" % (duck_error, got["error"])
            return "ERROR", "DuckDB rejects (%s), laneql answers %d rows" % (
                duck_error, len(got["rows"]))
        except ValueError as e:
            return "ORACLE", str(e)
        if status == "FAIL" and got.get("error"):
            if diff_compare.QueryShape(sql).limit == 0 and note.startswith("laneql error"):
                # DuckDB answers an aggregate under LIMIT 0 without computing it, so it never
                # meets the error (an overflow, a failed cast) that laneql, which computes it,
                # reports. (Queries without aggregates get no overflow-prone arithmetic.)
                return "PASS", "LIMIT 0: DuckDB did not compute it; laneql: " + got["error"]
            return "ERROR", note
        if status == "PASS" and "types laneql/DuckDB" in note:
            return "TYPE", note
        return status, note


def run_queries(oracle, queries):
    sqls = [q.sql() for q in queries]
    start = time.perf_counter()
    results = oracle.run_laneql(sqls)
    laneql_s = time.perf_counter() - start
    start = time.perf_counter()
    outcomes = [oracle.compare(sql, got) for sql, got in zip(sqls, results)]
    return outcomes, laneql_s, time.perf_counter() - start


def main():
    args = parse_args()
    if args.create is None:
        print("SKIPPED: ClickBench's create.sql not found ($LANEQL_CLICKBENCH_DIR, "
              "../shared/clickbench next to the checkout, /work/shared/clickbench)")
        return 0
    if not os.access(args.tool, os.X_OK):
        print("error: no hits_diff_tool at %s (build the target hits_diff_tool)" % args.tool)
        return 2
    if args.workdir:
        os.makedirs(args.workdir, exist_ok=True)
    start = time.perf_counter()
    oracle = Oracle(args.tool, args.create, args.rows, args.data_seed, args.workdir)
    generator = random_queries.QueryGenerator(oracle.pool(args.seed), args.seed)
    queries = [generator.query() for _ in range(args.queries)]
    setup_s = time.perf_counter() - start
    outcomes, laneql_s, duck_s = run_queries(oracle, queries)

    counts = {}
    for status, _ in outcomes:
        counts[status] = counts.get(status, 0) + 1
    both_reject = sum(1 for s, n in outcomes if s == "PASS" and n.startswith("both reject"))
    failures = [(i, s, n) for i, (s, n) in enumerate(outcomes) if s != "PASS"]
    if args.dump:
        with open(args.dump, "w", encoding="utf-8") as f:
            for q, (s, n) in zip(queries, outcomes):
                f.write("%s\t%s\t%s\n" % (s, q.sql(), n))
    for i, status, note in failures[:args.show]:
        print("%s #%d: %s\n    %s" % (status, i, queries[i].sql(), note))
    print("random diff: %d queries (seed %d) on %d rows (data seed %d): %s; %d of the passes "
          "are errors in both engines" % (
              len(queries), args.seed, args.rows, args.data_seed,
              ", ".join("%d %s" % (c, s) for s, c in sorted(counts.items())), both_reject))
    print("time: set-up %.1f s, laneql %.1f s, DuckDB and checks %.1f s" % (
        setup_s, laneql_s, duck_s))

    if failures and args.minimize > 0:
        import random_minimize  # only needed on a failure
        for i, status, note in failures[:args.minimize]:
            random_minimize.report(args, oracle, queries[i], status, note)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
