"""``BaseBoard``: python-chess's board without a side to move (placement only), and the base
of ``Board`` as far as ``isinstance`` and ``issubclass`` can tell.

kibitz's ``Board`` is a Rust class that cannot inherit from a Python one, so ``BaseBoard`` is
an abstract base class that registers ``Board`` as its subclass, and its own instances hold
a kibitz ``Board`` (White to move, no castling rights, no en-passant square) whose
placement they expose through python-chess's ``BaseBoard`` API: the placement queries and
bitboard attributes, editing, Chess960 numbering, mirror and transforms, text and SVG.
"""

from __future__ import annotations

import abc
import inspect
from collections.abc import Callable, Iterable
from typing import Any, Optional

from kibitz._core import STARTING_FEN, Board

STARTING_BOARD_FEN = STARTING_FEN.split()[0]

# The BaseBoard methods that read the placement: answered by the held board as they are.
_READS = (
    "attackers",
    "attackers_mask",
    "attacks",
    "attacks_mask",
    "board_fen",
    "color_at",
    "is_attacked_by",
    "is_pinned",
    "king",
    "piece_at",
    "piece_map",
    "piece_type_at",
    "pieces",
    "pieces_mask",
    "pin",
    "pin_mask",
    "unicode",
    "occupied",
    "occupied_co",
    "pawns",
    "knights",
    "bishops",
    "rooks",
    "queens",
    "kings",
    "promoted",
    "chess960",
)
# The ones that edit it in place.
_WRITES = ("clear_board", "reset_board", "set_board_fen", "set_piece_at", "remove_piece_at", "set_piece_map")


_PIECE_MASKS = ("pawns", "knights", "bishops", "rooks", "queens", "kings", "promoted")


class BaseBoard(metaclass=abc.ABCMeta):
    """A board without side to move, castling rights or en-passant square (python-chess's
    ``chess.BaseBoard``). ``BaseBoard()`` is the start placement, ``BaseBoard(None)`` empty,
    ``BaseBoard(board_fen)`` any placement."""

    __hash__ = None  # type: ignore[assignment]  # mutable, compared by value, as python-chess's

    def __init__(self, board_fen: Optional[str] = STARTING_BOARD_FEN, *, chess960: bool = False) -> None:
        self._board = Board(None, chess960=chess960)
        if board_fen is not None:
            self._board.set_board_fen(board_fen)

    @classmethod
    def _holding(cls, board: Board) -> BaseBoard:
        out = cls(None, chess960=board.chess960)
        out._board.set_board_fen(board.board_fen())
        return out

    def __getattr__(self, name: str) -> Any:
        # The held board's members are the class's own (`_delegated`, below); this only
        # types them for the checker and words the error for any other name.
        if name in _READS or name in _WRITES:
            return getattr(self._board, name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __dir__(self) -> Iterable[str]:
        return sorted(set(super().__dir__()) | set(_READS) | set(_WRITES))

    # -- boards made from this one

    def copy(self) -> BaseBoard:
        """A copy of the placement."""
        return self._holding(self._board)

    def __copy__(self) -> BaseBoard:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, object]) -> BaseBoard:
        return self.copy()

    def mirror(self) -> BaseBoard:
        """The placement seen from the other side: ranks reversed, colours swapped."""
        return self._holding(self._board.mirror())

    def apply_mirror(self) -> None:
        self._board.set_board_fen(self._board.mirror().board_fen())

    def transform(self, f: Callable[[int], int]) -> BaseBoard:
        """The placement with every square mapped by the bitboard transformation ``f``."""
        return self._holding(self._board.transform(f))

    def apply_transform(self, f: Callable[[int], int]) -> None:
        self._board.set_board_fen(self._board.transform(f).board_fen())

    @classmethod
    def empty(cls, *, chess960: bool = False) -> BaseBoard:
        """An empty board."""
        return cls(None, chess960=chess960)

    # -- Chess960 numbering

    def chess960_pos(self) -> Optional[int]:
        """The index 0..959 of the placement as a Chess960 start position, or None."""
        result: Optional[int] = self._board.chess960_pos(ignore_turn=True, ignore_castling=True)
        return result

    def set_chess960_pos(self, scharnagl: int) -> None:
        """Sets up the Chess960 start placement of that index."""
        board = Board(None, chess960=True)
        board.set_chess960_pos(scharnagl)
        self._board.set_board_fen(board.board_fen())

    @classmethod
    def from_chess960_pos(cls, scharnagl: int) -> BaseBoard:
        out = cls(None, chess960=True)
        out.set_chess960_pos(scharnagl)
        return out

    # -- comparison and text

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BaseBoard):
            return NotImplemented
        try:
            return bool(
                self.occupied_co[0] == other.occupied_co[0]
                and self.occupied_co[1] == other.occupied_co[1]
                and all(getattr(self, k) == getattr(other, k) for k in _PIECE_MASKS)
            )
        except AttributeError:
            return NotImplemented

    def __str__(self) -> str:
        return str(self._board)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.board_fen()!r})"

    def _repr_svg_(self) -> Optional[str]:
        result: Optional[str] = self._board._repr_svg_()
        return result


def _delegated(name: str) -> Any:
    """BaseBoard's ``name`` as a member of the class, answered by the held board: a method,
    or a property for python-chess's attributes (``occupied``, ``pawns``...). Members of the
    class, not only of its instances, so that a subclass's ``super().piece_at(square)``
    and ``help(BaseBoard)`` find them, as on python-chess."""
    static = inspect.getattr_static(Board, name)
    if callable(static):

        def method(self: BaseBoard, *args: Any, **kwargs: Any) -> Any:
            return getattr(self._board, name)(*args, **kwargs)

        method.__name__ = method.__qualname__ = name
        method.__doc__ = getattr(static, "__doc__", None)
        try:
            # The held board's parameters, for help() and inspect.
            setattr(method, "__signature__", inspect.signature(static))
        except (TypeError, ValueError):
            pass
        return method

    def read(self: BaseBoard) -> Any:
        return getattr(self._board, name)

    def write(self: BaseBoard, value: Any) -> None:
        setattr(self._board, name, value)

    return property(read, write, doc=getattr(static, "__doc__", None))


for _name in _READS + _WRITES:
    if _name not in vars(BaseBoard):
        setattr(BaseBoard, _name, _delegated(_name))

BaseBoard.register(Board)
