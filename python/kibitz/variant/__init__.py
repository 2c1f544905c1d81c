"""Chess variants through kibitz's table-driven move generator.

``Board(variant="capablanca", fen=None)`` is a position of a variant: a built-in name
(``builtin_variants()``) or the path of a definition file in the format described in
``data/README.md`` (pieces as named types or in Betza notation; the file's last section is
the variant, earlier ones may serve as parents). Moves are UCI text as Fairy-Stockfish
writes it (``a9a10c``; castling as the king's move, ``f1i1``, or as the king taking
its own rook, ``b1a1``, where the king's move would read as another move of the king).

The generator is a reference, not the engine's: kibitz plays only orthodox chess.

python-chess's variant boards (its ``chess.variant``: Atomic, Crazyhouse, Three-check...)
are ``kibitz.variant.boards``, subclasses of ``kibitz.Board``.
"""

from __future__ import annotations

import os
import stat
from importlib import resources
from typing import Optional, Union

from kibitz._core import FenError, IllegalMoveError, InvalidMoveError, VariantBoard, VariantError

__all__ = [
    "Board",
    "FenError",
    "IllegalMoveError",
    "InvalidMoveError",
    "VariantError",
    "builtin_variants",
    "load",
]

VariantSpec = Union[str, "os.PathLike[str]"]

# The largest definition file read: the built-in ones are a few kB each, so 1 MB leaves a
# wide margin and keeps a wrong path (a log, an image) from being read whole.
MAX_DEFINITION_BYTES = 1 << 20


def _builtin_sources() -> list[tuple[str, str]]:
    """The built-in definition files, as (name for messages, text), sorted by name."""
    data = resources.files("kibitz.variant") / "data"
    out = []
    for entry in sorted(data.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".ini"):
            out.append((f"kibitz/variant/data/{entry.name}", entry.read_text(encoding="utf-8")))
    return out


def builtin_variants() -> list[str]:
    """Names of the built-in variants."""
    names: list[str] = []
    sources = _builtin_sources()
    for source, _ in sources:
        names.extend(VariantBoard.sections(sources, source))
    return sorted(names)


def load(variant: VariantSpec) -> tuple[list[tuple[str, str]], str]:
    """The definition sources and the section name for a built-in name or a file path.

    A file's variant is its last section. Raises VariantError for an unknown name, a file
    that cannot be read, or a bad definition (naming the line).
    """
    sources = _builtin_sources()
    spec = os.fspath(variant)
    looks_like_path = os.sep in spec or "/" in spec or spec.endswith(".ini") or os.path.exists(spec)
    if not looks_like_path:
        if spec not in builtin_variants():
            raise VariantError(
                f"unknown variant {spec!r}: built-in variants are {', '.join(builtin_variants())}, "
                "or give the path of a definition file"
            )
        return sources, spec
    text = _read_definition(spec)
    sources = sources + [(spec, text)]
    names = VariantBoard.sections(sources, spec)
    if not names:
        raise VariantError(f"{spec}: no [section] defines a variant")
    return sources, names[-1]


def _read_definition(path: str) -> str:
    """The text of a definition file. Only a regular file of at most MAX_DEFINITION_BYTES is
    read: a FIFO (whose opening would wait for a writer), a device such as /dev/zero (which
    never ends) or a huge file is a VariantError, found before anything is read."""

    def check(st: os.stat_result) -> None:
        if not stat.S_ISREG(st.st_mode):
            kind = (
                "a directory"
                if stat.S_ISDIR(st.st_mode)
                else ("a FIFO" if stat.S_ISFIFO(st.st_mode) else "a device or other special file")
            )
            raise VariantError(f"cannot read variant definition {path!r}: {kind}, not a regular file")
        if st.st_size > MAX_DEFINITION_BYTES:
            raise VariantError(
                f"cannot read variant definition {path!r}: {st.st_size} bytes, more than the "
                f"{MAX_DEFINITION_BYTES} a definition file may have"
            )

    try:
        check(os.stat(path))
        # Non-blocking, and checked again once open: a file swapped in meanwhile cannot hang.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with open(fd, "rb") as f:
            check(os.fstat(f.fileno()))
            data = f.read(MAX_DEFINITION_BYTES + 1)
        if len(data) > MAX_DEFINITION_BYTES:
            raise VariantError(
                f"cannot read variant definition {path!r}: it grew past {MAX_DEFINITION_BYTES} bytes while being read"
            )
        return data.decode("utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise VariantError(f"cannot read variant definition {path!r}: {e}") from None


class Board:
    """A position of a chess variant, with its move history.

    ``variant`` is a built-in name or a definition file's path; ``fen`` defaults to the
    variant's start position. Bad input raises ``VariantError``, ``FenError``,
    ``InvalidMoveError`` or ``IllegalMoveError`` (all ``ValueError``) and changes nothing.
    """

    def __init__(self, variant: VariantSpec = "chess", fen: Optional[str] = None) -> None:
        sources, name = load(variant)
        self._b = VariantBoard(sources, name, fen)

    @property
    def variant(self) -> str:
        """The variant's name (its section name)."""
        return self._b.variant

    @property
    def files(self) -> int:
        return self._b.files

    @property
    def ranks(self) -> int:
        return self._b.ranks

    @property
    def starting_fen(self) -> str:
        return self._b.starting_fen

    @property
    def turn(self) -> bool:
        """True when White is to move."""
        return self._b.turn

    @property
    def legal_moves(self) -> list[str]:
        """The legal moves, UCI text."""
        return self._b.legal_moves()

    def pieces(self) -> list[tuple[str, str, str]]:
        """The piece types as (letter, defining key, Betza)."""
        return self._b.pieces()

    def fen(self) -> str:
        return self._b.fen()

    def is_legal(self, move: str) -> bool:
        """Whether ``move`` is legal; generates only the moving piece's moves."""
        return self._b.is_legal(move)

    def push(self, move: str) -> None:
        self._b.push(move)

    def pop(self) -> str:
        return self._b.pop()

    def is_check(self) -> bool:
        return self._b.is_check()

    def outcome(self) -> Optional[tuple[str, str]]:
        """None while the game goes on, else (result for the side to move: "win", "loss"
        or "draw"; the rule: "checkmate", "stalemate", "extinction" (bare king) or
        "n-move rule")."""
        return self._b.outcome()

    def is_game_over(self) -> bool:
        return self._b.outcome() is not None

    def perft(self, depth: int) -> int:
        return self._b.perft(depth)

    def divide(self, depth: int) -> dict[str, int]:
        return self._b.divide(depth)

    def copy(self) -> "Board":
        b = Board.__new__(Board)
        b._b = self._b.copy()
        return b

    def __repr__(self) -> str:
        return f"kibitz.variant.Board({self.variant!r}, {self.fen()!r})"
