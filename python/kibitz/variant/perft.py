"""``kibitz perft --variant NAME|FILE``: perft and divide through the variant generator.

Called from ``kibitz.cli`` when ``--variant`` is given; prints what ``kibitz perft`` prints
for chess (and Fairy-Stockfish for ``go perft``): ``move: count`` lines sorted, a blank
line, then ``Nodes searched: N``.
"""

from __future__ import annotations

import argparse
import sys
import time

from kibitz.cli import print_perft
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
    counts = board.divide(depth) if args.divide and depth > 0 else None
    nodes = sum(counts.values()) if counts is not None else board.perft(depth)
    print_perft(nodes, time.perf_counter() - start, counts)
    return 0
