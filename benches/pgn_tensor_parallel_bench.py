"""Training data beyond one process: positions a second of ``pgn_to_tensors_parallel`` on one
core (``backend="serial"``), on every core (``"pool"``) and on a local Ray cluster
(``"ray"``, when Ray is installed), over copies of one PGN file (so that there are shards
for every worker). Every backend's arrays are checked equal to the serial ones in an
untimed run first; the timed runs take the chunks as a training loop would and count their
positions.

    python benches/pgn_tensor_parallel_bench.py [--copies 8] [--repeat 3] [--dtype uint8] [FILE.pgn[.gz]]

The default file is benches/data/selfplay.pgn.gz (1000 games, ~90 plies each), written
out plain ``--copies`` times.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, List, Tuple

from kibitz.analysis.backends import default_workers
from kibitz.analysis.shards import pgn_to_tensors_parallel

HERE = Path(__file__).resolve().parent


def run(files: List[str], backend: str, dtype: Any, workers: int, check: bool) -> Tuple[int, str]:
    """Positions read and, when ``check``, a digest of every array (the check across
    backends, made in an untimed run: hashing gigabytes of planes in the one consuming
    process would cap every backend at its speed)."""
    n = 0
    digest = hashlib.sha256()
    for c in pgn_to_tensors_parallel(files, chunk=4096, dtype=dtype, backend=backend, workers=workers):
        n += len(c.moves)
        if check:
            for a in (c.planes, c.moves, c.results, c.games):
                digest.update(a.tobytes())
    return n, digest.hexdigest()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file", nargs="?", default=str(HERE / "data" / "selfplay.pgn.gz"))
    ap.add_argument("--copies", type=int, default=8)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--dtype", default="float32", choices=["float32", "uint8"])
    ap.add_argument("--workers", type=int, default=default_workers())
    args = ap.parse_args()
    src = Path(args.file)
    data = gzip.decompress(src.read_bytes()) if src.suffix == ".gz" else src.read_bytes()
    backends = ["serial", "pool"]
    try:
        import ray

        ray.init(num_cpus=args.workers, include_dashboard=False, log_to_driver=False, configure_logging=False)
        backends.append("ray")
    except ImportError:
        print("Ray is not installed: the ray row is left out (pip install 'kibitz[ray]')")
    with tempfile.TemporaryDirectory() as tmp:
        files = []
        for i in range(args.copies):
            path = os.path.join(tmp, f"games{i:02d}.pgn")
            Path(path).write_bytes(data)
            files.append(path)
        times: dict[str, List[float]] = {b: [] for b in backends}
        reference = None
        positions = 0
        for backend in backends:
            _, digest = run(files, backend, args.dtype, args.workers, check=True)
            reference = reference or digest
            assert digest == reference, f"{backend}: arrays differ from the serial backend's"
        for _ in range(args.repeat):
            for backend in backends:
                t = time.perf_counter()
                positions, _ = run(files, backend, args.dtype, args.workers, check=False)
                times[backend].append(time.perf_counter() - t)
    mb = len(data) * args.copies / 1e6
    print(
        f"{src.name} x{args.copies} ({mb:.1f} MB, {positions:,} positions), {args.dtype} planes, "
        f"{args.workers} workers, {args.repeat} runs each, medians; every backend's arrays equal"
    )
    print("| backend | seconds | positions a second | vs one core |")
    print("|---|---:|---:|---:|")
    one = statistics.median(times["serial"])
    for backend, ts in times.items():
        t = statistics.median(ts)
        print(f"| {backend} | {t:.2f} | {positions / t:,.0f} | {one / t:.2f}x |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
