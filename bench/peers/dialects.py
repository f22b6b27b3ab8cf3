"""The SQL each engine runs: ClickBench's queries.sql as it is, except the adjustments below, each
with the reason. queries.sql is read at run time from the ClickBench folder and never copied in.

laneql and DuckDB run every query as written (DuckDB's answer is the reference, and laneql's
length() counts code points as DuckDB's does). chDB speaks ClickHouse SQL and Polars its own SQL
dialect; a query an engine cannot run as written, nor with an adjustment listed here, is reported
as n/a (Polars) or as an error (the others), with the engine's message, never dropped.
"""

import re

# engine -> query number (1-based line of queries.sql) -> ([(old, new), ...], why)
ADJUSTMENTS = {
    "chdb": {
        28: ([("length(URL)", "lengthUTF8(URL)")],
             "ClickHouse's length() counts bytes; DuckDB's and laneql's count code points, "
             "which is ClickHouse's lengthUTF8()"),
        29: ([("length(Referer)", "lengthUTF8(Referer)"),
              ("(?:www\\.)", "(?:www\\\\.)"),
              ("'\\1'", "'\\\\1'")],
             "lengthUTF8() as in Q28; and ClickHouse string literals read a backslash as an "
             "escape, so the regular expression's and the replacement's backslashes are doubled "
             "(as ClickBench's own ClickHouse queries write them)"),
    },
    "polars": {},
    "duckdb": {},
    "laneql": {},
}

# Answers known to differ from DuckDB's for a reason of the engine's own semantics, not of the
# benchmark; the check still reports them as MISMATCH, and the report adds the cause.
KNOWN_DIFFERENCES = {
    "chdb": {
        4: "ClickHouse's avg() over Int64 adds the values in Int64, which wraps around once the "
           "sum passes 2^63 (the generated UserIDs span the whole Int64 range, as the real ones "
           "do); DuckDB's and laneql's AVG add exactly (128-bit)",
    },
}


def known_difference(engine, number):
    return KNOWN_DIFFERENCES.get(engine, {}).get(number)


def adapt(engine, number, sql):
    """(the SQL `engine` runs for query `number`, the reason when it differs from `sql`)."""
    return adjusted(ADJUSTMENTS, engine, number, sql, "dialects.py")


def adjusted(adjustments, engine, number, sql, source):
    """adapt() over a table of adjustments ({engine: {number: ([(old, new)], why)}}) kept in the
    file `source`: each `old` must be in the query, or the query changed under the table."""
    change = adjustments.get(engine, {}).get(number)
    if change is None:
        return sql, None
    replacements, why = change
    out = sql
    for old, new in replacements:
        if old not in out:
            raise ValueError("%s: query %d for %s has no %r (did the query change?)"
                             % (source, number, engine, old))
        out = out.replace(old, new)
    return out, why


def used_columns(queries, schema):
    """The columns of `schema` ([(name, type)]) the queries name (words outside string
    literals, case-insensitive), in the schema's order."""
    by_lower = {name.lower(): name for name, _ in schema}
    used = set()
    for sql in queries:
        bare = re.sub(r"'(?:[^']|'')*'", "''", sql)
        used.update(by_lower[w.lower()] for w in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", bare)
                    if w.lower() in by_lower)
    return [name for name, _ in schema if name in used]
