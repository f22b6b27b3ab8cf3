#!/usr/bin/env python3
"""Converts the native generator's hits CSV to an Arrow IPC stream of some of its columns, with
create.sql's column types, for duckdb-wasm (run.mjs loads it with insertArrowFromIPCStream).

  python csv_to_arrow.py --csv hits.csv --create create.sql --columns UserID,URL,... --out x.arrows

Arrow, not Parquet: the npm duckdb-wasm 1.32.0 does not link the parquet extension statically and
fetches it from extensions.duckdb.org when a query reads Parquet, which hangs offline. Its Arrow
insert is built in. The generator's CSV quotes every string (an empty one is ""), so NULLSTR is
set to a text that never occurs and quoted fields are never NULL: '' stays ''.
"""

import argparse
import os
import sys
import time

import duckdb
import pyarrow as pa

# ClickBench's create.sql is read by the differential test's parser (tests/diff/run_diff.py).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "diff"))
from run_diff import hits_columns as create_sql_columns  # noqa: E402

DUCKDB_TYPES = {"BIGINT": "BIGINT", "INTEGER": "INTEGER", "SMALLINT": "SMALLINT",
                "TEXT": "VARCHAR", "VARCHAR": "VARCHAR", "CHAR": "VARCHAR", "DATE": "DATE",
                "TIMESTAMP": "TIMESTAMP"}


def hits_columns(create_path):
    """(name, DuckDB type) of every column of create.sql (VARCHAR(255) and CHAR read as VARCHAR)."""
    return [(name, DUCKDB_TYPES[kind.split("(")[0].upper()])
            for name, kind in create_sql_columns(create_path)]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--csv", required=True)
    p.add_argument("--create", required=True, help="ClickBench's create.sql")
    p.add_argument("--columns", required=True, help="comma-separated column names, or *")
    p.add_argument("--out", required=True, help="the Arrow IPC stream file to write")
    p.add_argument("--batch-rows", type=int, default=122880)
    p.add_argument("--threads", type=int, default=0, help="DuckDB's threads (0: its default)")
    args = p.parse_args()

    schema = hits_columns(args.create)
    by_lower = {name.lower(): name for name, _ in schema}
    if args.columns == "*":
        wanted = [name for name, _ in schema]
    else:
        wanted = []
        for name in args.columns.split(","):
            if name.lower() not in by_lower:
                raise SystemExit("error: no column %r in %s" % (name, args.create))
            wanted.append(by_lower[name.lower()])
        order = {name: i for i, (name, _) in enumerate(schema)}
        wanted.sort(key=order.__getitem__)  # the table's order, as laneql's generateHits keeps it

    con = duckdb.connect()
    if args.threads:
        con.execute("SET threads = %d" % args.threads)
    columns_struct = "{" + ", ".join("'%s': '%s'" % (n, t) for n, t in schema) + "}"
    select = ", ".join('"%s"' % n for n in wanted)
    source = ("read_csv('%s', header = true, delim = ',', quote = '\"', escape = '\"', "
              "nullstr = '\\N-never', allow_quoted_nulls = false, columns = %s)"
              % (args.csv.replace("'", "''"), columns_struct))
    start = time.perf_counter()
    reader = con.sql("SELECT %s FROM %s" % (select, source)).to_arrow_reader(args.batch_rows)
    rows = 0
    with pa.OSFile(args.out, "wb") as sink, pa.ipc.new_stream(sink, reader.schema) as writer:
        for batch in reader:
            if any(column.null_count for column in batch.columns):
                raise SystemExit("error: NULLs in the CSV's columns (every hits column is NOT NULL)")
            writer.write_batch(batch)
            rows += batch.num_rows
    print("csv_to_arrow: %d rows, %d columns -> %s in %.1f s"
          % (rows, len(wanted), args.out, time.perf_counter() - start), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
