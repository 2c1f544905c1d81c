"""Turns what ``match.py`` printed (its stdout and stderr, captured to a file) into the log kept
in ``benches/results/``: match.py's header with the openings named by file rather than by a path
of the machine that played, for a sequential test a line giving its bounds (match.py's header
does not, and a run stopped by hand never prints its closing ``SPRT`` line, so
``tools/sprt_pool.py`` and ``tests/python/test_sprt_pool.py`` read them here), a line saying
what was measured, the game lines, and match.py's closing summary when the run ended by
itself. A Ctrl-C traceback (a run stopped by hand) is left out.

    python tools/record_log.py RAW OUT --sprt ELO0 ELO1 --comment "what was measured, how it ended"
    python tools/record_log.py RAW OUT --comment "..."     # a match without a sequential test

Refuses (exit 2) to write a log that still names a path of the machine (anything under /),
or one with no game line.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

# match.py's closing summary lines (its `report`).
SUMMARY = (
    "Score of ",
    "Elo difference:",
    "Pentanomial (",
    "SPRT elo0=",
    "Terminations:",
    "Average game:",
)
FAULTS = re.compile(r"^\S+: illegal moves \d+, time forfeits \d+")
OPENINGS = re.compile(r"openings (\S*/)?(\S+\.(?:pgn|epd|fen))")
ABSOLUTE = re.compile(r"(?:^|[\s=(\"'])/[A-Za-z0-9_.-]+/")


def record(raw: str, sprt: tuple[str, str] | None, comment: str) -> str:
    lines = raw.splitlines()
    header = [l for l in lines if l.startswith("# ")][:1]
    if not header:
        raise ValueError("no match.py header line ('# A vs B ...')")
    head = OPENINGS.sub(lambda m: f"openings {m.group(2)}", header[0])
    out = [head]
    if sprt is not None:
        out.append(f"# sequential test: --sprt {sprt[0]} {sprt[1]}")
    out.append("# " + " ".join(comment.split()))
    games = [l for l in lines if l.startswith("game ")]
    if not games:
        raise ValueError("no game lines")
    out += games
    tail = [l for l in lines if l.startswith(SUMMARY) or FAULTS.match(l)]
    if tail:
        out += [""] + tail
    text = "\n".join(out) + "\n"
    bad = [l for l in text.splitlines() if ABSOLUTE.search(l)]
    if bad:
        raise ValueError(f"a path of this machine is left in: {bad[0]!r}")
    return text


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("raw", type=Path, help="what match.py printed")
    ap.add_argument("out", type=Path, help="the log to write (benches/results/sprt-NAME-TC.log)")
    ap.add_argument("--sprt", nargs=2, metavar=("ELO0", "ELO1"), help="the bounds of the sequential test, if any")
    ap.add_argument("--comment", required=True, help="what was measured and how the run ended")
    args = ap.parse_args(argv)
    try:
        sprt = (args.sprt[0], args.sprt[1]) if args.sprt else None
        text = record(args.raw.read_text(encoding="utf-8"), sprt, args.comment)
    except ValueError as e:
        print(f"record_log: {args.raw}: {e}", file=sys.stderr)
        return 2
    args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
