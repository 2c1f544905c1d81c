"""``kibitz report RECORDS.jsonl -o REPORT.html``: the HTML report of a ``kibitz analyse``
output, without analysing again (kibitz.report; docs/report.md)."""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from typing import Any

from kibitz.cli.outputs import OutputError, check_distinct, check_replaceable


def default_output(records: str) -> str:
    """``club.jsonl`` -> ``club.html`` (beside the records)."""
    root, ext = os.path.splitext(records)
    return (root if ext in (".jsonl", ".json", ".ndjson") else records) + ".html"


def default_title(path: str) -> str:
    """``club.jsonl`` or ``club.pgn.zst`` -> ``club``: the collection's name."""
    name = os.path.basename(path)
    for ext in (".zst", ".gz", ".jsonl", ".ndjson", ".json", ".pgn"):
        if name.endswith(ext) and len(name) > len(ext):
            name = name[: -len(ext)]
    return name or "kibitz analysis report"


def expected_records(records: str) -> str:
    """What ``kibitz report`` wants, said after an error in RECORDS; for a PGN file, the
    command that makes the records from it."""
    if os.path.basename(records).lower().endswith((".pgn", ".pgn.gz", ".pgn.zst")):
        jsonl = os.path.join(os.path.dirname(records), default_title(records) + ".jsonl")
        return (
            "expected the JSON lines that `kibitz analyse` writes; run"
            f" `kibitz analyse {shlex.quote(records)} -o {shlex.quote(jsonl)}` first"
        )
    return "expected the JSON lines that `kibitz analyse -o` writes"


def run(args: argparse.Namespace) -> int:
    from kibitz.report import RecordError, ReportBuilder

    output = args.output or default_output(args.records)
    to_stdout = output == "-"  # as kibitz analyse's -o -: the page on standard output
    try:
        if not to_stdout:
            check_distinct([("the records", args.records)], [("the report", output)])
            check_replaceable("the report", output)
    except OutputError as e:
        print(f"kibitz report: {e}", file=sys.stderr)
        return 2
    builder = ReportBuilder(args.title or default_title(args.records))
    try:
        builder.read(args.records)
    except RecordError as e:
        print(f"kibitz report: {e}; {expected_records(args.records)}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"kibitz report: cannot read {args.records}: {e.strerror or e}", file=sys.stderr)
        return 2
    try:
        if to_stdout:
            sys.stdout.write(builder.html())
            sys.stdout.flush()
            n = len(builder.games)
        else:
            n = builder.write(output)
    except OSError as e:
        print(f"kibitz report: cannot write {output}: {e.strerror or e}", file=sys.stderr)
        return 2
    except (ValueError, OverflowError) as e:  # figures the checks of each record let through
        print(f"kibitz report: the records cannot be drawn ({e}); {expected_records(args.records)}", file=sys.stderr)
        return 2
    print(f"kibitz report: {n} games -> {'standard output' if to_stdout else output}", file=sys.stderr)
    return 0


def add_parser(sub: Any) -> None:
    """Registers ``kibitz report`` (see kibitz.cli.SUBCOMMAND_MODULES)."""
    p = sub.add_parser(
        "report",
        help="HTML report of a `kibitz analyse` output (players, openings, graphs, mistakes)",
        description="Writes one self-contained HTML page from the JSON records of `kibitz analyse`: "
        "a table per player, results, openings, and each game's evaluation graph, board "
        "and mistakes. Nothing is analysed again.",
    )
    p.add_argument("records", metavar="RECORDS.jsonl", help="the output of `kibitz analyse -o`")
    p.add_argument(
        "-o",
        "--output",
        metavar="REPORT.html",
        default=None,
        help="where the page goes (default: RECORDS with .html; - for standard output)",
    )
    p.add_argument(
        "--title", default=None, help="the page's title (default: the name of RECORDS without its extension)"
    )
    p.set_defaults(func=run)
