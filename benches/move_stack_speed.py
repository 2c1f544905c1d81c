"""What reading a game's history costs: ``len(board.move_stack)``, ``board.move_stack[-1]``
and ``board.peek()`` at several game lengths, kibitz against python-chess in the same
process (python-chess keeps its stack as a list attribute; kibitz keeps the list it handed
out and brings it up to date with the board's history at each read, and ``peek()`` reads
the last move alone). ``push; move_stack[-1]; pop`` measures a read after the history
changed (the list gains an item and loses it again), as a search or a bot reads it.

The boards are random games of python-chess, replayed on kibitz. Medians of ``--runs``
rounds, the libraries alternating within each round; each sample repeats the operation
until it has taken at least 20 ms.

    python benches/move_stack_speed.py [--runs 7]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any, Callable

import chess

import kibitz

PLIES = (20, 60, 120, 240)


def random_game(plies: int, seed: int) -> chess.Board:
    """A python-chess board after up to ``plies`` random moves (a game that ends sooner is
    played again from another seed)."""
    while True:
        rng = random.Random(seed)
        board = chess.Board()
        while len(board.move_stack) < plies and not board.is_game_over(claim_draw=False):
            board.push(rng.choice(list(board.legal_moves)))
        if len(board.move_stack) == plies:
            return board
        seed += 1000


def per_call_us(op: Callable[[], Any]) -> float:
    """Microseconds a call, repeated to at least 20 ms."""
    n = 1
    while True:
        start = time.perf_counter()
        for _ in range(n):
            op()
        took = time.perf_counter() - start
        if took >= 0.02:
            return took / n * 1e6
        n *= 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    print(f"kibitz {kibitz.__version__}, python-chess {chess.__version__}; medians of {args.runs} rounds, us a call")
    print(f"{'plies':>5}  {'operation':<26} {'kibitz':>8} {'python-chess':>13} {'ratio':>7}")
    for plies in PLIES:
        theirs = random_game(plies, plies)
        ours = kibitz.Board.from_chess(theirs)
        assert [m.uci() for m in ours.move_stack] == [m.uci() for m in theirs.move_stack]
        assert ours.peek().uci() == theirs.peek().uci()
        # A legal move of the position, each library's own object.
        move = {id(theirs): next(iter(theirs.legal_moves)), id(ours): next(iter(ours.legal_moves))}
        ops: dict[str, Callable[[Any], Any]] = {
            "len(move_stack)": lambda b: len(b.move_stack),
            "move_stack[-1]": lambda b: b.move_stack[-1],
            "peek()": lambda b: b.peek(),
            "push; move_stack[-1]; pop": lambda b: (b.push(move[id(b)]), b.move_stack[-1], b.pop()),
        }
        for name, op in ops.items():
            times: dict[str, list[float]] = {"kibitz": [], "python-chess": []}
            for _ in range(args.runs):
                times["kibitz"].append(per_call_us(lambda: op(ours)))
                times["python-chess"].append(per_call_us(lambda: op(theirs)))
            k, p = statistics.median(times["kibitz"]), statistics.median(times["python-chess"])
            print(f"{plies:>5}  {name:<26} {k:>8.3f} {p:>13.3f} {p / k:>6.2f}x")


if __name__ == "__main__":
    main()
