"""Training data from a PGN file: ``kibitz.pgn_to_tensors`` (reading, replay, planes and
move indexes in Rust) against the natural Python path (python-chess reads and replays
each game, ``kibitz.to_tensors`` makes the planes of the positions' FENs in one batch).

Both produce the same planes (checked), positions per second, medians of alternating runs:

    python benches/pgn_tensor_bench.py [--repeat 5] [FILE.pgn[.gz]]

The default file is benches/data/selfplay.pgn.gz (1000 games, ~90 plies each).
"""

from __future__ import annotations

import argparse
import gzip
import io
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

import chess
import chess.pgn
import numpy as np

import kibitz
from kibitz import pgn_to_tensors

HERE = Path(__file__).resolve().parent
RESULTS = ("1-0", "0-1", "1/2-1/2")


def with_kibitz(data: bytes) -> Any:
    return np.concatenate([c.planes for c in pgn_to_tensors(io.BytesIO(data), chunk=8192)])


def with_python_chess(data: bytes) -> Any:
    fens = []
    handle = io.StringIO(data.decode())
    while (game := chess.pgn.read_game(handle)) is not None:
        if game.headers.get("Result") not in RESULTS or game.errors:
            continue
        board = game.board()
        for move in game.mainline_moves():
            fens.append(board.fen())
            board.push(move)
    return kibitz.to_tensors(fens)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", nargs="?", default=str(HERE / "data" / "selfplay.pgn.gz"))
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    src = Path(args.file)
    data = gzip.decompress(src.read_bytes()) if src.suffix == ".gz" else src.read_bytes()
    a, b = with_kibitz(data), with_python_chess(data)
    assert np.array_equal(a, b), "the two paths give different planes"
    jobs: dict[str, Callable[[bytes], Any]] = {
        "pgn_to_tensors": with_kibitz,
        "python-chess + to_tensors": with_python_chess,
    }
    times: dict[str, list[float]] = {name: [] for name in jobs}
    for _ in range(args.repeat):
        for name, job in jobs.items():
            start = time.perf_counter()
            job(data)
            times[name].append(time.perf_counter() - start)
    n = len(a)
    med = {name: statistics.median(ts) for name, ts in times.items()}
    for name, t in med.items():
        print(f"{name:28} {t * 1000:9.1f} ms  {n / t:12,.0f} positions/s")
    print(
        f"pgn_to_tensors is {med['python-chess + to_tensors'] / med['pgn_to_tensors']:.1f}x the Python path "
        f"({n:,} positions, {args.repeat} runs, kibitz {kibitz.__version__}, python-chess {chess.__version__})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
