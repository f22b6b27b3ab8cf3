#!/usr/bin/env python3
"""TPC-H's 22 queries through the npm package on each Node flavour, checked against DuckDB.

  .venv/bin/python tests/tpch/run_tpch_js.py --sf 0.01 --expect tests/tpch/expected_pass.txt

For each flavour, one Node process (tests/tpch/tpch_npm.mjs) loads bindings-js/dist as a user
would, reads the 8 CSV files of build/tpch/sf<SF>/ with registerCSV, runs the queries and writes
its answers as JSON; this script checks the tables' column types against DuckDB's read_csv and
each answer against DuckDB's with run_tpch.py's rules (tests/diff/diff_compare.py), printing
`<flavour> qNN ok ...` lines and a `<flavour>: N passed, M failed` line per flavour. Exit status
1 when a query listed in --expect fails on some flavour, 2 on a set-up error, else 0.
"""

import argparse
import decimal
import json
import os
import subprocess
import sys
import tempfile
import time

import run_tpch  # tests/tpch, beside this file; puts tests/diff on sys.path
import tpch_data

HERE = run_tpch.HERE
REPO = run_tpch.REPO
# tests/js/flavours.ts's NODE_FLAVOURS: every flavour that runs in Node.
NODE_FLAVOURS = ("simd128-mt", "simd128", "scalar")


def parse_npm_answers(text):
    """tpch_npm.mjs's JSON, integers as int and other numbers as Decimal (exactly as written),
    like run_tpch.parse_laneql_json reads the CLI's."""
    return json.loads(text, parse_float=decimal.Decimal)


def table_schema(tables):
    """{table: [(column, TYPE), ...]} from the 'tables' part of tpch_npm.mjs's JSON."""
    return {t: list(zip(v["names"], v["types"])) for t, v in tables.items()}


def run_node(node, flavour, folder, query_dir, queries, timeout_s):
    """(answers dict, None) or (None, error text) of one flavour's Node process."""
    with tempfile.TemporaryDirectory(prefix="tpch-npm-") as tmp:
        out = os.path.join(tmp, "answers.json")
        cmd = [node, os.path.join(HERE, "tpch_npm.mjs"), "--data", folder, "--query-dir",
               query_dir, "--flavour", flavour, "--out", out,
               "--queries", ",".join(map(str, queries)), "--timeout-ms", str(timeout_s * 1000)]
        try:
            run = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                 timeout=timeout_s * len(queries) + 300, cwd=REPO)
        except subprocess.TimeoutExpired:
            return None, "Node gave no answer in time (killed)"
        if run.returncode != 0 or not os.path.isfile(out):
            tail = " / ".join(run.stderr.strip().splitlines()[-5:])
            return None, "Node exited with %d: %s" % (run.returncode, tail)
        with open(out, encoding="utf-8") as f:
            return parse_npm_answers(f.read()), None


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sf", type=float, default=0.01, help="scale factor (default 0.01)")
    p.add_argument("--flavours", default=",".join(NODE_FLAVOURS),
                   help="comma-separated (default %s)" % ",".join(NODE_FLAVOURS))
    p.add_argument("--queries", type=run_tpch.query_list_arg,
                   default=list(range(1, run_tpch.QUERY_COUNT + 1)),
                   help="which queries, e.g. 1,3,5-7 (default all 22)")
    p.add_argument("--expect", default=None,
                   help="file of query numbers that must pass (exit 1 if one fails)")
    p.add_argument("--workdir", default=os.path.join(REPO, "build", "tpch"),
                   help="where the data goes, in sf<SF>/ (default build/tpch)")
    p.add_argument("--query-dir", default=run_tpch.find_tpch_queries(),
                   help="folder of q01.sql..q22.sql (default: ../shared/tpch/queries)")
    p.add_argument("--node", default="node", help="the Node program (default node)")
    p.add_argument("--timeout", type=int, default=300, help="seconds per query (300)")
    return p.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    if args.query_dir is None:
        print("error: TPC-H queries not found ($LANEQL_TPCH_DIR, ../shared/tpch next to the "
              "checkout, /work/shared/tpch); pass --query-dir")
        return 2
    if not os.path.isfile(os.path.join(REPO, "bindings-js", "dist", "index.js")):
        print("error: no bindings-js/dist/index.js (make build-wasm build-js)")
        return 2
    expected = set()
    if args.expect:
        with open(args.expect, encoding="utf-8") as f:
            try:
                expected = run_tpch.parse_expected(f.read())
            except ValueError as e:
                print("error: %s: %s" % (args.expect, e))
                return 2

    import duckdb
    from run_diff import fetch_ordered

    try:
        folder, gen_s = tpch_data.ensure_data(args.workdir, args.sf, tpch_data.find_tpchgen())
    except RuntimeError as e:
        print("error: %s" % e)
        return 2
    con = duckdb.connect()
    tpch_data.load_duckdb(con, tpch_data.table_paths(folder))
    duck_schema = tpch_data.duckdb_schema(con)
    sqls = {}
    for n in args.queries:
        with open(os.path.join(args.query_dir, "q%02d.sql" % n), encoding="utf-8") as f:
            sqls[n] = f.read()
    print("TPC-H SF %g through the npm package in Node (%s): %s" % (
        args.sf, folder, "generated in %.2f s" % gen_s if gen_s is not None else "data there"))

    expected_failed, totals = [], []
    for flavour in [f.strip() for f in args.flavours.split(",") if f.strip()]:
        start = time.perf_counter()
        got, error = run_node(args.node, flavour, folder, args.query_dir, args.queries,
                              args.timeout)
        process_s = time.perf_counter() - start
        if error:
            print("%s: %s" % (flavour, error), flush=True)
            expected_failed += ["%s %s" % (flavour, run_tpch.query_label(n))
                                for n in args.queries if n in expected]
            totals.append("%s 0/%d (no answers)" % (flavour, len(args.queries)))
            continue
        differences = tpch_data.schema_differences(duck_schema, table_schema(got["tables"]))
        for line in differences:
            print("%s WARNING: column types differ from DuckDB's: %s" % (flavour, line))
        passed = failed = 0
        query_ms = 0.0
        for n in args.queries:
            label = "%s %s" % (flavour, run_tpch.query_label(n))
            answer = got["queries"].get(str(n), {"error": "no answer"})
            if "error" in answer:
                line, ok = "%s laneql error: %s" % (label, answer["error"]), False
            else:
                query_ms += float(answer["wallMs"])
                try:
                    problem, duck_names, duck_rows, _ = run_tpch.compare(
                        con, sqls[n], answer["names"], answer["rows"], fetch_ordered)
                except (duckdb.Error, ValueError) as e:
                    problem = ("ORACLE", "%s: %s" % (type(e).__name__, str(e).splitlines()[0]))
                ok = problem is None
                if ok:
                    line = "%s ok %.1f ms (%d rows%s%s)" % (
                        label, float(answer["ms"]), len(duck_rows),
                        run_tpch.trivial_note(duck_rows),
                        run_tpch.name_note(answer["names"], duck_names))
                else:
                    line = "%s %s: %s" % (label, problem[0], problem[1])
            print(line, flush=True)
            passed += ok
            failed += not ok
            if n in expected and not ok:
                expected_failed.append(label)
        print("%s: %s; load %.1f s, queries %.1f s, Node process %.1f s (%d threads)" % (
            flavour, run_tpch.summary_line(passed, failed), float(got["loadMs"]) / 1e3,
            query_ms / 1e3, process_s, got["info"]["threads"]), flush=True)
        totals.append("%s %d/%d in %.1f s" % (flavour, passed, passed + failed, process_s))
    print("SF %g: %s" % (args.sf, ", ".join(totals)))
    if expected_failed:
        print("FAILED, listed in %s as passing: %s" % (args.expect, ", ".join(expected_failed)))
    return 1 if expected_failed else 0


if __name__ == "__main__":
    sys.exit(main())
