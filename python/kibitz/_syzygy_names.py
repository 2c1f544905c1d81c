"""Syzygy table names and material keys, as python-chess names them: the names of a set of
tables (``tablenames``), a name's normal form and its mirror (``normalize_tablename``), the
tables a table's probes lead to (``dependencies``), a position's key (``calc_key``), and the
DTZ of a WDL value next to a zeroing move. Text and piece counts only; the file format is
``kibitz/_syzygy_format.py``'s.
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Iterator, List, Optional, Set

from kibitz._constants import BLACK, WHITE

# The most pieces (kings included) of any published table: the 7-piece tables.
TBPIECES = 7

PCHR = ["K", "Q", "R", "B", "N", "P"]
TABLENAME_REGEX = re.compile(r"^[KQRBNP]+v[KQRBNP]+\Z")


# Table names --------------------------------------------------------------------------


def _strength(side: str) -> List[int]:
    return [PCHR.index(c) for c in side]


def normalize_tablename(name: str, *, mirror: bool = False) -> str:
    """The name as its table file is named: each side's pieces strongest first, and the
    side with more (or, as many, stronger) pieces first; ``mirror`` gives the other side first."""
    left, right = (("".join(sorted(side, key=PCHR.index))) for side in name.split("v", 1))
    swap = (len(left), _strength(right)) < (len(right), _strength(left))
    return right + "v" + left if swap != mirror else left + "v" + right


def is_tablename(
    name: str, *, one_king: bool = True, piece_count: Optional[int] = TBPIECES, normalized: bool = True
) -> bool:
    """Whether `name` names a table (``KRvK``): pieces on both sides of a ``v``, at most
    ``piece_count``, normalized when asked, each side with its king when ``one_king``."""
    if piece_count is not None and len(name) > piece_count + 1:
        return False
    if not TABLENAME_REGEX.match(name):
        return False
    if normalized and normalize_tablename(name) != name:
        return False
    return not one_king or (name != "KvK" and name.startswith("K") and "vK" in name)


def _reductions(target: str, *, one_king: bool = True) -> Iterator[str]:
    """The tables one promotion or one capture away from `target`, with repeats."""
    left, right = target.split("v", 1)
    for piece in PCHR:
        if piece == "K" and one_king:
            continue
        if piece != "P" and "P" in left:
            yield normalize_tablename(left.replace("P", piece, 1) + "v" + right)
        if piece != "P" and "P" in right:
            yield normalize_tablename(left + "v" + right.replace("P", piece, 1))
        if piece in left and len(left) > 1:
            yield normalize_tablename(left.replace(piece, "", 1) + "v" + right)
        if piece in right and len(right) > 1:
            yield normalize_tablename(left + "v" + right.replace(piece, "", 1))


def dependencies(target: str, *, one_king: bool = True) -> Iterator[str]:
    """The tables a probe of `target` may reach in one capture or promotion (bare kings
    need none)."""
    seen: Set[str] = {"KvK"} if one_king else set()
    for name in _reductions(target, one_king=one_king):
        if name not in seen and len(name) > 2:
            seen.add(name)
            yield name


def all_dependencies(targets: Iterable[str], *, one_king: bool = True) -> Iterator[str]:
    """The `targets` and every table reachable from them by captures and promotions."""
    seen: Set[str] = {"KvK"} if one_king else set()
    stack = [normalize_tablename(target) for target in targets]
    while stack:
        name = stack.pop()
        if name in seen:
            continue
        seen.add(name)
        yield name
        stack.extend(_reductions(name, one_king=one_king))


def tablenames(*, one_king: bool = True, piece_count: int = 6) -> Iterator[str]:
    """Every table of up to `piece_count` pieces."""
    first = "K" if one_king else "P"
    targets = []
    for black in range((piece_count - 2) // 2 + 1):
        white = piece_count - 2 - black
        targets.append(first + "P" * white + "v" + first + "P" * black)
    return all_dependencies(targets, one_king=one_king)


def calc_key(board: Any, *, mirror: bool = False) -> str:
    """The material of a board as a table name, white first (black first with ``mirror``)."""
    kinds = (board.kings, board.queens, board.rooks, board.bishops, board.knights, board.pawns)
    occupied_co = board.occupied_co
    first, second = occupied_co[WHITE ^ mirror], occupied_co[BLACK ^ mirror]
    return (
        f"{'K' * (kinds[0] & first).bit_count()}{'Q' * (kinds[1] & first).bit_count()}"
        f"{'R' * (kinds[2] & first).bit_count()}{'B' * (kinds[3] & first).bit_count()}"
        f"{'N' * (kinds[4] & first).bit_count()}{'P' * (kinds[5] & first).bit_count()}v"
        f"{'K' * (kinds[0] & second).bit_count()}{'Q' * (kinds[1] & second).bit_count()}"
        f"{'R' * (kinds[2] & second).bit_count()}{'B' * (kinds[3] & second).bit_count()}"
        f"{'N' * (kinds[4] & second).bit_count()}{'P' * (kinds[5] & second).bit_count()}"
    )


def recalc_key(pieces: List[int], *, mirror: bool = False) -> str:
    """The material of a table's piece list (the file's codes: 1-6 pawn to king for white,
    9-14 for black) as a table name, white first (black first with ``mirror``)."""
    first, second = (8, 0) if mirror else (0, 8)
    return "v".join(
        "".join(symbol * pieces.count(code ^ color) for symbol, code in zip(PCHR, (6, 5, 4, 3, 2, 1)))
        for color in (first, second)
    )


def dtz_before_zeroing(wdl: int) -> int:
    """The DTZ of a WDL value when the zeroing move is the next one (0, ±1 or ±101)."""
    return ((wdl > 0) - (wdl < 0)) * (1 if abs(wdl) == 2 else 101)
