"""The benchmark's table: made once by DuckDB as a CSV, then loaded into both engines.

Both engines read the very same CSV text (laneql through `laneql import` into its mapped
.laneql format, DuckDB into an in-memory table), so any difference in an answer comes from the
functions, not from the data. A fingerprint query checks that after loading.
"""

import os
import subprocess
import time

# Bump when the generator below changes, so that a cached CSV of the old shape is not reused.
GENERATOR_VERSION = 1

COLUMNS = [  # name, SQL type: the same declaration for both engines
    ("i", "INTEGER"),
    ("b", "BIGINT"),
    ("d", "DOUBLE"),
    ("s", "VARCHAR"),
    ("dt", "DATE"),
    ("ts", "TIMESTAMP"),
    ("g", "INTEGER"),
    ("g2", "INTEGER"),
]

# The text s is cut from: words of mixed case with spaces (for trim, split_part), digits (for the
# regular expressions) and some multi-byte characters (2-, 3- and 4-byte UTF-8; ß and İ, whose
# case mappings change their byte length): about half the cut strings hold one. No commas or quotes, so the CSV needs no
# escaping beyond quoting.
WORDS = ("ab Abend café straße Ärger niño über 42x data base Zebra kaNGaroo ab12cd "
         "日本語 Жук mañana İstanbul €uro quick brown fox jumps over the lazy dog "
         "Stream ANALYTICS lane QL 2024 col-umn x9y8 𝄞clef Wörter gab and band "
         "ocean Atlas vector SIMD kernel ψυχή réseau naïve 7up Hello WORLD zz top")
BASE = (WORDS + " ") * 2  # long enough that every cut of up to 45 characters stays inside


def generation_sql(rows, csv_path):
    """One COPY that writes the table. u(r, k) is a uniform [0, 1) draw for row r, stream k:
    DuckDB's 64-bit hash of one integer (hash of two arguments gives correlated streams)."""
    base = BASE.replace("'", "''")
    span = len(WORDS)  # offsets into BASE, in characters
    null = lambda k, expr: f"CASE WHEN u(r, {k}) < 0.02 THEN NULL ELSE {expr} END"  # 2 % NULLs
    s_expr = (f"substring(CASE WHEN u(r, 5) < 0.5 THEN chr(97 + CAST(floor(u(r, 6) * 26) AS INTEGER))"
              f" || chr(97 + CAST(floor(u(r, 7) * 26) AS INTEGER)) ELSE '' END"
              f" || substring('{base}', 1 + CAST(floor(u(r, 8) * {span}) AS INTEGER), 45),"
              f" 1, 5 + CAST(floor(u(r, 9) * 36) AS INTEGER))")
    select = ",\n  ".join([
        null(1, "CAST(floor(u(r, 2) * 2000001) AS INTEGER) - 1000000") + " AS i",
        "CAST(floor((u(r, 3) - 0.25) * 4e15) AS BIGINT) AS b",
        null(10, "round((u(r, 4) - 0.3) * 20000, 6)") + " AS d",
        null(11, s_expr) + " AS s",
        null(12, "DATE '1990-01-01' + CAST(floor(u(r, 13) * 14610) AS INTEGER)") + " AS dt",
        # 1990 to 2030 in whole milliseconds
        null(14, "make_timestamp(631152000000000 + CAST(floor(u(r, 15) * 1262304000000) AS BIGINT) * 1000)")
        + " AS ts",
        "CAST(floor(u(r, 16) * 1000) AS INTEGER) AS g",
        # Skewed, so that each group's most frequent value is unique (mode has no ties).
        "CAST(floor(u(r, 17) * u(r, 17) * 10) AS INTEGER) AS g2",
    ])
    return (f"COPY (SELECT\n  {select}\nFROM (SELECT range AS r FROM range({rows})) ORDER BY r)\n"
            f"TO '{csv_path}' (HEADER, DELIMITER ',', FORCE_QUOTE (s))")


def schema_sql():
    return "CREATE TABLE t (%s);\n" % ", ".join(f"{n} {ty}" for n, ty in COLUMNS)


def prepare(duckdb, workdir, rows, laneql, threads, log):
    """Makes (or reuses) <workdir>/t-<rows>-v<version>.{csv,laneql}; returns (csv, laneql) paths."""
    os.makedirs(workdir, exist_ok=True)
    stem = os.path.join(workdir, f"t-{rows}-v{GENERATOR_VERSION}")
    csv_path, table_path, schema_path = stem + ".csv", stem + ".laneql", stem + ".schema.sql"
    if not os.path.exists(csv_path):
        log(f"generating {rows:,} rows into {csv_path}")
        start = time.time()
        con = duckdb.connect(config={"threads": threads})
        con.execute("SET enable_progress_bar = false")
        con.execute("CREATE MACRO u(r, k) AS CAST(hash(r * 32 + k) AS DOUBLE) / 18446744073709551616.0")
        con.execute(generation_sql(rows, stem + ".part.csv"))
        con.close()
        os.replace(stem + ".part.csv", csv_path)
        log(f"  {time.time() - start:.1f} s, {os.path.getsize(csv_path) / 1e6:.0f} MB")
    if not os.path.exists(table_path):
        with open(schema_path, "w") as f:
            f.write(schema_sql())
        log(f"laneql import into {table_path}")
        subprocess.run([laneql, "import", csv_path, stem + ".part.laneql", "--schema", schema_path,
                        "--threads", str(threads)], check=True, stdout=subprocess.DEVNULL)
        os.replace(stem + ".part.laneql", table_path)
    return csv_path, table_path


def load_duckdb(con, csv_path):
    columns = ", ".join(f"'{n}': '{ty}'" for n, ty in COLUMNS)
    con.execute(f"CREATE TABLE t AS SELECT * FROM read_csv('{csv_path}', header = true, "
                f"delim = ',', quote = '\"', columns = {{{columns}}})")


# One row that depends on every value of every column: equal from both engines means they
# loaded the same table.
FINGERPRINT = ("SELECT count(*), count(i), sum(i), sum(b), sum(d), count(s), sum(strlen(s)), "
               "min(s), max(s), sum(dt - DATE '1970-01-01'), sum(epoch_us(ts)), sum(g), sum(g2) FROM t")
