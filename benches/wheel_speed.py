"""Is the portable manylinux2014 wheel as fast as a native build? perft and search nps.

The release wheel (``scripts/build-wheels``: maturin links with zig against glibc 2.17) is
compared with the ordinary build on this machine (``maturin build --release``, linked by the
system toolchain against its own glibc). Neither uses ``-C target-cpu=native``. Each wheel
is installed into a venv of its own, and every measurement runs in a fresh process of one
venv, alternating which build goes first in each round, so that both see the same load on
a shared machine. Each run is timed by the wall clock and by the process's CPU time (which
leaves out waiting for a core when the machine is overloaded); the report gives the medians
of the rounds, their ratio portable/native and the median of the per-round ratios.

Workloads (each asserts its answer before its time counts):
  perft   ``Board.perft``: start position depth 6 (119,060,324) and Kiwipete depth 4
          (4,085,603), published counts (chessprogramming.org/Perft_Results).
  search  ``Engine.search`` to a fixed depth from four positions with a fresh 16 MB table;
          the node counts must be identical for both builds (the search is deterministic,
          so a difference would mean the two wheels are not the same engine).

    python benches/wheel_speed.py [--portable WHEEL] [--native WHEEL] [--rounds 7]

Without ``--portable`` it takes the manylinux2014 wheel in dist/; without ``--native`` it
builds one with ``maturin build --release`` into a temporary directory.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

# Run inside each venv: one workload, JSON {"nodes": ..., "seconds": ...} on stdout.
WORKER = r"""
import json, sys, time
import kibitz

PERFT = [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6, 119_060_324),
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 4, 4_085_603),
]
# Start, Kiwipete, a closed middlegame (Ruy Lopez, main line) and a rook endgame (Lucena-like);
# depths chosen for about a second each on this machine.
SEARCH = [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 13),
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 10),
    ("r1bq1rk1/2p1bppp/p1np1n2/1p2p3/4P3/1BP2N1P/PP1P1PP1/RNBQR1K1 b - - 0 9", 12),
    ("1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1", 20),
]

what = sys.argv[1]
nodes, seconds, cpu_seconds, per_position = 0, 0.0, 0.0, []
if what == "perft":
    for fen, depth, want in PERFT:
        board = kibitz.Board(fen)
        t, c = time.perf_counter(), time.process_time()
        got = board.perft(depth)
        seconds += time.perf_counter() - t
        cpu_seconds += time.process_time() - c
        assert got == want, (fen, depth, got, want)
        nodes += got
else:
    for fen, depth in SEARCH:
        engine = kibitz.Engine(hash_mb=16)
        board = kibitz.Board(fen)
        t, c = time.perf_counter(), time.process_time()
        result = engine.search(board, depth=depth)
        seconds += time.perf_counter() - t
        cpu_seconds += time.process_time() - c
        assert result.best_move in board.legal_moves_uci(), result.best_move
        nodes += result.nodes
        per_position.append(result.nodes)
print(json.dumps({"nodes": nodes, "seconds": seconds, "cpu_seconds": cpu_seconds, "per_position": per_position,
                  "file": kibitz._core.__file__}))
"""


WORKLOADS = ("perft", "search")


def find_maturin() -> str:
    """scripts/build-wheels' own maturin if it has run, else one on PATH."""
    tools = ROOT / "target" / "build-wheels" / "tools" / "bin" / "maturin"
    if tools.exists():
        return str(tools)
    found = shutil.which("maturin")
    if not found:
        sys.exit("no maturin: run scripts/build-wheels first, or pip install maturin")
    return found


def build_native(out: Path) -> Path:
    """The ordinary release build for this machine (no zig, no old-glibc linking)."""
    subprocess.run([find_maturin(), "build", "--release", "--out", str(out)], cwd=ROOT, check=True)
    wheels = sorted(out.glob("kibitz-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


def make_venv(where: Path, wheel: Path) -> Path:
    subprocess.run([sys.executable, "-m", "venv", str(where)], check=True)
    python = where / "bin" / "python"
    # --no-deps: the workloads need only the extension; keeps the bench off the network.
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps", str(wheel)], check=True)
    return python


def run(python: Path, what: str, cwd: Path) -> dict[str, Any]:
    out = subprocess.run([str(python), "-c", WORKER, what], capture_output=True, text=True, check=True, cwd=cwd).stdout
    result: dict[str, Any] = json.loads(out)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--portable", type=Path, help="the manylinux2014 wheel (default: dist/)")
    parser.add_argument("--native", type=Path, help="a native wheel (default: build one)")
    parser.add_argument("--rounds", type=int, default=7, help="alternating rounds (default 7)")
    args = parser.parse_args()

    portable = args.portable
    if portable is None:
        found = sorted(glob.glob(str(ROOT / "dist" / "kibitz-*-manylinux2014_x86_64*.whl")))
        if not found:
            sys.exit("no manylinux2014 wheel in dist/: run scripts/build-wheels first")
        portable = Path(found[-1])

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        native = args.native or build_native(work / "native-wheel")
        print(f"portable: {portable.name}\nnative:   {native.name}", flush=True)
        print(f"load average at the start: {os.getloadavg()[0]:.2f}", flush=True)
        pythons = {"portable": make_venv(work / "portable", portable), "native": make_venv(work / "native", native)}
        # nps[clock][workload][build]: one figure per round. "cpu" divides by the process's
        # CPU time, which leaves out the time spent waiting for a core on a loaded machine.
        nps: dict[str, dict[str, dict[str, list[float]]]] = {
            clock: {w: {"portable": [], "native": []} for w in WORKLOADS} for clock in ("wall", "cpu")
        }
        search_nodes: dict[str, set[tuple[int, ...]]] = {"portable": set(), "native": set()}
        for i in range(args.rounds):
            order = ["portable", "native"] if i % 2 == 0 else ["native", "portable"]
            for what in WORKLOADS:
                for build in order:
                    r = run(pythons[build], what, work)
                    assert r["file"].startswith(str(work / build)), r["file"]
                    nps["wall"][what][build].append(r["nodes"] / r["seconds"])
                    nps["cpu"][what][build].append(r["nodes"] / r["cpu_seconds"])
                    if what == "search":
                        search_nodes[build].add(tuple(r["per_position"]))
            print(
                f"round {i + 1} (cpu-time nps): "
                + "  ".join(f"{w} {b} {nps['cpu'][w][b][-1] / 1e6:.2f} M" for w in WORKLOADS for b in order),
                flush=True,
            )
        assert len(search_nodes["native"]) == 1, "the native search is not deterministic"
        assert search_nodes["portable"] == search_nodes["native"], search_nodes

    print(f"\nmedians of {args.rounds} alternating rounds, nodes/s by CPU time and by wall time;")
    print("ratio = portable/native of the medians, and the median of the per-round ratios (a round's")
    print("two runs are back to back, so load drifting on a shared machine mostly cancels):")
    print(
        "| workload | clock | portable (manylinux2014, zig) | native (maturin build) | ratio of medians | median per-round ratio |"
    )
    print("|---|---|---|---|---|---|")
    for what in WORKLOADS:
        for clock in ("cpu", "wall"):
            runs = nps[clock][what]
            p, n = statistics.median(runs["portable"]), statistics.median(runs["native"])
            paired = statistics.median(a / b for a, b in zip(runs["portable"], runs["native"]))
            print(f"| {what} | {clock} | {p / 1e6:.2f} M | {n / 1e6:.2f} M | {p / n:.3f} | {paired:.3f} |")
    print(f"search nodes per position (identical in both builds): {sorted(search_nodes['native'])[0]}")
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
