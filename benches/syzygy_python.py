"""kibitz.syzygy against python-chess's chess.syzygy, probe by probe, on the 3- and 4-piece
tables of tests/data/syzygy: the two alternated run by run, medians of the runs, every
answer checked against python-chess's.

Rows: probe_wdl and probe_dtz on random legal positions of every table (kibitz's Rust
tables answer), probe_wdl of a python-chess board (read through its FEN), and the probes
kibitz answers with python-chess's algorithm in Python: 5-piece positions with the
4-piece tables (a capture settles the position, or MissingTableError), and positions with
the side not to move in check. Then the tables of variants (tests/data/syzygy-variants),
which both probe in Python: Atomic (3-4 pieces) and Antichess (2-3 pieces), kibitz's
variant boards against python-chess's.

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
import chess.variant

import kibitz
import kibitz.syzygy
import kibitz.variant.boards

ROOT = Path(__file__).resolve().parent.parent
TABLES = ROOT / "tests" / "data" / "syzygy"
VARIANT_TABLES = ROOT / "tests" / "data" / "syzygy-variants"


def place(rng: random.Random, symbols: str, valid: bool = True, board_class: Any = chess.Board) -> chess.Board:
    while True:
        board = board_class.empty()
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
    standard = (ours, theirs, kibitz.Board)
    variants = {}
    for name, directory, their_class, our_class in (
        ("atomic", "atomic", chess.variant.AtomicBoard, kibitz.variant.boards.AtomicBoard),
        ("antichess", "giveaway", chess.variant.AntichessBoard, kibitz.variant.boards.AntichessBoard),
    ):
        names = sorted({p.stem for p in (VARIANT_TABLES / directory).iterdir() if p.suffix[2:] == "tbw"})
        boards = []
        for _ in range(args.positions):
            left, right = rng.choice(names).split("v")
            if rng.random() < 0.5:
                left, right = right, left
            boards.append(place(rng, left + right.lower(), board_class=their_class))
        variants[name] = (
            boards,
            (
                kibitz.syzygy.open_tablebase(VARIANT_TABLES / directory, VariantBoard=our_class),
                chess.syzygy.open_tablebase(str(VARIANT_TABLES / directory), VariantBoard=their_class),
                our_class,
            ),
        )
    rows = [
        ("probe_wdl, 3-4 pieces", "probe_wdl", legal, True, standard),
        ("probe_dtz, 3-4 pieces", "probe_dtz", legal, True, standard),
        ("probe_wdl of a python-chess board", "probe_wdl", legal, False, standard),
        ("probe_wdl, 5 pieces, 4-piece tables", "probe_wdl", five, True, standard),
        ("probe_wdl, side not to move in check", "probe_wdl", checked, True, standard),
        ("atomic probe_wdl, 3-4 pieces", "probe_wdl", *variants["atomic"][:1], True, variants["atomic"][1]),
        ("atomic probe_dtz, 3-4 pieces", "probe_dtz", *variants["atomic"][:1], True, variants["atomic"][1]),
        ("antichess probe_wdl, 2-3 pieces", "probe_wdl", *variants["antichess"][:1], True, variants["antichess"][1]),
        ("antichess probe_dtz, 2-3 pieces", "probe_dtz", *variants["antichess"][:1], True, variants["antichess"][1]),
    ]
    print(f"{args.positions} positions a row, medians of {args.runs} runs (us a probe)")
    print("| probe | kibitz us | python-chess us | kibitz faster by |")
    print("|---|---|---|---|")
    for label, probe, boards, kibitz_boards, (ours, theirs, our_class) in rows:
        mine = [our_class(b.fen()) for b in boards] if kibitz_boards else boards
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
