"""The ``kibitz`` command line.

``kibitz perft [--fen FEN] [--moves M ...] DEPTH [--divide]`` counts the legal move tree.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Sequence

from kibitz._core import Board, FenError, IllegalMoveError, InvalidMoveError


def _board_from_args(fen: str | None, moves: Sequence[str], chess960: bool = False) -> Board:
    board = Board(fen, chess960=chess960)
    for m in moves:
        board.push_uci(m)
    return board


def depth_from_args(args: argparse.Namespace) -> int | None:
    """DEPTH, also when it follows ``--moves`` (``--moves e2e4 e7e5 3``): argparse gives the
    trailing number to the move list, and UCI moves are never all digits, so take it back."""
    moves = args.moves or []
    if args.depth is None and moves and moves[-1].isdigit():
        args.depth = int(moves.pop())
        args.moves = moves
    depth: int | None = args.depth
    return depth


# The core's perft recursion limit (kibitz._core checks 0..=64); deeper is never useful.
MAX_DEPTH = 64


def cmd_perft(args: argparse.Namespace) -> int:
    depth = depth_from_args(args)
    if depth is None or not 0 <= depth <= MAX_DEPTH:
        print(f"kibitz perft: DEPTH between 0 and {MAX_DEPTH} is required", file=sys.stderr)
        return 2
    if args.variant is not None:  # the table-driven generator for chess variants
        from kibitz.variant.perft import cmd_perft as variant_perft

        return variant_perft(args, depth)
    try:
        board = _board_from_args(args.fen, args.moves or [], args.chess960)
    except (FenError, IllegalMoveError, InvalidMoveError) as e:
        print(f"kibitz perft: {e}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    if args.divide and depth > 0:
        counts = board.divide(depth)
        nodes = sum(counts.values())
        for move in sorted(counts):
            print(f"{move}: {counts[move]}")
        print()
    else:
        nodes = board.perft(depth)
    secs = time.perf_counter() - start
    nps = nodes / secs if secs > 0 else float("inf")
    print(f"Nodes searched: {nodes}")
    print(f"Time: {secs:.3f} s ({nps:,.0f} nodes/s)")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="kibitz",
        description="kibitz: a fast, correct chess engine (Rust core, Python package).",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("perft", help="count the legal move tree of a position (perft / divide)")
    p.add_argument("depth", type=int, nargs="?", metavar="DEPTH", help="plies to count")
    p.add_argument("--fen", default=None, help="position (default: the start position)")
    p.add_argument("--moves", nargs="*", metavar="M", help="UCI moves to play from the position first")
    p.add_argument("--divide", action="store_true", help="print the count below each legal move")
    p.add_argument("--chess960", action="store_true", help="read the FEN as Chess960 (Shredder/X-FEN castling)")
    p.add_argument("--variant", metavar="NAME|FILE", help="a chess variant: built-in name or definition file (kibitz.variant)")
    p.set_defaults(func=cmd_perft)

    # Other subcommands register themselves from their own modules: each module has an
    # ``add_parser(sub)`` that adds its parser and sets ``func``.
    for register in _subcommand_registrars():
        register(sub)
    return parser


def _subcommand_registrars() -> list:  # type: ignore[type-arg]
    """The ``add_parser`` functions of the modules that provide further subcommands."""
    registrars = []
    for name in SUBCOMMAND_MODULES:
        module = __import__(f"kibitz.{name}", fromlist=["add_parser"])
        registrars.append(module.add_parser)
    return registrars


# Modules under kibitz/ that contribute subcommands (each defines add_parser(sub)).
SUBCOMMAND_MODULES: list[str] = ["perftdiff", "uci", "book", "play"]


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        # Bare `kibitz` is the UCI engine (what GUIs and bots run).
        from kibitz.uci import run_uci

        return run_uci()
    if getattr(args, "depth", None) is not None and args.depth < 0:
        parser.error("DEPTH must be >= 0")
    result: int = args.func(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
