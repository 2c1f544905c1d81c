"""Search speed against Toga II 3.0, in one sitting: nodes per second of each engine's own
search over the bench positions (rust/engine/bench.fen), both driven through UCI with one
thread and the same hash size, a fixed think time per position, the engines alternating
position by position so that both see the same machine load.

    python benches/nps_vs_toga.py [--movetime MS] [--rounds N] [--kibitz CMD] [--toga CMD]

Prints each engine's total nodes / total time per round, the per-round ratio and the median
ratio (kibitz / Toga). The ratio is what means something: the machines are shared.
Nodes per second differ in what a "node" is (each engine counts its own way: kibitz counts
every search and quiescence node entered, as Toga does), so the ratio compares like with like
only roughly; it is the figure the speed target is set in.
"""

from __future__ import annotations

import argparse
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "rust" / "engine" / "bench.fen"


class Uci:
    """A minimal UCI driver: enough to set options, search a position and read its info."""

    def __init__(self, cmd: str, options: dict[str, str]) -> None:
        self.p = subprocess.Popen(
            shlex.split(cmd), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
        )
        self.send("uci")
        self.wait("uciok")
        for name, value in options.items():
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.wait("readyok")

    def send(self, line: str) -> None:
        assert self.p.stdin is not None
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, token: str) -> list[str]:
        assert self.p.stdout is not None
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError(f"engine ended before {token!r}")
            lines.append(line.strip())
            if line.startswith(token):
                return lines

    def search(self, fen: str, movetime_ms: int) -> tuple[int, float]:
        """(nodes, seconds) of one search, from the last info line with nodes and time."""
        self.send("ucinewgame")
        self.send("isready")
        self.wait("readyok")
        self.send(f"position fen {fen}")
        t0 = time.perf_counter()
        self.send(f"go movetime {movetime_ms}")
        lines = self.wait("bestmove")
        wall = time.perf_counter() - t0
        nodes, ms = 0, None
        for line in lines:
            words = line.split()
            if words[:1] == ["info"] and "nodes" in words:
                nodes = int(words[words.index("nodes") + 1])
                if "time" in words:
                    ms = int(words[words.index("time") + 1])
        return nodes, (ms / 1000 if ms else wall)

    def quit(self) -> None:
        self.send("quit")
        self.p.wait(timeout=10)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--movetime", type=int, default=1000, help="ms per position (default 1000)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--kibitz", default=f"{sys.executable} -m kibitz")
    ap.add_argument("--toga", default="/usr/games/toga2")
    ap.add_argument("--hash", type=int, default=64)
    args = ap.parse_args()
    fens = [ln.strip() for ln in BENCH.read_text().splitlines() if ln.strip() and not ln.startswith("#")]
    kib = Uci(args.kibitz, {"Hash": str(args.hash), "Threads": "1", "OwnBook": "false"})
    toga = Uci(args.toga, {"Hash": str(args.hash), "Threads": "1", "OwnBook": "false"})
    ratios = []
    for r in range(args.rounds):
        tot = {"kibitz": [0, 0.0], "toga": [0, 0.0]}
        for i, fen in enumerate(fens):
            order = [("kibitz", kib), ("toga", toga)] if (i + r) % 2 == 0 else [("toga", toga), ("kibitz", kib)]
            for name, eng in order:
                n, s = eng.search(fen, args.movetime)
                tot[name][0] += n
                tot[name][1] += s
        kn = tot["kibitz"][0] / tot["kibitz"][1]
        tn = tot["toga"][0] / tot["toga"][1]
        ratios.append(kn / tn)
        print(f"round {r + 1}: kibitz {kn:,.0f} nodes/s, Toga II {tn:,.0f} nodes/s, ratio {kn / tn:.2f}x", flush=True)
    print(f"median ratio kibitz/Toga II over {args.rounds} rounds: {statistics.median(ratios):.2f}x")
    kib.quit()
    toga.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
