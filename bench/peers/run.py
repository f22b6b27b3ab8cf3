#!/usr/bin/env python3
"""laneql against its peers on ClickBench's 43 queries: one command, one table, honest ratios.

  .venv-bench/bin/python bench/peers/run.py --rows 10000000            (what `make bench` runs)
  .venv-bench/bin/python bench/peers/run.py --rows 200000 --no-wasm     (a quick look)

Generates the hits rows (laneql's generator) and a Parquet copy for the peers, loads them into
each engine's in-memory form, runs the queries hot at each thread count with the engines
interleaved (laneql native, DuckDB, chDB, Polars), checks every answer against DuckDB's, runs
bench/wasm/run.mjs for laneql-wasm vs duckdb-wasm, measures the read-bandwidth probe, and
writes bench/results/peers-<rows>.{md,json,svg}. See bench/peers/README.md.
"""

import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import bandwidth  # noqa: E402
import chart  # noqa: E402
import data  # noqa: E402
from machine import machine_info  # noqa: E402
import outputs  # noqa: E402
import report  # noqa: E402
import runner  # noqa: E402
import stats  # noqa: E402
import wasm  # noqa: E402
from engines import LaneqlEngine, WorkerEngine  # noqa: E402

REPO = data.REPO
ENGINES = ["laneql", "duckdb", "chdb", "polars"]


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rows", type=int, default=10_000_000, help="rows of hits (default 10000000)")
    p.add_argument("--seed", type=int, default=1, help="generator seed (default 1)")
    p.add_argument("--repeat", type=int, default=3, help="timed runs per query and engine (default 3)")
    p.add_argument("--threads", default="1,2", help="thread counts, comma-separated (default 1,2)")
    p.add_argument("--engines", default=",".join(ENGINES),
                   help="of laneql,duckdb,chdb,polars (default all; laneql and duckdb are needed)")
    p.add_argument("--queries", default=None, help="lines of queries.sql, 1-based: 1-43, 3,5,20-25")
    p.add_argument("--laneql", default=os.path.join(REPO, "build", "native", "native-cli", "laneql"))
    p.add_argument("--sum-bench", default=os.path.join(REPO, "build", "native", "bench", "laneql_sum_bench"),
                   help="the program whose read-bandwidth probe is used")
    p.add_argument("--data", default=os.path.join(REPO, "data"), help="data cache folder (default data/)")
    p.add_argument("--out-dir", default=os.path.join(REPO, "bench", "results"))
    p.add_argument("--name", default=None, help="output base name (default peers-<rows>, e.g. peers-10m)")
    p.add_argument("--timeout", type=int, default=600, help="seconds one run of one query may take")
    p.add_argument("--slow-ms", type=float, default=30000,
                   help="a warm-up slower than this leaves 1 timed run, not --repeat (default 30000)")
    p.add_argument("--columns", choices=["auto", "all", "used"], default="auto",
                   help="the table's columns every engine loads: all 105, only those the queries "
                        "name, or auto (all when they fit in memory; default)")
    p.add_argument("--no-wasm", action="store_true", help="skip laneql-wasm vs duckdb-wasm")
    p.add_argument("--wasm-package", default=os.path.join(REPO, "bindings-js", "dist", "index.js"),
                   help="laneql's built npm package (for run.mjs)")
    p.add_argument("--no-bandwidth", action="store_true", help="skip the bandwidth probe")
    p.add_argument("--clickbench", default=None, help="folder with queries.sql and create.sql")
    outputs.add_report_arguments(p)
    args = p.parse_args(argv)
    runner.choose_engines(p, args, ENGINES)
    return args


def parse_query_list(text, count):
    if not text:
        return list(range(1, count + 1))
    out = set()
    for piece in text.split(","):
        lo, _, hi = piece.strip().partition("-")
        for q in range(int(lo), int(hi or lo) + 1):
            if not 1 <= q <= count:
                raise SystemExit("error: --queries: %d is outside 1-%d" % (q, count))
            out.add(q)
    return sorted(out)


def start_engines(args, dataset, threads):
    engines = []
    for name in args.engine_list:
        if name == "laneql":
            e = LaneqlEngine(args.laneql, dataset["laneql"], threads,
                             os.path.join(args.out_dir, "tmp"), args.timeout)
        else:
            e = WorkerEngine(name, {"hits": {"parquet": dataset["parquet"], "schema": dataset["schema"]}},
                             threads, args.timeout)
        engines.append(e)
    return runner.start(engines, threads)


def main(argv=None):
    args = parse_args(argv)
    if args.render:  # only the Markdown and the chart again, from a run's JSON
        base, doc = outputs.load_saved(args.render)
        outputs.write_renderings(base, doc, report.render, chart.render)
        return 0
    started = time.time()
    os.environ["TZ"] = "UTC"  # the worker processes inherit it (chDB's DateTime)
    clickbench = args.clickbench or data.find_clickbench()
    if not clickbench:
        raise SystemExit("error: ClickBench's queries.sql not found (pass --clickbench DIR)")
    for path, what in ((args.laneql, "native laneql (make build-native)"),):
        if not os.access(path, os.X_OK):
            raise SystemExit("error: no %s at %s" % (what, path))
    queries = [q.strip().rstrip(";") for q in data.read_queries(os.path.join(clickbench, "queries.sql"))]
    selected = parse_query_list(args.queries, len(queries))
    label = stats.rows_label(args.rows)
    name = args.name or "peers-%s" % label
    os.makedirs(os.path.join(args.out_dir, "tmp"), exist_ok=True)
    machine = machine_info()
    do_wasm = not args.no_wasm
    if do_wasm and not os.path.exists(args.wasm_package):
        data.log("warning: no laneql npm package at %s (make build-wasm build-js): wasm part skipped"
                 % args.wasm_package)
        do_wasm = False

    data.log("==> data: %d rows, seed %d, into %s" % (args.rows, args.seed, args.data))
    data_start = time.time()
    dataset = data.prepare(args.laneql, args.data, args.rows, args.seed,
                           os.path.join(clickbench, "create.sql"), keep_csv=do_wasm,
                           columns_mode=args.columns, queries=[queries[q - 1] for q in selected])

    data_s = time.time() - data_start
    probe_runs = {}
    sum_bench_ok = not args.no_bandwidth and os.access(args.sum_bench, os.X_OK)
    if sum_bench_ok:
        data.log("==> read-bandwidth probe (before)")
        for t, g in bandwidth.probe(args.sum_bench).items():
            probe_runs.setdefault(str(t), []).append(g)

    phases = []
    for threads in args.thread_counts:
        phase_start = time.time()
        engines = start_engines(args, dataset, threads)
        try:
            data.log("==> %d thread(s): %d queries x %d engines, warm-up + %d runs, interleaved"
                     % (threads, len(selected), len(engines), args.repeat))
            floor = runner.floor_ms(engines, args.repeat)
            data.log("   SELECT 1: " + ", ".join("%s %s ms" % (k, stats.fmt_ms(v)) for k, v in floor.items()))
            results = runner.run_phase(engines, queries, selected, args.repeat, args.slow_ms, threads)
        finally:
            for e in engines:
                e.stop()
        phases.append({"threads": threads, "engines": {e.name: e.info for e in engines},
                       "floor_ms": floor, "results": results, "duration_s": time.time() - phase_start})

    bw = None
    if sum_bench_ok:
        data.log("==> bytes read by the scan-bound queries (laneql's profile), probe (after)")
        profile = os.path.join(args.out_dir, "tmp", "profile.json")
        nbytes = {q: bandwidth.scan_bytes(args.laneql, dataset["laneql"], queries[q - 1], profile)
                  for q in bandwidth.SCAN_QUERIES if q in selected}
        for t, g in bandwidth.probe(args.sum_bench).items():
            probe_runs.setdefault(str(t), []).append(g)
        probe = {t: max(v) for t, v in probe_runs.items()}
        bw = {"probe": probe, "probe_runs": probe_runs, "probe_mb": 400,
              "queries": bandwidth.table({str(p["threads"]): p["results"] for p in phases}, nbytes, probe)}
        if args.rows <= 4_000_000:
            bw["note"] = ("At %d rows the numeric columns these queries scan (2-8 bytes a row) fit in the "
                          "last-level cache, so the shares are of a partly cache-resident read, not of memory "
                          "bandwidth (they may pass 100 %%); runs of 10 M rows and more read from memory."
                          % args.rows)

    wasm_summary = None
    if do_wasm:
        data.log("==> laneql-wasm vs duckdb-wasm in Node (bench/wasm/run.mjs)")
        wasm_start = time.time()
        raw = wasm.run(REPO, args.rows, args.seed, args.repeat, args.laneql, sys.executable,
                       args.wasm_package, args.data, os.path.join(args.out_dir, "tmp", "wasm-%s.md" % label),
                       queries=args.queries)
        wasm_summary = raw if raw.get("error") else {**wasm.summarize(raw), "repeat": args.repeat}
        wasm_summary["duration_s"] = time.time() - wasm_start
    csv = os.path.join(args.data, data.base_name(args.rows, args.seed) + ".csv")
    if os.path.exists(csv):
        os.remove(csv)

    machine["load_end"] = "%.2f" % os.getloadavg()[0]
    command = outputs.command_line(REPO, __file__, argv)
    doc = {"rows": args.rows, "seed": args.seed, "repeat": args.repeat, "engines": [e for e in args.engine_list],
           "query_count": len(selected), "threads": args.thread_counts, "phases": phases,
           "wasm": wasm_summary, "bandwidth": bw, "machine": machine, "conditions": args.conditions,
           "data": {"laneql": os.path.relpath(dataset["laneql"], REPO),
                    "parquet": os.path.relpath(dataset["parquet"], REPO),
                    "fingerprint_aggregates": dataset["fingerprint_aggregates"],
                    "columns": dataset["columns"], "columns_why": dataset["columns_why"],
                    "duration_s": data_s},
           "command": command, "started": outputs.started_text(started), "duration_s": time.time() - started}
    base = os.path.join(args.out_dir, name)
    doc = outputs.write(base, doc, report.render, chart.render)
    data.log("==> wrote %s.{md,json,svg} in %.0f s" % (os.path.relpath(base, REPO), doc["duration_s"]))
    print("\n".join(report.summary_table(doc)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
