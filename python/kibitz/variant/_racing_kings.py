"""Racing Kings (python-chess's ``chess.variant.RacingKingsBoard``)."""

from __future__ import annotations

from typing import Any, Iterator, Optional

from kibitz import _bitboards as bb
from kibitz._constants import BLACK, COLORS, WHITE
from kibitz._core import Move
from kibitz.variant._shared import EndsByRule, NoTables, base_method


# ---------------------------------------------------------------- Racing Kings


class RacingKingsBoard(NoTables, EndsByRule):
    """Racing Kings: no checks at all; the first king on the eighth rank wins, and when
    White gets there first Black has one move to follow (a draw)."""

    aliases = ["Racing Kings", "Racing", "Race", "racingkings"]
    uci_variant = "racingkings"
    xboard_variant = "racingkings"
    starting_fen = "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1"

    def __init__(self, fen: Optional[str] = starting_fen, chess960: bool = False) -> None:
        super().__init__(fen, chess960=chess960)

    def reset(self) -> None:
        self.set_fen(type(self).starting_fen)

    def is_legal(self, move: Any) -> bool:
        return bool(base_method("is_legal")(self, move)) and not self.gives_check(move)

    def generate_legal_moves(self, from_mask: int = bb.BB_ALL, to_mask: int = bb.BB_ALL) -> Iterator[Move]:
        for move in EndsByRule.generate_legal_moves(self, from_mask, to_mask):
            if not self.gives_check(move):
                yield move

    def _goal(self) -> int:
        return self.kings & bb.BB_RANK_8

    def is_variant_end(self) -> bool:
        goal = self._goal()
        if not goal:
            return False
        black_king = self.kings & self.occupied_co[BLACK]
        if self.turn == WHITE or not black_king or black_king & bb.BB_RANK_8:
            return True
        # White is there and Black moves: over unless Black's king can step onto the
        # eighth rank to a square White does not attack.
        square = bb.msb(black_king)
        steps = bb.BB_KING_ATTACKS[square] & bb.BB_RANK_8 & ~self.occupied_co[BLACK]
        return all(self.attackers_mask(WHITE, s) for s in bb.scan_forward(steps))

    def is_variant_draw(self) -> bool:
        goal = self._goal()
        return bool(goal & self.occupied_co[WHITE]) and bool(goal & self.occupied_co[BLACK])

    def is_variant_loss(self) -> bool:
        return self.is_variant_end() and not self._goal() & self.occupied_co[self.turn]

    def is_variant_win(self) -> bool:
        goal = self._goal()
        return (
            self.is_variant_end()
            and bool(goal & self.occupied_co[self.turn])
            and not goal & self.occupied_co[not self.turn]
        )

    def has_insufficient_material(self, color: bool) -> bool:
        return False

    def status(self) -> bb.Status:
        status = int(base_method("status")(self))
        if self.is_check():
            status |= bb.STATUS_RACE_CHECK | bb.STATUS_TOO_MANY_CHECKERS | bb.STATUS_IMPOSSIBLE_CHECK
        goal = self._goal()
        if self.turn == BLACK and goal & self.occupied_co[WHITE] and goal & self.occupied_co[BLACK]:
            status |= bb.STATUS_RACE_OVER
        if self.pawns:
            status |= bb.STATUS_RACE_MATERIAL
        # No more pieces of a kind than the start position has.
        for color in COLORS:
            own = self.occupied_co[color]
            for pieces, most in ((self.knights, 2), (self.bishops, 2), (self.rooks, 2), (self.queens, 1)):
                if bb.popcount(own & pieces) > most:
                    status |= bb.STATUS_RACE_MATERIAL
        return bb.Status(status)
