"""The efficiency benchmark's Markdown report (bench/efficiency/run.py) from its JSON document."""

import math

import phases

# CPU(T) / CPU(first thread count) above this fails the target for a slow query.
TARGET_RATIO = 1.2


def fmt(ms):
    if ms is None:
        return "-"
    return "%.3g" % ms if ms < 100 else "%.0f" % ms


def ratio_text(r):
    return "-" if r is None else "%.2f" % r


def geomean(values):
    values = [v for v in values if v is not None and v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def query_rows(suite):
    """Per query: its index, wall and CPU ms per run (thread count), and CPU / CPU of the first."""
    rows = []
    for i in range(len(suite["queries"])):
        entries = [run["queries"][i] if i < len(run["queries"]) else None for run in suite["runs"]]
        ok = all(e is not None and e["error"] is None for e in entries)
        base = entries[0]["cpu_ms"] if ok else None
        rows.append({"index": i + 1, "ok": ok, "entries": entries,
                     "wall": [e["wall_ms"] if ok else None for e in entries],
                     "cpu": [e["cpu_ms"] if ok else None for e in entries],
                     "ratio": [e["cpu_ms"] / base if ok and base else None for e in entries],
                     "error": next((e["error"] for e in entries if e is not None and e["error"]), None)})
    return rows


def target_index(thread_counts):
    """The run the target reads: 16 threads where measured, else the largest count."""
    return thread_counts.index(16) if 16 in thread_counts else len(thread_counts) - 1


def summary(doc, suite):
    rows = query_rows(suite)
    counts = doc["thread_counts"]
    at = target_index(counts)
    slow = [r for r in rows if r["ok"] and r["wall"][0] >= doc["slow_ms"]]
    over = [r for r in slow if r["ratio"][at] > TARGET_RATIO]
    return {"rows": rows, "slow": slow, "over": over, "at": at,
            "geomeans": [geomean([r["ratio"][k] for r in slow]) for k in range(len(counts))],
            "wall_sums": [sum(r["wall"][k] for r in rows if r["ok"]) for k in range(len(counts))],
            "cpu_sums": [sum(r["cpu"][k] for r in rows if r["ok"]) for k in range(len(counts))]}


def phase_table(doc, suite, s):
    """CPU ms per phase at the first thread count and at the target's, for the slow queries."""
    counts = doc["thread_counts"]
    at = s["at"]
    lines = ["| # | threads | " + " | ".join(phases.PHASES) + " | other | total |",
             "|---:|---:|" + "---:|" * (len(phases.PHASES) + 2)]
    for r in s["slow"]:
        for k in sorted({0, at}):
            entry = r["entries"][k]
            ph = entry.get("phases_ms") or {}
            counted = sum(ph.get(p, 0.0) for p in phases.PHASES)
            other = max(entry["cpu_ms"] - counted, 0.0)
            lines.append("| %d | %d | %s | %s | %s |" % (r["index"], counts[k],
                                                      " | ".join(fmt(ph.get(p, 0.0)) for p in phases.PHASES),
                                                      fmt(other), fmt(entry["cpu_ms"])))
    return lines


def render(doc):
    counts = doc["thread_counts"]
    m = doc["machine"]
    out = ["# Work efficiency: CPU time as threads grow", "",
           "Each query's CPU time (every thread's, user and system) at %s threads on this machine, "
           "whatever its cores: a query whose CPU time stays flat as threads are added does no work per "
           "thread and can scale on many cores; one whose CPU time grows does work per thread (every "
           "owner reading every row), serial phases that grow with the thread count, or waits. The target "
           "(issue #45): CPU time at 16 threads at most %.1f x that at 1 thread for every query of at least "
           "%g ms at 1 thread." % (", ".join(str(t) for t in counts), TARGET_RATIO, doc["slow_ms"]), "",
           "- Command: `%s`" % doc["command"],
           "- Started %s at commit %s; took %.0f s." % (doc["started"], doc["commit"], doc.get("duration_s", 0)),
           "- Machine: %s, %s CPUs (%s cores), %s GiB; load average %s at the start, %s at the end. With more "
           "threads than cores the threads take turns: wall times there say nothing about scaling, CPU "
           "times do." % (m.get("cpu"), m.get("cpus"), m.get("cores"), m.get("memory_gib"), m.get("load_start"),
                          m.get("load_end")),
           "- Per query and thread count: `laneql bench --threads T --runs %d` (a warm-up, then the median of "
           "%d runs of wall and of CPU time, `CLOCK_PROCESS_CPUTIME_ID` around each run), then one run with "
           "profiling on whose spans carry their thread's CPU time; the phases are the innermost spans of "
           "each category (bench/efficiency/phases.py), \"other\" the rest of the query's CPU time "
           "(planning, the parts of a join build outside its per-thread spans, gathers outside those spans)." % (doc["runs"], doc["runs"]), ""]
    for suite in doc["suites"]:
        s = summary(doc, suite)
        at_threads = counts[s["at"]]
        out += ["## %s" % suite["title"], "",
                "| threads | sum of median wall ms | sum of median CPU ms | geomean CPU / CPU at %d (%d queries >= %g ms) |"
                % (counts[0], len(s["slow"]), doc["slow_ms"]),
                "|---:|---:|---:|---:|"]
        for k, t in enumerate(counts):
            out.append("| %d | %s | %s | %s |" % (t, fmt(s["wall_sums"][k]), fmt(s["cpu_sums"][k]),
                                                ratio_text(s["geomeans"][k])))
        out += ["", "Queries of at least %g ms over the target at %d threads (CPU ratio > %.1f): %s." % (
            doc["slow_ms"], at_threads, TARGET_RATIO,
            ", ".join("#%d (%.2f)" % (r["index"], r["ratio"][s["at"]]) for r in s["over"]) or "none"), ""]
        head = "| # | " + " | ".join("wall ms %d" % t for t in counts) + " | " + \
               " | ".join("CPU ms %d" % t for t in counts) + " | " + \
               " | ".join("CPU %d / %d" % (t, counts[0]) for t in counts[1:]) + " | SQL |"
        out += [head, "|---:|" + "---:|" * (3 * len(counts) - 1) + "---|"]
        for r in s["rows"]:
            sql = suite["queries"][r["index"] - 1]
            sql = (sql[:70] + "...") if len(sql) > 73 else sql
            sql = sql.replace("|", "\\|")
            if not r["ok"]:
                out.append("| %d | %s | `%s` |" % (r["index"], "error: " + (r["error"] or "?"), sql))
                continue
            mark = lambda k: " **over**" if (r["wall"][0] >= doc["slow_ms"] and k == s["at"] and
                                            r["ratio"][k] > TARGET_RATIO) else ""
            out.append("| %d | %s | %s | %s | `%s` |" % (
                r["index"], " | ".join(fmt(v) for v in r["wall"]), " | ".join(fmt(v) for v in r["cpu"]),
                " | ".join(ratio_text(r["ratio"][k]) + mark(k) for k in range(1, len(counts))), sql))
        if s["slow"]:
            out += ["", "CPU ms per phase of the queries of at least %g ms, at %d and %d threads:" % (
                doc["slow_ms"], counts[0], at_threads), ""]
            out += phase_table(doc, suite, s)
        out.append("")
    return "\n".join(out)
