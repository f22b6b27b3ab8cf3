#!/usr/bin/env python3
"""Rewrites docs/sql.md's function tables from the engine's catalogs.

    python3 tools/docs/function_tables.py

The scalar functions come from kernel/src/plan/scalar_functions.cc (the tables from
"### Numbers" up to "### Aggregates"), the aggregates from kernel/src/plan/aggregate_functions.cc
(the "### Aggregates" table). tests/cpp/function_catalog_test.cc fails when the docs and the
catalogs differ; this script makes them agree again after a catalog entry is added or changed.
"""
import os
import re

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FAMILIES = {"Number": "Numbers", "Conditional": "Conditionals and comparisons", "String": "Strings",
            "Date": "Dates and times", "List": "Lists"}
STRING = r'"((?:[^"\\]|\\.)*)"'


def read(path):
    with open(os.path.join(REPO, path), encoding="utf-8") as f:
        return f.read()


def scalar_tables():
    entries = re.findall(r'\{"([a-z0-9_]+)", F::k\w+, Fam::k(\w+), ' + STRING + r",\s*" + STRING + r"\}",
                         read("kernel/src/plan/scalar_functions.cc"))
    out, family = [], None
    for _, fam, signature, summary in entries:
        if fam != family:
            if family:
                out.append("")
            out += ["### " + FAMILIES[fam], "", "| function | returns |", "|---|---|"]
            family = fam
        out.append(f"| `{signature}` | {summary} |")
    return "\n".join(out) + "\n\n"


def aggregate_table():
    entries = re.findall(r'\{"([a-z0-9_]+)", A::k\w+, \d, \d, ' + STRING + r",\s*" + STRING + r"\}",
                         read("kernel/src/plan/aggregate_functions.cc"))
    out = ["### Aggregates", "", "| aggregate | returns |", "|---|---|"]
    out += [f"| `{signature}` | {summary} |" for _, signature, summary in entries]
    return "\n".join(out) + "\n"


def main():
    path = os.path.join(REPO, "docs", "sql.md")
    text = read("docs/sql.md")
    start = text.index("### Numbers\n")
    aggregates = text.index("### Aggregates\n")
    end = text.index("\n\n", text.index("|---|---|", aggregates)) + 1
    text = text[:start] + scalar_tables() + aggregate_table() + text[end:]
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    main()
