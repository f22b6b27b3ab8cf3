"""One thread count's run: every selected query on every engine, interleaved.

Per query: a warm-up round (each engine runs it once; its answer is kept for the check), then
`repeat` timed rounds. Within a round the engines take turns, the order rotated by query and
round, so no engine always runs first or last after another. An engine whose warm-up took
longer than slow_ms gets one timed run for that query (noted). Then every engine's answer is
checked against DuckDB's (checks.py, in DuckDB's process).
"""

import sys

import stats
from stats import DISPLAY


def rotated(items, shift):
    shift %= len(items)
    return items[shift:] + items[:shift]


def _log(message):
    print(message, file=sys.stderr, flush=True)


def run_query(engines, number, sql, repeat, slow_ms):
    """Runs one query on every engine; returns its result record (see report.py)."""
    record = {"q": number, "sql": sql, "engines": {}, "notes": []}
    state = {}
    answers = {}
    for e in engines:
        engine_sql, why = e.sql_for(number, sql)
        state[e.name] = {"sql": engine_sql, "times": [], "runs": repeat, "error": None, "rows": None}
        if why:
            record["notes"].append("%s runs an adjusted query: %s" % (DISPLAY[e.name], why))
            record.setdefault("adjusted_sql", {})[e.name] = engine_sql
    for round_ in range(repeat + 1):
        for e in rotated(engines, number + round_):
            s = state[e.name]
            if s["error"] or round_ > s["runs"]:
                continue
            reply = e.run(number, s["sql"], answer=round_ == 0)
            if "error" in reply:
                s["error"] = reply["error"]
                continue
            if round_ == 0:
                s["rows"] = reply["rows"]
                answers[e.name] = reply["answer"]
                if reply["ms"] > slow_ms and repeat > 1:
                    s["runs"] = 1
                    record["notes"].append("%s: 1 timed run (its warm-up took over %.0f s)"
                                           % (DISPLAY[e.name], slow_ms / 1e3))
            else:
                s["times"].append(reply["ms"])
    for e in engines:
        s = state[e.name]
        if s["error"] and e.name == "polars":
            record["engines"][e.name] = {"na": s["error"]}
        elif s["error"]:
            record["engines"][e.name] = {"error": s["error"]}
        else:
            record["engines"][e.name] = {**stats.summarize(s["times"]), "times_ms": s["times"],
                                         "rows": s["rows"]}
    record["checks"] = check_answers(engines, sql, answers, record)
    return record


def check_answers(engines, sql, answers, record):
    """{engine: [status, detail]}: each engine's answer against DuckDB's."""
    duck = next((e for e in engines if e.name == "duckdb"), None)
    out = {}
    others = {k: v for k, v in answers.items() if k != "duckdb"}
    if duck is None or "duckdb" not in answers:
        why = "DuckDB did not run" if duck is None else "DuckDB failed"
        return {k: ["not checked", why] for k in others}
    reply = duck.check(sql, others) if others else {"verdicts": {}}
    if "error" in reply:
        return {k: ["not checked", "the check failed: " + reply["error"]] for k in others}
    out.update({k: list(v) for k, v in reply["verdicts"].items()})
    dialect_of = {e.name: e.dialect for e in engines}
    for name, (status, _) in list(out.items()):
        known = dialect_of[name].known_difference(name, record["q"])
        if status == "MISMATCH" and known:
            record["notes"].append("%s's answer differs, known cause: %s" % (DISPLAY[name], known))
    if reply.get("duckdb_rows") == 0:
        record["notes"].append("DuckDB's answer is empty at this size (every engine's must be too)")
    out["duckdb"] = ["reference", ""]
    for e in engines:
        result = record["engines"].get(e.name, {})
        if e.name not in out and (result.get("error") or result.get("na")):
            out[e.name] = ["n/a" if result.get("na") else "error", result.get("na") or result["error"]]
    return out


def floor_ms(engines, repeat):
    """Each engine's median time of `SELECT 1` after a warm-up: what a query costs that does no
    work (the client call, parsing, planning), to read the smallest times against."""
    out = {}
    for e in engines:
        times = []
        for round_ in range(repeat + 1):
            reply = e.run(0, "SELECT 1", answer=False)
            if "error" in reply:
                break
            if round_:
                times.append(reply["ms"])
        out[e.name] = stats.median(times) if times else None
    return out


def run_phase(engines, queries, selected, repeat, slow_ms, threads):
    """Every selected query (1-based numbers into `queries`) on the started engines."""
    results = []
    for number in selected:
        record = run_query(engines, number, queries[number - 1], repeat, slow_ms)
        record["threads"] = threads
        results.append(record)
        parts = []
        for e in engines:
            r = record["engines"][e.name]
            status = record["checks"].get(e.name, ["?", ""])[0]
            if r.get("na"):
                parts.append("%s n/a" % DISPLAY[e.name])
            elif r.get("error"):
                parts.append("%s ERROR" % DISPLAY[e.name])
            else:
                flag = "" if status in ("ok", "ok (ties)", "reference") else " [%s]" % status
                parts.append("%s %s ms%s" % (DISPLAY[e.name], stats.fmt_ms(r["median_ms"]), flag))
        _log("Q%-2d t%d: %s" % (number, threads, ", ".join(parts)))
    return results


def start(engines, threads):
    """Starts (loads) each engine in turn and returns those that loaded; a peer that fails to
    load is reported and left out; DuckDB, the reference, must load."""
    started = []
    for e in engines:
        _log("==> %d thread(s): loading %s" % (threads, e.name))
        reply = e.start()
        if not reply.get("ok"):
            _log("   %s did not load: %s" % (e.name, reply.get("error")))
            if e.name == "duckdb":
                raise SystemExit("error: DuckDB, the reference, did not load")
            continue
        _log("   %s: %s, load %.1f s, RSS %s MB" % (e.name, reply.get("version"), reply.get("load_s", 0),
                                                  "%.0f" % reply["rss_mb"] if reply.get("rss_mb") else "-"))
        started.append(e)
    return started


def choose_engines(parser, args, known):
    """args.thread_counts from --threads and args.engine_list (in `known`'s order) from
    --engines, which must name laneql and duckdb (the oracle) and nothing unknown."""
    args.thread_counts = [int(t) for t in args.threads.split(",")]
    args.engine_list = [e for e in known if e in args.engines.split(",")]
    unknown = set(args.engines.split(",")) - set(known)
    if unknown or "laneql" not in args.engine_list or "duckdb" not in args.engine_list:
        parser.error("--engines: laneql and duckdb are needed; known: %s" % ", ".join(known))
