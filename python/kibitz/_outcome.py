"""How a game ended: ``Termination`` and ``Outcome``, as python-chess names them.

``Board.outcome()`` returns an ``Outcome`` (or None while the game goes on). The enum has
python-chess's members and values, so code that compares terminations moves over unchanged.
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Optional


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


@dataclasses.dataclass(frozen=True)
class Outcome:
    """The end of a game: why (``termination``) and who won (``winner``: WHITE, BLACK or None)."""

    termination: Termination
    winner: Optional[bool]

    def result(self) -> str:
        """``1-0``, ``0-1`` or ``1/2-1/2``."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner else "0-1"
