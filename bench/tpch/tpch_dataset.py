"""The TPC-H data every engine of the benchmark reads: tpchgen-cli's CSV files (tests/tpch/
tpch_data.py makes them once per scale factor into build/tpch/sf<SF>/), then

- for laneql, a .laneql file per table (`laneql import` of the CSV file, its inferred types);
- for the peers, a Parquet file per table, written by DuckDB from the same CSV file with the same
  inferred types (BIGINT / DOUBLE / DATE / VARCHAR): DuckDB, chDB and Polars load those.

Before anything is timed, verify() checks that laneql and DuckDB read every table with the same
column names and types and the same row count, and that a per-table fingerprint (COUNT and the
SUM of every numeric column, SUM(strlen) of every string column, MIN/MAX of every date) agrees.
"""

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "tests", "tpch"))
import tpch_data  # noqa: E402

TABLES = tpch_data.TABLES


def find_tpchgen():
    """tpchgen-cli: beside this Python, on PATH, or in the project's .venv (make setup puts it
    there; the benchmark itself runs from .venv-bench)."""
    found = tpch_data.find_tpchgen()
    if found:
        return found
    in_venv = os.path.join(REPO, ".venv", "bin", "tpchgen-cli")
    return in_venv if os.access(in_venv, os.X_OK) else None


def csv_folder(workdir, sf):
    """tpchgen-cli's CSV files at scale factor sf (made once)."""
    return tpch_data.ensure_data(workdir, sf, find_tpchgen())[0]


def laneql_copies(laneql, folder):
    """{table: .laneql file} imported once from each CSV file (types as laneql infers them)."""
    paths = {}
    for table, csv in tpch_data.table_paths(folder).items():
        target = os.path.join(folder, table + ".laneql")
        if not os.path.exists(target) or os.path.getmtime(target) < os.path.getmtime(csv):
            partial = os.path.join(folder, table + ".partial.laneql")
            subprocess.run([laneql, "import", csv, partial], check=True, stdout=subprocess.DEVNULL)
            os.replace(partial, target)
        paths[table] = target
    return paths


def parquet_copies(folder):
    """{table: Parquet file} written once by DuckDB from each CSV file (read_csv's inferred
    types), into folder/parquet/."""
    import duckdb
    out = os.path.join(folder, "parquet")
    os.makedirs(out, exist_ok=True)
    paths = {}
    con = duckdb.connect()
    for table, csv in tpch_data.table_paths(folder).items():
        target = os.path.join(out, table + ".parquet")
        if not os.path.exists(target) or os.path.getmtime(target) < os.path.getmtime(csv):
            partial = target + ".partial"
            con.execute("COPY (SELECT * FROM read_csv('%s')) TO '%s' (FORMAT parquet, COMPRESSION snappy)"
                        % (csv.replace("'", "''"), partial.replace("'", "''")))
            os.replace(partial, target)
        paths[table] = target
    con.close()
    return paths


def parquet_schemas(parquet):
    """{table: [(column, TYPE)]} of the Parquet files as DuckDB reads them."""
    import duckdb
    con = duckdb.connect()
    out = {t: [(r[0], str(r[1]).upper()) for r in
               con.execute("DESCRIBE SELECT * FROM read_parquet('%s')" % p.replace("'", "''")).fetchall()]
           for t, p in parquet.items()}
    con.close()
    return out


def fingerprint_sql(table, schema):
    """One row of aggregates over every column of `table` (see the module's doc)."""
    parts = ["count(*)"]
    for name, kind in schema:
        if kind in ("BIGINT", "INTEGER", "DOUBLE") or kind.startswith("DECIMAL"):
            parts.append("sum(%s)" % name)
        elif kind == "VARCHAR":
            parts.append("sum(strlen(%s))" % name)
        elif kind == "DATE":
            parts += ["min(%s)" % name, "max(%s)" % name]
    return "SELECT %s FROM %s" % (", ".join(parts), table)


def _same(a, b):
    if isinstance(a, float) or isinstance(b, float):
        return a is not None and b is not None and abs(float(a) - float(b)) <= 1e-9 * max(1.0, abs(float(b)))
    return str(a) == str(b)


def verify(laneql, laneql_paths, parquet, schemas, answer):
    """Raises RuntimeError unless laneql's tables and the Parquet files hold the same columns,
    types and rows. `answer(sql)` gives laneql's (names, rows) over its tables."""
    import duckdb
    lane_schema = tpch_data.laneql_schema(laneql, laneql_paths)
    problems = tpch_data.schema_differences(schemas, lane_schema)
    if problems:
        raise RuntimeError("laneql and the Parquet files differ: " + "; ".join(problems))
    con = duckdb.connect()
    for table, path in parquet.items():
        con.execute("CREATE VIEW %s AS SELECT * FROM read_parquet('%s')" % (table, path.replace("'", "''")))
    for table in TABLES:
        sql = fingerprint_sql(table, schemas[table])
        duck = con.execute(sql).fetchall()[0]
        _, rows = answer(sql)
        lane = rows[0]
        bad = [i for i, (x, y) in enumerate(zip(lane, duck)) if not _same(x, y)]
        if bad or len(lane) != len(duck):
            raise RuntimeError("%s: laneql's fingerprint differs from DuckDB's over the Parquet file at "
                               "aggregate %s (%s)" % (table, bad, sql))
    con.close()
    return sum(len(fingerprint_sql(t, schemas[t]).split(", ")) for t in TABLES)


def prepare(laneql, workdir, sf, answer_factory):
    """The dataset: {"csv_folder", "laneql": {table: path}, "parquet": {table: path}, "schemas",
    "fingerprint_aggregates"}. answer_factory(laneql_paths) gives the function
    verify() asks laneql's answers with."""
    folder = csv_folder(workdir, sf)
    lane = laneql_copies(laneql, folder)
    parquet = parquet_copies(folder)
    schemas = parquet_schemas(parquet)
    aggregates = verify(laneql, lane, parquet, schemas, answer_factory(lane))
    return {"csv_folder": folder, "laneql": lane, "parquet": parquet, "schemas": schemas,
            "fingerprint_aggregates": aggregates}
