#!/usr/bin/env python3
"""Work efficiency on few cores: each query's CPU time (all threads) at 1, 4, 16 and 64 threads.

  .venv/bin/python bench/efficiency/run.py                     (what `make bench-efficiency` runs)
  .venv/bin/python bench/efficiency/run.py --suites tpch --threads 1,16 --runs 1 --out-dir /tmp/e

A query can only scale on many cores if the work it does stays the same as threads are added:
work done once per thread (every owner reading every row), serial phases that grow with the
thread count, and contention all show up as CPU time that grows with the threads, even on a
machine with 2 cores where the threads take turns. So this runs ClickBench's 43 queries (laneql's
generated hits table, --hits-rows rows) and TPC-H's 22 (laneql's generator at --tpch-sf) through
`laneql bench --threads T` at each thread count, and reports per query the median wall and CPU
time and CPU(T) / CPU(1), and per phase (scan, probe, aggregate, merge, convert, sort, output)
the CPU time of one profiled run from its trace (phases.py). Writes
bench/results/efficiency.{md,json}; see bench/efficiency/README.md.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(REPO, "bench", "peers"))
sys.path.insert(0, os.path.join(REPO, "bench", "tpch"))
sys.path.insert(0, os.path.join(REPO, "tests", "tpch"))
sys.path.insert(0, os.path.join(REPO, "tests", "diff"))

import efficiency_report  # noqa: E402
import phases  # noqa: E402
from machine import machine_info  # noqa: E402
import outputs  # noqa: E402

TPCH_TABLES = ["customer", "lineitem", "nation", "orders", "part", "partsupp", "region", "supplier"]


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--laneql", default=os.path.join(REPO, "build", "native", "native-cli", "laneql"))
    p.add_argument("--threads", default="1,4,16,64", help="thread counts, the first the baseline")
    p.add_argument("--runs", type=int, default=3, help="timed runs per query (after a warm-up)")
    p.add_argument("--suites", default="clickbench,tpch")
    p.add_argument("--hits-rows", type=int, default=10_000_000)
    p.add_argument("--tpch-sf", type=float, default=1.0)
    p.add_argument("--data-dir", default=os.path.join(REPO, "data"))
    p.add_argument("--out-dir", default=os.path.join(REPO, "bench", "results"))
    p.add_argument("--name", default="efficiency")
    p.add_argument("--slow-ms", type=float, default=100.0,
                   help="queries at least this slow at the first thread count are held to the target")
    p.add_argument("--render", metavar="JSON", help="only re-render a saved efficiency JSON")
    args = p.parse_args(argv)
    args.thread_counts = [int(t) for t in args.threads.split(",") if t.strip()]
    args.suite_list = [s.strip() for s in args.suites.split(",") if s.strip()]
    return args


def log(message):
    print(message, file=sys.stderr, flush=True)


def run_checked(argv):
    log("$ " + " ".join(argv))
    done = subprocess.run(argv, stdout=subprocess.DEVNULL)
    if done.returncode != 0:
        raise SystemExit("error: %s failed (exit %d)" % (argv[0], done.returncode))


def clickbench_suite(args):
    import data  # bench/peers/data.py: the hits table, made once per (rows, seed)
    folder = data.find_clickbench()
    if folder is None:
        raise SystemExit("error: ClickBench's queries not found (../shared/clickbench; or LANEQL_CLICKBENCH_DIR)")
    os.makedirs(args.data_dir, exist_ok=True)
    path = data.generate(args.laneql, args.data_dir, args.hits_rows, 1, ".laneql")
    queries = data.read_queries(os.path.join(folder, "queries.sql"))
    return {"name": "clickbench", "title": "ClickBench, %s generated rows" % format(args.hits_rows, ","),
            "tables": {"hits": path}, "queries": queries}


def tpch_suite(args):
    import importlib.util
    from run_tpch import find_tpch_queries
    # bench/tpch/run.py's read_queries (the 22 queries, one line each); that module is also
    # named run, so it is loaded by its path.
    spec = importlib.util.spec_from_file_location("tpch_run", os.path.join(REPO, "bench", "tpch", "run.py"))
    tpch_run = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tpch_run)
    read_queries = tpch_run.read_queries
    query_dir = find_tpch_queries()
    if query_dir is None:
        raise SystemExit("error: TPC-H's queries not found (../shared/tpch/queries; or LANEQL_TPCH_DIR)")
    folder = os.path.join(args.data_dir, "tpch-gen-sf%g" % args.tpch_sf)
    if not all(os.path.exists(os.path.join(folder, t + ".laneql")) for t in TPCH_TABLES):
        run_checked([args.laneql, "gen", "tpch", "--sf", "%g" % args.tpch_sf, "--out", folder])
    return {"name": "tpch", "title": "TPC-H SF %g (laneql gen tpch)" % args.tpch_sf,
            "tables": {t: os.path.join(folder, t + ".laneql") for t in TPCH_TABLES},
            "queries": read_queries(query_dir)}


def run_suite(args, suite, threads, workdir):
    """laneql bench over the suite's queries at `threads`: per query its medians and phases."""
    query_file = os.path.join(workdir, suite["name"] + ".sql")
    with open(query_file, "w", encoding="utf-8") as f:
        f.write("\n".join(suite["queries"]) + "\n")
    trace_dir = os.path.join(workdir, "%s-t%d" % (suite["name"], threads))
    os.makedirs(trace_dir, exist_ok=True)
    json_path = os.path.join(trace_dir, "bench.json")
    argv = [args.laneql, "bench", "--queries", query_file, "--runs", str(args.runs), "--threads", str(threads),
            "--json", json_path, "--profile-dir", trace_dir]
    for name, path in suite["tables"].items():
        argv += ["--table", "%s=%s" % (name, path)]
    run_checked(argv)
    with open(json_path, encoding="utf-8") as f:
        bench = json.load(f)
    results = []
    for q in bench["queries"]:
        entry = {"index": q["index"], "error": q["error"], "wall_ms": q["median_ms"], "cpu_ms": q["cpu_median_ms"]}
        trace = os.path.join(trace_dir, "q%d.json" % q["index"])
        if q["error"] is None and os.path.exists(trace):
            entry["phases_ms"] = phases.load_phases(trace)
        results.append(entry)
    return {"threads": bench["threads"], "target": bench["target"], "queries": results}


def main(argv=None):
    args = parse_args(argv)
    if args.render:
        base, doc = outputs.load_saved(args.render)
        with open(base + ".md", "w") as f:
            f.write(efficiency_report.render(doc))
        return 0
    if not os.access(args.laneql, os.X_OK):
        raise SystemExit("error: no native laneql at %s (make build-native)" % args.laneql)
    started = time.time()
    makers = {"clickbench": clickbench_suite, "tpch": tpch_suite}
    doc = {"command": outputs.command_line(REPO, __file__, argv), "started": outputs.started_text(started),
           "commit": subprocess.run(["git", "-C", REPO, "rev-parse", "--short", "HEAD"], capture_output=True,
                                    text=True).stdout.strip(),
           "machine": machine_info(), "runs": args.runs, "slow_ms": args.slow_ms,
           "thread_counts": args.thread_counts, "suites": []}
    with tempfile.TemporaryDirectory(prefix="laneql-efficiency-") as workdir:
        for name in args.suite_list:
            if name not in makers:
                raise SystemExit("error: unknown suite %r (clickbench, tpch)" % name)
            suite = makers[name](args)
            runs = []
            for threads in args.thread_counts:
                log("==> %s at %d thread(s)" % (suite["title"], threads))
                runs.append(run_suite(args, suite, threads, workdir))
            doc["suites"].append({"name": suite["name"], "title": suite["title"], "queries": suite["queries"],
                                  "runs": runs})
    doc["duration_s"] = round(time.time() - started, 1)
    doc["machine"]["load_end"] = "%.2f" % os.getloadavg()[0]
    os.makedirs(args.out_dir, exist_ok=True)
    base = os.path.join(args.out_dir, args.name)
    with open(base + ".json", "w") as f:
        json.dump(doc, f, indent=1)
    with open(base + ".md", "w") as f:
        f.write(efficiency_report.render(doc))
    log("wrote %s.md and .json (%.0f s)" % (base, doc["duration_s"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
