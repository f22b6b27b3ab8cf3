"""What a benchmark run writes (bench/peers/run.py, bench/tpch/run.py): the command that made it,
as it can be run again from the repository root, its start time, and the .json / .md / .svg trio
made from one document."""

import datetime
import json
import os
import shlex
import sys


def command_line(repo, script, argv):
    """The run's command, paths inside the repository made relative to it."""
    def rel(path):
        return os.path.relpath(path, repo) if path.startswith(repo) else path
    python = rel(sys.executable) if sys.executable.startswith(repo) else "python"
    return " ".join(shlex.quote(a) for a in [python, rel(os.path.abspath(script))] +
                    [rel(a) for a in (argv if argv is not None else sys.argv[1:])])


def started_text(started):
    return datetime.datetime.fromtimestamp(started, datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def write(base, doc, render_markdown, render_svg):
    """Writes base.json, then base.md and base.svg made from the document as the JSON holds it;
    returns that document."""
    doc = json.loads(json.dumps(doc))
    with open(base + ".json", "w") as f:
        json.dump(doc, f, indent=1)
    write_renderings(base, doc, render_markdown, render_svg)
    return doc


def write_renderings(base, doc, render_markdown, render_svg):
    with open(base + ".md", "w") as f:
        f.write(render_markdown(doc))
    with open(base + ".svg", "w") as f:
        f.write(render_svg(doc))


def load_saved(path):
    """A saved run's document (its .json) and the base name its renderings are written under."""
    with open(path) as f:
        doc = json.load(f)
    return (path[:-5] if path.endswith(".json") else path), doc


def add_report_arguments(parser):
    """--conditions and --render, shared by the benchmarks' command lines."""
    parser.add_argument("--conditions", default=None,
                        help="a sentence on how the machine was shared, printed in the report")
    parser.add_argument("--render", metavar="JSON", default=None,
                        help="run nothing: write the .md and .svg again from a run's .json")
