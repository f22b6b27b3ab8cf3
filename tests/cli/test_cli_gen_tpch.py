#!/usr/bin/env python3
"""End-to-end tests of `laneql gen tpch`: the 8 .laneql files it writes, their determinism, that
queries over them see the TPC-H key relations and value rules, and its errors.

    python3 tests/cli/test_cli_gen_tpch.py --laneql build/native/native-cli/laneql

Nothing is compared with hard-coded generated values: the checks are the specification's rules
(row counts, keys, totals), asked of the written files in SQL.
"""
import os
import tempfile
import unittest

import cli_harness
from cli_harness import laneql, nonempty_lines, parse_tsv, read_bytes

TABLES = ["region", "nation", "supplier", "customer", "part", "partsupp", "orders", "lineitem"]


class GenTpch(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls._tmp = tempfile.TemporaryDirectory()
        cls.dir = os.path.join(cls._tmp.name, "sf001", "nested")  # gen creates the parents
        cls.proc = laneql("gen", "tpch", "--sf", "0.01", "--out", cls.dir, check=0)

    @classmethod
    def tearDownClass(cls):
        cls._tmp.cleanup()

    def query(self, sql, directory=None):
        args = []
        for table in TABLES:
            args += ["--table", f"{table}={os.path.join(directory or self.dir, table)}.laneql"]
        return parse_tsv(laneql(*args, "--format", "tsv", "-c", sql, check=0).stdout)[1]

    def test_writes_eight_files_with_a_line_each(self):
        lines = nonempty_lines(self.proc.stdout)
        self.assertEqual(len(lines), 9, self.proc.stdout)  # one per table, then the total
        for table, line in zip(TABLES, lines):
            self.assertTrue(line.startswith("wrote ") and f"/{table}.laneql" in line, line)
        self.assertIn("TPC-H SF 0.01", lines[-1])
        self.assertEqual(self.proc.stderr, "", "no progress output when stderr is not a terminal")

    def test_row_counts_follow_the_scale_factor(self):
        counts = self.query(" UNION ALL ".join(
            f"SELECT '{t}', count(*) FROM {t}" for t in TABLES))
        got = {name: int(n) for name, n in counts}
        self.assertEqual({t: got[t] for t in TABLES[:-1]},
                         {"region": 5, "nation": 25, "supplier": 100, "customer": 1500,
                          "part": 2000, "partsupp": 8000, "orders": 15000})
        self.assertTrue(58000 <= got["lineitem"] <= 62000, got["lineitem"])

    def test_keys_and_totals_hold_in_sql(self):
        # Lines without an order or a partsupp row, orders of customers 3k, orders whose total
        # is not their lines' charges: all none.
        (missing_orders,), = self.query(
            "SELECT count(*) FROM lineitem WHERE l_orderkey NOT IN (SELECT o_orderkey FROM orders)")
        (missing_partsupp,), = self.query(
            "SELECT count(*) FROM lineitem LEFT JOIN partsupp "
            "ON l_partkey = ps_partkey AND l_suppkey = ps_suppkey WHERE ps_partkey IS NULL")
        (third,), = self.query("SELECT count(*) FROM orders WHERE o_custkey % 3 = 0")
        (wrong_totals,), = self.query(
            "SELECT count(*) FROM orders JOIN (SELECT l_orderkey, "
            "sum(round(l_extendedprice * (1 - l_discount) * (1 + l_tax), 2)) AS charged "
            "FROM lineitem GROUP BY l_orderkey) ON o_orderkey = l_orderkey "
            "WHERE o_totalprice <> charged")
        self.assertEqual((missing_orders, missing_partsupp, third, wrong_totals),
                         ("0", "0", "0", "0"))

    def test_query_predicates_select_rows(self):
        (complaints, special, green), = self.query(
            "SELECT (SELECT count(*) FROM supplier WHERE s_comment LIKE '%Customer%Complaints%'), "
            "(SELECT count(*) FROM orders WHERE o_comment LIKE '%special%requests%'), "
            "(SELECT count(*) FROM part WHERE p_name LIKE '%green%')")
        self.assertEqual(complaints, "1")
        self.assertGreater(int(special), 0)
        self.assertGreater(int(green), 0)

    def test_bytes_do_not_depend_on_threads_and_follow_the_seed(self):
        # SF 0.05: enough orders and parts for 3 threads to split them.
        dirs = {}
        for name, flags in [("one", ["--threads", "1"]), ("three", ["--threads", "3"]),
                            ("seed2", ["--threads", "3", "--seed", "2"])]:
            dirs[name] = os.path.join(self._tmp.name, name)
            laneql("gen", "tpch", "--sf", "0.05", "--out", dirs[name], *flags, check=0)
        for table in TABLES:
            one = read_bytes(os.path.join(dirs["one"], f"{table}.laneql"))
            self.assertEqual(one, read_bytes(os.path.join(dirs["three"], f"{table}.laneql")), table)
        self.assertNotEqual(read_bytes(os.path.join(dirs["one"], "lineitem.laneql")),
                            read_bytes(os.path.join(dirs["seed2"], "lineitem.laneql")))

    def assert_fails(self, status, args, *in_stderr):
        proc = laneql(*args, check=status)
        self.assertEqual(proc.stdout, "")
        for text in in_stderr:
            self.assertIn(text, proc.stderr, args)

    def test_errors(self):
        out = os.path.join(self._tmp.name, "never")
        for bad in ["0", "-1", "ten", "1e999", "nan", ""]:
            self.assert_fails(2, ["gen", "tpch", "--sf", bad, "--out", out], "--sf")
        self.assert_fails(2, ["gen", "tpch", "--out", out], "--sf")
        self.assert_fails(2, ["gen", "tpch", "--sf", "0.01"], "--out")
        self.assert_fails(2, ["gen", "tpch", "--sf", "0.01", "--out", out, "--rows", "5"],
                          "--rows")
        self.assert_fails(1, ["gen", "tpch", "--sf", "100000", "--out", out], "SF 100000")
        a_file = os.path.join(self.dir, "region.laneql")
        self.assert_fails(1, ["gen", "tpch", "--sf", "0.01", "--out",
                              os.path.join(a_file, "sub")], "cannot create directory")
        self.assertFalse(os.path.exists(out), "nothing is written on an error")

    def test_gen_help_names_both_generators(self):
        proc = laneql("gen", "--help", check=0)
        self.assertIn("gen hits", proc.stdout)
        self.assertIn("gen tpch", proc.stdout)


if __name__ == "__main__":
    cli_harness.main()
