#!/usr/bin/env python3
"""DuckDB differential test: the ClickBench queries on laneql's generated hits table, checked
against DuckDB on the same rows (comparison rules in diff_compare.py).

  .venv/bin/python tests/diff/run_diff.py --tool build/native/tests/diff/hits_diff_tool \\
      --rows 1000000

Runs hits_diff_tool (generates the table, writes it as CSV, runs every query through laneql),
loads the CSV into DuckDB with create.sql's column types, runs each query in DuckDB, prints a
PASS/FAIL table and exits 1 on any FAIL (2 on a usage or set-up error).
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

import duckdb

import diff_compare

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def find_clickbench():
    """The folder with ClickBench's create.sql and queries.sql, handed to the project and never
    copied in: $LANEQL_CLICKBENCH_DIR, ../shared/clickbench next to the checkout, or for a clone
    elsewhere on the same machine /work/shared/clickbench. None when it is nowhere."""
    candidates = [os.environ.get("LANEQL_CLICKBENCH_DIR", ""),
                  os.path.join(os.path.dirname(REPO), "shared", "clickbench"),
                  "/work/shared/clickbench"]
    for candidate in candidates:
        if candidate and os.path.isfile(os.path.join(candidate, "queries.sql")):
            return candidate
    return None


CLICKBENCH = find_clickbench()


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rows", type=int, default=1_000_000, help="rows of hits (default 1000000)")
    p.add_argument("--seed", type=int, default=1, help="generator seed (default 1)")
    p.add_argument("--tool", default=os.path.join(REPO, "build", "native", "tests", "diff",
                                                  "hits_diff_tool"),
                   help="the hits_diff_tool binary (default build/native/tests/diff/...)")
    p.add_argument("--queries", default=CLICKBENCH and os.path.join(CLICKBENCH, "queries.sql"),
                   help="queries laneql runs, one per line (default ClickBench's queries.sql)")
    p.add_argument("--oracle-queries", default=None,
                   help="the same queries in DuckDB's dialect, line for line (default: --queries)")
    p.add_argument("--create", default=CLICKBENCH and os.path.join(CLICKBENCH, "create.sql"),
                   help="the CREATE TABLE hits statement whose column types DuckDB loads with")
    p.add_argument("--only", default=None, help="comma-separated query indexes to run (0-based)")
    p.add_argument("--workdir", default=None,
                   help="where the CSV and results go (default: a temporary folder, removed)")
    p.add_argument("--self-check", action="store_true",
                   help="also check that wrong variants of each passing answer are rejected")
    p.add_argument("--duckdb-threads", type=int, default=None, help="DuckDB's thread count")
    return p.parse_args()


def read_queries(path):
    with open(path, encoding="utf-8") as f:
        return [line.rstrip("\n") for line in f if line.strip()]


def hits_columns(create_path):
    """(name, type) of every column of the CREATE TABLE hits in create_path: ClickBench's
    create.sql is ClickHouse DDL, so only its column lines are taken, not the engine clauses."""
    with open(create_path, encoding="utf-8") as f:
        text = f.read()
    columns = re.findall(r"^\s+([A-Za-z_]\w*)\s+([A-Za-z]+(?:\(\d+\))?)\s+NOT NULL\s*,?\s*$",
                         text, re.M)
    if not columns:
        raise SystemExit("error: no 'Name TYPE NOT NULL' column lines in %s" % create_path)
    return columns


def load_hits(con, csv_path, columns):
    ddl = ",\n".join("  %s %s NOT NULL" % (n, t) for n, t in columns)
    con.execute("CREATE OR REPLACE TABLE hits (\n%s\n)" % ddl)
    # Every string field is quoted by the tool and '\N' never appears, so '' stays ''.
    con.execute("COPY hits FROM '%s' (FORMAT csv, HEADER true, DELIMITER ',', QUOTE '\"', "
                "ESCAPE '\"', NULLSTR '\\N', ALLOW_QUOTED_NULLS false)" % csv_path.replace("'", "''"))


def fetch_ordered(con, shape, output_names):
    """DuckDB's ordered answer without LIMIT/OFFSET: rows (output columns), their ORDER BY keys,
    and whether every row was fetched (it stops after the tie group at the window's end)."""
    sql, key_places, extra_count = shape.full_answer_sql(output_names)
    cursor = con.execute(sql)
    width = len(cursor.description) - extra_count
    need = None if shape.limit is None else shape.offset + shape.limit
    rows, keys = [], []
    while True:
        chunk = cursor.fetchmany(8192)
        if not chunk:
            return rows, keys, True
        for r in chunk:
            rows.append(tuple(r[:width]))
            keys.append(tuple(r[c] if kind == "out" else r[width + c] for kind, c in key_places))
        if need is not None and len(rows) > need and (
                need == 0 or not diff_compare.rows_match(keys[need - 1], keys[-1])):
            # DuckDB 2.0 refuses further work on a connection whose result was not read to
            # its end: drop the rest.
            con.abort()
            return rows, keys, False


def trivial_note(rows):
    if not rows:
        return "empty answer"
    if len(rows) == 1 and all(v in (0, None) for v in rows[0]):
        return "answer is all zero"
    return ""


def diff_one(con, oracle_sql, got, self_check, shape=None):
    """Returns (status, duckdb_row_count, duckdb_ms, note). `shape`: the query's QueryShape (or
    an object with the same fields, for a query that starts with WITH)."""
    shape = shape or diff_compare.QueryShape(oracle_sql)
    start = time.perf_counter()
    own = con.execute(oracle_sql)
    duck_types = [str(d[1]).upper() for d in own.description]
    duck_names = [d[0] for d in own.description]
    own_rows = own.fetchall()
    duck_ms = (time.perf_counter() - start) * 1e3
    if got.get("error"):
        return "FAIL", len(own_rows), duck_ms, "laneql error: %s" % got["error"]

    full_rows, full_keys, complete = fetch_ordered(con, shape, duck_names)
    float_columns = {i for i, t in enumerate(duck_types) if t in diff_compare.FLOAT_TYPES}
    float_columns |= {i for i, t in enumerate(got["types"]) if t in diff_compare.FLOAT_TYPES}
    # The checker must accept DuckDB's own LIMIT answer; if not, the oracle side is wrong.
    oracle_problem = diff_compare.check_window(own_rows, full_rows, full_keys, shape.offset,
                                               shape.limit, complete, float_columns)
    if oracle_problem:
        return "ORACLE", len(own_rows), duck_ms, "checker rejects DuckDB's answer: " + oracle_problem

    notes = []
    if len(got["columns"]) != len(duck_names):
        return "FAIL", len(own_rows), duck_ms, "%d columns %s, DuckDB %d %s" % (
            len(got["columns"]), got["columns"], len(duck_names), duck_names)
    laneql_rows = [tuple(diff_compare.laneql_value(v, t) for v, t in zip(row, got["types"]))
                   for row in got["rows"]]
    problem = diff_compare.check_window(laneql_rows, full_rows, full_keys, shape.offset,
                                        shape.limit, complete, float_columns)
    type_diffs = ["%s %s/%s" % (n, lt, dt) for n, lt, dt in zip(duck_names, got["types"], duck_types)
                  if lt != dt]
    if type_diffs:
        notes.append("types laneql/DuckDB: " + ", ".join(type_diffs))
    name_diffs = ["%s/%s" % (a, b) for a, b in zip(got["columns"], duck_names) if a != b]
    if name_diffs:
        notes.append("names laneql/DuckDB: " + ", ".join(name_diffs))
    other_pick = diff_compare.unmatched_rows(laneql_rows, own_rows, float_columns)
    if not problem and other_pick:
        notes.append("%d rows are other ties than DuckDB's" % len(other_pick))
    if trivial_note(own_rows):
        notes.append(trivial_note(own_rows))
    if problem:
        return "FAIL", len(own_rows), duck_ms, "; ".join([problem] + notes)
    if self_check and laneql_rows:
        # The check must be able to fail: every wrong variant of this answer must be rejected.
        for what, wrong in diff_compare.mutations(laneql_rows):
            if diff_compare.check_window(wrong, full_rows, full_keys, shape.offset, shape.limit,
                                         complete, float_columns) is None:
                return "ORACLE", len(own_rows), duck_ms, "checker accepts a wrong answer (%s)" % what
    return "PASS", len(own_rows), duck_ms, "; ".join(notes)


def main():
    args = parse_args()
    if args.queries is None or args.create is None:
        print("SKIPPED: ClickBench's queries.sql / create.sql not found ($LANEQL_CLICKBENCH_DIR, "
              "../shared/clickbench next to the checkout, /work/shared/clickbench); pass "
              "--queries and --create")
        return 0
    queries = read_queries(args.queries)
    oracle_queries = read_queries(args.oracle_queries) if args.oracle_queries else queries
    if len(oracle_queries) != len(queries):
        print("error: %s has %d queries, %s %d" % (args.queries, len(queries),
                                                   args.oracle_queries, len(oracle_queries)))
        return 2
    if not os.access(args.tool, os.X_OK):
        print("error: no hits_diff_tool at %s (build the target hits_diff_tool, or pass --tool)"
              % args.tool)
        return 2
    only = None if args.only is None else {int(i) for i in args.only.split(",")}
    columns = hits_columns(args.create)

    if args.workdir:
        os.makedirs(args.workdir, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="laneql-diff-", dir=args.workdir) as workdir:
        csv_path = os.path.join(workdir, "hits.csv")
        results_path = os.path.join(workdir, "laneql.jsonl")
        start = time.perf_counter()
        run = subprocess.run([args.tool, "--rows", str(args.rows), "--seed", str(args.seed),
                              "--csv", csv_path, "--queries", args.queries,
                              "--results", results_path], stderr=subprocess.PIPE, text=True)
        tool_s = time.perf_counter() - start
        print(run.stderr, end="", flush=True)
        if run.returncode != 0:
            print("error: hits_diff_tool exited with %d" % run.returncode)
            return 2
        csv_mb = os.path.getsize(csv_path) / 1e6
        with open(results_path, encoding="utf-8") as f:
            laneql_results = {r["index"]: r for r in map(json.loads, f)}

        con = duckdb.connect()
        if args.duckdb_threads:
            con.execute("SET threads = %d" % args.duckdb_threads)
        start = time.perf_counter()
        load_hits(con, csv_path, columns)
        load_s = time.perf_counter() - start
        os.remove(csv_path)  # the table is in DuckDB now; free the disk early

    loaded = con.execute("SELECT count(*) FROM hits").fetchall()[0][0]
    print("hits: %d rows (seed %d); laneql tool %.1f s (generate, %.0f MB CSV, queries); "
          "DuckDB load %.1f s" % (loaded, args.seed, tool_s, csv_mb, load_s))
    if loaded != args.rows:
        print("error: DuckDB loaded %d rows, expected %d" % (loaded, args.rows))
        return 2

    print("%-4s %-6s %9s %9s %10s %10s  %s" % ("Q", "status", "laneql", "DuckDB", "laneql ms",
                                                "DuckDB ms", "note"))
    failures = 0
    start = time.perf_counter()
    for index, (sql, oracle_sql) in enumerate(zip(queries, oracle_queries)):
        if only is not None and index not in only:
            continue
        got = laneql_results.get(index)
        if got is None:
            status, duck_count, duck_ms, note = "FAIL", 0, 0.0, "no laneql result"
        else:
            try:
                status, duck_count, duck_ms, note = diff_one(con, oracle_sql, got, args.self_check)
            except (duckdb.Error, ValueError) as e:
                status, duck_count, duck_ms, note = "ORACLE", 0, 0.0, "%s: %s; laneql: %s" % (
                    type(e).__name__, str(e).splitlines()[0], got.get("error") or "ok")
        failures += status != "PASS"
        print("Q%-3d %-6s %9s %9d %10s %10.1f  %s" % (
            index, status, len(got["rows"]) if got else "-", duck_count,
            "%.1f" % got["ms"] if got else "-", duck_ms, note), flush=True)
    print("%d of %d queries passed; DuckDB side %.1f s" % (
        sum(1 for i in range(len(queries)) if only is None or i in only) - failures,
        len(queries) if only is None else len(only), time.perf_counter() - start))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
