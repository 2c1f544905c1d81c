"""``kibitz bench [DEPTH]``: the engine's bench, as Stockfish's ``bench``: 40 fixed
positions, each searched alone to DEPTH (default 9) by a fresh engine, a line each, then the
total time, the nodes searched and the nodes a second. The node total is the search's
signature: every build of one search gives the same count on every machine, so it tells
whether two installs play the same search. The UCI command ``bench [DEPTH]`` prints the same
(``kibitz.uci.console``)."""

from __future__ import annotations

import argparse
import sys

from kibitz._core import BENCH_DEPTH, MAX_DEPTH
from kibitz.cli.common import int_at_least
from kibitz.uci import console


def cmd_bench(args: argparse.Namespace) -> int:
    """``kibitz bench``: runs the bench to the depth asked."""
    if not 1 <= args.depth <= MAX_DEPTH:
        print(f"kibitz bench: DEPTH must be between 1 and {MAX_DEPTH}, not {args.depth}", file=sys.stderr)
        return 2
    console.bench(args.depth, lambda line: print(line, flush=True))
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "bench",
        help="search the bench positions to a fixed depth: the search's signature and speed",
        description="Search 40 fixed positions, each alone to DEPTH with a fresh engine (16 MB table, one "
        "thread), as Stockfish's 'bench'. 'Nodes searched' is the search's signature: the same for every "
        "build of one search, on every machine. 'Nodes/second' is this machine's speed.",
    )
    p.add_argument(
        "depth",
        type=int_at_least(1, "depth"),
        nargs="?",
        default=BENCH_DEPTH,
        metavar="DEPTH",
        help=f"plies to search each position, 1..{MAX_DEPTH} (default {BENCH_DEPTH}, the signature's depth)",
    )
    p.set_defaults(func=cmd_bench)
