"""Fairy-Stockfish as the independent reference for variant perft (tests and benches).

``Fairy(variant, variant_path=None)`` drives ``fairy-stockfish`` over UCI: ``divide(fen,
depth)`` returns its ``go perft`` split per move and the total. ``FAIRY`` is the binary's
path (env ``KIBITZ_FAIRY_STOCKFISH``, else ``fairy-stockfish`` on PATH or in /usr/games),
None when it is not installed (tests that need it skip, saying so).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from typing import Optional


def _find() -> Optional[str]:
    env = os.environ.get("KIBITZ_FAIRY_STOCKFISH")
    if env:
        return env
    found = shutil.which("fairy-stockfish")
    if found:
        return found
    return "/usr/games/fairy-stockfish" if os.access("/usr/games/fairy-stockfish", os.X_OK) else None


FAIRY = _find()
SKIP_REASON = "fairy-stockfish is not installed (apt-get install fairy-stockfish); variant perft not checked"


class Fairy:
    """One Fairy-Stockfish process set to one variant."""

    def __init__(self, variant: str, variant_path: Optional[str] = None) -> None:
        assert FAIRY is not None
        self.p = subprocess.Popen(
            [FAIRY], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1
        )
        self.send("uci")
        self.wait("uciok")
        if variant_path:
            self.send(f"setoption name VariantPath value {variant_path}")
        self.send(f"setoption name UCI_Variant value {variant}")
        self.send("isready")
        self.wait("readyok")

    def send(self, line: str) -> None:
        assert self.p.stdin is not None
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, prefix: str) -> list[str]:
        assert self.p.stdout is not None
        lines: list[str] = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError(f"fairy-stockfish exited while waiting for {prefix!r}: {lines[-5:]}")
            line = line.rstrip("\n")
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def divide(self, fen: str, depth: int) -> tuple[dict[str, int], int]:
        self.send(f"position fen {fen}")
        self.send(f"go perft {depth}")
        counts: dict[str, int] = {}
        total = -1
        for line in self.wait("Nodes searched"):
            m = re.fullmatch(r"([a-z]\d+[a-z]\d+[a-z+-]?): (\d+)", line.strip())
            if m:
                counts[m.group(1)] = int(m.group(2))
            elif line.startswith("Nodes searched"):
                total = int(line.split(":")[1])
        return counts, total

    def fen_after(self, fen: str, moves: list[str]) -> str:
        self.send(f"position fen {fen} moves {' '.join(moves)}")
        self.send("d")
        for line in self.wait("Fen:"):
            if line.startswith("Fen:"):
                return line[4:].strip()
        raise AssertionError("no Fen line")

    def close(self) -> None:
        try:
            self.send("quit")
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()

    def __enter__(self) -> "Fairy":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
