"""How a game ended: ``Termination`` and ``Outcome``, as python-chess names them.

``Board.outcome()`` returns an ``Outcome`` (or None while the game goes on). The enum has
python-chess's members and values, so code that compares terminations moves over unchanged.
``Outcome`` is written out by hand rather than as a dataclass: importing ``dataclasses``
(which imports ``inspect`` and ``ast``) would add ~20 ms to every start of the UCI engine.
"""

from __future__ import annotations

import enum


class Termination(enum.Enum):
    """Why a game is over."""

    CHECKMATE = 1
    STALEMATE = 2
    INSUFFICIENT_MATERIAL = 3
    SEVENTYFIVE_MOVES = 4
    FIVEFOLD_REPETITION = 5
    FIFTY_MOVES = 6
    THREEFOLD_REPETITION = 7
    VARIANT_WIN = 8
    VARIANT_LOSS = 9
    VARIANT_DRAW = 10


class Outcome:
    """The end of a game: why (``termination``) and who won (``winner``: WHITE, BLACK or None)."""

    __slots__ = ("termination", "winner")
    # python-chess's dataclass fields, for ``case Outcome(termination, winner)``.
    __match_args__ = ("termination", "winner")
    termination: Termination
    winner: bool | None

    def __init__(self, termination: Termination, winner: bool | None) -> None:
        self.termination = termination
        self.winner = winner

    def result(self) -> str:
        """``1-0``, ``0-1`` or ``1/2-1/2``."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner else "0-1"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Outcome):
            return NotImplemented
        return (self.termination, self.winner) == (other.termination, other.winner)

    def __hash__(self) -> int:
        return hash((self.termination, self.winner))

    def __repr__(self) -> str:
        return f"Outcome(termination={self.termination!r}, winner={self.winner!r})"
