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
import statistics
import sys
import time
from typing import Any, Callable, Dict, List

import chess
import chess.variant
from subclass_speed import workload  # the same workload as for subclasses

import kibitz
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
    times: Dict[str, Dict[str, List[float]]] = {r: {"kibitz": [], "python-chess": []} for r in rows}
    for _ in range(args.runs):
        for row, libs in rows.items():
            for lib, f in libs.items():
                start = time.perf_counter()
                f()
                times[row][lib].append((time.perf_counter() - start) / 60)
    print("| variant board | kibitz us a position | python-chess us | kibitz faster by |")
    print("|---|---:|---:|---:|")
    for row, t in times.items():
        k, c = statistics.median(t["kibitz"]), statistics.median(t["python-chess"])
        print(f"| {row} | {k * 1e6:,.0f} | {c * 1e6:,.0f} | {c / k:.1f}x |")
    print(
        f"(kibitz {kibitz.__version__}, python-chess {chess.__version__}; 60 positions each, medians of {args.runs} runs)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
