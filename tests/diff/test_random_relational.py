"""Unit tests of the relational query generator (random_relational.py) and the runner's pure
parts (no laneql needed): the same seed gives the same queries and tables, DuckDB binds every
query and every minimiser step, every construct comes up, the CSV round-trips through DuckDB."""

import os
import random
import re
import sys
import tempfile
import unittest

import duckdb

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import random_relational as rr  # noqa: E402
import diff_compare  # noqa: E402
import relational_diff  # noqa: E402


def generate(seed, n):
    generator = rr.Generator(seed)
    return [generator.query() for _ in range(n)]


def defined_aliases(sql):
    return set(re.findall(r"\bAS (\w+)", sql))


def outer_aliases(select):
    """The aliases a subquery reads but does not define: those of the query around it."""
    sql = select.sql()
    return set(re.findall(r"\b([a-z]\w*)\.\w+", sql)) - defined_aliases(sql)


def joins(node):
    """The Join nodes of a FROM clause (its derived tables left out)."""
    out = []
    while isinstance(node, (rr.Join, rr.Comma)):
        if isinstance(node, rr.Comma):
            for s in node.sources:
                out += joins(s)
            break
        out.append(node)
        node = node.left
    return out


class RandomRelationalTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.con = duckdb.connect()
        for name in rr.TABLES:
            cls.con.execute(rr.create_sql(name))

    def test_same_seed_same_queries_and_tables(self):
        first = [q.sql() for q in generate(5, 200)]
        self.assertEqual(first, [q.sql() for q in generate(5, 200)])
        self.assertNotEqual(first, [q.sql() for q in generate(6, 200)])
        self.assertEqual(rr.make_tables(random.Random(3)), rr.make_tables(random.Random(3)))
        self.assertNotEqual(rr.make_tables(random.Random(3)), rr.make_tables(random.Random(4)))

    def test_duckdb_binds_every_query(self):
        for query in generate(11, 500):
            sql = query.sql()
            self.assertNotIn("\n", sql)
            try:
                self.con.execute("EXPLAIN " + sql)
            except duckdb.Error as e:
                # Now and then a correlated subquery over groups correlates on a column that is
                # no group key: both engines reject it (random_relational.main_query).
                if query.group and "must appear in the GROUP BY clause" in str(e):
                    continue
                self.fail("%s\n%s" % (sql, e))

    def test_queries_cover_the_constructs(self):
        text = "\n".join(q.sql() for q in generate(3, 1000))
        for construct in [" JOIN ", " INNER JOIN ", " LEFT JOIN ", " LEFT OUTER JOIN ",
                          " RIGHT JOIN ", " RIGHT OUTER JOIN ", " FULL OUTER JOIN ", " FULL JOIN ",
                          " SEMI JOIN ", " ANTI JOIN ", " CROSS JOIN ", " NATURAL JOIN ",
                          " NATURAL LEFT JOIN ", " NATURAL FULL OUTER JOIN ", " USING (",
                          ", t1 AS ", ") AS d", "WITH w AS (", "FROM w AS ", " IN (SELECT ",
                          " NOT IN (SELECT ", " NOT IN (", "NULL)", " EXISTS (SELECT 1 FROM",
                          "NOT EXISTS (SELECT 1 FROM", " ANY (SELECT ", " ALL (SELECT ",
                          "(SELECT count(*) FROM", "(SELECT avg(", " UNION ", " UNION ALL ",
                          " INTERSECT ", " INTERSECT ALL ", " EXCEPT ", " EXCEPT ALL ",
                          " GROUP BY ", " HAVING ", " ORDER BY ", " LIMIT ", " OFFSET ",
                          "count(DISTINCT", "sum(", "avg(", "min(", "max(", "SELECT DISTINCT",
                          "SELECT * FROM", " NULLS FIRST", " BETWEEN ", "CASE WHEN ",
                          "row_number() OVER (", " RANGE BETWEEN ", "rank() OVER (ORDER BY "]:
            self.assertIn(construct, text)
        # A correlated EXISTS, a correlated scalar aggregate in WHERE and in the SELECT list.
        self.assertRegex(text, r"EXISTS \(SELECT 1 FROM t\d AS z\d+ WHERE z\d+\.\w+ = [ad]\d+\.")
        self.assertRegex(text, r" [<>=]+ \(SELECT \w+\([^)]*\) FROM t\d AS z\d+ WHERE z\d+\.\w+ "
                               r"= [ad]\d+\.")
        self.assertRegex(text, r", \(SELECT [^()]*\([^)]*\) FROM t\d AS z\d+ WHERE z\d+\.\w+ = "
                               r"[ad]\d+\.\w+[^)]*\) AS o\d")
        self.assertRegex(text, r"FROM t(\d) AS a\d+ \w[\w ]* JOIN t\1 AS a")  # a self-join
        # The correlated forms of ea28013: IN, NOT IN, ANY / SOME / ALL, a scalar that is not an
        # aggregate, under OR, NOT and CASE, as SELECT items and ORDER BY keys, correlating on
        # comparisons other than equality; SELECT * over RIGHT / FULL USING and NATURAL (9c24760).
        sub = r"\(SELECT [^()\n]*FROM t\d AS z\d+ WHERE [^()\n]*[ad]\d+\."  # correlated
        for pattern in [
                r" IN " + sub, r" NOT IN " + sub, r" ANY " + sub, r" SOME " + sub, r" ALL " + sub,
                # a plain column (SELECT item) and one of a grouped derived table (anywhere)
                r"\(SELECT z\d+\.\w+ FROM t\d AS z\d+ WHERE [^()\n]*[ad]\d+\.[^()\n]*\) AS o",
                r"[=<>] \(SELECT z\d+\.c2 FROM \(SELECT [^\n]*? GROUP BY a\d+\.\w+\) AS "
                r"z\d+\(c1, c2\) WHERE z\d+\.c1 = [ad]\d+\.",
                r" OR [^()\n]*" + sub, sub + r"[^()\n]*\) OR ", r"NOT \([^()\n]*" + sub,
                r"CASE WHEN [^()\n]*" + sub,
                r"(EXISTS|IN|ANY|SOME|ALL) " + sub + r"[^()\n]*\) AS o",
                r"ORDER BY [^()\n]*" + sub, r"WHERE [^()\n]*z\d+\.\w+ (<>|<|<=|>|>=) [ad]\d+\.",
                r"\(SELECT [^()\n]*WHERE [^()\n]*" + sub,  # in a derived table or the CTE
                r"SELECT \* FROM [^()\n]* (RIGHT|FULL)( OUTER)? JOIN [^()\n]* USING \(",
                r"SELECT \* FROM [^()\n]* NATURAL (RIGHT|FULL)( OUTER)? JOIN "]:
            self.assertTrue(re.search(pattern, text), pattern)

    def test_subqueries_over_groups_and_in_on(self):
        # Correlated subqueries in an aggregate query's SELECT list and HAVING (correlated on its
        # group keys, 604ea22); subqueries in ON (b718ec2): uncorrelated, correlated with one
        # side of any join kind, with both sides of an inner join.
        queries = generate(3, 1000)
        found = set()
        for query in queries:
            outer = outer_aliases
            if query.group:
                for e, _ in query.items:
                    if e.subs and any(outer(sub) for sub in e.subs):
                        found.add("select over groups")
                for e in query.having:
                    if e.subs and any(outer(sub) for sub in e.subs):
                        found.add("having over groups")
                        if re.match(r"(count|sum|avg|min|max)\(.*\) [<>=]+ \(SELECT ", e.sql()):
                            found.add("aggregate compared with a correlated scalar")
            for join in joins(query.from_):
                left, right = defined_aliases(join.left.sql()), defined_aliases(join.right.sql())
                for e in join.on:
                    for sub in e.subs:
                        reads = outer(sub)
                        inner = join.kind in ("JOIN", "INNER JOIN")
                        if not reads:
                            found.add("uncorrelated in ON")
                        elif reads & left and reads & right:
                            found.add("both sides of " + ("an inner join" if inner else "another join"))
                        else:
                            found.add("one side of " + ("an inner join" if inner else
                                                        join.kind.split()[0]))
        self.assertEqual(found, {
            "select over groups", "having over groups", "aggregate compared with a correlated "
            "scalar", "uncorrelated in ON", "both sides of an inner join", "both sides of another join",
            "one side of an inner join", "one side of LEFT", "one side of RIGHT",
            "one side of FULL", "one side of SEMI", "one side of ANTI"})

    def test_star_over_right_using_with_keys_of_two_types(self):
        # SELECT * over a RIGHT join with USING / NATURAL whose left key is BIGINT and right key
        # INTEGER: the visible key has the right side's type, as DuckDB's (f34745a).
        pattern = (r"SELECT \* FROM (t3 AS a\d+ (NATURAL RIGHT( OUTER)? JOIN t[12] AS a\d+|"
                   r"RIGHT( OUTER)? JOIN t[12] AS a\d+ USING \([^)]*\bk\b)|"
                   r"t2 AS a\d+ (NATURAL RIGHT( OUTER)? JOIN t[14] AS a\d+|"
                   r"RIGHT( OUTER)? JOIN t[14] AS a\d+ USING \([^)]*\bj\b))")
        self.assertTrue(any(re.search(pattern, q.sql()) for q in generate(4, 1000)))

    def test_known_deviations_are_not_drawn(self):
        # tests/diff/README.md: no qualified left key of a RIGHT / FULL USING join; no LIMIT over
        # a plain correlated scalar (its "More than one row" error depends on the rows computed).
        plain = re.compile(r"^(CASE WHEN )?\(SELECT z\d+\.\w+ FROM t\d AS z\d+ WHERE ")
        for query in generate(4, 1000):
            if any(plain.match(e.sql()) for e, _ in query.items):
                self.assertIsNone(query.limit, query.sql())
            node = query.from_
            while isinstance(node, rr.Join):
                if node.using and ("RIGHT" in node.kind or "FULL" in node.kind):
                    left = set(re.findall(r"AS ([ad]\d+)\b", node.left.sql()))
                    after = query.sql().replace(node.left.sql(), "", 1)  # in scope after the join
                    for name in node.using:
                        for alias in left:
                            self.assertNotRegex(after, r"\b%s\.%s\b" % (alias, name))
                node = node.left

    def test_minimiser_steps_are_smaller_and_valid(self):
        for query in generate(17, 40):
            for step in query.smaller():
                self.assertLess(len(step.sql()), len(query.sql()))
                try:
                    self.con.execute("EXPLAIN " + step.sql())
                except duckdb.Error:
                    pass  # a step may drop what another part names: both engines reject it

    def test_tables_have_nulls_duplicates_and_odd_strings(self):
        values = {kind: [] for kind in ("int", "str", "dbl", "date")}
        sizes = []
        for seed in range(40):
            tables = rr.make_tables(random.Random(seed))
            sizes += [len(rows) for rows in tables.values()]
            for name, rows in tables.items():
                for row in rows:
                    for (_, sql_type), v in zip(rr.TABLES[name], row):
                        values[rr.KIND[sql_type]].append(v)
        self.assertEqual(min(sizes), 0)
        self.assertLessEqual(max(sizes), 60)
        for kind, vs in values.items():
            self.assertIn(None, vs, kind)
            self.assertLess(len(set(vs)), len(vs), kind)  # duplicates
        self.assertIn("", values["str"])
        self.assertTrue(any(v and len(v.encode()) > len(v) for v in values["str"]))

    def test_csv_round_trips_through_duckdb(self):
        tables = rr.make_tables(random.Random(8))
        with tempfile.TemporaryDirectory() as temp:
            data = relational_diff.DataSet(tables, "unused", temp, 1)
            try:
                for name, rows in tables.items():
                    got = data.con.execute("SELECT * FROM %s" % name).fetchall()
                    self.assertEqual(sorted(map(repr, got)), sorted(map(repr, rows)))
            finally:
                data.close()

    def test_shape_keeps_the_with_clause(self):
        shape = diff_compare.WithQueryShape("WITH w AS (SELECT 1 AS c1 ORDER BY 1 LIMIT 1) "
                                      "SELECT c1 AS o1 FROM w ORDER BY 1 DESC LIMIT 3 OFFSET 1")
        self.assertEqual((shape.limit, shape.offset), (3, 1))
        sql, places, extras = shape.full_answer_sql(["o1"])
        self.assertEqual(sql, "WITH w AS (SELECT 1 AS c1 ORDER BY 1 LIMIT 1) "
                              "SELECT c1 AS o1 FROM w ORDER BY 1 DESC")
        self.assertEqual((places, extras), ([("out", 0)], 0))

    def test_same_failure(self):
        self.assertTrue(relational_diff.same_failure("FAIL", "a", "FAIL", "b"))
        self.assertFalse(relational_diff.same_failure("FAIL", "a", "TYPE", "a"))
        self.assertFalse(relational_diff.same_failure(
            "ERROR", "DuckDB rejects (x)", "ERROR", "laneql error: y"))


if __name__ == "__main__":
    unittest.main()
