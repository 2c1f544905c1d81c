"""Where the time of `Board(fen)`, `fen()` and `copy()` goes, step by step, in one sitting.

Each row is one operation over the same 300 positions of random games (the positions of
``python_chess_speed.py``), as a list comprehension, the way the peer benchmark runs them;
nanoseconds an operation, median of ``--runs`` samples, every sample at least ``--min-ms``.
Reading the rows against each other splits the cost:

* ``complex(1, 2).conjugate()``: a C method call that makes a small object, and frees it
  again: the floor any Python library pays for ``copy()``.
* ``SquareSet.copy()``: the same for a kibitz class with one integer inside: the floor of a
  PyO3 class (PyO3 makes every class garbage-collected and allocates through its own
  initializer). ``Board.copy()`` goes below it: the Board class allocates and frees its own
  objects, uncollected (rust/python/board/lifecycle.rs).
* ``Board.empty()``: a kibitz board without reading a FEN (the object, the argument
  handling and an empty position); ``Board(None)``, the same board through the class's
  vectorcall, without a classmethod's argument parsing. Both share one empty core and its
  unplayable reason, so neither copies anything.
* ``Board(fen)``: the above plus reading the FEN into the mailbox, piece lists, bitboards
  and key (the core's reader, rust/chess/fen.rs) and python-chess's lenient checks.
* ``Board(fen).fen()``: the FEN round trip of the peer benchmark.
* ``copy()`` of a board without history, and of one with 40 moves: the position is shared
  until either board changes (rust/python/board/shared.rs), so both cost the same.
* ``copy().push(m)`` then a read, against ``push(m)``, the read and ``pop()`` on an unshared
  board: the cost deferred to the first change of a copy (the core board is copied then).
  The read (``is_check()``) makes the pushed move, which ``push`` leaves pending until the
  board is next read or changed.
* ``copy(stack=False)`` with 40 moves: a new core board without history.

    python benches/board_steps.py [--runs 7] [--min-ms 20]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))

from python_chess_speed import positions, repeats, timed  # noqa: E402

import kibitz  # noqa: E402


def rows(fens: list[str]) -> dict[str, Callable[[], Any]]:
    boards = [kibitz.Board(f) for f in fens]
    played = []
    for f in fens:
        b = kibitz.Board(f)
        for _ in range(40):
            moves = list(b.legal_moves)
            if not moves:
                break
            b.push(moves[len(moves) // 2])
        played.append(b)
    firsts = [next(iter(b.legal_moves), None) for b in boards]
    pairs = [(b, m) for b, m in zip(boards, firsts) if m is not None]
    complexes = [complex(i, 1) for i in range(len(fens))]
    squaresets = [kibitz.SquareSet(i) for i in range(len(fens))]
    Board = kibitz.Board

    def push_on_copy() -> Any:
        out = []
        for b, m in pairs:
            c = b.copy()
            c.push(m)
            c.is_check()
            out.append(c)
        return out

    def push_pop() -> Any:
        for b, m in pairs:
            b.push(m)
            b.is_check()
            b.pop()

    return {
        "complex.conjugate() (floor)": lambda: [c.conjugate() for c in complexes],
        "SquareSet.copy() (PyO3 floor)": lambda: [s.copy() for s in squaresets],
        "Board.empty()": lambda: [Board.empty() for _ in fens],
        "Board(None)": lambda: [Board(None) for _ in fens],
        "Board(fen)": lambda: [Board(f) for f in fens],
        "fen()": lambda: [b.fen() for b in boards],
        "Board(fen).fen()": lambda: [Board(f).fen() for f in fens],
        "copy(), no history": lambda: [b.copy() for b in boards],
        "copy(), 40 moves": lambda: [b.copy() for b in played],
        "copy(stack=False), 40 moves": lambda: [b.copy(stack=False) for b in played],
        "copy() then push(m), is_check()": push_on_copy,
        "push(m), is_check(), pop(), unshared": push_pop,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--min-ms", type=float, default=20.0)
    args = ap.parse_args(argv)
    fens = positions(300)
    work = rows(fens)
    reps = {name: repeats(f, args.min_ms / 1e3) for name, f in work.items()}
    times: dict[str, list[float]] = {name: [] for name in work}
    for _ in range(args.runs):
        for name, f in work.items():
            times[name].append(timed(f, reps[name]))
    print("| step | ns an operation |")
    print("|---|---:|")
    for name, ts in times.items():
        print(f"| {name} | {statistics.median(ts) / len(fens) * 1e9:,.0f} |")
    print(f"(kibitz {kibitz.__version__}; 300 positions; medians of {args.runs} runs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
