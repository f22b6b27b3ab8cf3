#!/usr/bin/env python3
"""Writes the SQL fuzzer's seed corpus, tests/fuzz/corpus/sql/, from the project's own SQL.

One file per statement: the 43 ClickBench queries (queries.sql, found where CMake looks for it)
and every query and error case of tests/sql/*.test. Re-run after those change:

    python3 tests/fuzz/make_seeds.py [--clickbench DIR]

The hand-written seeds in corpus/sql/ (named extra-*) are kept; the generated ones (named
clickbench-* and <test file>-*) are replaced.
"""
import argparse
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "fuzz" / "corpus" / "sql"


def test_file_statements(path):
    """The SQL of every `query` and `error` record of a tests/sql file."""
    lines = path.read_text(encoding="utf-8").split("\n")
    out = []
    i = 0
    while i < len(lines):
        if re.match(r"^(query|error)\b", lines[i]):
            sql = []
            i += 1
            while i < len(lines) and lines[i] != "----":
                sql.append(lines[i])
                i += 1
            out.append("\n".join(sql))
        i += 1
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clickbench", type=pathlib.Path, default=None,
                        help="folder with queries.sql (default: ../shared/clickbench or "
                             "/work/shared/clickbench)")
    args = parser.parse_args()
    candidates = [args.clickbench] if args.clickbench else [
        ROOT.parent / "shared" / "clickbench", pathlib.Path("/work/shared/clickbench")]
    queries = next((c / "queries.sql" for c in candidates if (c / "queries.sql").exists()), None)
    if queries is None:
        raise SystemExit("queries.sql not found in " + ", ".join(map(str, candidates)))

    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.iterdir():
        if not old.name.startswith("extra-"):
            old.unlink()
    count = 0
    for n, line in enumerate(queries.read_text(encoding="utf-8").splitlines(), start=1):
        if line.strip():
            (OUT / f"clickbench-q{n:02d}.sql").write_text(line, encoding="utf-8")
            count += 1
    for test in sorted((ROOT / "tests" / "sql").glob("*.test")):
        for n, sql in enumerate(test_file_statements(test), start=1):
            (OUT / f"{test.stem}-{n:02d}.sql").write_text(sql, encoding="utf-8")
            count += 1
    print(f"wrote {count} seeds to {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
