"""perft and divide: counting the legal move tree, natively and in a Python loop.

    python examples/python/perft.py

The counts are the published ones (https://www.chessprogramming.org/Perft_Results); a move
generator that disagrees has a bug, and ``kibitz perft-diff`` finds where (docs/perft.md).
"""

from __future__ import annotations

import time

from kibitz import Board

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def python_perft(board: Board, depth: int) -> int:
    """The natural Python loop: push, recurse, pop."""
    if depth == 0:
        return 1
    nodes = 0
    for move in board.legal_moves:
        board.push(move)
        nodes += python_perft(board, depth - 1)
        board.pop()
    return nodes


def timed(label: str, count: int, seconds: float) -> None:
    print(f"{label:40} {count:>12,} nodes  {count / max(seconds, 1e-9) / 1e6:8.2f} M nodes/s")


def main() -> None:
    start = Board()
    t = time.perf_counter()
    n = start.perft(5)  # native, bulk-counted
    timed("start position, depth 5 (native)", n, time.perf_counter() - t)
    assert n == 4_865_609

    t = time.perf_counter()
    n = python_perft(start, 3)
    timed("start position, depth 3 (Python loop)", n, time.perf_counter() - t)
    assert n == 8_902

    kiwipete = Board(KIWIPETE)
    t = time.perf_counter()
    n = kiwipete.perft(4)
    timed("Kiwipete, depth 4 (native)", n, time.perf_counter() - t)
    assert n == 4_085_603

    # divide: the count below each legal move, as Stockfish's `go perft` prints it.
    counts = kiwipete.divide(2)
    assert sum(counts.values()) == 2_039
    print("Kiwipete divide(2), first moves:", dict(sorted(counts.items())[:5]), "...")


if __name__ == "__main__":
    main()
