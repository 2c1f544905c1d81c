"""python-chess's variant boards (``chess.variant``) on kibitz's board.

Each class is a subclass of ``kibitz.Board`` that changes the rules the way python-chess's
class of the same name does: the goal (``is_variant_end``, ``is_variant_win``,
``is_variant_loss``, ``is_variant_draw``), which moves are legal, what counts as
insufficient material, ``status()``, and the state some variants keep beyond the position
(three-check's counters, crazyhouse's pockets) in the FEN, the move stack and the
repetitions. Everything built on those (``legal_moves``, ``outcome()``, SAN with its ``#``,
repetitions, ``is_game_over()``...) follows from them as python-chess builds it
(``kibitz._hooks``), so a program written for ``chess.variant`` gets the same answers;
``kibitz.compat`` makes ``import chess.variant`` this module.

The variants: Suicide, Giveaway, Antichess, Atomic, King of the Hill, Racing Kings, Horde,
Three-check and Crazyhouse. A move kibitz's board does not make itself (an explosion, a
promotion to a king, a drop) is played as python-chess plays it on a copy and pushed with
the position it leads to (``Board._push_as``), so ``pop`` and ``move_stack`` work as for any
move.

The kibitz-only table-driven generator for other variants (Capablanca, Grand, Shatranj...)
is ``kibitz.variant.Board``.
"""

from __future__ import annotations

from typing import List, Type, TypeVar

from kibitz._core import Board
from kibitz.variant._atomic import AtomicBoard
from kibitz.variant._crazyhouse import CrazyhouseBoard, CrazyhousePocket
from kibitz.variant._horde import HordeBoard
from kibitz.variant._king_of_the_hill import KingOfTheHillBoard
from kibitz.variant._racing_kings import RacingKingsBoard
from kibitz.variant._suicide import AntichessBoard, GiveawayBoard, SuicideBoard
from kibitz.variant._three_check import ThreeCheckBoard

__all__ = [
    "AntichessBoard",
    "AtomicBoard",
    "CrazyhouseBoard",
    "CrazyhousePocket",
    "GiveawayBoard",
    "HordeBoard",
    "KingOfTheHillBoard",
    "RacingKingsBoard",
    "SuicideBoard",
    "ThreeCheckBoard",
    "VARIANTS",
    "find_variant",
]


ThreeCheckBoardT = TypeVar("ThreeCheckBoardT", bound=ThreeCheckBoard)
CrazyhouseBoardT = TypeVar("CrazyhouseBoardT", bound=CrazyhouseBoard)
CrazyhousePocketT = TypeVar("CrazyhousePocketT", bound=CrazyhousePocket)

#: The board classes, python-chess's list: standard chess first.
VARIANTS: List[Type[Board]] = [
    Board,
    SuicideBoard,
    GiveawayBoard,
    AntichessBoard,
    AtomicBoard,
    KingOfTheHillBoard,
    RacingKingsBoard,
    HordeBoard,
    ThreeCheckBoard,
    CrazyhouseBoard,
]


# The classes are python-chess's chess.variant names: they say so (repr, pickling).
for _cls in (*VARIANTS[1:], CrazyhousePocket):
    _cls.__module__ = __name__


def find_variant(name: str) -> Type[Board]:
    """The board class of a variant by one of its names (any case): ``"Atomic"``,
    ``"KOTH"``, ``"3check"``... A ``ValueError`` for a name none has."""
    wanted = name.lower()
    for variant in VARIANTS:
        if any(alias.lower() == wanted for alias in variant.aliases):
            return variant
    raise ValueError(f"unsupported variant: {name}")
