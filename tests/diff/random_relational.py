"""A seeded generator of random multi-table queries and their tables, for the relational
differential test (relational_diff.py): joins of every kind over keys with NULLs and duplicates,
derived tables (LATERAL ones too), CTEs used twice, subqueries (uncorrelated and correlated, of
any shape), set operations, GROUP BY over join results, ORDER BY and LIMIT, in the SQL laneql
supports and DuckDB runs with the same meaning.

A query is a tree of objects (`Select`, `Table`, `Derived`, `Join`, `Comma`, `Expr`), not just
text, so that the minimiser can drop and simplify parts: `smaller()` yields every tree one step
simpler, `sql()` spells it on one line. The data is four small tables (`make_tables`), made
from their own seed.

Correlated subqueries that laneql runs once per distinct binding of the outer columns they read
are drawn next to the forms it unnests (shaped_sub, shaped_value, lateral): their own
GROUP BY / HAVING, DISTINCT, ORDER BY ... LIMIT [OFFSET], WITH inside, set operations; IN / ANY /
ALL over an aggregate; the correlation inside a derived table of the subquery; a subquery in
one correlated two levels out; scalar aggregates correlated on non-equalities or an OR; LATERAL
derived tables (comma, [INNER] JOIN, LEFT JOIN ... ON true or a condition, CROSS JOIN; now and
then without the word). A scalar or LATERAL subquery with LIMIT orders by every column it
returns (ties give the same values), and the minimiser drops its LIMIT before its ORDER BY.

About one time in five (OUTER_IN_ITEM_P) the SELECT item of a correlated subquery of any of
these forms (scalars, IN / ANY / ALL, EXISTS, LATERAL; their set-operation branches, the WITH
or derived table inside them) also reads an outer column: `z.c + o.c`, `z.c - o.c`,
`z.s || o.s`, `CASE WHEN o.c IS NULL THEN z.c ELSE ... END`, of z's kind (an IN keeps its
operand's kind), or an aggregate so combined; and the ORDER BY of one with LIMIT first sorts by
such a mix of an inner and an outer column, the keys naming every returned column after it
(under DISTINCT the keys are the items themselves). The outer value is one per binding, so
those keys still fix what a LIMIT keeps. These draws take their own random stream: a seed's
queries keep their shapes.

Left out on purpose (tests/diff/README.md, "Relational queries"):
  - with SHAPED_IN_OUTER_ON / BOTH_SIDES_IN_OUTER_ON false, the shapes laneql runs per binding
    in the ON of an outer, semi or anti join / correlated subqueries there reading both sides; over an
    aggregate query's groups, the subqueries correlate on its group keys (now and then on
    another column, an error in both);
  - a plain (non-aggregate) correlated scalar that may find two rows anywhere but as a SELECT
    item of a query without LIMIT (and, over groups, without HAVING): whether an engine meets
    DuckDB's "More than one row" error depends on which rows it computes (elsewhere the scalar
    reads a grouped derived table, one row per key, or has LIMIT 1, or is an aggregate);
  - RIGHT / FULL / SEMI / ANTI lateral joins (errors in both engines);
  - an outer column of a derived table named as a column (d1..d4) in a subquery's SELECT item
    or ORDER BY: DuckDB binds `d2.c1` there, over t2, as a field of t2's column d2;
  - qualified left keys of a RIGHT / FULL join with USING or NATURAL (laneql merges them too);
  - decimal literals (DOUBLE in laneql, DECIMAL in DuckDB): doubles are compared with integers;
  - coalesce (laneql has no such function yet): CASE WHEN x IS NULL THEN y ELSE x END instead;
  - LIMIT inside subqueries without a total order, and LIMIT 0 (random_diff.py's reasons).
"""

import datetime
import random

# Four tables; shared column names (k, j, m) give USING and NATURAL joins something to match,
# with INTEGER and BIGINT meeting on the same name.
TABLES = {
    "t1": [("k", "INTEGER"), ("j", "INTEGER"), ("s1", "VARCHAR"), ("x1", "DOUBLE"), ("d1", "DATE")],
    "t2": [("k", "INTEGER"), ("j", "BIGINT"), ("s2", "VARCHAR"), ("x2", "DOUBLE"), ("d2", "DATE")],
    "t3": [("k", "BIGINT"), ("m", "INTEGER"), ("s3", "VARCHAR"), ("x3", "DOUBLE"), ("d3", "DATE")],
    "t4": [("j", "INTEGER"), ("m", "INTEGER"), ("s4", "VARCHAR"), ("x4", "DOUBLE"), ("d4", "DATE")],
}
KIND = {"INTEGER": "int", "BIGINT": "int", "VARCHAR": "str", "DOUBLE": "dbl", "DATE": "date"}
COLUMN_NAMES = {c for columns in TABLES.values() for c, _ in columns}
STRINGS = ["a", "b", "ab", "", "é", "日本", "Zz"]
DOUBLES = [-2.5, 0.0, 0.25, 1.5, 3.75, 10.0, 100.125]  # exact in binary: sums do not round
DATES = [datetime.date(1999, 12, 31), datetime.date(2020, 1, 1), datetime.date(2020, 2, 29),
         datetime.date(2024, 7, 15)]
COMPARE = ["=", "<>", "<", "<=", ">", ">="]
SET_OPS = ["UNION", "UNION ALL", "INTERSECT", "INTERSECT ALL", "EXCEPT", "EXCEPT ALL"]


def make_tables(rng):
    """{table: rows}: 0-60 rows each (sometimes one table empty), keys from a small range with
    NULLs and duplicates, strings with '' and multi-byte text."""
    empty = rng.choice(sorted(TABLES)) if rng.random() < 0.25 else None
    data = {}
    for name, columns in TABLES.items():
        size = 0 if name == empty else rng.choice(
            [rng.randint(1, 6), rng.randint(5, 25), rng.randint(20, 60)])
        null_p = rng.choice([0.0, 0.1, 0.25, 0.4])
        spans = {c: rng.choice([3, 5, 8]) for c, t in columns if KIND[t] == "int"}
        rows = []
        for _ in range(size):
            row = []
            for c, t in columns:
                kind = KIND[t]
                if rng.random() < null_p:
                    row.append(None)
                elif kind == "int":
                    row.append(rng.randrange(-1, spans[c]))
                elif kind == "str":
                    row.append(rng.choice(STRINGS))
                elif kind == "dbl":
                    row.append(rng.choice(DOUBLES))
                else:
                    row.append(rng.choice(DATES))
            rows.append(tuple(row))
        data[name] = rows
    return data


def csv_text(name, rows):
    """The table as CSV with a header: NULL an empty unquoted field, every string quoted."""
    lines = [",".join(c for c, _ in TABLES[name])]
    for row in rows:
        fields = []
        for v in row:
            if v is None:
                fields.append("")
            elif isinstance(v, str):
                fields.append('"%s"' % v.replace('"', '""'))
            elif isinstance(v, datetime.date):
                fields.append(v.isoformat())
            else:
                fields.append(repr(v))
        lines.append(",".join(fields))
    return "\n".join(lines) + "\n"


def create_sql(name):
    return "CREATE TABLE %s (%s)" % (name, ", ".join("%s %s" % c for c in TABLES[name]))


# --- The query tree ------------------------------------------------------------------------------


class Col:
    def __init__(self, qual, name, kind):
        self.qual, self.name, self.kind = qual, name, kind

    def ref(self):
        return "%s.%s" % (self.qual, self.name)


class Expr:
    """SQL text with a "\\0" where each of `subs` (Selects, spelled in parentheses) goes;
    `simpler`: shorter expressions the minimiser tries first (the sides of an OR, ...)."""

    def __init__(self, text, subs=(), simpler=()):
        self.text, self.subs, self.simpler = text, list(subs), list(simpler)

    def sql(self):
        pieces = self.text.split("\0")
        return pieces[0] + "".join("(%s)%s" % (s.sql(), p) for s, p in zip(self.subs, pieces[1:]))

    def smaller(self):
        for v in self.simpler:
            yield v
        for i, sub in enumerate(self.subs):
            for v in sub.smaller():
                yield Expr(self.text, self.subs[:i] + [v] + self.subs[i + 1:])


def wrap(template, *parts, simpler=None):
    """An Expr spelling `template` with each "{}" replaced by one of `parts` (Exprs, their
    subqueries kept); the minimiser may replace it by any of `simpler` (default: the parts)."""
    pieces = template.split("{}")
    assert len(pieces) == len(parts) + 1
    text, subs = pieces[0], []
    for part, rest in zip(parts, pieces[1:]):
        text += part.text + rest
        subs += part.subs
    return Expr(text, subs, parts if simpler is None else simpler)


class Table:
    def __init__(self, name, alias):
        self.name, self.alias = name, alias

    def sql(self):
        return "%s AS %s" % (self.name, self.alias)

    def smaller(self):
        return []


class Derived:
    """(SELECT ...) AS alias(names); `lateral`: "LATERAL " or "" for one reading the FROM items
    left of it (DuckDB takes it without the word too), None for any other."""

    def __init__(self, select, alias, names, lateral=None):
        self.select, self.alias, self.names, self.lateral = select, alias, names, lateral

    def sql(self):
        return "%s(%s) AS %s(%s)" % (self.lateral or "", self.select.sql(), self.alias,
                                     ", ".join(self.names))

    def smaller(self):
        for v in self.select.smaller():
            yield Derived(v, self.alias, self.names, self.lateral)


class Join:
    """left KIND JOIN right [ON conjuncts | USING (names)]; the right side is never a join."""

    def __init__(self, left, kind, right, on=(), using=()):
        self.left, self.kind, self.right, self.on, self.using = left, kind, right, list(on), list(using)

    def sql(self):
        text = "%s %s %s" % (self.left.sql(), self.kind, self.right.sql())
        if self.on:
            text += " ON " + " AND ".join(e.sql() for e in self.on)
        if self.using:
            text += " USING (%s)" % ", ".join(self.using)
        return text

    def _with(self, **changes):
        fields = dict(left=self.left, kind=self.kind, right=self.right, on=self.on,
                      using=self.using)
        fields.update(changes)
        return Join(**fields)

    def smaller(self):
        yield self.left
        if self.kind not in ("JOIN", "CROSS JOIN", "NATURAL JOIN") and not self.kind.startswith(
                "NATURAL"):
            yield self._with(kind="JOIN")
        if len(self.on) > 1:
            for i in range(len(self.on)):
                yield self._with(on=self.on[:i] + self.on[i + 1:])
        for i, e in enumerate(self.on):
            for v in e.smaller():
                yield self._with(on=self.on[:i] + [v] + self.on[i + 1:])
        for v in self.left.smaller():
            yield self._with(left=v)
        for v in self.right.smaller():
            yield self._with(right=v)


class Comma:
    def __init__(self, sources):
        self.sources = list(sources)

    def sql(self):
        return ", ".join(s.sql() for s in self.sources)

    def smaller(self):
        if len(self.sources) > 1:
            for i in range(len(self.sources)):
                rest = self.sources[:i] + self.sources[i + 1:]
                yield rest[0] if len(rest) == 1 else Comma(rest)
        for i, s in enumerate(self.sources):
            for v in s.smaller():
                yield Comma(self.sources[:i] + [v] + self.sources[i + 1:])


class Select:
    """WITH ctes SELECT [DISTINCT] items FROM ... WHERE ... GROUP BY ... HAVING ...
    {set op another Select} ORDER BY ... LIMIT ... OFFSET ..."""

    def __init__(self):
        self.ctes = []        # [(name, Select)]
        self.distinct = False
        self.items = []       # [(Expr, alias or None)]
        self.from_ = None
        self.where = []       # [Expr], ANDed
        self.group = []       # [text]
        self.having = []      # [Expr], ANDed
        self.branches = []    # [(set operation, Select)]
        self.order = []       # [(key text, direction text)]
        self.limit = None
        self.offset = None
        self.total = False    # a subquery whose ORDER BY makes its LIMIT's rows one set: kept

    def copy(self, **changes):
        q = Select()
        q.__dict__.update({k: (list(v) if isinstance(v, list) else v)
                           for k, v in self.__dict__.items()})
        q.__dict__.update(changes)
        return q

    def core_sql(self):
        items = ", ".join(e.sql() + (" AS " + a if a else "") for e, a in self.items)
        text = "SELECT " + ("DISTINCT " if self.distinct else "") + items
        if self.from_ is not None:
            text += " FROM " + self.from_.sql()
        if self.where:
            text += " WHERE " + " AND ".join(e.sql() for e in self.where)
        if self.group:
            text += " GROUP BY " + ", ".join(self.group)
        if self.having:
            text += " HAVING " + " AND ".join(e.sql() for e in self.having)
        return text

    def sql(self):
        text = ""
        if self.ctes:
            text = "WITH " + ", ".join("%s AS (%s)" % (n, s.sql()) for n, s in self.ctes) + " "
        text += self.core_sql() + "".join(" %s %s" % (op, b.core_sql()) for op, b in self.branches)
        if self.order:
            text += " ORDER BY " + ", ".join(("%s %s" % kd).rstrip() for kd in self.order)
        if self.limit is not None:
            text += " LIMIT %d" % self.limit
        if self.offset is not None:
            text += " OFFSET %d" % self.offset
        return text

    def smaller(self):
        """Every Select one step simpler: a part dropped or one of its parts made simpler."""
        for field in ("where", "having", "order", "branches"):
            parts = getattr(self, field)
            if field == "order" and self.total and (self.limit, self.offset) != (None, None):
                continue  # no LIMIT over rows in an undefined order (the limit goes first)
            for i in range(len(parts)):
                yield self.copy(**{field: parts[:i] + parts[i + 1:]})
        if len(self.items) > 1 and not self.branches:
            for i in range(len(self.items)):
                yield self.copy(items=self.items[:i] + self.items[i + 1:])
        for field, empty in (("limit", None), ("offset", None), ("distinct", False)):
            if getattr(self, field) != empty:
                yield self.copy(**{field: empty})
        if self.from_ is not None:
            for v in self.from_.smaller():
                yield self.copy(from_=v)
        for field in ("where", "having"):
            parts = getattr(self, field)
            for i, e in enumerate(parts):
                for v in e.smaller():
                    yield self.copy(**{field: parts[:i] + [v] + parts[i + 1:]})
        for i, (e, alias) in enumerate(self.items):
            for v in e.smaller():
                yield self.copy(items=self.items[:i] + [(v, alias)] + self.items[i + 1:])
        for i, (op, b) in enumerate(self.branches):
            for v in b.smaller():
                yield self.copy(branches=self.branches[:i] + [(op, v)] + self.branches[i + 1:])
        for i, (name, body) in enumerate(self.ctes):
            for v in body.smaller():
                yield self.copy(ctes=self.ctes[:i] + [(name, v)] + self.ctes[i + 1:])


def merged_join(node):
    """Whether `node` holds a RIGHT or FULL join with USING or NATURAL (its visible key is
    COALESCE(left, right): SELECT * shows it)."""
    while isinstance(node, Join):
        if (node.using or node.kind.startswith("NATURAL")) and (
                "RIGHT" in node.kind or "FULL" in node.kind):
            return True
        node = node.left
    return False


# --- The generator -------------------------------------------------------------------------------

JOIN_KINDS = [("JOIN", 22), ("INNER JOIN", 4), ("LEFT JOIN", 14), ("LEFT OUTER JOIN", 3),
              ("RIGHT JOIN", 8), ("RIGHT OUTER JOIN", 2), ("FULL OUTER JOIN", 10),
              ("FULL JOIN", 3), ("SEMI JOIN", 7), ("ANTI JOIN", 7), ("CROSS JOIN", 4),
              ("USING", 9), ("NATURAL", 6)]
LATERAL_KINDS = [("JOIN", 3), ("INNER JOIN", 1), ("LEFT JOIN", 4), ("LEFT OUTER JOIN", 1),
                 ("CROSS JOIN", 2)]  # RIGHT, FULL, SEMI, ANTI: errors in both engines
ORDER_DIRECTIONS = ["", "ASC", "DESC", "DESC NULLS FIRST", "ASC NULLS FIRST", "NULLS LAST"]
CTE_NAME = "w"
# Whether the ON of an outer, semi or anti join may hold a correlated subquery of a shape laneql
# runs per binding (reading one side).
SHAPED_IN_OUTER_ON = True
# Whether the ON of an outer, semi or anti join may hold a correlated subquery reading both sides.
BOTH_SIDES_IN_OUTER_ON = True
# How often a correlated subquery's SELECT item, or the first ORDER BY key of one with LIMIT,
# also reads an outer column (Generator.outer_item, Generator.mixed).
OUTER_IN_ITEM_P = 0.2
# How often a query's SELECT list gets a window call (Generator.window_item).
WINDOW_ITEM_P = 0.25


class Generator:
    """Random queries over TABLES, the same ones for the same seed."""

    def __init__(self, seed):
        self.rng = random.Random(seed)
        # Outer columns in subqueries' SELECT items and ORDER BY keys (mixed) draw from their
        # own stream: a seed gives the queries it gave before, some items and keys extended.
        self.outer_rng = random.Random("outer %d" % seed)
        # Window calls draw from their own stream too (the queries before them are unchanged).
        self.window_rng = random.Random("window %d" % seed)
        self.unshaped = False  # no shaped_sub / shaped_value (in the ON of an outer join)

    def query(self):
        self.serial, self.cte = 0, None
        if self.rng.random() < 0.18:
            return self.set_query()
        return self.main_query()

    # -- pieces --

    def _alias(self, prefix):
        self.serial += 1
        return "%s%d" % (prefix, self.serial)

    def _weighted(self, pairs):
        return self.rng.choices([p for p, _ in pairs], [w for _, w in pairs])[0]

    def literal(self, kind, rng=None):
        r = rng or self.rng
        if kind == "int":
            return str(r.randint(-1, 6))
        if kind == "dbl":
            return str(r.randint(-3, 12))
        if kind == "str":
            return "'%s'" % r.choice(STRINGS)
        return "DATE '%s'" % r.choice(DATES).isoformat()

    def table(self, name=None):
        name = name or self.rng.choice(sorted(TABLES))
        alias = self._alias("a")
        self.last_table = name
        return Table(name, alias), [Col(alias, c, KIND[t]) for c, t in TABLES[name]]

    def aggregate(self, cols):
        """(text, kind) of a random aggregate over `cols`."""
        c = self.rng.choice(cols)
        numeric = [x for x in cols if x.kind in ("int", "dbl")]
        f = self.rng.choice(["count(*)", "count", "count(DISTINCT", "sum", "avg", "min", "max"])
        if f == "count(*)":
            return "count(*)", "int"
        if f in ("count", "count(DISTINCT"):
            return ("count(%s)" % c.ref() if f == "count" else
                    "count(DISTINCT %s)" % c.ref()), "int"
        if f in ("sum", "avg"):
            if not numeric:
                return "count(*)", "int"
            c = self.rng.choice(numeric)
            return "%s(%s)" % (f, c.ref()), ("dbl" if f == "avg" else c.kind)
        return "%s(%s)" % (f, c.ref()), c.kind

    def body_select(self, aliased):
        """A one-table SELECT (grouped or not) for a derived table or a CTE: (Select, kinds)."""
        r = self.rng
        q = Select()
        q.from_, cols = self.table()
        if r.random() < 0.5:
            keys = r.sample(cols, r.randint(1, 2))
            q.group = [c.ref() for c in keys]
            q.items = [(Expr(c.ref()), None) for c in keys]
            kinds = [c.kind for c in keys]
            for _ in range(r.randint(1, 2)):
                text, kind = self.aggregate(cols)
                q.items.append((Expr(text), None))
                kinds.append(kind)
        else:
            picked = r.sample(cols, r.randint(1, 3))
            q.items = [(Expr(c.ref()), None) for c in picked]
            kinds = [c.kind for c in picked]
            q.distinct = r.random() < 0.2
        if r.random() < 0.5:
            q.where = [self.simple_pred(cols)]
        elif r.random() < 0.15:
            q.where = [self.correlated_where(cols)]
        if aliased:
            q.items = [(e, "c%d" % (i + 1)) for i, (e, _) in enumerate(q.items)]
        return q, kinds

    def source(self):
        """(node, columns) of a FROM source: a table (sometimes the last one again: a self-join),
        a derived table or the CTE."""
        r = self.rng.random() + (0 if self.cte else 0.25)
        if r < 0.25:
            alias = self._alias("a")
            return Table(CTE_NAME, alias), [Col(alias, "c%d" % (i + 1), k)
                                            for i, k in enumerate(self.cte)]
        if r < 0.4:
            inner, kinds = self.body_select(aliased=False)
            alias = self._alias("d")
            names = ["c%d" % (i + 1) for i in range(len(kinds))]
            return Derived(inner, alias, names), [Col(alias, n, k) for n, k in zip(names, kinds)]
        if r < 0.52 and getattr(self, "last_table", None):
            return self.table(self.last_table)
        return self.table()

    def equalities(self, left, right, count):
        pairs = [(a, b) for a in left for b in right if a.kind == b.kind]
        ints = [p for p in pairs if p[0].kind == "int"]
        if ints and self.rng.random() < 0.85:
            pairs = ints
        picked = self.rng.sample(pairs, min(count, len(pairs)))
        return [Expr("%s = %s" % (a.ref(), b.ref())) for a, b in picked]

    def comparison(self, left, right):
        """a op b over a column of each side, same kind."""
        pairs = [(a, b) for a in left for b in right if a.kind == b.kind]
        if not pairs:
            return self.simple_pred(right)
        a, b = self.rng.choice(pairs)
        return Expr("%s %s %s" % (a.ref(), self.rng.choice(COMPARE[1:]), b.ref()))

    def from_clause(self, first=None, n=None):
        """(node, columns in scope, conjuncts for WHERE)."""
        r = self.rng
        n = n or self._weighted([(1, 20), (2, 50), (3, 30)])
        node, cols = first or self.source()
        if n > 1 and r.random() < 0.2:  # a comma join, equalities in WHERE
            sources, conds = [node], []
            for i in range(1, n):
                got = self.lateral(cols) if r.random() < 0.3 else None
                right, rcols = got or self.source()
                if not got and not (n == 2 and r.random() < 0.15):
                    conds += self.equalities(cols, rcols, r.randint(1, 2))
                sources.append(right)
                cols = cols + rcols
            return Comma(sources), cols, conds
        hidden = []  # left keys of RIGHT/FULL USING joins, not named but still there
        for i in range(1, n):
            got = self.lateral(cols) if r.random() < 0.12 else None
            if got:  # [INNER | LEFT [OUTER] | CROSS] JOIN LATERAL (...) ON a comparison or true
                right, rcols = got
                kind = self._weighted(LATERAL_KINDS)
                on = []
                if kind != "CROSS JOIN":
                    on = [Expr("true")] if r.random() < 0.4 else (
                        r.random() < 0.5 and self.equalities(cols, rcols, 1)) or [
                        self.comparison(cols, rcols)]
                node = Join(node, kind, right, on=on)
                cols = cols + rcols
                continue
            right, rcols = self.source()
            kind = self._weighted(JOIN_KINDS)
            names = [x.name for x in cols] + hidden
            once = {c.name for c in cols if names.count(c.name) == 1}
            common = [c.name for c in rcols if c.name in once and
                      next(x for x in cols if x.name == c.name).kind == c.kind]
            word = r.choice(["JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL OUTER JOIN"])
            merged = []
            if kind == "CROSS JOIN" and n == 2:
                node = Join(node, kind, right)
            elif kind == "USING" and common:
                node = Join(node, word, right, using=r.sample(common, r.randint(1, len(common))))
                merged = node.using
            elif kind == "NATURAL" and common and len(common) == len(
                    {c.name for c in rcols} & {c.name for c in cols}):
                node = Join(node, "NATURAL " + word, right)
                merged = common
            else:
                kind = kind if kind not in ("CROSS JOIN", "USING", "NATURAL") else "JOIN"
                on = self.equalities(cols, rcols, r.choice([1, 1, 2]))
                if n == 2 and r.random() < 0.08 or not on:
                    on = [self.comparison(cols, rcols)]  # no equality: a nested-loop join
                elif r.random() < 0.3:
                    on.append(r.choice([self.comparison(cols, rcols), self.simple_pred(rcols),
                                        self.simple_pred(cols)]))
                if r.random() < 0.15:
                    on.append(self.on_condition(kind, cols, rcols))
                node = Join(node, kind, right, on=on)
            if "RIGHT" in word or "FULL" in word:
                # laneql merges the qualified left key too (tests/diff/README.md): not named.
                hidden += [c.name for c in cols if c.name in merged]
                cols = [c for c in cols if c.name not in merged]
            if node.kind not in ("SEMI JOIN", "ANTI JOIN"):
                cols = cols + rcols
        return node, cols, []

    def on_condition(self, kind, left, right):
        """An ON conjunct with a subquery: uncorrelated (reading either side), correlated with
        one side, or with both (a condition on each side), for any join kind (an outer, semi or
        anti join then decides from the pairs passing its whole ON). Not drawn, unless
        SHAPED_IN_OUTER_ON, a shape laneql runs per binding (shaped_sub, shaped_value) in the ON
        of an outer, semi or anti join."""
        r = self.rng
        x = r.random()
        if x < 0.3:
            return self.subquery_pred(left + right, correlated=False)
        if x < 0.6 and (kind in ("JOIN", "INNER JOIN") or (BOTH_SIDES_IN_OUTER_ON and x < 0.45)):
            self.sides = (left, right)
            try:
                return self.correlated_where(left + right)
            finally:
                self.sides = None
        if kind in ("JOIN", "INNER JOIN") or SHAPED_IN_OUTER_ON:
            return self.correlated_where(r.choice([left, right]))
        self.unshaped = True
        try:
            return self.correlated_where(r.choice([left, right]))
        finally:
            self.unshaped = False

    # -- predicates --

    def simple_pred(self, cols):
        r = self.rng
        c = r.choice(cols)
        x = r.random()
        if x < 0.35:
            return Expr("%s %s %s" % (c.ref(), r.choice(COMPARE), self.literal(c.kind)))
        if x < 0.45:
            return Expr("%s IS %sNULL" % (c.ref(), r.choice(["", "NOT "])))
        others = [o for o in cols if o.kind == c.kind and o.qual != c.qual]
        if x < 0.6 and others:
            return Expr("%s %s %s" % (c.ref(), r.choice(COMPARE), r.choice(others).ref()))
        if x < 0.72:
            values = [self.literal(c.kind) for _ in range(r.randint(1, 3))]
            if r.random() < 0.3:
                values.append("NULL")
            return Expr("%s %sIN (%s)" % (c.ref(), r.choice(["", "NOT "]), ", ".join(values)))
        if x < 0.8:
            return Expr("%s BETWEEN %s AND %s" % (c.ref(), self.literal(c.kind),
                                                  self.literal(c.kind)))
        if x < 0.88:
            return Expr("CASE WHEN %s IS NULL THEN %s ELSE %s END %s %s" % (
                c.ref(), self.literal(c.kind), c.ref(), r.choice(COMPARE), self.literal(c.kind)))
        return Expr("(%s OR %s)" % (self.simple_pred(cols).sql(), self.simple_pred(cols).sql()))

    def sub_select(self, item, cols_of=None):
        """SELECT item FROM one table (alias z..) [WHERE a simple predicate]: (Select, columns)."""
        q = Select()
        q.from_, cols = self.table(cols_of)
        q.from_.alias = self._alias("z")
        for c in cols:
            c.qual = q.from_.alias
        q.items = [(Expr(item(cols) if callable(item) else item), None)]
        if self.rng.random() < 0.5:
            q.where.append(self.simple_pred(cols))
        return q, cols

    def subquery_pred(self, cols, correlated=True):
        """A WHERE conjunct with a subquery: uncorrelated IN / NOT IN, scalar, EXISTS, ANY/ALL,
        IN over the CTE, or (with `correlated`) a correlated one (correlated_pred, sometimes
        under NOT, OR or CASE)."""
        r = self.rng
        o = r.choice(cols)
        form = r.choice(["in", "scalar", "exists", "anyall", "cte"] + (
            ["correlated"] * 5 if correlated else []))
        name = r.choice(sorted(TABLES))
        same = [c for c, t in TABLES[name] if KIND[t] == o.kind]
        if form in ("in", "anyall", "scalar") and same:
            if form == "scalar":
                agg = r.choice(["min", "max"] + (["avg"] if o.kind in ("int", "dbl") else []))
                q, _ = self.sub_select(lambda zc: "%s(%s)" % (
                    agg, next(z for z in zc if z.name == same[0]).ref()), name)
                return Expr("%s %s \0" % (o.ref(), r.choice(COMPARE)), [q])
            pick = r.choice(same)
            q, _ = self.sub_select(lambda zc: next(z for z in zc if z.name == pick).ref(), name)
            if form == "in":
                return Expr("%s %sIN \0" % (o.ref(), r.choice(["", "NOT "])), [q])
            return Expr("%s %s %s \0" % (o.ref(), r.choice(COMPARE), r.choice(["ANY", "ALL"])), [q])
        if form == "cte" and self.cte and o.kind in self.cte:
            c = "c%d" % (self.cte.index(o.kind) + 1)
            q = Select()
            q.items, q.from_ = [(Expr(c), None)], Table(CTE_NAME, self._alias("z"))
            return Expr("%s %sIN \0" % (o.ref(), r.choice(["", "NOT "])), [q])
        if form == "correlated":
            return self.correlated_where(cols)
        q, _ = self.sub_select("1")
        return Expr("%sEXISTS \0" % r.choice(["", "NOT "]), [q])

    # -- correlated subqueries --

    def correlation(self, zcols, cols, equal_only=False, count=None, unequal=False):
        """1-2 conditions tying the subquery's table (`zcols`) to outer columns (`cols`): mostly
        equalities `z.c = o.c` on keys, else other comparisons (any order of the sides); with
        `unequal`, the first one is no equality."""
        r = self.rng
        pairs = [(z, o) for z in zcols for o in cols if z.kind == o.kind]
        ints = [p for p in pairs if p[0].kind == "int"]
        if ints and r.random() < 0.8:
            pairs = ints
        conds = []
        for z, o in r.sample(pairs, min(len(pairs), count or r.choice([1, 1, 1, 2]))):
            first = unequal and not conds
            op = "=" if equal_only or (r.random() < 0.65 and not first) else r.choice(COMPARE[1:])
            left, right = (z, o) if r.random() < 0.85 else (o, z)
            conds.append(Expr("%s %s %s" % (left.ref(), op, right.ref())))
        return conds

    def correlated_sub(self, cols, equal_only=False, count=None):
        """SELECT 1 FROM one table (alias z..) WHERE correlating conditions [AND a local
        predicate]: (Select, its columns), or None when no column kind meets one outside."""
        q, zcols = self.sub_select("1")
        sides = getattr(self, "sides", None)
        if sides:  # one condition on each side of an inner join (on_condition)
            conds = [c for side in sides for c in self.correlation(zcols, side, equal_only, 1)]
        else:
            conds = self.correlation(zcols, cols, equal_only, count)
        if not conds:
            return None, zcols
        q.where = conds + q.where if self.rng.random() < 0.7 else q.where + conds
        return q, zcols

    def mixed(self, text, kind, cols):
        """The text of `text` (a column or an aggregate of the subquery, of `kind`) combined with
        a column of `cols`, the query outside (one value for each binding), or None when none
        fits: `z + o`, `z - o` (an INTEGER z with an INTEGER o, a DOUBLE one with either),
        `z || o`, `o || z` (strings), `CASE WHEN o IS NULL THEN z ELSE z - o END` or, o of z's
        kind (dates too), `CASE WHEN o IS NULL THEN z ELSE o END`. It has z's kind, so an IN's
        or a set operation's column keeps its type, and z's value and o's fix it (a subquery
        ordered by z keeps its total order). Not a column of a derived table named as a column
        (d1..d4): DuckDB reads `d2.c1` in a SELECT list over t2 as a field of t2's d2."""
        r = self.outer_rng
        fits = [o for o in cols if (o.kind == kind or kind == "dbl" and o.kind == "int")
                and o.qual not in COLUMN_NAMES]
        if not fits:
            return None
        o = r.choice(fits)
        forms = ["CASE WHEN {o} IS NULL THEN {z} ELSE {o} END"] if o.kind == kind else []
        if kind in ("int", "dbl"):
            forms += ["{z} + {o}", "{z} + {o}", "{z} - {o}", "{z} - {o}",
                      "CASE WHEN {o} IS NULL THEN {z} ELSE {z} - {o} END"]
        elif kind == "str":
            forms += ["{z} || {o}", "{z} || {o}", "{o} || {z}"]
        return r.choice(forms).format(z=text, o=o.ref())

    def over_no_rows(self, text, kind):
        """An aggregate `text` (of `kind`), about one time in five (OUTER_IN_ITEM_P, on its own
        stream) in an expression whose value over no rows is not NULL: `text + 1` for numbers,
        else `CASE WHEN text IS NULL THEN <constant> ELSE text END` (a key without rows gets
        that value, not NULL)."""
        r = self.outer_rng
        if r.random() >= OUTER_IN_ITEM_P:
            return text
        if kind in ("int", "dbl") and r.random() < 0.5:
            return "%s + 1" % text
        constant = {"int": "0", "dbl": "0.5", "str": "'z'", "date": "DATE '2020-01-01'"}[kind]
        return "CASE WHEN %s IS NULL THEN %s ELSE %s END" % (text, constant, text)

    def outer_item(self, text, kind, cols):
        """A subquery's SELECT item `text` (of `kind`), about one time in five (OUTER_IN_ITEM_P)
        combined with an outer column of `cols` (mixed); the minimiser may drop the outer part."""
        got = self.mixed(text, kind, cols) if self.outer_rng.random() < OUTER_IN_ITEM_P else None
        return Expr(text) if got is None else Expr(got, simpler=[Expr(text)])

    def correlated_value(self, cols, plain_ok=False, item=False):
        """(Expr, kind) of a correlated scalar subquery, or None:
          - an aggregate over the correlated rows (equalities only: laneql groups by the
            correlating keys; count of no rows is 0);
          - a column of a derived table grouped by its first column, correlated on an equality
            with that column (so one row at most), sometimes also on a comparison;
          - with `plain_ok`, a column of a table on 1-3 conditions: two rows for an outer row
            are DuckDB's "More than one row returned by a subquery" error. Whether an engine
            meets such a row depends on what it filters first (as overflows in random_queries.py),
            so this one is drawn only as a SELECT item of a query without LIMIT (main_query);
          - one time in three, a scalar of a shape of its own (shaped_value)."""
        r = self.rng
        if r.random() < 0.33 and not self.unshaped:
            got = self.shaped_value(cols, item)
            if got is not None:
                return got
        x = r.random()
        if x < 0.5:
            q, zcols = self.correlated_sub(cols, equal_only=True)
            if q is None:
                return None
            text, kind = self.aggregate(zcols)
            text = self.over_no_rows(text, kind)
            q.items = [(self.outer_item(text, kind, cols), None)]
            return Expr("\0", [q]), kind
        if x < 0.75 and plain_ok:
            q, zcols = self.correlated_sub(cols, count=r.choice([1, 2, 3]))
            if q is None:
                return None
            z = r.choice(zcols)
            q.items = [(self.outer_item(z.ref(), z.kind, cols), None)]
            self.plain_drawn = True
            return Expr("\0", [q]), z.kind
        inner = Select()
        inner.from_, icols = self.table()
        ints = [c for c in icols if c.kind == "int"]
        key = r.choice(ints if r.random() < 0.8 else icols)
        outer = [c for c in cols if c.kind == key.kind]
        if not outer:
            return None
        text, kind = self.aggregate(icols) if r.random() < 0.7 else (
            lambda c: ("max(%s)" % c.ref(), c.kind))(r.choice(icols))
        inner.items = [(Expr(key.ref()), None), (Expr(text), None)]
        inner.group = [key.ref()]
        if r.random() < 0.4:
            inner.where = [self.simple_pred(icols)]
        alias = self._alias("z")
        value = Col(alias, "c2", kind)
        q = Select()
        q.from_ = Derived(inner, alias, ["c1", "c2"])
        q.items = [(self.outer_item(value.ref(), kind, cols), None)]
        o = r.choice(outer)
        q.where = [Expr("%s.c1 = %s" % (alias, o.ref()) if r.random() < 0.85 else
                        "%s = %s.c1" % (o.ref(), alias))]
        others = [c for c in cols if c.kind == kind]
        if others and r.random() < 0.3:
            q.where.append(Expr("%s %s %s" % (value.ref(), r.choice(COMPARE[1:]),
                                              r.choice(others).ref())))
        elif r.random() < 0.3:
            q.where.append(self.simple_pred([value]))
        return Expr("\0", [q]), kind

    # -- correlated subqueries of a shape of their own: laneql runs each once per distinct
    # binding of the outer columns it reads --

    def agg_of(self, zcols, kind):
        """An aggregate over `zcols` whose value compares with a `kind` value, or None."""
        r = self.rng
        if kind in ("int", "dbl"):
            return self.aggregate([z for z in zcols if z.kind in ("int", "dbl")])[0]
        same = [z for z in zcols if z.kind == kind]
        return "%s(%s)" % (r.choice(["min", "max"]), r.choice(same).ref()) if same else None

    def window_item(self, cols):
        """A window call over the rows of `cols`: ranking, offsets, framed values and aggregates
        under a partition of 0-2 columns. Functions whose value depends on the order of tied
        rows order by every column of the FROM clause: rows tied on all of them are equal, so the
        answer is one multiset whichever tied row comes first."""
        w = self.window_rng
        part = w.sample(cols, min(len(cols), w.choice([0, 1, 1, 2])))
        partition = "PARTITION BY %s " % ", ".join(c.ref() for c in part) if part else ""
        key = w.choice(cols)
        one_key = ("ORDER BY %s %s" % (key.ref(), w.choice(ORDER_DIRECTIONS))).rstrip()
        total = "ORDER BY " + ", ".join(
            ("%s %s" % (c.ref(), w.choice(ORDER_DIRECTIONS))).rstrip() for c in cols)
        numeric = [c for c in cols if c.kind in ("int", "dbl")]
        c = w.choice(cols)
        frame = w.choice(["", " ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING", " ROWS 2 PRECEDING",
                          " ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING",
                          " ROWS BETWEEN 2 FOLLOWING AND 3 FOLLOWING"])
        kind = w.choice(["row_number", "rank", "dense_rank", "percent_rank", "cume_dist", "ntile",
                         "lag", "lead", "first_value", "last_value", "count", "sum", "avg", "min",
                         "max", "range"])
        if kind in ("rank", "dense_rank", "percent_rank", "cume_dist"):
            call = "%s() OVER (%s%s)" % (kind, partition, one_key)
        elif kind == "row_number":
            call = "row_number() OVER (%s%s)" % (partition, total)
        elif kind == "ntile":
            call = "ntile(%d) OVER (%s%s)" % (w.randint(1, 5), partition, total)
        elif kind in ("lag", "lead"):
            args = c.ref() + w.choice(["", ", 2", ", 1, %s" % self.literal(c.kind, w)])
            call = "%s(%s) OVER (%s%s)" % (kind, args, partition, total)
        elif kind in ("first_value", "last_value"):
            call = "%s(%s) OVER (%s%s%s)" % (kind, c.ref(), partition, total, frame)
        elif kind == "count":
            arg = "*" if w.random() < 0.5 else c.ref()
            call = "count(%s) OVER (%s%s)" % (arg, partition, w.choice(["", one_key]))
        elif kind == "range" and [n for n in numeric if n.kind == "int"]:
            n = w.choice([n for n in numeric if n.kind == "int"])
            call = "sum(%s) OVER (%sORDER BY %s %s RANGE BETWEEN %d PRECEDING AND %d FOLLOWING)" % (
                n.ref(), partition, n.ref(), w.choice(ORDER_DIRECTIONS), w.randint(0, 3), w.randint(0, 3))
        else:
            f = kind if kind != "range" else "sum"
            if f in ("sum", "avg") and not numeric:
                f = "count"
            arg = w.choice(numeric) if f in ("sum", "avg") else c
            how = w.choice(["", one_key, total + frame])
            call = "%s(%s) OVER (%s%s)" % (f, arg.ref(), partition, how)
        return Expr(call.replace(" )", ")"))

    def total_order(self, returned, zcols, distinct=False, cols=(), items=None):
        """ORDER BY keys naming every column in `returned` (sometimes another column of `zcols`
        too): rows tied on them return the same values, so what a LIMIT keeps is one multiset.
        The items returned are those columns, or (outer_item) each one combined with an outer
        column of `cols`, whose value is the same on every row: still fixed by the keys. Under
        DISTINCT the keys are the `items` (their texts) themselves, as both engines require.
        Else about one time in five the first key combines a column of `zcols` with one of
        `cols` (mixed), the keys above after it."""
        r = self.rng
        keys = [k.ref() for k in returned] if not (distinct and items) else list(items)
        others = [z for z in zcols if z not in returned]
        if others and not distinct and r.random() < 0.4:
            keys.insert(r.randint(0, len(keys)), r.choice(others).ref())
        if len(keys) > 1 and r.random() < 0.5:
            r.shuffle(keys)
        keys = [(k, r.choice(ORDER_DIRECTIONS)) for k in keys]
        if cols and not distinct and self.outer_rng.random() < OUTER_IN_ITEM_P:
            z = self.outer_rng.choice(zcols)
            first = self.mixed(z.ref(), z.kind, cols)
            if first is not None:
                keys.insert(0, (first, self.outer_rng.choice(ORDER_DIRECTIONS)))
        return keys

    def other_branch(self, kind, cols):
        """SELECT y.c FROM one table (a column of `kind`) [WHERE ...], sometimes correlated with
        `cols` too: a set operation's second branch."""
        r = self.rng
        b, bcols = self.sub_select("1")
        fits = [c for c in bcols if c.kind == kind]
        b.items = [(self.outer_item(r.choice(fits).ref(), kind, cols) if fits else
                    Expr(self.literal(kind)), None)]
        if r.random() < 0.4:
            b.where = self.correlation(bcols, cols, count=1) + b.where
        return b

    def nested_pred(self, zcols, cols):
        """A condition for a subquery over `zcols` holding a subquery of its own correlated with
        `cols`, the query outside both (two levels out), mostly also with `zcols`: [NOT] EXISTS,
        or a column of z compared with a scalar aggregate."""
        r = self.rng
        inner, ycols = self.sub_select("1")
        conds = self.correlation(ycols, cols, count=1)
        if r.random() < 0.7:
            conds += self.correlation(ycols, zcols, count=1)
        r.shuffle(conds)
        inner.where = conds + inner.where
        text, kind = self.aggregate(ycols)
        targets = [c for c in zcols if c.kind == kind or {c.kind, kind} <= {"int", "dbl"}]
        if r.random() < 0.6 or not targets:
            return Expr("%sEXISTS \0" % r.choice(["", "NOT "]), [inner])
        inner.items = [(self.outer_item(text, kind, cols), None)]
        return Expr("%s %s \0" % (r.choice(targets).ref(), r.choice(COMPARE)), [inner])

    def shaped_sub(self, cols, kind=None):
        """A correlated subquery for [NOT] EXISTS (`kind` None) or for IN / ANY / ALL (one column
        of `kind`), with a shape of its own: GROUP BY [HAVING]; an aggregate, grouped or not (IN
        / ANY / ALL over an aggregate); DISTINCT; ORDER BY (naming the column) LIMIT [OFFSET];
        the correlated rows in a WITH inside it or in a derived table of it; a set operation
        with another branch; a subquery inside it correlated with `cols` (two levels out).
        None when no column fits."""
        r = self.rng
        q, zcols = self.correlated_sub(cols)
        if q is None:
            return None
        same = [z for z in zcols if kind is None or z.kind == kind]
        if not same:
            return None
        z = r.choice(same)
        item = self.outer_item(z.ref(), z.kind, cols)  # z, or z combined with an outer column
        q.items = [(item, None)]
        form = r.choice(["group", "aggregate", "aggregate", "aggregate", "distinct", "limit",
                         "with", "setop", "setop", "derived", "nested", "nested"])
        if form == "group":
            q.group = [c.ref() for c in [z] + r.sample([c for c in zcols if c is not z],
                                                       r.choice([0, 0, 1]))]
            if r.random() < 0.5:
                text, akind = self.aggregate(zcols)
                q.having = [Expr("%s %s %s" % (text, r.choice(COMPARE), self.literal(akind)))]
        elif form == "aggregate":
            text, akind = (self.agg_of(zcols, kind), kind) if kind else self.aggregate(zcols)
            if text:  # any number meets a number: an INTEGER aggregate may meet a DOUBLE too
                q.items = [(self.outer_item(text, "dbl" if akind in ("int", "dbl") else akind,
                                            cols), None)]
            if r.random() < 0.6 or not text:
                q.group = [(z if not text else r.choice(zcols)).ref()]
                if r.random() < 0.3:
                    q.having = [Expr("count(*) %s %d" % (r.choice(COMPARE), r.randint(0, 3)))]
        elif form == "distinct":
            q.distinct = True
        elif form == "limit":
            q.distinct = r.random() < 0.25
            q.order = self.total_order([z], zcols, q.distinct, cols, [item.text])
            if q.distinct:
                item.simpler = []  # the ORDER BY names it
            q.limit, q.total = r.randint(1, 3), True
            q.offset = r.randint(1, 2) if r.random() < 0.25 else None
        elif form == "with":
            name, y = self._alias("v"), self._alias("y")
            q.items = [(item, "c1")]
            s = Select()
            s.ctes, s.from_ = [(name, q)], Table(name, y)
            s.items = [(Expr("%s.c1" % y), None)]
            if r.random() < 0.4:
                s.where = [self.simple_pred([Col(y, "c1", z.kind)])]
            return s
        elif form == "setop":
            q.branches = [(r.choice(SET_OPS), self.other_branch(z.kind, cols))]
        elif form == "derived":
            if r.random() < 0.5:
                q.group = [z.ref()]
            alias = self._alias("q")
            s = Select()
            s.from_ = Derived(q, alias, ["c1"])
            s.items = [(Expr("%s.c1" % alias), None)]
            if r.random() < 0.4:
                s.where = [self.simple_pred([Col(alias, "c1", z.kind)])]
            return s
        else:
            q.where.append(self.nested_pred(zcols, cols))
        return q

    def shaped_value(self, cols, item=False):
        """(Expr, kind) of a correlated scalar subquery (one row at most) of a shape of its own,
        or None: an aggregate correlated on a non-equality (or an OR of two conditions); a column
        under ORDER BY (naming it) LIMIT 1 [OFFSET 1]; a grouped aggregate under ORDER BY 1
        LIMIT 1; an aggregate over a derived table, a WITH or a UNION holding the correlated
        rows; an aggregate whose WHERE holds a subquery correlated two levels out. As a SELECT
        item (`item`) the LIMIT 1 column is a SELECT DISTINCT (the plain scalar's spelling, kept
        for those that may find two rows)."""
        r = self.rng
        form = r.choice(["unequal", "unequal", "unequal", "limit", "limit", "grouped", "derived",
                         "with", "nested", "nested", "setop"])
        if form == "unequal":
            q, zcols = self.sub_select("1")
            conds = self.correlation(zcols, cols, count=r.choice([1, 2, 2, 2]), unequal=True)
            if not conds:
                return None
            if len(conds) == 2 and r.random() < 0.7:
                conds = [wrap("({} OR {})", *conds)]
            q.where = conds + q.where if r.random() < 0.7 else q.where + conds
            text, kind = self.aggregate(zcols)
            q.items = [(self.outer_item(text, kind, cols), None)]
            return Expr("\0", [q]), kind
        q, zcols = self.correlated_sub(cols)
        if q is None:
            return None
        z = r.choice(zcols)
        if form == "limit":
            value = self.outer_item(z.ref(), z.kind, cols)  # z, or z with an outer column
            q.items = [(value, None)]
            q.distinct = item or r.random() < 0.25
            q.order = self.total_order([z], zcols, q.distinct, cols, [value.text])
            if q.distinct:
                value.simpler = []  # the ORDER BY names it
            q.limit, q.total = 1, True
            q.offset = 1 if r.random() < 0.2 else None
            return Expr("\0", [q]), z.kind
        if form == "grouped":
            text, kind = self.aggregate(zcols)
            q.items = [(self.outer_item(text, kind, cols), None)]
            q.group = [r.choice(zcols).ref()]
            if r.random() < 0.3:
                q.having = [Expr("count(*) %s %d" % (r.choice(COMPARE), r.randint(0, 3)))]
            q.order = [(r.choice(["1", text]), r.choice(ORDER_DIRECTIONS))]
            first = self.mixed(text, kind, cols) if (
                self.outer_rng.random() < OUTER_IN_ITEM_P) else None
            if first is not None:  # the aggregate with an outer column first, then the above
                q.order.insert(0, (first, self.outer_rng.choice(ORDER_DIRECTIONS)))
            q.limit, q.total = 1, True
            return Expr("\0", [q]), kind
        if form == "nested":
            q.where.append(self.nested_pred(zcols, cols))
            text, kind = self.aggregate(zcols)
            q.items = [(self.outer_item(text, kind, cols), None)]
            return Expr("\0", [q]), kind
        if form == "setop" and not item and r.random() < 0.4:
            q.items = [(self.outer_item(z.ref(), z.kind, cols), None)]
            q.branches = [(r.choice(SET_OPS), self.other_branch(z.kind, cols))]
            q.order, q.limit, q.total = [("1", r.choice(ORDER_DIRECTIONS))], 1, True
            return Expr("\0", [q]), z.kind
        s = Select()
        alias = self._alias("q" if form != "with" else "y")
        q.items = [(self.outer_item(z.ref(), z.kind, cols), "c1" if form == "with" else None)]
        if form == "derived":
            if r.random() < 0.5:
                q.group = [z.ref()]
            else:
                q.distinct = r.random() < 0.4
            s.from_ = Derived(q, alias, ["c1"])
        elif form == "with":
            name = self._alias("v")
            s.ctes, s.from_ = [(name, q)], Table(name, alias)
        else:
            q.branches = [(r.choice(["UNION", "UNION ALL"]), self.other_branch(z.kind, cols))]
            s.from_ = Derived(q, alias, ["c1"])
        text, kind = self.aggregate([Col(alias, "c1", z.kind)])
        s.items = [(self.outer_item(text, kind, cols), None)]
        return Expr("\0", [s]), kind

    def lateral(self, cols):
        """(Derived, its columns) of a derived table reading `cols`, the columns of the FROM
        items left of it (LATERAL, one time in five without the word), or None: the rows of a
        table correlated with them (1-2 columns), aggregates of those (one row for each left
        row; count 0 for none), grouped, DISTINCT, or ORDER BY (naming every column) LIMIT n."""
        r = self.rng
        q, zcols = self.correlated_sub(cols, count=r.choice([1, 1, 2]))
        if q is None:
            return None
        picked = r.sample(zcols, r.randint(1, 2))
        items = [(c.ref(), c.kind) for c in picked]
        form = r.choice(["rows", "rows", "aggregate", "group", "distinct", "limit", "limit"])
        if form == "aggregate":
            items = [self.aggregate(zcols) for _ in range(r.randint(1, 2))]
        elif form == "group":
            q.group = [picked[0].ref()]
            items = items[:1] + [self.aggregate(zcols)]
        elif form == "distinct":
            q.distinct = True
        elif form == "limit":
            q.order = self.total_order(picked, zcols, cols=cols)
            q.limit, q.total = r.randint(1, 3), True
            q.offset = r.randint(1, 2) if r.random() < 0.2 else None
        q.items = [(self.outer_item(text, kind, cols), None) for text, kind in items]
        alias = self._alias("l")
        names = ["c%d" % (i + 1) for i in range(len(items))]
        node = Derived(q, alias, names, "LATERAL " if r.random() < 0.8 else "")
        return node, [Col(alias, n, kind) for n, (_, kind) in zip(names, items)]

    def correlated_pred(self, cols):
        """A boolean with one correlated subquery: [NOT] EXISTS, x [NOT] IN (SELECT z.c ...),
        x op ANY|SOME|ALL (SELECT z.c ...), or a correlated scalar compared with a column or a
        constant."""
        r = self.rng
        form = r.choice(["exists", "exists", "in", "in", "anyall", "anyall", "value", "value"])
        if form != "value" and r.random() < 0.45 and not self.unshaped:
            # a subquery of a shape of its own (shaped_sub): IN / ANY / ALL over an aggregate, ...
            o = r.choice(cols)
            q = self.shaped_sub(cols, None if form == "exists" else o.kind)
            if q is not None:
                if form == "exists":
                    return Expr("%sEXISTS \0" % r.choice(["", "NOT "]), [q])
                if form == "in":
                    return Expr("%s %sIN \0" % (o.ref(), r.choice(["", "NOT "])), [q])
                return Expr("%s %s %s \0" % (o.ref(), r.choice(COMPARE),
                                             r.choice(["ANY", "SOME", "ALL"])), [q])
        if form == "value":
            got = self.correlated_value(cols)
            if got is not None:
                value, kind = got
                targets = [c for c in cols if c.kind == kind or {c.kind, kind} <= {"int", "dbl"}]
                if targets and r.random() < 0.6:
                    return wrap("%s %s {}" % (r.choice(targets).ref(), r.choice(COMPARE)), value)
                return wrap("{} %s %s" % (r.choice(COMPARE), self.literal(kind)), value)
            form = "exists"
        q, zcols = self.correlated_sub(cols)
        if q is None:
            return self.simple_pred(cols)
        o = r.choice(cols)
        same = [z for z in zcols if z.kind == o.kind]
        if form == "exists" or not same:
            return Expr("%sEXISTS \0" % r.choice(["", "NOT "]), [q])
        z = r.choice(same)
        q.items = [(self.outer_item(z.ref(), z.kind, cols), None)]
        if form == "in":
            return Expr("%s %sIN \0" % (o.ref(), r.choice(["", "NOT "])), [q])
        return Expr("%s %s %s \0" % (o.ref(), r.choice(COMPARE),
                                     r.choice(["ANY", "ANY", "SOME", "ALL", "ALL"])), [q])

    def correlated_where(self, cols):
        """correlated_pred as it is, under NOT, in an OR (with a plain predicate or another
        correlated one) or inside CASE."""
        r = self.rng
        p = self.correlated_pred(cols)
        x = r.random()
        if x < 0.45:
            return p
        if x < 0.6:
            return wrap("NOT ({})", p)
        if x < 0.8:
            other = self.correlated_pred(cols) if r.random() < 0.3 else self.simple_pred(cols)
            return wrap("({} OR {})", *((p, other) if r.random() < 0.5 else (other, p)))
        if x < 0.9:
            a, b = r.sample(range(0, 4), 2)
            return wrap("CASE WHEN {} THEN %d ELSE %d END %s %d" % (
                a, b, r.choice(COMPARE), r.choice([a, b])), p, simpler=[p])
        got = self.correlated_value(cols)
        c = r.choice(cols)
        if got is None or got[1] != c.kind:
            return p
        value, kind = got
        return wrap("CASE WHEN {} THEN {} ELSE %s END %s %s" % (
            c.ref(), r.choice(COMPARE), self.literal(kind)), self.simple_pred(cols), value,
            simpler=[p])

    def correlated_item(self, cols, plain_ok=False):
        """A SELECT item with a correlated subquery: a boolean (EXISTS, IN, ANY/ALL; as it is,
        under NOT or OR, or in CASE) or a value (a scalar, in CASE WHEN ... IS NULL)."""
        r = self.rng
        x = r.random()
        if x < 0.45:
            p = self.correlated_pred(cols)
            y = r.random()
            if y < 0.5:
                return p
            if y < 0.65:
                return wrap("NOT ({})", p)
            if y < 0.8:
                return wrap("({} OR {})", p, self.simple_pred(cols))
            return wrap("CASE WHEN {} THEN 'y' ELSE 'n' END", p, simpler=[])
        got = self.correlated_value(cols, plain_ok, item=True)
        if got is None:
            return Expr(r.choice(cols).ref())
        value, kind = got
        if r.random() < 0.25:
            return wrap("CASE WHEN {} IS NULL THEN %s ELSE {} END" % self.literal(kind), value,
                        value, simpler=[])
        return value

    def group_condition(self, keys):
        """A HAVING conjunct with a correlated subquery over the group keys `keys`: an aggregate
        compared with a correlated scalar, or correlated_where."""
        r = self.rng
        got = self.correlated_value(keys) if r.random() < 0.5 else None
        if got is None:
            return self.correlated_where(keys)
        value, kind = got
        text, agg_kind = self.aggregate(self.group_cols)
        if {kind, agg_kind} <= {"int", "dbl"} or kind == agg_kind:
            return wrap("%s %s {}" % (text, r.choice(COMPARE)), value)
        return wrap("{} %s %s" % (r.choice(COMPARE), self.literal(kind)), value)

    def scalar_item(self, cols):
        """A scalar subquery as a SELECT item: uncorrelated, or a correlated aggregate."""
        r = self.rng
        q, zcols = self.sub_select("1")
        text, kind = self.aggregate(zcols)
        q.items = [(self.outer_item(text, kind, cols), None)]
        o = r.choice(cols)
        keys = [z for z in zcols if z.kind == o.kind]
        if keys and r.random() < 0.7:
            q.where.insert(0, Expr("%s = %s" % (r.choice(keys).ref(), o.ref())))
        return Expr("\0", [q])

    # -- whole queries --

    def finish(self, q, width):
        """ORDER BY output positions, LIMIT, OFFSET, sometimes."""
        r = self.rng
        if width and r.random() < 0.35:
            keys = r.sample(range(1, width + 1), r.randint(1, width))
            q.order = [(str(k), r.choice(ORDER_DIRECTIONS)) for k in keys]
            if r.random() < 0.6:
                q.limit = r.randint(1, 12)
            if r.random() < 0.2:
                q.offset = r.randint(1, 5)
        return q

    def main_query(self):
        r = self.rng
        q = Select()
        first = None
        if r.random() < 0.15:
            body, self.cte = self.body_select(aliased=True)
            q.ctes = [(CTE_NAME, body)]
            alias = self._alias("a")
            first = Table(CTE_NAME, alias), [Col(alias, "c%d" % (i + 1), k)
                                             for i, k in enumerate(self.cte)]
        q.from_, cols, q.where = self.from_clause(first)
        for _ in range(r.choice([0, 1, 1, 2, 3])):
            q.where.append(self.subquery_pred(cols) if r.random() < 0.45 else
                           self.simple_pred(cols))
        if self.cte and q.sql().count(" %s AS " % CTE_NAME) < 2:
            c = r.choice(cols)
            sub = Select()
            sub.items = [(Expr("1"), None)]
            sub.from_ = Table(CTE_NAME, self._alias("z"))
            sub.where = [Expr("%s.c1 IS NOT NULL" % sub.from_.alias)] if r.random() < 0.5 else []
            q.where.append(Expr("%sEXISTS \0" % r.choice(["", "NOT "]), [sub]) if c.kind != "int"
                           else Expr("%s IN (SELECT %s FROM %s)" % (
                               c.ref(), "c%d" % (self.cte.index("int") + 1), CTE_NAME))
                           if "int" in self.cte else Expr("EXISTS \0", [sub]))
        aggregated, plain = r.random() < 0.35, False
        if aggregated:
            self.group_cols = cols
            keys = r.sample(cols, min(len(cols), r.choice([0, 1, 1, 2])))
            q.group = [c.ref() for c in keys]
            q.items = [(Expr(c.ref()), None) for c in keys]
            for _ in range(r.randint(1, 3)):
                q.items.append((Expr(self.aggregate(cols)[0]), None))
            if r.random() < 0.25:
                text, kind = self.aggregate(cols)
                q.having = [Expr("%s %s %s" % (text, r.choice(COMPARE), self.literal(
                    "dbl" if kind == "dbl" else kind)))]
            if keys and r.random() < 0.3:
                # Correlated subqueries over the groups, correlated on the group keys (any other
                # column is an error in both engines: drawn now and then).
                outer = keys if r.random() < 0.95 else cols
                if r.random() < 0.4:
                    q.having.insert(r.randint(0, len(q.having)), self.group_condition(outer))
                if not q.having or r.random() < 0.7:
                    self.plain_drawn = False  # two rows for a group: an error (no HAVING, LIMIT)
                    item = self.correlated_item(outer, plain_ok=not q.having)
                    plain = self.plain_drawn
                    q.items.insert(r.randint(0, len(q.items)), (item, None))
        elif r.random() < 0.08 or (r.random() < 0.3 and merged_join(q.from_)):
            q.items = [(Expr("*"), None)]
            return q
        else:
            for _ in range(r.randint(1, 4)):
                c = r.choice(cols)
                x = r.random()
                ints = [i for i in cols if i.kind == "int" and i.qual != c.qual]
                if x < 0.1 and c.kind == "int" and ints:
                    q.items.append((Expr("CASE WHEN %s IS NULL THEN %s ELSE %s END" % (
                        c.ref(), r.choice(ints).ref(), c.ref())), None))
                elif x < 0.15 and c.kind == "str":
                    q.items.append((Expr("%s || '|'" % c.ref()), None))
                else:
                    q.items.append((Expr(c.ref()), None))
            if r.random() < 0.2:
                q.items.append((self.scalar_item(cols), None))
            if r.random() < 0.25:
                self.plain_drawn = False
                item = self.correlated_item(cols, plain_ok=True)
                plain = self.plain_drawn
                q.items.insert(r.randint(0, len(q.items)), (item, None))
            q.distinct = r.random() < 0.1
            if self.window_rng.random() < WINDOW_ITEM_P:
                q.items.append((self.window_item(cols), None))
        if aggregated and self.window_rng.random() < WINDOW_ITEM_P / 2:
            # Over the groups: a rank by an aggregate (ties rank alike: no order needed).
            c = self.window_rng.choice(cols)
            text = self.window_rng.choice(["count(*)", "count(%s)" % c.ref(), "min(%s)" % c.ref(),
                                           "max(%s)" % c.ref()])
            order = ("%s %s" % (text, self.window_rng.choice(ORDER_DIRECTIONS))).rstrip()
            q.items.append((Expr("rank() OVER (ORDER BY %s)" % order), None))
        q.items = [(e, "o%d" % (i + 1)) for i, (e, _) in enumerate(q.items)]
        q = self.finish(q, len(q.items))
        if plain:
            q.limit = q.offset = None  # a plain scalar's error depends on the rows computed
        if q.order and not aggregated and not q.distinct and r.random() < 0.3:
            # A correlated subquery as an ORDER BY key (laneql: queries without aggregates).
            key = self.correlated_item(cols) if r.random() < 0.5 else self.correlated_pred(cols)
            q.order.insert(r.randint(0, len(q.order)), (key.sql(), r.choice(ORDER_DIRECTIONS)))
        return q

    def branch(self, kinds):
        r = self.rng
        q = Select()
        q.from_, cols, q.where = self.from_clause(n=r.choice([1, 1, 2]))
        for kind in kinds:
            fits = [c for c in cols if c.kind == kind or (kind == "int" and c.kind == "dbl"
                                                          and r.random() < 0.15)]
            q.items.append((Expr(r.choice(fits).ref() if fits else self.literal(kind)), None))
        if r.random() < 0.5:
            q.where.append(self.subquery_pred(cols) if r.random() < 0.3 else self.simple_pred(cols))
        return q

    def set_query(self):
        r = self.rng
        kinds = [r.choice(["int", "int", "str", "dbl", "date"]) for _ in range(r.randint(1, 3))]
        q = self.branch(kinds)
        q.branches = [(r.choice(SET_OPS), self.branch(kinds)) for _ in range(r.randint(1, 2))]
        return self.finish(q, len(kinds))
