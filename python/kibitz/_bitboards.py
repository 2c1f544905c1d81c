"""Bitboards as plain ints, with python-chess's names: the ``BB_*`` square, file, rank and
attack masks, the bit helpers (``lsb``, ``msb``, ``popcount``, ``scan_forward``, ...), the
shifts and flips, square distances, rays, ``Status`` and the other module-level constants.

A bitboard is an int whose bit ``s`` stands for square ``s`` (a1 = 0, b1 = 1, ..., h8 = 63),
python-chess's numbering and kibitz's. Everything here is computed at import from that
definition (the tables of sliding attacks by occupancy, which python-chess also exports,
are built on first use: they take a noticeable moment and few programs read them).
"""

from __future__ import annotations

import enum
import functools
import re
from typing import Callable, Iterable, Iterator, List, Literal, SupportsInt, TypeVar, Union, cast

from kibitz._constants import PIECE_NAMES, PIECE_SYMBOLS, SQUARES, PieceType, Square

__all__ = [
    "Bitboard",
    "IntoSquareSet",
    "ColorName",
    "EnPassantSpec",
    "BaseBoardT",
    "BoardT",
    "BB_EMPTY",
    "BB_ALL",
    "BB_SQUARES",
    "BB_A1",
    "BB_B1",
    "BB_C1",
    "BB_D1",
    "BB_E1",
    "BB_F1",
    "BB_G1",
    "BB_H1",
    "BB_A2",
    "BB_B2",
    "BB_C2",
    "BB_D2",
    "BB_E2",
    "BB_F2",
    "BB_G2",
    "BB_H2",
    "BB_A3",
    "BB_B3",
    "BB_C3",
    "BB_D3",
    "BB_E3",
    "BB_F3",
    "BB_G3",
    "BB_H3",
    "BB_A4",
    "BB_B4",
    "BB_C4",
    "BB_D4",
    "BB_E4",
    "BB_F4",
    "BB_G4",
    "BB_H4",
    "BB_A5",
    "BB_B5",
    "BB_C5",
    "BB_D5",
    "BB_E5",
    "BB_F5",
    "BB_G5",
    "BB_H5",
    "BB_A6",
    "BB_B6",
    "BB_C6",
    "BB_D6",
    "BB_E6",
    "BB_F6",
    "BB_G6",
    "BB_H6",
    "BB_A7",
    "BB_B7",
    "BB_C7",
    "BB_D7",
    "BB_E7",
    "BB_F7",
    "BB_G7",
    "BB_H7",
    "BB_A8",
    "BB_B8",
    "BB_C8",
    "BB_D8",
    "BB_E8",
    "BB_F8",
    "BB_G8",
    "BB_H8",
    "BB_FILES",
    "BB_RANKS",
    "BB_FILE_A",
    "BB_FILE_B",
    "BB_FILE_C",
    "BB_FILE_D",
    "BB_FILE_E",
    "BB_FILE_F",
    "BB_FILE_G",
    "BB_FILE_H",
    "BB_RANK_1",
    "BB_RANK_2",
    "BB_RANK_3",
    "BB_RANK_4",
    "BB_RANK_5",
    "BB_RANK_6",
    "BB_RANK_7",
    "BB_RANK_8",
    "BB_CORNERS",
    "BB_CENTER",
    "BB_BACKRANKS",
    "BB_LIGHT_SQUARES",
    "BB_DARK_SQUARES",
    "STARTING_BOARD_FEN",
    "UNICODE_PIECE_SYMBOLS",
    "SAN_REGEX",
    "FEN_CASTLING_REGEX",
    "piece_symbol",
    "piece_name",
    "lsb",
    "msb",
    "scan_forward",
    "scan_reversed",
    "popcount",
    "square_distance",
    "square_manhattan_distance",
    "square_knight_distance",
    "square_mirror",
    "SQUARES_180",
    "shift_down",
    "shift_2_down",
    "shift_up",
    "shift_2_up",
    "shift_right",
    "shift_2_right",
    "shift_left",
    "shift_2_left",
    "shift_up_left",
    "shift_up_right",
    "shift_down_left",
    "shift_down_right",
    "flip_vertical",
    "flip_horizontal",
    "flip_diagonal",
    "flip_anti_diagonal",
    "BB_KNIGHT_ATTACKS",
    "BB_KING_ATTACKS",
    "BB_PAWN_ATTACKS",
    "BB_RAYS",
    "ray",
    "between",
    "Status",
    "STATUS_VALID",
    "STATUS_NO_WHITE_KING",
    "STATUS_NO_BLACK_KING",
    "STATUS_TOO_MANY_KINGS",
    "STATUS_TOO_MANY_WHITE_PAWNS",
    "STATUS_TOO_MANY_BLACK_PAWNS",
    "STATUS_PAWNS_ON_BACKRANK",
    "STATUS_TOO_MANY_WHITE_PIECES",
    "STATUS_TOO_MANY_BLACK_PIECES",
    "STATUS_BAD_CASTLING_RIGHTS",
    "STATUS_INVALID_EP_SQUARE",
    "STATUS_OPPOSITE_CHECK",
    "STATUS_EMPTY",
    "STATUS_RACE_CHECK",
    "STATUS_RACE_OVER",
    "STATUS_RACE_MATERIAL",
    "STATUS_TOO_MANY_CHECKERS",
    "STATUS_IMPOSSIBLE_CHECK",
]

Bitboard = int
IntoSquareSet = Union[SupportsInt, Iterable[Square]]
ColorName = Literal["white", "black"]
EnPassantSpec = Literal["legal", "fully", "xfen"]
BaseBoardT = TypeVar("BaseBoardT", bound="object")
BoardT = TypeVar("BoardT", bound="object")

BB_EMPTY: Bitboard = 0
BB_ALL: Bitboard = (1 << 64) - 1

BB_SQUARES: List[Bitboard] = [1 << s for s in SQUARES]
# fmt: off
BB_A1: Bitboard = 1 << 0
BB_B1: Bitboard = 1 << 1
BB_C1: Bitboard = 1 << 2
BB_D1: Bitboard = 1 << 3
BB_E1: Bitboard = 1 << 4
BB_F1: Bitboard = 1 << 5
BB_G1: Bitboard = 1 << 6
BB_H1: Bitboard = 1 << 7
BB_A2: Bitboard = 1 << 8
BB_B2: Bitboard = 1 << 9
BB_C2: Bitboard = 1 << 10
BB_D2: Bitboard = 1 << 11
BB_E2: Bitboard = 1 << 12
BB_F2: Bitboard = 1 << 13
BB_G2: Bitboard = 1 << 14
BB_H2: Bitboard = 1 << 15
BB_A3: Bitboard = 1 << 16
BB_B3: Bitboard = 1 << 17
BB_C3: Bitboard = 1 << 18
BB_D3: Bitboard = 1 << 19
BB_E3: Bitboard = 1 << 20
BB_F3: Bitboard = 1 << 21
BB_G3: Bitboard = 1 << 22
BB_H3: Bitboard = 1 << 23
BB_A4: Bitboard = 1 << 24
BB_B4: Bitboard = 1 << 25
BB_C4: Bitboard = 1 << 26
BB_D4: Bitboard = 1 << 27
BB_E4: Bitboard = 1 << 28
BB_F4: Bitboard = 1 << 29
BB_G4: Bitboard = 1 << 30
BB_H4: Bitboard = 1 << 31
BB_A5: Bitboard = 1 << 32
BB_B5: Bitboard = 1 << 33
BB_C5: Bitboard = 1 << 34
BB_D5: Bitboard = 1 << 35
BB_E5: Bitboard = 1 << 36
BB_F5: Bitboard = 1 << 37
BB_G5: Bitboard = 1 << 38
BB_H5: Bitboard = 1 << 39
BB_A6: Bitboard = 1 << 40
BB_B6: Bitboard = 1 << 41
BB_C6: Bitboard = 1 << 42
BB_D6: Bitboard = 1 << 43
BB_E6: Bitboard = 1 << 44
BB_F6: Bitboard = 1 << 45
BB_G6: Bitboard = 1 << 46
BB_H6: Bitboard = 1 << 47
BB_A7: Bitboard = 1 << 48
BB_B7: Bitboard = 1 << 49
BB_C7: Bitboard = 1 << 50
BB_D7: Bitboard = 1 << 51
BB_E7: Bitboard = 1 << 52
BB_F7: Bitboard = 1 << 53
BB_G7: Bitboard = 1 << 54
BB_H7: Bitboard = 1 << 55
BB_A8: Bitboard = 1 << 56
BB_B8: Bitboard = 1 << 57
BB_C8: Bitboard = 1 << 58
BB_D8: Bitboard = 1 << 59
BB_E8: Bitboard = 1 << 60
BB_F8: Bitboard = 1 << 61
BB_G8: Bitboard = 1 << 62
BB_H8: Bitboard = 1 << 63
# fmt: on

BB_FILES: List[Bitboard] = [0x0101_0101_0101_0101 << f for f in range(8)]
BB_RANKS: List[Bitboard] = [0xFF << (8 * r) for r in range(8)]
BB_FILE_A: Bitboard = BB_FILES[0]
BB_FILE_B: Bitboard = BB_FILES[1]
BB_FILE_C: Bitboard = BB_FILES[2]
BB_FILE_D: Bitboard = BB_FILES[3]
BB_FILE_E: Bitboard = BB_FILES[4]
BB_FILE_F: Bitboard = BB_FILES[5]
BB_FILE_G: Bitboard = BB_FILES[6]
BB_FILE_H: Bitboard = BB_FILES[7]
BB_RANK_1: Bitboard = BB_RANKS[0]
BB_RANK_2: Bitboard = BB_RANKS[1]
BB_RANK_3: Bitboard = BB_RANKS[2]
BB_RANK_4: Bitboard = BB_RANKS[3]
BB_RANK_5: Bitboard = BB_RANKS[4]
BB_RANK_6: Bitboard = BB_RANKS[5]
BB_RANK_7: Bitboard = BB_RANKS[6]
BB_RANK_8: Bitboard = BB_RANKS[7]

BB_CORNERS: Bitboard = (1 << 0) | (1 << 7) | (1 << 56) | (1 << 63)
BB_CENTER: Bitboard = (1 << 27) | (1 << 28) | (1 << 35) | (1 << 36)  # d4 e4 d5 e5
BB_BACKRANKS: Bitboard = BB_RANKS[0] | BB_RANKS[7]
# a1 is dark; a square is light when its file and rank differ in parity.
BB_LIGHT_SQUARES: Bitboard = sum(1 << s for s in SQUARES if (s % 8 + s // 8) % 2 == 1)
BB_DARK_SQUARES: Bitboard = BB_ALL ^ BB_LIGHT_SQUARES

STARTING_BOARD_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
UNICODE_PIECE_SYMBOLS = {
    "R": "\u2656", "r": "\u265c",
    "N": "\u2658", "n": "\u265e",
    "B": "\u2657", "b": "\u265d",
    "Q": "\u2655", "q": "\u265b",
    "K": "\u2654", "k": "\u265a",
    "P": "\u2659", "p": "\u265f",
}  # fmt: skip

# Standard algebraic notation: piece letter, disambiguating file and/or rank, capture,
# target square, promotion, check or mate sign. Groups: piece, from file, from rank,
# target, promotion.
SAN_REGEX = re.compile(r"^([NBKRQ])?([a-h])?([1-8])?[\-x]?([a-h][1-8])(=?[nbrqkNBRQK])?[\+#]?\Z")
# A FEN castling field: "-", or K, Q, k, q in that order, each at most once.
FEN_CASTLING_REGEX = re.compile(r"^(?:-|[KQABCDEFGH]{0,2}[kqabcdefgh]{0,2})\Z")


def piece_symbol(piece_type: PieceType) -> str:
    """The lower-case letter of a piece type (``"p"`` ... ``"k"``); None for 0, as
    python-chess's (its annotation says ``str``, its table holds None there)."""
    return cast(str, PIECE_SYMBOLS[piece_type])


def piece_name(piece_type: PieceType) -> str:
    """The name of a piece type (``"pawn"`` ... ``"king"``); None for 0, as python-chess's."""
    return cast(str, PIECE_NAMES[piece_type])


def lsb(bb: Bitboard) -> int:
    """The lowest set square of a non-empty bitboard (-1 for an empty one)."""
    return (bb & -bb).bit_length() - 1


def msb(bb: Bitboard) -> int:
    """The highest set square of a non-empty bitboard (-1 for an empty one)."""
    return bb.bit_length() - 1


def scan_forward(bb: Bitboard) -> Iterator[Square]:
    """The set squares, lowest first."""
    while bb:
        low = bb & -bb
        yield low.bit_length() - 1
        bb ^= low


def scan_reversed(bb: Bitboard) -> Iterator[Square]:
    """The set squares, highest first."""
    while bb:
        top = bb.bit_length() - 1
        yield top
        bb ^= 1 << top


# The number of set squares: int.bit_count itself, as python-chess takes it (an int only).
popcount: Callable[[Bitboard], int] = int.bit_count


def square_distance(a: Square, b: Square) -> int:
    """King steps from a to b (Chebyshev distance)."""
    return max(abs(a % 8 - b % 8), abs(a // 8 - b // 8))


def square_manhattan_distance(a: Square, b: Square) -> int:
    """Files plus ranks between a and b."""
    return abs(a % 8 - b % 8) + abs(a // 8 - b // 8)


_KNIGHT_DISTANCE: List[List[int]] = []


def square_knight_distance(a: Square, b: Square) -> int:
    """Knight moves from a to b on an empty board (a breadth-first search from every
    square, made on first use)."""
    if not _KNIGHT_DISTANCE:
        for start in SQUARES:
            dist = [-1] * 64
            dist[start] = 0
            frontier = [start]
            while frontier:
                nxt = []
                for s in frontier:
                    for t in scan_forward(BB_KNIGHT_ATTACKS[s]):
                        if dist[t] < 0:
                            dist[t] = dist[s] + 1
                            nxt.append(t)
                frontier = nxt
            _KNIGHT_DISTANCE.append(dist)
    return _KNIGHT_DISTANCE[a][b]


def square_mirror(square: Square) -> Square:
    """The square on the same file, seen from the other side (a1 <-> a8)."""
    return square ^ 0x38


SQUARES_180: List[Square] = [square_mirror(s) for s in SQUARES]


# Shifts: the whole set one or two steps in a direction; squares pushed off the board are lost.
_NOT_A = BB_ALL ^ BB_FILES[0]
_NOT_H = BB_ALL ^ BB_FILES[7]
_NOT_AB = _NOT_A & (BB_ALL ^ BB_FILES[1])
_NOT_GH = _NOT_H & (BB_ALL ^ BB_FILES[6])


def shift_down(b: Bitboard) -> Bitboard:
    return b >> 8


def shift_2_down(b: Bitboard) -> Bitboard:
    return b >> 16


def shift_up(b: Bitboard) -> Bitboard:
    return (b << 8) & BB_ALL


def shift_2_up(b: Bitboard) -> Bitboard:
    return (b << 16) & BB_ALL


def shift_right(b: Bitboard) -> Bitboard:
    return (b << 1) & _NOT_A & BB_ALL


def shift_2_right(b: Bitboard) -> Bitboard:
    return (b << 2) & _NOT_AB & BB_ALL


def shift_left(b: Bitboard) -> Bitboard:
    return (b >> 1) & _NOT_H


def shift_2_left(b: Bitboard) -> Bitboard:
    return (b >> 2) & _NOT_GH


def shift_up_left(b: Bitboard) -> Bitboard:
    return (b << 7) & _NOT_H & BB_ALL


def shift_up_right(b: Bitboard) -> Bitboard:
    return (b << 9) & _NOT_A & BB_ALL


def shift_down_left(b: Bitboard) -> Bitboard:
    return (b >> 9) & _NOT_H


def shift_down_right(b: Bitboard) -> Bitboard:
    return (b >> 7) & _NOT_A


def _same_kind(flip: Callable[[Bitboard], Bitboard]) -> Callable[[Bitboard], Bitboard]:
    """A flip of ints that also takes a SquareSet (or any int-like mask) and gives back the
    same kind, as python-chess's flips do: computed on the int, then converted back."""

    @functools.wraps(flip)
    def wrapper(bb: Bitboard) -> Bitboard:
        if type(bb) is int:
            return flip(bb)
        return type(bb)(flip(int(bb)))

    return wrapper


# Flips by delta swaps (the chessprogramming wiki's "Flipping Mirroring and Rotating").
@_same_kind
def flip_vertical(bb: Bitboard) -> Bitboard:
    """Ranks reversed (a1 <-> a8)."""
    bb = ((bb >> 8) & 0x00FF_00FF_00FF_00FF) | ((bb & 0x00FF_00FF_00FF_00FF) << 8)
    bb = ((bb >> 16) & 0x0000_FFFF_0000_FFFF) | ((bb & 0x0000_FFFF_0000_FFFF) << 16)
    return ((bb >> 32) | (bb << 32)) & BB_ALL


@_same_kind
def flip_horizontal(bb: Bitboard) -> Bitboard:
    """Files reversed (a1 <-> h1)."""
    bb = ((bb >> 1) & 0x5555_5555_5555_5555) | ((bb & 0x5555_5555_5555_5555) << 1)
    bb = ((bb >> 2) & 0x3333_3333_3333_3333) | ((bb & 0x3333_3333_3333_3333) << 2)
    return ((bb >> 4) & 0x0F0F_0F0F_0F0F_0F0F) | ((bb & 0x0F0F_0F0F_0F0F_0F0F) << 4)


@_same_kind
def flip_diagonal(bb: Bitboard) -> Bitboard:
    """Mirrored in the a1-h8 diagonal (a8 <-> h1)."""
    t = (bb ^ (bb << 28)) & 0x0F0F_0F0F_0000_0000
    bb = (bb ^ t ^ (t >> 28)) & BB_ALL
    t = (bb ^ (bb << 14)) & 0x3333_0000_3333_0000
    bb = (bb ^ t ^ (t >> 14)) & BB_ALL
    t = (bb ^ (bb << 7)) & 0x5500_5500_5500_5500
    return (bb ^ t ^ (t >> 7)) & BB_ALL


@_same_kind
def flip_anti_diagonal(bb: Bitboard) -> Bitboard:
    """Mirrored in the a8-h1 diagonal (a1 <-> h8)."""
    t = bb ^ (bb << 36)
    bb = (bb ^ (0xF0F0_F0F0_0F0F_0F0F & (t ^ (bb >> 36)))) & BB_ALL
    t = 0xCCCC_0000_CCCC_0000 & (bb ^ (bb << 18))
    bb = (bb ^ t ^ (t >> 18)) & BB_ALL
    t = 0xAA00_AA00_AA00_AA00 & (bb ^ (bb << 9))
    return (bb ^ t ^ (t >> 9)) & BB_ALL


def _steps(square: Square, deltas: Iterable[tuple[int, int]]) -> Bitboard:
    """The squares reached from `square` by single steps of (file, rank) deltas."""
    f, r = square % 8, square // 8
    bb = 0
    for df, dr in deltas:
        if 0 <= f + df < 8 and 0 <= r + dr < 8:
            bb |= 1 << ((r + dr) * 8 + f + df)
    return bb


_KNIGHT_DELTAS = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
_KING_DELTAS = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]

BB_KNIGHT_ATTACKS: List[Bitboard] = [_steps(s, _KNIGHT_DELTAS) for s in SQUARES]
BB_KING_ATTACKS: List[Bitboard] = [_steps(s, _KING_DELTAS) for s in SQUARES]
# Indexed by colour as a bool: [BLACK] (False, 0) attacks downwards, [WHITE] upwards.
BB_PAWN_ATTACKS: List[List[Bitboard]] = [
    [_steps(s, [(-1, -1), (1, -1)]) for s in SQUARES],
    [_steps(s, [(-1, 1), (1, 1)]) for s in SQUARES],
]


def _slide(square: Square, directions: Iterable[tuple[int, int]], occupied: Bitboard) -> Bitboard:
    """Squares a slider reaches from `square` along `directions`, stopping at (and
    including) the first occupied square on each."""
    bb = 0
    for df, dr in directions:
        f, r = square % 8 + df, square // 8 + dr
        while 0 <= f < 8 and 0 <= r < 8:
            bit = 1 << (r * 8 + f)
            bb |= bit
            if occupied & bit:
                break
            f += df
            r += dr
    return bb


_DIAG_DIRS = [(1, 1), (-1, -1), (1, -1), (-1, 1)]
_FILE_DIRS = [(0, 1), (0, -1)]
_RANK_DIRS = [(1, 0), (-1, 0)]


def _lines(square: Square) -> tuple[Bitboard, ...]:
    """The four lines through a square, edge to edge, the square included: its file, its
    rank, its diagonal and its anti-diagonal."""
    f, r = square % 8, square // 8
    file_line = BB_FILES[f]
    rank_line = BB_RANKS[r]
    diag = sum(1 << (rr * 8 + rr - r + f) for rr in range(8) if 0 <= rr - r + f < 8)
    anti = sum(1 << (rr * 8 + r + f - rr) for rr in range(8) if 0 <= r + f - rr < 8)
    return file_line, rank_line, diag, anti


_LINES = [_lines(s) for s in SQUARES]


def _ray_line(a: Square, b: Square) -> Bitboard:
    """The whole line (edge to edge) through a and b when they share a rank, file or
    diagonal and differ; else 0."""
    if a != b:
        for line in _LINES[a]:
            if line >> b & 1:
                return line
    return 0


BB_RAYS: List[List[Bitboard]] = [[_ray_line(a, b) for b in SQUARES] for a in SQUARES]


def ray(a: Square, b: Square) -> Bitboard:
    """The line through a and b, edge to edge, when they are aligned; else 0."""
    return BB_RAYS[a][b]


def between(a: Square, b: Square) -> Bitboard:
    """The squares strictly between a and b when they are aligned; else 0."""
    line = BB_RAYS[a][b] & ((BB_ALL << a) ^ (BB_ALL << b))
    return line & (line - 1)


def _edges(square: Square) -> Bitboard:
    """The board's edge squares, less those on the square's own rank and file (they do not
    stop a slider that stands on that edge)."""
    return ((BB_RANKS[0] | BB_RANKS[7]) & ~BB_RANKS[square // 8]) | (
        (BB_FILES[0] | BB_FILES[7]) & ~BB_FILES[square % 8]
    )


def _subsets(mask: Bitboard) -> Iterator[Bitboard]:
    """Every subset of `mask` (the carry-rippler)."""
    subset = 0
    while True:
        yield subset
        subset = (subset - mask) & mask
        if not subset:
            return


def _attack_table(dirs: list[tuple[int, int]]) -> tuple[List[Bitboard], List[dict[Bitboard, Bitboard]]]:
    masks, tables = [], []
    for s in SQUARES:
        mask = _slide(s, dirs, 0) & ~_edges(s)
        masks.append(mask)
        tables.append({sub: _slide(s, dirs, sub) for sub in _subsets(mask)})
    return masks, tables


# Sliding attacks by occupancy, as python-chess exports them (mask of the relevant squares
# per square, and a dict from each subset of it to the attacked squares); built on first
# access by kibitz's module __getattr__.
_LAZY_TABLES = {
    "BB_DIAG_MASKS": (_DIAG_DIRS, 0),
    "BB_DIAG_ATTACKS": (_DIAG_DIRS, 1),
    "BB_FILE_MASKS": (_FILE_DIRS, 0),
    "BB_FILE_ATTACKS": (_FILE_DIRS, 1),
    "BB_RANK_MASKS": (_RANK_DIRS, 0),
    "BB_RANK_ATTACKS": (_RANK_DIRS, 1),
}
_built: dict[str, object] = {}


def lazy_table(name: str) -> object:
    """One of the sliding-attack tables, built on first use."""
    if name not in _built:
        dirs, which = _LAZY_TABLES[name]
        masks, tables = _attack_table(dirs)
        prefix = name.rsplit("_", 1)[0]
        _built[f"{prefix}_MASKS"] = masks
        _built[f"{prefix}_ATTACKS"] = tables
    return _built[name]


class Status(enum.IntFlag):
    """What makes a position invalid, as ``Board.status()`` reports it (flags combine)."""

    VALID = 0
    NO_WHITE_KING = 1 << 0
    NO_BLACK_KING = 1 << 1
    TOO_MANY_KINGS = 1 << 2
    TOO_MANY_WHITE_PAWNS = 1 << 3
    TOO_MANY_BLACK_PAWNS = 1 << 4
    PAWNS_ON_BACKRANK = 1 << 5
    TOO_MANY_WHITE_PIECES = 1 << 6
    TOO_MANY_BLACK_PIECES = 1 << 7
    BAD_CASTLING_RIGHTS = 1 << 8
    INVALID_EP_SQUARE = 1 << 9
    OPPOSITE_CHECK = 1 << 10
    EMPTY = 1 << 11
    RACE_CHECK = 1 << 12
    RACE_OVER = 1 << 13
    RACE_MATERIAL = 1 << 14
    TOO_MANY_CHECKERS = 1 << 15
    IMPOSSIBLE_CHECK = 1 << 16


STATUS_VALID = Status.VALID
STATUS_NO_WHITE_KING = Status.NO_WHITE_KING
STATUS_NO_BLACK_KING = Status.NO_BLACK_KING
STATUS_TOO_MANY_KINGS = Status.TOO_MANY_KINGS
STATUS_TOO_MANY_WHITE_PAWNS = Status.TOO_MANY_WHITE_PAWNS
STATUS_TOO_MANY_BLACK_PAWNS = Status.TOO_MANY_BLACK_PAWNS
STATUS_PAWNS_ON_BACKRANK = Status.PAWNS_ON_BACKRANK
STATUS_TOO_MANY_WHITE_PIECES = Status.TOO_MANY_WHITE_PIECES
STATUS_TOO_MANY_BLACK_PIECES = Status.TOO_MANY_BLACK_PIECES
STATUS_BAD_CASTLING_RIGHTS = Status.BAD_CASTLING_RIGHTS
STATUS_INVALID_EP_SQUARE = Status.INVALID_EP_SQUARE
STATUS_OPPOSITE_CHECK = Status.OPPOSITE_CHECK
STATUS_EMPTY = Status.EMPTY
STATUS_RACE_CHECK = Status.RACE_CHECK
STATUS_RACE_OVER = Status.RACE_OVER
STATUS_RACE_MATERIAL = Status.RACE_MATERIAL
STATUS_TOO_MANY_CHECKERS = Status.TOO_MANY_CHECKERS
STATUS_IMPOSSIBLE_CHECK = Status.IMPOSSIBLE_CHECK
