"""laneql-wasm vs duckdb-wasm in Node: bench/wasm/run.mjs, run as it is (its README says what
it measures and how it checks), on the same rows and seed, its JSON read back into this report.

run.mjs runs at one thread: duckdb-wasm's blocking Node bundle has no threads, so laneql-wasm is
created with threads: 1 too (and its native column, `laneql bench --threads 1`). It caches its
data under the same folder as this benchmark, so the generator's CSV and .laneql file made here
are reused, not made again.
"""

import json
import os
import subprocess
import sys

WASM_ENGINES = ["laneql-wasm", "duckdb-wasm", "native"]


def run(repo, rows, seed, repeat, laneql, python, package, cache, out_md, queries=None,
        timeout_s=None):
    """Runs run.mjs; returns its JSON (or {"error"} when it could not run)."""
    argv = ["node", "--no-experimental-fetch", os.path.join(repo, "bench", "wasm", "run.mjs"),
            "--rows", str(rows), "--seed", str(seed), "--threads", "1", "--repeat", str(repeat),
            "--laneql", laneql, "--python", python, "--package", package, "--cache", cache,
            "--out", out_md]
    if queries:
        argv += ["--queries", queries]
    print("$ " + " ".join(argv), file=sys.stderr, flush=True)
    try:
        done = subprocess.run(argv, stdout=subprocess.DEVNULL, timeout=timeout_s)
    except subprocess.TimeoutExpired:
        return {"error": "run.mjs took over %d s" % timeout_s}
    json_path = out_md[:-3] + ".json" if out_md.endswith(".md") else out_md + ".json"
    if done.returncode != 0 or not os.path.exists(json_path):
        return {"error": "run.mjs exit %d (its messages are above)" % done.returncode}
    with open(json_path) as f:
        return json.load(f)


def summarize(report):
    """The parts of run.mjs's JSON this report shows: per query each engine's median/best ms or
    error, and the check (laneql-wasm's answer against duckdb-wasm's)."""
    results = []
    for r in report.get("results", []):
        engines = {}
        for name in WASM_ENGINES:
            x = r["engines"].get(name)
            if x is None:
                continue
            if x.get("error"):
                engines[name] = {"error": x["error"]}
            else:
                engines[name] = {"median_ms": x["medianMs"], "best_ms": x["bestMs"],
                                 "rows": x.get("numRows")}
        results.append({"q": r["q"], "engines": engines, "check": r.get("check"),
                        "notes": r.get("notes", [])})
    first = {}
    for p in report.get("passes", []):
        for name, info in (p.get("engines") or {}).items():
            if info.get("ok") and name not in first:
                first[name] = info.get("info", {})
    return {"results": results, "engine_info": first, "machine": report.get("machine"),
            "passes": len(report.get("passes", []))}
