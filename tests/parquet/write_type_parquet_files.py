"""Writes the small Parquet files that parquet_reader_test.cc checks value by value.

Usage: write_type_parquet_files.py OUT_DIR

 - types.parquet: one column per Arrow type laneql reads, 5 rows, row 2 null everywhere, row
   groups of 2 rows (3 chunks per column). The test spells out the same values.
 - list.parquet: an int64 column and a list<int64> column "tags" (not supported: an error).
 - empty.parquet: an int32 and a string column with no rows.
 - not_parquet.parquet: text; truncated.parquet: the first half of types.parquet;
   corrupt_pages.parquet: types.parquet with its magic and footer intact but the bytes of its
   column chunks scrambled.
"""

import os
import sys

import pyarrow as pa
import pyarrow.parquet as pq


def types_table():
    dict_name = pa.array(["red", "green", None, "red", "blue"]).dictionary_encode()
    return pa.table({
        "i8": pa.array([-128, 127, None, 0, -1], pa.int8()),
        "i16": pa.array([-32768, 32767, None, 0, 7], pa.int16()),
        "i32": pa.array([-2**31, 2**31 - 1, None, 0, 42], pa.int32()),
        "i64": pa.array([-2**63, 2**63 - 1, None, 0, 1234567890123], pa.int64()),
        "u8": pa.array([0, 255, None, 1, 200], pa.uint8()),
        "u16": pa.array([0, 65535, None, 1, 15887], pa.uint16()),
        "u32": pa.array([0, 2**32 - 1, None, 1, 3000000000], pa.uint32()),
        "u64": pa.array([0, 2**64 - 1, None, 1, 2**63], pa.uint64()),
        "f32": pa.array([-1.5, 3.25, None, 0.0, 1e30], pa.float32()),
        "f64": pa.array([-1.5, 1e300, None, 0.0, 0.1], pa.float64()),
        "flag": pa.array([True, False, None, True, False], pa.bool_()),
        "day": pa.array([0, 15887, None, -1, 19000], pa.date32()),
        # Parquet has no second unit: this comes back as timestamp[ms].
        "ts_s": pa.array([1372636800, -1, None, 0, 1], pa.timestamp("s")),
        "ts_ms": pa.array([0, 1372636800123, None, -1, 1], pa.timestamp("ms")),
        "ts_us": pa.array([0, 1372636800123456, None, -1, 1], pa.timestamp("us")),
        "ts_ns": pa.array([-1, 1372636800123456789, None, -1000, 1999], pa.timestamp("ns")),
        "name": pa.array(["", "h\u00e9llo", None, "laneql", "x" * 100], pa.string()),
        "bytes": pa.array([b"\x00\xff", b"", None, b"abc", b"\x80"], pa.binary()),
        "big_name": pa.array(["a", "", None, "\u00fc", "zz"], pa.large_string()),
        "big_bytes": pa.array([b"\x01", b"\x02\x03", None, b"", b"\xfe"], pa.large_binary()),
        "dict_name": dict_name,
    })


def main():
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    types_path = os.path.join(out_dir, "types.parquet")
    pq.write_table(types_table(), types_path, row_group_size=2)

    pq.write_table(pa.table({
        "id": pa.array([1, 2, 3], pa.int64()),
        "tags": pa.array([[1], [], [2, 3]], pa.list_(pa.int64())),
    }), os.path.join(out_dir, "list.parquet"))

    pq.write_table(pa.table({
        "n": pa.array([], pa.int32()),
        "s": pa.array([], pa.string()),
    }), os.path.join(out_dir, "empty.parquet"))

    with open(os.path.join(out_dir, "not_parquet.parquet"), "w") as f:
        f.write("id,name\n1,laneql\n")
    with open(types_path, "rb") as f:
        data = f.read()
    with open(os.path.join(out_dir, "truncated.parquet"), "wb") as f:
        f.write(data[: len(data) // 2])
    footer_start = len(data) - 8 - int.from_bytes(data[-8:-4], "little")
    scrambled = bytes(b ^ 0x5A for b in data[4:footer_start])
    with open(os.path.join(out_dir, "corrupt_pages.parquet"), "wb") as f:
        f.write(data[:4] + scrambled + data[footer_start:])


if __name__ == "__main__":
    main()
