"""``kibitz perft [--fen FEN] [--moves M ...] DEPTH [--divide]``: the leaf count (and the
divide) of a position, through the fast generator or, with ``--variant``, the table-driven
variant generator; both print what Stockfish's and Fairy-Stockfish's ``go perft`` print."""

from __future__ import annotations

import argparse
import sys
import time
from typing import Sequence

from kibitz._core import Board, FenError, IllegalMoveError, InvalidMoveError
from kibitz.cli.common import PROGRESS_DEPTH, checked_root, depth_from_args, int_at_least, print_perft, progress
from kibitz.variant import Board as VariantBoard
from kibitz.variant import VariantError


def _board_from_args(fen: str | None, moves: Sequence[str], chess960: bool = False) -> Board:
    board = checked_root(fen, chess960, "perft needs")
    for m in moves:
        board.push_uci(m)
    return board


# The core's perft recursion limit (kibitz._core checks 0..=64); deeper is never useful.
MAX_DEPTH = 64


def cmd_perft(args: argparse.Namespace) -> int:
    """``kibitz perft``: the leaf count (and the divide) of a position to a depth."""
    depth = depth_from_args(args)
    if depth is None or not 0 <= depth <= MAX_DEPTH:
        print(f"kibitz perft: DEPTH between 0 and {MAX_DEPTH} is required", file=sys.stderr)
        return 2
    if args.variant is not None:  # the table-driven generator for chess variants
        return variant_perft(args, depth)
    try:
        board = _board_from_args(args.fen, args.moves or [], args.chess960)
    except (FenError, IllegalMoveError, InvalidMoveError) as e:
        print(f"kibitz perft: {e}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    if depth >= PROGRESS_DEPTH and sys.stderr.isatty():
        # One perft per root move, so the bar can move; the counts are the divide's.
        counts = {}
        for move in progress(sorted(board.divide(1)), unit="move", desc=f"perft {depth}"):
            child = board.copy()
            child.push_uci(move)
            counts[move] = child.perft(depth - 1)
    elif args.divide and depth > 0:
        counts = board.divide(depth)
    else:
        counts = None
    nodes = sum(counts.values()) if counts is not None else board.perft(depth)
    print_perft(nodes, time.perf_counter() - start, counts if args.divide else None)
    return 0


def variant_perft(args: argparse.Namespace, depth: int) -> int:
    """Runs ``kibitz perft --variant ...`` with the already checked DEPTH."""
    if args.chess960:
        print("kibitz perft: --chess960 does not apply with --variant", file=sys.stderr)
        return 2
    try:
        board = VariantBoard(args.variant, args.fen)
        for m in args.moves or []:
            board.push(m)
    except (VariantError, FenError, IllegalMoveError, InvalidMoveError) as e:
        print(f"kibitz perft: {e}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    counts = board.divide(depth) if args.divide and depth > 0 else None
    nodes = sum(counts.values()) if counts is not None else board.perft(depth)
    print_perft(nodes, time.perf_counter() - start, counts)
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "perft",
        help="count the legal move tree of a position (perft / divide)",
        description="Count the leaves of the legal move tree of a position to DEPTH plies (perft), "
        "and with --divide the count below each legal move, as Stockfish's 'go perft' prints them.",
    )
    p.add_argument(
        "depth",
        type=int_at_least(0, "depth"),
        nargs="?",
        metavar="DEPTH",
        help=f"plies to count, 0..{MAX_DEPTH} (required, no default; it may also follow --moves)",
    )
    p.add_argument("--fen", default=None, help="position (default: the start position)")
    p.add_argument("--moves", nargs="*", metavar="M", help="UCI moves to play from the position first")
    p.add_argument("--divide", action="store_true", help="print the count below each legal move")
    p.add_argument("--chess960", action="store_true", help="read the FEN as Chess960 (Shredder/X-FEN castling)")
    p.add_argument(
        "--variant", metavar="NAME|FILE", help="a chess variant: built-in name or definition file (kibitz.variant)"
    )
    p.set_defaults(func=cmd_perft)
