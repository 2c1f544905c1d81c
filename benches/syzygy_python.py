"""kibitz.syzygy against python-chess's chess.syzygy, probe by probe, on the 3- and 4-piece
tables of tests/data/syzygy: the two alternated run by run, medians of the runs, every
answer checked against python-chess's.

Rows: probe_wdl and probe_dtz on random legal positions of every table (kibitz's Rust
tables answer), probe_wdl of a python-chess board (read through its FEN), and the probes
kibitz answers with python-chess's algorithm in Python: 5-piece positions with the
4-piece tables (a capture settles the position, or MissingTableError), and positions with
the side not to move in check.

    python benches/syzygy_python.py [--runs 7] [--positions 300]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

import chess
import chess.syzygy

import kibitz
import kibitz.syzygy

ROOT = Path(__file__).resolve().parent.parent
TABLES = ROOT / "tests" / "data" / "syzygy"


def place(rng: random.Random, symbols: str, valid: bool = True) -> chess.Board:
    while True:
        board = chess.Board(None)
        for symbol, square in zip(symbols, rng.sample(range(64), len(symbols))):
            if symbol in "Pp" and chess.square_rank(square) in (0, 7):
                break
            board.set_piece_at(square, chess.Piece.from_symbol(symbol))
        else:
            board.turn = rng.random() < 0.5
            if board.is_valid() == valid:
                return board


def answer(probe: Callable[[Any], Any], board: Any) -> Any:
    try:
        return probe(board)
    except KeyError as e:
        return type(e).__name__, str(e)


def time_per_probe(probe: Callable[[Any], Any], boards: list[Any]) -> float:
    start = time.perf_counter()
    for board in boards:
        answer(probe, board)
    return (time.perf_counter() - start) / len(boards) * 1e6


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--positions", type=int, default=300)
    args = parser.parse_args()
    rng = random.Random(1)
    names = sorted({p.stem for p in TABLES.glob("*.rtbw")})
    legal = []
    for _ in range(args.positions):
        left, right = rng.choice(names).split("v")
        legal.append(place(rng, left + right.lower()) if rng.random() < 0.5 else place(rng, right + left.lower()))
    five = [place(rng, "Kk" + "".join(rng.choice("QRBNPqrbnp") for _ in range(3))) for _ in range(args.positions)]
    checked = []
    while len(checked) < args.positions:
        board = place(rng, "Kk" + "".join(rng.choice("QRBNPqrbnp") for _ in range(rng.choice([1, 2]))), valid=False)
        if board.was_into_check():
            checked.append(board)
    ours = kibitz.syzygy.open_tablebase(TABLES)
    theirs = chess.syzygy.open_tablebase(str(TABLES))
    rows = [
        ("probe_wdl, 3-4 pieces", "probe_wdl", legal, True),
        ("probe_dtz, 3-4 pieces", "probe_dtz", legal, True),
        ("probe_wdl of a python-chess board", "probe_wdl", legal, False),
        ("probe_wdl, 5 pieces, 4-piece tables", "probe_wdl", five, True),
        ("probe_wdl, side not to move in check", "probe_wdl", checked, True),
    ]
    print(f"{args.positions} positions a row, medians of {args.runs} runs (us a probe)")
    print("| probe | kibitz us | python-chess us | kibitz faster by |")
    print("|---|---|---|---|")
    for label, probe, boards, kibitz_boards in rows:
        mine = [kibitz.Board(b.fen()) for b in boards] if kibitz_boards else boards
        for a, b in zip(mine, boards):
            want = answer(getattr(theirs, probe), b)
            got = answer(getattr(ours, probe), a)
            assert got == want, (label, b.fen(), got, want)
        times: dict[str, list[float]] = {"kibitz": [], "python-chess": []}
        for _ in range(args.runs):
            times["kibitz"].append(time_per_probe(getattr(ours, probe), mine))
            times["python-chess"].append(time_per_probe(getattr(theirs, probe), boards))
        k, p = statistics.median(times["kibitz"]), statistics.median(times["python-chess"])
        print(f"| {label} | {k:.1f} | {p:.1f} | {p / k:.1f}x |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
