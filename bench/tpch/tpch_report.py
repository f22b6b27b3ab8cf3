"""The TPC-H report: Markdown made from the JSON document bench/tpch/run.py writes next to it
(render() is a pure function of it, unit-tested in test_tpch_report.py). The per-query tables,
their notes and the summary are bench/peers/report.py's; the memory table, the wasm table and
the set-up are TPC-H's own.

The document: {"sf", "repeat", "engines", "phases": [{"threads", "engines": {name: info},
"floor_ms", "memory": {name: {"rss_mb"?, "max_rss_mb"}}, "results": [record]}], "wasm":
{"results", "engine_info", "peak_rss_mb", "repeat"} or {"error"} or None, "machine", "data",
"command", "started", "duration_s"}; a record as in report.py.
"""

import report
import stats
import tpch_dialects
from stats import DISPLAY

WASM = ["laneql-wasm", "duckdb-wasm"]


def plural(n, word, many=None):
    return "%d %s" % (n, word if n == 1 else many or word + "s")


def summary_table(doc):
    return report.summary_table(doc)


def memory_section(doc):
    """Per engine and thread count: resident memory after loading and the peak over the run."""
    lines = ["## Memory", "",
             "Resident memory in MB. Peers: their process after loading the 8 tables, and its peak "
             "over the whole run (loading included). laneql: no load step (it maps the .laneql "
             "files); its peak is the largest peak of its `laneql bench` processes (one per timed "
             "run: the mapped pages a query touched count, as a peer's loaded table does).", ""]
    phases = doc["phases"]
    head = ["engine"] + sum([["%s: after load" % plural(p["threads"], "thread"),
                              "%s: peak" % plural(p["threads"], "thread")] for p in phases], [])
    lines += ["| %s |" % " | ".join(head), "|%s|" % "|".join(["---"] + ["---:"] * (len(head) - 1))]
    for name in doc["engines"]:
        row = [DISPLAY[name]]
        for p in phases:
            info = p["engines"].get(name, {})
            mem = p.get("memory", {}).get(name, {})
            row.append("%.0f" % info["rss_mb"] if info.get("rss_mb") else "-")
            row.append("%.0f" % mem["max_rss_mb"] if mem.get("max_rss_mb") else "-")
        lines.append("| %s |" % " | ".join(row))
    peaks = (doc.get("wasm") or {}).get("peak_rss_mb") or {}
    if peaks:
        lines += ["", "wasm in Node (each engine's process, its peak): %s." % ", ".join(
            "%s %.0f MB" % (n, peaks[n]) for n in WASM if peaks.get(n))]
    return lines + [""]


def wasm_section(wasm):
    if not wasm:
        return []
    lines = ["## laneql-wasm vs duckdb-wasm in Node, 1 thread%s" % (
        ", SF %g" % wasm["sf"] if wasm.get("sf") is not None else ""), ""]
    if wasm.get("error"):
        return lines + ["Not measured: %s" % wasm["error"], ""]
    lines.append("From `bench/tpch/wasm.mjs`: both engines read the same CSV files (the same "
                 "inferred types, checked), one warm-up, %s timed runs, the engines taking turns per "
                 "query; medians in ms. check: laneql-wasm's answer against duckdb-wasm's with the "
                 "rules above." % wasm.get("repeat", "3"))
    lines.append("")
    lines += report.wasm_table(wasm["results"], WASM, [("laneql-wasm", "duckdb-wasm")])
    errors = ["- #%d: %s" % (r["q"], "; ".join("%s: %s" % (n, report.short(x["error"]))
                                             for n, x in r["engines"].items() if x.get("error")))
              for r in wasm["results"] if any(x.get("error") for x in r["engines"].values())]
    notes = ["- #%d: %s" % (r["q"], report.short("; ".join(r["notes"]), 300))
             for r in wasm["results"] if r.get("notes")]
    if errors or notes:
        lines += ["", "Notes:", ""] + errors + notes
    info = wasm.get("engine_info") or {}
    if info:
        lines += ["", "Engines: %s." % "; ".join(
            "%s: %s" % (n, ", ".join("%s %s" % (k, v) for k, v in sorted(info[n].items())
                                     if not isinstance(v, (dict, list))))
            for n in WASM if n in info)]
    return lines + [""]


def setup_section(doc):
    d = doc.get("data", {})
    lines = ["## Set-up", ""] + report.machine_lines(doc)
    lines.append("- data: tpchgen-cli's CSV files at SF %g in `%s`; laneql reads `laneql import`'s "
                 ".laneql copies, the peers Parquet copies DuckDB wrote from the same files; both "
                 "have the same columns and types (BIGINT, DOUBLE, DATE, VARCHAR as read_csv infers "
                 "them) and a %s-aggregate fingerprint of every table agrees" % (
                     doc["sf"], d.get("csv_folder"), d.get("fingerprint_aggregates", "?")))
    lines.append("- timing: a warm-up run (its answer checked), then %d timed runs per query and "
                 "engine, the engines taking turns within each round (order rotated per query and "
                 "round); each engine's own time around the query and the materialisation of its "
                 "answer (bench/peers/README.md)" % doc["repeat"])
    for phase in doc["phases"]:
        for name, info in phase["engines"].items():
            floor = phase.get("floor_ms", {}).get(name)
            lines.append("- %s, %s: %s (threads: %s), %s; load %.1f s; `SELECT 1` %s ms" % (
                plural(phase["threads"], "thread"), DISPLAY[name], info.get("version"),
                info.get("threads"), info.get("form"), info.get("load_s", 0), stats.fmt_ms(floor)))
    lines.append("- queries: ../shared/tpch/queries/q01..q22.sql as written, each as one line "
                 "(comments dropped), except the adjustments of bench/tpch/tpch_dialects.py (noted "
                 "per query)")
    parts = ["data %.0f s" % d["duration_s"]] if "duration_s" in d else []
    parts += ["%s %.0f s" % (plural(p["threads"], "thread"), p["duration_s"])
              for p in doc["phases"] if "duration_s" in p]
    lines.append("- command: `%s`; %s, %.0f s in all%s" % (
        doc.get("command"), doc.get("started"), doc.get("duration_s", 0),
        " (%s)" % ", ".join(parts) if parts else ""))
    return lines


def add_known_causes(phase):
    """The known cause (tpch_dialects.KNOWN_DIFFERENCES) of each mismatch, as the runner notes it,
    also for a run made before the cause was listed."""
    for r in phase["results"]:
        for name, (status, _) in r.get("checks", {}).items():
            known = tpch_dialects.known_difference(name, r["q"])
            note = "%s's answer differs, known cause: %s" % (DISPLAY.get(name, name), known)
            if status == "MISMATCH" and known and note not in r.setdefault("notes", []):
                r["notes"].append(note)


def render(doc):
    engines = doc["engines"]
    lines = ["# TPC-H SF %g: laneql vs %s" % (doc["sf"], ", ".join(
        DISPLAY[p] for p in report.peers_of(engines))), ""]
    lines.append("Times in ms (median of %d after a warm-up; geomeans also of the best). Ratios are "
                 "laneql / peer: below 1, laneql is faster. Every answer is checked against DuckDB's "
                 "(integers exact, floats to 1e-9 relative, order as the query defines it, ties at a "
                 "LIMIT as DuckDB's full answer allows); ✗ marks a time whose answer is not DuckDB's, "
                 "† a single timed run. \"#\" is the TPC-H query number." % doc["repeat"])
    if doc.get("conditions"):
        lines += ["", "**%s**" % doc["conditions"]]
    lines += ["", "## Summary", ""] + summary_table(doc) + [""]
    for phase in doc["phases"]:
        add_known_causes(phase)
        lines += ["## Native, %s" % plural(phase["threads"], "thread"), ""]
        lines += report.native_table(phase, engines)
        notes = report.notes_for(phase)
        if notes:
            lines += ["", "Notes:", ""] + notes
        lines.append("")
    lines += memory_section(doc)
    lines += wasm_section(doc.get("wasm"))
    lines += setup_section(doc)
    return "\n".join(lines) + "\n"
