"""Crazyhouse (python-chess's ``chess.variant.CrazyhouseBoard`` and ``CrazyhousePocket``):
pockets, drops.
"""

from __future__ import annotations

from typing import Any, Iterable, Iterator, List, Optional, Tuple

from kibitz import _bitboards as bb
from kibitz._bitboards import piece_symbol
from kibitz._constants import BLACK, KING, PAWN, PIECE_SYMBOLS, PIECE_TYPES, QUEEN, ROOK, WHITE
from kibitz._core import Board, IllegalMoveError, Move, Piece, SquareSet
from kibitz.variant._shared import NoTables, StateAlongStack, base_method


# A pocket's counts by piece type (index 0 unused), as the move stack keeps them.
_Counts = Tuple[int, ...]


class CrazyhousePocket:
    """A Crazyhouse pocket: how many pieces of each type a side holds to drop."""

    def __init__(self, symbols: Iterable[str] = "") -> None:
        self.reset()
        for symbol in symbols:
            self.add(PIECE_SYMBOLS.index(symbol))

    def reset(self) -> None:
        """Empties the pocket."""
        # Indexed by piece type (1-6); index 0 unused.
        self._pieces = [-1, 0, 0, 0, 0, 0, 0]

    def add(self, piece_type: int) -> None:
        """Puts a piece of ``piece_type`` into the pocket."""
        self._pieces[piece_type] += 1

    def remove(self, piece_type: int) -> None:
        """Takes a piece of ``piece_type`` out; an ``AssertionError`` when there is none."""
        assert self._pieces[piece_type], f"cannot remove {piece_symbol(piece_type)} from {self!r}"
        self._pieces[piece_type] -= 1

    def count(self, piece_type: int) -> int:
        """How many pieces of ``piece_type`` the pocket holds."""
        return self._pieces[piece_type]

    def __str__(self) -> str:
        return "".join(piece_symbol(t) * self.count(t) for t in reversed(PIECE_TYPES))

    def __len__(self) -> int:
        return sum(self._pieces[1:])

    def __repr__(self) -> str:
        return f"CrazyhousePocket('{self}')"

    def copy(self) -> CrazyhousePocket:
        """A copy of the pocket."""
        pocket = type(self)()
        pocket._pieces = self._pieces[:]
        return pocket


class CrazyhouseBoard(NoTables, StateAlongStack):
    """Crazyhouse: a captured piece goes to the captor's pocket (a promoted one as a pawn),
    and instead of moving a side may drop a piece from its pocket onto an empty square
    (pawns not on the first or last rank). The pockets are in the FEN after the placement
    (``[Qp]``)."""

    aliases = ["Crazyhouse", "Crazy House", "House", "ZH"]
    uci_variant = "crazyhouse"
    xboard_variant = "crazyhouse"
    starting_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"

    pockets: List[CrazyhousePocket]

    def __init__(self, fen: Optional[str] = starting_fen, chess960: bool = False) -> None:
        self.pockets = [CrazyhousePocket(), CrazyhousePocket()]
        # The pockets along the move stack, as counts (copies of the board share them, so
        # none can change another's pockets).
        self._before: List[Tuple[_Counts, _Counts]] = []
        super().__init__(None, chess960=chess960)
        if fen is not None:
            self.set_fen(fen)

    # -- the pockets along the move stack

    def _set_pockets(self, white: CrazyhousePocket, black: CrazyhousePocket) -> None:
        self.pockets[WHITE] = white
        self.pockets[BLACK] = black

    def _snapshot(self) -> Tuple[_Counts, _Counts]:
        return (tuple(self.pockets[WHITE]._pieces), tuple(self.pockets[BLACK]._pieces))

    def _restore(self, counts: Tuple[_Counts, _Counts]) -> None:
        self._set_pockets(_pocket(counts[0]), _pocket(counts[1]))

    def push(self, move: Any) -> None:
        color = self.turn
        if move.drop:
            if not self._droppable(move):
                # python-chess would fail half-way (an AssertionError for an empty pocket,
                # a piece overwritten on a full square): refused here, the board unchanged.
                raise IllegalMoveError(f"illegal drop {move.uci()} in {self.fen()}")
            # python-chess's push of a drop: the clocks go on, no en passant, the piece is
            # set down, the turn passes.
            after = Board.copy(self, stack=False)
            rights = self.clean_castling_rights()
            after.set_piece_at(move.to_square, Piece(move.drop, color))
            after.castling_rights = rights
            after.ep_square = None
            after.halfmove_clock = self.halfmove_clock + 1
            after.fullmove_number = self.fullmove_number + (color == BLACK)
            after.turn = not color
            self._pushed(lambda: Board._push_as(self, move, after))
            self.pockets[color].remove(move.drop)
            return
        captured = 0
        if move and not Board.is_castling(self, move):
            if Board.is_en_passant(self, move):
                captured = PAWN
            elif self.occupied_co[not color] & bb.BB_SQUARES[move.to_square]:
                promoted = self.promoted & bb.BB_SQUARES[move.to_square]
                captured = PAWN if promoted else int(self.piece_type_at(move.to_square) or 0)
        self._pushed(lambda: Board.push(self, move))
        if captured:
            self.pockets[color].add(captured)

    def reset_board(self) -> None:
        Board.reset_board(self)
        self.pockets[WHITE].reset()
        self.pockets[BLACK].reset()

    def clear_board(self) -> None:
        Board.clear_board(self)
        self.pockets[WHITE].reset()
        self.pockets[BLACK].reset()

    def reset(self) -> None:
        self.set_fen(type(self).starting_fen)

    def clear(self) -> None:
        Board.clear(self)
        self._before.clear()
        self.pockets[WHITE].reset()
        self.pockets[BLACK].reset()

    # -- drops

    def legal_drop_squares_mask(self) -> int:
        """The squares a piece may be dropped on: any empty one, or out of check onto the
        line of a single checker."""
        king = self.king(self.turn)
        empty = ~self.occupied & bb.BB_ALL
        if king is None:
            return empty
        attackers = self.attackers_mask(not self.turn, king)
        if not attackers:
            return empty
        if bb.popcount(attackers) == 1:
            return bb.between(king, bb.msb(attackers)) & empty
        return bb.BB_EMPTY

    def legal_drop_squares(self) -> SquareSet:
        """``legal_drop_squares_mask()`` as a SquareSet (whatever the pocket holds)."""
        return SquareSet(self.legal_drop_squares_mask())

    def generate_pseudo_legal_drops(self, to_mask: int = bb.BB_ALL) -> Iterator[Move]:
        pocket = self.pockets[self.turn]
        for kind in PIECE_TYPES:
            if pocket.count(kind):
                squares = to_mask & ~self.occupied & (~bb.BB_BACKRANKS if kind == PAWN else bb.BB_ALL)
                for square in bb.scan_forward(squares & bb.BB_ALL):
                    yield Move(square, square, drop=kind)

    def generate_legal_drops(self, to_mask: int = bb.BB_ALL) -> Iterator[Move]:
        return self.generate_pseudo_legal_drops(to_mask=self.legal_drop_squares_mask() & to_mask)

    def generate_legal_moves(self, from_mask: int = bb.BB_ALL, to_mask: int = bb.BB_ALL) -> Iterator[Move]:
        yield from Board.generate_legal_moves(self, from_mask, to_mask)
        yield from self.generate_legal_drops(from_mask & to_mask)

    def _droppable(self, move: Any) -> bool:
        """A drop from the pocket onto an empty square (a pawn not on a back rank): what the
        drop generators give, a king from the pocket too."""
        square = bb.BB_SQUARES[move.to_square]
        return (
            move.from_square == move.to_square
            and not square & self.occupied
            and not (move.drop == PAWN and square & bb.BB_BACKRANKS)
            and self.pockets[self.turn].count(move.drop) > 0
        )

    def is_pseudo_legal(self, move: Any) -> bool:
        if move.drop and move.from_square == move.to_square:
            # python-chess's: never a king (though its generators offer one from a pocket).
            return move.drop != KING and self._droppable(move)
        return bool(Board.is_pseudo_legal(self, move))

    def is_legal(self, move: Any) -> bool:
        if move.drop:
            return self.is_pseudo_legal(move) and bool(self.legal_drop_squares_mask() & bb.BB_SQUARES[move.to_square])
        return bool(Board.is_legal(self, move))

    def parse_san(self, san: str) -> Move:
        if "@" in san:
            uci = san.rstrip("+#")
            if uci[0] == "@":
                uci = "P" + uci
            move = Move.from_uci(uci)
            if not self.is_legal(move):
                raise IllegalMoveError(f"illegal drop san: {san!r} in {self.fen()}")
            return move
        return base_method("parse_san")(self, san)  # type: ignore[no-any-return]

    # -- what a drop is not

    def is_capture(self, move: Any) -> bool:
        return not move.drop and bool(Board.is_capture(self, move))

    def is_en_passant(self, move: Any) -> bool:
        return not move.drop and bool(Board.is_en_passant(self, move))

    def is_castling(self, move: Any) -> bool:
        return not move.drop and bool(Board.is_castling(self, move))

    def is_kingside_castling(self, move: Any) -> bool:
        return not move.drop and bool(Board.is_kingside_castling(self, move))

    def is_queenside_castling(self, move: Any) -> bool:
        return not move.drop and bool(Board.is_queenside_castling(self, move))

    def is_into_check(self, move: Any) -> bool:
        if move.drop:
            # python-chess's: a drop is never among the evasions of a check.
            return bool(self.checkers_mask())
        return bool(Board.is_into_check(self, move))

    # -- the rules

    def is_fifty_moves(self) -> bool:
        return False  # no fifty-move or seventy-five-move rule

    def is_seventyfive_moves(self) -> bool:
        return False

    def can_claim_fifty_moves(self) -> bool:
        return False

    def is_irreversible(self, move: Any) -> bool:
        # Only a loss of castling rights: captures and drops change the pockets, not the
        # chance of a repetition.
        if move.drop:
            return False
        rights = self.clean_castling_rights()
        touched = bb.BB_SQUARES[move.from_square] ^ bb.BB_SQUARES[move.to_square]
        kings = self.kings & ~self.promoted
        return bool(
            touched & rights
            or rights & bb.BB_RANK_1
            and touched & kings & self.occupied_co[WHITE]
            or rights & bb.BB_RANK_8
            and touched & kings & self.occupied_co[BLACK]
        )

    def _transposition_extra(self) -> Tuple[Any, ...]:
        return (self.promoted, str(self.pockets[WHITE]), str(self.pockets[BLACK]))

    __eq__ = base_method("__eq__")
    __hash__ = None  # type: ignore[assignment]

    def has_insufficient_material(self, color: bool) -> bool:
        # Nothing leaves the game; only a near-empty board with no pawn, rook or queen on it
        # or in a pocket is insufficient.
        pockets = self.pockets
        if bb.popcount(self.occupied) + len(pockets[WHITE]) + len(pockets[BLACK]) > 3:
            return False
        if self.promoted or self.pawns or self.rooks or self.queens:
            return False
        return not any(p.count(kind) for p in pockets for kind in (PAWN, ROOK, QUEEN))

    def status(self) -> bb.Status:
        status = int(base_method("status")(self))
        pockets = self.pockets
        if bb.popcount(self.pawns) + pockets[WHITE].count(PAWN) + pockets[BLACK].count(PAWN) <= 16:
            status &= ~(bb.STATUS_TOO_MANY_BLACK_PAWNS | bb.STATUS_TOO_MANY_WHITE_PAWNS)
        if bb.popcount(self.occupied) + len(pockets[WHITE]) + len(pockets[BLACK]) <= 32:
            status &= ~(bb.STATUS_TOO_MANY_BLACK_PIECES | bb.STATUS_TOO_MANY_WHITE_PIECES)
        return bb.Status(status)

    # -- the FEN

    def set_fen(self, fen: str) -> None:
        position, rest = fen.split(None, 1)
        # lichess's "[...]" after the placement, or the pockets as a ninth rank.
        if position.endswith("]"):
            if position.count("/") != 7:
                raise ValueError(f"expected 8 rows in position part of zh fen: {fen!r}")
            position = position[:-1].replace("[", "/", 1)
        pocket_text = ""
        if position.count("/") == 8:
            position, pocket_text = position.rsplit("/", 1)
        white = CrazyhousePocket(c.lower() for c in pocket_text if c.isupper())
        black = CrazyhousePocket(c for c in pocket_text if not c.isupper())
        Board.set_fen(self, position + " " + rest)
        self._before.clear()
        self._set_pockets(white, black)

    def board_fen(self, *, promoted: Optional[bool] = None) -> str:
        return str(Board.board_fen(self, promoted=True if promoted is None else promoted))

    def epd(  # python-chess's variant boards take these positionally too
        self,
        shredder: bool = False,
        en_passant: str = "legal",
        promoted: Optional[bool] = None,
        **operations: Any,
    ) -> str:
        if promoted is None:
            promoted = True
        fields = Board.epd(self, shredder=shredder, en_passant=en_passant, promoted=promoted)
        placement, info = fields.split(" ", 1)
        pockets = f"[{str(self.pockets[WHITE]).upper()}{self.pockets[BLACK]}]"
        # python-chess's crazyhouse EPD leaves the operations out: so does this one.
        return f"{placement}{pockets} {info}"

    # -- copies

    def mirror(self) -> CrazyhouseBoard:
        board: CrazyhouseBoard = Board.mirror(self)
        board._set_pockets(self.pockets[BLACK].copy(), self.pockets[WHITE].copy())
        return board


def _pocket(counts: _Counts) -> CrazyhousePocket:
    """A pocket holding ``counts`` (by piece type, index 0 unused)."""
    pocket = CrazyhousePocket()
    pocket._pieces = list(counts)
    return pocket


# python-chess's type variables of the two classes with state of their own.
