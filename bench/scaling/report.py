#!/usr/bin/env python3
"""The speed-up report from bench/scaling/run.py's suite JSONs.

  python3 bench/scaling/report.py --name 16core build/scaling/scaling-*.json
      -> bench/results/scaling-16core.{md,json}
  python3 bench/scaling/report.py --render bench/results/scaling-16core.json   (re-render the .md)

Issue #45's targets, read from the curves: the geomean speed-up at 16 threads over the queries of at
least 100 ms at 1 thread >= 10x (the aim 12x), and no query slower at 16 threads than at 4.
"""

import argparse
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "bench", "efficiency"))

import phases  # noqa: E402  (the phase categories, in report order)
SLOW_MS = 100.0
TARGET_SPEEDUP = 10.0


def fmt(ms):
    return "-" if ms is None else ("%.3g" % ms if ms < 100 else "%.0f" % ms)


def geomean(values):
    values = [v for v in values if v is not None and v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def rows(suite):
    """Per query: wall and CPU ms per thread count (None where it failed or did not run)."""
    out = []
    runs = suite["runs_by_threads"]
    for i, sql in enumerate(suite["queries"]):
        entries = [r["queries"][i] if i < len(r["queries"]) else None for r in runs]
        ok = [e is not None and e["error"] is None for e in entries]
        out.append({"index": i + 1, "sql": sql,
                    "wall": [e["wall_ms"] if good else None for e, good in zip(entries, ok)],
                    "cpu": [e.get("cpu_ms") if good else None for e, good in zip(entries, ok)],
                    "error": next((e["error"] for e in entries if e is not None and e["error"]), None)})
    return out


def speedup(row, k):
    base, at = row["wall"][0], row["wall"][k]
    return base / at if base and at else None


def summary(suite):
    counts = [r["threads"] for r in suite["runs_by_threads"]]
    table = rows(suite)
    slow = [r for r in table if r["wall"][0] is not None and r["wall"][0] >= SLOW_MS]
    four = counts.index(4) if 4 in counts else None
    last = len(counts) - 1
    # Slower at the most threads than at 4: the "no query slower at 16 than at 4".
    regressions = [r for r in table if four is not None and last > four and r["wall"][four] and r["wall"][last]
                   and r["wall"][last] > r["wall"][four]]
    return {"counts": counts, "rows": table, "slow": slow, "regressions": regressions, "four": four,
            "geomeans": [geomean([speedup(r, k) for r in slow]) for k in range(len(counts))],
            "wall_sums": [sum(r["wall"][k] or 0 for r in table) for k in range(len(counts))],
            "cpu_sums": [sum(r["cpu"][k] or 0 for r in table) for k in range(len(counts))]}


def render(doc):
    first = doc["suites"][0]
    m = first["machine"]
    out = ["# Speed-up with threads: %s" % doc["name"], "",
           "Each query's median wall time through `laneql bench --threads T --runs %d` (a warm-up, then %d "
           "timed runs) at each thread count, on one machine, the suites one after another; speed-up = wall "
           "time at 1 thread / wall time at T. Issue #45's targets at 16 threads: a geomean speed-up of at "
           "least %gx over the queries of at least %g ms at 1 thread (the aim 12x) and no query slower than "
           "at 4 threads." % (first["runs"], first["runs"], TARGET_SPEEDUP, SLOW_MS), "",
           "- Command: `%s`" % doc["command"],
           "- Machine: %s, %s logical CPUs, %s GiB; laneql dispatched %s; commit %s, started %s." % (
               m.get("cpu", "?"), m.get("logical_cpus", "?"), m.get("memory_gib", "?"),
               first.get("laneql", {}).get("dispatched_target", "?"), first.get("commit") or "?",
               first.get("started", "?")),
           ""]
    for suite in doc["suites"]:
        s = summary(suite)
        counts = s["counts"]
        out += ["## %s" % suite["title"], "",
                "Data made by `laneql gen` in %.0f s." % suite.get("data_seconds", 0) if suite.get("data_seconds")
                else "", "",
                "| threads | sum of median wall ms | sum of median CPU ms | geomean speed-up (%d queries >= %g ms) |"
                % (len(s["slow"]), SLOW_MS), "|---:|---:|---:|---:|"]
        for k, t in enumerate(counts):
            g = s["geomeans"][k]
            out.append("| %d | %s | %s | %s |" % (t, fmt(s["wall_sums"][k]), fmt(s["cpu_sums"][k]),
                                                "-" if g is None else "%.2fx" % g))
        if s["four"] is not None and len(counts) - 1 > s["four"]:
            out += ["", "Slower at %d threads than at 4: %s." % (counts[-1], ", ".join(
                "Q%d (%s -> %s ms)" % (r["index"], fmt(r["wall"][s["four"]]), fmt(r["wall"][-1]))
                for r in s["regressions"]) or "none")]
        out += ["", "| # | " + " | ".join("ms %d" % t for t in counts) + " | speed-up %d | CPU %d / 1 | SQL |"
                % (counts[-1], counts[-1]), "|---:|" + "---:|" * (len(counts) + 2) + "---|"]
        for r in s["rows"]:
            sql = r["sql"] if len(r["sql"]) <= 70 else r["sql"][:67] + "..."
            sql = sql.replace("|", "\\|")
            if r["error"]:
                out.append("| %d | error: %s | `%s` |" % (r["index"], r["error"], sql))
                continue
            up = speedup(r, len(counts) - 1)
            cpu = r["cpu"][-1] / r["cpu"][0] if r["cpu"][0] and r["cpu"][-1] else None
            out.append("| %d | %s | %s | %s | `%s` |" % (
                r["index"], " | ".join(fmt(v) for v in r["wall"]), "-" if up is None else "%.1fx" % up,
                "-" if cpu is None else "%.2f" % cpu, sql))
        out += phase_lines(suite, s)
        out += after_lines(suite, s, doc.get("after", {}).get(suite["suite"]))
        out.append("")
    return "\n".join(out)


def after_lines(suite, s, after):
    """A later run at the curve's last thread count (a later commit, another lease of the machine):
    its times beside the curve's, and its speed-up over the curve's first thread count (code that
    changed only what runs on several threads leaves that one as it was)."""
    if not after:
        return []
    run = after["runs_by_threads"][-1]
    counts = s["counts"]
    if run["threads"] != counts[-1] or after["queries"] != suite["queries"]:
        return []
    later = {q["index"]: q for q in run["queries"]}
    rows = [(r, later.get(r["index"])) for r in s["rows"] if r["wall"][-1] and later.get(r["index"])
            and later[r["index"]]["error"] is None]
    ratios = [l["wall_ms"] / r["wall"][-1] for r, l in rows if r["wall"][-1] >= 1]
    slow_after = [r["wall"][0] / l["wall_ms"] for r, l in rows if r in s["slow"]]
    lines = ["", "### %d threads again at commit %s (%s)" % (run["threads"], after.get("commit") or "?",
                                                          after.get("started", "?")), "",
             "Geomean of its times over the curve's at %d threads (queries of at least 1 ms): %.3f; geomean "
             "speed-up over the curve's 1 thread (%d queries >= %g ms): %.2fx (the curve's: %s)." % (
                 run["threads"], geomean(ratios) or 0, len(slow_after), SLOW_MS, geomean(slow_after) or 0,
                 "-" if s["geomeans"][-1] is None else "%.2fx" % s["geomeans"][-1]), "",
             "| # | ms %d (curve) | ms %d (again) | again / curve | speed-up %d |" % (
                 run["threads"], run["threads"], run["threads"]), "|---:|---:|---:|---:|---:|"]
    for r, l in rows:
        if r not in s["slow"]:
            continue
        lines.append("| %d | %s | %s | %.2f | %.1fx |" % (r["index"], fmt(r["wall"][-1]), fmt(l["wall_ms"]),
                                                        l["wall_ms"] / r["wall"][-1], r["wall"][0] / l["wall_ms"]))
    return lines


def phase_lines(suite, s):
    """Per slow query at the last thread count, if it was profiled: each phase's wall ms (time in
    which at least one thread was in it) / CPU ms (all threads), beside the query's wall time."""
    last = suite["runs_by_threads"][-1]
    profiled = {q["index"]: q.get("phases") for q in last["queries"] if q.get("phases")}
    shown = [r for r in s["slow"] if r["index"] in profiled]
    if not shown:
        return []
    lines = ["", "Phases of the queries of at least %g ms at 1 thread, in one profiled run at %d threads: wall ms "
             "(some thread inside the phase) / CPU ms (all threads); a phase whose wall time is near its CPU "
             "time ran on one thread." % (SLOW_MS, last["threads"]), "",
             "| # | query ms | " + " | ".join(phases.PHASES) + " |", "|---:|---:|" + "---:|" * len(phases.PHASES)]
    for r in shown:
        ph = profiled[r["index"]]
        cells = []
        for p in phases.PHASES:
            wall, cpu = ph["wall_ms"].get(p), ph["cpu_ms"].get(p)
            cells.append("-" if wall is None else "%s / %s" % (fmt(wall), fmt(cpu)))
        lines.append("| %d | %s | %s |" % (r["index"], fmt(r["wall"][-1]), " | ".join(cells)))
    return lines


def merged(docs):
    """One suite per name: a run cut short by the deadline and the run that finished its thread
    counts (the same machine, data and runs) become one curve; a later file's thread count wins."""
    by_name = {}
    for doc in docs:
        if doc["suite"] not in by_name:
            by_name[doc["suite"]] = dict(doc, runs_by_threads=list(doc["runs_by_threads"]))
            continue
        into = by_name[doc["suite"]]
        if doc["runs"] != into["runs"] or doc["queries"] != into["queries"]:
            raise SystemExit("error: %s: files with other queries or runs cannot be merged" % doc["suite"])
        runs = {r["threads"]: r for r in into["runs_by_threads"]}
        runs.update({r["threads"]: r for r in doc["runs_by_threads"]})
        into["runs_by_threads"] = [runs[t] for t in sorted(runs)]
    return list(by_name.values())


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("inputs", nargs="*", help="scaling-<suite>.json files from run.py")
    p.add_argument("--name", default="16core")
    p.add_argument("--command", default="bench/scaling/device.sh (see bench/scaling/README.md)",
                   help="the command the report names as the one that took the figures")
    p.add_argument("--after", nargs="*", default=[], metavar="JSON",
                   help="suite JSONs of a later run at the curve's last thread count, shown beside it")
    p.add_argument("--render", metavar="JSON", help="only re-render a saved report JSON")
    p.add_argument("--out-dir", default=os.path.join(REPO, "bench", "results"))
    args = p.parse_args(argv)
    if args.render:
        with open(args.render, encoding="utf-8") as f:
            doc = json.load(f)
        base = os.path.splitext(args.render)[0]
    else:
        if not args.inputs:
            p.error("no suite JSONs given")
        suites_in = merged([json.load(open(path, encoding="utf-8")) for path in args.inputs])
        doc = {"name": args.name, "command": args.command, "suites": suites_in,
               "after": {d["suite"]: d for d in merged([json.load(open(path, encoding="utf-8")) for path in args.after])}}
        base = os.path.join(args.out_dir, "scaling-%s" % args.name)
        with open(base + ".json", "w") as f:
            json.dump(doc, f, indent=1)
    with open(base + ".md", "w") as f:
        f.write(render(doc))
    print("wrote %s.md" % base)
    return 0


if __name__ == "__main__":
    sys.exit(main())
