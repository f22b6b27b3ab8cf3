#!/usr/bin/env python3
"""Function micro-benchmark: each scalar function, aggregate and window over N rows, laneql vs DuckDB.

  .venv/bin/python bench/functions/run.py                  (10,000,000 rows; what `make bench-functions` runs)
  .venv/bin/python bench/functions/run.py --rows 1000000 --only upper,median --no-report

Makes a table of N rows once (bench/functions/data.py), loads it into both engines, then per
query: laneql's answer and DuckDB's must agree, else the query is dropped and listed; then each
engine runs it once to warm up and --repeat times, timed; the median is kept. Prints a table and
writes bench/results/functions.md. See that file for what exactly is timed.
"""

import argparse
import datetime
import json
import os
import platform
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

import duckdb  # noqa: E402

import data  # noqa: E402
import queries as Q  # noqa: E402
import report  # noqa: E402


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rows", type=int, default=10_000_000, help="rows of the table (default 10000000)")
    p.add_argument("--repeat", type=int, default=5, help="timed runs per query and engine (default 5)")
    p.add_argument("--threads", type=int, default=2, help="threads, the same for both engines (default 2)")
    p.add_argument("--laneql", default=os.path.join(REPO, "build", "native", "native-cli", "laneql"))
    p.add_argument("--workdir", default=os.path.join(REPO, "data", "functions"),
                   help="where the CSV and .laneql copies are made once and reused (default data/functions, "
                        "git-ignored)")
    p.add_argument("--out", default=os.path.join(REPO, "bench", "results", "functions.md"))
    p.add_argument("--only", default=None,
                   help="comma-separated substrings: run only the queries whose family, name or SQL has one")
    p.add_argument("--no-report", action="store_true", help="print the table only, write no report")
    return p.parse_args(argv)


def log(msg):
    print(msg, file=sys.stderr, flush=True)


class Laneql:
    """laneql through its CLI. Answers come from `laneql -c SQL --format json`; times from
    `laneql bench`, which maps the table once per process, runs the query once to warm up, then
    --runs times, each timed around Database::Query (parse, plan, run, the Result)."""

    def __init__(self, binary, table_path, threads, tmpdir):
        self.binary, self.table, self.threads, self.tmpdir = binary, table_path, threads, tmpdir
        self.common = ["--table", f"t={table_path}", "--threads", str(threads)]

    def answer(self, sql):
        """(rows as lists of values, None) or (None, error text)."""
        run = subprocess.run([self.binary, "-c", sql, "--format", "json"] + self.common,
                             capture_output=True, text=True)
        if run.returncode != 0:
            return None, (run.stderr.strip() or f"exit status {run.returncode}")
        rows = json.loads(run.stdout) if run.stdout.strip() else []
        return [list(row.values()) for row in rows], None

    def time(self, sql, repeat):
        """(median, min) ms of `repeat` runs after a warm-up, all in one process."""
        queries = os.path.join(self.tmpdir, "query.sql")
        out = os.path.join(self.tmpdir, "bench.json")
        with open(queries, "w") as f:
            f.write(sql + ";\n")
        subprocess.run([self.binary, "bench", "--queries", queries, "--runs", str(repeat), "--json", out]
                       + self.common, check=True, stdout=subprocess.DEVNULL)
        with open(out) as f:
            result = json.load(f)
        self.info = {"version": result["version"], "target": result["target"], "threads": result["threads"]}
        entry = result["queries"][0]
        if entry["error"]:
            raise RuntimeError(entry["error"])
        return entry["median_ms"], entry["min_ms"]


class DuckDB:
    """DuckDB in this process: the table in memory, the time around execute().fetchall()."""

    def __init__(self, csv_path, threads):
        self.con = duckdb.connect(config={"threads": threads})
        self.con.execute("SET enable_progress_bar = false")
        data.load_duckdb(self.con, csv_path)
        self.threads = self.con.execute("SELECT current_setting('threads')").fetchone()[0]

    def answer(self, sql):
        try:
            return [list(row) for row in self.con.execute(sql).fetchall()], None
        except duckdb.Error as e:
            return None, str(e).strip()

    def time(self, sql, repeat):
        self.con.execute(sql).fetchall()  # warm-up
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            self.con.execute(sql).fetchall()
            times.append((time.perf_counter() - start) * 1000)
        return statistics.median(times), min(times)


def same_value(a, b, check):
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        if check == "approx":
            return abs(a - b) <= 0.05 * max(abs(a), abs(b))
        if isinstance(a, float) or isinstance(b, float):
            return a == b or abs(a - b) <= 1e-9 * max(abs(a), abs(b))
        return a == b
    return str(a) == str(b)


def compare(lq, dk, check):
    """None when the answers agree, else why not."""
    if len(lq) != len(dk) or any(len(r) != len(s) for r, s in zip(lq, dk)):
        return f"shape differs: laneql {lq!r}, DuckDB {dk!r}"
    if check == "shape":
        return None
    for r, s in zip(lq, dk):
        for a, b in zip(r, s):
            if not same_value(a, b, check):
                return f"laneql {a!r}, DuckDB {b!r}"
    return None


def select_queries(laneql, only):
    queries = Q.all_queries()
    _, probe_error = laneql.answer(Q.WINDOW_PROBE)
    windows = probe_error is None
    if windows:
        queries += Q.WINDOWS
    if only:
        keys = [k.strip() for k in only.split(",") if k.strip()]
        queries = [q for q in queries if any(k in q.family or k in q.name or k in q.sql for k in keys)]
    return queries, (None if windows else probe_error)


def run_one(index, query, laneql, duck, repeat):
    """A result dict; the engine that goes first alternates, so that drift of a shared machine
    does not favour one engine."""
    res = {"family": query.family, "name": query.name, "sql": query.sql}
    lq, lq_error = laneql.answer(query.sql)
    dk, dk_error = duck.answer(query.sql)
    if lq_error or dk_error:
        res["dropped"] = "; ".join(f"{who} error: {e}" for who, e in (("laneql", lq_error), ("DuckDB", dk_error)) if e)
        return res
    why = compare(lq, dk, query.check)
    if why:
        res["dropped"] = "answers differ: " + why
        return res
    res["answer"] = lq
    order = [("laneql", laneql), ("duckdb", duck)]
    for key, engine in (order if index % 2 == 0 else order[::-1]):
        try:
            res[key + "_ms"], res[key + "_best_ms"] = engine.time(query.sql, repeat)
        except (RuntimeError, subprocess.CalledProcessError, duckdb.Error) as e:
            res["dropped"] = f"{key} failed while timed: {e}"
            return res
    res["ratio"] = res["duckdb_ms"] / res["laneql_ms"]
    res["best_ratio"] = res["duckdb_best_ms"] / res["laneql_best_ms"]
    return res


def snapshot(binary, tmpdir):
    """A private copy of the laneql binary, so that a rebuild in the checkout during the run (it
    is shared with others) neither fails a query nor mixes two builds in one report."""
    copy = os.path.join(tmpdir, "laneql")
    for attempt in range(30):
        try:
            shutil.copy2(binary, copy)
            return copy
        except OSError as e:  # being relinked right now
            if attempt == 29:
                raise
            log(f"cannot copy {binary} ({e}); retrying")
            time.sleep(10)


def machine():
    model = "unknown"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return {"nproc": os.cpu_count(), "cpu": model, "kernel": platform.release(),
            "load": " ".join(f"{x:.2f}" for x in os.getloadavg())}


def main(argv=None):
    args = parse_args(argv)
    if not os.path.exists(args.laneql):
        sys.exit(f"no laneql at {args.laneql}: build it first (make build-native)")
    # The binary is whatever build/native holds now; the report says when it was linked, the
    # commit checked out now, and whether the engine's sources then differed from that commit.
    git = lambda *a: subprocess.run(["git", *a], cwd=REPO, capture_output=True, text=True).stdout.strip()
    commit = git("rev-parse", "--short", "HEAD")
    dirty = bool(git("status", "--porcelain", "--untracked-files=no", "--", "kernel", "native-cli"))
    with tempfile.TemporaryDirectory(prefix="laneql-functions-") as tmpdir:
        binary_time = datetime.datetime.fromtimestamp(os.path.getmtime(args.laneql)).astimezone()
        binary = snapshot(args.laneql, tmpdir)
        csv_path, table_path = data.prepare(duckdb, args.workdir, args.rows, binary, args.threads, log)
        laneql = Laneql(binary, table_path, args.threads, tmpdir)
        log("loading the CSV into DuckDB")
        duck = DuckDB(csv_path, args.threads)
        # Both engines must hold the same table before any answer is compared.
        fp_l, err = laneql.answer(data.FINGERPRINT)
        fp_d, _ = duck.answer(data.FINGERPRINT)
        why = err or compare(fp_l, fp_d, "exact")
        if why:
            sys.exit(f"the engines loaded different tables: {why}")
        queries, window_error = select_queries(laneql, args.only)
        run_info = {"rows": args.rows, "threads": args.threads, "repeat": args.repeat, "duckdb_threads": duck.threads,
                    "duckdb": duckdb.__version__, "machine": machine(), "window_error": window_error,
                    "started": datetime.datetime.now().astimezone(), "binary_time": binary_time,
                    "commit": commit, "dirty": dirty}
        log(f"{len(queries)} queries, {args.rows:,} rows, {args.threads} threads, "
            f"median of {args.repeat} after a warm-up" + ("" if window_error is None else "; windows: not supported"))
        print(report.header_line())
        results, loads = [], []
        for index, query in enumerate(queries):
            results.append(run_one(index, query, laneql, duck, args.repeat))
            loads.append(os.getloadavg()[0])  # how much else ran: the machine is shared
            print(report.result_line(results[-1], args.rows), flush=True)
        run_info["load_range"] = (min(loads), max(loads)) if loads else None
        run_info["laneql"] = getattr(laneql, "info", {})
        run_info["finished"] = datetime.datetime.now().astimezone()
        run_info["load_end"] = machine()["load"]
    print()
    print(report.summary_text(results))
    if not args.no_report:
        command = "make bench-functions" + (f" FUNCTION_ROWS={args.rows}" if args.rows != 10_000_000 else "")
        if args.only or args.repeat != 5 or args.threads != 2:
            command = ".venv/bin/python bench/functions/run.py " + " ".join(shlex.quote(a) for a in sys.argv[1:])
        run_info["command"] = command
        os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
        with open(args.out, "w") as f:
            f.write(report.markdown(results, run_info))
        log(f"wrote {args.out}")


if __name__ == "__main__":
    main()
