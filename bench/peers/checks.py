"""Every engine's answer against DuckDB's, with the differential test's rules
(tests/diff/diff_compare.py): integers exact, floats to 1e-9 relative, strings byte for byte,
dates and timestamps as values; rows as a multiset where the query leaves order open; under
ORDER BY ... LIMIT/OFFSET against DuckDB's full ordered answer cut into tie groups.

The engines hand back their own Python values (laneql: JSON numbers and strings; chDB: what
pyarrow gives, DateTime as UInt32 seconds; Polars: its row tuples). normalize_value turns each
into the value DuckDB's Python client gives for the column's DuckDB type, so that diff_compare
compares like with like. A value that does not fit the type stays as it is and fails the check.
"""

import datetime
import decimal
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "tests", "diff"))
import diff_compare  # noqa: E402

OK = "ok"
OK_TIES = "ok (ties)"
MISMATCH = "MISMATCH"
ORACLE = "ORACLE"  # the checker rejects DuckDB's own answer: a bug of the check, not an engine's

_EPOCH = datetime.datetime(1970, 1, 1)


def normalize_value(value, duck_type):
    """`value` as DuckDB's client would give it for a column of `duck_type`."""
    if value is None:
        return None
    kind = duck_type.upper()
    if hasattr(value, "to_pydatetime"):  # a pandas Timestamp
        value = value.to_pydatetime()
    if isinstance(value, bytes):
        value = value.decode("utf-8", "surrogateescape")
    if isinstance(value, decimal.Decimal):
        value = int(value) if value == value.to_integral_value() else float(value)
    if kind in diff_compare.INTEGER_TYPES:
        if isinstance(value, str):
            return diff_compare.laneql_value(value, kind)
        return value
    if kind in diff_compare.FLOAT_TYPES:
        if isinstance(value, bool):
            return value
        if isinstance(value, (int, float)):
            return float(value)
        if isinstance(value, str):
            return diff_compare.laneql_value(value, kind)
        return value
    if kind == "DATE":
        if isinstance(value, datetime.datetime):
            return value.date() if value.time() == datetime.time() and value.tzinfo is None else value
        if isinstance(value, str):
            return diff_compare.laneql_value(value, kind)
        return value
    if kind.startswith("TIMESTAMP"):
        if isinstance(value, datetime.datetime) and value.tzinfo is not None:
            return value.astimezone(datetime.timezone.utc).replace(tzinfo=None)
        if isinstance(value, int) and not isinstance(value, bool):  # chDB's DateTime: seconds
            return _EPOCH + datetime.timedelta(seconds=value)
        if isinstance(value, str):
            return diff_compare.laneql_value(value, kind)
        return value
    if kind == "BOOLEAN" and isinstance(value, str):
        return diff_compare.laneql_value(value, kind)
    return value


def normalize_row(row, duck_types):
    return tuple(normalize_value(v, t) for v, t in zip(row, duck_types))


class Reference:
    """DuckDB's answer to one query, and what the window check needs: its full ordered answer
    (through the tie group at the window's end), its column types and the float columns."""

    def __init__(self, sql, names, types, own_rows, full_rows, full_keys, complete):
        self.shape = diff_compare.WithQueryShape(sql)
        self.names = names
        self.types = types
        self.own_rows = own_rows
        self.full_rows = full_rows
        self.full_keys = full_keys
        self.complete = complete
        self.float_columns = {i for i, t in enumerate(types) if t in diff_compare.FLOAT_TYPES}
        # The checker must accept DuckDB's own LIMIT answer; if not, the check is wrong.
        self.problem = self._window(own_rows)

    def _window(self, rows):
        return diff_compare.check_window(rows, self.full_rows, self.full_keys, self.shape.offset,
                                         self.shape.limit, self.complete, self.float_columns)

    def verdict(self, rows):
        """(status, detail) for an engine's answer `rows` (its own Python values)."""
        if self.problem:
            return ORACLE, "the check rejects DuckDB's own answer: " + self.problem
        width = len(self.types)
        bad_width = [r for r in rows if len(r) != width]
        if bad_width:
            return MISMATCH, "%d columns, DuckDB %d" % (len(bad_width[0]), width)
        got = [normalize_row(r, self.types) for r in rows]
        problem = self._window(got)
        if problem:
            return MISMATCH, problem
        other = diff_compare.unmatched_rows(got, self.own_rows, self.float_columns)
        if other:
            return OK_TIES, "%d rows are other ties than DuckDB's" % len(other)
        return OK, ""


def reference(con, sql):
    """Runs `sql` in DuckDB (untimed) and builds its Reference."""
    from run_diff import fetch_ordered
    cursor = con.execute(sql)
    types = [str(d[1]).upper() for d in cursor.description]
    names = [d[0] for d in cursor.description]
    own = [tuple(r) for r in cursor.fetchall()]
    shape = diff_compare.WithQueryShape(sql)
    full_rows, full_keys, complete = fetch_ordered(con, shape, names)
    return Reference(sql, names, types, own, full_rows, full_keys, complete)
