"""kibitz against python-chess and bulletchess 0.4.0, operation by operation, one sitting,
libraries alternated run by run, medians, every result checked against python-chess's.

Rows: FEN round trip (parse and write), copy(), the legal move list, san() of every legal
move, push/pop of every legal move, the same with is_check() read between (kibitz's ``push``
leaves a listed move pending until the board is next read, so a bare push/pop pair never
makes it; the read makes it), piece_map(), is_checkmate() and outcome(), status(),
board editing (set_piece_at / remove_piece_at), mirror(), on 300 positions of random games,
and a new game (Board() and one of White's first moves) once a position.
Each sample repeats a workload until it has run for at least ``--min-ms`` (so that short
rows are not timer noise); the ratios are python-chess's (bulletchess's) median time over
kibitz's. bulletchess has no piece_map(), outcome(), status() or mirror(): those cells are
empty (the new-game row is not written for it); where its answers differ from
python-chess's the cell says so instead of a ratio. bulletchess is optional (see docs/perft.md for installing it on Python 3.11).

    python benches/python_chess_speed.py [--runs 7] [--positions 300] [--min-ms 20] [--markdown]
"""

from __future__ import annotations

import argparse
import importlib
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import chess

import kibitz


def positions(n: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    out: list[str] = []
    while len(out) < n:
        board = chess.Board()
        for _ in range(rng.randrange(0, 90)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        out.append(board.fen())
    return out


# White's twenty first moves.
FIRST_MOVES = [f"{f}2{f}{r}" for f in "abcdefgh" for r in "34"] + ["b1a3", "b1c3", "g1f3", "g1h3"]


def workloads(lib: Any, fens: list[str]) -> dict[str, Callable[[], Any]]:
    boards = [lib.Board(f) for f in fens]
    piece = lib.Piece(lib.QUEEN, lib.WHITE)

    def fen_round_trip() -> Any:
        return [lib.Board(f).fen() for f in fens]

    def copy() -> Any:
        return [b.copy() for b in boards][-1].fen()

    def legal_moves() -> Any:
        return [len(list(b.legal_moves)) for b in boards]

    def san_all() -> Any:
        return [[b.san(m) for m in b.legal_moves] for b in boards]

    def push_pop() -> Any:
        n = 0
        for b in boards:
            for m in list(b.legal_moves):
                b.push(m)
                b.pop()
                n += 1
        return n

    def push_read_pop() -> Any:
        checks = 0
        for b in boards:
            for m in list(b.legal_moves):
                b.push(m)
                checks += b.is_check()
                b.pop()
        return checks

    def piece_map() -> Any:
        return [len(b.piece_map()) for b in boards]

    def game_end() -> Any:
        return [(b.is_checkmate(), str(b.outcome())) for b in boards]

    def status() -> Any:
        return [int(b.status()) for b in boards]

    def editing() -> Any:
        out = []
        for f in fens:
            b = lib.Board(f)
            sq = next(s for s in range(64) if b.piece_at(s) is None)
            b.set_piece_at(sq, piece)
            b.remove_piece_at(sq)
            out.append(b.board_fen())
        return out

    def mirror() -> Any:
        return [b.mirror().fen() for b in boards]

    # A new game: the start position and its first move, one a position (what a PGN reader
    # or a self-play loop does at every game).
    first = [lib.Move.from_uci(u) for u in FIRST_MOVES]

    def new_game() -> Any:
        out = []
        for i in range(len(fens)):
            b = lib.Board()
            b.push(first[i % len(first)])
            out.append(b.fen())
        return out

    return {
        "FEN round trip": fen_round_trip,
        "copy()": copy,
        "legal move list": legal_moves,
        "san() of every legal move": san_all,
        "push/pop of every legal move": push_pop,
        "push, is_check(), pop of every legal move": push_read_pop,
        "piece_map()": piece_map,
        "is_checkmate() + outcome()": game_end,
        "status()": status,
        "board editing": editing,
        "mirror()": mirror,
        "Board() and a first move": new_game,
    }


def bulletchess_workloads(bc: Any, fens: list[str]) -> dict[str, Callable[[], Any]]:
    """The rows bulletchess has, in its idiom, returning what python-chess's rows return."""
    boards = [bc.Board.from_fen(f) for f in fens]
    queen = bc.Piece(bc.WHITE, bc.QUEEN)
    squares = list(bc.SQUARES)

    def fen_round_trip() -> Any:
        return [bc.Board.from_fen(f).fen() for f in fens]

    def copy() -> Any:
        return [b.copy() for b in boards][-1].fen()

    def legal_moves() -> Any:
        return [len(b.legal_moves()) for b in boards]

    def san_all() -> Any:
        return [[m.san(b) for m in b.legal_moves()] for b in boards]

    def push_pop() -> Any:
        n = 0
        for b in boards:
            for m in b.legal_moves():
                b.apply(m)
                b.undo()
                n += 1
        return n

    def push_read_pop() -> Any:
        checks = 0
        for b in boards:
            for m in b.legal_moves():
                b.apply(m)
                checks += b in bc.CHECK
                b.undo()
        return checks

    def editing() -> Any:
        out = []
        for f in fens:
            b = bc.Board.from_fen(f)
            sq = next(s for s in squares if b[s] is None)
            b[sq] = queen
            b[sq] = None
            out.append(b.fen().split()[0])
        return out

    return {
        "FEN round trip": fen_round_trip,
        "copy()": copy,
        "legal move list": legal_moves,
        "san() of every legal move": san_all,
        "push/pop of every legal move": push_pop,
        "push, is_check(), pop of every legal move": push_read_pop,
        "board editing": editing,
    }


def timed(f: Callable[[], Any], repeat: int) -> float:
    """Seconds per call of `f`, over `repeat` calls."""
    start = time.perf_counter()
    for _ in range(repeat):
        f()
    return (time.perf_counter() - start) / repeat


def repeats(f: Callable[[], Any], min_seconds: float) -> int:
    """How many calls of `f` take at least `min_seconds`."""
    n = 1
    while timed(f, n) * n < min_seconds:
        n *= 2
    return n


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--positions", type=int, default=300)
    ap.add_argument("--min-ms", type=float, default=20.0, help="the least time one sample runs")
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args(argv)
    fens = positions(args.positions)
    bulletchess: Any
    try:
        bulletchess = importlib.import_module("bulletchess")
    except ImportError:  # optional: its columns are left out, saying so
        bulletchess = None
    libraries: dict[str, dict[str, Callable[[], Any]]] = {
        "kibitz": workloads(kibitz, fens),
        "python-chess": workloads(chess, fens),
    }
    if bulletchess is not None:
        libraries["bulletchess"] = bulletchess_workloads(bulletchess, fens)
    reference = libraries["python-chess"]
    wrong: dict[str, set[str]] = {lib: set() for lib in libraries}
    for lib, rows in libraries.items():
        for name, f in rows.items():
            a, b = f(), reference[name]()
            if name == "san() of every legal move":  # the same moves, in each generator's order
                a, b = [sorted(x) for x in a], [sorted(x) for x in b]
            if a != b:
                assert lib != "kibitz", f"kibitz answers {name} differently from python-chess"
                wrong[lib].add(name)
    reps = {(lib, name): repeats(f, args.min_ms / 1000) for lib, rows in libraries.items() for name, f in rows.items()}
    times: dict[tuple[str, str], list[float]] = {key: [] for key in reps}
    for _ in range(args.runs):
        for name in libraries["kibitz"]:
            for lib, rows in libraries.items():
                if name in rows:
                    times[(lib, name)].append(timed(rows[name], reps[(lib, name)]))
    per = len(fens)
    med = {key: statistics.median(ts) / per * 1e6 for key, ts in times.items()}
    with_bullet = "bulletchess" in libraries
    header = ["operation (per position)", "kibitz us", "python-chess us", "kibitz faster by"]
    if with_bullet:
        header += ["bulletchess us", "kibitz vs bulletchess"]
    rows_out = []
    for name in libraries["kibitz"]:
        k, c = med[("kibitz", name)], med[("python-chess", name)]
        row = [name, f"{k:.2f}", f"{c:.2f}", f"{c / k:.1f}x"]
        if with_bullet:
            if ("bulletchess", name) not in med:
                row += ["-", "no such operation"]
            else:
                b = med[("bulletchess", name)]
                ratio = f"{b / k:.2f}x"
                row += [f"{b:.2f}", ratio + (" (bulletchess's answers differ)" if name in wrong["bulletchess"] else "")]
        rows_out.append(row)
    if args.markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for row in rows_out:
            print("| " + " | ".join(row) + " |")
    else:
        widths = [44, 11, 17, 18, 16, 24]
        print("".join(h.ljust(w) for h, w in zip(header, widths)))
        for row in rows_out:
            print("".join(c.ljust(w) for c, w in zip(row, widths)))
    versions = f"kibitz {kibitz.__version__}, python-chess {chess.__version__}"
    if with_bullet:
        versions += f", bulletchess {getattr(bulletchess, '__version__', '0.4.0')}"
    else:
        versions += "; bulletchess is not installed here: its columns are left out"
    print(f"({versions}; {len(fens)} positions, {args.runs} runs, samples of at least {args.min_ms:g} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
