"""python-chess's move rules over bare bitboards, for the tablebase probes kibitz's Rust
board cannot make.

``kibitz.syzygy`` probes through kibitz's Rust tables. Where python-chess's prober answers a
position those tables refuse (a table set with holes, where python-chess may still find a
capture that settles the position; a position kibitz cannot play, such as the side not to
move in check), ``kibitz.syzygy`` runs python-chess's probing algorithm itself, and that
algorithm walks legal moves. The moves must be python-chess's, in python-chess's order: the
order decides which missing table is met first, or whether a capture cuts the search off
before one is met. ``Position`` holds what the prober needs (the piece bitboards, the side
to move, the en-passant square, the castling rights and the halfmove clock) and generates
moves as python-chess's ``Board`` does, on any placement: several kings, a side without
king, the side not to move in check. It is slow (pure Python) and meant for those few
probes only.

Moves are ``(from_square, to_square, promotion)`` tuples, promotion 0 when none. Castling is
never generated: the prober refuses positions with castling rights before it moves.
"""

from __future__ import annotations

from typing import Any, Iterator, List, Optional, Tuple

from kibitz._bitboards import (
    BB_ALL,
    BB_KING_ATTACKS,
    BB_KNIGHT_ATTACKS,
    BB_PAWN_ATTACKS,
    BB_RANKS,
    BB_SQUARES,
    between,
    msb,
    ray,
    scan_forward,
    scan_reversed,
)
from kibitz._constants import BISHOP, BLACK, KNIGHT, PAWN, QUEEN, ROOK, WHITE

__all__ = ["Move", "Position", "diagonal_attacks", "orthogonal_attacks"]

Move = Tuple[int, int, int]

# The directions a slider moves in, as (file, rank) steps.
_ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))
_DIAGONAL = ((1, 1), (-1, -1), (1, -1), (-1, 1))
# python-chess yields a promotion's four moves in this order.
_PROMOTIONS = (QUEEN, ROOK, BISHOP, KNIGHT)
# A double step lands on the fourth rank (white) or the fifth (black); python-chess masks
# the landing squares with the third and fourth (sixth and fifth) ranks, as here.
_DOUBLE_TARGETS = {WHITE: BB_RANKS[2] | BB_RANKS[3], BLACK: BB_RANKS[5] | BB_RANKS[4]}


def _rays(square: int, steps: Tuple[Tuple[int, int], ...]) -> List[List[int]]:
    out = []
    for df, dr in steps:
        squares = []
        f, r = square % 8 + df, square // 8 + dr
        while 0 <= f < 8 and 0 <= r < 8:
            squares.append(r * 8 + f)
            f += df
            r += dr
        out.append(squares)
    return out


_ORTHOGONAL_RAYS = [_rays(s, _ORTHOGONAL) for s in range(64)]
_DIAGONAL_RAYS = [_rays(s, _DIAGONAL) for s in range(64)]
# The lines through a square on an empty board: the rank and file, and both diagonals.
_EMPTY_ORTHOGONAL = [sum(1 << t for line in rays for t in line) for rays in _ORTHOGONAL_RAYS]
_EMPTY_DIAGONAL = [sum(1 << t for line in rays for t in line) for rays in _DIAGONAL_RAYS]


def _slide(rays: List[List[int]], occupied: int) -> int:
    bb = 0
    for line in rays:
        for t in line:
            bb |= 1 << t
            if occupied >> t & 1:
                break
    return bb


def orthogonal_attacks(square: int, occupied: int) -> int:
    """The squares a rook on `square` attacks through `occupied`."""
    return _slide(_ORTHOGONAL_RAYS[square], occupied)


def diagonal_attacks(square: int, occupied: int) -> int:
    """The squares a bishop on `square` attacks through `occupied`."""
    return _slide(_DIAGONAL_RAYS[square], occupied)


def _rank_attacks(square: int, occupied: int) -> int:
    return _slide(_ORTHOGONAL_RAYS[square][:2], occupied)


class Position:
    """A position as python-chess's prober sees it; see the module's doc."""

    __slots__ = (
        "pawns",
        "knights",
        "bishops",
        "rooks",
        "queens",
        "kings",
        "occupied_co",
        "turn",
        "ep_square",
        "castling_rights",
        "halfmove_clock",
        "fullmove_number",
    )

    def __init__(self) -> None:
        self.pawns = self.knights = self.bishops = self.rooks = self.queens = self.kings = 0
        self.occupied_co = [0, 0]
        self.turn = WHITE
        self.ep_square: Optional[int] = None
        self.castling_rights = 0
        self.halfmove_clock = 0
        self.fullmove_number = 1

    @classmethod
    def from_board(cls, board: Any) -> "Position":
        """The position of a kibitz or python-chess board (any object with python-chess's
        bitboard attributes)."""
        pos = cls()
        pos.pawns = int(board.pawns)
        pos.knights = int(board.knights)
        pos.bishops = int(board.bishops)
        pos.rooks = int(board.rooks)
        pos.queens = int(board.queens)
        pos.kings = int(board.kings)
        pos.occupied_co = [int(board.occupied_co[BLACK]), int(board.occupied_co[WHITE])]
        pos.turn = bool(board.turn)
        pos.ep_square = board.ep_square
        pos.castling_rights = int(board.castling_rights)
        pos.halfmove_clock = int(board.halfmove_clock)
        pos.fullmove_number = int(board.fullmove_number)
        return pos

    def copy(self) -> "Position":
        pos = Position()
        for name in self.__slots__:
            setattr(pos, name, getattr(self, name))
        pos.occupied_co = list(self.occupied_co)
        return pos

    @property
    def occupied(self) -> int:
        return self.occupied_co[WHITE] | self.occupied_co[BLACK]

    @property
    def uci_variant(self) -> str:
        return "chess"

    def _masks(self) -> List[int]:
        return [0, self.pawns, self.knights, self.bishops, self.rooks, self.queens, self.kings]

    def pieces_mask(self, piece_type: int, color: bool) -> int:
        return self._masks()[piece_type] & self.occupied_co[color]

    def piece_type_at(self, square: int) -> Optional[int]:
        bit = BB_SQUARES[square]
        for piece_type, mask in enumerate(self._masks()):
            if piece_type and mask & bit:
                return piece_type
        return None

    # Attacks ----------------------------------------------------------------------------

    def attacks_mask(self, square: int) -> int:
        """The squares the piece on `square` attacks (0 for an empty square)."""
        bit = BB_SQUARES[square]
        if self.pawns & bit:
            return BB_PAWN_ATTACKS[bool(self.occupied_co[WHITE] & bit)][square]
        if self.knights & bit:
            return BB_KNIGHT_ATTACKS[square]
        if self.kings & bit:
            return BB_KING_ATTACKS[square]
        attacks = 0
        if (self.bishops | self.queens) & bit:
            attacks = diagonal_attacks(square, self.occupied)
        if (self.rooks | self.queens) & bit:
            attacks |= orthogonal_attacks(square, self.occupied)
        return attacks

    def attackers_mask(self, color: bool, square: int, occupied: Optional[int] = None) -> int:
        occupied = self.occupied if occupied is None else occupied
        attackers = (
            (BB_KING_ATTACKS[square] & self.kings)
            | (BB_KNIGHT_ATTACKS[square] & self.knights)
            | (orthogonal_attacks(square, occupied) & (self.rooks | self.queens))
            | (diagonal_attacks(square, occupied) & (self.bishops | self.queens))
            | (BB_PAWN_ATTACKS[not color][square] & self.pawns)
        )
        return attackers & self.occupied_co[color]

    def is_attacked_by(self, color: bool, square: int) -> bool:
        return bool(self.attackers_mask(color, square))

    def king(self, color: bool) -> Optional[int]:
        mask = self.occupied_co[color] & self.kings
        return msb(mask) if mask else None

    def is_check(self) -> bool:
        king = self.king(self.turn)
        return king is not None and bool(self.attackers_mask(not self.turn, king))

    def is_checkmate(self) -> bool:
        return self.is_check() and not any(self.generate_legal_moves())

    # Move kinds -------------------------------------------------------------------------

    def is_en_passant(self, move: Move) -> bool:
        frm, to, _ = move
        return (
            self.ep_square == to
            and bool(self.pawns & BB_SQUARES[frm])
            and abs(to - frm) in (7, 9)
            and not self.occupied & BB_SQUARES[to]
        )

    def is_capture(self, move: Move) -> bool:
        touched = BB_SQUARES[move[0]] ^ BB_SQUARES[move[1]]
        return bool(touched & self.occupied_co[not self.turn]) or self.is_en_passant(move)

    def is_zeroing(self, move: Move) -> bool:
        touched = BB_SQUARES[move[0]] ^ BB_SQUARES[move[1]]
        return bool(touched & self.pawns or touched & self.occupied_co[not self.turn])

    # Generation, in python-chess's order ------------------------------------------------

    def generate_pseudo_legal_moves(self, from_mask: int = BB_ALL, to_mask: int = BB_ALL) -> Iterator[Move]:
        ours = self.occupied_co[self.turn]
        theirs = self.occupied_co[not self.turn]
        occupied = ours | theirs
        for frm in scan_reversed(ours & ~self.pawns & from_mask):
            for to in scan_reversed(self.attacks_mask(frm) & ~ours & to_mask):
                yield (frm, to, 0)
        pawns = self.pawns & ours & from_mask
        if not pawns:
            return
        for frm in scan_reversed(pawns):
            for to in scan_reversed(BB_PAWN_ATTACKS[self.turn][frm] & theirs & to_mask):
                yield from self._pawn_moves(frm, to)
        if self.turn == WHITE:
            single = (pawns << 8) & ~occupied & BB_ALL
            double = (single << 8) & ~occupied & _DOUBLE_TARGETS[WHITE]
            step = 8
        else:
            single = (pawns >> 8) & ~occupied
            double = (single >> 8) & ~occupied & _DOUBLE_TARGETS[BLACK]
            step = -8
        for to in scan_reversed(single & to_mask):
            yield from self._pawn_moves(to - step, to)
        for to in scan_reversed(double & to_mask):
            yield (to - 2 * step, to, 0)
        if self.ep_square:
            yield from self.generate_pseudo_legal_ep(from_mask, to_mask)

    @staticmethod
    def _pawn_moves(frm: int, to: int) -> Iterator[Move]:
        if to < 8 or to >= 56:
            for piece_type in _PROMOTIONS:
                yield (frm, to, piece_type)
        else:
            yield (frm, to, 0)

    def generate_pseudo_legal_ep(self, from_mask: int = BB_ALL, to_mask: int = BB_ALL) -> Iterator[Move]:
        ep = self.ep_square
        if not ep or not BB_SQUARES[ep] & to_mask or BB_SQUARES[ep] & self.occupied:
            return
        capturers = (
            self.pawns
            & self.occupied_co[self.turn]
            & from_mask
            & BB_PAWN_ATTACKS[not self.turn][ep]
            & BB_RANKS[4 if self.turn else 3]
        )
        for frm in scan_reversed(capturers):
            yield (frm, ep, 0)

    def _slider_blockers(self, king: int) -> int:
        snipers = (_EMPTY_ORTHOGONAL[king] & (self.rooks | self.queens)) | (
            _EMPTY_DIAGONAL[king] & (self.bishops | self.queens)
        )
        blockers = 0
        occupied = self.occupied
        for sniper in scan_reversed(snipers & self.occupied_co[not self.turn]):
            b = between(king, sniper) & occupied
            if b and b & (b - 1) == 0:
                blockers |= b
        return blockers & self.occupied_co[self.turn]

    def pin_mask(self, color: bool, square: int) -> int:
        king = self.king(color)
        if king is None:
            return BB_ALL
        bit = BB_SQUARES[square]
        occupied = self.occupied
        # python-chess looks along the file, then the rank, then the diagonals, and only
        # along the first of them that holds the square.
        file_line = _slide(_ORTHOGONAL_RAYS[king][2:], 0)
        rank_line = _slide(_ORTHOGONAL_RAYS[king][:2], 0)
        for line, sliders in (
            (file_line, self.rooks | self.queens),
            (rank_line, self.rooks | self.queens),
            (_EMPTY_DIAGONAL[king], self.bishops | self.queens),
        ):
            if line & bit:
                for sniper in scan_reversed(line & sliders & self.occupied_co[not color]):
                    if between(sniper, king) & (occupied | bit) == bit:
                        return ray(king, sniper)
                break
        return BB_ALL

    def _ep_skewered(self, king: int, capturer: int) -> bool:
        ep = self.ep_square
        assert ep is not None
        last_double = ep + (-8 if self.turn == WHITE else 8)
        occupancy = (self.occupied & ~BB_SQUARES[last_double] & ~BB_SQUARES[capturer]) | BB_SQUARES[ep]
        theirs = self.occupied_co[not self.turn]
        if _rank_attacks(king, occupancy) & theirs & (self.rooks | self.queens):
            return True
        return bool(diagonal_attacks(king, occupancy) & theirs & (self.bishops | self.queens))

    def _is_safe(self, king: int, blockers: int, move: Move) -> bool:
        frm, to, _ = move
        if frm == king:
            return not self.is_attacked_by(not self.turn, to)
        if self.is_en_passant(move):
            return bool(self.pin_mask(self.turn, frm) & BB_SQUARES[to] and not self._ep_skewered(king, frm))
        return bool(not blockers & BB_SQUARES[frm] or ray(frm, to) & BB_SQUARES[king])

    def _generate_evasions(
        self, king: int, checkers: int, from_mask: int = BB_ALL, to_mask: int = BB_ALL
    ) -> Iterator[Move]:
        attacked = 0
        for checker in scan_reversed(checkers & (self.bishops | self.rooks | self.queens)):
            attacked |= ray(king, checker) & ~BB_SQUARES[checker]
        if BB_SQUARES[king] & from_mask:
            targets = BB_KING_ATTACKS[king] & ~self.occupied_co[self.turn] & ~attacked & to_mask
            for to in scan_reversed(targets):
                yield (king, to, 0)
        checker = msb(checkers)
        if BB_SQUARES[checker] == checkers:
            target = between(king, checker) | checkers
            yield from self.generate_pseudo_legal_moves(~self.kings & from_mask, target & to_mask)
            if self.ep_square and not BB_SQUARES[self.ep_square] & target:
                last_double = self.ep_square + (-8 if self.turn == WHITE else 8)
                if last_double == checker:
                    yield from self.generate_pseudo_legal_ep(from_mask, to_mask)

    def generate_legal_moves(self, from_mask: int = BB_ALL, to_mask: int = BB_ALL) -> Iterator[Move]:
        king_mask = self.kings & self.occupied_co[self.turn]
        if not king_mask:
            yield from self.generate_pseudo_legal_moves(from_mask, to_mask)
            return
        king = msb(king_mask)
        blockers = self._slider_blockers(king)
        checkers = self.attackers_mask(not self.turn, king)
        if checkers:
            moves = self._generate_evasions(king, checkers, from_mask, to_mask)
        else:
            moves = self.generate_pseudo_legal_moves(from_mask, to_mask)
        for move in moves:
            if self._is_safe(king, blockers, move):
                yield move

    def is_into_check(self, move: Move) -> bool:
        king = self.king(self.turn)
        if king is None:
            return False
        checkers = self.attackers_mask(not self.turn, king)
        if checkers and move not in self._generate_evasions(king, checkers, BB_SQUARES[move[0]], BB_SQUARES[move[1]]):
            return True
        return not self._is_safe(king, self._slider_blockers(king), move)

    def generate_legal_ep(self, from_mask: int = BB_ALL, to_mask: int = BB_ALL) -> Iterator[Move]:
        for move in self.generate_pseudo_legal_ep(from_mask, to_mask):
            if not self.is_into_check(move):
                yield move

    def generate_legal_captures(self) -> Iterator[Move]:
        yield from self.generate_legal_moves(BB_ALL, self.occupied_co[not self.turn])
        yield from self.generate_legal_ep()

    # Playing ----------------------------------------------------------------------------

    def _remove(self, square: int) -> Optional[int]:
        piece_type = self.piece_type_at(square)
        if piece_type is None:
            return None
        mask = ~BB_SQUARES[square]
        self.pawns &= mask
        self.knights &= mask
        self.bishops &= mask
        self.rooks &= mask
        self.queens &= mask
        self.kings &= mask
        self.occupied_co[WHITE] &= mask
        self.occupied_co[BLACK] &= mask
        return piece_type

    def _put(self, square: int, piece_type: int, color: bool) -> None:
        self._remove(square)
        bit = BB_SQUARES[square]
        if piece_type == PAWN:
            self.pawns |= bit
        elif piece_type == KNIGHT:
            self.knights |= bit
        elif piece_type == BISHOP:
            self.bishops |= bit
        elif piece_type == ROOK:
            self.rooks |= bit
        elif piece_type == QUEEN:
            self.queens |= bit
        else:
            self.kings |= bit
        self.occupied_co[color] |= bit

    def after(self, move: Move) -> "Position":
        """The position after a pseudo-legal move, as python-chess's ``push`` leaves it."""
        frm, to, promotion = move
        child = self.copy()
        ep = self.ep_square
        child.ep_square = None
        child.halfmove_clock = 0 if self.is_zeroing(move) else self.halfmove_clock + 1
        # Castling rights go with the squares a move touches (they are 0 in any position
        # probed, as the prober refuses castling rights before it moves).
        child.castling_rights &= ~BB_SQUARES[frm] & ~BB_SQUARES[to]
        piece_type = child._remove(frm)
        assert piece_type is not None, "a move from an empty square"
        captured = child.piece_type_at(to)
        if piece_type == PAWN:
            diff = to - frm
            if diff == 16 and frm // 8 == 1:
                child.ep_square = frm + 8
            elif diff == -16 and frm // 8 == 6:
                child.ep_square = frm - 8
            elif to == ep and abs(diff) in (7, 9) and not captured:
                child._remove(ep + (-8 if self.turn == WHITE else 8))
        child._put(to, promotion or piece_type, self.turn)
        child.turn = not self.turn
        if child.turn == WHITE:
            child.fullmove_number += 1
        return child

    def fen(self, *, en_passant: str = "legal") -> str:
        """The FEN. The en-passant square is written as python-chess writes it: only when an
        en-passant capture is legal, or with ``en_passant="fen"`` whenever it is set."""
        cells = ["1"] * 64
        for symbol, mask in zip("pnbrqk", self._masks()[1:]):
            for square in scan_forward(mask & self.occupied_co[WHITE]):
                cells[square] = symbol.upper()
            for square in scan_forward(mask & self.occupied_co[BLACK]):
                cells[square] = symbol
        rows = []
        for rank in range(7, -1, -1):
            row = ""
            for cell in cells[rank * 8 : rank * 8 + 8]:
                row = row[:-1] + str(int(row[-1]) + 1) if cell == "1" and row[-1:].isdigit() else row + cell
            rows.append(row)
        ep = "-"
        if self.ep_square is not None and (en_passant == "fen" or any(self.generate_legal_ep())):
            ep = "abcdefgh"[self.ep_square % 8] + "12345678"[self.ep_square // 8]
        castling = "".join(
            symbol
            for symbol, square in (("K", 7), ("Q", 0), ("k", 63), ("q", 56))
            if self.castling_rights & BB_SQUARES[square]
        )
        side = "w" if self.turn else "b"
        return f"{'/'.join(rows)} {side} {castling or '-'} {ep} {self.halfmove_clock} {self.fullmove_number}"
