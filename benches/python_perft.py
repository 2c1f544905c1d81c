"""Cost of playing chess through the Python API: kibitz.Board against python-chess.

Both boards run the same recursive perft written in Python, one ``push``/``pop`` pair
per node and no bulk counting, so every node crosses the Python boundary:

    kibitz:       board.legal_moves() -> list[str], board.push_uci(m), board.pop()
    python-chess: board.legal_moves,    board.push_uci(m.uci()), board.pop()

Each run asserts the published node count (chessprogramming.org/Perft_Results) before
its time is reported. The issue asks for kibitz to be at least 20x faster than
python-chess here; the script exits with status 1 when the measured ratio is lower.

    python benches/python_perft.py [--min-ratio 20] [--repeat 1]
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Callable

import chess

import kibitz

STARTING_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE_FEN = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

# (name, fen, depth, published leaf count)
POSITIONS = [
    ("startpos", STARTING_FEN, 4, 197_281),
    ("kiwipete", KIWIPETE_FEN, 3, 97_862),
]

# The requirement: kibitz through Python at least 20x python-chess.
REQUIRED_RATIO = 20.0


def perft_kibitz(board: kibitz.Board, depth: int) -> int:
    if depth == 0:
        return 1
    nodes = 0
    for move in board.legal_moves():
        board.push_uci(move)
        nodes += perft_kibitz(board, depth - 1)
        board.pop()
    return nodes


def perft_python_chess(board: chess.Board, depth: int) -> int:
    if depth == 0:
        return 1
    nodes = 0
    for move in list(board.legal_moves):
        board.push_uci(move.uci())
        nodes += perft_python_chess(board, depth - 1)
        board.pop()
    return nodes


def timed(run: Callable[[], int], repeat: int) -> tuple[int, float]:
    """Node count and best wall time over ``repeat`` runs."""
    best = float("inf")
    nodes = 0
    for _ in range(repeat):
        start = time.perf_counter()
        nodes = run()
        best = min(best, time.perf_counter() - start)
    return nodes, best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--min-ratio", type=float, default=REQUIRED_RATIO,
                        help="fail when kibitz is less than this many times faster (0: never)")
    parser.add_argument("--repeat", type=int, default=1, help="runs per engine, best time kept")
    args = parser.parse_args(argv)

    header = f"{'position':<10} {'engine':<13} {'depth':>5} {'nodes':>9} {'seconds':>9} {'nodes/s':>11} {'ratio':>7}"
    print(header)
    print("-" * len(header))
    ratios = []
    for name, fen, depth, expected in POSITIONS:
        k_nodes, k_time = timed(lambda: perft_kibitz(kibitz.Board(fen), depth), args.repeat)
        c_nodes, c_time = timed(lambda: perft_python_chess(chess.Board(fen), depth), args.repeat)
        assert k_nodes == expected, f"kibitz {name} perft({depth}) = {k_nodes}, expected {expected}"
        assert c_nodes == expected, f"python-chess {name} perft({depth}) = {c_nodes}, expected {expected}"
        ratio = c_time / k_time
        ratios.append(ratio)
        for engine, nodes, seconds, shown in (
            ("kibitz", k_nodes, k_time, f"{ratio:6.1f}x"),
            ("python-chess", c_nodes, c_time, f"{1.0:6.1f}x"),
        ):
            print(f"{name:<10} {engine:<13} {depth:>5} {nodes:>9} {seconds:>9.3f} {nodes / seconds:>11,.0f} {shown:>7}")

    worst = min(ratios)
    verdict = "ok" if worst >= args.min_ratio else "TOO SLOW"
    print(f"\nkibitz / python-chess speed ratio: worst {worst:.1f}x (required {args.min_ratio:g}x): {verdict}")
    return 0 if worst >= args.min_ratio else 1


if __name__ == "__main__":
    sys.exit(main())
