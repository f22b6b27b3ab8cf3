"""Unit tests of the efficiency benchmark's phase sums and report (no laneql run)."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import efficiency_report  # noqa: E402
import phases  # noqa: E402


def span(tid, cat, ts, dur, cpu_us=None, name="x"):
    args = {"rows": 0}
    if cpu_us is not None:
        args["cpu_us"] = cpu_us
    return {"name": name, "cat": cat, "ph": "X", "tid": tid, "ts": ts, "dur": dur, "args": args}


class PhaseTest(unittest.TestCase):
    def test_innermost_spans_only_per_thread(self):
        trace = {"traceEvents": [
            {"name": "thread_name", "ph": "M", "tid": 0},
            span(0, "operator", 0, 100, 90),        # not a phase
            span(0, "sort", 10, 50, 40),            # holds a sort run: left out
            span(0, "sort", 12, 20, 15),
            span(0, "sort", 40, 15, 12),
            span(0, "scan", 70, 10, 8),
            span(1, "scan", 12, 20, 19),            # another thread: its own nesting
            span(1, "merge", 12, 20, 3),            # same bounds, later in the list: the inner one
            span(1, "probe", 40, 5),                # no CPU time recorded: not counted
            {"name": "totals", "ph": "C", "tid": 0, "args": {"rows": 1}},
        ]}
        got = phases.phase_cpu_ms(trace)
        self.assertAlmostEqual(got["sort"], 0.027)
        self.assertAlmostEqual(got["scan"], 0.008)
        self.assertAlmostEqual(got["merge"], 0.003)
        self.assertEqual(got["probe"], 0.0)
        self.assertEqual(set(got), set(phases.PHASES))

    def test_adjacent_spans_both_count(self):
        trace = {"traceEvents": [span(0, "scan", 0, 10, 9), span(0, "scan", 10, 10, 7)]}
        self.assertAlmostEqual(phases.phase_cpu_ms(trace)["scan"], 0.016)


def entry(index, wall, cpu, error=None, phases_ms=None):
    return {"index": index, "error": error, "wall_ms": wall, "cpu_ms": cpu, "phases_ms": phases_ms or {}}


class ReportTest(unittest.TestCase):
    def doc(self):
        runs = [
            {"threads": 1, "queries": [entry(1, 200, 200, phases_ms={"scan": 150}), entry(2, 50, 50),
                                       entry(3, 300, 300)]},
            {"threads": 16, "queries": [entry(1, 120, 260, phases_ms={"scan": 200}), entry(2, 40, 90),
                                        entry(3, 1, 1, error="out of memory")]},
        ]
        return {"command": "x", "started": "now", "commit": "abc", "duration_s": 1,
                "machine": {"cpu": "c", "cpus": 2, "cores": 2, "memory_gib": 24, "load_start": "1",
                            "load_end": "1"},
                "runs": 3, "slow_ms": 100, "thread_counts": [1, 16],
                "suites": [{"name": "t", "title": "T", "queries": ["SELECT 1", "SELECT 2", "SELECT 3"],
                            "runs": runs}]}

    def test_ratios_target_and_errors(self):
        doc = self.doc()
        s = efficiency_report.summary(doc, doc["suites"][0])
        self.assertEqual([r["index"] for r in s["slow"]], [1])  # 2 is fast; 3 failed at 16 threads
        self.assertEqual([r["index"] for r in s["over"]], [1])  # 260 / 200 = 1.3 > 1.2
        self.assertAlmostEqual(s["geomeans"][1], 1.3)
        self.assertFalse(s["rows"][2]["ok"])
        self.assertEqual(s["cpu_sums"], [250, 350])
        text = efficiency_report.render(doc)
        self.assertIn("#1 (1.30)", text)
        self.assertIn("1.30 **over**", text)
        self.assertIn("1.80 |", text)  # query 2 is over 1.2 but under the slow line: not marked
        self.assertNotIn("1.80 **over**", text)
        self.assertIn("error: out of memory", text)
        # The phase table: scan 150 of 200 at 1 thread, other 50; 200 of 260 at 16, other 60.
        self.assertIn("| 1 | 1 | 150 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 50 | 200 |", text)
        self.assertIn("| 1 | 16 | 200 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 60 | 260 |", text)


if __name__ == "__main__":
    unittest.main()
