"""Writes a small ClickBench-style Parquet file for laneql_parquet_tests.

Usage: write_clickbench_parquet.py OUT_DIR

Writes OUT_DIR/hits_sample.parquet: a few thousand rows with a subset of ClickBench's hits
columns typed as the published hits.parquet types them (text as BINARY, EventDate as a uint16
day number, EventTime as int64 seconds, int16 / int32 / int64 counters), plus two nullable
columns (the real file has none; the reader must handle them). Small row groups, so the reader
sees several chunks per column.

Also writes OUT_DIR/hits_sample.expected.tsv, every value as the test expects to read it: a
header line of column names, then one line per row; integers in decimal, byte strings in hex
(so that any byte survives), nulls as \\N.
"""

import os
import random
import sys

import pyarrow as pa
import pyarrow.parquet as pq

ROWS = 3000
ROW_GROUP_SIZE = 700  # 5 row groups, the last one partial

WORDS = ["laneql", "simd", "parquet", "arrow", "columnar", "query", "kernel", "ÿandex",
         "поиск", "hits", "metrica", "", "a" * 40]


def phrase(rng, max_words):
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, max_words)))


def generate(rng):
    columns = {
        "WatchID": [], "JavaEnable": [], "Title": [], "GoodEvent": [], "EventTime": [],
        "EventDate": [], "CounterID": [], "ClientIP": [], "RegionID": [], "UserID": [],
        "URL": [], "Referer": [], "SearchPhrase": [], "AdvEngineID": [], "ResolutionWidth": [],
        "MobilePhoneModel": [], "RefererHash": [], "UTMSource": [],
    }
    for _ in range(ROWS):
        event_time = 1372636800 + rng.randint(0, 31 * 86400 - 1)  # July 2013, as in hits
        columns["WatchID"].append(rng.randint(-(2**63), 2**63 - 1))
        columns["JavaEnable"].append(rng.randint(0, 1))
        columns["Title"].append(phrase(rng, 6).encode())
        columns["GoodEvent"].append(1)
        columns["EventTime"].append(event_time)
        columns["EventDate"].append(event_time // 86400)
        columns["CounterID"].append(rng.choice([62, 1704, 34, 101024]))
        columns["ClientIP"].append(rng.randint(-(2**31), 2**31 - 1))
        columns["RegionID"].append(rng.randint(1, 10000))
        columns["UserID"].append(rng.randint(-(2**63), 2**63 - 1))
        columns["URL"].append(("http://example.com/" + phrase(rng, 3).replace(" ", "/")).encode())
        # Bytes that are not UTF-8: laneql keeps binary columns' bytes as they are.
        columns["Referer"].append(bytes(rng.randint(0, 255) for _ in range(rng.randint(0, 12))))
        columns["SearchPhrase"].append(phrase(rng, 3).encode() if rng.random() < 0.2 else b"")
        columns["AdvEngineID"].append(rng.choice([0, 0, 0, 2, 27]))
        columns["ResolutionWidth"].append(rng.choice([1024, 1280, 1366, 1920, 0]))
        columns["MobilePhoneModel"].append(rng.choice([b"", b"iPad", b"iPhone", b"GT-I9300"]))
        columns["RefererHash"].append(
            None if rng.random() < 0.3 else rng.randint(-(2**63), 2**63 - 1))
        columns["UTMSource"].append(None if rng.random() < 0.3 else phrase(rng, 2).encode())
    return columns


TYPES = {
    "WatchID": pa.int64(), "JavaEnable": pa.int16(), "Title": pa.binary(),
    "GoodEvent": pa.int16(), "EventTime": pa.int64(), "EventDate": pa.uint16(),
    "CounterID": pa.int32(), "ClientIP": pa.int32(), "RegionID": pa.int32(),
    "UserID": pa.int64(), "URL": pa.binary(), "Referer": pa.binary(),
    "SearchPhrase": pa.binary(), "AdvEngineID": pa.int16(), "ResolutionWidth": pa.int16(),
    "MobilePhoneModel": pa.binary(), "RefererHash": pa.int64(), "UTMSource": pa.binary(),
}


def cell(value):
    if value is None:
        return "\\N"
    if isinstance(value, bytes):
        return value.hex()
    return str(value)


def main():
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    columns = generate(random.Random(20130701))
    table = pa.table({name: pa.array(values, TYPES[name]) for name, values in columns.items()})
    pq.write_table(table, os.path.join(out_dir, "hits_sample.parquet"),
                   row_group_size=ROW_GROUP_SIZE)
    with open(os.path.join(out_dir, "hits_sample.expected.tsv"), "w") as f:
        names = list(columns)
        f.write("\t".join(names) + "\n")
        for row in range(ROWS):
            f.write("\t".join(cell(columns[name][row]) for name in names) + "\n")


if __name__ == "__main__":
    main()
