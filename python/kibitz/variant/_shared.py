"""What the variant boards share: python-chess's base methods, the class attributes of a
variant without tables, a variant whose rule only ends the game, castling by rules other
than standard chess's, and state that follows the move stack.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterator, List, Optional, Tuple

from kibitz import _bitboards as bb
from kibitz import _hooks
from kibitz._constants import BLACK, KING, ROOK, WHITE, square_file
from kibitz._core import Board, IllegalMoveError, Move, Piece

if TYPE_CHECKING:
    from typing_extensions import Self


base_method = _hooks.faithful_method


class NoTables:
    """Class attributes of a variant without Syzygy tables."""

    tbw_suffix: Optional[str] = None
    tbz_suffix: Optional[str] = None
    tbw_magic: Optional[bytes] = None
    tbz_magic: Optional[bytes] = None


class EndsByRule(Board):
    """A variant whose rule only ends the game (``is_variant_end``): until then its moves are
    standard chess's, after it there are none (and no castling among the pseudo-legal
    moves), as python-chess's generators have it. The native generators serve while the
    game goes on, so the methods built on them stay fast."""

    def generate_castling_moves(self, from_mask: int = bb.BB_ALL, to_mask: int = bb.BB_ALL) -> Iterator[Move]:
        if self.is_variant_end():
            return iter(())
        return iter(Board.generate_castling_moves(self, from_mask, to_mask))

    def generate_pseudo_legal_moves(self, from_mask: int = bb.BB_ALL, to_mask: int = bb.BB_ALL) -> Iterator[Move]:
        moves = Board.generate_pseudo_legal_moves(self, from_mask, to_mask)
        if not self.is_variant_end():
            return iter(moves)
        return (m for m in moves if not Board.is_castling(self, m))

    def generate_legal_moves(self, from_mask: int = bb.BB_ALL, to_mask: int = bb.BB_ALL) -> Iterator[Move]:
        if self.is_variant_end():
            return iter(())
        return iter(Board.generate_legal_moves(self, from_mask, to_mask))


# ---------------------------------------------------------------- castling by other rules


def castling_moves(board: Board, from_mask: int, to_mask: int, attacked: Callable[[int, int], bool]) -> Iterator[Move]:
    """python-chess's castling moves, in its order, with the variant's test of the squares
    the king passes (``attacked(path, occupied)``): the king on its back rank (not a
    promoted one), a rook the usable castling rights name, both paths empty but for the two
    pieces, and neither the king's path nor its target attacked."""
    if board.is_variant_end():
        return
    color = board.turn
    backrank = bb.BB_RANK_1 if color == WHITE else bb.BB_RANK_8
    king = board.occupied_co[color] & board.kings & ~board.promoted & backrank & from_mask
    king &= -king
    if not king:
        return
    king_square = bb.msb(king)
    occupied = board.occupied
    for rook_square in bb.scan_reversed(board.clean_castling_rights() & backrank & to_mask):
        rook = bb.BB_SQUARES[rook_square]
        queenside = rook < king
        king_to = (bb.BB_FILE_C if queenside else bb.BB_FILE_G) & backrank
        rook_to = (bb.BB_FILE_D if queenside else bb.BB_FILE_F) & backrank
        king_path = bb.between(king_square, bb.msb(king_to))
        rook_path = bb.between(rook_square, bb.msb(rook_to))
        blocked = (occupied ^ king ^ rook) & (king_path | rook_path | king_to | rook_to)
        if blocked or attacked(king_path | king, occupied ^ king):
            continue
        if attacked(king_to, occupied ^ king ^ rook ^ rook_to):
            continue
        yield Board._from_chess960(board, board.chess960, king_square, rook_square)


def push_castling(board: Board, move: Any) -> None:
    """Castles as python-chess's ``push`` does, where the rules let the king pass squares
    standard chess forbids (kibitz's own push refuses such a castling move): king and rook
    to their squares, the side's castling rights gone, the clocks on."""
    try:
        Board.push(board, move)
        return
    except IllegalMoveError:
        pass
    color = board.turn
    king_square = move.from_square
    rook_square = Board._to_chess960(board, move).to_square
    queenside = square_file(rook_square) < square_file(king_square)
    home = 0 if color == WHITE else 56
    after = Board.copy(board, stack=False)
    rights = board.clean_castling_rights() & ~(bb.BB_RANK_1 if color == WHITE else bb.BB_RANK_8)
    after.remove_piece_at(king_square)
    after.remove_piece_at(rook_square)
    after.set_piece_at(home + (2 if queenside else 6), Piece(KING, color))
    after.set_piece_at(home + (3 if queenside else 5), Piece(ROOK, color))
    after.castling_rights = rights
    after.ep_square = None
    after.halfmove_clock = board.halfmove_clock + 1
    after.fullmove_number = board.fullmove_number + (color == BLACK)
    after.turn = not color
    Board._push_as(board, Board._from_chess960(board, board.chess960, king_square, rook_square), after)


def is_castling_candidate(board: Board, move: Any) -> bool:
    """Whether ``move`` is one of the board's own castling moves (read as python-chess's
    ``is_pseudo_legal`` reads a king's move)."""
    if not board.kings & board.occupied_co[board.turn] & bb.BB_SQUARES[move.from_square]:
        return False
    wanted = Board._from_chess960(board, board.chess960, move.from_square, move.to_square)
    return any(m == wanted for m in board.generate_castling_moves())


class StateAlongStack(Board):
    """A variant board with state beyond the position (three-check's counters, crazyhouse's
    pockets) that follows the move stack, as python-chess's boards keep it: the state
    before each move is remembered, ``pop`` puts it back, ``copy()``, ``root()`` and
    pickling take it along, and the FEN is written through ``epd()``. A subclass gives
    ``_snapshot()`` (an immutable value: copies of the board share the remembered ones) and
    ``_restore(snapshot)``, and pushes through ``_pushed``."""

    # The state before each move of the move stack (entry i: before move i). Entries past
    # the stack are stale (an edit or a FEN cleared the stack under them) and are dropped.
    _before: List[Any]

    def _snapshot(self) -> Any:
        raise NotImplementedError

    def _restore(self, snapshot: Any) -> None:
        raise NotImplementedError

    def _plies(self) -> int:
        return self._stack_len()

    def _history(self) -> List[Any]:
        return self._before[: self._plies()]

    def _pushed(self, play: Callable[[], None]) -> None:
        """Plays a move (``play``), remembering the state before it."""
        snapshot = self._snapshot()
        del self._before[self._plies() :]
        play()
        self._before.append(snapshot)

    def pop(self) -> Move:
        move: Move = Board.pop(self)
        plies = self._plies()
        if plies < len(self._before):
            self._restore(self._before[plies])
            del self._before[plies:]
        return move

    def clear_stack(self) -> None:
        Board.clear_stack(self)
        self._before.clear()

    def fen(
        self, *, shredder: bool = False, en_passant: Optional[str] = "legal", promoted: Optional[bool] = None
    ) -> str:
        epd = self.epd(shredder=shredder, en_passant=en_passant or "legal", promoted=promoted)
        return f"{epd} {self.halfmove_clock} {self.fullmove_number}"

    def shredder_fen(self, *, en_passant: Optional[str] = "legal", promoted: Optional[bool] = None) -> str:
        return self.fen(shredder=True, en_passant=en_passant, promoted=promoted)

    def copy(self, *, stack: Any = True) -> Self:
        board: Self = Board.copy(self, stack=stack)
        board._restore(self._snapshot())
        if stack:
            kept = len(board.move_stack)
            history = self._history()
            board._before = history[len(history) - kept :] if kept else []
        return board

    def transform(self, f: Callable[[int], int]) -> Self:
        """A transformed copy without the move stack, keeping this variant's state (python-chess's
        ``copy(stack=False)`` then ``apply_transform``)."""
        board = self.copy(stack=False)
        board.apply_transform(f)
        return board

    def root(self) -> Self:
        board: Self = Board.root(self)
        history = self._history()
        board._restore(history[0] if history else self._snapshot())
        return board

    def __reduce__(self) -> Tuple[Any, ...]:
        state = (self.root().fen(), list(self.move_stack), self._history(), self._snapshot())
        return (_rebuild, (type(self), self.chess960, state))


def _rebuild(cls: Any, chess960: bool, state: Tuple[str, List[Move], List[Any], Any]) -> Any:
    """Unpickles a ``StateAlongStack`` board: its root, its moves, its state along the way."""
    root_fen, moves, history, snapshot = state
    board = cls(root_fen, chess960=chess960)
    for move in moves:
        board.push(move)
    board._before = list(history)
    board._restore(snapshot)
    return board
