"""Positions as NumPy arrays for neural networks: 18 planes of 8x8.

=========  ====================================================================
planes     what is 1
=========  ====================================================================
0-5        White's pawns, knights, bishops, rooks, queens, king
6-11       Black's, in the same order
12-15      the whole plane when the right is held: White king side, White queen
           side, Black king side, Black queen side
16         the en-passant square, only when an en-passant capture is legal
17         the whole plane when White is to move
=========  ====================================================================

Row 0 is rank 8 and column 0 file a (the board as printed), so ``planes[p, r, c]`` is
square ``(7 - r) * 8 + c``. With ``canonical=True`` a position with Black to move is given
as its mirror image (ranks reversed, colours and castling rights swapped), so that the side
to move always plays up the board in planes 0-5 and plane 17 is all ones.

``board_to_tensor(board)`` (also ``Board.to_tensor()``) gives one position, shape
(18, 8, 8); ``to_tensors(boards_or_fens)`` a batch, shape (N, 18, 8, 8), filled in Rust
without the GIL and without a Python loop per position, into ``out`` when given. A FEN is
read as ``Board(fen)`` reads it: the same FENs are accepted (missing fields, castling
rights without their rook, any en-passant square, placements kibitz cannot play such as an
empty board), with the same errors for the rest, and the planes are that board's. dtype
is ``float32`` (the default) or ``uint8``, float32 in either byte order (``'>f4'``: the
planes are made in the machine's order and converted); any other dtype is refused with a
ValueError naming it (``'<f8' (little-endian float64)``). NumPy is needed only here:
``pip install kibitz[numpy]``.

``kibitz.pgn_to_tensors(source)`` (in ``kibitz.analysis.training``, beside the PGN
reader it uses) reads a PGN file (a path or a file object; ``.pgn.gz`` and
``.pgn.zst`` too) in chunks of training data, all made in Rust: the planes of the position
before each move of each finished game's main line, the move played there as an index, the
game's result, and the game's number. A move's index is ``from * 64 + to + 4096 * k``:
squares a1 = 0 .. h8 = 63 as ``Move.uci()`` names them (castling as the king's move in
standard chess, king takes rook in Chess960), ``k`` = 1, 2, 3 for a promotion to a knight,
bishop or rook and 0 otherwise (a queen promotion is the pawn's plain move), so 16,384
classes. With ``canonical=True`` the squares are mirrored (``^ 56``) when Black is to move,
as the planes are, and the result is the side to move's. A null move (``--``, ``Z0``,
``0000``, ``@@@@``, which python-chess reads) is index ``NULL_MOVE_INDEX``, 0: from a1 to
a1, as python-chess's ``Move.null()`` names its squares (no move goes from a square to
itself), canonical or not; the planes after it are the same position with the other side to
move (no en-passant square). A game's result is python-chess's: the Result tag, else (the
tag missing or ``*``) the result token that ends the movetext.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Iterable, NamedTuple, Optional, Union, cast

from kibitz._core import Board, board_planes, fill_planes_at

if TYPE_CHECKING:
    import numpy

__all__ = [
    "board_to_tensor",
    "to_tensors",
    "move_index",
    "PgnChunk",
    "UnindexedMoveError",
    "PLANES",
    "MOVE_INDEXES",
    "NULL_MOVE_INDEX",
]

#: Planes per position.
PLANES = 18

#: The number of move indexes (``move_index``): 64 x 64 squares x 4 promotion kinds.
MOVE_INDEXES = 4 * 64 * 64

#: The index of a null move: from a1 to a1, as python-chess's ``Move.null()`` names them.
NULL_MOVE_INDEX = 0

_UCI = re.compile(r"([a-h])([1-8])([a-h])([1-8])([nbrq]?)")


def _numpy() -> Any:
    try:
        import numpy
    except ImportError:
        raise ImportError("board planes need NumPy: pip install kibitz[numpy]") from None
    return numpy


def _describe(dtype: Any) -> str:
    """A dtype as messages name it: ``'>f4' (big-endian float32)``, ``'|b1' (bool)``."""
    order = {"<": "little-endian ", ">": "big-endian "}.get(dtype.str[0], "")
    return f"{dtype.str!r} ({order}{dtype.name})"


def _plane_dtype(dtype: Any) -> Any:
    """The NumPy dtype planes are asked for in (float32 by default): float32 in either byte
    order or uint8, else a ValueError naming it."""
    np = _numpy()
    dt = np.dtype(np.float32 if dtype is None else dtype)
    if dt.newbyteorder("=") not in (np.dtype(np.float32), np.dtype(np.uint8)):
        raise ValueError(f"planes are float32 or uint8, not {_describe(dt)}")
    return dt


def _in_order(planes: Any, dtype: Any) -> Any:
    """Planes Rust filled in the machine's byte order, as ``dtype`` (a float32 in the other
    order: each value's bytes reversed in place, and the array viewed as that dtype)."""
    if dtype.isnative:
        return planes
    planes.view(planes.dtype.newbyteorder("=")).byteswap(inplace=True)
    return planes.view(dtype)


def board_to_tensor(board: Board, canonical: bool = False, dtype: Any = None) -> "numpy.ndarray[Any, Any]":
    """One position's planes, shape (18, 8, 8), a new writable array."""
    np = _numpy()
    dt = _plane_dtype(dtype)
    # An array over the bytearray Rust filled: no copy.
    planes = np.ndarray((PLANES, 8, 8), dt.name, board_planes(board, canonical, dt.name))
    return cast("numpy.ndarray[Any, Any]", _in_order(planes, dt))


def to_tensors(
    boards_or_fens: Iterable[Union[Board, str]],
    canonical: bool = False,
    out: Optional["numpy.ndarray[Any, Any]"] = None,
    dtype: Any = None,
    *,
    chess960: bool = False,
) -> "numpy.ndarray[Any, Any]":
    """The planes of many positions (kibitz Boards or FEN strings, read as ``Board(fen,
    chess960=chess960)`` reads them), shape (N, 18, 8, 8). With ``out`` (a writable,
    C-contiguous float32 or uint8 array of that shape) the planes go there and ``out`` is
    returned; ``dtype`` is then ``out``'s."""
    np = _numpy()
    if isinstance(boards_or_fens, (str, bytes)):
        raise TypeError("to_tensors takes a list of boards or FENs; for one position use to_tensor")
    items = boards_or_fens if isinstance(boards_or_fens, (list, tuple)) else list(boards_or_fens)
    n = len(items)
    if out is None:
        out = np.empty((n, PLANES, 8, 8), dtype=_plane_dtype(dtype))
    else:
        if not isinstance(out, np.ndarray):
            raise TypeError(f"out must be a NumPy array, not {type(out).__name__}")
        if out.shape != (n, PLANES, 8, 8):
            raise ValueError(f"out has shape {out.shape}; {n} positions need {(n, PLANES, 8, 8)}")
        try:
            _plane_dtype(out.dtype)
        except ValueError:
            raise ValueError(f"out must be float32 or uint8, not {_describe(out.dtype)}") from None
        if dtype is not None and np.dtype(dtype) != out.dtype:
            raise ValueError(f"dtype {_describe(np.dtype(dtype))} differs from out's {_describe(out.dtype)}")
        if not out.flags.c_contiguous or not out.flags.writeable:
            raise ValueError("out must be C-contiguous and writable")
    address = out.__array_interface__["data"][0]
    native = out.dtype.newbyteorder("=")
    fill_planes_at(items, address, out.nbytes, canonical, native.name, chess960)
    _in_order(out.view(native), out.dtype)
    return cast("numpy.ndarray[Any, Any]", out)


class UnindexedMoveError(ValueError):
    """A move ``move_index`` has no index for: a drop, or a promotion to a king."""


def move_index(board: Any, move: Any, canonical: bool = False) -> int:
    """The index ``pgn_to_tensors`` gives ``move`` played in ``board`` (a kibitz or
    python-chess board): ``from * 64 + to + 4096 * k`` as the module's text says; a null move
    is ``NULL_MOVE_INDEX``. A move with no index (a drop, a promotion to a king) raises
    UnindexedMoveError, a ValueError."""
    uci = board.uci(move)
    if uci == "0000":
        return NULL_MOVE_INDEX
    parts = _UCI.fullmatch(uci)
    if parts is None:
        raise UnindexedMoveError(
            f"move {uci!r} has no training index: only board moves and promotions to n, b, r, q do"
        )
    from_file, from_rank, to_file, to_rank, promotion = parts.groups()
    from_square = (int(from_rank) - 1) * 8 + "abcdefgh".index(from_file)
    to_square = (int(to_rank) - 1) * 8 + "abcdefgh".index(to_file)
    if canonical and not board.turn:
        from_square ^= 56
        to_square ^= 56
    k = {"n": 1, "b": 2, "r": 3}.get(promotion, 0)
    return from_square * 64 + to_square + 4096 * k


class PgnChunk(NamedTuple):
    """Training positions from whole games: ``n`` positions, each the one before a move."""

    planes: "numpy.ndarray[Any, Any]"
    """(n, 18, 8, 8) planes, float32 or uint8."""
    moves: "numpy.ndarray[Any, Any]"
    """(n,) int32 move indexes (``move_index``)."""
    results: "numpy.ndarray[Any, Any]"
    """(n,) int8 results: 1, 0, -1 for White (for the side to move when canonical)."""
    games: "numpy.ndarray[Any, Any]"
    """(n,) int64 game numbers, 1-based, in the file."""
    skipped: int
    """Games read for this chunk but left out: without a result (python-chess's: the Result
    tag, else the result token), or with a problem that stopped the replay (a move that is
    not SAN, an illegal move, a bad FEN tag, a null move in check). Games python-chess reads
    past a fault in (a tag line it ignores, the input ending inside the game) are kept."""
