"""TPC-H data for run_tpch.py: tpchgen-cli's CSV files, made once per scale factor, and the
column types DuckDB and laneql read from them.

tpchgen-cli 4.0.0 (`tpchgen-cli csv`) writes one <table>.csv per table: a header line, ','
between fields, RFC 4180 quoting (comments and addresses hold commas), dates as YYYY-MM-DD, money
with two decimals. Both engines detect that layout and infer the same types (BIGINT, DOUBLE,
DATE, VARCHAR); check_schemas() verifies it on every run, since every answer depends on it.

With a schema (run_tpch.py --schema ../shared/tpch/create.sql, the specification's types:
DECIMAL(15,2) money) both engines read the same files with its column types instead: DuckDB
creates the tables and inserts the CSV rows, laneql imports each file once into a .laneql file
of those types (typed_paths).
"""

import fcntl
import os
import re
import shutil
import subprocess
import sys
import time

TABLES = ("region", "nation", "supplier", "customer", "part", "partsupp", "orders", "lineitem")
COMPLETE_MARK = ".complete"  # written last: a folder without it is an interrupted generation


def sf_name(sf):
    """The folder name's spelling of a scale factor: 0.01 -> 'sf0.01', 1 -> 'sf1'."""
    return "sf%s" % ("%g" % sf)


def find_tpchgen():
    """tpchgen-cli next to this Python (the .venv's, from tools/setup/requirements.txt), else on
    PATH; None if neither."""
    beside = os.path.join(os.path.dirname(sys.executable), "tpchgen-cli")
    if os.access(beside, os.X_OK):
        return beside
    return shutil.which("tpchgen-cli")


def table_paths(folder):
    return {t: os.path.join(folder, t + ".csv") for t in TABLES}


def ensure_data(workdir, sf, tpchgen):
    """The folder workdir/sf<SF> with the 8 tables' CSV files, generated if missing (under a lock,
    into a temporary folder renamed when complete). Returns (folder, seconds spent generating:
    None when the data was there)."""
    folder = os.path.join(workdir, sf_name(sf))
    if os.path.exists(os.path.join(folder, COMPLETE_MARK)):
        return folder, None
    os.makedirs(workdir, exist_ok=True)
    with open(os.path.join(workdir, ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if os.path.exists(os.path.join(folder, COMPLETE_MARK)):  # made while we waited
            return folder, None
        if tpchgen is None:
            raise RuntimeError("tpchgen-cli not found (make setup installs it into .venv)")
        partial = folder + ".partial"
        shutil.rmtree(partial, ignore_errors=True)
        shutil.rmtree(folder, ignore_errors=True)
        start = time.perf_counter()
        run = subprocess.run([tpchgen, "csv", "-s", "%g" % sf, "--output-dir=" + partial,
                              "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True)
        seconds = time.perf_counter() - start
        if run.returncode != 0:
            raise RuntimeError("tpchgen-cli exited with %d: %s" % (run.returncode,
                                                                   run.stdout.strip()[-500:]))
        missing = [p for p in table_paths(partial).values() if not os.path.isfile(p)]
        if missing:
            raise RuntimeError("tpchgen-cli wrote no %s" % ", ".join(missing))
        version = subprocess.run([tpchgen, "--version"], stdout=subprocess.PIPE, text=True)
        with open(os.path.join(partial, COMPLETE_MARK), "w") as f:
            f.write(version.stdout.strip() + "\n")
        os.rename(partial, folder)
        return folder, seconds


def schema_statements(schema_path):
    """{table: its CREATE TABLE statement} of a create.sql ('--' comments dropped)."""
    with open(schema_path, encoding="utf-8") as f:
        text = re.sub(r"--[^\n]*", "", f.read())
    statements = {}
    for statement in text.split(";"):
        m = re.search(r"CREATE\s+TABLE\s+(\w+)", statement, re.I)
        if m:
            statements[m.group(1).lower()] = statement.strip() + ";\n"
    return statements


def typed_paths(folder, schema_path, laneql):
    """{table: .laneql file} of the CSV files in folder read with schema_path's types (laneql
    import --schema), made once into folder/typed-<schema name>/ (remade when the schema or the
    laneql program is newer than the file)."""
    statements = schema_statements(schema_path)
    missing = [t for t in TABLES if t not in statements]
    if missing:
        raise RuntimeError("%s has no CREATE TABLE for %s" % (schema_path, ", ".join(missing)))
    out = os.path.join(folder, "typed-" + os.path.splitext(os.path.basename(schema_path))[0])
    os.makedirs(out, exist_ok=True)
    newest_input = max(os.path.getmtime(schema_path), os.path.getmtime(laneql))
    paths = {}
    for table, csv_path in table_paths(folder).items():
        target = os.path.join(out, table + ".laneql")
        paths[table] = target
        if os.path.exists(target) and os.path.getmtime(target) >= newest_input:
            continue
        sql_path = os.path.join(out, table + ".sql")
        with open(sql_path, "w", encoding="utf-8") as f:
            f.write(statements[table])
        partial = os.path.join(out, table + ".partial.laneql")
        run = subprocess.run([laneql, "import", csv_path, partial, "--schema", sql_path],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if run.returncode != 0:
            raise RuntimeError("laneql import %s failed: %s" % (csv_path, run.stdout.strip()))
        os.replace(partial, target)
    return paths


def load_duckdb_typed(con, paths, schema_path):
    """DuckDB's tables as schema_path creates them, filled from the CSV files."""
    statements = schema_statements(schema_path)
    for table, path in paths.items():
        con.execute("DROP TABLE IF EXISTS %s" % table)
        con.execute(statements[table])
        con.execute("INSERT INTO %s SELECT * FROM read_csv('%s')" % (table, path.replace("'", "''")))


def load_duckdb(con, paths):
    """DuckDB's tables from the CSV files, with read_csv's detected layout and inferred types."""
    for table, path in paths.items():
        con.execute("CREATE OR REPLACE TABLE %s AS SELECT * FROM read_csv('%s')"
                    % (table, path.replace("'", "''")))


def duckdb_schema(con, tables=TABLES):
    """{table: [(column, TYPE), ...]} of DuckDB's loaded tables."""
    return {t: [(r[0], str(r[1]).upper()) for r in con.execute("DESCRIBE %s" % t).fetchall()]
            for t in tables}


def laneql_schema(laneql, paths, timeout=120):
    """{table: [(column, TYPE), ...]} as laneql reads the files registered with --table (its
    `.schema` command prints CREATE TABLE statements with DuckDB's type names)."""
    run = subprocess.run([laneql] + table_args(paths), input=".schema\n", stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, timeout=timeout)
    if run.returncode != 0:
        raise RuntimeError("laneql .schema failed: %s" % run.stderr.strip())
    schema = {}
    for name, body in re.findall(r"CREATE TABLE (\w+) \((.*?)\n\);", run.stdout, re.S):
        schema[name] = [tuple(line.strip().rstrip(",").split(" ", 1))
                        for line in body.strip().splitlines()]
    return schema


def table_args(paths):
    args = []
    for table, path in paths.items():
        args += ["--table", "%s=%s" % (table, path)]
    return args


def schema_differences(duck, lane):
    """Lines naming each column whose name or type differs between the two engines' readings."""
    out = []
    for table in sorted(set(duck) | set(lane)):
        a, b = duck.get(table), lane.get(table)
        if a is None or b is None:
            out.append("%s: only %s reads it" % (table, "laneql" if a is None else "DuckDB"))
            continue
        if len(a) != len(b):
            out.append("%s: DuckDB %d columns, laneql %d" % (table, len(a), len(b)))
        for (na, ta), (nb, tb) in zip(a, b):
            if (na, ta) != (nb, tb):
                out.append("%s: DuckDB %s %s, laneql %s %s" % (table, na, ta, nb, tb))
    return out
