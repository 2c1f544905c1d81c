"""Readers for the shared perft data files in ``tests/data/``.

Two formats live there:

* ``perftsuite.epd``: one position a line, ``FEN ;D1 n ;D2 n ...``.
* ``tricky.perft`` and ``chess960.perft``: blocks of ``id NAME``, ``epd FEN``
  (four fields, no clocks) and ``perft DEPTH NODES`` lines; ``#`` starts a comment.

The files are located relative to this file, so the tests run from any working directory.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent.parent / "data"

STARTING_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE_FEN = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


@dataclass(frozen=True)
class PerftCase:
    """A position with its published node counts, ``counts[depth] = nodes``."""

    name: str
    fen: str
    counts: dict[int, int] = field(hash=False)

    @property
    def max_depth(self) -> int:
        return max(self.counts)


def load_perftsuite(path: Path = DATA_DIR / "perftsuite.epd") -> list[PerftCase]:
    """Parse ``perftsuite.epd``; cases are named ``suite-NNN`` by line number."""
    cases = []
    for lineno, line in enumerate(path.read_text().splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        fen, *fields = (part.strip() for part in line.split(";"))
        counts = {}
        for item in fields:
            label, nodes = item.split()
            assert label.startswith("D"), f"{path.name}:{lineno}: bad field {item!r}"
            counts[int(label[1:])] = int(nodes)
        cases.append(PerftCase(f"suite-{lineno:03d}", fen, counts))
    return cases


def load_perft_file(path: Path) -> list[PerftCase]:
    """Parse an ``id`` / ``epd`` / ``perft`` block file such as ``tricky.perft``."""
    cases: list[PerftCase] = []
    name: str | None = None
    fen: str | None = None
    counts: dict[int, int] = {}

    def flush() -> None:
        if fen is not None:
            cases.append(PerftCase(name or f"case-{len(cases)}", fen, dict(counts)))

    for lineno, raw in enumerate(path.read_text().splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        keyword, _, rest = line.partition(" ")
        if keyword == "id":
            flush()
            name, fen, counts = rest.strip(), None, {}
        elif keyword == "epd":
            fen = rest.strip()
        elif keyword == "perft":
            depth, nodes = rest.split()
            counts[int(depth)] = int(nodes)
        else:
            raise ValueError(f"{path.name}:{lineno}: unexpected line {raw!r}")
    flush()
    return cases


def load_tricky() -> list[PerftCase]:
    return load_perft_file(DATA_DIR / "tricky.perft")


def load_chess960() -> list[PerftCase]:
    return load_perft_file(DATA_DIR / "chess960.perft")
