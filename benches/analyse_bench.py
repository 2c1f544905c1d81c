"""Analysis throughput of ``kibitz analyse``: games per second with 1 and 2 local workers
(and with Ray when it is installed), at a fixed node budget per position.

Runs alternate between the configurations and the figures are medians; each run also
checks that its records equal the first run's (the analysis is deterministic at a fixed
node count, whatever the number of workers or the backend). The issue asks for 2 workers
to reach at least 1.8x the games per second of 1 on two cores; the machine must be quiet
for that figure to mean anything (the script prints the load average before and after).

    python benches/analyse_bench.py [--games 24] [--nodes 2000] [--repeat 3] [--ray]
"""

from __future__ import annotations

import argparse
import gzip
import itertools
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

import kibitz

HERE = Path(__file__).resolve().parent
DEFAULT = HERE / "data" / "selfplay.pgn.gz"


def first_games(src: Path, n: int) -> bytes:
    """The text of the first ``n`` games of ``src``."""
    text = gzip.decompress(src.read_bytes()).decode()
    parts = text.split("\n\n[Event ")
    return ("\n\n[Event ".join(parts[:n]) + "\n\n").encode()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=24)
    ap.add_argument("--nodes", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--ray", action="store_true", help="also time the Ray backend (a local instance, 2 CPUs)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "games.pgn"
        path.write_bytes(first_games(DEFAULT, args.games))
        plies = sum(len(g.moves) for g in kibitz.read_games(path))
        configs: dict[str, Callable[[], list[dict[str, Any]]]] = {
            "1 worker": lambda: list(kibitz.analyse_games(path, nodes=args.nodes, workers=1)),
            "2 workers": lambda: list(kibitz.analyse_games(path, nodes=args.nodes, workers=2)),
        }
        if args.ray:
            import ray

            ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
            configs["ray (2 CPUs)"] = lambda: list(kibitz.analyse_games(path, nodes=args.nodes, backend="ray"))
        print(
            f"{args.games} games ({plies} plies), {args.nodes} nodes a position, {args.repeat} alternating runs; "
            f"load average before: {os.getloadavg()}"
        )
        times: dict[str, list[float]] = {k: [] for k in configs}
        cores: dict[str, list[float]] = {k: [] for k in configs}
        reference = None
        for _, (name, fn) in itertools.product(range(args.repeat), configs.items()):
            c0 = os.times()
            t = time.perf_counter()
            recs = fn()
            wall = time.perf_counter() - t
            c1 = os.times()
            times[name].append(wall)
            # CPU time of this process and its (reaped) worker processes over the wall time:
            # how many cores the run actually got. Ray's workers are not our children.
            cpu = (
                (c1.user - c0.user)
                + (c1.system - c0.system)
                + (c1.children_user - c0.children_user)
                + (c1.children_system - c0.children_system)
            )
            cores[name].append(cpu / wall)
            if reference is None:
                reference = recs
            assert recs == reference, f"{name}: records differ from the first run's"
        if args.ray:
            ray.shutdown()
    print(f"load average after: {os.getloadavg()}")
    base = statistics.median(times["1 worker"])
    for name, v in times.items():
        med = statistics.median(v)
        used = "" if name.startswith("ray") else f"  cores used {statistics.median(cores[name]):.2f}"
        print(
            f"  {name:13s} median {med:7.2f} s  {args.games / med:6.2f} games/s  {base / med:5.2f}x{used}  "
            f"runs: {', '.join(f'{x:.2f}' for x in v)}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
