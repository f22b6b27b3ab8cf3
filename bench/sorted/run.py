#!/usr/bin/env python3
"""Filters and joins over a table kept in timestamp order, laneql vs DuckDB: what zone maps
(kernel/src/storage/zone_map.h) and min/max runtime filters (exec/join_range_skip.h) skip.

  .venv/bin/python bench/sorted/run.py [--rows 10000000] [--threads 1] [--runs 5]

Makes `ts` (id, ts every 3 seconds from 2024-01-01, v, k) with the same SQL in both engines
(laneql writes it to a .laneql file under build/sorted, DuckDB keeps it in memory), checks
every answer of bench/sorted/queries.sql against DuckDB's, then times each: laneql with
`laneql bench` (medians of --runs after a warm-up), DuckDB in process (the same). The last
query (an unclustered column) is the control. Prints a Markdown table.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import duckdb

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def table_sql(rows):
    return (f"SELECT x AS id, TIMESTAMP '2024-01-01 00:00:00' + x * INTERVAL 3 SECOND AS ts, "
            f"x * 7919 % 1000 AS v, x * 2654435761 % 97 AS k FROM range({rows}) t(x)")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rows", type=int, default=10_000_000)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--laneql", default=os.path.join(REPO, "build", "native", "native-cli", "laneql"))
    args = p.parse_args()
    work = os.path.join(REPO, "build", "sorted")
    os.makedirs(work, exist_ok=True)
    path = os.path.join(work, f"ts-{args.rows}.laneql")
    if not os.path.exists(path):
        subprocess.run([args.laneql, "-c", f"COPY ({table_sql(args.rows)}) TO '{path}'"], check=True,
                       stdout=subprocess.DEVNULL)
    queries = [q.strip() for q in open(os.path.join(HERE, "queries.sql")) if q.strip()]
    con = duckdb.connect(config={"threads": args.threads})
    con.execute(f"CREATE TABLE ts AS {table_sql(args.rows)}")
    out = os.path.join(work, "laneql.json")
    subprocess.run([args.laneql, "bench", "--queries", os.path.join(HERE, "queries.sql"), "--table",
                    f"ts={path}", "--runs", str(args.runs), "--threads", str(args.threads), "--json", out],
                   check=True, stdout=subprocess.DEVNULL)
    laneql = json.load(open(out))["queries"]
    print(f"{args.rows:,} rows, {args.threads} thread(s):\n")
    print("| query | laneql ms | DuckDB ms | DuckDB / laneql |")
    print("|---|---|---|---|")
    failed = False
    for q, lq in zip(queries, laneql):
        got = subprocess.run([args.laneql, "--table", f"ts={path}", "--format", "csv", "-c", q],
                             check=True, capture_output=True, text=True).stdout.splitlines()[1:]
        want = [",".join("" if v is None else str(v) for v in row) for row in con.execute(q).fetchall()]
        if got != want:
            print(f"answers differ for {q}: laneql {got[:3]}, DuckDB {want[:3]}", file=sys.stderr)
            failed = True
        con.execute(q).fetchall()  # warm-up
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            con.execute(q).fetchall()
            times.append((time.perf_counter() - start) * 1000)
        duck = statistics.median(times)
        print(f"| `{q}` | {lq['median_ms']:.2f} | {duck:.2f} | {duck / lq['median_ms']:.1f} |")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
