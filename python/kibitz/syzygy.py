"""Syzygy endgame tablebases, with the API of python-chess's ``chess.syzygy``.

``open_tablebase(directory)`` loads the ``.rtbw`` (win/draw/loss) and ``.rtbz`` (distance
to zeroing) tables of a directory; ``probe_wdl(board)`` and ``probe_dtz(board)`` answer for
the side to move, ``get_wdl`` / ``get_dtz`` return a default instead of raising. Boards may
be kibitz's or python-chess's. Probing is done in Rust (kibitz's tablebase layer, over the
``shakmaty-syzygy`` crate) without holding the GIL.

WDL values: 2 win, 1 win that the 50-move rule spoils ("cursed"), 0 draw, -1 loss that
the 50-move rule saves ("blessed"), -2 loss, assuming the position was reached by a
capture or pawn move. DTZ: plies to the next capture or pawn move on the best line,
positive when winning, negative when losing, 0 for a draw.

Errors as python-chess raises them: ``MissingTableError`` (a ``KeyError``) when the table
of the position's material is not loaded; ``KeyError`` for positions no table holds
(castling rights, more pieces than the largest table). A table file that cannot be used
(unreadable, or truncated: its size tells) is skipped when a directory is added, and
listed in ``Tablebase.skipped`` with the reason.
"""

from __future__ import annotations

import os
from typing import Any, Optional, TypeVar, Union

from kibitz._core import Board, MissingTableError
from kibitz._core import Tablebase as _CoreTablebase

__all__ = ["MissingTableError", "Tablebase", "open_tablebase"]

T = TypeVar("T")
PathLike = Union[str, "os.PathLike[str]"]


def _kibitz_board(board: Any) -> Board:
    """The board as a kibitz Board (a python-chess board is read through its FEN)."""
    if isinstance(board, Board):
        return board
    fen = board.fen()
    return Board(fen, chess960=bool(getattr(board, "chess960", False)))


class Tablebase:
    """A set of Syzygy tables; add directories, probe positions, ``close()`` (or use as a
    context manager). ``max_fds`` and ``VariantBoard`` are accepted for python-chess
    compatibility: tables are memory-mapped by the Rust prober, and only standard chess
    tables are supported."""

    def __init__(self, *, max_fds: Optional[int] = 128, VariantBoard: Any = None) -> None:
        self._core = _CoreTablebase()
        self.max_fds = max_fds
        #: Table files that could not be used, as (path, reason).
        self.skipped: list[tuple[str, str]] = []

    def add_directory(self, directory: PathLike, *, load_wdl: bool = True, load_dtz: bool = True) -> int:
        """Adds the tables in ``directory``; returns how many table files were added."""
        if load_wdl and load_dtz:
            added, skipped = self._core.add_directory(os.fspath(directory))
            self.skipped.extend(skipped)
            return int(added)
        wanted = {".rtbw"} if load_wdl else set()
        if load_dtz:
            wanted.add(".rtbz")
        added = 0
        for name in sorted(os.listdir(directory)):
            if os.path.splitext(name)[1] not in wanted:
                continue
            path = os.path.join(os.fspath(directory), name)
            try:
                self._core.add_file(path)
            except OSError as e:
                self.skipped.append((path, str(e)))
                continue
            added += 1
        return added

    def add_file(self, path: PathLike) -> None:
        """Adds one table file; ``OSError`` when it is not a usable table."""
        self._core.add_file(os.fspath(path))

    @property
    def max_pieces(self) -> int:
        """The most pieces (kings included) of any loaded table; 0 when none is loaded."""
        return int(self._core.max_pieces)

    def probe_wdl(self, board: Any) -> int:
        """WDL of the position for the side to move (see the module's doc)."""
        return int(self._core.probe_wdl(_kibitz_board(board)))

    def get_wdl(self, board: Any, default: Optional[T] = None) -> Union[int, T, None]:
        """``probe_wdl``, or ``default`` when no table answers."""
        try:
            return self.probe_wdl(board)
        except KeyError:
            return default

    def probe_dtz(self, board: Any) -> int:
        """DTZ of the position for the side to move, in plies (see the module's doc)."""
        return int(self._core.probe_dtz(_kibitz_board(board)))

    def get_dtz(self, board: Any, default: Optional[T] = None) -> Union[int, T, None]:
        """``probe_dtz``, or ``default`` when no table answers."""
        try:
            return self.probe_dtz(board)
        except KeyError:
            return default

    def close(self) -> None:
        """Forgets every table."""
        self._core.clear()
        self.skipped.clear()

    def __enter__(self) -> "Tablebase":
        return self

    def __exit__(self, *args: object) -> None:
        self.close()


def open_tablebase(
    directory: PathLike,
    *,
    load_wdl: bool = True,
    load_dtz: bool = True,
    max_fds: Optional[int] = 128,
    VariantBoard: Any = None,
) -> Tablebase:
    """A ``Tablebase`` with the tables of ``directory`` (add more with ``add_directory``)."""
    tables = Tablebase(max_fds=max_fds, VariantBoard=VariantBoard)
    tables.add_directory(directory, load_wdl=load_wdl, load_dtz=load_dtz)
    return tables
