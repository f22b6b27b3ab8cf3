"""laneql-wasm vs duckdb-wasm in Node on the same TPC-H CSV files: bench/tpch/wasm.mjs, run as it
is (bench/tpch/README.md says what it measures and how it checks), its JSON read back into the
report in the shape bench/peers/wasm.py's summarize() gives."""

import json
import os
import subprocess
import sys

import wasm  # bench/peers/wasm.py


def run(repo, csv_folder, query_dir, repeat, queries, out_json, timeout_s=None):
    """Runs wasm.mjs; returns the summary (or {"error"} when it could not run)."""
    package = os.path.join(repo, "bindings-js", "dist", "index.js")
    if not os.path.exists(package):
        return {"error": "no laneql npm package at %s (make build-wasm build-js)" % package}
    argv = ["node", "--no-experimental-fetch", os.path.join(repo, "bench", "tpch", "wasm.mjs"),
            "--data", csv_folder, "--query-dir", query_dir, "--repeat", str(repeat),
            "--queries", queries, "--out", out_json]
    print("$ " + " ".join(argv), file=sys.stderr, flush=True)
    if os.path.exists(out_json):
        os.remove(out_json)
    try:
        done = subprocess.run(argv, stdout=subprocess.DEVNULL, timeout=timeout_s)
    except subprocess.TimeoutExpired:
        return {"error": "wasm.mjs took over %d s" % timeout_s}
    if done.returncode != 0 or not os.path.exists(out_json):
        return {"error": "wasm.mjs exit %d (its messages are above)" % done.returncode}
    with open(out_json) as f:
        raw = json.load(f)
    return {**wasm.summarize(raw), "repeat": repeat, "peak_rss_mb": raw.get("peakRssMb", {})}
