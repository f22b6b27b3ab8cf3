"""The peer engines, each in a process of its own (engines.WorkerEngine starts it with
multiprocessing's spawn and talks to it over a Pipe): DuckDB, chDB and Polars in Python, the
tables (hits; TPC-H's eight) loaded once into the engine's in-memory form, then queries on request.

config: {"engine", "threads", "tables": {name: {"parquet": path, "schema": [(column, TYPE)]}},
"settings": {engine: [statement, ...]}} (statements run after loading, e.g. chDB's join_use_nulls
for TPC-H's outer joins).

A query's time is taken here, around the engine's call that runs it and materialises its answer:
DuckDB's execute() + fetchall(), chDB's Session.query(sql, "ArrowTable"), Polars'
SQLContext.execute() of an eager context (a DataFrame). Turning the answer into Python rows for
the check happens after the clock stops.

Messages (dicts): {"op": "run", "sql", "answer": bool} -> {"ms", "rows", ["names", "answer"]}
or {"error", "kind"}; {"op": "check", "sql", "answers": {engine: rows}} (DuckDB only) ->
{"verdicts": {engine: [status, detail]}, "duckdb_rows"}; {"op": "memory"} -> {"rss_mb",
"max_rss_mb"} (the process's resident memory now and at its peak); {"op": "quit"}.
"""

import os
import resource
import time
import traceback


def _rss_mb():
    """The process's resident memory now, in MB (from /proc; 0 where there is none)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1e6
    except OSError:
        return 0.0


class DuckDBWorker:
    name = "duckdb"

    def __init__(self, config):
        self.config = config

    def load(self):
        import duckdb
        self.con = duckdb.connect()  # in memory
        self.con.execute("SET threads = %d" % self.config["threads"])
        self.con.execute("SET enable_progress_bar = false")
        start = time.perf_counter()
        for name, table in self.config["tables"].items():
            self.con.execute("CREATE TABLE %s AS SELECT * FROM read_parquet('%s')"
                             % (name, table["parquet"].replace("'", "''")))
        load_s = time.perf_counter() - start
        for statement in self.config.get("settings", {}).get(self.name, []):
            self.con.execute(statement)
        threads = self.con.execute("SELECT current_setting('threads')").fetchall()[0][0]
        return {"version": "DuckDB " + duckdb.__version__, "load_s": load_s,
                "threads": int(threads), "form": "in-memory table (CREATE TABLE AS read_parquet)"}

    def run(self, sql):
        start = time.perf_counter()
        cursor = self.con.execute(sql)
        rows = cursor.fetchall()
        ms = (time.perf_counter() - start) * 1e3
        return ms, [d[0] for d in cursor.description], rows

    def check(self, sql, answers):
        import checks
        ref = checks.reference(self.con, sql)
        return {"verdicts": {e: list(ref.verdict(rows)) for e, rows in answers.items()},
                "duckdb_rows": len(ref.own_rows)}


CHDB_TYPES = {"BIGINT": "Int64", "INTEGER": "Int32", "SMALLINT": "Int16", "VARCHAR": "String",
              "DATE": "Date", "TIMESTAMP": "DateTime", "DOUBLE": "Float64"}


def chdb_type(duck_type):
    """ClickHouse's name for a DuckDB column type (DECIMAL(p,s) keeps its precision and scale)."""
    if duck_type.startswith("DECIMAL"):
        return "Decimal" + duck_type[len("DECIMAL"):]
    return CHDB_TYPES[duck_type]


class ChdbWorker:
    name = "chdb"

    def __init__(self, config):
        self.config = config

    def load(self):
        os.environ["TZ"] = "UTC"
        import chdb
        from chdb import session
        self.session = session.Session()  # a temporary database; the table lives in memory
        self.session.query("SET max_threads = %d" % self.config["threads"])
        self.session.query("SET session_timezone = 'UTC'")
        self.session.query("SET output_format_arrow_string_as_string = 1")
        load_s = 0.0
        for name, table in self.config["tables"].items():
            columns = ", ".join("%s %s" % (n, chdb_type(t)) for n, t in table["schema"])
            self.session.query("CREATE TABLE %s (%s) ENGINE = Memory" % (name, columns))
            start = time.perf_counter()
            self.session.query("INSERT INTO %s SELECT * FROM file('%s', Parquet)"
                               % (name, table["parquet"].replace("'", "\\'")))
            load_s += time.perf_counter() - start
        for statement in self.config.get("settings", {}).get(self.name, []):
            self.session.query(statement)
        version = str(self.session.query("SELECT version()", "CSV")).strip().strip('"')
        threads = str(self.session.query("SELECT getSetting('max_threads')", "CSV")).strip()
        return {"version": "chDB %s (ClickHouse %s)" % (chdb.__version__, version),
                "load_s": load_s, "threads": int(threads),
                "form": "Memory engine table in a chdb.session.Session (types from create.sql)"}

    def run(self, sql):
        start = time.perf_counter()
        table = self.session.query(sql, "ArrowTable")
        ms = (time.perf_counter() - start) * 1e3
        columns = [c.to_pylist() for c in table.columns]
        return ms, list(table.column_names), list(zip(*columns))


class PolarsWorker:
    name = "polars"

    def __init__(self, config):
        self.config = config

    def load(self):
        # Polars sizes its thread pool once, from this variable, when it is first imported.
        os.environ["POLARS_MAX_THREADS"] = str(self.config["threads"])
        import polars as pl
        start = time.perf_counter()
        frames = {name: pl.read_parquet(table["parquet"]).rechunk()
                  for name, table in self.config["tables"].items()}
        self.context = pl.SQLContext(frames=frames, eager=True)
        load_s = time.perf_counter() - start
        return {"version": "Polars " + pl.__version__, "load_s": load_s,
                "threads": pl.thread_pool_size(),
                "form": "DataFrame (read_parquet, rechunked) in an eager pl.SQLContext"}

    def run(self, sql):
        start = time.perf_counter()
        frame = self.context.execute(sql)
        ms = (time.perf_counter() - start) * 1e3
        return ms, list(frame.columns), frame.rows()


WORKERS = {w.name: w for w in (DuckDBWorker, ChdbWorker, PolarsWorker)}


def _error(e):
    text = str(e).strip().splitlines()
    return {"error": "%s: %s" % (type(e).__name__, text[0] if text else ""), "kind": type(e).__name__}


def serve(conn, config):
    """The worker process's loop (the target multiprocessing starts)."""
    engine = WORKERS[config["engine"]](config)
    try:
        info = engine.load()
    except Exception as e:  # noqa: BLE001 (any failure to load is reported, not raised)
        conn.send({**_error(e), "traceback": traceback.format_exc()})
        return
    info["rss_mb"] = _rss_mb()
    info["max_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e3
    conn.send({"ok": True, **info})
    while True:
        try:
            message = conn.recv()
        except EOFError:
            return
        op = message["op"]
        if op == "quit":
            return
        try:
            if op == "run":
                ms, names, rows = engine.run(message["sql"])
                reply = {"ms": ms, "rows": len(rows)}
                if message.get("answer"):
                    reply.update(names=names, answer=[tuple(r) for r in rows])
            elif op == "memory":
                reply = {"rss_mb": _rss_mb(),
                         "max_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e3}
            elif op == "check":
                reply = engine.check(message["sql"], message["answers"])
            else:
                reply = {"error": "unknown op %r" % op}
        except Exception as e:  # noqa: BLE001 (a failing query is an answer, not a crash)
            reply = _error(e)
        conn.send(reply)
