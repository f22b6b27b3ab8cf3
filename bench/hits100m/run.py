#!/usr/bin/env python3
"""ClickBench's 43 queries on the full-size table: 100 M generated hits rows in a .laneql file.

  python3 bench/hits100m/run.py                      (what `make bench-hits-100m` runs)
  python3 bench/hits100m/run.py --rows 30000000 --data /tmp/hits-30m.laneql --name hits-30m
  python3 bench/hits100m/run.py --reuse          (report again from the last runs' JSON, running
                                                 only what has none)

Generates the table with `laneql gen hits` unless --data exists (about 61 GB for 100 M rows,
made a group of columns at a time, so it needs disk, not memory: 24 GB of RAM is enough), then
runs `laneql bench --runs 1` over ClickBench's queries (a warm-up run, then a timed one), the
same on a --baseline-rows table (10 M rows, which the page cache holds) for the ratio, and
writes bench/results/<name>.{md,json}: per query the rows it answered, its times, or its error.
With the file larger than memory the page cache holds what it can, so the times include reading
the columns from disk. Standard library only.
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


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--laneql", default=os.path.join(REPO, "build", "native", "native-cli", "laneql"))
    p.add_argument("--rows", type=int, default=100_000_000)
    p.add_argument("--data", default=os.path.join(REPO, "data", "hits-100m.laneql"))
    p.add_argument("--queries", default=os.path.join(os.path.dirname(REPO), "shared", "clickbench", "queries.sql"))
    p.add_argument("--threads", type=int, default=0, help="0: laneql's default")
    p.add_argument("--name", default="hits-100m", help="the report's name under bench/results/")
    p.add_argument("--results", default=os.path.join(REPO, "bench", "results"))
    p.add_argument("--baseline-rows", type=int, default=10_000_000, help="0: no baseline")
    p.add_argument("--baseline-data", default=os.path.join(REPO, "data", "hits-10m.laneql"))
    p.add_argument("--reuse", action="store_true", help="report from the JSON of the last runs")
    return p.parse_args(argv)


def log(message):
    print(message, file=sys.stderr, flush=True)


def meminfo_gib():
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    return int(line.split()[1]) / (1 << 20)
    except OSError:
        pass
    return 0.0


def generate(laneql, rows, data):
    """Makes `data` unless it exists; returns the seconds it took (None when it existed)."""
    if os.path.exists(data):
        log(f"using {data}")
        return None
    os.makedirs(os.path.dirname(os.path.abspath(data)), exist_ok=True)
    log(f"generating {rows:,} rows into {data}")
    start = time.monotonic()
    subprocess.run([laneql, "gen", "hits", "--rows", str(rows), "--out", data], check=True)
    return time.monotonic() - start


def run_queries(args, data, name):
    """`laneql bench` over `data`: its JSON, the wall seconds and the command (kept in build/, so
    --reuse can report again without running)."""
    out = os.path.join(REPO, "build", f"{name}-bench.json")
    cmd = [args.laneql, "bench", "--queries", args.queries, "--table", f"hits={data}", "--runs", "1",
           "--json", out]
    if args.threads:
        cmd += ["--threads", str(args.threads)]
    if args.reuse and os.path.exists(out + ".wall"):
        with open(out) as f, open(out + ".wall") as w:
            return json.load(f), float(w.read()), cmd
    os.makedirs(os.path.dirname(out), exist_ok=True)
    log("running " + " ".join(cmd))
    start = time.monotonic()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    wall = time.monotonic() - start
    with open(out + ".wall", "w") as w:
        w.write(f"{wall:.1f}")
    with open(out) as f:
        return json.load(f), wall, cmd


def report(args, bench, wall, cmd, gen_s, baseline):
    queries = bench["queries"]
    base = {q["index"]: q for q in baseline["queries"]} if baseline else {}
    failed = [q for q in queries if q.get("error")]
    total_ms = sum(q["median_ms"] for q in queries if not q.get("error"))
    data = {
        "rows": bench.get("table_rows"), "file_bytes": os.path.getsize(args.data),
        "memory_gib": round(meminfo_gib(), 1), "cpus": os.cpu_count(), "machine": platform.machine(),
        "threads": bench.get("threads"), "target": bench.get("target"), "version": bench.get("version"),
        "generate_s": None if gen_s is None else round(gen_s, 1), "bench_wall_s": round(wall, 1),
        "command": " ".join(os.path.relpath(c, REPO) if c.startswith(REPO) else c for c in cmd),
        "queries": queries,
        "baseline": baseline,
    }
    os.makedirs(args.results, exist_ok=True)
    with open(os.path.join(args.results, args.name + ".json"), "w") as f:
        json.dump(data, f, indent=1)
    lines = [
        f"# ClickBench's 43 queries on {data['rows']:,} generated hits rows",
        "",
        f"Made by `bench/hits100m/run.py` (`make bench-hits-100m`): the table as one `.laneql` file of "
        f"{data['file_bytes'] / 1e9:.1f} GB on a machine of {data['memory_gib']} GiB of memory and {data['cpus']} CPUs "
        f"({data['machine']}, {data['target']}), {data['threads']} threads, laneql {data['version']}. "
        "The file is larger than the memory: what the page cache cannot hold is read from disk during the runs, "
        "so these are not hot-run times.",
        "",
        (f"Generating it took {data['generate_s']:.0f} s. " if data["generate_s"] else "")
        + f"The bench (a warm-up and a timed run per query) took {data['bench_wall_s']:.0f} s; "
        f"{len(queries) - len(failed)} of {len(queries)} queries answered, their timed runs summing to {total_ms / 1e3:.1f} s.",
        "",
        (f"Beside it, the same bench on {baseline['table_rows']:,} rows of the same generator (a file the page "
         "cache holds): a ratio near 10 is the work growing with the rows, far above it is time spent reading "
         "from disk, or working memory past the caches." if baseline else ""),
        "",
        "| # | rows | ms | ms at 10 M | ratio | query |",
        "|---:|---:|---:|---:|---:|---|",
    ]
    for i, q in enumerate(queries, 1):
        sql = q["sql"] if len(q["sql"]) <= 90 else q["sql"][:87] + "..."
        sql = sql.replace("|", "\\|")
        b = base.get(q["index"])
        small = f"{b['median_ms']:,.1f}" if b and not b.get("error") else ""
        ratio = (f"{q['median_ms'] / b['median_ms']:.1f}" if b and not b.get("error") and b["median_ms"] >= 1
                 and not q.get("error") else "")
        if q.get("error"):
            lines.append(f"| {i} | error | | {small} | | `{sql}`: {q['error']} |")
        else:
            lines.append(f"| {i} | {q['rows']:,} | {q['median_ms']:,.0f} | {small} | {ratio} | `{sql}` |")
    with open(os.path.join(args.results, args.name + ".md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    log(f"wrote {os.path.join(args.results, args.name)}.md: {len(failed)} failed")
    return 1 if failed else 0


def main(argv=None):
    args = parse_args(argv)
    gen_s = None if args.reuse else generate(args.laneql, args.rows, args.data)
    bench, wall, cmd = run_queries(args, args.data, args.name)
    baseline = None
    if args.baseline_rows:
        generate(args.laneql, args.baseline_rows, args.baseline_data)
        baseline = run_queries(args, args.baseline_data, args.name + "-baseline")[0]
    return report(args, bench, wall, cmd, gen_s, baseline)


if __name__ == "__main__":
    sys.exit(main())
