"""Cost of playing chess through the Python API: kibitz.Board against bulletchess and
python-chess, each in its natural idiom.

All three run the same recursive perft written in Python, one push/pop pair per node and no
bulk counting, so every node crosses the Python boundary:

    kibitz, python-chess: for m in board.legal_moves:   board.push(m);  ...; board.pop()
    bulletchess 0.4.0:    for m in board.legal_moves(): board.apply(m); ...; board.undo()

Positions: the start position to depth 4 and Kiwipete to depth 3 (counts published at
https://www.chessprogramming.org/Perft_Results; each run asserts its count before its time is
used). The libraries run in alternation, ``--rounds`` times each (the machine is shared and
noisy), and the ratios are of median times. Targets: kibitz at least 1.5x
bulletchess and at least 20x python-chess on both positions; the script exits with status 1
when a measured ratio is lower. bulletchess is optional: without it that comparison is
skipped, saying so. To install it on Python 3.11, see the README's speed section.

kibitz's ``push`` of a listed move leaves it pending until the board is next read, and a
``pop`` that comes first only drops it: the leaves of the loop above, which read nothing,
cost no make and no unmake. The second table (``checks``) is the same loop counting the
checks among the leaves (published counts too), so that every leaf reads its position
(``board.is_check()``; bulletchess: ``board in CHECK``) and kibitz makes every move: the
cost of a loop whose leaves look at the board. It has no target and never fails the run.

    python benches/python_perft.py [--rounds 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from typing import Any, Callable, Dict, List, Tuple

import chess

import kibitz

try:
    import bulletchess
except ImportError:  # optional: the comparison is skipped, saying so
    bulletchess = None

STARTING_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE_FEN = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

# (name, fen, depth, published leaf count)
POSITIONS = [
    ("startpos", STARTING_FEN, 4, 197_281),
    ("kiwipete", KIWIPETE_FEN, 3, 97_862),
]

# (name, fen, depth, published count of checks among the leaves)
CHECK_POSITIONS = [
    ("startpos", STARTING_FEN, 4, 469),
    ("kiwipete", KIWIPETE_FEN, 3, 993),
]

# The targets: kibitz / bulletchess >= 1.5, kibitz / python-chess >= 20.
REQUIRED = {"bulletchess": 1.5, "python-chess": 20.0}


def perft_kibitz(board: kibitz.Board, depth: int) -> int:
    if depth == 0:
        return 1
    nodes = 0
    for move in board.legal_moves:
        board.push(move)
        nodes += perft_kibitz(board, depth - 1)
        board.pop()
    return nodes


def perft_python_chess(board: chess.Board, depth: int) -> int:
    if depth == 0:
        return 1
    nodes = 0
    for move in board.legal_moves:
        board.push(move)
        nodes += perft_python_chess(board, depth - 1)
        board.pop()
    return nodes


def perft_bulletchess(board: Any, depth: int) -> int:
    if depth == 0:
        return 1
    nodes = 0
    for move in board.legal_moves():
        board.apply(move)
        nodes += perft_bulletchess(board, depth - 1)
        board.undo()
    return nodes


def checks_kibitz(board: kibitz.Board, depth: int) -> int:
    if depth == 0:
        return 1 if board.is_check() else 0
    checks = 0
    for move in board.legal_moves:
        board.push(move)
        checks += checks_kibitz(board, depth - 1)
        board.pop()
    return checks


def checks_python_chess(board: chess.Board, depth: int) -> int:
    if depth == 0:
        return 1 if board.is_check() else 0
    checks = 0
    for move in board.legal_moves:
        board.push(move)
        checks += checks_python_chess(board, depth - 1)
        board.pop()
    return checks


def checks_bulletchess(board: Any, depth: int) -> int:
    if depth == 0:
        return 1 if board in bulletchess.CHECK else 0
    checks = 0
    for move in board.legal_moves():
        board.apply(move)
        checks += checks_bulletchess(board, depth - 1)
        board.undo()
    return checks


def timings(runs: Dict[str, Callable[[], int]], rounds: int, expected: int, what: str) -> Dict[str, List[float]]:
    """Seconds of each library's runs, the libraries alternated; every run's count checked."""
    times: Dict[str, List[float]] = {lib: [] for lib in runs}
    for _ in range(rounds):
        for lib, run in runs.items():
            start = time.perf_counter()
            count = run()
            times[lib].append(time.perf_counter() - start)
            assert count == expected, f"{lib} {what} = {count}, expected {expected}"
    return times


def paired(times: Dict[str, List[float]], lib: str) -> str:
    """The per-round ratios of `lib`'s time to kibitz's (the two runs of a round follow each
    other): their median and range, which show how much of the spread is the machine's."""
    ratios = sorted(t / k for t, k in zip(times[lib], times["kibitz"]))
    return (
        f"  per round, kibitz / {lib}: median {statistics.median(ratios):.2f}x, range {ratios[0]:.2f}-{ratios[-1]:.2f}x"
    )


# Each loop's three idioms: kibitz's, python-chess's, bulletchess's.
Loops = Tuple[Callable[[Any, int], int], Callable[[Any, int], int], Callable[[Any, int], int]]
PERFT: Loops = (perft_kibitz, perft_python_chess, perft_bulletchess)
CHECKS: Loops = (checks_kibitz, checks_python_chess, checks_bulletchess)


def engines(fen: str, depth: int, loops: Loops) -> Dict[str, Callable[[], int]]:
    ours, theirs, bullet = loops
    # bulletchess runs right after kibitz in each round, so that each round's pair meets the
    # same machine.
    runs: Dict[str, Callable[[], int]] = {"kibitz": lambda: ours(kibitz.Board(fen), depth)}
    if bulletchess is not None:
        runs["bulletchess"] = lambda: bullet(bulletchess.Board.from_fen(fen), depth)
    runs["python-chess"] = lambda: theirs(chess.Board(fen), depth)
    return runs


def position_rows(
    name: str, fen: str, depth: int, count: int, leaves: int, loops: Loops, rounds: int, what: str
) -> Dict[str, float]:
    """Times one loop on one position for every library, prints its rows (the count the runs
    must give, leaves a second, the ratio) and returns each library's time over kibitz's."""
    runs = engines(fen, depth, loops)
    times = timings(runs, rounds, count, what)
    med = {lib: statistics.median(t) for lib, t in times.items()}
    ratios = {lib: med[lib] / med["kibitz"] for lib in runs}
    for lib in runs:
        shown = "" if lib == "kibitz" else f"{ratios[lib]:8.2f}x"
        print(f"{name:<10} {lib:<13} {depth:>5} {count:>9} {med[lib]:>9.3f} {leaves / med[lib]:>11,.0f} {shown:>10}")
    if "bulletchess" in times:
        print(paired(times, "bulletchess"))
    return ratios


def main(argv: List[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="runs per library, alternating (median kept)")
    parser.add_argument("--no-check", action="store_true", help="report only, never exit 1")
    args = parser.parse_args(argv)
    if bulletchess is None:
        print("bulletchess is not installed: skipping the kibitz / bulletchess comparison")

    header = (
        f"{'position':<10} {'library':<13} {'depth':>5} {'nodes':>9} {'median s':>9} {'nodes/s':>11} {'kibitz is':>10}"
    )
    print(header)
    print("-" * len(header))
    ok = True
    for name, fen, depth, expected in POSITIONS:
        ratios = position_rows(name, fen, depth, expected, expected, PERFT, args.rounds, f"{name} perft({depth})")
        for lib, required in REQUIRED.items():
            if lib in ratios and ratios[lib] < required:
                ok = False
                print(f"  kibitz / {lib} = {ratios[lib]:.2f}x on {name}: below the required {required:g}x")
    print("\nchecks among the leaves (every leaf reads its position; no target):")
    print(
        f"{'position':<10} {'library':<13} {'depth':>5} {'checks':>9} {'median s':>9} {'leaves/s':>11} {'kibitz is':>10}"
    )
    print("-" * len(header))
    for (name, fen, depth, checks), (_, _, _, leaves) in zip(CHECK_POSITIONS, POSITIONS):
        position_rows(name, fen, depth, checks, leaves, CHECKS, args.rounds, f"{name} checks at depth {depth}")
    print("\nall ratios meet the targets" if ok else "\nSOME RATIOS ARE BELOW TARGET")
    return 0 if ok or args.no_check else 1


if __name__ == "__main__":
    sys.exit(main())
