"""Minimises a failing random query (random_diff.py) and keeps it as a tests/sql regression.

Greedy: each round makes every query one step simpler than the current one (an output column,
a group key, an ORDER BY key, HAVING, LIMIT, OFFSET, DISTINCT dropped; an aggregate made
count(*); the WHERE predicate dropped or replaced by one of its parts), runs them all in one
laneql process and keeps the first that still fails the same way (same status: wrong rows, an
error, a type, a crash). Then it
tries fewer rows (the regression file's table first, then 1,000 and 10,000 rows) and minimises
again there. The result goes to a tests/sql file as a `query` record whose expected rows are
DuckDB's, written by tests/sql/tools/expect.py.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

import random_diff

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
EXPECT = os.path.join(REPO, "tests", "sql", "tools", "expect.py")
SMALLER_ROWS = [1000, 10000]


def _drop_item(query, index):
    expr, alias, is_key = query.items[index]
    q = query.copy()
    del q.items[index]
    if is_key:
        q.group_by.remove(expr)
        if not q.group_by:
            q.having = None
    order = []
    for key, direction, nulls in q.order:
        if key in (expr, alias, str(index + 1)):
            continue
        if key.isdigit() and int(key) > index + 1:
            key = str(int(key) - 1)  # ORDER BY position: the items after it moved up
        order.append((key, direction, nulls))
    q.order = order
    return q


def _is_aggregate(expr):
    return expr.startswith(("count(", "sum(", "avg(", "min(", "max("))


def candidates(query):
    """Every query one step simpler than `query`."""
    out = []
    if len(query.items) > 1:
        out += [_drop_item(query, i) for i in range(len(query.items))]
    for i, (expr, alias, is_key) in enumerate(query.items):
        # An aggregate replaced by the simplest one (in a grouped or ungrouped query).
        if not is_key and expr != "count(*)" and (query.group_by or _is_aggregate(expr)):
            q = query.copy()
            q.items[i] = ("count(*)", alias, False)
            out.append(q)
    if query.where is not None:
        for simpler in [None] + query.where.simpler():
            q = query.copy()
            q.where = simpler
            out.append(q)
    for field, empty in (("having", None), ("limit", None), ("offset", None), ("distinct", False)):
        if getattr(query, field) != empty:
            q = query.copy()
            setattr(q, field, empty)
            out.append(q)
    for i in range(len(query.order)):
        q = query.copy()
        del q.order[i]
        out.append(q)
    return out


def minimize(oracle, query, status):
    """The smallest query found that fails on `oracle` with `status`, and its note."""
    current, note = query, None
    while True:
        cands = candidates(current)
        if not cands:
            return current, note
        outcomes, _, _ = random_diff.run_queries(oracle, cands)
        for cand, (s, n) in zip(cands, outcomes):
            if s == status:
                current, note = cand, n
                break
        else:
            return current, note


def _file_table(path):
    """(rows, seed) of the `hits rows=N seed=S` line of a corpus file, or None."""
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        m = re.search(r"^hits rows=(\d+) seed=(\d+)\s*$", f.read(), re.M)
    return (int(m.group(1)), int(m.group(2))) if m else None


def _record(query, status, note, args, original, ordered):
    note = note if len(note) <= 200 else note[:197] + "..."
    return "\n".join([
        "# random_diff.py --seed %d --rows %d --data-seed %d found: %s: %s" % (
            args.seed, args.rows, args.data_seed, status, note.replace("\n", " ")),
        "# original: " + original.sql(),
        "query " + ("ordered" if ordered else "unordered"),
        query.sql(),
        "----",
        ""])


def _with_expectations(path, record, table, runner):
    """The corpus file `path` (created with `table` if missing) plus `record`, its expectations
    filled by expect.py, as text; or None and expect.py's complaint."""
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            text = f.read().rstrip("\n") + "\n\n"
    else:
        text = ("# Regressions found by the random differential test (tests/diff/random_diff.py):"
                "\n# each record is a minimised query that once gave a different answer than "
                "DuckDB's.\n# Expected rows are DuckDB's (tests/sql/tools/expect.py).\n\n"
                "hits rows=%d seed=%d\n\n" % table)
    with tempfile.TemporaryDirectory(prefix="laneql-rdiff-") as temp:
        draft = os.path.join(temp, os.path.basename(path))
        with open(draft, "w", encoding="utf-8") as f:
            f.write(text + record)
        run = subprocess.run([sys.executable, EXPECT, "--runner", runner, draft],
                             capture_output=True, text=True)
        if run.returncode != 0:
            return None, (run.stderr or run.stdout).strip()
        with open(draft, encoding="utf-8") as f:
            return f.read(), ""


def report(args, oracle, query, status, note):
    """Minimises one failure, prints it and writes its regression record."""
    print("\n==> minimising %s: %s" % (status, query.sql()))
    small, small_note = minimize(oracle, query, status)
    small_note = small_note or note
    table = (oracle.rows, oracle.seed)
    ladder = []
    file_table = _file_table(args.regressions)
    if file_table:
        ladder.append(file_table)
    ladder += [(r, oracle.seed) for r in SMALLER_ROWS if r < oracle.rows]
    for rows, seed in ladder:
        if (rows, seed) == table:
            continue
        smaller = random_diff.Oracle(oracle.tool, args.create, rows, seed, oracle.workdir)
        outcome = random_diff.run_queries(smaller, [small])[0][0]
        if outcome[0] == status:
            small, small_note = minimize(smaller, small, status)
            small_note = small_note or outcome[1]
            table = (rows, seed)
            break
    print("original:  " + query.sql())
    print("minimised: %s\n    on %d rows (data seed %d): %s: %s" % (
        small.sql(), table[0], table[1], status, small_note))

    path = args.regressions
    if file_table and file_table != table:
        path = os.path.splitext(path)[0] + "_r%d_s%d.test" % table
    text, problem = None, ""
    for ordered in ([True, False] if small.order else [False]):
        record = _record(small, status, small_note, args, query, ordered)
        text, problem = _with_expectations(path, record, table, args.runner)
        if text is not None:
            break
    if text is None:
        print("not written: expect.py refuses the record: %s\n%s" % (problem, record))
        return
    if args.no_write:
        print("regression record (not written):\n" + text[text.rfind("# random_diff.py"):])
        return
    with open(path + ".new", "w", encoding="utf-8") as f:
        f.write(text)
    shutil.move(path + ".new", path)
    print("written to %s" % os.path.relpath(path, REPO))
