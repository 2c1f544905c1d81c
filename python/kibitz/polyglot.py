"""Polyglot opening books, with the API of python-chess's ``chess.polyglot``.

``open_reader(path)`` maps a ``.bin`` book into memory; ``find_all(board)`` walks the
entries of the board's key in the order the book keeps them, skipping entries below a
weight, excluded moves, and moves that are not legal in the position (a book built for
another variant, or a hash collision, cannot make a caller play an illegal move).
``find`` is the heaviest entry, ``choice`` a uniform pick, ``weighted_choice`` a pick by
weight; ``get`` is ``find`` with a default.

Boards: a kibitz ``Board`` is hashed natively (``Board.polyglot_key``); any other board
with python-chess's public API (``piece_map``, ``turn``, ``ep_square``, the castling-rights
queries) is hashed here from ``POLYGLOT_RANDOM_ARRAY``, and its entries' moves are made of
that board's own ``Move`` class, so python-chess code gets ``chess.Move`` objects back.

The format (16-byte big-endian entries: key, move, weight, learn; sorted by key) and
the random table are the Polyglot book specification's. As python-chess does, a file whose
size is no whole number of entries is refused with ``OSError``, and an entry from a square
to itself is read as a drop (``R@e2``: the promotion bits name the piece).
"""

from __future__ import annotations

import mmap
import os
import random as random_module
import struct
import sys
from typing import Any, Callable, Container, Iterator, NamedTuple, Optional, Sequence, Union

from kibitz._core import POLYGLOT_RANDOM_ARRAY as _RANDOM
from kibitz._core import Board, Move

__all__ = [
    "POLYGLOT_RANDOM_ARRAY",
    "ZobristHasher",
    "zobrist_hash",
    "ENTRY_STRUCT",
    "Entry",
    "MemoryMappedReader",
    "open_reader",
]

#: Polyglot's 781 random numbers: 768 for a piece on a square, 4 for the castling rights
#: (White king side, White queen side, Black king side, Black queen side), 8 for the
#: en-passant file, 1 for White to move.
POLYGLOT_RANDOM_ARRAY: list[int] = list(_RANDOM)

#: One entry of a book file: key, raw move, weight, learn (big-endian, 16 bytes).
ENTRY_STRUCT = struct.Struct(">QHHI")
_ENTRY = ENTRY_STRUCT

_E1, _E8 = 4, 60
_KING = 6
# King-takes-rook to the standard king move, for boards that are not Chess960.
_CASTLING_TARGETS = {(_E1, 7): 6, (_E1, 0): 2, (_E8, 63): 62, (_E8, 56): 58}


class ZobristHasher:
    """Computes Polyglot keys from a random array of 781 numbers (by default Polyglot's),
    in four parts that ``__call__`` combines: the pieces, the castling rights, the
    en-passant file (only when a pawn of the side to move stands beside the pawn that can
    be taken, as the specification says, whether or not the capture is legal), and the
    side to move."""

    def __init__(self, array: Sequence[int]) -> None:
        if len(array) < 781:
            raise ValueError(f"a Polyglot random array has 781 numbers, not {len(array)}")
        self.array = array

    def hash_board(self, board: Any) -> int:
        key = 0
        for square, piece in board.piece_map().items():
            kind = 2 * (piece.piece_type - 1) + (1 if piece.color else 0)
            key ^= self.array[64 * kind + square]
        return key

    def hash_castling(self, board: Any) -> int:
        key = 0
        for index, (color, side) in enumerate(((True, "king"), (True, "queen"), (False, "king"), (False, "queen"))):
            held = getattr(board, f"has_{side}side_castling_rights")(color)
            if held:
                key ^= self.array[768 + index]
        return key

    def hash_ep_square(self, board: Any) -> int:
        ep = board.ep_square
        if not ep:  # python-chess's test: a square a1 (0) counts as none
            return 0
        file = ep % 8
        # The pawn that can be taken stands one rank behind the square, from the mover's side.
        victim_rank = ep // 8 + (-1 if board.turn else 1)
        if not 0 <= victim_rank < 8:
            return 0
        for df in (-1, 1):
            f = file + df
            if 0 <= f < 8:
                piece = board.piece_at(8 * victim_rank + f)
                if piece is not None and piece.piece_type == 1 and piece.color == board.turn:
                    return int(self.array[772 + file])
        return 0

    def hash_turn(self, board: Any) -> int:
        return int(self.array[780]) if board.turn else 0

    def __call__(self, board: Any) -> int:
        return self.hash_board(board) ^ self.hash_castling(board) ^ self.hash_ep_square(board) ^ self.hash_turn(board)


_POLYGLOT_HASHER = ZobristHasher(POLYGLOT_RANDOM_ARRAY)


def zobrist_hash(board: Any, *, _hasher: Callable[[Any], int] = _POLYGLOT_HASHER) -> int:
    """The Polyglot key of ``board`` (a kibitz or python-chess board), or the key under
    another hasher's array."""
    if isinstance(board, Board) and _hasher is _POLYGLOT_HASHER:
        return int(board.polyglot_key())
    return _hasher(board)


class Entry(NamedTuple):
    """One book entry: the position's ``key``, the ``raw_move`` as stored, its ``weight``
    and ``learn`` fields, and the ``move`` it stands for (castling is converted to the
    board's notation by the reader's lookups)."""

    key: int
    raw_move: int
    weight: int
    learn: int
    move: Any


def _decode(raw: int) -> tuple[int, int, Optional[int], Optional[int]]:
    """From, to, promotion and drop of a raw move. An entry from a square to itself is a
    drop (of a variant book), the promotion bits naming the piece, as python-chess reads it."""
    to_square = raw & 0x3F
    from_square = (raw >> 6) & 0x3F
    promotion_part = (raw >> 12) & 0x7
    piece = promotion_part + 1 if promotion_part else None
    if from_square == to_square:
        return from_square, to_square, None, piece
    return from_square, to_square, piece, None


def _move_class(board: Any) -> Any:
    """The Move class of the board's own library (python-chess's for a chess.Board)."""
    if isinstance(board, Board):
        return Move
    module = sys.modules.get(type(board).__module__)
    return getattr(module, "Move", Move)


class MemoryMappedReader:
    """A Polyglot book mapped into memory; entries are read when looked at. Use as a
    context manager or call ``close()``."""

    def __init__(self, filename: Union[str, "os.PathLike[str]"]) -> None:
        self.fd = os.open(filename, os.O_RDONLY | getattr(os, "O_BINARY", 0))
        self.closed = False
        try:
            self.mmap: Optional[mmap.mmap] = mmap.mmap(self.fd, 0, access=mmap.ACCESS_READ)
        except (ValueError, OSError):
            self.mmap = None  # an empty file: a book without entries
        if len(self) * _ENTRY.size != self._size():
            # A cut or foreign file: refused as python-chess refuses it (same type, same text).
            self.close()
            raise OSError(f"invalid file size: ensure {filename!r} is a valid polyglot opening book")

    def __enter__(self) -> "MemoryMappedReader":
        return self

    def __exit__(self, *args: object) -> None:
        self.close()

    def close(self) -> None:
        """Unmaps the book and closes its file; reading it afterwards raises ``ValueError``."""
        self.closed = True
        if self.mmap is not None:
            self.mmap.close()
            self.mmap = None
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def _size(self) -> int:
        if self.closed:
            # python-chess's closed map raises ValueError too.
            raise ValueError("the polyglot book is closed")
        return 0 if self.mmap is None else self.mmap.size()

    def __len__(self) -> int:
        return self._size() // _ENTRY.size

    def __getitem__(self, index: int) -> Entry:
        n = len(self)
        if index < 0:
            index += n
        if not 0 <= index < n or self.mmap is None:
            raise IndexError(f"entry {index} is outside the book's {n} entries")
        key, raw, weight, learn = _ENTRY.unpack_from(self.mmap, index * _ENTRY.size)
        return Entry(key, raw, weight, learn, Move(*_decode(raw)))

    def __iter__(self) -> Iterator[Entry]:
        for i in range(len(self)):
            yield self[i]

    def bisect_key_left(self, key: int) -> int:
        """The index of the first entry whose key is ``key`` or greater."""
        lo, hi = 0, len(self)
        assert self.mmap is not None or hi == 0
        while lo < hi:
            mid = (lo + hi) // 2
            (mid_key,) = struct.unpack_from(">Q", self.mmap, mid * _ENTRY.size)  # type: ignore[arg-type]
            if mid_key < key:
                lo = mid + 1
            else:
                hi = mid
        return lo

    def __contains__(self, entry: object) -> bool:
        """Whether the book holds ``entry`` (any entry-like tuple with python-chess's fields:
        a ``chess.polyglot.Entry`` is found too); other objects are not in it."""
        key, weight = getattr(entry, "key", None), getattr(entry, "weight", None)
        if not isinstance(key, int) or not isinstance(weight, int):
            return False
        return any(e == entry for e in self.find_all(key, minimum_weight=weight))

    def find_all(self, board: Any, *, minimum_weight: int = 1, exclude_moves: Container[Any] = ()) -> Iterator[Entry]:
        """The entries of a position (a board, or a key as an int) with at least
        ``minimum_weight``, not in ``exclude_moves``, and, given a board, legal in it;
        in the book's order."""
        try:
            # python-chess's reading: whatever int() takes (an int, a numpy integer) is a key.
            key, context = int(board), None
        except (TypeError, ValueError):
            key, context = zobrist_hash(board), board
        move_class = Move if context is None else _move_class(context)
        i = self.bisect_key_left(key)
        size = len(self)
        while i < size:
            entry = self[i]
            i += 1
            if entry.key != key:
                break
            if entry.weight < minimum_weight:
                continue
            from_square, to_square, promotion, drop = _decode(entry.raw_move)
            if context is not None:
                if (
                    not context.chess960
                    and promotion is None
                    and drop is None
                    and (from_square, to_square) in _CASTLING_TARGETS
                    and context.piece_type_at(from_square) == _KING
                ):
                    to_square = _CASTLING_TARGETS[(from_square, to_square)]
            move = move_class(from_square, to_square, promotion, drop)
            entry = Entry(entry.key, entry.raw_move, entry.weight, entry.learn, move)
            if exclude_moves and entry.move in exclude_moves:
                continue
            if context is not None and not context.is_legal(move):
                continue
            yield entry

    def find(self, board: Any, *, minimum_weight: int = 1, exclude_moves: Container[Any] = ()) -> Entry:
        """The heaviest entry (the first of equals); ``IndexError`` when there is none (and,
        as python-chess's, when the book is closed)."""
        best: Optional[Entry] = None
        try:
            for entry in self.find_all(board, minimum_weight=minimum_weight, exclude_moves=exclude_moves):
                if best is None or entry.weight > best.weight:
                    best = entry
        except ValueError:
            if not self.closed:
                raise
            raise IndexError("no book entry: the polyglot book is closed") from None
        if best is None:
            raise IndexError("no book entry for the position")
        return best

    def get(
        self,
        board: Any,
        default: Optional[Entry] = None,
        *,
        minimum_weight: int = 1,
        exclude_moves: Container[Any] = (),
    ) -> Optional[Entry]:
        """``find``, or ``default`` when the book has no entry."""
        try:
            return self.find(board, minimum_weight=minimum_weight, exclude_moves=exclude_moves)
        except IndexError:
            return default

    def choice(
        self,
        board: Any,
        *,
        minimum_weight: int = 1,
        exclude_moves: Container[Any] = (),
        random: Optional[random_module.Random] = None,
    ) -> Entry:
        """A uniformly random entry; ``IndexError`` when there is none. One pass over the
        entries (reservoir sampling: the i-th replaces the pick with probability 1/(i+1)),
        so the same ``random`` state picks what python-chess picks."""
        rng = random or random_module
        chosen: Optional[Entry] = None
        for i, entry in enumerate(self.find_all(board, minimum_weight=minimum_weight, exclude_moves=exclude_moves)):
            if chosen is None or rng.randint(0, i) == i:
                chosen = entry
        if chosen is None:
            raise IndexError("no book entry for the position")
        return chosen

    def weighted_choice(
        self, board: Any, *, exclude_moves: Container[Any] = (), random: Optional[random_module.Random] = None
    ) -> Entry:
        """An entry drawn with probability proportional to its weight; ``IndexError``
        when the position's entries weigh nothing."""
        entries = list(self.find_all(board, exclude_moves=exclude_moves))
        total = sum(e.weight for e in entries)
        if not total:
            raise IndexError("no book entry with a weight for the position")
        pick = (random or random_module).randint(0, total - 1)
        running = 0
        for entry in entries:
            running += entry.weight
            if running > pick:
                return entry
        raise AssertionError("unreachable: the weights sum to total")


def open_reader(path: Union[str, "os.PathLike[str]"]) -> MemoryMappedReader:
    """Opens a Polyglot book for lookups (``with open_reader(path) as reader: ...``)."""
    return MemoryMappedReader(path)
