#!/usr/bin/env python3
"""TPC-H's 22 queries through the laneql CLI, checked against DuckDB on the same CSV files.

  .venv/bin/python tests/tpch/run_tpch.py --sf 0.01 --expect tests/tpch/expected_pass.txt

Makes the data once per scale factor (tpchgen-cli, into build/tpch/sf<SF>/), loads it into DuckDB
with read_csv's inferred types, runs each query in both engines (laneql: one process per query,
the 8 files given with --table, JSON output), compares the answers with tests/diff's rules
(diff_compare.py) and prints one line per query and a closing `N passed, M failed`. Exit status 1
when a query listed in --expect fails, 2 on a set-up error, else 0.
"""

import argparse
import decimal
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "tests", "diff"))

import diff_compare  # noqa: E402
import tpch_data  # noqa: E402

QUERY_COUNT = 22


def find_tpch_queries():
    """The folder of q01.sql..q22.sql, handed to the project and never copied in:
    $LANEQL_TPCH_DIR, ../shared/tpch next to the checkout, or /work/shared/tpch."""
    for candidate in (os.environ.get("LANEQL_TPCH_DIR", ""),
                      os.path.join(os.path.dirname(REPO), "shared", "tpch"),
                      "/work/shared/tpch"):
        if candidate and os.path.isfile(os.path.join(candidate, "queries", "q01.sql")):
            return os.path.join(candidate, "queries")
    return None


# --- The pure parts (tests/tpch/test_run_tpch.py) ---------------------------------------------


def parse_query_list(text):
    """'1,3,5-7' -> [1, 3, 5, 6, 7] (sorted, no repeats); each number within 1..22."""
    numbers = set()
    for piece in text.split(","):
        piece = piece.strip()
        m = re.fullmatch(r"[qQ]?(\d+)(?:\s*-\s*[qQ]?(\d+))?", piece)
        if not m:
            raise ValueError("not a query number or range: %r" % piece)
        first, last = int(m.group(1)), int(m.group(2) or m.group(1))
        if first > last:
            raise ValueError("empty range: %r" % piece)
        for n in (first, last):
            if not 1 <= n <= QUERY_COUNT:
                raise ValueError("no query %d (TPC-H has 1..%d)" % (n, QUERY_COUNT))
        numbers.update(range(first, last + 1))
    return sorted(numbers)


def parse_expected(text):
    """The query numbers of an expected-pass file: one per line ('6' or 'q06'); '#' starts a
    comment; blank lines are ignored."""
    numbers = set()
    for lineno, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        m = re.fullmatch(r"[qQ]?(\d+)", line)
        if not m or not 1 <= int(m.group(1)) <= QUERY_COUNT:
            raise ValueError("line %d: not a query number 1..%d: %r" % (lineno, QUERY_COUNT, line))
        numbers.add(int(m.group(1)))
    return numbers


def summary_line(passed, failed):
    return "%d passed, %d failed" % (passed, failed)


def query_label(n):
    return "q%02d" % n


# The shape of a query that may start with WITH (diff_compare.py).
Shape = diff_compare.WithQueryShape


def laneql_value(value, duck_type):
    """A value of laneql's JSON answer (integers as int, other numbers as Decimal, exactly as
    printed) as the Python value DuckDB's client gives for a column of duck_type. A value of
    another kind than the column's (e.g. a fraction in an integer column) becomes a marker that
    matches nothing, so a type difference is a mismatch."""
    if value is None:
        return None
    base = duck_type.upper()
    if isinstance(value, bool):
        return value if base == "BOOLEAN" else ("laneql boolean", value)
    if isinstance(value, int):
        if base in diff_compare.INTEGER_TYPES:
            return value
        if base in diff_compare.FLOAT_TYPES:
            return float(value)
        if base.startswith("DECIMAL"):
            return decimal.Decimal(value)
        return ("laneql integer", value)
    if isinstance(value, decimal.Decimal):
        if base in diff_compare.FLOAT_TYPES:
            return float(value)
        if base.startswith("DECIMAL"):
            return value
        return ("laneql number", str(value))
    if isinstance(value, str):
        if base in diff_compare.INTEGER_TYPES | diff_compare.FLOAT_TYPES | {"BOOLEAN"}:
            return ("laneql string", value)
        return diff_compare.laneql_value(value, base)  # DATE, TIMESTAMP parsed; VARCHAR as is
    return ("laneql %s" % type(value).__name__, value)


def parse_laneql_json(text):
    """(column names or None for an empty answer, rows as lists of raw values) of laneql's
    `--format json` output: a JSON array of objects, one per row, keys in column order."""
    rows = json.loads(text, parse_float=decimal.Decimal, object_pairs_hook=list)
    if not isinstance(rows, list):
        raise ValueError("laneql's JSON answer is not an array")
    names = [k for k, _ in rows[0]] if rows else None
    return names, [[v for _, v in row] for row in rows]


def compare(con, sql, names, raw_rows, fetch_ordered):
    """Runs sql in DuckDB and checks laneql's answer (names, raw_rows) against it. Returns
    (problem, DuckDB's output names, its rows, milliseconds); problem is None when laneql's answer
    is one DuckDB could have given, else ("MISMATCH" or "ORACLE", detail)."""
    shape = Shape(sql)
    start = time.perf_counter()
    cursor = con.execute(sql)
    duck_types = [str(d[1]).upper() for d in cursor.description]
    duck_names = [d[0] for d in cursor.description]
    own_rows = cursor.fetchall()
    duck_ms = (time.perf_counter() - start) * 1e3
    full_rows, full_keys, complete = fetch_ordered(con, shape, duck_names)
    floats = {i for i, t in enumerate(duck_types) if t in diff_compare.FLOAT_TYPES}

    def result(problem):
        return problem, duck_names, own_rows, duck_ms

    # The checker must accept DuckDB's own LIMIT answer; if not, the test is wrong, not laneql.
    problem = diff_compare.check_window(own_rows, full_rows, full_keys, shape.offset,
                                        shape.limit, complete, floats)
    if problem:
        return result(("ORACLE", "the checker rejects DuckDB's own answer: " + problem))
    if names is not None and len(names) != len(duck_names):
        return result(("MISMATCH", "%d columns %s, DuckDB %d %s" % (
            len(names), names, len(duck_names), duck_names)))
    rows = [tuple(laneql_value(v, t) for v, t in zip(row, duck_types)) for row in raw_rows]
    problem = diff_compare.check_window(rows, full_rows, full_keys, shape.offset, shape.limit,
                                        complete, floats)
    return result(("MISMATCH", problem) if problem else None)


def trivial_note(duck_rows):
    """A note when DuckDB's answer is too thin to tell much (q17 is NULL at SF 0.01)."""
    if not duck_rows:
        return "; empty answer"
    if all(v is None for row in duck_rows for v in row):
        return "; answer is NULL"
    return ""


def name_note(names, duck_names):
    """'' when the output column names agree (as run_diff.py, a difference is a note, not a
    failure: an unnamed expression's name is each engine's own spelling)."""
    if names is None or names == duck_names:
        return ""
    return "; names laneql/DuckDB: " + ", ".join(
        "%s/%s" % (a, b) for a, b in zip(names, duck_names) if a != b)


# --- Running ------------------------------------------------------------------------------------


def tables_named(sql):
    """The TPC-H tables whose names occur as words in sql (laneql reads every --table file on
    start, so a query gets only the files it may use; a word that is not a table costs a load)."""
    words = set(re.findall(r"\w+", sql.lower()))
    return [t for t in tpch_data.TABLES if t in words]


def run_laneql(laneql, paths, query_path, sql, timeout_s):
    """{'error': text} or {'names', 'rows', 'ms'} for one query run by a fresh laneql process."""
    cmd = [laneql, "--format", "json", "--timer", "--timeout", "%ds" % timeout_s]
    cmd += tpch_data.table_args({t: paths[t] for t in tables_named(sql)}) + [query_path]
    try:
        run = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             timeout=timeout_s + 60)
    except subprocess.TimeoutExpired:
        return {"error": "no answer after %d s (killed)" % (timeout_s + 60)}
    if run.returncode != 0:
        message = run.stderr.strip()
        message = message.replace("laneql: %s: " % query_path, "", 1)
        if message.startswith("laneql: "):
            message = message[len("laneql: "):]
        if run.returncode < 0:
            message = ("killed by signal %d " % -run.returncode) + message
        return {"error": " / ".join(message.splitlines()) or "exit status %d" % run.returncode}
    out = run.stdout
    m = re.search(r"^Run Time: ([0-9.]+) ms\s*\Z", out, re.M)
    ms = float(m.group(1)) if m else float("nan")
    try:
        names, rows = parse_laneql_json(out[:m.start()] if m else out)
    except ValueError as e:
        return {"error": "unreadable JSON answer (%s): %r" % (e, out[:200])}
    return {"names": names, "rows": rows, "ms": ms}


def query_list_arg(text):
    try:
        return parse_query_list(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e))


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sf", type=float, default=0.01, help="scale factor (default 0.01)")
    p.add_argument("--queries", type=query_list_arg, default=list(range(1, QUERY_COUNT + 1)),
                   help="which queries, e.g. 1,3,5-7 (default all 22)")
    p.add_argument("--laneql", default=os.path.join(REPO, "build", "native", "native-cli",
                                                    "laneql"),
                   help="the laneql CLI (default build/native/native-cli/laneql)")
    p.add_argument("--expect", default=None,
                   help="file of query numbers that must pass (exit 1 if one fails)")
    p.add_argument("--workdir", default=os.path.join(REPO, "build", "tpch"),
                   help="where the data goes, in sf<SF>/ (default build/tpch)")
    p.add_argument("--query-dir", default=find_tpch_queries(),
                   help="folder of q01.sql..q22.sql (default: ../shared/tpch/queries)")
    p.add_argument("--timeout", type=int, default=300, help="seconds per laneql query (300)")
    p.add_argument("--schema", default=None,
                   help="a create.sql whose column types both engines read the files with "
                        "(e.g. ../shared/tpch/create.sql: DECIMAL(15,2) money); default: "
                        "the types read_csv infers")
    return p.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    if args.query_dir is None:
        print("error: TPC-H queries not found ($LANEQL_TPCH_DIR, ../shared/tpch next to the "
              "checkout, /work/shared/tpch); pass --query-dir")
        return 2
    if not os.access(args.laneql, os.X_OK):
        print("error: no laneql at %s (make build-native, or pass --laneql)" % args.laneql)
        return 2
    expected = set()
    if args.expect:
        with open(args.expect, encoding="utf-8") as f:
            try:
                expected = parse_expected(f.read())
            except ValueError as e:
                print("error: %s: %s" % (args.expect, e))
                return 2

    import duckdb  # here, so that the unit tests of the pure parts need no DuckDB
    from run_diff import fetch_ordered  # tests/diff/run_diff.py, on sys.path above

    try:
        folder, gen_s = tpch_data.ensure_data(args.workdir, args.sf, tpch_data.find_tpchgen())
    except RuntimeError as e:
        print("error: %s" % e)
        return 2
    paths = tpch_data.table_paths(folder)
    con = duckdb.connect()
    start = time.perf_counter()
    if args.schema:
        tpch_data.load_duckdb_typed(con, paths, args.schema)
        try:
            paths = tpch_data.typed_paths(folder, args.schema, args.laneql)
        except RuntimeError as e:
            print("error: %s" % e)
            return 2
    else:
        tpch_data.load_duckdb(con, paths)
    load_s = time.perf_counter() - start
    lineitem_rows = con.execute("SELECT count(*) FROM lineitem").fetchone()[0]
    print("TPC-H SF %g in %s: %s; DuckDB load %.2f s; lineitem %d rows" % (
        args.sf, folder, "generated in %.2f s" % gen_s if gen_s is not None else "already there",
        load_s, lineitem_rows))
    duck_schema = tpch_data.duckdb_schema(con)
    try:
        differences = tpch_data.schema_differences(duck_schema,
                                                   tpch_data.laneql_schema(args.laneql, paths))
    except (RuntimeError, subprocess.TimeoutExpired) as e:
        differences = ["cannot read laneql's schema: %s" % e]
    if differences:
        print("WARNING: laneql reads the CSV files with other columns or types than DuckDB:")
        for line in differences:
            print("  " + line)
    else:
        print("column types: laneql's match DuckDB's %s (%d columns)"
              % (args.schema or "read_csv", sum(len(c) for c in duck_schema.values())))

    passed, failed, expected_failed, unexpected_passes = 0, 0, [], []
    start = time.perf_counter()
    for n in args.queries:
        label = query_label(n)
        query_path = os.path.join(args.query_dir, "q%02d.sql" % n)
        with open(query_path, encoding="utf-8") as f:
            sql = f.read()
        got = run_laneql(args.laneql, paths, query_path, sql, args.timeout)
        if "error" in got:
            line = "%s laneql error: %s" % (label, got["error"])
            ok = False
        else:
            try:
                problem, duck_names, duck_rows, duck_ms = compare(con, sql, got["names"], got["rows"],
                                                       fetch_ordered)
            except (duckdb.Error, ValueError) as e:
                problem = ("ORACLE", "%s: %s" % (type(e).__name__, str(e).splitlines()[0]))
            ok = problem is None
            if ok:
                line = "%s ok %.1f ms (%d rows; DuckDB %.1f ms%s%s)" % (
                    label, got["ms"], len(duck_rows), duck_ms, trivial_note(duck_rows),
                    name_note(got["names"], duck_names))
            else:
                line = "%s %s: %s" % (label, problem[0], problem[1])
        print(line, flush=True)
        passed += ok
        failed += not ok
        if n in expected and not ok:
            expected_failed.append(label)
        if ok and args.expect and n not in expected:
            unexpected_passes.append(label)
    run_s = time.perf_counter() - start
    not_run = sorted(expected - set(args.queries))
    print("queries took %.1f s in all (laneql processes, DuckDB, checks)" % run_s)
    if not_run:
        print("listed in %s but not selected: %s" % (args.expect,
                                                    ", ".join(map(query_label, not_run))))
    if unexpected_passes:
        print("passing, not yet listed in %s: %s" % (args.expect, ", ".join(unexpected_passes)))
    if expected_failed:
        print("FAILED, listed in %s as passing: %s" % (args.expect, ", ".join(expected_failed)))
    print(summary_line(passed, failed))
    return 1 if expected_failed else 0


if __name__ == "__main__":
    sys.exit(main())
