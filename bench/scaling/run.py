#!/usr/bin/env python3
"""Speed-up curves: ClickBench and TPC-H through `laneql bench` at 1, 2, 4, 8 and 16 threads.

  python3 bench/scaling/run.py                                   (what `make bench-scaling` runs)
  python3 bench/scaling/run.py --laneql BUNDLE/laneql --data-dir /dev/shm/laneql \\
      --hits-rows 20000000 --tpch-sf 1,10 --deadline-s 480 --out-dir $OUT    (the 16-core machine)

Made to run on a bare machine with nothing but Python's standard library and a laneql binary
(bench/scaling/bundle.sh packs one with the libraries it links): it generates its data with
`laneql gen`, reads its queries from --queries-dir (bundle.sh copies ClickBench's and TPC-H's
there; by default ../shared), and writes one JSON per suite into --out-dir, rewritten after each
thread count, so what finished comes back even when the machine's time runs out. A suite or a
thread count is not started past --deadline-s. bench/scaling/report.py turns the JSONs into
bench/results/scaling-<name>.md; see bench/scaling/README.md.
"""

import argparse
import json
import os
import platform
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "bench", "efficiency"))

import phases  # noqa: E402  (bench/efficiency/phases.py: CPU ms per phase of a trace)
TPCH_TABLES = ["customer", "lineitem", "nation", "orders", "part", "partsupp", "region", "supplier"]


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--laneql", default=os.path.join(REPO, "build", "native", "native-cli", "laneql"))
    p.add_argument("--threads", default="1,2,4,8,16", help="thread counts, the first the baseline")
    p.add_argument("--runs", type=int, default=2, help="timed runs per query (after a warm-up)")
    p.add_argument("--hits-rows", type=int, default=20_000_000, help="0 leaves ClickBench out")
    p.add_argument("--tpch-sf", default="1", help="scale factors, comma-separated; empty leaves TPC-H out")
    p.add_argument("--queries-dir", default=os.path.join(os.path.dirname(REPO), "shared"),
                   help="holds clickbench/queries.sql and tpch/queries/q01.sql ... q22.sql")
    p.add_argument("--data-dir", default=os.path.join(REPO, "data", "scaling"))
    p.add_argument("--out-dir", default=os.path.join(REPO, "build", "scaling"))
    p.add_argument("--deadline-s", type=float, default=0, help="start nothing after this many seconds (0: none)")
    p.add_argument("--profile-threads", default="16",
                   help="thread counts whose run ends with a profiled run per query (phases); empty: none")
    args = p.parse_args(argv)
    args.thread_counts = [int(t) for t in args.threads.split(",") if t.strip()]
    args.sf_list = [s.strip() for s in args.tpch_sf.split(",") if s.strip()]
    args.profiled = {int(t) for t in args.profile_threads.split(",") if t.strip()}
    return args


def log(message):
    print(message, file=sys.stderr, flush=True)


def one_line(sql):
    """A query as one line without comments or the final semicolon (laneql bench reads a query per line)."""
    lines = [line.split("--")[0] for line in sql.splitlines()]
    return " ".join(" ".join(lines).split()).rstrip(";").strip()


def machine():
    """CPU model, logical CPUs and memory of the machine the curves were taken on."""
    info = {"os": platform.platform(), "logical_cpus": os.cpu_count()}
    try:
        with open("/proc/cpuinfo") as f:
            info["cpu"] = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), "?")
        with open("/proc/meminfo") as f:
            kb = int(next(line for line in f if line.startswith("MemTotal")).split()[1])
        info["memory_gib"] = round(kb / 2**20, 1)
    except (OSError, StopIteration, ValueError):
        pass
    return info


def timed(argv):
    """Runs argv (its output discarded), failing loudly; returns its wall seconds."""
    log("$ " + " ".join(argv))
    start = time.time()
    done = subprocess.run(argv, stdout=subprocess.DEVNULL)
    if done.returncode != 0:
        raise SystemExit("error: %s failed (exit %d)" % (" ".join(argv[:3]), done.returncode))
    return round(time.time() - start, 1)


def phase_wall_ms(trace):
    """{phase: ms during which at least one thread was inside a span of that phase}: at many threads
    the phases whose wall time stays long while the others shrink are what limits the speed-up."""
    spans = {}
    for event in trace.get("traceEvents", []):
        if event.get("ph") == "X" and event.get("cat") in phases.PHASES:
            start = float(event["ts"])
            spans.setdefault(event["cat"], []).append((start, start + float(event.get("dur", 0))))
    out = {}
    for phase, intervals in spans.items():
        intervals.sort()
        total, end = 0.0, None
        for start, stop in intervals:
            if end is None or start > end:
                total += stop - start
                end = stop
            elif stop > end:
                total += stop - end
                end = stop
        out[phase] = round(total / 1000.0, 3)
    return out


def profiled_phases(trace_dir, index):
    path = os.path.join(trace_dir, "q%d.json" % index)
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        trace = json.load(f)
    return {"cpu_ms": {k: round(v, 3) for k, v in phases.phase_cpu_ms(trace).items() if v},
            "wall_ms": phase_wall_ms(trace)}


def suites(args):
    """(name, title, queries, {table: path}, data maker) for each suite asked for."""
    out = []
    if args.hits_rows > 0:
        with open(os.path.join(args.queries_dir, "clickbench", "queries.sql"), encoding="utf-8") as f:
            queries = [q.strip() for q in f if q.strip()]
        path = os.path.join(args.data_dir, "hits-%d.laneql" % args.hits_rows)
        make = [args.laneql, "gen", "hits", "--rows", str(args.hits_rows), "--out", path]
        out.append(("clickbench-%d" % args.hits_rows, "ClickBench, %s generated rows" % format(args.hits_rows, ","),
                    queries, {"hits": path}, make))
    for sf in args.sf_list:
        queries = []
        for n in range(1, 23):
            with open(os.path.join(args.queries_dir, "tpch", "queries", "q%02d.sql" % n), encoding="utf-8") as f:
                queries.append(one_line(f.read()))
        folder = os.path.join(args.data_dir, "tpch-sf%s" % sf)
        make = [args.laneql, "gen", "tpch", "--sf", sf, "--out", folder]
        out.append(("tpch-sf%s" % sf, "TPC-H SF %s (laneql gen tpch)" % sf, queries,
                    {t: os.path.join(folder, t + ".laneql") for t in TPCH_TABLES}, make))
    return out


def main(argv=None):
    args = parse_args(argv)
    started = time.time()
    os.makedirs(args.data_dir, exist_ok=True)
    os.makedirs(args.out_dir, exist_ok=True)
    info = subprocess.run([args.laneql, "info", "--json"], capture_output=True, text=True)
    laneql_info = json.loads(info.stdout) if info.returncode == 0 else {}
    past_deadline = lambda: args.deadline_s > 0 and time.time() - started > args.deadline_s
    for name, title, queries, tables, make in suites(args):
        if past_deadline():
            log("deadline: %s not started" % name)
            continue
        doc = {"suite": name, "title": title, "queries": queries, "runs": args.runs, "machine": machine(),
               "laneql": laneql_info, "started": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
               "commit": os.environ.get("LANEQL_COMMIT", ""), "runs_by_threads": []}
        doc["data_seconds"] = timed(make) if not all(os.path.exists(p) for p in tables.values()) else 0
        query_file = os.path.join(args.data_dir, name + ".sql")
        with open(query_file, "w", encoding="utf-8") as f:
            f.write("\n".join(queries) + "\n")
        for threads in args.thread_counts:
            if past_deadline():
                log("deadline: %s at %d threads not started" % (name, threads))
                break
            bench_json = os.path.join(args.data_dir, "%s-t%d.json" % (name, threads))
            argv = [args.laneql, "bench", "--queries", query_file, "--runs", str(args.runs),
                    "--threads", str(threads), "--json", bench_json]
            trace_dir = os.path.join(args.data_dir, "%s-t%d-traces" % (name, threads))
            if threads in args.profiled:
                os.makedirs(trace_dir, exist_ok=True)
                argv += ["--profile-dir", trace_dir]
            for table, path in tables.items():
                argv += ["--table", "%s=%s" % (table, path)]
            seconds = timed(argv)
            with open(bench_json, encoding="utf-8") as f:
                bench = json.load(f)
            entries = []
            for q in bench["queries"]:
                entry = {"index": q["index"], "error": q["error"], "wall_ms": q["median_ms"],
                         "cpu_ms": q.get("cpu_median_ms")}
                if threads in args.profiled and q["error"] is None:
                    entry["phases"] = profiled_phases(trace_dir, q["index"])
                entries.append(entry)
            doc["runs_by_threads"].append({"threads": threads, "seconds": seconds, "target": bench["target"],
                                           "queries": entries})
            with open(os.path.join(args.out_dir, "scaling-%s.json" % name), "w") as f:
                json.dump(doc, f, indent=1)
    log("done in %.0f s" % (time.time() - started))
    return 0


if __name__ == "__main__":
    sys.exit(main())
