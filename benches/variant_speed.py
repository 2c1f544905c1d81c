"""How fast python-chess's variant boards run on kibitz (``kibitz.variant.boards``, what
``chess.variant`` is under ``kibitz.compat``) against python-chess's own ``chess.variant``.

The positions come from random games of each variant played with python-chess (60 a
variant, game over or not). The workload is ``benches/subclass_speed.py``'s: per position the
legal move list, ``outcome()``, the SAN of every legal move and a push/pop of each. Medians
of ``--runs`` timed rounds, the libraries alternating within each round.

    python benches/variant_speed.py [--runs 7]
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any, Callable, Dict, List

import chess
import chess.variant
from subclass_speed import report, workload  # the same workload and table as for subclasses

from kibitz.variant import boards

NAMES = [
    "SuicideBoard",
    "GiveawayBoard",
    "AntichessBoard",
    "AtomicBoard",
    "KingOfTheHillBoard",
    "RacingKingsBoard",
    "HordeBoard",
    "ThreeCheckBoard",
    "CrazyhouseBoard",
]


def positions(cls: Any, n: int) -> List[str]:
    rng = random.Random(11)
    out = []
    while len(out) < n:
        board = cls()
        for _ in range(rng.randrange(2, 60)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        out.append(board.fen())
    return out


def main(argv: List[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args(argv)
    rows: Dict[str, Dict[str, Callable[[], Any]]] = {}
    for name in NAMES:
        fens = positions(getattr(chess.variant, name), 60)
        rows[name] = {
            "kibitz": workload(getattr(boards, name), fens),
            "python-chess": workload(getattr(chess.variant, name), fens),
        }
    report(rows, args.runs, 60, "variant board", "60 positions each")
    return 0


if __name__ == "__main__":
    sys.exit(main())
