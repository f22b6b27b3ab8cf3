"""The data every engine of the peer benchmark reads: laneql's generated hits rows, once per
(rows, seed), in two files under the data folder (git-ignored `data/`):

  hits-<rows>-s<seed>.laneql   laneql's own format (`laneql gen hits`), mapped by laneql
  hits-<rows>-s<seed>.parquet  the same rows for the peers: the generator's CSV read by DuckDB
                               with create.sql's column types, written as Parquet

The CSV in between is `hits-<rows>-s<seed>.csv`, the name bench/wasm/run.mjs caches its CSV
under, so the wasm benchmark reuses it when it runs on the same folder. Before the Parquet file
is used, a fingerprint (COUNT, and SUM/MIN/MAX or their string and time equivalents of every
column) must come out the same from laneql over the .laneql file and from DuckDB over the
Parquet file: the peers and laneql read the same rows.

Where all 105 columns would not fit in memory in every engine at once (10 M rows on a 24 GB
machine), both files hold only the columns the queries name, `hits-<rows>-s<seed>-<n>cols-<hash>`:
laneql copies them out of its full file, DuckDB out of the CSV. `SELECT *` (#24) then returns
those columns in every engine alike.
"""

import hashlib
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "tests", "diff"))
sys.path.insert(0, os.path.join(REPO, "bench", "wasm"))

import checks  # noqa: E402
import dialects  # noqa: E402
import diff_compare  # noqa: E402
from run_diff import find_clickbench, read_queries  # noqa: E402,F401  (re-exported)
from csv_to_arrow import hits_columns  # noqa: E402  (name, DuckDB type) of create.sql


def log(message):
    print(message, file=sys.stderr, flush=True)


def base_name(rows, seed):
    return "hits-%d-s%d" % (rows, seed)


def run_checked(argv, what):
    log("$ " + " ".join(argv))
    done = subprocess.run(argv, stdout=subprocess.DEVNULL)
    if done.returncode != 0:
        raise SystemExit("error: %s failed (exit %d)" % (what, done.returncode))


def generate(laneql, folder, rows, seed, extension):
    """data/hits-<rows>-s<seed>.<extension> (.laneql or .csv) from laneql's generator, once."""
    path = os.path.join(folder, base_name(rows, seed) + extension)
    made_by_make_run = os.path.join(folder, "hits-%d.laneql" % rows)  # `make run`'s, seed 1
    if extension == ".laneql" and not os.path.exists(path) and seed == 1 and os.path.exists(made_by_make_run):
        os.symlink(os.path.basename(made_by_make_run), path)  # the same bytes; checked below
    if not os.path.exists(path):
        tmp = path + ".tmp" + extension
        run_checked([laneql, "gen", "hits", "--rows", str(rows), "--seed", str(seed), "--out", tmp],
                    "laneql gen hits (%s)" % extension)
        os.replace(tmp, path)
    return path


def csv_source(csv_path, schema):
    """DuckDB's read_csv over the generator's CSV with create.sql's types. Every string field is
    quoted (an empty one is ""), so NULLSTR is a text that never occurs and '' stays ''."""
    columns = "{" + ", ".join("'%s': '%s'" % (n, t) for n, t in schema) + "}"
    return ("read_csv('%s', header = true, delim = ',', quote = '\"', escape = '\"', "
            "nullstr = '\\N-never', allow_quoted_nulls = false, columns = %s)"
            % (csv_path.replace("'", "''"), columns))


def write_parquet(csv_path, parquet_path, schema, columns):
    """The CSV's `columns` (all of `schema`'s when None) as Parquet, with create.sql's types."""
    import duckdb
    tmp = parquet_path + ".tmp"
    start = time.perf_counter()
    con = duckdb.connect()
    select = "*" if columns is None else ", ".join('"%s"' % c for c in columns)
    con.execute("COPY (SELECT %s FROM %s) TO '%s' (FORMAT parquet, COMPRESSION snappy)"
                % (select, csv_source(csv_path, schema), tmp.replace("'", "''")))
    con.close()
    os.replace(tmp, parquet_path)
    log("   %s: %.0f MB in %.1f s" % (os.path.basename(parquet_path),
                                     os.path.getsize(parquet_path) / 1e6,
                                     time.perf_counter() - start))


def fingerprint_sql(schema):
    """One query whose answer pins down every column's contents closely enough to tell two
    loads of different rows apart: per column SUM/MIN/MAX (numbers), SUM(strlen)/MIN/MAX
    (strings), MIN/MAX and a sum of a part (dates and times). Both laneql and DuckDB run it."""
    items = ["COUNT(*)"]
    for name, kind in schema:
        if kind == "VARCHAR":
            items += ["SUM(strlen(%s))" % name, "MIN(%s)" % name, "MAX(%s)" % name]
        elif kind == "DATE":
            items += ["MIN(%s)" % name, "MAX(%s)" % name, "SUM(extract(day FROM %s))" % name]
        elif kind == "TIMESTAMP":
            items += ["MIN(%s)" % name, "MAX(%s)" % name, "SUM(extract(minute FROM %s))" % name]
        else:
            items += ["SUM(%s)" % name, "MIN(%s)" % name, "MAX(%s)" % name]
    return "SELECT %s FROM hits" % ", ".join(items)


def table_args(tables):
    """laneql's --table arguments: `tables` is {name: path}, or one path for the table hits."""
    if isinstance(tables, str):
        tables = {"hits": tables}
    return sum((["--table", "%s=%s" % (name, path)] for name, path in tables.items()), [])


def laneql_answer(laneql, tables, sql, threads=0, timeout=None):
    """laneql's answer as (names, rows of JSON values), through `laneql -c SQL --format json`
    over `tables` ({name: .laneql path}, or hits' path). Raises RuntimeError with laneql's
    message when the query fails."""
    argv = [laneql, "-c", sql, "--format", "json"] + table_args(tables)
    if threads:
        argv += ["--threads", str(threads)]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        message = done.stderr.strip().splitlines()
        raise RuntimeError(message[-1] if message else "laneql exit %d" % done.returncode)
    objects = json.loads(done.stdout or "[]", object_pairs_hook=lambda pairs: pairs)
    names = [k for k, _ in objects[0]] if objects else []
    return names, [tuple(v for _, v in pairs) for pairs in objects]


def check_same_rows(laneql, laneql_path, parquet_path, schema):
    """The fingerprint of the .laneql file (laneql) against the Parquet file's (DuckDB).
    Returns the column names whose aggregates differ (empty: the same rows)."""
    import duckdb
    sql = fingerprint_sql(schema)
    _, rows = laneql_answer(laneql, laneql_path, sql)
    con = duckdb.connect()
    cursor = con.execute(sql.replace("FROM hits", "FROM read_parquet('%s')"
                                     % parquet_path.replace("'", "''")))
    types = [str(d[1]).upper() for d in cursor.description]
    names = [d[0] for d in cursor.description]
    duck = cursor.fetchall()[0]
    con.close()
    got = checks.normalize_row(rows[0], types)
    return [n for n, a, b in zip(names, got, duck) if not diff_compare.values_match(a, b)]


def memory_available():
    with open("/proc/meminfo") as f:
        fields = dict(line.split(":", 1) for line in f)
    return int(fields["MemAvailable"].split()[0]) * 1024


def choose_columns(mode, laneql_path):
    """'all' or 'used': with 'auto', all columns when about five times the table's bytes
    (three peers holding it in memory, with their overheads, and laneql's mapped file) fit in
    70 % of the memory available now, else only the columns the queries name."""
    if mode != "auto":
        return mode, "--columns %s" % mode
    need = 5 * os.path.getsize(laneql_path)
    room = 0.7 * memory_available()
    if need <= room:
        return "all", "auto: ~%.1f GB needed for all columns, %.1f GB at hand" % (need / 1e9, room / 1e9)
    return "used", ("auto: all columns would need ~%.1f GB (5 x the table), more than the %.1f GB at "
                    "hand (70 %% of the available memory)" % (need / 1e9, room / 1e9))


def subset_laneql(laneql, full_path, path, columns):
    """The .laneql file of only `columns`, copied by laneql from the full one."""
    if os.path.exists(path):
        return
    tmp = path + ".tmp.laneql"
    sql = "COPY (SELECT %s FROM hits) TO '%s' (FORMAT laneql)" % (", ".join(columns), tmp.replace("'", "''"))
    run_checked([laneql, "-c", sql, "--table", "hits=" + full_path], "laneql COPY (column subset)")
    os.replace(tmp, path)


def prepare(laneql, folder, rows, seed, create_path, keep_csv, columns_mode="all", queries=()):
    """Makes (or finds) the .laneql and Parquet files; returns their paths and the schema.
    columns_mode: all, used (only the columns `queries` name, in both files) or auto."""
    os.makedirs(folder, exist_ok=True)
    full_schema = hits_columns(create_path)
    start = time.perf_counter()
    laneql_path = generate(laneql, folder, rows, seed, ".laneql")
    mode, why = choose_columns(columns_mode, laneql_path)
    schema, columns, name = full_schema, None, base_name(rows, seed)
    if mode == "used":
        columns = dialects.used_columns(queries, full_schema)
        schema = [(n, t) for n, t in full_schema if n in columns]
        name += "-%dcols-%s" % (len(columns), hashlib.sha1(",".join(columns).encode()).hexdigest()[:8])
        full_path, laneql_path = laneql_path, os.path.join(folder, name + ".laneql")
        subset_laneql(laneql, full_path, laneql_path, columns)
    log("   columns: %s (%s)" % ("all %d" % len(full_schema) if columns is None else
                                 "the %d the queries name" % len(columns), why))
    parquet_path = os.path.join(folder, name + ".parquet")
    checked = parquet_path + ".same-rows"
    if not os.path.exists(parquet_path):
        csv_path = generate(laneql, folder, rows, seed, ".csv")
        write_parquet(csv_path, parquet_path, full_schema, columns)
        if not keep_csv:
            os.remove(csv_path)
    if not os.path.exists(checked) or os.path.getmtime(checked) < os.path.getmtime(parquet_path):
        differ = check_same_rows(laneql, laneql_path, parquet_path, schema)
        if differ:
            raise SystemExit("error: %s and %s hold different rows (fingerprint differs in %s)"
                             % (laneql_path, parquet_path, ", ".join(differ[:8])))
        with open(checked, "w") as f:
            f.write("same fingerprint as %s\n" % os.path.basename(laneql_path))
    log("   data ready in %.1f s: %s, %s (same rows: checked by a %d-aggregate fingerprint)"
        % (time.perf_counter() - start, laneql_path, parquet_path,
           len(fingerprint_sql(schema).split(", "))))
    return {"laneql": laneql_path, "parquet": parquet_path, "schema": schema,
            "fingerprint_aggregates": len(fingerprint_sql(schema).split(", ")),
            "columns": "all" if columns is None else columns, "columns_why": why}
