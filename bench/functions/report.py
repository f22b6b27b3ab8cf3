"""The benchmark's printed table and its markdown report (bench/results/functions.md)."""

import math

import queries as Q

SLOWER = 0.9  # a ratio below this is a finding: laneql clearly slower than DuckDB
# The functions issue #43 wants faster than DuckDB's, not only not slower.
TARGETS = [("grouped", "median(d)"), ("grouped", "median(i)"), ("windows", "top-3 per group (QUALIFY row_number)")]


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def header_line():
    return (f"{'family':<13} {'function':<34} {'laneql ms':>10} {'DuckDB ms':>10} {'ratio':>7} {'best':>7} "
            f"{'laneql Mrows/s':>15}")


def result_line(r, rows):
    if "dropped" in r:
        return f"{r['family']:<13} {r['name']:<34} dropped: {r['dropped'][:200]}"
    mrows = rows / (r["laneql_ms"] / 1000) / 1e6
    return (f"{r['family']:<13} {r['name']:<34} {r['laneql_ms']:>10.2f} {r['duckdb_ms']:>10.2f} "
            f"{r['ratio']:>7.2f} {r['best_ratio']:>7.2f} {mrows:>15.1f}")


def timed(results):
    return [r for r in results if "dropped" not in r]


def family_geomeans(results, key="ratio"):
    out = []
    for family, title in Q.FAMILIES:
        ratios = [r[key] for r in timed(results) if r["family"] == family]
        if ratios:
            out.append((family, title, len(ratios), geomean(ratios)))
    return out


def _ms(ms):
    return f"{ms:.2f}" if ms < 10 else f"{ms:.1f}"


def slower(results):
    return sorted((r for r in timed(results) if r["ratio"] < SLOWER), key=lambda r: r["ratio"])


def summary_text(results):
    lines = ["geometric mean of DuckDB ms / laneql ms (>1: laneql faster), per family:"]
    for _, title, n, g in family_geomeans(results):
        lines.append(f"  {title:<45} {g:6.2f}  ({n} queries)")
    all_ratios = [r["ratio"] for r in timed(results)]
    if all_ratios:
        lines.append(f"  {'all':<45} {geomean(all_ratios):6.2f}  ({len(all_ratios)} queries)")
    lines.append(f"slower than DuckDB (ratio < {SLOWER}):")
    lines += [f"  {r['family']}: {r['name']}  {r['ratio']:.2f}" for r in slower(results)] or ["  none"]
    dropped = [r for r in results if "dropped" in r]
    lines.append("dropped:")
    lines += [f"  {r['family']}: {r['name']}: {r['dropped']}  SQL: {r['sql']}" for r in dropped] or ["  none"]
    return "\n".join(lines)


def _code(sql):
    return "`" + sql.replace("|", "\\|") + "`"


def _cell(text):
    return text.replace("|", "\\|")


def markdown(results, info):
    rows, m = info["rows"], info["machine"]
    lq = info.get("laneql", {})
    out = [
        "# Function micro-benchmark: laneql vs DuckDB",
        "",
        f"Issue #43: each function over {rows:,} rows, laneql and DuckDB in one run, the ratio per function. "
        "The aim: no function slower than DuckDB's, and window top-n per group and median by group faster.",
        "",
        f"- Command: `{info['command']}` (`bench/functions/run.py`; `--help` for its options).",
        f"- Date: {info['started']:%Y-%m-%d %H:%M %Z} to {info['finished']:%H:%M}; commit {info['commit']} when it began"
        + (" (the engine's sources had uncommitted changes in the working tree)" if info["dirty"] else "")
        + f"; the laneql binary is `build/native/native-cli/laneql` as linked at {info['binary_time']:%H:%M}, "
        "copied when the run began.",
        f"- Machine: {m['nproc']} vCPUs ({m['cpu']}), Linux {m['kernel']}, shared with other work: "
        f"1-minute load average {m['load'].split()[0]} at the start, {info['load_end'].split()[0]} at the end"
        + (" and between {:.1f} and {:.1f} after each query".format(*info["load_range"]) if info.get("load_range") else "")
        + " (2 means both cores busy). The same query moves by 10-30 % between runs, and more when the "
        "load is high, so ratios within about 0.8-1.25 are noise-level.",
        f"- laneql {lq.get('version', '?')} (native CLI, SIMD target {lq.get('target', '?')}, "
        f"{lq.get('threads', '?')} threads); DuckDB {info['duckdb']} (Python, `threads` = {info['duckdb_threads']}).",
        f"- Data: one table `t` of {rows:,} rows (`bench/functions/data.py`): i INTEGER, b BIGINT, d DOUBLE, "
        "s VARCHAR (5-40 characters cut from mixed-case words; about half hold a 2- to 4-byte UTF-8 character, a quarter "
        "begin or end with a space; 3.5 million distinct values in 10 M rows), dt DATE, ts TIMESTAMP, "
        "g INTEGER (1,000 groups), g2 INTEGER (10 skewed values); 2 % NULLs in i, d, s, dt, ts. "
        "Written once as CSV by DuckDB; laneql reads it through `laneql import` (a mapped `.laneql` file), "
        "DuckDB into an in-memory table. A fingerprint query over every column gives the same answer "
        "from both before anything is timed.",
        "",
        "**What is timed.** Each query folds the function's value on every row into one value "
        "(`SELECT sum(abs(i)) FROM t`, `sum(strlen(upper(s)))`, `count(*) FILTER (WHERE ...)`), so the "
        "answer is small and both engines do the same work, which the answer check confirms (floats to "
        "a relative 1e-9, approx_count_distinct within 5 %). Grouped aggregates are folded the same way: "
        "`SELECT sum(abs(x)) FROM (SELECT g, agg AS x FROM t GROUP BY g)`. "
        f"Per query and engine: one warm-up run, then the median of {info['repeat']} runs. laneql: "
        "`laneql bench --runs N --threads T` in a process of its own per query (the table mapped once; "
        "each run timed around `Database::Query`: parse, plan, run, the answer as a `Result`). "
        "DuckDB: `con.execute(sql).fetchall()` in the benchmark's own process. Which engine goes first "
        "alternates from query to query. The times include the scan and the fold, hence the baselines: "
        "a function's own cost is roughly its time minus the baseline's.",
        "",
        "Columns: laneql and DuckDB in ms (medians); ratio = DuckDB ms / laneql ms (above 1: laneql "
        "faster); ratio of bests: the same of the fastest runs, less moved by the other work on the "
        "machine (when the two disagree, trust neither much); laneql's rows per second in millions.",
        "",
    ]
    for family, title in Q.FAMILIES:
        fam = [r for r in results if r["family"] == family]
        if family == "windows" and info.get("window_error"):
            out += [f"## {title}", "", "Not yet supported by laneql: the probe "
                    f"`{Q.WINDOW_PROBE}` fails with `{info['window_error']}`. "
                    "The queries are ready in `bench/functions/queries.py` (top-3 per group with QUALIFY and "
                    "with a subquery, a running sum, rank) and run once the probe passes.", ""]
            continue
        if not fam:
            continue
        out += [f"## {title}", "", "| function | laneql ms | DuckDB ms | ratio | ratio of bests | laneql Mrows/s | SQL |",
                "|---|---:|---:|---:|---:|---:|---|"]
        for r in fam:
            if "dropped" in r:
                out.append(f"| {_cell(r['name'])} | - | - | dropped | - | - | {_code(r['sql'])} |")
                continue
            mrows = rows / (r["laneql_ms"] / 1000) / 1e6
            flag = " **slower**" if r["ratio"] < SLOWER else ""
            out.append(f"| {_cell(r['name'])} | {_ms(r['laneql_ms'])} | {_ms(r['duckdb_ms'])} | "
                       f"{r['ratio']:.2f}{flag} | {r['best_ratio']:.2f} | {mrows:.0f} | {_code(r['sql'])} |")
        out.append("")

    out += ["## Summary", "", "Geometric mean of the ratios (above 1: laneql faster):", "",
            "| family | queries | geomean of ratios | geomean of ratios of bests |", "|---|---:|---:|---:|"]
    for (_, title, n, g), (_, _, _, gb) in zip(family_geomeans(results), family_geomeans(results, "best_ratio")):
        out.append(f"| {title} | {n} | {g:.2f} | {gb:.2f} |")
    all_ratios = [r["ratio"] for r in timed(results)]
    if all_ratios:
        best = geomean([r["best_ratio"] for r in timed(results)])
        out.append(f"| all | {len(all_ratios)} | {geomean(all_ratios):.2f} | {best:.2f} |")
    out += ["", f"**Slower than DuckDB** (ratio below {SLOWER}), slowest first:", ""]
    out += [f"- {r['family']}: {_cell(r['name'])}: {r['ratio']:.2f} ({_ms(r['laneql_ms'])} ms vs "
            f"{_ms(r['duckdb_ms'])} ms), {_code(r['sql'])}" for r in slower(results)] or ["- none"]
    out += ["", "**The functions to beat DuckDB on** (issue #43):", ""]
    by_key = {(r["family"], r["name"]): r for r in results}
    for family, name in TARGETS:
        r = by_key.get((family, name))
        if r is None:
            state = "not run" + (" (windows not yet supported)" if family == "windows" and info.get("window_error") else "")
        elif "dropped" in r:
            state = "dropped: " + r["dropped"]
        else:
            state = f"ratio {r['ratio']:.2f}: " + ("faster" if r["ratio"] > 1 else "not faster")
        out.append(f"- {family}: {name}: {_cell(state)}")
    dropped = [r for r in results if "dropped" in r]
    out += ["", "**Dropped** (an error, or the engines' answers differ; not timed):", ""]
    out += [f"- {r['family']}: {_cell(r['name'])}: {_cell(r['dropped'])}. SQL: {_code(r['sql'])}"
            for r in dropped] or ["- none"]
    out += ["", "**Timed, answers not compared** (they legitimately differ):", ""]
    out += [f"- {_cell(name)}: {why}." for name, why in Q.ORDER_DEPENDENT.items()]
    return "\n".join(out) + "\n"
