"""Comparison rules of the DuckDB differential test (run_diff.py).

A query's answer is checked against DuckDB's *full ordered* answer (the query without LIMIT and
OFFSET), cut into tie groups of equal ORDER BY keys:
  - no ORDER BY: the whole answer is one group (row order undefined);
  - the LIMIT/OFFSET window [offset, offset + limit) of that ordered answer covers some groups
    wholly (laneql must return exactly their rows, in any order within a group) and at most two
    partly, the first and the last (laneql's rows there must be a sub-multiset of the whole group:
    any rows DuckDB could have returned for that tied key).
Values: integers exact, floats to 1e-9 relative (NaN = NaN), strings byte for byte, dates and
timestamps as values.
"""

import datetime
import decimal
import math
import re

FLOAT_REL_TOLERANCE = 1e-9
INTEGER_TYPES = {"TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT",
                 "UINTEGER", "UBIGINT", "UHUGEINT"}
FLOAT_TYPES = {"FLOAT", "DOUBLE"}

# --- Splitting a SELECT into the parts the window check needs ---------------------------------


def _top_level_tokens(sql):
    """Yields (start, end, word) for every word outside quotes and parentheses."""
    depth = 0
    i = 0
    while i < len(sql):
        ch = sql[i]
        if ch in "'\"":
            end = i + 1
            while end < len(sql):
                if sql[end] == ch:
                    if end + 1 < len(sql) and sql[end + 1] == ch:  # doubled quote
                        end += 2
                        continue
                    break
                end += 1
            i = end + 1
        elif ch == "(":
            depth += 1
            i += 1
        elif ch == ")":
            depth -= 1
            i += 1
        elif ch.isalnum() or ch == "_":
            end = i
            while end < len(sql) and (sql[end].isalnum() or sql[end] == "_"):
                end += 1
            if depth == 0:
                yield i, end, sql[i:end].upper()
            i = end
        else:
            if ch == "," and depth == 0:
                yield i, i + 1, ","
            i += 1


def _split_top_level_commas(text):
    pieces, start = [], 0
    for begin, _, word in _top_level_tokens(text):
        if word == ",":
            pieces.append(text[start:begin].strip())
            start = begin + 1
    pieces.append(text[start:].strip())
    return [p for p in pieces if p]


def normalize_expr(text):
    """Spelling-insensitive form of an expression: no spaces, lower case."""
    return re.sub(r"\s+", "", text).lower()


class QueryShape:
    """The SELECT list, ORDER BY keys, LIMIT and OFFSET of a one-statement SELECT."""

    def __init__(self, sql):
        self.sql = sql.strip().rstrip(";").strip()
        tokens = list(_top_level_tokens(self.sql))
        words = [w for _, _, w in tokens]
        if not words or words[0] != "SELECT":
            raise ValueError("not a SELECT: %r" % sql[:60])

        def position(word, after=None):
            """Index of the first top-level `word` (followed by `after`, if given), or None."""
            for k, (_, _, w) in enumerate(tokens):
                if w != word:
                    continue
                if after is None or (k + 1 < len(tokens) and tokens[k + 1][2] == after):
                    return k
            return None

        from_k = position("FROM")
        order_k = position("ORDER", after="BY")
        limit_k = position("LIMIT")
        offset_k = position("OFFSET")
        select_end = tokens[from_k][0] if from_k is not None else len(self.sql)
        self.select_items = []  # (expression, alias or None)
        for item in _split_top_level_commas(self.sql[tokens[0][1]:select_end]):
            m = re.match(r"^(.*\S)\s+AS\s+([A-Za-z_][A-Za-z0-9_]*)$", item, re.S | re.I)
            self.select_items.append((m.group(1), m.group(2)) if m else (item, None))
        # Where the clauses after the ORDER BY list start (LIMIT / OFFSET, whichever comes first).
        tail_starts = [tokens[k][0] for k in (limit_k, offset_k) if k is not None]
        tail_start = min(tail_starts) if tail_starts else len(self.sql)
        self.order_keys = []  # expressions, ASC/DESC/NULLS dropped
        if order_k is not None:
            order_text = self.sql[tokens[order_k + 1][1]:tail_start]
            for key in _split_top_level_commas(order_text):
                key = re.sub(r"\s+NULLS\s+(FIRST|LAST)\s*$", "", key, flags=re.I)
                key = re.sub(r"\s+(ASC|DESC)\s*$", "", key, flags=re.I)
                self.order_keys.append(key.strip())
        self.limit = self._number_after(tokens, limit_k)
        self.offset = self._number_after(tokens, offset_k) or 0
        # The statement up to its LIMIT/OFFSET: the full ordered answer.
        self.without_limit = self.sql[:tail_start].rstrip()

    def _number_after(self, tokens, k):
        if k is None:
            return None
        if k + 1 >= len(tokens) or not tokens[k + 1][2].isdigit():
            raise ValueError("LIMIT/OFFSET without a number literal: %r" % self.sql[:60])
        return int(tokens[k + 1][2])

    def full_answer_sql(self, output_names):
        """DuckDB SQL for the ordered answer without LIMIT/OFFSET, and where each ORDER BY key is
        found in its rows: ("out", column) for a key that is an output column, ("extra", j) for
        one appended to the select list (ORDER BY a column that is not selected)."""
        key_places, extras = [], []
        aliases = [normalize_expr(a) if a else None for _, a in self.select_items]
        exprs = [normalize_expr(e) for e, _ in self.select_items]
        star = exprs == ["*"]
        lowered_names = [n.lower() for n in output_names]
        for key in self.order_keys:
            norm = normalize_expr(key)
            if norm.isdigit():  # a position, even where an output is that number's literal
                key_places.append(("out", int(norm) - 1))
            elif norm in aliases:
                key_places.append(("out", aliases.index(norm)))
            elif not star and norm in exprs:
                key_places.append(("out", exprs.index(norm)))
            elif star and norm in lowered_names:
                key_places.append(("out", lowered_names.index(norm)))
            else:
                key_places.append(("extra", len(extras)))
                extras.append(key)
        sql = self.without_limit
        if extras:
            from_at = next(b for b, _, w in _top_level_tokens(sql) if w == "FROM")
            added = "".join(", %s AS __diff_key_%d" % (e, j) for j, e in enumerate(extras))
            sql = sql[:from_at].rstrip() + added + " " + sql[from_at:]
        return sql, key_places, len(extras)


# --- Values ------------------------------------------------------------------------------------


def laneql_value(text, type_name):
    """A value of laneql's answer (DuckDB's VARCHAR spelling) as the Python value DuckDB's
    client returns for that type."""
    if text is None:
        return None
    base = type_name.upper()
    try:
        if base in INTEGER_TYPES:
            return int(text)
        if base in FLOAT_TYPES:
            return float(text)  # nan, -nan, inf, -inf parse too
        if base == "BOOLEAN":
            return {"true": True, "false": False}[text]
        if base == "DATE":
            return datetime.date.fromisoformat(text)
        if base.startswith("TIMESTAMP"):
            return datetime.datetime.fromisoformat(text)
        if base.startswith("DECIMAL"):
            return decimal.Decimal(text)  # exact, as DuckDB's client gives it
    except (ValueError, KeyError, decimal.InvalidOperation):
        return ("unparsable %s" % base, text)  # never equal to a DuckDB value
    return text


def values_match(a, b):
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, int) and isinstance(b, int):
        return a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        a, b = float(a), float(b)
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        if a == b:
            return True
        return abs(a - b) <= FLOAT_REL_TOLERANCE * max(abs(a), abs(b))
    return type(a) is type(b) and a == b


def rows_match(a, b):
    return len(a) == len(b) and all(values_match(x, y) for x, y in zip(a, b))


def _bucket_key(row, float_columns):
    """The exact part of a row: float columns (and any float value) left out."""
    return tuple(None if (i in float_columns or isinstance(v, float)) else
                 (type(v).__name__, v) for i, v in enumerate(row))


def _exact_key(row):
    return tuple((type(v).__name__, v) for v in row)


def unmatched_rows(sub, whole, float_columns):
    """The rows of `sub` that cannot be paired one-to-one with rows of `whole` (value match)."""
    # Rows equal value for value are paired first (a dictionary, so large answers with float
    # columns and few distinct other values stay linear); the rest by the tolerant match.
    exact = {}
    for row in whole:
        exact.setdefault(_exact_key(row), []).append(row)
    rest = []
    for row in sub:
        same = exact.get(_exact_key(row))
        if same:
            same.pop()
        else:
            rest.append(row)
    sub = rest
    buckets = {}
    for rows in exact.values():
        for row in rows:
            buckets.setdefault(_bucket_key(row, float_columns), []).append(row)
    missing = []
    for row in sub:
        candidates = buckets.get(_bucket_key(row, float_columns), [])
        for k, candidate in enumerate(candidates):
            if rows_match(row, candidate):
                del candidates[k]
                break
        else:
            missing.append(row)
    return missing


# --- The window check --------------------------------------------------------------------------


def tie_groups(keys):
    """Start index of each run of equal keys (floats equal to the tolerance)."""
    starts = []
    for i, key in enumerate(keys):
        # Plain equality first (cheap; the keys come from one DuckDB answer, so the same column
        # holds the same Python type in every row); the tolerant match only where it differs.
        if i == 0 or (key != keys[i - 1] and not rows_match(key, keys[i - 1])):
            starts.append(i)
    return starts


def check_window(got, full_rows, full_keys, offset, limit, complete, float_columns):
    """Checks laneql's rows `got` against DuckDB's ordered answer. full_rows / full_keys: DuckDB's
    rows (output columns only) and their ORDER BY keys, from the start through at least the end of
    the tie group holding the window's last row; `complete` says whether that is all of them.
    Returns None when `got` is an answer DuckDB could have given, else what is wrong."""
    end = len(full_rows) if limit is None else min(len(full_rows), offset + limit)
    expected_count = max(0, end - offset)
    if len(got) != expected_count:
        more = "" if complete or limit is None else "at least "
        return "%d rows, DuckDB %s%d" % (len(got), more, expected_count)
    if expected_count == 0:
        return None
    starts = tie_groups(full_keys) + [len(full_rows)]
    g = 0
    while starts[g + 1] <= offset:
        g += 1
    position = offset
    while position < end:
        group_begin, group_end = starts[g], starts[g + 1]
        take = min(group_end, end) - position
        part = got[position - offset:position - offset + take]
        missing = unmatched_rows(part, full_rows[group_begin:group_end], float_columns)
        if missing:
            where = "rows %d..%d" % (position - offset, position - offset + take - 1)
            return "%s: %d not in DuckDB's %s (e.g. %s)" % (
                where, len(missing),
                "answer" if group_end - group_begin == len(full_rows) else
                "tie group of %d rows (key %s)" % (group_end - group_begin,
                                                   _short(full_keys[group_begin])),
                _short(missing[0]))
        position += take
        g += 1
    return None


def mutated(value):
    """A value no sane answer holds next to the others (for the self-check that the checker
    rejects a wrong answer): integers and dates moved far, floats scaled, strings extended."""
    if value is None or isinstance(value, bool):
        return 123456789 if value is None else not value
    if isinstance(value, int):
        return value + 10**12 + 7
    if isinstance(value, float):
        return value * 1.5 + 1.0 if math.isfinite(value) else 0.0
    if isinstance(value, (datetime.date, datetime.datetime)):
        return value + datetime.timedelta(days=1000)
    return str(value) + "\u0000mutated"


def mutations(rows):
    """Wrong variants of a non-empty answer: each value of its first row changed, its last row
    dropped. (Repeating a row is not always wrong: tie groups may hold equal rows.)"""
    for c in range(len(rows[0])):
        first = list(rows[0])
        first[c] = mutated(first[c])
        yield "column %d of row 0 changed" % c, [tuple(first)] + rows[1:]
    yield "last row dropped", rows[:-1]


def _short(value, width=120):
    text = repr(value)
    return text if len(text) <= width else text[:width - 3] + "..."


class WithQueryShape:
    """QueryShape for a query that may start with WITH (TPC-H q15, the relational tester's CTEs):
    the window check runs on the final SELECT, and DuckDB's full answer keeps the WITH clause."""

    def __init__(self, sql):
        sql = sql.strip().rstrip(";").strip()
        self.prefix = ""
        tokens = list(_top_level_tokens(sql))
        if tokens and tokens[0][2] == "WITH":
            select_at = next((b for b, _, w in tokens if w == "SELECT"), None)
            if select_at is None:
                raise ValueError("WITH without a top-level SELECT")
            self.prefix, sql = sql[:select_at], sql[select_at:]
        self.inner = QueryShape(sql)
        self.limit, self.offset = self.inner.limit, self.inner.offset

    def full_answer_sql(self, output_names):
        sql, key_places, extras = self.inner.full_answer_sql(output_names)
        return self.prefix + sql, key_places, extras
