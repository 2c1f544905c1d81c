"""Atomic (python-chess's ``chess.variant.AtomicBoard``): explosions."""

from __future__ import annotations

from typing import Any, Iterator

from kibitz import _bitboards as bb
from kibitz._constants import BLACK, WHITE
from kibitz._core import Board, Move
from kibitz.variant._shared import base_method, castling_moves, is_castling_candidate, push_castling


# ---------------------------------------------------------------- Atomic


class AtomicBoard(Board):
    """Atomic: a capture explodes the capturing piece and every piece but pawns next to the
    square; the side whose king explodes loses. Kings next to each other cannot be in
    check, and a king never captures."""

    aliases = ["Atomic", "Atom", "Atomic chess"]
    uci_variant = "atomic"
    xboard_variant = "atomic"
    tbw_suffix = ".atbw"
    tbz_suffix = ".atbz"
    tbw_magic = b"\x55\x8d\xa4\x49"
    tbz_magic = b"\x91\xa9\x5e\xeb"
    connected_kings = True
    one_king = True

    def push(self, move: Any) -> None:
        if move and Board.is_castling(self, move):
            push_castling(self, move)
            return
        if not move or move.drop or not Board.is_capture(self, move):
            Board.push(self, move)
            return
        after = Board.copy(self, stack=False)
        Board.push(after, move)
        blast = bb.BB_KING_ATTACKS[move.to_square] & ~after.pawns
        rights = after.castling_rights & ~blast
        unpromoted_kings = after.kings & ~after.promoted
        if blast & unpromoted_kings & after.occupied_co[WHITE]:
            rights &= ~bb.BB_RANK_1
        if blast & unpromoted_kings & after.occupied_co[BLACK]:
            rights &= ~bb.BB_RANK_8
        for square in [move.to_square, *bb.scan_forward(blast & after.occupied)]:
            after.remove_piece_at(square)
        after.castling_rights = rights
        Board._push_as(self, move, after)

    def _kings_connected(self) -> bool:
        white = self.kings & self.occupied_co[WHITE]
        black = self.kings & self.occupied_co[BLACK]
        return any(bb.BB_KING_ATTACKS[square] & black for square in bb.scan_forward(white))

    def _attacked_for_king(self, path: int, occupied: int) -> bool:
        # The king may pass squares next to the enemy king: no piece there can take.
        for enemy_king in bb.scan_forward(self.kings & self.occupied_co[not self.turn]):
            path &= ~bb.BB_KING_ATTACKS[enemy_king]
        return any(self.attackers_mask(not self.turn, square, occupied) for square in bb.scan_reversed(path))

    def generate_castling_moves(self, from_mask: int = bb.BB_ALL, to_mask: int = bb.BB_ALL) -> Iterator[Move]:
        return castling_moves(self, from_mask, to_mask, self._attacked_for_king)

    def is_pseudo_legal(self, move: Any) -> bool:
        if not move or move.drop:
            return False
        return bool(Board.is_pseudo_legal(self, move)) or is_castling_candidate(self, move)

    def checkers_mask(self) -> int:
        return bb.BB_EMPTY if self._kings_connected() else int(Board.checkers_mask(self))

    def was_into_check(self) -> bool:
        return not self._kings_connected() and bool(Board.was_into_check(self))

    def is_into_check(self, move: Any) -> bool:
        self.push(move)
        try:
            return self.was_into_check()
        finally:
            self.pop()

    def _quiet(self, move: Any) -> bool:
        """Whether ``move`` explodes nothing and moves no king: then it is legal exactly when
        the kings stand next to each other (no check between them) or standard chess allows
        it, and no push is needed to tell."""
        if not move or Board.is_capture(self, move):
            return False
        return not self.kings & bb.BB_SQUARES[move.from_square]

    def is_legal(self, move: Any) -> bool:
        if self.is_variant_end() or not self.is_pseudo_legal(move):
            return False
        if self._quiet(move):
            return self._kings_connected() or bool(Board.is_legal(self, move))
        self.push(move)
        try:
            # Not one's own king exploded; the enemy's exploded, or one's own not attacked.
            return (
                bool(self.kings) and not self.is_variant_win() and (self.is_variant_loss() or not self.was_into_check())
            )
        finally:
            self.pop()

    def generate_legal_moves(self, from_mask: int = bb.BB_ALL, to_mask: int = bb.BB_ALL) -> Iterator[Move]:
        if self.is_variant_end():
            return
        connected = self._kings_connected()
        for move in self.generate_pseudo_legal_moves(from_mask, to_mask):
            if self._quiet(move):
                if connected or Board.is_legal(self, move):
                    yield move
            elif self.is_legal(move):
                yield move

    def is_stalemate(self) -> bool:
        return not self.is_variant_loss() and bool(base_method("is_stalemate")(self))

    def is_variant_end(self) -> bool:
        return not self.kings & self.occupied_co[WHITE] or not self.kings & self.occupied_co[BLACK]

    def is_variant_win(self) -> bool:
        return bool(self.kings) and not self.kings & self.occupied_co[not self.turn]

    def is_variant_loss(self) -> bool:
        return bool(self.kings) and not self.kings & self.occupied_co[self.turn]

    def has_insufficient_material(self, color: bool) -> bool:
        own, other = self.occupied_co[color], self.occupied_co[not color]
        # Nothing to win once the other king has exploded.
        if not other & self.kings:
            return False
        # A bare king cannot win.
        if not own & ~self.kings:
            return True
        # The other side's own pieces may explode next to its king ...
        if other & ~self.kings:
            # ... unless only bishops are left that cannot take each other.
            if self.occupied == self.bishops | self.kings:
                white, black = self.bishops & self.occupied_co[WHITE], self.bishops & self.occupied_co[BLACK]
                if not white & bb.BB_DARK_SQUARES:
                    return not black & bb.BB_LIGHT_SQUARES
                if not white & bb.BB_LIGHT_SQUARES:
                    return not black & bb.BB_DARK_SQUARES
            return False
        # Against a bare king: a queen, or a pawn that becomes one, can win ...
        if self.queens or self.pawns:
            return False
        # ... one minor piece or rook cannot, nor can two knights.
        if bb.popcount(self.knights | self.bishops | self.rooks) == 1:
            return True
        if self.occupied == self.knights | self.kings:
            return bb.popcount(self.knights) <= 2
        return False

    def status(self) -> bb.Status:
        status = int(base_method("status")(self)) & ~bb.STATUS_OPPOSITE_CHECK
        status &= ~(bb.STATUS_NO_WHITE_KING if self.turn == WHITE else bb.STATUS_NO_BLACK_KING)
        if bb.popcount(self.checkers_mask()) <= 14:
            status &= ~bb.STATUS_TOO_MANY_CHECKERS
        # python-chess's _valid_ep_square() is None: no en-passant square, or not a valid one.
        if self.ep_square is None or status & bb.STATUS_INVALID_EP_SQUARE:
            status &= ~bb.STATUS_IMPOSSIBLE_CHECK
        return bb.Status(status)
