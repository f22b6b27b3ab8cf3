"""A Parquet file whose string column holds over 2 GiB of text (13 M rows, about 2.5 GB, in
row groups of plain utf8 chunks, each well under 2 GiB): laneql reads it as one large_string
column and answers as this script works out from the rows it wrote.

Usage: parquet_over_2gib.py LANEQL DIR   (make test-large-strings; pyarrow from .venv)
"""

import os
import subprocess
import sys

import pyarrow as pa
import pyarrow.parquet as pq

ROWS = 13_000_000
GROUP = 1_000_000
FILL = "abcdefghij" * 20


def value(i):
    return f"row-{i:09d}-" + FILL[: 150 + i % 50]


def main():
    laneql, folder = sys.argv[1], sys.argv[2]
    path = os.path.join(folder, f"laneql_large_{os.getpid()}.parquet")
    total_bytes = 0
    prefix_rows = 0  # rows LIKE 'row-00012%'
    schema = pa.schema([("s", pa.string())])
    try:
        with pq.ParquetWriter(path, schema, compression="snappy") as writer:
            for first in range(0, ROWS, GROUP):
                values = [value(i) for i in range(first, min(ROWS, first + GROUP))]
                total_bytes += sum(len(v) for v in values)
                prefix_rows += sum(1 for v in values if v.startswith("row-00012"))
                writer.write_table(pa.table({"s": pa.array(values, pa.string())}, schema=schema))
        assert total_bytes > 2**31, total_bytes
        sql = (f"SELECT count(*), sum(strlen(s)), min(s), max(s), count(*) FILTER (WHERE s LIKE 'row-00012%') "
               f"FROM '{path}'")
        out = subprocess.run([laneql, "--format", "tsv", "-c", sql], check=True, capture_output=True, text=True)
        got = out.stdout.strip().split("\n")[-1].split("\t")
        want = [str(ROWS), str(total_bytes), value(0), value(ROWS - 1), str(prefix_rows)]
        if got != want:
            print(f"parquet over 2 GiB: got {got}, want {want}", file=sys.stderr)
            return 1
        print(f"parquet over 2 GiB: {ROWS:,} rows, {total_bytes:,} bytes of text, answers as written")
        return 0
    finally:
        if os.path.exists(path):
            os.unlink(path)


if __name__ == "__main__":
    sys.exit(main())
