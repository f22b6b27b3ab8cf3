"""DuckDB's CSV ingest on the file laneql_csv_ingest_bench writes (run that with --keep first):
CREATE TABLE t AS SELECT * FROM read_csv(...) at 1 and 2 threads, median MB/s and rows/s.

    /work/main/.venv/bin/python bench/csv_ingest_duckdb.py [--file PATH] [--runs R]
"""
import argparse
import os
import statistics
import time

import duckdb


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--file", default="/tmp/laneql_csv_ingest_bench.csv")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    mb = os.path.getsize(args.file) / 1e6
    print(f"duckdb {duckdb.__version__}; {mb:.1f} MB CSV at {args.file}; median of {args.runs} runs")
    print(f"{'threads':>8} {'MB/s':>10} {'rows/s':>12}")
    for threads in (1, 2):
        con = duckdb.connect()
        con.execute(f"SET threads={threads}")
        times = []
        rows = 0
        for _ in range(args.runs):
            con.execute("DROP TABLE IF EXISTS t")
            start = time.perf_counter()
            con.execute("CREATE TABLE t AS SELECT * FROM read_csv(?)", [args.file])
            times.append(time.perf_counter() - start)
            rows = con.execute("SELECT count(*) FROM t").fetchall()[0][0]
        seconds = statistics.median(times)
        print(f"{threads:>8} {mb / seconds:>10.1f} {rows / seconds:>12.0f}")
        con.close()


if __name__ == "__main__":
    main()
