"""The arithmetic of the report: best and median of the timed runs, laneql/peer ratios and
geometric means, and how numbers are spelled. No engine is needed here (unit-tested)."""

import math

# How the report names the engines.
DISPLAY = {"laneql": "laneql", "duckdb": "DuckDB", "chdb": "chDB", "polars": "Polars",
           "laneql-wasm": "laneql-wasm", "duckdb-wasm": "duckdb-wasm", "native": "native"}


def median(values):
    s = sorted(values)
    if not s:
        raise ValueError("median of no values")
    m = len(s) // 2
    return s[m] if len(s) % 2 else (s[m - 1] + s[m]) / 2


def geomean(values):
    """Geometric mean of positive numbers (a time of 0 counts as 1 ns, so that log is defined)."""
    values = list(values)
    if not values:
        return None
    return math.exp(sum(math.log(max(v, 1e-6)) for v in values) / len(values))


def ratio(laneql_ms, peer_ms):
    """laneql's time over the peer's: below 1, laneql is faster. None when either is missing."""
    if laneql_ms is None or peer_ms is None:
        return None
    return max(laneql_ms, 1e-6) / max(peer_ms, 1e-6)


def summarize(times_ms):
    """{"best_ms", "median_ms", "runs"} of one engine's timed runs of one query."""
    return {"best_ms": min(times_ms), "median_ms": median(times_ms), "runs": len(times_ms)}


def timed(result, key):
    """The engine result's time under `key` (best_ms / median_ms), or None when it has none
    (an error, n/a, or not run)."""
    if not result or result.get("error") or result.get("na"):
        return None
    return result.get(key)


def pair_geomean(results, laneql, peer, key):
    """(geomean of the per-query laneql/peer ratios, the number of queries) over the queries
    both engines ran. Equal to the ratio of the two engines' geomeans over that same set."""
    ratios = []
    for r in results:
        x = ratio(timed(r["engines"].get(laneql), key), timed(r["engines"].get(peer), key))
        if x is not None:
            ratios.append(x)
    return geomean(ratios), len(ratios)


def common_geomeans(results, engines, key):
    """({engine: geomean ms}, the number of queries) over the queries every engine ran."""
    common = [r for r in results if all(timed(r["engines"].get(e), key) is not None for e in engines)]
    if not common:
        return {e: None for e in engines}, 0
    return {e: geomean(timed(r["engines"][e], key) for r in common) for e in engines}, len(common)


def fmt_ms(ms):
    if ms is None:
        return "-"
    if ms >= 100:
        return "%.0f" % ms
    if ms >= 10:
        return "%.1f" % ms
    if ms >= 1:
        return "%.2f" % ms
    return "%.3f" % ms


def fmt_ratio(x):
    if x is None:
        return "-"
    if x >= 10:
        return "%.1f" % x
    if x >= 0.1:
        return "%.2f" % x
    return "%.3f" % x


def rows_label(rows):
    """200000 -> '200k', 1000000 -> '1m', 10000000 -> '10m', other counts as they are."""
    if rows % 1_000_000 == 0:
        return "%dm" % (rows // 1_000_000)
    if rows % 1000 == 0:
        return "%dk" % (rows // 1000)
    return str(rows)


def rows_text(rows):
    """1000000 -> '1 M', 200000 -> '200 k', as the report's titles say it."""
    label = rows_label(rows)
    return label[:-1] + " " + label[-1].upper().replace("K", "k") if label[-1] in "mk" else label
