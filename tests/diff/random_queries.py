"""A seeded generator of random SELECTs over the hits table, for the random differential test
(random_diff.py): predicates, group keys, aggregates, HAVING, ORDER BY, LIMIT and OFFSET, all in
the SQL laneql supports (README, SQL) and DuckDB runs with the same meaning.

A query is a `Query` object, not just text, so that the minimiser (random_minimize.py) can drop
and simplify its parts; `Query.sql()` spells it. Constants are drawn from a `ValuePool`: values
sampled from the generated rows, so that predicates select something.

Left out on purpose (documented differences, README "Known differences", so a mismatch there
is not a bug):
  - lower/upper on the data's strings (laneql folds ASCII only; hits has Cyrillic text);
  - ILIKE is used, as the data's letters are ASCII and Cyrillic, which laneql folds as DuckDB
    does (it folds ASCII, Latin-1, Greek and Cyrillic only);
  - the features laneql rejects with a clear error: joins, subqueries, UNION, window
    functions, INTERVAL, extract parts other than year..second.
"""

import datetime
import random

INT_TYPES = {"SMALLINT": 16, "INTEGER": 32, "BIGINT": 64}
TEXT_TYPES = {"TEXT", "VARCHAR(255)", "CHAR"}
DATE_PARTS = ["year", "month", "day"]
TIME_PARTS = ["year", "month", "day", "hour", "minute", "second"]


def kind_of(sql_type):
    """The generator's kind of a create.sql column type: int, str, date or ts."""
    if sql_type in INT_TYPES:
        return "int"
    if sql_type.upper() == "DATE":
        return "date"
    if sql_type.upper() == "TIMESTAMP":
        return "ts"
    return "str"


def literal(value):
    """A SQL literal both engines read as the same value (integers without a decimal point)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, datetime.datetime):
        return "TIMESTAMP '%s'" % value.strftime("%Y-%m-%d %H:%M:%S")
    if isinstance(value, datetime.date):
        return "DATE '%s'" % value.isoformat()
    return "'%s'" % str(value).replace("'", "''")


class ValuePool:
    """Values of each column, sampled from the rows both engines query (random_diff.py fills it
    from DuckDB). Frequent values come up as often as they occur in the data."""

    def __init__(self, columns, samples):
        self.columns = columns            # [(name, create.sql type)]
        self.kinds = {n: kind_of(t) for n, t in columns}
        self.samples = samples            # name -> [values]

    def pick(self, rng, column):
        values = self.samples.get(column)
        return rng.choice(values) if values else None

    def names(self, kind):
        return [n for n, _ in self.columns if self.kinds[n] == kind]


class Pred:
    """A predicate tree: ("leaf", sql) | ("not", p) | ("and", a, b) | ("or", a, b)."""

    def __init__(self, op, *parts):
        self.op = op
        self.parts = parts

    def sql(self):
        if self.op == "leaf":
            return self.parts[0]
        if self.op == "not":
            return "NOT (%s)" % self.parts[0].sql()
        return "(%s %s %s)" % (self.parts[0].sql(), self.op.upper(), self.parts[1].sql())

    def simpler(self):
        """Predicates one step simpler than this one (for the minimiser)."""
        if self.op == "leaf":
            return []
        out = list(self.parts)  # a child alone
        if self.op == "not":
            out += [Pred("not", p) for p in self.parts[0].simpler()]
        else:
            a, b = self.parts
            out += [Pred(self.op, s, b) for s in a.simpler()]
            out += [Pred(self.op, a, s) for s in b.simpler()]
        return out


class Query:
    """A SELECT over hits. items: [(expression, alias or None, is_group_key)]; order: [(key sql,
    'ASC'|'DESC', nulls or None)]."""

    def __init__(self):
        self.distinct = False
        self.items = []
        self.where = None
        self.group_by = []   # expressions (also in items, flagged)
        self.group_style = "expr"  # GROUP BY spelled as expressions, "position" or "alias"
        self.having = None   # Pred
        self.order = []
        self.limit = None
        self.offset = None

    def copy(self):
        q = Query()
        q.__dict__.update({k: (list(v) if isinstance(v, list) else v)
                           for k, v in self.__dict__.items()})
        return q

    def _group_key_sql(self, key):
        for position, (expr, alias, is_key) in enumerate(self.items, 1):
            if is_key and expr == key:
                if self.group_style == "position":
                    return str(position)
                if self.group_style == "alias" and alias is not None:
                    return alias
        return key

    def sql(self):
        parts = ["SELECT "]
        if self.distinct:
            parts.append("DISTINCT ")
        parts.append(", ".join(e if a is None else "%s AS %s" % (e, a) for e, a, _ in self.items))
        parts.append(" FROM hits")
        if self.where is not None:
            parts.append(" WHERE " + self.where.sql())
        if self.group_by:
            parts.append(" GROUP BY " + ", ".join(self._group_key_sql(k) for k in self.group_by))
        if self.having is not None:
            parts.append(" HAVING " + self.having.sql())
        if self.order:
            parts.append(" ORDER BY " + ", ".join(
                k + " " + d + ("" if n is None else " NULLS " + n) for k, d, n in self.order))
        if self.limit is not None:
            parts.append(" LIMIT %d" % self.limit)
        if self.offset is not None:
            parts.append(" OFFSET %d" % self.offset)
        return "".join(parts)


class QueryGenerator:
    def __init__(self, pool, seed):
        self.pool = pool
        self.rng = random.Random(seed)
        self.ints = pool.names("int")
        self.strs = pool.names("str")
        self.dates = pool.names("date")
        self.stamps = pool.names("ts")
        self.types = dict(pool.columns)
        # Columns with few distinct values make groups of many rows (HAVING, ties); the others
        # are kept for keys under LIMIT and for COUNT(DISTINCT).
        self.few_values = [n for n in self.ints + self.strs
                           if 0 < len(set(pool.samples.get(n, []))) <= 40]
        self.narrow_ints = [n for n in self.ints if self.types[n] != "BIGINT"]
        # Inside a predicate, and in the outputs of a query without aggregates, arithmetic must
        # not overflow: which rows a predicate is evaluated on depends on the engine's order of
        # conjuncts (laneql orders them by cost and observed selectivity, DuckDB by its own
        # rules), and under LIMIT laneql computes the outputs of the rows it returns while DuckDB
        # computes whole vectors of 2,048 rows, so an overflow error there is not a defined
        # answer. There the operands are SMALLINT/INTEGER, widened to BIGINT first.
        self.no_overflow = False
        self.few_values_ints = [n for n in self.few_values if n in self.ints]
        self.numeric_minmax = set()  # min/max aggregates of integers (HAVING may compare them)
        self.string_aggregates = set()  # library aggregates of strings (median(s)): not in HAVING

    # --- scalar expressions -----------------------------------------------------------------

    def int_column(self):
        # Where overflow is not allowed only SMALLINT and INTEGER columns (see __init__).
        return self.rng.choice(self.narrow_ints if self.no_overflow else self.ints)

    def small_int(self, low=1, high=100):
        return self.rng.randint(low, high)

    def widened(self, expr):
        return "CAST(%s AS BIGINT)" % expr if self.no_overflow else expr

    def int_expr(self, depth=0):
        """(sql, may_be_null) of an integer-valued expression."""
        r = self.rng.random()
        column = self.int_column()
        if depth > 1 or r < 0.45:
            return column, False
        if r < 0.55:
            return "length(%s)" % self.rng.choice(self.strs), False
        if r < 0.6:
            return "strlen(%s)" % self.rng.choice(self.strs), False
        if r < 0.68:
            part = self.rng.choice(TIME_PARTS)
            return "extract(%s FROM %s)" % (part, self.rng.choice(self.stamps)), False
        if r < 0.72:
            return "extract(%s FROM EventDate)" % self.rng.choice(DATE_PARTS), False
        if r < 0.8:
            inner, null = self.int_expr(depth + 1)
            return "(%s %% %d)" % (inner, self.small_int(2, 12)), null
        if r < 0.86:
            a, na = self.int_expr(depth + 1)
            b, nb = self.int_expr(depth + 1)
            return "(%s %s %s)" % (self.widened(a), self.rng.choice("+-"), b), na or nb
        if r < 0.88:
            inner, null = self.int_expr(depth + 1)
            return "(%s * %d)" % (self.widened(inner), self.small_int(-3, 7)), null
        if r < 0.9:
            inner, null = self.int_expr(depth + 1)
            narrowing = ["INTEGER"] if not self.no_overflow else []
            return "CAST(%s AS %s)" % (inner, self.rng.choice(["BIGINT"] + narrowing)), null
        if r < 0.91:
            inner, null = self.int_expr(depth + 1)
            return "(-%s)" % self.widened(inner), null
        if r < 0.92:
            column = self.rng.choice(self.few_values_ints or self.ints)
            whens = " ".join("WHEN %s THEN %d" % (literal(self.int_constant(column)), k)
                             for k in range(self.rng.randint(1, 3)))
            return "CASE %s %s ELSE -1 END" % (column, whens), False
        if r < 0.93:
            # x % y by a column, whose zeros become NULL divisors (a NULL source the hits data
            # lacks): x % 0 is an error (DuckDB 2.0; 1.4 gave NULL) on rows that are not always
            # both engines' to evaluate (see __init__).
            divisor = self.int_column()
            return "(%s %% CASE WHEN %s = 0 THEN NULL ELSE %s END)" % (column, divisor, divisor), True
        if r < 0.95:
            then, _ = self.int_expr(depth + 1)
            return "CASE WHEN %s THEN %s END" % (self.leaf(), then), True
        if r < 0.97:
            return self.int_function(depth)
        then, n1 = self.int_expr(depth + 1)
        other, n2 = self.int_expr(depth + 1)
        return "CASE WHEN %s THEN %s ELSE %s END" % (self.leaf(), then, other), n1 or n2

    def int_function(self, depth):
        """(sql, may_be_null) of a library function with an integer result: abs, sign, round
        to tens, gcd, greatest / least (NULLs skipped), coalesce, nullif."""
        a, na = self.int_expr(depth + 1)
        b, nb = self.int_expr(depth + 1)
        form = self.rng.randrange(7)
        if form == 0:
            return "abs(%s)" % self.widened(a), na
        if form == 1:
            return "sign(%s)" % a, na
        if form == 2:
            return "round(%s, -%d)" % (self.widened(a), self.small_int(1, 3)), na
        if form == 3:
            return "gcd(%s, %d)" % (a, self.small_int(1, 12)), na
        if form == 4:
            return "%s(%s, %s)" % (self.rng.choice(["greatest", "least"]), a, b), na and nb
        if form == 5:
            return "coalesce(CASE WHEN %s THEN %s END, %s)" % (self.leaf(), a, b), nb
        return "nullif(%s, %d)" % (a, self.small_int(0, 3)), True

    def dec_expr(self):
        """(sql, may_be_null) of a DECIMAL-valued expression: an integer expression cast to a
        DECIMAL(38, s) (every integer of the data fits), then scaled, shifted or rounded by
        decimal literals, all in DuckDB's DECIMAL typing."""
        inner, null = self.int_expr(1)
        scale = self.rng.choice([0, 1, 2, 4, 6])
        base = "CAST(%s AS DECIMAL(38,%d))" % (inner, scale)
        form = self.rng.randrange(6)
        if form == 0:
            return base, null
        if form == 1:
            return "(%s * %s)" % (base, self.rng.choice(["1.5", "0.25", "-2.125", "3"])), null
        if form == 2:
            return "(%s %s %s)" % (base, self.rng.choice("+-"), self.rng.choice(["0.5", "12.75", "1", "0.001"])), null
        if form == 3:
            return "round(%s, %d)" % (base, self.rng.choice([-1, 0, 1, 3])), null
        if form == 4:
            return "%s(%s * 0.1)" % (self.rng.choice(["floor", "ceil", "trunc", "abs"]), base), null
        return "CASE WHEN %s THEN %s ELSE 0.5 END" % (self.leaf(), base), null

    def str_expr(self):
        r = self.rng.random()
        column = self.rng.choice(self.strs)
        if r < 0.85:
            return column, False
        if r < 0.9:
            a, b = self.rng.sample(self.strs, 2)
            return "(%s || %s)" % (a, b), False
        if r < 0.93:
            if self.rng.random() < 0.5:
                return "%s::VARCHAR" % self.int_column(), False
            return "CAST(%s AS VARCHAR)" % self.int_column(), False
        if r < 0.97:
            return self.str_function(column)
        return "CASE WHEN %s THEN %s END" % (self.leaf(), column), True

    def str_function(self, column):
        """(sql, may_be_null) of a library string function of a column: left / right, replace,
        split_part, trim, lpad, reverse, concat / concat_ws (NULLs skipped), coalesce."""
        other = self.rng.choice(self.strs)
        n = self.rng.randint(-5, 12)
        forms = ["%s(%s, %d)" % (self.rng.choice(["left", "right"]), column, n),
                 "replace(%s, %s, '%s')" % (column, literal(self.rng.choice(["a", "o", "/", "http"])),
                                            self.rng.choice(["", "_", "xy"])),
                 "split_part(%s, '%s', %d)" % (column, self.rng.choice(["/", ".", " ", ""]), n),
                 "%s(%s, '%s')" % (self.rng.choice(["trim", "ltrim", "rtrim"]), column, self.rng.choice(["h", "ht", " /"])),
                 "lpad(%s, %d, '*')" % (column, abs(n)),
                 "reverse(%s)" % column,
                 "concat(%s, '-', %s)" % (column, other),
                 "concat_ws('|', %s, %s)" % (column, other),
                 "coalesce(nullif(%s, ''), %s)" % (column, other)]
        return self.rng.choice(forms), False

    def time_expr(self):
        """(sql, kind) of a DATE or TIMESTAMP expression."""
        r = self.rng.random()
        if r < 0.5:
            return "EventDate", "date"
        if r < 0.8:
            return self.rng.choice(self.stamps), "ts"
        if r < 0.9:
            part = self.rng.choice(TIME_PARTS)
            # A TIMESTAMP (DuckDB 2.0), but truncated to a day or coarser it is compared with
            # dates of the data, which select rows.
            return "date_trunc('%s', %s)" % (part, self.rng.choice(self.stamps)), (
                "date" if part in DATE_PARTS else "ts")
        return "(EventDate %s %d)" % (self.rng.choice("+-"), self.small_int(0, 40)), "date"

    # --- predicates -------------------------------------------------------------------------

    def int_constant(self, column):
        value = self.pool.pick(self.rng, column)
        return value if isinstance(value, int) else self.small_int(0, 100)

    def like_pattern(self, column):
        value = self.pool.pick(self.rng, column) or "a"
        chars = list(value)
        if chars:
            start = self.rng.randrange(len(chars))
            piece = chars[start:start + self.rng.randint(1, 6)]
        else:
            piece = []
        # '_' for some characters (one code point each, in both engines).
        piece = [c if self.rng.random() > 0.2 else "_" for c in piece]
        text = "".join(piece).replace("%", "_")
        shape = self.rng.random()
        if shape < 0.6:
            return "%" + text + "%"
        if shape < 0.75:
            return text + "%"
        if shape < 0.85:
            return "%" + text
        if shape < 0.92:
            return "".join(value[:3]) + "%" if value else "%"
        return "%"

    def leaf(self):
        outer, self.no_overflow = self.no_overflow, True
        try:
            return self._leaf()
        finally:
            self.no_overflow = outer

    def _leaf(self):
        r = self.rng.random()
        if r < 0.02:
            return self.rng.choice(["true", "false", "1 = 1", "1 > 2", "NULL IS NULL"])
        r = self.rng.random()
        if r < 0.3:
            column = self.int_column()
            op = self.rng.choice(["=", "<>", "<", "<=", ">", ">="])
            return "%s %s %s" % (column, op, literal(self.int_constant(column)))
        if r < 0.38:
            column = self.int_column()
            a, b = sorted([self.int_constant(column), self.int_constant(column)])
            neg = "NOT " if self.rng.random() < 0.2 else ""
            return "%s %sBETWEEN %s AND %s" % (column, neg, literal(a), literal(b))
        if r < 0.41:
            column = self.rng.choice(self.strs + self.dates)
            a, b = sorted([self.pool.pick(self.rng, column), self.pool.pick(self.rng, column)])
            return "%s BETWEEN %s AND %s" % (column, literal(a), literal(b))
        if r < 0.46:
            column = self.rng.choice(self.ints + self.strs)
            many = self.rng.random() < 0.2  # a long list (engines switch to a set there)
            count = self.rng.randint(10, 40) if many else self.rng.randint(1, 5)
            values = sorted({self.pool.pick(self.rng, column) for _ in range(count)}, key=repr)
            values = [v for v in values if v is not None] or [0]
            neg = "NOT " if self.rng.random() < 0.25 else ""
            return "%s %sIN (%s)" % (column, neg, ", ".join(literal(v) for v in values))
        if r < 0.6:
            column = self.rng.choice(self.strs)
            neg = "NOT " if self.rng.random() < 0.3 else ""
            pattern = self.like_pattern(column)
            # ILIKE folds ASCII, Latin-1, Greek and Cyrillic in laneql (the data's scripts).
            op = "ILIKE" if self.rng.random() < 0.15 else "LIKE"
            if self.rng.random() < 0.08:
                # ESCAPE: a literal '%' or '_' inside the pattern.
                core = pattern.strip("%").replace("!", "")
                pattern = "%" + core + "!" + self.rng.choice("%_") + "%"
                return "%s %s%s %s ESCAPE '!'" % (column, neg, op, literal(pattern))
            return "%s %s%s %s" % (column, neg, op, literal(pattern))
        if r < 0.68:
            column = self.rng.choice(self.strs)
            op = self.rng.choice(["=", "<>", "<", ">"])
            return "%s %s %s" % (column, op, literal(self.pool.pick(self.rng, column) or ""))
        if r < 0.76:
            expr, kind = self.time_expr()
            source = "EventDate" if kind == "date" else self.rng.choice(self.stamps)
            value = self.pool.pick(self.rng, source)
            if kind == "ts" and not isinstance(value, datetime.datetime):
                value = datetime.datetime(value.year, value.month, value.day)
            if kind == "date" and isinstance(value, datetime.datetime):
                value = value.date()
            op = self.rng.choice(["=", "<", "<=", ">", ">=", "<>"])
            return "%s %s %s" % (expr, op, literal(value))
        if r < 0.88:
            expr, _ = self.int_expr(1)
            op = self.rng.choice(["=", "<>", "<", ">"])
            return "%s %s %d" % (expr, op, self.small_int(0, 30))
        if r < 0.94:
            expr, null = self.int_expr(0) if self.rng.random() < 0.6 else self.str_expr()
            if not null:
                expr = "CASE WHEN %s THEN %s END" % (self.leaf(), expr)
            return "%s IS %sNULL" % (expr, "NOT " if self.rng.random() < 0.5 else "")
        if r < 0.97:
            return "length(%s) %s %d" % (self.rng.choice(self.strs),
                                         self.rng.choice(["=", ">", "<"]), self.small_int(0, 40))
        if r < 0.985:
            expr, _ = self.dec_expr()
            op = self.rng.choice(["=", "<>", "<", ">", ">="])
            return "%s %s %s" % (expr, op, self.rng.choice(["0", "12.5", "-3.25", "100.125", "1000000"]))
        return "(%s / %d) > %d" % (self.int_column(), self.small_int(2, 9), self.small_int(0, 50))

    def predicate(self, depth=0):
        r = self.rng.random()
        if depth >= 3 or r < 0.5:
            return Pred("leaf", self.leaf())
        if r < 0.6:
            return Pred("not", self.predicate(depth + 1))
        return Pred("and" if r < 0.82 else "or", self.predicate(depth + 1),
                    self.predicate(depth + 1))

    # --- group keys and aggregates -----------------------------------------------------------

    def group_key(self):
        """(sql, bounded): bounded keys have few distinct values."""
        r = self.rng.random()
        if r < 0.35 and self.few_values:
            return self.rng.choice(self.few_values), True
        if r < 0.5:
            return self.rng.choice(self.ints + self.strs), False
        if r < 0.6:
            part = self.rng.choice(TIME_PARTS)
            return "extract(%s FROM %s)" % (part, self.rng.choice(self.stamps)), True
        if r < 0.68:
            part = self.rng.choice(TIME_PARTS)
            return "date_trunc('%s', %s)" % (part, self.rng.choice(self.stamps)), part in DATE_PARTS
        if r < 0.74:
            return "EventDate", True
        if r < 0.8:
            return "length(%s)" % self.rng.choice(self.strs), True
        if r < 0.88:
            return "(%s %% %d)" % (self.int_column(), self.small_int(2, 20)), True
        if r < 0.94:
            return "CASE WHEN %s THEN 'yes' ELSE 'no' END" % self.leaf(), True
        if r < 0.97:
            expr, _ = self.str_expr()  # may be NULL: a NULL group
            return expr, False
        expr, _ = self.int_expr(1)
        return expr, False

    def aggregate(self):
        r = self.rng.random()
        if r < 0.04:  # constant arguments
            return self.rng.choice(["count(1)", "sum(1)", "sum(2)", "avg(3)", "max('x')",
                                    "min(5)", "count(NULL)", "sum(NULL)"])
        r = self.rng.random()
        if r < 0.2:
            return "count(*)"
        if r < 0.28:
            # No overflow-prone arithmetic: DuckDB skips computing an argument of count() that
            # cannot be NULL (its optimiser makes it count(*)), laneql computes it.
            outer, self.no_overflow = self.no_overflow, True
            try:
                expr, _ = self.int_expr() if self.rng.random() < 0.5 else self.str_expr()
            finally:
                self.no_overflow = outer
            return "count(%s)" % expr
        if r < 0.35:
            column = self.rng.choice(self.ints + self.strs)
            return "count(DISTINCT %s)" % column
        if r < 0.38:
            return "count(DISTINCT %s)" % self.group_key()[0]
        if r < 0.55:
            expr, _ = self.int_expr()
            return "sum(%s)" % expr
        if r < 0.62:
            expr, _ = self.int_expr()
            return "avg(%s)" % expr
        if r < 0.65:
            return "avg(%s / %d)" % (self.int_column(), self.small_int(2, 9))
        if r < 0.7:
            return "sum(CASE WHEN %s THEN 1 ELSE 0 END)" % self.leaf()
        if r < 0.78:
            return self.library_aggregate()
        if r < 0.84:
            expr, _ = self.dec_expr()
            return "%s(%s)" % (self.rng.choice(["sum", "avg", "min", "max", "median"]), expr)
        func = self.rng.choice(["min", "max"])
        what = self.rng.random()
        if what < 0.5:
            expr, _ = self.int_expr()
            self.numeric_minmax.add("%s(%s)" % (func, expr))
        elif what < 0.8:
            expr, _ = self.str_expr()
        else:
            expr, _ = self.time_expr()
        return "%s(%s)" % (func, expr)

    def library_aggregate(self):
        """A library aggregate whose answer DuckDB fixes whatever its threads do: quantiles,
        moments (floats compared to the tolerance), bit operations, DISTINCT sums (of integers)."""
        expr, _ = self.int_expr()
        kind = self.rng.choice(["median", "quantile_disc", "quantile_cont", "stddev_samp", "var_pop",
                                "bit", "sum_distinct", "median_str"])
        if kind == "median":
            return "median(%s)" % expr
        if kind == "quantile_disc":
            return "quantile_disc(%s, %s)" % (expr, self.rng.choice(["0.1", "0.25", "0.9", "1"]))
        if kind == "quantile_cont":
            return "quantile_cont(%s, %s)" % (expr, self.rng.choice(["0", "0.5", "0.75"]))
        if kind in ("stddev_samp", "var_pop"):
            return "%s(%s)" % (kind, expr)
        if kind == "bit":
            return "%s(%s)" % (self.rng.choice(["bit_and", "bit_or", "bit_xor"]), self.int_column())
        if kind == "sum_distinct":
            return "%s(DISTINCT %s)" % (self.rng.choice(["sum", "avg"]), self.int_column())
        text, _ = self.str_expr()
        self.string_aggregates.add("median(%s)" % text)
        return "median(%s)" % text

    def having(self, aggregates):
        agg = self.rng.choice(aggregates) if aggregates and self.rng.random() < 0.5 else "count(*)"
        if (agg.startswith(("min(", "max(")) and agg not in self.numeric_minmax) or agg in self.string_aggregates:
            agg = "count(*)"  # a string, date or timestamp: not comparable with a number
        op = self.rng.choice([">", ">=", "<", "<>"])
        threshold = self.rng.choice([0, 1, 2, 3, 5, 10, 50, 100, 1000])
        pred = Pred("leaf", "%s %s %d" % (agg, op, threshold))
        if self.rng.random() < 0.2:
            other = Pred("leaf", "count(*) %s %d" % (self.rng.choice([">", "<"]),
                                                     self.rng.choice([1, 10, 100])))
            pred = Pred(self.rng.choice(["and", "or"]), pred, other)
        if self.rng.random() < 0.1:
            pred = Pred("not", pred)
        return pred

    # --- whole queries -----------------------------------------------------------------------

    def order_by(self, query, keys):
        """ORDER BY some of `keys` (output expressions or aliases) in random directions."""
        chosen = self.rng.sample(keys, self.rng.randint(1, min(3, len(keys))))
        for key in chosen:
            if key in keys[:len(query.items)] and self.rng.random() < 0.15:
                key = str(keys.index(key) + 1)  # ORDER BY position
            nulls = self.rng.choice([None, None, None, "FIRST", "LAST"])
            query.order.append((key, self.rng.choice(["ASC", "DESC"]), nulls))

    def limit(self, query, always=False):
        if always or self.rng.random() < 0.6:
            query.limit = self.rng.choice([0, 1, 3, 10, 10, 25, 100, 100, 1000])
            if self.rng.random() < 0.3:
                query.offset = self.rng.choice([1, 2, 5, 10, 5000])
        elif self.rng.random() < 0.05:
            query.offset = self.rng.choice([1, 5])

    def grouped(self):
        q = Query()
        keys, bounded = [], True
        for _ in range(self.rng.choice([1, 1, 2, 2, 3])):
            key, few = self.group_key()
            if key not in keys:
                keys.append(key)
                bounded = bounded and few
        aggregates = [self.aggregate() for _ in range(self.rng.randint(1, 4))]
        for i, key in enumerate(keys):
            is_column = key.replace("_", "").isalnum()
            q.items.append((key, None if is_column else "k%d" % i, True))
        q.group_by = list(keys)
        q.group_style = self.rng.choice(["expr", "expr", "position", "alias"])
        for i, agg in enumerate(aggregates):
            q.items.append((agg, "a%d" % i, False))
        if self.rng.random() < 0.05:
            q.items.insert(self.rng.randrange(len(q.items) + 1),
                           # A bare NULL would be typed "NULL" by DuckDB 2.0, a type laneql's
                           # columns do not have (laneql: INTEGER, a documented difference).
                           (self.rng.choice(["1", "'x'", "CAST(NULL AS INTEGER)",
                                             "DATE '2013-07-15'"]), "c", False))
        if self.rng.random() < 0.5:
            q.where = self.predicate()
        if self.rng.random() < 0.3:
            q.having = self.having(aggregates)
        if self.rng.random() < 0.75:
            outputs = [a if a is not None else e for e, a, _ in q.items]
            if self.rng.random() < 0.15:
                outputs.append("count(*)")
            self.order_by(q, outputs)
        self.limit(q, always=not bounded)
        return q

    def ungrouped(self):
        q = Query()
        for i in range(self.rng.randint(1, 4)):
            q.items.append((self.aggregate(), "a%d" % i, False))
        if self.rng.random() < 0.7:
            q.where = self.predicate()
        return q

    def plain(self):
        outer, self.no_overflow = self.no_overflow, True
        try:
            return self._plain()
        finally:
            self.no_overflow = outer

    def _plain(self):
        q = Query()
        q.distinct = self.rng.random() < 0.15
        for i in range(self.rng.randint(1, 4)):
            r = self.rng.random()
            if r < 0.5:
                expr = self.rng.choice(self.ints + self.strs + self.stamps + ["EventDate"])
                alias = None
            else:
                if r < 0.75:
                    expr = self.int_expr()[0]
                elif r < 0.85:
                    # Float division: a DOUBLE column to compare and order by.
                    expr = "(%s / %d)" % (self.int_expr(1)[0], self.small_int(2, 9))
                else:
                    expr = self.str_expr()[0]
                alias = "e%d" % i
            if all(e != expr for e, _, _ in q.items):
                q.items.append((expr, alias, False))
        if self.rng.random() < 0.8:
            q.where = self.predicate()
        if self.rng.random() < 0.8:
            outputs = [a if a is not None else e for e, a, _ in q.items]
            if not q.distinct and self.rng.random() < 0.2:
                outputs.append(self.rng.choice(self.ints + self.strs))  # not selected
            self.order_by(q, outputs)
        self.limit(q, always=True)
        return q

    def query(self):
        r = self.rng.random()
        if r < 0.55:
            return self.grouped()
        if r < 0.75:
            return self.ungrouped()
        return self.plain()
