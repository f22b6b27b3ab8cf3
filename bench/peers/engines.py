"""The engines as the runner sees them: start(), run(number, sql, answer) and stop().

- laneql: the native CLI. Each timed repetition is one `laneql bench --runs 1` call: the process
  maps the .laneql file, runs the query once to warm up (pages, checksums) and once timed, inside
  the engine (Database::Query, the answer materialised as a Result), and writes the time as JSON.
  The warm-up round fetches the answer for the check with `laneql -c SQL --format json`.
- duckdb, chdb, polars: a long-lived process each (workers.py), the table loaded once.

run() returns {"ms", "rows"} (plus "names" and "answer" when asked for the answer) or
{"error"}; an engine that crashed or ran past the time limit is restarted for the next query.
"""

import json
import multiprocessing
import os
import subprocess
import tempfile
import time

import data
import dialects
import workers
from stats import DISPLAY  # noqa: F401  (the runner's and the report's names)

class LaneqlEngine:
    name = "laneql"

    def __init__(self, laneql, tables, threads, tmp_dir, timeout_s, dialect=dialects):
        """tables: {name: .laneql path}, or hits' path."""
        self.laneql = laneql
        self.tables = {"hits": tables} if isinstance(tables, str) else dict(tables)
        self.threads = threads
        self.tmp_dir = tmp_dir
        self.timeout_s = timeout_s
        self.dialect = dialect
        self.info = {}
        self.max_rss_mb = 0.0  # the largest peak resident memory of its timed processes

    def start(self):
        os.makedirs(self.tmp_dir, exist_ok=True)
        done = subprocess.run([self.laneql, "info", "--json"], capture_output=True, text=True)
        native = json.loads(done.stdout)
        self.info = {"version": "laneql %s" % native.get("version", "?"), "load_s": 0.0,
                     "file_mb": sum(os.path.getsize(p) for p in self.tables.values()) / 1e6,
                     "threads": self.threads, "target": native.get("dispatched_target"),
                     "form": ".laneql file, mapped (no copy); one `laneql bench --runs 1` process "
                             "per repetition, warmed up inside"}
        return {"ok": True, **self.info}

    def run(self, number, sql, answer):
        if answer:
            start = time.perf_counter()
            try:
                names, rows = data.laneql_answer(self.laneql, self.tables, sql, self.threads,
                                                 timeout=self.timeout_s)
            except subprocess.TimeoutExpired:
                return {"error": "timeout (%d s)" % self.timeout_s}
            except RuntimeError as e:
                return {"error": str(e)}
            # Wall time of the whole call: used only to see a slow query, never reported.
            return {"ms": (time.perf_counter() - start) * 1e3, "rows": len(rows), "names": names,
                    "answer": rows}
        query_file = os.path.join(self.tmp_dir, "q%d.sql" % number)
        json_file = os.path.join(self.tmp_dir, "q%d-t%d.json" % (number, self.threads))
        with open(query_file, "w") as f:
            f.write(sql + "\n")
        if os.path.exists(json_file):
            os.remove(json_file)
        argv = [self.laneql, "bench", "--queries", query_file, "--runs", "1",
                "--threads", str(self.threads), "--json", json_file] + data.table_args(self.tables)
        try:
            returncode, stderr, max_rss_mb = run_measured(argv, 2 * self.timeout_s)
        except subprocess.TimeoutExpired:
            return {"error": "timeout (%d s)" % (2 * self.timeout_s)}
        self.max_rss_mb = max(self.max_rss_mb, max_rss_mb)
        try:
            with open(json_file) as f:
                result = json.load(f)["queries"][0]
        except (OSError, ValueError, KeyError, IndexError):
            tail = stderr.strip().splitlines()
            return {"error": "laneql bench exit %d: %s" % (returncode, tail[-1] if tail else "")}
        if result.get("error"):
            return {"error": result["error"].splitlines()[0]}
        return {"ms": float(result["min_ms"]), "rows": result["rows"]}

    def sql_for(self, number, sql):
        return self.dialect.adapt(self.name, number, sql)

    def memory(self):
        """{"max_rss_mb"}: the peak resident memory of the largest `laneql bench` process so far
        (its mapped table pages that the query touched count, as a peer's loaded table does)."""
        return {"max_rss_mb": self.max_rss_mb}

    def stop(self):
        pass


class WorkerEngine:
    """A peer in its own process (workers.py)."""

    def __init__(self, name, tables, threads, timeout_s, load_timeout_s=7200, dialect=dialects,
                 settings=None):
        """tables: {name: {"parquet": path, "schema": [(column, TYPE)]}} (workers.py);
        settings: {engine: [statement, ...]} run after loading."""
        self.name = name
        self.config = {"engine": name, "tables": tables, "threads": threads, "settings": settings or {}}
        self.dialect = dialect
        self.timeout_s = timeout_s
        self.load_timeout_s = load_timeout_s
        self.process = None
        self.conn = None
        self.info = {}
        self.dead = None  # why the engine is out of the run (it failed to load)
        self.restarts = 0

    def start(self):
        context = multiprocessing.get_context("spawn")
        self.conn, child = context.Pipe()
        self.process = context.Process(target=workers.serve, args=(child, self.config),
                                       name="bench-" + self.name, daemon=True)
        self.process.start()
        child.close()
        reply = self._receive(self.load_timeout_s)
        if not reply.get("ok"):
            self.dead = reply.get("error", "load failed")
            self.stop()
        else:
            self.info = {k: v for k, v in reply.items() if k != "ok"}
        return reply

    def _receive(self, timeout_s):
        try:
            if not self.conn.poll(timeout_s):
                self.stop()
                return {"error": "timeout (%d s)" % timeout_s, "timeout": True}
            return self.conn.recv()
        except (EOFError, OSError):
            code = self.process.exitcode if self.process else None
            self.stop()
            return {"error": "the %s process ended (exit %s)" % (self.name, code), "crashed": True}

    def request(self, message, timeout_s=None):
        if self.dead:
            return {"error": self.dead}
        if self.process is None:  # crashed or timed out before: start afresh
            self.restarts += 1
            if not self.start().get("ok"):
                return {"error": self.dead}
        try:
            self.conn.send(message)
        except (BrokenPipeError, OSError):
            self.stop()
            return {"error": "the %s process is gone" % self.name, "crashed": True}
        return self._receive(timeout_s or self.timeout_s)

    def run(self, number, sql, answer):
        return self.request({"op": "run", "sql": sql, "answer": answer})

    def check(self, sql, answers):
        return self.request({"op": "check", "sql": sql, "answers": answers}, 4 * self.timeout_s)

    def sql_for(self, number, sql):
        return self.dialect.adapt(self.name, number, sql)

    def memory(self):
        """{"rss_mb", "max_rss_mb"} of the engine's process now (or {"error"})."""
        return self.request({"op": "memory"})

    def stop(self):
        if self.process is not None:
            if self.process.is_alive() and self.conn is not None:
                try:
                    self.conn.send({"op": "quit"})
                except (BrokenPipeError, OSError):
                    pass
                self.process.join(5)
            if self.process.is_alive():
                self.process.kill()  # this engine's own process, by its handle
                self.process.join(5)
        self.process = None
        if self.conn is not None:
            self.conn.close()
            self.conn = None


def run_measured(argv, timeout_s):
    """(exit status, stderr, peak resident memory in MB) of one program run. The child is reaped
    with wait4, whose rusage is that child's own peak (RUSAGE_CHILDREN would be the largest of all
    children so far)."""
    with tempfile.TemporaryFile(mode="w+") as err:
        process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=err)
        deadline = time.monotonic() + timeout_s
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                process.kill()
                os.wait4(process.pid, 0)
                process.returncode = -9
                raise subprocess.TimeoutExpired(argv, timeout_s)
            time.sleep(0.002)
        process.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        return process.returncode, err.read(), usage.ru_maxrss / 1e3
