"""python-chess's methods in terms of each other, for the Board subclasses that override them.

python-chess's ``Board`` builds most of its answers from its other public methods: its
``legal_moves`` iterates ``generate_legal_moves()``, ``is_check()`` reads
``checkers_mask()``, ``outcome()`` asks ``is_variant_loss()`` and ``is_checkmate()``,
``san()`` pushes the move to see whether it checks. A subclass that overrides one of them
(a board that ignores check, one that bans some moves, one with a game end of its own)
changes every answer built on it. kibitz answers from its own rules, so on a subclass that
overrides one of these methods, the methods built on it are replaced, on that subclass
only, by the ones below: each asks the board's own methods what python-chess's asks, in the
same order, and falls back to kibitz's for the rest. A plain ``Board`` and a subclass that
overrides none of them keep kibitz's native methods and their speed.

``DEPENDS`` is python-chess's call graph among these methods (which public method calls
which); ``install`` (run by ``Board.__init_subclass__``) puts in place the methods whose
calls reach an overridden one. ``push`` alone needs none of this: the native ``push_san``,
``push_uci`` and the PGN reader already call an overridden ``push``.

Not covered: python-chess's private helpers (``_is_safe``, ``_generate_evasions``,
``_attacked_for_king``...) as hooks, since kibitz does not have them. The repetitions are
counted on a copy of the board, history whole, where python-chess pops its own stack and
pushes the moves back. With ``generate_pseudo_legal_moves`` overridden, the legal moves are
its moves that do not leave the king attacked, in check as python-chess's evasions are made
(the king's own moves from the rules, the other pieces' from the override).
"""

from __future__ import annotations

import re
from typing import Any, Callable, Dict, FrozenSet, Iterator, List, Optional, Set, Tuple

from kibitz import _bitboards as bb
from kibitz._constants import FILE_NAMES, PAWN, PIECE_SYMBOLS, QUEEN, SQUARE_NAMES, square_file, square_rank
from kibitz._core import AmbiguousMoveError, Board, IllegalMoveError, InvalidMoveError, Move, SquareSet
from kibitz._outcome import Outcome, Termination

__all__ = ["DEPENDS", "faithful_method", "install"]

# For each method below, the methods of python-chess's Board it calls (its call graph, read
# from python-chess 1.11: facts about its behaviour, checked by the differential test).
DEPENDS: Dict[str, FrozenSet[str]] = {
    name: frozenset(calls)
    for name, calls in {
        "generate_castling_moves": ["is_variant_end"],
        "generate_pseudo_legal_moves": ["generate_castling_moves"],
        "generate_legal_moves": ["generate_pseudo_legal_moves", "is_variant_end"],
        "legal_moves": ["generate_legal_moves", "is_legal"],
        "pseudo_legal_moves": ["generate_pseudo_legal_moves", "is_pseudo_legal"],
        "is_legal": ["is_variant_end", "is_pseudo_legal", "is_into_check"],
        "is_check": ["checkers_mask"],
        "checkers": ["checkers_mask"],
        "is_checkmate": ["is_check", "generate_legal_moves"],
        "is_stalemate": ["is_check", "is_variant_end", "generate_legal_moves"],
        "is_insufficient_material": ["has_insufficient_material"],
        "is_seventyfive_moves": ["generate_legal_moves"],
        "is_fifty_moves": ["generate_legal_moves"],
        "outcome": [
            "is_variant_loss",
            "is_variant_win",
            "is_variant_draw",
            "is_checkmate",
            "is_insufficient_material",
            "generate_legal_moves",
            "is_seventyfive_moves",
            "is_fivefold_repetition",
            "can_claim_fifty_moves",
            "can_claim_threefold_repetition",
        ],
        "is_game_over": ["outcome"],
        "result": ["outcome"],
        "gives_check": ["push", "is_check", "pop"],
        "find_move": ["is_legal"],
        "parse_uci": ["is_legal"],
        "push_uci": ["parse_uci", "push"],
        "parse_san": [
            "generate_castling_moves",
            "is_kingside_castling",
            "is_queenside_castling",
            "pieces_mask",
            "find_move",
            "generate_legal_moves",
        ],
        "push_san": ["parse_san", "push"],
        "parse_xboard": ["parse_san"],
        # python-chess's push_xboard is push_san under a second name.
        "push_xboard": ["parse_san", "push"],
        "san": ["push", "pop", "is_check", "is_checkmate", "is_variant_loss", "is_variant_win", "generate_legal_moves"],
        "lan": ["push", "pop", "is_check", "is_checkmate", "is_variant_loss", "is_variant_win", "generate_legal_moves"],
        "san_and_push": [
            "push",
            "is_check",
            "is_checkmate",
            "is_variant_loss",
            "is_variant_win",
            "generate_legal_moves",
        ],
        "variation_san": ["is_legal", "san_and_push"],
        "generate_legal_ep": ["generate_pseudo_legal_ep", "is_into_check", "is_variant_end"],
        "has_legal_en_passant": ["generate_legal_ep"],
        "generate_legal_captures": ["generate_legal_moves", "generate_legal_ep"],
        "generate_pseudo_legal_captures": ["generate_pseudo_legal_moves", "generate_pseudo_legal_ep"],
        # The en-passant field, written when a legal capture exists.
        "fen": ["has_legal_en_passant"],
        "epd": ["has_legal_en_passant"],
        "shredder_fen": ["has_legal_en_passant"],
        # Repetitions: the positions compared by python-chess's transposition key (its
        # en-passant square only when a legal capture exists), found by popping the moves
        # and pushing them back.
        "is_irreversible": ["is_zeroing", "has_legal_en_passant", "clean_castling_rights"],
        "is_repetition": ["push", "pop", "is_irreversible", "has_legal_en_passant", "clean_castling_rights"],
        "is_fivefold_repetition": ["is_repetition"],
        "can_claim_threefold_repetition": [
            "push",
            "pop",
            "is_irreversible",
            "generate_legal_moves",
            "has_legal_en_passant",
            "clean_castling_rights",
        ],
        "can_claim_fifty_moves": ["is_fifty_moves", "generate_legal_moves", "is_zeroing", "push", "pop"],
        "can_claim_draw": ["can_claim_fifty_moves", "can_claim_threefold_repetition"],
        # Two boards are equal when their clocks and transposition keys are.
        "__eq__": ["has_legal_en_passant", "clean_castling_rights"],
        # The flags built on the overridable methods: castling rights, the side not to move
        # in check, the checkers.
        "status": ["clean_castling_rights", "was_into_check", "checkers_mask", "attackers_mask"],
        "is_valid": ["status"],
    }.items()
}

# Methods whose override matters to the ones above (the leaves and the derived alike).
_WATCHED: FrozenSet[str] = frozenset(DEPENDS) | frozenset(c for calls in DEPENDS.values() for c in calls)


def _faithful(f: Callable[..., Any]) -> Callable[..., Any]:
    """Marks a function as one of this module's (not a subclass's own override)."""
    setattr(f, "_kibitz_faithful", True)
    return f


class _FaithfulProperty(property):
    """A property of this module's (``legal_moves``, ``pseudo_legal_moves``)."""

    _kibitz_faithful = True


def _overridden(cls: type) -> Set[str]:
    """The watched methods a class between ``cls`` and ``Board`` defines itself."""
    out: Set[str] = set()
    for klass in cls.__mro__:
        if klass is Board:
            break
        for name in _WATCHED & set(vars(klass)):
            if not getattr(vars(klass)[name], "_kibitz_faithful", False):
                out.add(name)
    return out


def install(cls: type) -> None:
    """Puts python-chess's way of building a method on ``cls`` for every method whose calls
    reach one that ``cls`` (or a class between it and ``Board``) overrides; a method the
    class defines itself stays its own."""
    own = _overridden(cls)
    if not own:
        return
    affected: Set[str] = set()
    changed = True
    while changed:
        changed = False
        for name, calls in DEPENDS.items():
            if name not in affected and calls & (own | affected):
                affected.add(name)
                changed = True
    for name in affected - own:
        setattr(cls, name, _METHODS[name])


# ---- the methods, as python-chess builds them ----


@_faithful
def generate_castling_moves(self: Any, from_mask: int = bb.BB_ALL, to_mask: int = bb.BB_ALL) -> Iterator[Move]:
    if self.is_variant_end():
        return
    yield from Board.generate_castling_moves(self, from_mask, to_mask)


@_faithful
def generate_pseudo_legal_moves(self: Any, from_mask: int = bb.BB_ALL, to_mask: int = bb.BB_ALL) -> Iterator[Move]:
    # kibitz's moves with its castling moves replaced by the board's own, in python-chess's
    # place for them: after the pieces' moves, before the pawns'.
    castled = False
    kings, pawns = Board.kings.__get__(self), Board.pawns.__get__(self)
    for move in Board.generate_pseudo_legal_moves(self, from_mask, to_mask):
        if kings >> move.from_square & 1 and Board.is_castling(self, move):
            continue
        if not castled and pawns >> move.from_square & 1:
            castled = True
            yield from self.generate_castling_moves(from_mask, to_mask)
        yield move
    if not castled:
        yield from self.generate_castling_moves(from_mask, to_mask)


@_faithful
def generate_legal_moves(self: Any, from_mask: int = bb.BB_ALL, to_mask: int = bb.BB_ALL) -> Iterator[Move]:
    if self.is_variant_end():
        return
    if type(self).generate_pseudo_legal_moves is Board.generate_pseudo_legal_moves:
        yield from Board.generate_legal_moves(self, from_mask, to_mask)
        return
    # The board's own pseudo-legal moves that do not leave its king attacked; in check,
    # python-chess's evasions: the king's own moves first (which it makes itself), then
    # the board's moves of the other pieces onto the check's line, then an en-passant
    # capture of a checking pawn.
    king = Board.king(self, self.turn)
    checkers = Board.checkers_mask(self) if king is not None else 0
    if king is None or not checkers:
        for move in self.generate_pseudo_legal_moves(from_mask, to_mask):
            if not Board.is_into_check(self, move):
                yield move
        return
    king_bit = bb.BB_SQUARES[king]
    for move in Board.generate_legal_moves(self, king_bit & from_mask, to_mask):
        if not Board.is_castling(self, move):
            yield move
    if bb.popcount(checkers) > 1:
        return
    checker = bb.msb(checkers)
    target = bb.between(king, checker) | checkers
    for move in self.generate_pseudo_legal_moves(~Board.kings.__get__(self) & from_mask, target & to_mask):
        if not Board.is_into_check(self, move):
            yield move
    ep = self.ep_square
    if ep is not None and not bb.BB_SQUARES[ep] & target and ep + (-8 if self.turn else 8) == checker:
        for move in self.generate_pseudo_legal_ep(from_mask, to_mask):
            if not Board.is_into_check(self, move):
                yield move


class _MoveView:
    """python-chess's ``LegalMoveGenerator`` / ``PseudoLegalMoveGenerator`` over a board's
    own methods."""

    __slots__ = ("board", "_legal")

    def __init__(self, board: Any, legal: bool) -> None:
        self.board = board
        self._legal = legal

    def _moves(self) -> Iterator[Move]:
        if self._legal:
            return iter(self.board.generate_legal_moves())
        return iter(self.board.generate_pseudo_legal_moves())

    def __bool__(self) -> bool:
        return any(self._moves())

    def count(self) -> int:
        return len(list(self._moves()))

    def __iter__(self) -> Iterator[Move]:
        return self._moves()

    def __contains__(self, move: Move) -> bool:
        return bool(self.board.is_legal(move) if self._legal else self.board.is_pseudo_legal(move))

    def __repr__(self) -> str:
        kind = "LegalMoveGenerator" if self._legal else "PseudoLegalMoveGenerator"
        if self._legal:
            names = [self.board.san(m) for m in self]
        else:
            names = [self.board.san(m) if self.board.is_legal(m) else self.board.uci(m) for m in self]
        return f"<{kind} at {id(self):#x} ({', '.join(names)})>"


legal_moves = _FaithfulProperty(
    lambda self: _MoveView(self, True), doc="The legal moves, from the board's own methods."
)
pseudo_legal_moves = _FaithfulProperty(
    lambda self: _MoveView(self, False), doc="The pseudo-legal moves, from the board's own methods."
)


@_faithful
def is_legal(self: Any, move: Move) -> bool:
    return not self.is_variant_end() and self.is_pseudo_legal(move) and not self.is_into_check(move)


@_faithful
def is_check(self: Any) -> bool:
    return bool(self.checkers_mask())


@_faithful
def checkers(self: Any) -> SquareSet:
    return SquareSet(self.checkers_mask())


@_faithful
def is_checkmate(self: Any) -> bool:
    if not self.is_check():
        return False
    return not any(self.generate_legal_moves())


@_faithful
def is_stalemate(self: Any) -> bool:
    if self.is_check() or self.is_variant_end():
        return False
    return not any(self.generate_legal_moves())


@_faithful
def is_insufficient_material(self: Any) -> bool:
    return all(self.has_insufficient_material(color) for color in (True, False))


@_faithful
def is_seventyfive_moves(self: Any) -> bool:
    return self.halfmove_clock >= 150 and any(self.generate_legal_moves())


@_faithful
def is_fifty_moves(self: Any) -> bool:
    return self.halfmove_clock >= 100 and any(self.generate_legal_moves())


@_faithful
def outcome(self: Any, *, claim_draw: bool = False) -> Optional[Outcome]:
    # The variant's own ends first, then the ordinary ones, then the automatic draws, then
    # the claimable ones when asked: python-chess's order.
    if self.is_variant_loss():
        return Outcome(Termination.VARIANT_LOSS, not self.turn)
    if self.is_variant_win():
        return Outcome(Termination.VARIANT_WIN, self.turn)
    if self.is_variant_draw():
        return Outcome(Termination.VARIANT_DRAW, None)
    if self.is_checkmate():
        return Outcome(Termination.CHECKMATE, not self.turn)
    if self.is_insufficient_material():
        return Outcome(Termination.INSUFFICIENT_MATERIAL, None)
    if not any(self.generate_legal_moves()):
        return Outcome(Termination.STALEMATE, None)
    if self.is_seventyfive_moves():
        return Outcome(Termination.SEVENTYFIVE_MOVES, None)
    if self.is_fivefold_repetition():
        return Outcome(Termination.FIVEFOLD_REPETITION, None)
    if claim_draw:
        if self.can_claim_fifty_moves():
            return Outcome(Termination.FIFTY_MOVES, None)
        if self.can_claim_threefold_repetition():
            return Outcome(Termination.THREEFOLD_REPETITION, None)
    return None


@_faithful
def is_game_over(self: Any, *, claim_draw: bool = False) -> bool:
    return self.outcome(claim_draw=claim_draw) is not None


@_faithful
def result(self: Any, *, claim_draw: bool = False) -> str:
    found = self.outcome(claim_draw=claim_draw)
    return found.result() if found else "*"


@_faithful
def gives_check(self: Any, move: Move) -> bool:
    self.push(move)
    try:
        return bool(self.is_check())
    finally:
        self.pop()


# The king's squares and, for each castling side, its target and the rook's corner.
_CASTLES = ((4, ((6, 7), (2, 0))), (60, ((62, 63), (58, 56))))


def _to_king_takes_rook(self: Any, move: Move) -> Move:
    """python-chess's ``_to_chess960``: a king on its starting square moving two squares
    (with no rook on the target) written as the king taking its own rook."""
    for king, sides in _CASTLES:
        if move.from_square == king and self.kings & bb.BB_SQUARES[king]:
            for target, corner in sides:
                if move.to_square == target and not self.rooks & bb.BB_SQUARES[target]:
                    return Move(king, corner)
            break
    return move


def _from_king_takes_rook(
    self: Any, chess960: bool, from_square: int, to_square: int, promotion: Optional[int] = None
) -> Move:
    """python-chess's ``_from_chess960``: outside Chess960, a king on its starting square
    taking its own corner is written as moving two squares."""
    if not chess960 and promotion is None:
        for king, sides in _CASTLES:
            if from_square == king and self.kings & bb.BB_SQUARES[king]:
                for target, corner in sides:
                    if to_square == corner:
                        return Move(king, target)
                break
    return Move(from_square, to_square, promotion)


@_faithful
def find_move(self: Any, from_square: int, to_square: int, promotion: Optional[int] = None) -> Move:
    if promotion is None and self.pawns & bb.BB_SQUARES[from_square] and bb.BB_SQUARES[to_square] & bb.BB_BACKRANKS:
        promotion = QUEEN
    move = _from_king_takes_rook(self, self.chess960, from_square, to_square, promotion)
    if not self.is_legal(move):
        raise IllegalMoveError(
            f"no matching legal move for {move.uci()} "
            f"({SQUARE_NAMES[from_square]} -> {SQUARE_NAMES[to_square]}) in {self.fen()}"
        )
    return move


@_faithful
def parse_uci(self: Any, uci: str) -> Move:
    move = Move.from_uci(uci)
    if not move:
        return move
    if move.drop:
        # A drop (crazyhouse's) is read as it is.
        if not self.is_legal(move):
            raise IllegalMoveError(f"illegal uci: {uci!r} in {self.fen()}")
        return move
    move = _to_king_takes_rook(self, move)
    move = _from_king_takes_rook(self, self.chess960, move.from_square, move.to_square, move.promotion)
    if not self.is_legal(move):
        raise IllegalMoveError(f"illegal uci: {uci!r} in {self.fen()}")
    return move


@_faithful
def push_uci(self: Any, uci: str) -> Move:
    move: Move = self.parse_uci(uci)
    self.push(move)
    return move


# SAN as python-chess reads it: an optional piece letter, an optional origin file and rank,
# an optional "-" or "x", the target square, an optional promotion, an optional check mark.
_SAN = re.compile(r"^([NBKRQ])?([a-h])?([1-8])?[\-x]?([a-h][1-8])(=?[nbrqkNBRQK])?[\+#]?\Z")
_KINGSIDE = ("O-O", "O-O+", "O-O#", "0-0", "0-0+", "0-0#")
_QUEENSIDE = ("O-O-O", "O-O-O+", "O-O-O#", "0-0-0", "0-0-0+", "0-0-0#")


@_faithful
def parse_san(self: Any, san: str) -> Move:
    for names, side in ((_KINGSIDE, self.is_kingside_castling), (_QUEENSIDE, self.is_queenside_castling)):
        if san in names:
            castle: Move
            for castle in self.generate_castling_moves():
                if side(castle):
                    return castle
            raise IllegalMoveError(f"illegal san: {san!r} in {self.fen()}")
    found = _SAN.match(san)
    if not found:
        if san in ("--", "Z0", "0000", "@@@@"):
            return Move.null()
        if "," in san:
            raise InvalidMoveError(f"unsupported multi-leg move: {san!r}")
        raise InvalidMoveError(f"invalid san: {san!r}")
    piece, file, rank, target, promoted = found.groups()
    to_square = SQUARE_NAMES.index(target)
    # Not onto one's own pieces: that would be castling, read above.
    to_mask = bb.BB_SQUARES[to_square] & ~self.occupied_co[self.turn]
    promotion = PIECE_SYMBOLS.index(promoted[-1].lower()) if promoted else None
    from_mask = bb.BB_ALL
    if file:
        from_mask &= bb.BB_FILES[FILE_NAMES.index(file)]
    if rank:
        from_mask &= bb.BB_RANKS[int(rank) - 1]
    if piece:
        from_mask &= self.pieces_mask(PIECE_SYMBOLS.index(piece.lower()), self.turn)
    elif file and rank:
        # A fully given move is taken as it stands, castling too.
        given: Move = self.find_move(FILE_NAMES.index(file) + 8 * (int(rank) - 1), to_square, promotion)
        if given.promotion != promotion:
            raise IllegalMoveError(f"missing promotion piece type: {san!r} in {self.fen()}")
        return given
    else:
        from_mask &= self.pawns
        if not file:
            # A pawn captures only with its file given.
            from_mask &= bb.BB_FILES[square_file(to_square)]
    matched: Optional[Move] = None
    for move in self.generate_legal_moves(from_mask, to_mask):
        if move.promotion != promotion:
            continue
        if matched:
            raise AmbiguousMoveError(f"ambiguous san: {san!r} in {self.fen()}")
        matched = move
    if not matched:
        raise IllegalMoveError(f"illegal san: {san!r} in {self.fen()}")
    return matched


@_faithful
def push_san(self: Any, san: str) -> Move:
    move: Move = self.parse_san(san)
    self.push(move)
    return move


@_faithful
def parse_xboard(self: Any, text: str) -> Move:
    return self.parse_san(text)  # type: ignore[no-any-return]


def _without_suffix(self: Any, move: Move, long: bool) -> str:
    """python-chess's SAN or LAN of a move before the check mark, the other candidates to
    the same square taken from the board's own ``generate_legal_moves``."""
    if not move:
        return "--"
    drop: Optional[int] = getattr(move, "drop", None)
    if drop:
        # A drop (crazyhouse's): the piece, "@", the square.
        return ("" if drop == PAWN else bb.piece_symbol(drop).upper()) + "@" + SQUARE_NAMES[move.to_square]
    if self.is_castling(move):
        return "O-O-O" if square_file(move.to_square) < square_file(move.from_square) else "O-O"
    piece_type = self.piece_type_at(move.from_square)
    assert piece_type, f"san() and lan() expect move to be legal or null, but got {move} in {self.fen()}"
    capture = self.is_capture(move)
    text = "" if piece_type == PAWN else bb.piece_symbol(piece_type).upper()
    if long:
        text += SQUARE_NAMES[move.from_square]
    elif piece_type != PAWN:
        others = 0
        from_mask = self.pieces_mask(piece_type, self.turn) & ~bb.BB_SQUARES[move.from_square]
        for candidate in self.generate_legal_moves(from_mask, bb.BB_SQUARES[move.to_square]):
            others |= bb.BB_SQUARES[candidate.from_square]
        if others:
            # The file when another stands on the same rank or none on the same file; the
            # rank when another stands on the same file.
            same_file = bool(others & bb.BB_FILES[square_file(move.from_square)])
            column = bool(others & bb.BB_RANKS[square_rank(move.from_square)]) or not same_file
            if column:
                text += FILE_NAMES[square_file(move.from_square)]
            if same_file:
                text += str(square_rank(move.from_square) + 1)
    elif capture:
        text += FILE_NAMES[square_file(move.from_square)]
    if capture:
        text += "x"
    elif long:
        text += "-"
    text += SQUARE_NAMES[move.to_square]
    if move.promotion:
        text += "=" + bb.piece_symbol(move.promotion).upper()
    return text


def _and_push(self: Any, move: Move, long: bool) -> str:
    text = _without_suffix(self, move, long)
    self.push(move)
    checked = self.is_check()
    mated = (checked and self.is_checkmate()) or self.is_variant_loss() or self.is_variant_win()
    if mated and move:
        return text + "#"
    if checked and move:
        return text + "+"
    return text


@_faithful
def san(self: Any, move: Move) -> str:
    text = _and_push(self, move, False)
    self.pop()
    return text


@_faithful
def lan(self: Any, move: Move) -> str:
    text = _and_push(self, move, True)
    self.pop()
    return text


@_faithful
def san_and_push(self: Any, move: Move) -> str:
    return _and_push(self, move, False)


@_faithful
def variation_san(self: Any, variation: Any) -> str:
    board = self.copy(stack=False)
    parts: List[str] = []
    for move in variation:
        if not board.is_legal(move):
            raise IllegalMoveError(f"illegal move {move} in position {board.fen()}")
        if board.turn:
            parts.append(f"{board.fullmove_number}. {board.san_and_push(move)}")
        elif not parts:
            parts.append(f"{board.fullmove_number}...{board.san_and_push(move)}")
        else:
            parts.append(board.san_and_push(move))
    return " ".join(parts)


@_faithful
def generate_legal_ep(self: Any, from_mask: int = bb.BB_ALL, to_mask: int = bb.BB_ALL) -> Iterator[Move]:
    if self.is_variant_end():
        return
    for move in self.generate_pseudo_legal_ep(from_mask, to_mask):
        if not self.is_into_check(move):
            yield move


@_faithful
def has_legal_en_passant(self: Any) -> bool:
    return self.ep_square is not None and any(self.generate_legal_ep())


@_faithful
def generate_legal_captures(self: Any, from_mask: int = bb.BB_ALL, to_mask: int = bb.BB_ALL) -> Iterator[Move]:
    yield from self.generate_legal_moves(from_mask, to_mask & self.occupied_co[not self.turn])
    yield from self.generate_legal_ep(from_mask, to_mask)


@_faithful
def generate_pseudo_legal_captures(self: Any, from_mask: int = bb.BB_ALL, to_mask: int = bb.BB_ALL) -> Iterator[Move]:
    yield from self.generate_pseudo_legal_moves(from_mask, to_mask & self.occupied_co[not self.turn])
    yield from self.generate_pseudo_legal_ep(from_mask, to_mask)


def _with_legal_ep(self: Any, text: str, en_passant: str) -> str:
    """kibitz's FEN or EPD with its en-passant field as the board's own
    ``has_legal_en_passant`` decides it (python-chess's ``en_passant="legal"``)."""
    if en_passant != "legal":
        return text
    fields = text.split(" ")
    ep = self.ep_square
    fields[3] = SQUARE_NAMES[ep] if ep is not None and self.has_legal_en_passant() else "-"
    return " ".join(fields)


@_faithful
def fen(self: Any, *, shredder: bool = False, en_passant: str = "legal", promoted: Optional[bool] = None) -> str:
    text = Board.fen(self, shredder=shredder, en_passant=en_passant, promoted=promoted)
    return _with_legal_ep(self, text, en_passant)


@_faithful
def epd(
    self: Any, *, shredder: bool = False, en_passant: str = "legal", promoted: Optional[bool] = None, **operations: Any
) -> str:
    text = Board.epd(self, shredder=shredder, en_passant=en_passant, promoted=promoted, **operations)
    return _with_legal_ep(self, text, en_passant)


@_faithful
def shredder_fen(self: Any, *, en_passant: str = "legal", promoted: Optional[bool] = None) -> str:
    return _with_legal_ep(self, Board.shredder_fen(self, en_passant=en_passant, promoted=promoted), en_passant)


def _key(board: Any) -> Tuple[Any, ...]:
    """python-chess's transposition key: the pieces, the side to move, the usable castling
    rights and the en-passant square when the board's own rules let it be taken."""
    ep = board.ep_square if board.has_legal_en_passant() else None
    key = (Board.board_fen(board), bool(board.turn), board.clean_castling_rights(), ep)
    # A variant board's state beyond the position (three-check's counters, crazyhouse's
    # pockets), as its python-chess class adds it to the key.
    extra = getattr(board, "_transposition_extra", None)
    return key if extra is None else key + extra()


@_faithful
def is_irreversible(self: Any, move: Move) -> bool:
    rights = self.clean_castling_rights()
    touched = bb.BB_SQUARES[move.from_square] ^ bb.BB_SQUARES[move.to_square]
    own_king = self.kings & ~self.promoted
    reduces = bool(
        touched & rights
        or rights & bb.BB_RANK_1
        and touched & own_king & self.occupied_co[True]
        or rights & bb.BB_RANK_8
        and touched & own_king & self.occupied_co[False]
    )
    return bool(self.is_zeroing(move) or reduces or self.has_legal_en_passant())


def _replayed(self: Any) -> Any:
    """A copy of the board, history whole, to pop and push on (python-chess pops its own
    stack and pushes the moves back; kibitz leaves the board itself alone). A class with a
    copy of its own (a variant board's state beyond the position) makes it."""
    if type(self).copy is not Board.copy:
        return self.copy()
    return Board.copy(self)


@_faithful
def is_repetition(self: Any, count: int = 3) -> bool:
    board = _replayed(self)
    wanted = _key(board)
    while True:
        if count <= 1:
            return True
        if len(board.move_stack) < count - 1:
            return False
        move = board.pop()
        if board.is_irreversible(move):
            return False
        if _key(board) == wanted:
            count -= 1


@_faithful
def is_fivefold_repetition(self: Any) -> bool:
    return bool(self.is_repetition(5))


@_faithful
def can_claim_threefold_repetition(self: Any) -> bool:
    board = _replayed(self)
    wanted = _key(board)
    seen = {wanted: 1}
    while board.move_stack:
        move = board.pop()
        if board.is_irreversible(move):
            break
        key = _key(board)
        seen[key] = seen.get(key, 0) + 1
    if seen[wanted] >= 3:
        return True
    # A move that makes the third occurrence can be claimed before it is played.
    board = _replayed(self)
    for move in list(board.generate_legal_moves()):
        board.push(move)
        try:
            if seen.get(_key(board), 0) >= 2:
                return True
        finally:
            board.pop()
    return False


@_faithful
def can_claim_fifty_moves(self: Any) -> bool:
    if self.is_fifty_moves():
        return True
    if self.halfmove_clock >= 99:
        board = _replayed(self)
        for move in list(board.generate_legal_moves()):
            if not board.is_zeroing(move):
                board.push(move)
                try:
                    if board.is_fifty_moves():
                        return True
                finally:
                    board.pop()
    return False


@_faithful
def can_claim_draw(self: Any) -> bool:
    return bool(self.can_claim_fifty_moves() or self.can_claim_threefold_repetition())


@_faithful
def __eq__(self: Any, other: object) -> bool:
    if not isinstance(other, Board):
        return NotImplemented
    return bool(
        self.halfmove_clock == other.halfmove_clock
        and self.fullmove_number == other.fullmove_number
        and type(self).uci_variant == type(other).uci_variant
        and _key(self) == _key(other)
    )


# python-chess's status flags that come from overridable methods (the others read the
# placement alone and are kibitz's own).
_BUILT_FLAGS = (
    bb.STATUS_BAD_CASTLING_RIGHTS | bb.STATUS_OPPOSITE_CHECK | bb.STATUS_TOO_MANY_CHECKERS | bb.STATUS_IMPOSSIBLE_CHECK
)


@_faithful
def status(self: Any) -> Any:
    own = int(Board.status(self))
    flags = own & ~int(_BUILT_FLAGS)
    if self.castling_rights != self.clean_castling_rights():
        flags |= bb.STATUS_BAD_CASTLING_RIGHTS
    if self.was_into_check():
        flags |= bb.STATUS_OPPOSITE_CHECK
    checkers = self.checkers_mask()
    if checkers:
        count = bb.popcount(checkers)
        if count > 2:
            flags |= bb.STATUS_TOO_MANY_CHECKERS
        our_kings = self.kings & self.occupied_co[self.turn] & ~self.promoted
        valid_ep = None if own & bb.STATUS_INVALID_EP_SQUARE else self.ep_square
        if valid_ep is not None:
            # Only the pawn that has just advanced may give check, and it must not have
            # uncovered another check.
            pushed_to, pushed_from = valid_ep ^ 8, valid_ep ^ 24
            before = (self.occupied & ~bb.BB_SQUARES[pushed_to]) | bb.BB_SQUARES[pushed_from]
            uncovered = any(self.attackers_mask(not self.turn, king, before) for king in bb.scan_reversed(our_kings))
            if count > 1 or (bb.msb(checkers) != pushed_to and uncovered):
                flags |= bb.STATUS_IMPOSSIBLE_CHECK
        elif count > 2 or (count == 2 and bb.ray(bb.lsb(checkers), bb.msb(checkers)) & our_kings):
            flags |= bb.STATUS_IMPOSSIBLE_CHECK
    return bb.Status(flags)


@_faithful
def is_valid(self: Any) -> bool:
    return bool(self.status() == bb.STATUS_VALID)


_METHODS: Dict[str, Any] = {
    "generate_castling_moves": generate_castling_moves,
    "generate_pseudo_legal_moves": generate_pseudo_legal_moves,
    "generate_legal_moves": generate_legal_moves,
    "legal_moves": legal_moves,
    "pseudo_legal_moves": pseudo_legal_moves,
    "is_legal": is_legal,
    "is_check": is_check,
    "checkers": checkers,
    "is_checkmate": is_checkmate,
    "is_stalemate": is_stalemate,
    "is_insufficient_material": is_insufficient_material,
    "is_seventyfive_moves": is_seventyfive_moves,
    "is_fifty_moves": is_fifty_moves,
    "outcome": outcome,
    "is_game_over": is_game_over,
    "result": result,
    "gives_check": gives_check,
    "find_move": find_move,
    "parse_uci": parse_uci,
    "push_uci": push_uci,
    "parse_san": parse_san,
    "push_san": push_san,
    "parse_xboard": parse_xboard,
    "push_xboard": push_san,
    "san": san,
    "lan": lan,
    "san_and_push": san_and_push,
    "variation_san": variation_san,
    "generate_legal_ep": generate_legal_ep,
    "has_legal_en_passant": has_legal_en_passant,
    "generate_legal_captures": generate_legal_captures,
    "generate_pseudo_legal_captures": generate_pseudo_legal_captures,
    "fen": fen,
    "epd": epd,
    "shredder_fen": shredder_fen,
    "is_irreversible": is_irreversible,
    "is_repetition": is_repetition,
    "is_fivefold_repetition": is_fivefold_repetition,
    "can_claim_threefold_repetition": can_claim_threefold_repetition,
    "can_claim_fifty_moves": can_claim_fifty_moves,
    "can_claim_draw": can_claim_draw,
    "__eq__": __eq__,
    "status": status,
    "is_valid": is_valid,
}
assert set(_METHODS) == set(DEPENDS), "every method in the call graph has its implementation"


def faithful_method(name: str) -> Callable[..., Any]:
    """python-chess's ``name`` as it builds it on the board's overridable methods (what a
    subclass's ``super().name(...)`` reaches in python-chess): for kibitz's own subclasses
    (the variant boards), whose overrides call it."""
    return _METHODS[name]  # type: ignore[no-any-return]
