#!/usr/bin/env python3
"""TPC-H's 22 queries: laneql against DuckDB, chDB and Polars, and laneql-wasm against
duckdb-wasm, one command (`make bench-tpch`), every answer checked against DuckDB's.

  .venv-bench/bin/python bench/tpch/run.py --sf 1                      (what make bench-tpch runs)
  .venv-bench/bin/python bench/tpch/run.py --sf 0.1 --no-wasm --queries 1-5

The data is tpchgen-cli's (tests/tpch/tpch_data.py); laneql reads .laneql copies, the peers
Parquet copies with the same types (tpch_dataset.py). The engines run each query hot at each
thread count, interleaved (bench/peers/runner.py: a warm-up whose answer is checked, then
--repeat timed runs, the order rotated). Writes bench/results/tpch-sf<SF>.{md,json,svg}.
See bench/tpch/README.md.
"""

import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "bench", "peers"))
sys.path.insert(0, HERE)

import chart  # noqa: E402
import data  # noqa: E402
import runner  # noqa: E402
import tpch_dataset  # noqa: E402
import tpch_dialects  # noqa: E402
import tpch_report  # noqa: E402
import tpch_wasm  # noqa: E402
from engines import LaneqlEngine, WorkerEngine  # noqa: E402
from machine import machine_info  # noqa: E402
import outputs  # noqa: E402
from run_tpch import find_tpch_queries, parse_query_list  # noqa: E402  (tests/tpch)

ENGINES = ["laneql", "duckdb", "chdb", "polars"]


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sf", type=float, default=1, help="scale factor (default 1)")
    p.add_argument("--repeat", type=int, default=3, help="timed runs per query and engine (default 3)")
    p.add_argument("--threads", default="1,2", help="thread counts, comma-separated (default 1,2)")
    p.add_argument("--engines", default=",".join(ENGINES),
                   help="of laneql,duckdb,chdb,polars (default all; laneql and duckdb are needed)")
    p.add_argument("--queries", default="1-22", help="query numbers: 1-22, 3,5,20-22")
    p.add_argument("--laneql", default=os.path.join(REPO, "build", "native", "native-cli", "laneql"))
    p.add_argument("--workdir", default=os.path.join(REPO, "build", "tpch"),
                   help="where the data is made once per scale factor (default build/tpch)")
    p.add_argument("--out-dir", default=os.path.join(REPO, "bench", "results"))
    p.add_argument("--name", default=None, help="output base name (default tpch-sf<SF>)")
    p.add_argument("--timeout", type=int, default=600, help="seconds one run of one query may take")
    p.add_argument("--slow-ms", type=float, default=30000,
                   help="a warm-up slower than this leaves 1 timed run, not --repeat (default 30000)")
    p.add_argument("--no-wasm", action="store_true", help="skip laneql-wasm vs duckdb-wasm")
    p.add_argument("--wasm-sf", type=float, default=None,
                   help="scale factor of the wasm comparison (default --sf; wasm32 has 4 GB)")
    outputs.add_report_arguments(p)
    args = p.parse_args(argv)
    runner.choose_engines(p, args, ENGINES)
    try:
        args.query_numbers = parse_query_list(args.queries)
    except ValueError as e:
        p.error("--queries: %s" % e)
    return args


def one_line(sql):
    """The query as one line without comments or the final semicolon (`laneql bench` reads one
    query per line; every engine runs this same text)."""
    lines = [line.split("--")[0] for line in sql.splitlines()]
    return " ".join(" ".join(lines).split()).rstrip(";").strip()


def read_queries(query_dir):
    """The 22 queries, index 0 = Q1, each as one line."""
    out = []
    for n in range(1, 23):
        with open(os.path.join(query_dir, "q%02d.sql" % n), encoding="utf-8") as f:
            out.append(one_line(f.read()))
    return out


def start_engines(args, dataset, threads):
    tables = {t: {"parquet": dataset["parquet"][t], "schema": dataset["schemas"][t]}
              for t in tpch_dataset.TABLES}
    engines = []
    for name in args.engine_list:
        if name == "laneql":
            e = LaneqlEngine(args.laneql, dataset["laneql"], threads, os.path.join(args.out_dir, "tmp"),
                             args.timeout, dialect=tpch_dialects)
        else:
            e = WorkerEngine(name, tables, threads, args.timeout, dialect=tpch_dialects,
                             settings=tpch_dialects.SETTINGS)
        engines.append(e)
    return runner.start(engines, threads)


def run_phase(args, dataset, queries, threads):
    started = time.time()
    engines = start_engines(args, dataset, threads)
    try:
        data.log("==> %d thread(s): %d queries x %d engines, warm-up + %d runs, interleaved"
                 % (threads, len(args.query_numbers), len(engines), args.repeat))
        floor = runner.floor_ms(engines, args.repeat)
        results = runner.run_phase(engines, queries, args.query_numbers, args.repeat, args.slow_ms, threads)
        memory = {e.name: e.memory() for e in engines}
    finally:
        for e in engines:
            e.stop()
    return {"threads": threads, "engines": {e.name: e.info for e in engines}, "floor_ms": floor,
            "results": results, "memory": memory, "duration_s": time.time() - started}


def main(argv=None):
    args = parse_args(argv)
    if args.render:
        base, doc = outputs.load_saved(args.render)
        outputs.write_renderings(base, doc, tpch_report.render, render_svg)
        return 0
    started = time.time()
    os.environ["TZ"] = "UTC"
    query_dir = find_tpch_queries()
    if query_dir is None:
        raise SystemExit("error: TPC-H's queries not found (../shared/tpch/queries; or LANEQL_TPCH_DIR)")
    if not os.access(args.laneql, os.X_OK):
        raise SystemExit("error: no native laneql at %s (make build-native)" % args.laneql)
    queries = read_queries(query_dir)
    name = args.name or "tpch-sf%g" % args.sf
    os.makedirs(os.path.join(args.out_dir, "tmp"), exist_ok=True)
    machine = machine_info()

    data.log("==> data: TPC-H SF %g into %s" % (args.sf, args.workdir))
    data_start = time.time()
    dataset = tpch_dataset.prepare(args.laneql, args.workdir, args.sf,
                                   lambda paths: lambda sql: data.laneql_answer(args.laneql, paths, sql))
    data_s = time.time() - data_start

    phases = [run_phase(args, dataset, queries, t) for t in args.thread_counts]

    wasm = None
    if not args.no_wasm:
        data.log("==> laneql-wasm vs duckdb-wasm in Node (bench/tpch/wasm.mjs)")
        wasm_sf = args.wasm_sf if args.wasm_sf is not None else args.sf
        folder = tpch_dataset.csv_folder(args.workdir, wasm_sf)
        wasm = tpch_wasm.run(REPO, folder, query_dir, args.repeat, args.queries,
                             os.path.join(args.out_dir, "tmp", "wasm-%s.json" % name))
        wasm["sf"] = wasm_sf

    machine["load_end"] = "%.2f" % os.getloadavg()[0]
    command = outputs.command_line(REPO, __file__, argv)
    rel = lambda paths: {t: os.path.relpath(p, REPO) for t, p in paths.items()}  # noqa: E731
    doc = {"sf": args.sf, "repeat": args.repeat, "engines": args.engine_list,
           "query_count": len(args.query_numbers), "threads": args.thread_counts, "phases": phases,
           "wasm": wasm, "machine": machine, "conditions": args.conditions,
           "data": {"csv_folder": os.path.relpath(dataset["csv_folder"], REPO), "laneql": rel(dataset["laneql"]),
                    "parquet": rel(dataset["parquet"]), "schemas": dataset["schemas"],
                    "fingerprint_aggregates": dataset["fingerprint_aggregates"], "duration_s": data_s},
           "command": command, "started": outputs.started_text(started), "duration_s": time.time() - started}
    base = os.path.join(args.out_dir, name)
    doc = outputs.write(base, doc, tpch_report.render, render_svg)
    data.log("==> wrote %s.{md,json,svg} in %.0f s" % (os.path.relpath(base, REPO), doc["duration_s"]))
    print("\n".join(tpch_report.summary_table(doc)))
    return 0


def render_svg(doc):
    return chart.render(doc, "TPC-H SF %g" % doc["sf"])


if __name__ == "__main__":
    sys.exit(main())
