"""Startup time of the UCI engine: from starting ``kibitz`` to its ``uciok`` (the target
is under 150 ms; GUIs and bots start engines often).

Each run starts the installed ``kibitz`` console script (as a GUI does), sends ``uci`` and
times until the ``uciok`` line, then quits it. Runs alternate with a reference start of the
bare interpreter (``python -c pass`` through the same venv), so the machine's load shows in
both; the report gives the medians and kibitz's start as a ratio of the interpreter's.

    python benches/startup.py [--runs 20]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time


def kibitz_command() -> list[str]:
    exe = shutil.which("kibitz") or os.path.join(os.path.dirname(sys.executable), "kibitz")
    if not os.path.exists(exe):
        sys.exit("benches/startup.py: the kibitz console script is not installed (pip install .)")
    return [exe]


def time_to_uciok(cmd: list[str]) -> float:
    """Seconds from Popen to the uciok line."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(b"uci\n")
    proc.stdin.flush()
    for line in proc.stdout:
        if line.strip() == b"uciok":
            break
    else:
        raise SystemExit("kibitz ended without uciok")
    took = time.perf_counter() - t0
    proc.stdin.write(b"quit\n")
    proc.stdin.close()
    proc.wait(timeout=10)
    return took


def time_interpreter() -> float:
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=20)
    args = ap.parse_args()
    cmd = kibitz_command()
    time_to_uciok(cmd)  # warm the file cache (and the bytecode cache) first
    kibitz_times, python_times = [], []
    for _ in range(args.runs):
        kibitz_times.append(time_to_uciok(cmd))
        python_times.append(time_interpreter())
    k, p = statistics.median(kibitz_times), statistics.median(python_times)
    print(
        f"kibitz start to uciok: median {k * 1000:.1f} ms over {args.runs} runs "
        f"(min {min(kibitz_times) * 1000:.1f}, max {max(kibitz_times) * 1000:.1f})"
    )
    print(f"bare interpreter (python -c pass): median {p * 1000:.1f} ms")
    print(f"ratio kibitz / interpreter: {k / p:.2f}")


if __name__ == "__main__":
    main()
