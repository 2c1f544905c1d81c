"""Horde (python-chess's ``chess.variant.HordeBoard``), with its insufficient-material
analysis.
"""

from __future__ import annotations

from typing import Optional

from kibitz import _bitboards as bb
from kibitz._constants import BLACK, KNIGHT, QUEEN, WHITE
from kibitz._core import Board, Piece
from kibitz.variant._shared import EndsByRule, NoTables, base_method


class HordeBoard(NoTables, EndsByRule):
    """Horde: White's 36 pawns (and no king) against Black's army; Black wins by taking
    them all, White by mating."""

    aliases = ["Horde", "Horde chess"]
    uci_variant = "horde"
    xboard_variant = "horde"
    starting_fen = "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1"

    def __init__(self, fen: Optional[str] = starting_fen, chess960: bool = False) -> None:
        super().__init__(fen, chess960=chess960)

    def reset(self) -> None:
        self.set_fen(type(self).starting_fen)

    def is_variant_end(self) -> bool:
        return not self.occupied_co[WHITE] or not self.occupied_co[BLACK]

    def is_variant_draw(self) -> bool:
        return not self.occupied

    def is_variant_loss(self) -> bool:
        return bool(self.occupied) and not self.occupied_co[self.turn]

    def is_variant_win(self) -> bool:
        return bool(self.occupied) and not self.occupied_co[not self.turn]

    def has_insufficient_material(self, color: bool) -> bool:
        # Black, with the king, can always take the whole horde.
        return color == WHITE and _horde_cannot_mate(self)

    def status(self) -> bb.Status:
        status = int(base_method("status")(self)) & ~bb.STATUS_NO_WHITE_KING
        if bb.popcount(self.occupied_co[WHITE]) <= 36:
            status &= ~(bb.STATUS_TOO_MANY_WHITE_PIECES | bb.STATUS_TOO_MANY_WHITE_PAWNS)
        if not self.pawns & bb.BB_RANK_8 and not self.occupied_co[BLACK] & self.pawns & bb.BB_RANK_1:
            status &= ~bb.STATUS_PAWNS_ON_BACKRANK
        if self.occupied_co[WHITE] & self.kings:
            status |= bb.STATUS_TOO_MANY_KINGS
        return bb.Status(status)


def _horde_cannot_mate(board: Board) -> bool:
    """Whether the horde (White, no king) can never mate, whatever Black helps with: the
    case analysis python-chess uses (from the published horde insufficient-material study),
    by the horde's material against what Black has that could block its own king in."""
    count = bb.popcount
    white, black = board.occupied_co[WHITE], board.occupied_co[BLACK]
    queens, pawns = count(white & board.queens), count(white & board.pawns)
    rooks, knights = count(white & board.rooks), count(white & board.knights)
    bishops = count(white & board.bishops)
    light = count(white & board.bishops & bb.BB_LIGHT_SQUARES)
    dark = count(white & board.bishops & bb.BB_DARK_SQUARES)
    # Two bishops of one square colour cover all of it: more add nothing.
    horde = pawns + knights + rooks + queens + min(light, 2) + min(dark, 2)
    # Black's material, and its bishops on the horde's bishops' square colour and the other.
    b_pawns, b_knights = count(black & board.pawns), count(black & board.knights)
    b_bishops, b_rooks, b_queens = count(black & board.bishops), count(black & board.rooks), count(black & board.queens)
    b_light = count(black & board.bishops & bb.BB_LIGHT_SQUARES)
    b_dark = count(black & board.bishops & bb.BB_DARK_SQUARES)
    b_all = count(black)
    on_light = light >= 1
    b_same = b_light if on_light else b_dark
    b_opposite = b_dark if on_light else b_light

    if horde == 0:
        return True
    if horde >= 4:
        return False
    if (pawns or queens) and horde >= 2:
        return False
    if rooks and horde >= 2 and not (horde == 2 and rooks == 1 and bishops == 1 and b_all - b_same == 1):
        return False
    if horde == 1:
        if b_all == 1:
            return True  # one piece against a bare king
        if queens:
            return not (b_pawns or b_rooks or b_light >= 2 or b_dark >= 2)
        if pawns:
            # As good as what it promotes to: a queen or a knight.
            square = bb.msb(white & board.pawns)
            promoted = []
            for kind in (QUEEN, KNIGHT):
                other = board.copy(stack=False)
                other.set_piece_at(square, Piece(kind, WHITE))
                promoted.append(_horde_cannot_mate(other))
            return all(promoted)
        if rooks:
            return not (b_pawns >= 2 or (b_rooks and b_pawns) or (b_rooks and b_knights) or (b_pawns and b_knights))
        if bishops:
            return not (b_opposite >= 2 or (b_opposite and b_pawns) or b_pawns >= 2)
        # A lone knight: a smothered mate needs enough black pieces around the king.
        blockers = (
            b_knights >= 2
            or b_pawns >= 2
            or (b_rooks and b_knights)
            or (b_rooks and b_bishops)
            or (b_knights and b_bishops)
            or (b_rooks and b_pawns)
            or (b_knights and b_pawns)
            or (b_bishops and b_pawns)
            or (b_light >= 1 and b_dark >= 1 and b_pawns >= 1)
        )
        enough = b_all >= 4 and bool(blockers)
        enough = enough and (b_dark < 2 or b_all - b_dark >= 3) and (b_light < 2 or b_all - b_light >= 3)
        return not enough
    if horde == 2:
        if b_all == 1:
            return True  # two minor pieces against a bare king
        if knights == 2:
            return not (b_pawns + b_bishops + b_knights >= 1)
        if light >= 1 and dark >= 1:
            return not (b_pawns or b_bishops or (b_knights and b_rooks + b_queens >= 1))
        if bishops and knights:
            return not (b_pawns or b_opposite or b_all - b_same >= 3)
        # Two bishops on one square colour: Black must block the other colour.
        return not (
            (b_pawns and b_opposite)
            or (b_pawns and b_knights)
            or (b_opposite and b_knights)
            or b_opposite >= 2
            or b_knights >= 2
            or b_pawns >= 2
        )
    if horde == 3:
        if (knights == 2 and bishops == 1) or knights == 3 or (light >= 1 and dark >= 1):
            return False
        # Two bishops of one colour and a knight: mate needs a black piece to move.
        return b_all == 1
    return True
