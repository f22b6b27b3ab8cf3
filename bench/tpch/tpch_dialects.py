"""The SQL each engine runs for TPC-H: the 22 queries of ../shared/tpch/queries as written (DuckDB's
dialect; read at run time, never copied in), except the adjustments below, each with its reason,
and the settings each engine gets after loading. laneql and DuckDB run every query as written.

A query an engine cannot run as written, nor with an adjustment here, is reported as n/a
(Polars: its SQL lacks the construct) or as an error, with the engine's message, never dropped.
"""

import dialects  # bench/peers/dialects.py

# engine -> query number -> ([(old, new), ...], why)
ADJUSTMENTS = {
    "chdb": {
        6: ([("BETWEEN 0.06 - 0.01 AND 0.06 + 0.01", "BETWEEN 0.05 AND 0.07")],
            "ClickHouse reads 0.06 + 0.01 as Float64 arithmetic, 0.06999999999999999, which leaves "
            "out the rows whose l_discount is 0.07; SQL's decimal literals (DuckDB's, laneql's) "
            "make it 0.07. The bounds are written as the values the query means"),
    },
}

# Statements run once after the tables are loaded (workers.py's "settings").
SETTINGS = {
    # SQL's outer joins fill the missing side with NULL; ClickHouse fills it with the type's
    # default (0, '') unless join_use_nulls is on, which would make Q13's count(o_orderkey)
    # count the customers without orders.
    "chdb": ["SET join_use_nulls = 1"],
}

# Answers known to differ from DuckDB's for a reason of the engine's own semantics.
KNOWN_DIFFERENCES = {
    "chdb": {
        15: "Q15 keeps the supplier whose float total_revenue equals the max() of the same CTE; "
            "ClickHouse computes the CTE twice, and on several threads its float sums add in "
            "another order each time, so the equality can fail and the answer be empty "
            "(laneql's and DuckDB's float sums give the same bits on every run)",
    },
}


def known_difference(engine, number):
    return KNOWN_DIFFERENCES.get(engine, {}).get(number)


def adapt(engine, number, sql):
    """(the SQL `engine` runs for query `number`, the reason when it differs from `sql`)."""
    return dialects.adjusted(ADJUSTMENTS, engine, number, sql, "tpch_dialects.py")
