"""Hot runs of TPC-H's 22 queries: laneql against DuckDB, query by query, on one machine.

The data comes from tests/tpch/tpch_data.py (tpchgen-cli's CSV files in build/tpch/sf<SF>/, made
there once); laneql reads .laneql copies of them (`laneql import`, inferred types, made once into
the same folder), DuckDB the same CSV files loaded into its own tables. For each query, laneql
runs it `--runs` times in one process (`laneql bench`, the files read into the page cache
first), then DuckDB as many times in Python; the
medians are printed as a Markdown table with their ratio and the geometric means. This is the
quick look a session uses before and after a change; the peer benchmark with chDB and Polars,
thread counts and reports is `make bench-tpch` (issue #44).

  .venv/bin/python bench/tpch/hot_runs.py --sf 1 --threads 2 [--queries 1,4,21]
"""
import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests", "tpch"))
import tpch_data  # noqa: E402
from run_tpch import find_tpch_queries, parse_query_list  # noqa: E402


def one_line(sql):
    """The query as one line without comments or the final semicolon (laneql bench reads one
    query per line)."""
    lines = [line.split("--")[0] for line in sql.splitlines()]
    return " ".join(" ".join(lines).split()).rstrip(";").strip()


def laneql_copies(laneql, folder):
    """The .laneql copy of every table's CSV file, imported once."""
    paths = {}
    for table, csv in tpch_data.table_paths(folder).items():
        target = os.path.join(folder, table + ".laneql")
        if not os.path.exists(target):
            subprocess.run([laneql, "import", csv, target], check=True, stdout=subprocess.DEVNULL)
        paths[table] = target
    return paths


def laneql_median(laneql, paths, sql, runs, threads):
    with tempfile.TemporaryDirectory() as work:
        query = os.path.join(work, "q.sql")
        out = os.path.join(work, "o.json")
        with open(query, "w", encoding="utf-8") as f:
            f.write(one_line(sql) + "\n")
        args = [laneql, "bench", "--queries", query, "--runs", str(runs), "--threads", str(threads), "--json", out]
        for table, path in paths.items():
            args += ["--table", "%s=%s" % (table, path)]
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
        with open(out, encoding="utf-8") as f:
            result = json.load(f)["queries"][0]
    if result.get("error"):
        raise RuntimeError(result["error"])
    return result["median_ms"]


def duckdb_median(con, sql, runs):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        con.execute(sql).fetchall()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sf", type=float, default=1)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--queries", type=parse_query_list, default=list(range(1, 23)))
    parser.add_argument("--laneql", default=os.path.join(ROOT, "build", "native", "native-cli", "laneql"))
    parser.add_argument("--workdir", default=os.path.join(ROOT, "build", "tpch"))
    args = parser.parse_args(argv)
    import duckdb

    query_dir = find_tpch_queries()
    if query_dir is None:
        print("error: TPC-H queries not found (../shared/tpch next to the checkout)")
        return 2
    folder, _ = tpch_data.ensure_data(args.workdir, args.sf, tpch_data.find_tpchgen())
    paths = laneql_copies(args.laneql, folder)
    for path in paths.values():  # into the page cache before the first timing
        with open(path, "rb") as f:
            while f.read(1 << 24):
                pass
    con = duckdb.connect()
    con.execute("SET threads = %d" % args.threads)
    tpch_data.load_duckdb(con, tpch_data.table_paths(folder))
    print("| query | laneql ms | DuckDB ms | laneql / DuckDB |")
    print("|---|---:|---:|---:|")
    ratios, lane_all, duck_all = [], [], []
    for n in args.queries:
        with open(os.path.join(query_dir, "q%02d.sql" % n), encoding="utf-8") as f:
            sql = f.read()
        lane = laneql_median(args.laneql, paths, sql, args.runs, args.threads)
        duck = duckdb_median(con, sql, args.runs)
        ratios.append(lane / duck)
        lane_all.append(lane)
        duck_all.append(duck)
        print("| Q%d | %.1f | %.1f | %.2f |" % (n, lane, duck, lane / duck), flush=True)

    def geomean(values):
        return math.exp(sum(math.log(v) for v in values) / len(values))

    print("| geometric mean | %.1f | %.1f | %.2f |" % (geomean(lane_all), geomean(duck_all), geomean(ratios)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
