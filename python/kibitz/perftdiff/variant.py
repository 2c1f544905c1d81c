"""``kibitz perft-diff --variant NAME|FILE``: where a variant move generator goes wrong.

The same descent as ``kibitz perft-diff`` for chess (compare divides, follow the first move
whose counts differ, stop where the move lists differ), with kibitz's variant generator on
one side and, on the other, a UCI engine that knows the variant through ``UCI_Variant``
(for a definition file, loaded first through the ``VariantPath`` option, as
Fairy-Stockfish does) and answers ``go perft N``.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from typing import Callable, Optional, Sequence

from kibitz.perftdiff import DivideResult, EngineError, UciEngine
from kibitz.variant import Board

# Moves on boards up to 12 files (a-l) and 10 ranks, with a promotion letter (any piece).
_MOVE_LINE = re.compile(r"^([a-l]\d{1,2}[a-l]\d{1,2}[a-z]?)\s*:\s*(\d+)$")


class VariantUciEngine(UciEngine):
    """A UCI engine set to a variant: ``VariantPath`` (when the variant comes from a file),
    then ``UCI_Variant``; positions are always sent as FEN. Divides are read as for chess,
    with move text for boards of up to 12 files and 10 ranks."""

    move_line = _MOVE_LINE

    def __init__(self, command: str, variant: str, variant_path: Optional[str], **kw: float) -> None:
        super().__init__(command, **kw)  # type: ignore[arg-type]
        self.variant = variant
        self.variant_path = variant_path

    def _handshake(self) -> None:
        hint = " (is it a UCI engine?)"
        seen = self._expect("uci", "uciok", self.handshake_timeout, hint)
        for s in seen:
            if s.startswith("id name "):
                self.name = s[len("id name ") :].strip() or self.name
        if self.variant_path is not None:
            self.send(f"setoption name VariantPath value {self.variant_path}")
            seen = self._expect("uci", "uciok", self.handshake_timeout, hint)  # lists the loaded variants
        line = next((s for s in seen if re.match(r"option\s+name\s+UCI_Variant\b", s)), None)
        if line is None:
            raise EngineError(f"engine {self.command!r} has no UCI_Variant option, so it cannot play variants")
        if f" var {self.variant} " not in line + " ":
            loaded = f" after loading {self.variant_path}" if self.variant_path else ""
            raise EngineError(f"engine {self.command!r} does not know the variant {self.variant!r}{loaded}")
        self.send(f"setoption name UCI_Variant value {self.variant}")
        self._expect("isready", "readyok", self.handshake_timeout)

    def reproduce(self, fen: Optional[str], moves: Sequence[str], depth: int) -> str:
        script = "uci\\n"
        if self.variant_path is not None:
            script += f"setoption name VariantPath value {self.variant_path}\\n"
        script += f"setoption name UCI_Variant value {self.variant}\\n{self.position_command(fen, moves)}\\ngo perft {depth}\\nquit\\n"
        return f"printf {shlex.quote(script)} | {self.command}"


@dataclass
class VariantDifference:
    """Where the other generator first differs: the position (after ``path`` from the
    root), the depth there, the moves it misses or adds, or a note for other kinds."""

    kind: str
    fen: str
    path: list[str]
    depth: int
    missing: list[str] = field(default_factory=list)
    extra: list[str] = field(default_factory=list)
    steps: list[tuple[str, int, int, int]] = field(default_factory=list)
    note: str = ""


def find_variant_difference(
    divide: Callable[[str, Sequence[str], int], DivideResult], root: Board, depth: int
) -> Optional[VariantDifference]:
    """Compares ``divide(root_fen, moves, depth)`` with kibitz's variant generator from
    ``root`` (left unchanged) and returns the first difference, or None."""
    board = root.copy()
    root_fen = root.fen()
    path: list[str] = []
    steps: list[tuple[str, int, int, int]] = []
    d = depth
    while True:
        ours = board.divide(d)
        theirs = divide(root_fen, path, d)
        missing = sorted(set(ours) - set(theirs.counts))
        extra = sorted(set(theirs.counts) - set(ours))
        if missing or extra:
            return VariantDifference("moves", board.fen(), list(path), d, missing, extra, steps)
        differing = [m for m in sorted(ours) if ours[m] != theirs.counts[m]]
        if not differing:
            if theirs.total != sum(theirs.counts.values()):
                note = f"every per-move count agrees, but the total {theirs.total} is not their sum"
                return VariantDifference("total", board.fen(), list(path), d, steps=steps, note=note)
            if steps and steps[-1][3] != theirs.total:
                note = (
                    f"set up directly this position agrees ({theirs.total} nodes at depth {d}), but the "
                    f"generator counted {steps[-1][3]} for it below its parent: state that unmake does not restore"
                )
                return VariantDifference("inconsistent", board.fen(), list(path), d, steps=steps, note=note)
            return None
        move = differing[0]
        if d == 1:
            note = f"at depth 1 the generator counts {theirs.counts[move]} for {move}, not 1"
            return VariantDifference("count", board.fen(), list(path), d, steps=steps, note=note)
        steps.append((move, d, ours[move], theirs.counts[move]))
        board.push(move)
        path.append(move)
        d -= 1
