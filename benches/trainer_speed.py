"""The two NNUE trainers' speed in one sitting: training/train.py (numpy, scipy) and
training/train.rs (`cargo build --release --example train`) each train one epoch on the same
data with the same settings, alternating round by round so that both see the same machine
load, and the CPU time each used is compared.

    python benches/trainer_speed.py DATA.kbz [DATA.kbz ...] [--rounds 3] [--python PY]
        [--train PATH] [--args "--hidden 128 --output-buckets 8"]

Prints each round's CPU seconds (user + system, the child's own) and training losses, and
the median ratio python / rust. CPU time rather than wall time: the machines are shared,
and a process waiting for a core costs no CPU time. The losses show that the two trainers
fit the same net (they differ only in their random numbers and held-out games).
"""

from __future__ import annotations

import argparse
import os
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def cpu_seconds(cmd: list[str]) -> tuple[float, str]:
    """The CPU time a command's process (and its children) used, and its output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(
        cmd, capture_output=True, text=True, check=True, env={**os.environ, "OPENBLAS_NUM_THREADS": "1"}
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return used, out.stdout


def epoch_line(text: str) -> str:
    return next((line for line in text.splitlines() if line.startswith("epoch 1:")), "(no epoch line)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", nargs="+", type=Path)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--python", default=sys.executable, help="the Python with numpy and scipy")
    ap.add_argument("--train", type=Path, default=ROOT / "target" / "release" / "examples" / "train")
    ap.add_argument("--args", default="--hidden 128 --output-buckets 8 --lam 0.9 --sigmoid-scale 180")
    a = ap.parse_args()
    if not a.train.exists():
        sys.exit(f"{a.train}: build it first (cargo build --release --example train)")
    data = [str(p) for p in a.data]
    common = shlex.split(a.args) + ["--epochs", "1"]
    ratios = []
    with tempfile.TemporaryDirectory() as tmp:
        out = str(Path(tmp) / "net.nnue")
        for r in range(a.rounds):
            py, py_text = cpu_seconds([a.python, str(ROOT / "training" / "train.py"), *data, "--out", out, *common])
            rs, rs_text = cpu_seconds([str(a.train), *data, "--out", out, *common, "--threads", "1"])
            ratios.append(py / rs)
            print(f"round {r + 1}: train.py {py:.1f} s ({epoch_line(py_text)})")
            print(f"         train.rs {rs:.1f} s ({epoch_line(rs_text)})   ratio {py / rs:.2f}x", flush=True)
    print(
        f"median ratio train.py / train.rs: {statistics.median(ratios):.2f}x (rounds {min(ratios):.2f}-{max(ratios):.2f}x)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
