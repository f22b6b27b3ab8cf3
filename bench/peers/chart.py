"""The ratios as an SVG chart, drawn here (no plotting library): one panel per run (native at 1
thread, at 2 threads, wasm in Node), one row per query, one horizontal bar per peer from 1 to
laneql/peer on a log scale (left of the line at 1: laneql is faster). A bar whose answer did not
match DuckDB's is drawn hollow in red and marked ✗; a query a peer did not run has no bar."""

import math
from xml.sax.saxutils import escape

import stats
from stats import DISPLAY

COLORS = {"duckdb": "#d4a017", "chdb": "#c0392b", "polars": "#2e86c1", "duckdb-wasm": "#8e6bbf"}
GOOD = ("ok", "ok (ties)", "reference")

BAR = 5         # px per bar
ROW_GAP = 5     # px between queries
PANEL_W = 280   # px of the log axis
LABEL_W = 34    # px for "#12"
TOP = 70        # px above the first row (titles, legend)


def panels_from(doc):
    """[(title, [(q, [(peer, ratio or None, ok)])])] from the report document."""
    panels = []
    for phase in doc["phases"]:
        rows = []
        for r in phase["results"]:
            lane = stats.timed(r["engines"].get("laneql"), "median_ms")
            bars = []
            for p in [e for e in doc["engines"] if e != "laneql"]:
                ok = r.get("checks", {}).get(p, ["ok"])[0] in GOOD
                bars.append((p, stats.ratio(lane, stats.timed(r["engines"].get(p), "median_ms")), ok))
            rows.append((r["q"], bars))
        panels.append(("native, %d thread%s" % (phase["threads"], "" if phase["threads"] == 1 else "s"), rows))
    wasm = doc.get("wasm") or {}
    if wasm.get("results"):
        rows = []
        for r in wasm["results"]:
            x = stats.ratio(stats.timed(r["engines"].get("laneql-wasm"), "median_ms"),
                            stats.timed(r["engines"].get("duckdb-wasm"), "median_ms"))
            rows.append((r["q"], [("duckdb-wasm", x, str(r.get("check", "")).startswith("ok"))]))
        panels.append(("wasm in Node, 1 thread" + (", SF %g" % wasm["sf"] if wasm.get("sf") is not None else ""),
                       rows))
    return panels


def decades(panels):
    """(lo, hi): the powers of ten the axis spans, covering every ratio and 1/10..10 at least
    (at most 10^-4..10^4; beyond is clipped)."""
    lo, hi = -1, 1
    for _, rows in panels:
        for _, bars in rows:
            for _, x, _ in bars:
                if x:
                    v = math.log10(x)
                    lo, hi = min(lo, math.floor(v)), max(hi, math.ceil(v))
    return max(lo, -4), min(hi, 4)


def render(doc, subject=None):
    """The SVG; `subject` names the data in the title (default: hits' row count)."""
    panels = panels_from(doc)
    if not panels:
        return '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>\n'
    lo, hi = decades(panels)
    queries = max(len(rows) for _, rows in panels)
    per_row = max(len(bars) for _, rows in panels for _, bars in rows) * BAR + ROW_GAP
    height = TOP + queries * per_row + 40
    width = len(panels) * (LABEL_W + PANEL_W + 24) + 10
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" '
           'font-size="10">' % (width, height),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="8" y="16" font-size="13" font-weight="bold">laneql / peer, per query (median '
           'times, log scale; left of 1: laneql faster) — %s</text>'
           % escape(subject or "%s rows" % stats.rows_text(doc["rows"]))]
    legend_x = 8
    for p in [e for e in doc["engines"] if e != "laneql"] + (["duckdb-wasm"] if len(panels) > len(doc["phases"]) else []):
        out.append('<rect x="%d" y="26" width="10" height="8" fill="%s"/>' % (legend_x, COLORS.get(p, "#666")))
        out.append('<text x="%d" y="34">%s</text>' % (legend_x + 14, escape(DISPLAY.get(p, p))))
        legend_x += 22 + 7 * len(DISPLAY.get(p, p))
    out.append('<text x="%d" y="34" fill="#c00">hollow red ✗: answer not DuckDB\'s</text>' % (legend_x + 6))
    for i, (title, rows) in enumerate(panels):
        x0 = 8 + i * (LABEL_W + PANEL_W + 24) + LABEL_W

        def xpos(ratio, x0=x0):
            v = max(lo, min(hi, math.log10(ratio)))
            return x0 + (v - lo) / (hi - lo) * PANEL_W

        out.append('<text x="%.1f" y="54" text-anchor="middle" font-weight="bold">%s</text>'
                   % (x0 + PANEL_W / 2, escape(title)))
        bottom = TOP + len(rows) * per_row
        for d in range(lo, hi + 1):
            x = xpos(10.0 ** d)
            out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="%s"/>'
                       % (x, TOP - 4, x, bottom, "#333" if d == 0 else "#ddd"))
            label = "1" if d == 0 else ("%g" % 10.0 ** d)
            out.append('<text x="%.1f" y="%d" text-anchor="middle">%s</text>' % (x, bottom + 12, label))
        out.append('<text x="%.1f" y="%d" text-anchor="middle" fill="#555">← laneql faster · peer faster →</text>'
                   % (x0 + PANEL_W / 2, bottom + 26))
        one = xpos(1.0)
        for row_index, (q, bars) in enumerate(rows):
            y = TOP + row_index * per_row
            out.append('<text x="%d" y="%.1f" text-anchor="end">#%d</text>' % (x0 - 4, y + (per_row - ROW_GAP) / 2 + 3, q))
            y += (per_row - ROW_GAP - len(bars) * BAR) // 2  # bars centred in the row
            for j, (peer, ratio, ok) in enumerate(bars):
                if ratio is None:
                    out.append('<text x="%.1f" y="%d" fill="#999" font-size="8">no ratio (%s or laneql: '
                               'no time)</text>' % (one + 3, y + j * BAR + BAR, escape(DISPLAY.get(peer, peer))))
                    continue
                x = xpos(ratio)
                left, w = min(x, one), max(abs(x - one), 1.0)
                color = COLORS.get(peer, "#666")
                style = 'fill="%s"' % color if ok else 'fill="none" stroke="#c00" stroke-width="1"'
                out.append('<rect x="%.1f" y="%d" width="%.1f" height="%d" %s><title>#%d %s: %s</title></rect>'
                           % (left, y + j * BAR, w, BAR - 1, style, q, escape(DISPLAY.get(peer, peer)),
                              stats.fmt_ratio(ratio)))
                if not ok:
                    out.append('<text x="%.1f" y="%d" fill="#c00" font-size="8">✗</text>'
                               % (max(x, one) + 2, y + j * BAR + BAR))
    out.append("</svg>")
    return "\n".join(out) + "\n"
