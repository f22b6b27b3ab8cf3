"""CPU time per phase from one query's trace (`laneql bench --profile-dir`, the `--profile`
format): every span made by ScopedSpan carries the CPU time its thread spent in it (`cpu_us`).

Spans nest (an operator's span holds its scans, a join build's span its side's operators), so
only the innermost spans of the phase categories count: a counted span that holds another counted
span on the same thread is left out, so no CPU time is counted twice. What no such span covers
(planning, work between spans, the parts of a parent span outside its children) is the query's
CPU time minus the phases' sum, reported as "other" by the caller.
"""

import json

# The categories that are phases of the work, in report order: the scan / filter / partition
# passes over the input, hash join builds (hashing, key filter, placing), join probe morsels,
# per-partition aggregation, merges of per-thread states, conversions, sorts and the output of
# the result.
PHASES = ["scan", "build", "probe", "aggregate", "merge", "convert", "sort", "output"]


def phase_cpu_ms(trace):
    """{phase: CPU ms} over the innermost phase spans of a trace (a dict as json.load gives)."""
    by_thread = {}
    for event in trace.get("traceEvents", []):
        if event.get("ph") != "X" or event.get("cat") not in PHASES:
            continue
        cpu_us = (event.get("args") or {}).get("cpu_us")
        if cpu_us is None:
            continue
        start = float(event["ts"])
        by_thread.setdefault(event.get("tid", 0), []).append(
            (start, start + float(event.get("dur", 0)), event["cat"], float(cpu_us)))
    totals = {phase: 0.0 for phase in PHASES}
    for spans in by_thread.values():
        # Sorted by start, the longer first where two start together: a span's children follow it.
        spans.sort(key=lambda s: (s[0], -s[1]))
        for i, (start, end, category, cpu_us) in enumerate(spans):
            holds_another = False
            for other_start, other_end, _, _ in spans[i + 1:]:
                if other_start >= end:
                    break
                if other_end <= end:
                    holds_another = True
                    break
            if not holds_another:
                totals[category] += cpu_us / 1000.0
    return totals


def load_phases(path):
    with open(path, encoding="utf-8") as f:
        return phase_cpu_ms(json.load(f))
