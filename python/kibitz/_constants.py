"""Colours, piece types and squares, numbered as python-chess numbers them.

``WHITE``/``BLACK`` are True/False, ``PAWN``..``KING`` are 1..6, squares ``A1``..``H8`` are
0..63 (a1, b1, ..., h1, a2, ...). Code written for python-chess's constants works unchanged.
"""

from __future__ import annotations

# Type aliases, as python-chess names them (no `typing` import: it costs ~10 ms at startup).
Color = bool
PieceType = int
Square = int

WHITE: Color = True
BLACK: Color = False
COLORS: list[Color] = [WHITE, BLACK]
COLOR_NAMES: list[str] = ["black", "white"]

PAWN: PieceType = 1
KNIGHT: PieceType = 2
BISHOP: PieceType = 3
ROOK: PieceType = 4
QUEEN: PieceType = 5
KING: PieceType = 6
PIECE_TYPES: list[PieceType] = [PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING]
PIECE_SYMBOLS = [None, "p", "n", "b", "r", "q", "k"]
PIECE_NAMES = [None, "pawn", "knight", "bishop", "rook", "queen", "king"]

FILE_NAMES: list[str] = ["a", "b", "c", "d", "e", "f", "g", "h"]
RANK_NAMES: list[str] = ["1", "2", "3", "4", "5", "6", "7", "8"]

SQUARES: list[Square] = list(range(64))
SQUARE_NAMES: list[str] = [f + r for r in RANK_NAMES for f in FILE_NAMES]

# fmt: off
(A1, B1, C1, D1, E1, F1, G1, H1,
 A2, B2, C2, D2, E2, F2, G2, H2,
 A3, B3, C3, D3, E3, F3, G3, H3,
 A4, B4, C4, D4, E4, F4, G4, H4,
 A5, B5, C5, D5, E5, F5, G5, H5,
 A6, B6, C6, D6, E6, F6, G6, H6,
 A7, B7, C7, D7, E7, F7, G7, H7,
 A8, B8, C8, D8, E8, F8, G8, H8) = SQUARES
# fmt: on

_SQUARE_INDEX = {name: i for i, name in enumerate(SQUARE_NAMES)}


def square(file_index: int, rank_index: int) -> Square:
    """The square of a file and a rank, both 0..7 (``square(4, 3) == E4``)."""
    return rank_index * 8 + file_index


def square_file(square: Square) -> int:
    """The file of a square, 0 (a) .. 7 (h)."""
    return square & 7


def square_rank(square: Square) -> int:
    """The rank of a square, 0 (first) .. 7 (eighth)."""
    return square >> 3


def square_name(square: Square) -> str:
    """The name of a square, ``"a1"`` .. ``"h8"``."""
    return SQUARE_NAMES[square]


def parse_square(name: str) -> Square:
    """The square of a name ``"a1"`` .. ``"h8"``; ValueError for anything else."""
    try:
        return _SQUARE_INDEX[name]
    except (KeyError, TypeError):
        raise ValueError(f"not a square name: {name!r} (expected a1..h8)") from None
