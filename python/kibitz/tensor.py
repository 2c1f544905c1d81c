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
without the GIL and without a Python loop per position, into ``out`` when given. dtype
is ``float32`` (the default) or ``uint8``. NumPy is needed only here: ``pip install
kibitz[numpy]``.

``kibitz.pgn_to_tensors(source)`` (in ``kibitz.analysis.training``, beside the PGN
reader it uses) reads a PGN file (a path or a file object; ``.pgn.gz`` and
``.pgn.zst`` too) in chunks of training data, all made in Rust: the planes of the position
before each move of each finished game's main line, the move played there as an index, the
game's result, and the game's number. A move's index is ``from * 64 + to + 4096 * k``:
squares a1 = 0 .. h8 = 63 as ``Move.uci()`` names them (castling as the king's move in
standard chess, king takes rook in Chess960), ``k`` = 1, 2, 3 for a promotion to a knight,
bishop or rook and 0 otherwise (a queen promotion is the pawn's plain move), so 16,384
classes. With ``canonical=True`` the squares are mirrored (``^ 56``) when Black is to move,
as the planes are, and the result is the side to move's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, NamedTuple, Optional, Union, cast

from kibitz._core import Board, board_planes, fill_planes_at

if TYPE_CHECKING:
    import numpy

__all__ = ["board_to_tensor", "to_tensors", "move_index", "PgnChunk", "PLANES", "MOVE_INDEXES"]

#: Planes per position.
PLANES = 18

#: The number of move indexes (``move_index``): 64 x 64 squares x 4 promotion kinds.
MOVE_INDEXES = 4 * 64 * 64

_DTYPES = ("float32", "uint8")


def _numpy() -> Any:
    try:
        import numpy
    except ImportError:
        raise ImportError("board planes need NumPy: pip install kibitz[numpy]") from None
    return numpy


def _dtype_name(dtype: Any) -> str:
    np = _numpy()
    name = np.dtype(dtype if dtype is not None else np.float32).name
    if name not in _DTYPES:
        raise ValueError(f"planes are float32 or uint8, not {name}")
    return str(name)


def board_to_tensor(board: Board, canonical: bool = False, dtype: Any = None) -> "numpy.ndarray[Any, Any]":
    """One position's planes, shape (18, 8, 8), a new writable array."""
    np = _numpy()
    name = "float32" if dtype is None else _dtype_name(dtype)
    # An array over the bytearray Rust filled: no copy.
    return cast("numpy.ndarray[Any, Any]", np.ndarray((PLANES, 8, 8), name, board_planes(board, canonical, name)))


def to_tensors(
    boards_or_fens: Iterable[Union[Board, str]],
    canonical: bool = False,
    out: Optional["numpy.ndarray[Any, Any]"] = None,
    dtype: Any = None,
    *,
    chess960: bool = False,
) -> "numpy.ndarray[Any, Any]":
    """The planes of many positions (kibitz Boards or FEN strings), shape (N, 18, 8, 8).
    With ``out`` (a writable, C-contiguous float32 or uint8 array of that shape) the
    planes go there and ``out`` is returned; ``dtype`` is then ``out``'s."""
    np = _numpy()
    items = boards_or_fens if isinstance(boards_or_fens, (list, tuple)) else list(boards_or_fens)
    n = len(items)
    if out is None:
        out = np.empty((n, PLANES, 8, 8), dtype=_dtype_name(dtype))
    else:
        if not isinstance(out, np.ndarray):
            raise TypeError(f"out must be a NumPy array, not {type(out).__name__}")
        if out.shape != (n, PLANES, 8, 8):
            raise ValueError(f"out has shape {out.shape}; {n} positions need {(n, PLANES, 8, 8)}")
        if out.dtype.name not in _DTYPES:
            raise ValueError(f"out must be float32 or uint8, not {out.dtype.name}")
        if dtype is not None and np.dtype(dtype) != out.dtype:
            raise ValueError(f"dtype {np.dtype(dtype).name} differs from out's {out.dtype.name}")
        if not out.flags.c_contiguous or not out.flags.writeable:
            raise ValueError("out must be C-contiguous and writable")
    address = out.__array_interface__["data"][0]
    fill_planes_at(items, address, out.nbytes, canonical, out.dtype.name, chess960)
    return out


def move_index(board: Any, move: Any, canonical: bool = False) -> int:
    """The index ``pgn_to_tensors`` gives ``move`` played in ``board`` (a kibitz or
    python-chess board): ``from * 64 + to + 4096 * k`` as the module's text says."""
    uci = board.uci(move)
    from_square = (int(uci[1]) - 1) * 8 + "abcdefgh".index(uci[0])
    to_square = (int(uci[3]) - 1) * 8 + "abcdefgh".index(uci[2])
    if canonical and not board.turn:
        from_square ^= 56
        to_square ^= 56
    k = {"n": 1, "b": 2, "r": 3}.get(uci[4:], 0)
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
    """Games read for this chunk but left out: unfinished (no result), or with an error."""
