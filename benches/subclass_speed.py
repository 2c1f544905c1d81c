"""How fast a Board subclass that overrides python-chess's building blocks runs, against the
same subclass of python-chess's Board (and a plain kibitz Board for scale).

On such a subclass kibitz replaces the methods built on the overrides by Python ones that
ask the board's own methods, as python-chess's do (python/kibitz/_hooks.py), so these
boards run partly at Python speed. The subclasses are the four of the differential test
(tests/python/hooked_subclasses.py), each written once for both libraries: king capture
(check ignored, the game ends when a king is taken), no captures, queen loss (the game lost
with the queen, twenty quiet plies drawn) and no knights (knights left out of the
pseudo-legal moves).

The workload, per position of 60 random games' positions: the legal move list, ``outcome()``,
the SAN of every legal move, and a push/pop of each. Medians of ``--runs`` timed rounds,
the libraries alternating within each round.

    python benches/subclass_speed.py [--runs 7]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable, Dict, List

import chess

import kibitz

# The subclasses are the ones the differential test compares with python-chess's.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "python"))
from hooked_subclasses import VARIANTS  # noqa: E402


def positions(n: int) -> List[str]:
    rng = random.Random(7)
    out = []
    while len(out) < n:
        board = chess.Board()
        for _ in range(rng.randrange(4, 60)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if not board.is_game_over():
            out.append(board.fen())
    return out


def workload(cls: type, fens: List[str]) -> Callable[[], Any]:
    boards = [cls(f) for f in fens]

    def run() -> Any:
        for b in boards:
            moves = list(b.legal_moves)
            b.outcome()
            for m in moves:
                b.san(m)
                b.push(m)
                b.pop()

    return run


def report(rows: Dict[str, Dict[str, Callable[[], Any]]], runs: int, positions: int, label: str, what: str) -> None:
    """Times each row's two workloads ``runs`` times, the libraries alternating within each
    round, and prints the medians per position as a Markdown table."""
    times: Dict[str, Dict[str, List[float]]] = {r: {"kibitz": [], "python-chess": []} for r in rows}
    for _ in range(runs):
        for row, libs in rows.items():
            for lib, f in libs.items():
                start = time.perf_counter()
                f()
                times[row][lib].append((time.perf_counter() - start) / positions)
    print(f"| {label} | kibitz us a position | python-chess us | kibitz faster by |")
    print("|---|---:|---:|---:|")
    for row, t in times.items():
        k, c = statistics.median(t["kibitz"]), statistics.median(t["python-chess"])
        print(f"| {row} | {k * 1e6:,.0f} | {c * 1e6:,.0f} | {c / k:.1f}x |")
    print(f"(kibitz {kibitz.__version__}, python-chess {chess.__version__}; {what}, medians of {runs} runs)")


def main(argv: List[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args(argv)
    fens = positions(60)
    rows: Dict[str, Dict[str, Callable[[], Any]]] = {}
    for name, make in VARIANTS.items():
        rows[name.replace("_", " ")] = {
            "kibitz": workload(make(kibitz), fens),
            "python-chess": workload(make(chess), fens),
        }
    rows["plain Board (no overrides)"] = {
        "kibitz": workload(kibitz.Board, fens),
        "python-chess": workload(chess.Board, fens),
    }
    report(rows, args.runs, len(fens), "subclass", "60 positions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
