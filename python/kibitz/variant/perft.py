"""``kibitz perft --variant NAME|FILE``: perft and divide through the variant generator.

Called from ``kibitz.cli`` when ``--variant`` is given; prints what ``kibitz perft`` prints
for chess (and Fairy-Stockfish for ``go perft``): ``move: count`` lines sorted, a blank
line, then ``Nodes searched: N``.
"""

from __future__ import annotations

import argparse
import sys
import time

from kibitz.variant import Board, FenError, IllegalMoveError, InvalidMoveError, VariantError


def cmd_perft(args: argparse.Namespace, depth: int) -> int:
    """Runs ``kibitz perft --variant ...`` with the already checked DEPTH."""
    if args.chess960:
        print("kibitz perft: --chess960 does not apply with --variant", file=sys.stderr)
        return 2
    try:
        board = Board(args.variant, args.fen)
        for m in args.moves or []:
            board.push(m)
    except (VariantError, FenError, IllegalMoveError, InvalidMoveError) as e:
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
