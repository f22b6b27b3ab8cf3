"""The report: a Markdown file made from the JSON document the run writes next to it (render()
is a pure function of that document, unit-tested), per thread count a table of every query's
times, the laneql/peer ratios and the answer checks, geometric means, the wasm table, the
bandwidth table and the set-up.

The document (see run.py): {"rows", "seed", "repeat", "engines", "phases": [{"threads",
"engines": {name: info}, "results": [record]}], "wasm", "bandwidth", "machine", "command", ...};
a record is {"q", "sql", "engines": {name: {"median_ms", "best_ms", "times_ms", "rows"} or
{"error"} or {"na"}}, "checks": {name: [status, detail]}, "notes": [...]}.
"""

import stats
from stats import DISPLAY

GOOD = ("ok", "ok (ties)", "reference")


def cell(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def short(text, width=160):
    text = " ".join(str(text).split())
    return text if len(text) <= width else text[:width - 3] + "..."


def peers_of(engines):
    return [e for e in engines if e != "laneql"]


def problems(record):
    """[(engine, status, detail)] of the answers that are not ok (errors and n/a excluded)."""
    out = []
    for name, (status, detail) in sorted(record.get("checks", {}).items()):
        if status not in GOOD and status not in ("n/a", "error"):
            out.append((name, status, detail))
    return out


def time_cell(record, name):
    r = record["engines"].get(name)
    if r is None:
        return "-"
    if r.get("na"):
        return "n/a"
    if r.get("error"):
        return "timeout" if "timeout" in r["error"] else "error"
    text = stats.fmt_ms(r["median_ms"])
    if r.get("runs", 0) == 1 and len(r.get("times_ms", [])) == 1:
        text += "†"
    status = record.get("checks", {}).get(name, ["ok"])[0]
    if status not in GOOD:
        text += " ✗"
    return text


def check_cell(record):
    bad = problems(record)
    if bad:
        return ", ".join("**%s: %s**" % (DISPLAY.get(n, n), s) for n, s, _ in bad)
    statuses = [s for n, (s, _) in record.get("checks", {}).items() if n != "duckdb"]
    if any(s == "not checked" for s in statuses):
        return "not checked"
    return "ok (ties)" if any(s == "ok (ties)" for s in statuses) else "ok"


def summary_rows(phase, engines, key="median_ms"):
    """Per engine the geomean ms over the queries all engines ran, and per peer the geomean of
    laneql/peer over the queries both ran."""
    results = phase["results"]
    means, common = stats.common_geomeans(results, engines, key)
    pairs = {p: stats.pair_geomean(results, "laneql", p, key) for p in peers_of(engines)}
    return means, common, pairs


def native_table(phase, engines):
    peers = peers_of(engines)
    head = ["#"] + ["%s ms" % DISPLAY[e] for e in engines] + \
           ["laneql / %s" % DISPLAY[p] for p in peers] + ["check"]
    lines = ["| %s |" % " | ".join(head),
             "|%s|" % "|".join("---" if h in ("#", "check") else "---:" for h in head)]
    for r in phase["results"]:
        row = [str(r["q"])] + [time_cell(r, e) for e in engines]
        for p in peers:
            row.append(stats.fmt_ratio(stats.ratio(stats.timed(r["engines"].get("laneql"), "median_ms"),
                                                   stats.timed(r["engines"].get(p), "median_ms"))))
        row.append(check_cell(r) + (" (note)" if r.get("notes") or problems(r) else ""))
        lines.append("| %s |" % " | ".join(cell(x) for x in row))
    for label, key in (("geomean (median)", "median_ms"), ("geomean (best)", "best_ms")):
        means, common, pairs = summary_rows(phase, engines, key)
        row = ["**%s**" % label] + ["**%s**" % stats.fmt_ms(means[e]) for e in engines]
        row += ["**%s**" % stats.fmt_ratio(pairs[p][0]) for p in peers]
        row.append("ms: the %d queries all engines ran; ratios: the queries both ran (%s)"
                   % (common, ", ".join("%s %d" % (DISPLAY[p], pairs[p][1]) for p in peers)))
        lines.append("| %s |" % " | ".join(row))
    return lines


def notes_for(phase):
    out = []
    for r in phase["results"]:
        items = list(r.get("notes", []))
        for name, status, detail in problems(r):
            items.append("%s %s: %s" % (DISPLAY.get(name, name), status, short(detail)))
        for name, x in r["engines"].items():
            if x.get("na"):
                items.append("%s n/a: %s" % (DISPLAY.get(name, name), short(x["na"])))
            elif x.get("error"):
                items.append("%s error: %s" % (DISPLAY.get(name, name), short(x["error"])))
        if items:
            out.append("- #%d: %s" % (r["q"], "; ".join(items)))
    return out


def summary_table(doc):
    engines = doc["engines"]
    peers = peers_of(engines)
    head = ["run", "queries"] + ["%s ms" % DISPLAY[e] for e in engines] + \
           ["laneql / %s" % DISPLAY[p] for p in peers] + ["answers not ok"]
    lines = ["| %s |" % " | ".join(head), "|%s|" % "|".join(["---", "---:"] + ["---:"] * (len(head) - 3) + ["---"])]
    for phase in doc["phases"]:
        means, common, pairs = summary_rows(phase, engines)
        bad = ["#%d %s" % (r["q"], DISPLAY.get(n, n)) for r in phase["results"] for n, _, _ in problems(r)]
        row = ["native, %d thread%s" % (phase["threads"], "" if phase["threads"] == 1 else "s"),
               str(common)] + [stats.fmt_ms(means[e]) for e in engines]
        row += ["%s (%d)" % (stats.fmt_ratio(pairs[p][0]), pairs[p][1]) for p in peers]
        row.append(", ".join(bad) if bad else "none")
        lines.append("| %s |" % " | ".join(row))
    wasm = doc.get("wasm") or {}
    if wasm.get("results"):
        ratio, n = stats.pair_geomean(wasm["results"], "laneql-wasm", "duckdb-wasm", "median_ms")
        means, common = stats.common_geomeans(wasm["results"], ["laneql-wasm", "duckdb-wasm"], "median_ms")
        bad = [r for r in wasm["results"] if not str(r.get("check", "")).startswith("ok")]
        lines.append("")
        lines.append("wasm in Node, 1 thread%s: laneql-wasm %s ms, duckdb-wasm %s ms (geomean of medians "
                     "over the %d queries both ran); laneql-wasm / duckdb-wasm **%s**; answers not ok: %s."
                     % (", SF %g" % wasm["sf"] if wasm.get("sf") is not None else "",
                        stats.fmt_ms(means["laneql-wasm"]), stats.fmt_ms(means["duckdb-wasm"]), common,
                        stats.fmt_ratio(ratio),
                        ", ".join("#%d (%s)" % (r["q"], r["check"]) for r in bad) or "none"))
    return lines


def wasm_section(wasm):
    if not wasm:
        return []
    lines = ["## laneql-wasm vs duckdb-wasm in Node, 1 thread", ""]
    if wasm.get("error"):
        return lines + ["Not measured: %s" % wasm["error"], ""]
    lines.append("From `bench/wasm/run.mjs` (same rows and seed; its own warm-up, %s timed runs, "
                 "engines interleaved per query; medians in ms). check: laneql-wasm's answer "
                 "against duckdb-wasm's with the same rules. native: `laneql bench --threads 1`, "
                 "called by run.mjs." % wasm.get("repeat", "3"))
    lines.append("")
    lines += wasm_table(wasm["results"], ["laneql-wasm", "duckdb-wasm", "native"],
                        [("laneql-wasm", "duckdb-wasm"), ("laneql-wasm", "native")])
    notes = ["- #%d: %s" % (r["q"], short("; ".join(r["notes"]), 300)) for r in wasm["results"] if r.get("notes")]
    if notes:
        lines += ["", "Notes:", ""] + notes
    return lines + [""]


def wasm_table(results, names, pairs):
    """The per-query table of a wasm run: each engine's median, the ratios of `pairs`
    [(numerator, denominator)], the check; then geomeans over the queries every engine ran."""
    head = ["#"] + ["%s ms" % n for n in names] + ["%s / %s" % p for p in pairs] + ["check"]
    lines = ["| %s |" % " | ".join(head), "|%s|" % "|".join("---" if h in ("#", "check") else "---:" for h in head)]
    for r in results:
        t = {n: stats.timed(r["engines"].get(n), "median_ms") for n in names}
        row = [str(r["q"])] + [stats.fmt_ms(t[n]) if t[n] is not None else
                               ("error" if r["engines"].get(n) else "-") for n in names]
        row += [stats.fmt_ratio(stats.ratio(t[a], t[b])) for a, b in pairs]
        check = str(r.get("check"))
        row.append(check if check.startswith("ok") else "**%s**" % check)
        lines.append("| %s |" % " | ".join(cell(x) for x in row))
    for label, key in (("geomean (median)", "median_ms"), ("geomean (best)", "best_ms")):
        means, common = stats.common_geomeans(results, names, key)
        ratios = [stats.pair_geomean(results, a, b, key)[0] for a, b in pairs]
        lines.append("| **%s** | %s | %s | %d %s every engine ran |" % (
            label, " | ".join("**%s**" % stats.fmt_ms(means[n]) for n in names),
            " | ".join("**%s**" % stats.fmt_ratio(x) for x in ratios), common,
            "query" if common == 1 else "queries"))
    return lines


def bandwidth_section(bw):
    if not bw:
        return []
    probe = bw.get("probe", {})
    lines = ["## Memory read bandwidth", ""]
    lines.append("Probe (memchr over %s MB, median of 5; `laneql_sum_bench`, taken before and after "
                 "the runs, the higher one used): %s." % (
                     bw.get("probe_mb", "?"),
                     ", ".join("%s thread%s **%.1f GB/s** (%s)" % (
                         t, "" if str(t) == "1" else "s", g,
                         " / ".join("%.1f" % x for x in bw.get("probe_runs", {}).get(str(t), [])))
                         for t, g in sorted(probe.items()))))
    lines += ["", "laneql's scan-bound queries: bytes read (laneql's profile: its threads' totals), "
              "GB/s at laneql's best time, and the share of the probe at the same thread count.", ""]
    threads = sorted({t for q in bw.get("queries", []) for t in q["threads"]}, key=int)
    head = ["#", "MB read"] + sum([["%s th ms" % t, "%s th GB/s" % t, "%s th %% of probe" % t] for t in threads], [])
    lines += ["| %s |" % " | ".join(head), "|%s|" % "|".join(["---"] + ["---:"] * (len(head) - 1))]
    for q in bw.get("queries", []):
        row = [str(q["q"]), "%.1f" % (q["bytes"] / 1e6)]
        for t in threads:
            x = q["threads"].get(t)
            row += ([stats.fmt_ms(x["best_ms"]), "%.1f" % x["gbs"],
                     "%.0f %%" % (100 * x["share"]) if x["share"] else "-"] if x else ["-"] * 3)
        lines.append("| %s |" % " | ".join(row))
    if bw.get("note"):
        lines += ["", bw["note"]]
    return lines + [""]


def machine_lines(doc):
    """The set-up's first lines: the machine, and how it was shared."""
    m = doc.get("machine", {})
    lines = ["- machine: %s, %s CPUs (%s cores × %s threads per core), %s GiB memory; %s; "
             "load average %s at the start, %s at the end" % (
                 m.get("cpu"), m.get("cpus"), m.get("cores"), m.get("threads_per_core"),
                 m.get("memory_gib"), m.get("os"), m.get("load_start"), m.get("load_end"))]
    if doc.get("conditions"):
        lines.append("- conditions: %s" % doc["conditions"])
    return lines


def setup_section(doc):
    lines = ["## Set-up", ""] + machine_lines(doc)
    d = doc.get("data", {})
    lines.append("- data: laneql's hits generator, %d rows, seed %d: `%s` for laneql, `%s` for the "
                 "peers (the generator's CSV → DuckDB with create.sql's types → Parquet); the same rows "
                 "in both (a %s-aggregate fingerprint over every column agrees)" % (
                     doc["rows"], doc["seed"], d.get("laneql"), d.get("parquet"),
                     d.get("fingerprint_aggregates", "?")))
    cols = d.get("columns", "all")
    lines.append("- columns: %s (%s)" % (
        "all 105 of create.sql" if cols == "all" else
        "the %d the queries name, in every engine (so `SELECT *` returns these): %s" % (len(cols), ", ".join(cols)),
        d.get("columns_why", "")))
    lines.append("- timing: a warm-up run, then %d timed runs per query and engine, the engines taking "
                 "turns within each round (order rotated per query and round); times are each engine's "
                 "own, around the query and the materialisation of its answer (see bench/peers/README.md)"
                 % doc["repeat"])
    for phase in doc["phases"]:
        for name, info in phase["engines"].items():
            floor = phase.get("floor_ms", {}).get(name)
            lines.append("- %d thread%s, %s: %s (threads: %s), %s; load %.1f s, RSS %s; `SELECT 1` %s ms" % (
                phase["threads"], "" if phase["threads"] == 1 else "s", DISPLAY[name],
                info.get("version"), info.get("threads"), info.get("form"), info.get("load_s", 0),
                "%.0f MB" % info["rss_mb"] if info.get("rss_mb") else
                "- (maps a %.0f MB file)" % info["file_mb"] if info.get("file_mb") else "-",
                stats.fmt_ms(floor)))
    lines.append("- queries: ClickBench's queries.sql as it is, except the adjustments of "
                 "bench/peers/dialects.py (noted per query)")
    parts = ["data %.0f s" % d["duration_s"]] if "duration_s" in d else []
    parts += ["%d thread%s %.0f s" % (p["threads"], "" if p["threads"] == 1 else "s", p["duration_s"])
              for p in doc["phases"] if "duration_s" in p]
    if (doc.get("wasm") or {}).get("duration_s"):
        parts.append("wasm %.0f s" % doc["wasm"]["duration_s"])
    lines.append("- command: `%s`; %s, %.0f s in all%s" % (
        doc.get("command"), doc.get("started"), doc.get("duration_s", 0),
        " (%s)" % ", ".join(parts) if parts else ""))
    return lines


def render(doc):
    engines = doc["engines"]
    lines = ["# laneql vs %s: ClickBench's %d queries on %s rows" % (
        ", ".join(DISPLAY[p] for p in peers_of(engines)), doc.get("query_count", 43),
        stats.rows_text(doc["rows"])), ""]
    lines.append("Times in ms (median of %d after a warm-up; geomeans also of the best). Ratios are "
                 "laneql / peer: below 1, laneql is faster. Every answer is checked against DuckDB's "
                 "(integers exact, floats to 1e-9, order as the query defines it, ties at a LIMIT as "
                 "DuckDB's full answer allows); ✗ marks a time whose answer is not DuckDB's, † a single "
                 "timed run. \"#\" is the line of queries.sql (ClickBench's Q0 is #1)." % doc["repeat"])
    if doc.get("conditions"):
        lines += ["", "**%s**" % doc["conditions"]]
    lines += ["", "## Summary", ""] + summary_table(doc) + [""]
    for phase in doc["phases"]:
        lines += ["## Native, %d thread%s" % (phase["threads"], "" if phase["threads"] == 1 else "s"), ""]
        lines += native_table(phase, engines)
        notes = notes_for(phase)
        if notes:
            lines += ["", "Notes:", ""] + notes
        lines.append("")
    lines += wasm_section(doc.get("wasm"))
    lines += bandwidth_section(doc.get("bandwidth"))
    lines += setup_section(doc)
    return "\n".join(lines) + "\n"
