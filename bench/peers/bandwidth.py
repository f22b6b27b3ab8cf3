"""How close laneql's scan-bound queries come to the machine's memory read bandwidth.

- The probe: bench/sum_bench.cc's read-bandwidth probe (ProbeReadGBs in bench/bench_util.cc:
  glibc's memchr streaming once over a buffer far larger than the caches, split over 1 or 2
  threads, median of 5), read from the first lines laneql_sum_bench prints; the program is
  stopped once they are out (the SUM kernels it goes on to time are not needed here).
- The bytes a query reads: laneql's own profile (`laneql --profile`), the sum of its threads'
  `totals` counters (the column bytes its scan and filter spans read).
- GB/s = those bytes / laneql's best time at that thread count; the share is of the probe at the
  same thread count. A query's columns smaller than the last-level cache (at 1 M rows, 2-8 MB)
  may be read from cache after the warm-up, so its share can pass 100 %: then it says nothing
  about memory; at 10 M rows and up the columns no longer fit.
"""

import json
import os
import re
import shutil
import subprocess

# Queries (1-based lines of queries.sql) that are a scan of one or two columns with little work
# per byte: the filter/aggregate kernels over SMALLINT/INTEGER/BIGINT/DATE columns (#2 #3 #4 #7
# #8 #20 #30, #30's 90 sums folded into one) and the substring search over URL (#21).
SCAN_QUERIES = [2, 3, 4, 7, 8, 20, 21, 30]

_PROBE_LINE = re.compile(r"read-bandwidth probe \(memchr\), (\d+) thread\(s\): ([0-9.]+) GB/s")


def probe(sum_bench, rows=50_000_000, runs=5, max_threads=2, timeout_s=300):
    """{threads: GB/s} for 1..max_threads threads (fewer where the machine has fewer CPUs)."""
    found = {}
    argv = [sum_bench, str(rows), str(runs)]
    if shutil.which("stdbuf"):  # line-buffered, so the probe lines arrive as they are printed
        argv = ["stdbuf", "-oL"] + argv
    process = subprocess.Popen(argv, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True)
    try:
        for line in process.stdout:
            m = _PROBE_LINE.search(line)
            if m:
                found[int(m.group(1))] = float(m.group(2))
            elif found and not line.strip():  # the blank line after the probe lines
                break
    finally:
        process.kill()  # our own child, by its handle; its remaining kernel timings are not needed
        process.wait(timeout_s)
    return {t: gbs for t, gbs in found.items() if t <= max_threads}


def scan_bytes(laneql, table_path, sql, profile_path):
    """The column bytes laneql reads for `sql` (its profile), or None when it has none."""
    if os.path.exists(profile_path):
        os.remove(profile_path)
    done = subprocess.run([laneql, "-c", sql, "--table", "hits=" + table_path, "--profile",
                           profile_path, "--format", "csv"], capture_output=True, text=True)
    if done.returncode != 0 or not os.path.exists(profile_path):
        return None
    with open(profile_path) as f:
        trace = json.load(f)
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    return sum(e.get("args", {}).get("bytes", 0) for e in events  # each thread's totals
               if e.get("ph") == "C" and e.get("name") == "totals")


def table(results_by_threads, bytes_by_query, probe_gbs):
    """Rows {q, bytes, per thread count: best ms, GB/s, share of the probe} for the scan queries."""
    out = []
    for number in SCAN_QUERIES:
        nbytes = bytes_by_query.get(number)
        if not nbytes:
            continue
        row = {"q": number, "bytes": nbytes, "threads": {}}
        for threads, results in results_by_threads.items():
            r = next((x for x in results if x["q"] == number), None)
            lane = r and r["engines"].get("laneql")
            if not lane or lane.get("error") or not lane.get("best_ms"):
                continue
            gbs = nbytes / (lane["best_ms"] / 1e3) / 1e9
            p = probe_gbs.get(threads)
            row["threads"][threads] = {"best_ms": lane["best_ms"], "gbs": gbs,
                                       "share": gbs / p if p else None}
        out.append(row)
    return out
