"""Suicide, Giveaway and Antichess (python-chess's ``chess.variant`` boards of those names)."""

from __future__ import annotations

from typing import Any, Iterable, Iterator, Optional, Tuple

from kibitz import _bitboards as bb
from kibitz._constants import BLACK, KING, QUEEN, WHITE
from kibitz._core import Board, Move, Piece
from kibitz.variant._shared import base_method, castling_moves, is_castling_candidate, push_castling

# ---------------------------------------------------------------- Suicide, Giveaway, Antichess


class SuicideBoard(Board):
    """Suicide: captures are compulsory, the king is a piece like the others (no check; it
    may be captured, and pawns may promote to it), and the side with fewer pieces when
    neither can move wins; a side without pieces wins."""

    aliases = ["Suicide", "Suicide chess"]
    uci_variant = "suicide"
    xboard_variant = "suicide"
    tbw_suffix = ".stbw"
    tbz_suffix = ".stbz"
    tbw_magic = b"\x7b\xf6\x93\x15"
    tbz_magic = b"\xe4\xcf\xe7\x23"
    pawnless_tbw_suffix = ".gtbw"
    pawnless_tbz_suffix = ".gtbz"
    pawnless_tbw_magic = b"\xbc\x55\xbc\x21"
    pawnless_tbz_magic = b"\xd6\xf5\x1b\x50"
    connected_kings = True
    one_king = False
    captures_compulsory = True

    # -- no check

    def pin_mask(self, color: bool, square: int) -> int:
        return bb.BB_ALL

    def checkers_mask(self) -> int:
        return bb.BB_EMPTY

    def gives_check(self, move: Any) -> bool:
        return False

    def is_into_check(self, move: Any) -> bool:
        return False

    def was_into_check(self) -> bool:
        return False

    # -- the moves

    def push(self, move: Any) -> None:
        if move and move.promotion == KING:
            # A pawn promoted to a king: the position of the queen's promotion with a
            # (promoted) king in its place.
            after = Board.copy(self, stack=False)
            Board.push(after, Move(move.from_square, move.to_square, QUEEN))
            after.set_piece_at(move.to_square, Piece(KING, self.turn), promoted=True)
            Board._push_as(self, move, after)
        elif move and Board.is_castling(self, move):
            push_castling(self, move)
        else:
            Board.push(self, move)

    def generate_castling_moves(self, from_mask: int = bb.BB_ALL, to_mask: int = bb.BB_ALL) -> Iterator[Move]:
        # The king may castle through and into attacked squares.
        return castling_moves(self, from_mask, to_mask, lambda path, occupied: False)

    def generate_pseudo_legal_moves(self, from_mask: int = bb.BB_ALL, to_mask: int = bb.BB_ALL) -> Iterator[Move]:
        backrank = bb.BB_RANK_1 if self.turn == WHITE else bb.BB_RANK_8
        if self.clean_castling_rights() & backrank:
            # Castling by this variant's rules, in python-chess's place among the moves.
            moves = base_method("generate_pseudo_legal_moves")(self, from_mask, to_mask)
        else:
            moves = Board.generate_pseudo_legal_moves(self, from_mask, to_mask)
        return _with_king_promotions(moves)

    def generate_pseudo_legal_captures(self, from_mask: int = bb.BB_ALL, to_mask: int = bb.BB_ALL) -> Iterator[Move]:
        # Castling never captures: the board's own captures, with the promotions to a king.
        return _with_king_promotions(Board.generate_pseudo_legal_captures(self, from_mask, to_mask))

    def is_pseudo_legal(self, move: Any) -> bool:
        if not move or move.drop:
            return False
        if move.promotion == KING:
            queen = Move(move.from_square, move.to_square, QUEEN)
            return bool(Board.is_pseudo_legal(self, queen))
        return bool(Board.is_pseudo_legal(self, move)) or is_castling_candidate(self, move)

    def generate_legal_moves(self, from_mask: int = bb.BB_ALL, to_mask: int = bb.BB_ALL) -> Iterator[Move]:
        if self.is_variant_end():
            return
        # Captures are compulsory: when there is one, only captures.
        found_capture = False
        for move in self.generate_pseudo_legal_captures():
            if bb.BB_SQUARES[move.from_square] & from_mask and bb.BB_SQUARES[move.to_square] & to_mask:
                yield move
            found_capture = True
        if not found_capture:
            for move in self.generate_pseudo_legal_moves(from_mask, to_mask & ~self.occupied_co[not self.turn]):
                if not self.is_en_passant(move):
                    yield move

    def is_legal(self, move: Any) -> bool:
        if self.is_variant_end() or not self.is_pseudo_legal(move):
            return False
        return self.is_capture(move) or not any(self.generate_pseudo_legal_captures())

    # -- the goal

    def _material_balance(self) -> int:
        return bb.popcount(self.occupied_co[self.turn]) - bb.popcount(self.occupied_co[not self.turn])

    def is_variant_end(self) -> bool:
        return not self.occupied_co[WHITE] or not self.occupied_co[BLACK]

    def is_variant_win(self) -> bool:
        if not self.occupied_co[self.turn]:
            return True
        return self.is_stalemate() and self._material_balance() < 0

    def is_variant_loss(self) -> bool:
        if not self.occupied_co[self.turn]:
            return False
        return self.is_stalemate() and self._material_balance() > 0

    def is_variant_draw(self) -> bool:
        if not self.occupied_co[self.turn]:
            return False
        return self.is_stalemate() and self._material_balance() == 0

    def has_insufficient_material(self, color: bool) -> bool:
        own, other = self.occupied_co[color], self.occupied_co[not color]
        if not own:
            return False
        if not other:
            return True
        if self.occupied == self.bishops:
            # Only bishops: ours can all be taken when some stand on a colour of square all
            # of theirs avoid.
            some_light, some_dark = bool(own & bb.BB_LIGHT_SQUARES), bool(own & bb.BB_DARK_SQUARES)
            all_dark, all_light = not other & bb.BB_LIGHT_SQUARES, not other & bb.BB_DARK_SQUARES
            return (some_light and all_dark) or (some_dark and all_light)
        if self.occupied == self.knights and bb.popcount(self.knights) == 2:
            # A knight each: who must move decides, with the colours of their squares.
            white_light = bool(self.occupied_co[WHITE] & bb.BB_LIGHT_SQUARES)
            black_dark = bool(self.occupied_co[BLACK] & bb.BB_DARK_SQUARES)
            return bool((self.turn == color) ^ white_light ^ black_dark)
        return False

    # -- the position

    def _transposition_extra(self) -> Tuple[int, ...]:
        # Promoted kings cannot castle: with Chess960 rights they tell positions apart.
        return (self.kings & self.promoted,) if self.has_chess960_castling_rights() else ()

    __eq__ = base_method("__eq__")
    __hash__ = None

    def _promoted(self, promoted: Optional[bool]) -> bool:
        # The promoted pieces (kings among them) are written when the castling rights need
        # Chess960's.
        return self.has_chess960_castling_rights() if promoted is None else promoted

    def board_fen(self, *, promoted: Optional[bool] = None) -> str:
        return str(Board.board_fen(self, promoted=self._promoted(promoted)))

    def epd(
        self, *, shredder: bool = False, en_passant: str = "legal", promoted: Optional[bool] = None, **operations: Any
    ) -> str:
        epd = base_method("epd")
        return str(epd(self, shredder=shredder, en_passant=en_passant, promoted=self._promoted(promoted), **operations))

    def fen(
        self, *, shredder: bool = False, en_passant: Optional[str] = "legal", promoted: Optional[bool] = None
    ) -> str:
        fen = base_method("fen")
        return str(fen(self, shredder=shredder, en_passant=en_passant or "legal", promoted=self._promoted(promoted)))

    def shredder_fen(self, *, en_passant: Optional[str] = "legal", promoted: Optional[bool] = None) -> str:
        return self.fen(shredder=True, en_passant=en_passant, promoted=promoted)

    def status(self) -> bb.Status:
        kings = bb.STATUS_NO_WHITE_KING | bb.STATUS_NO_BLACK_KING | bb.STATUS_TOO_MANY_KINGS
        return bb.Status(int(base_method("status")(self)) & ~(kings | bb.STATUS_OPPOSITE_CHECK))


class GiveawayBoard(SuicideBoard):
    """Giveaway: Suicide, but a side that cannot move wins, whatever the material."""

    aliases = ["Giveaway", "Giveaway chess", "Give away", "Give away chess"]
    uci_variant = "giveaway"
    xboard_variant = "giveaway"
    tbw_suffix = ".gtbw"
    tbz_suffix = ".gtbz"
    tbw_magic = b"\xbc\x55\xbc\x21"
    tbz_magic = b"\xd6\xf5\x1b\x50"
    pawnless_tbw_suffix = ".stbw"
    pawnless_tbz_suffix = ".stbz"
    pawnless_tbw_magic = b"\x7b\xf6\x93\x15"
    pawnless_tbz_magic = b"\xe4\xcf\xe7\x23"

    def is_variant_win(self) -> bool:
        return not self.occupied_co[self.turn] or self.is_stalemate()

    def is_variant_loss(self) -> bool:
        return False

    def is_variant_draw(self) -> bool:
        return False


class AntichessBoard(GiveawayBoard):
    """Antichess (lichess's): Giveaway without castling."""

    aliases = ["Antichess", "Anti chess", "Anti"]
    uci_variant = "antichess"
    starting_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"

    def __init__(self, fen: Optional[str] = starting_fen, chess960: bool = False) -> None:
        super().__init__(fen, chess960=chess960)

    def reset(self) -> None:
        Board.reset(self)
        self.castling_rights = bb.BB_EMPTY


def _with_king_promotions(moves: Iterable[Move]) -> Iterator[Move]:
    """The moves with a promotion to a king before each promotion to a queen (python-chess's
    order)."""
    for move in moves:
        if move.promotion == QUEEN:
            yield Move(move.from_square, move.to_square, KING)
        yield move
