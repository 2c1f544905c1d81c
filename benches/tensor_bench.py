"""Board planes: kibitz against fastchess (PyPI ``fastchess``), one sitting, runs alternated,
medians, results checked.

Rows: one position's ``to_tensor()`` (both give a float32 array of shape (18, 8, 8)), and a
batch of 1,000 positions: ``kibitz.to_tensors`` (one call, filled in Rust) from Boards and
from FEN strings, against a Python loop of fastchess's ``to_tensor()`` into a preallocated
array. The ratio is fastchess's median time over kibitz's.

    python benches/tensor_bench.py [--runs 7] [--markdown]

fastchess must be importable (``pip install fastchess==0.1.2 numpy``, in the peer
environment of benches/peers if you keep one); without it the script says so and stops.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable

import numpy as np

import kibitz
from kibitz.tensor import to_tensors


def random_fens(n: int, seed: int = 1) -> list[str]:
    rng = random.Random(seed)
    fens: list[str] = []
    while len(fens) < n:
        board = kibitz.Board()
        for _ in range(rng.randrange(0, 80)):
            moves = board.legal_moves_uci()
            if not moves:
                break
            board.push_uci(rng.choice(moves))
        fens.append(board.fen())
    return fens


def per_call_ns(f: Callable[[], object], calls: int) -> float:
    start = time.perf_counter()
    for _ in range(calls):
        f()
    return (time.perf_counter() - start) / calls * 1e9


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args(argv)
    try:
        import fastchess  # type: ignore[import-not-found]
    except ImportError:
        print("fastchess is not installed: pip install fastchess==0.1.2", file=sys.stderr)
        return 1

    fens = random_fens(1000)
    ours = [kibitz.Board(f) for f in fens]
    theirs = [fastchess.Board(f) for f in fens]
    # Check: the same planes from both on every position. fastchess gives a position with
    # Black to move as its mirror image (kibitz's canonical=True), its plane 17 still telling
    # whether White is to move in the position itself.
    for k, f in zip(ours, theirs):
        a, b = k.to_tensor(canonical=True), f.to_tensor()
        assert a.shape == b.shape == (18, 8, 8) and a.dtype == b.dtype == np.float32
        a[17] = 1.0 if k.turn else 0.0
        assert np.array_equal(a, b), k.fen()
    one_k, one_f = ours[500], theirs[500]
    out_f = np.empty((len(fens), 18, 8, 8), dtype=np.float32)

    def fastchess_loop() -> None:
        for i, b in enumerate(theirs):
            out_f[i] = b.to_tensor()

    rows: dict[str, tuple[list[float], list[float]]] = {
        "to_tensor(), one position (ns)": ([], []),
        "batch of 1,000 Boards (us a position)": ([], []),
        "batch of 1,000 FENs (us a position)": ([], []),
    }
    for _ in range(args.runs):
        r = rows["to_tensor(), one position (ns)"]
        r[0].append(per_call_ns(one_k.to_tensor, 100_000))
        r[1].append(per_call_ns(one_f.to_tensor, 100_000))
        loop = per_call_ns(fastchess_loop, 5) / len(fens) / 1000
        r = rows["batch of 1,000 Boards (us a position)"]
        r[0].append(per_call_ns(lambda: to_tensors(ours), 20) / len(fens) / 1000)
        r[1].append(loop)
        r = rows["batch of 1,000 FENs (us a position)"]
        r[0].append(per_call_ns(lambda: to_tensors(fens), 20) / len(fens) / 1000)
        r[1].append(loop)

    header = ["row", "kibitz", "fastchess", "kibitz faster by"]
    lines = []
    for name, (ks, fs) in rows.items():
        mk, mf = statistics.median(ks), statistics.median(fs)
        lines.append([name, f"{mk:.3g}", f"{mf:.3g}", f"{mf / mk:.2f}x"])
    if args.markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for line in lines:
            print("| " + " | ".join(line) + " |")
    else:
        for line in [header, *lines]:
            print(f"{line[0]:<40} {line[1]:>10} {line[2]:>10} {line[3]:>16}")
    print(f"(kibitz {kibitz.__version__}, fastchess {getattr(fastchess, '__version__', '0.1.2')}, {args.runs} runs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
