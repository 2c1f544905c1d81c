"""Three-check (python-chess's ``chess.variant.ThreeCheckBoard``): the counters of checks
along the move stack and in the FEN.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from kibitz._board_ext import _epd_operand, _epd_operations
from kibitz._constants import BLACK, WHITE
from kibitz._core import Board
from kibitz.variant._shared import EndsByRule, NoTables, StateAlongStack, base_method


# ---------------------------------------------------------------- Three-check


class ThreeCheckBoard(NoTables, EndsByRule, StateAlongStack):
    """Three-check: the third check given wins. ``remaining_checks[color]`` is how many
    more checks ``color`` must give; the FEN carries them after the en-passant field
    (``3+3``), and lichess's ``+W+B`` (checks given) at its end is read too."""

    aliases = ["Three-check", "Three check", "Threecheck", "Three check chess", "3-check", "3 check", "3check"]
    uci_variant = "3check"
    xboard_variant = "3check"
    starting_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1"

    remaining_checks: List[int]

    def __init__(self, fen: Optional[str] = starting_fen, chess960: bool = False) -> None:
        self.remaining_checks = [3, 3]
        self._before: List[Tuple[int, int]] = []
        super().__init__(None, chess960=chess960)
        if fen is not None:
            self.set_fen(fen)

    # -- the counters along the move stack

    def _set_checks(self, white: int, black: int) -> None:
        # Indexed by colour, as python-chess's: [BLACK] is 0, [WHITE] is 1.
        self.remaining_checks[WHITE] = white
        self.remaining_checks[BLACK] = black

    def _snapshot(self) -> Tuple[int, int]:
        return (self.remaining_checks[WHITE], self.remaining_checks[BLACK])

    def _restore(self, snapshot: Tuple[int, int]) -> None:
        self._set_checks(*snapshot)

    def push(self, move: Any) -> None:
        self._pushed(lambda: Board.push(self, move))
        if self.is_check():
            self.remaining_checks[not self.turn] -= 1

    def reset_board(self) -> None:
        Board.reset_board(self)
        self.remaining_checks[:] = [3, 3]

    def clear_board(self) -> None:
        Board.clear_board(self)
        self.remaining_checks[:] = [3, 3]

    def reset(self) -> None:
        Board.reset(self)
        self._before.clear()
        self.remaining_checks[:] = [3, 3]

    def clear(self) -> None:
        Board.clear(self)
        self._before.clear()
        self.remaining_checks[:] = [3, 3]

    # -- the FEN

    def set_fen(self, fen: str) -> None:
        parts = fen.split()
        white, black = 3, 3
        if len(parts) >= 7 and parts[6][0] == "+":
            # lichess: checks given, at the end.
            field = parts.pop(6)
            try:
                given_white, given_black = field[1:].split("+", 1)
                white, black = 3 - int(given_white), 3 - int(given_black)
            except ValueError:
                raise ValueError(f"invalid check part in lichess three-check fen: {field!r}") from None
        elif len(parts) >= 5 and "+" in parts[4]:
            field = parts.pop(4)
            try:
                left_white, left_black = field.split("+", 1)
                white, black = int(left_white), int(left_black)
            except ValueError:
                raise ValueError(f"invalid check part in three-check fen: {field!r}") from None
        Board.set_fen(self, " ".join(parts))
        self._before.clear()
        self._set_checks(white, black)

    def set_epd(self, epd: str) -> Dict[str, Any]:
        parts = epd.strip().rstrip(";").split(None, 5)
        if len(parts) <= 5:
            self.set_fen(epd)
            return {}
        # python-chess's reading: the fifth field is the counters, the rest the operations
        # (their moves read on this position); hmvc and fmvn become the clocks.
        head = parts[:5]
        ops = _epd_operations(parts[5], lambda: type(self)(" ".join(head) + " 0 1"))
        clocks = [str(ops["hmvc"]) if "hmvc" in ops else "0", str(ops["fmvn"]) if "fmvn" in ops else "1"]
        self.set_fen(" ".join(head + clocks))
        return ops

    def _checks_field(self) -> str:
        return f"{max(self.remaining_checks[WHITE], 0):d}+{max(self.remaining_checks[BLACK], 0):d}"

    def epd(  # python-chess's variant boards take these positionally too
        self,
        shredder: bool = False,
        en_passant: str = "legal",
        promoted: Optional[bool] = None,
        **operations: Any,
    ) -> str:
        fields = Board.epd(self, shredder=shredder, en_passant=en_passant, promoted=promoted)
        ops = [_epd_operand(self, opcode, operand) for opcode, operand in operations.items()]
        return " ".join([fields, self._checks_field()] + ops)

    # -- the rules

    def has_insufficient_material(self, color: bool) -> bool:
        # Any piece but the king can give check.
        return not self.occupied_co[color] & ~self.kings

    def is_variant_end(self) -> bool:
        return min(self.remaining_checks) <= 0

    def is_variant_draw(self) -> bool:
        return max(self.remaining_checks) <= 0

    def is_variant_loss(self) -> bool:
        return self.remaining_checks[not self.turn] <= 0 < self.remaining_checks[self.turn]

    def is_variant_win(self) -> bool:
        return self.remaining_checks[self.turn] <= 0 < self.remaining_checks[not self.turn]

    def is_irreversible(self, move: Any) -> bool:
        return bool(base_method("is_irreversible")(self, move)) or self.gives_check(move)

    def _transposition_extra(self) -> Tuple[int, ...]:
        return (self.remaining_checks[WHITE], self.remaining_checks[BLACK])

    __eq__ = base_method("__eq__")
    __hash__ = None  # type: ignore[assignment]

    # -- copies

    def mirror(self) -> ThreeCheckBoard:
        board: ThreeCheckBoard = Board.mirror(self)
        board.remaining_checks = list(self.remaining_checks)
        board._set_checks(self.remaining_checks[BLACK], self.remaining_checks[WHITE])
        return board
