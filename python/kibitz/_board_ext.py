"""python-chess's Board methods that kibitz writes in Python, over the Rust board's fast
primitives: editing (``set_fen``, ``reset``, ``clear_stack``, ``mirror``, ...), EPD and the
other FEN dialects, XBoard notation, the move-generator variants, the move predicates and
``status()``.

They are reached as ordinary attributes of a ``kibitz.Board``: when the Rust class has no
attribute of a name, it looks the name up in ``EXTENSIONS`` (name -> a function of the
board that returns the attribute). Each is written from python-chess's documented
behaviour and checked against python-chess by the tests.
"""

from __future__ import annotations

import math
import types
from typing import Any, Callable, Dict, Iterator, Optional

from kibitz import _bitboards as bb
from kibitz._constants import FILE_NAMES, KING, PAWN, QUEEN, SQUARE_NAMES, square_file, square_rank
from kibitz._core import Board, IllegalMoveError, Move

EXTENSIONS: Dict[str, Callable[[Any], Any]] = {}


def method(f: Callable[..., Any]) -> Callable[..., Any]:
    """Registers `f(board, ...)` as the method `board.<name>(...)`."""
    EXTENSIONS[f.__name__] = lambda board: types.MethodType(f, board)
    return f


# ---------------------------------------------------------------- editing


@method
def set_fen(board: Board, fen: str) -> None:
    """Sets the position from a FEN; clears the move stack. A bad FEN raises and changes
    nothing."""
    board._assign(Board(fen, chess960=board.chess960))


@method
def reset(board: Board) -> None:
    """The start position, without history."""
    board._assign(Board(chess960=board.chess960))


@method
def clear_stack(board: Board) -> None:
    """Forgets the move stack; the position stays."""
    board._assign(board.copy(stack=False))


@method
def clean_castling_rights(board: Board) -> int:
    """The castling rights that are usable as a mask of rook squares (kibitz keeps only
    those, so this is ``castling_rights``)."""
    return int(board.castling_rights)


# ---------------------------------------------------------------- FEN dialects and EPD


def _castling_shredder(board: Board) -> str:
    rights = board.castling_rights
    if not rights:
        return "-"
    letters = [FILE_NAMES[square_file(s)].upper() for s in bb.scan_reversed(rights & bb.BB_RANK_1)]
    letters += [FILE_NAMES[square_file(s)] for s in bb.scan_reversed(rights & bb.BB_RANK_8)]
    return "".join(letters)


def _castling_xfen(board: Board) -> str:
    rights = board.castling_rights
    out = []
    for color, backrank in ((True, bb.BB_RANK_1), (False, bb.BB_RANK_8)):
        king = board.king(color)
        if king is None:
            continue
        king_file = square_file(king)
        own_rooks = board.occupied_co[color] & board.rooks & backrank
        for rook in bb.scan_reversed(rights & backrank):
            rook_file = square_file(rook)
            a_side = rook_file < king_file
            # The outermost rook on its side is K or Q; an inner one is named by its file.
            further = any((square_file(o) < rook_file) == a_side for o in bb.scan_reversed(own_rooks & ~(1 << rook)))
            ch = FILE_NAMES[rook_file] if further else ("q" if a_side else "k")
            out.append(ch.upper() if color else ch)
    return "".join(out) or "-"


def _ep_field(board: Board, en_passant: str) -> str:
    if en_passant not in ("legal", "fully", "xfen"):
        # python-chess's other spellings ("fen" among them): the square as set.
        return SQUARE_NAMES[board.ep_square] if board.ep_square is not None else "-"
    if en_passant == "xfen":
        ep = _xfen_ep_square(board)
        return SQUARE_NAMES[ep] if ep is not None else "-"
    return str(board.fen().split()[3])


def _xfen_ep_square(board: Board) -> Optional[int]:
    """The en-passant square when a pawn of the side to move stands beside the pawn that
    just moved two squares (whether or not the capture is legal)."""
    ep = board.ep_square
    if ep is None:
        return None
    behind = bb.shift_down(1 << ep) if board.turn else bb.shift_up(1 << ep)
    beside = bb.shift_left(behind) | bb.shift_right(behind)
    return ep if beside & board.pawns & board.occupied_co[board.turn] else None


def _fields(board: Board, shredder: bool, en_passant: str) -> list[str]:
    parts = board.fen().split()
    parts[2] = _castling_shredder(board) if shredder else _castling_xfen(board)
    parts[3] = _ep_field(board, en_passant)
    return parts


def fen_with(
    board: Board, *, shredder: bool = False, en_passant: str = "legal", promoted: Optional[bool] = None
) -> str:
    """``Board.fen`` with python-chess's options (the Rust method calls this when any is
    given)."""
    return " ".join(_fields(board, shredder, en_passant))


@method
def shredder_fen(board: Board, *, en_passant: str = "legal", promoted: Optional[bool] = None) -> str:
    """The FEN with Shredder-FEN castling (rook files: ``HAha``)."""
    return " ".join(_fields(board, True, en_passant))


@method
def castling_shredder_fen(board: Board) -> str:
    """The castling field as Shredder-FEN."""
    return _castling_shredder(board)


@method
def castling_xfen(board: Board) -> str:
    """The castling field as X-FEN (``KQkq``, files for inner rooks)."""
    return _castling_xfen(board)


def _epd_operand(board: Board, opcode: str, operand: Any) -> str:
    if operand is None:
        return f"{opcode};"
    if isinstance(operand, Move) or type(operand).__name__ == "Move":
        return f"{opcode} {board.san(operand)};"
    if isinstance(operand, bool) or isinstance(operand, int):
        return f"{opcode} {int(operand)};"
    if isinstance(operand, float):
        if not math.isfinite(operand):
            raise ValueError(f"expected a finite number for EPD operation {opcode!r}, got {operand!r}")
        return f"{opcode} {operand};"
    if opcode == "pv" and not isinstance(operand, str) and hasattr(operand, "__iter__"):
        line = board.copy(stack=False)
        return f"{opcode} " + " ".join(line.san_and_push(m) for m in operand) + ";"
    if opcode in ("am", "bm") and not isinstance(operand, str) and hasattr(operand, "__iter__"):
        return f"{opcode} " + " ".join(sorted(board.san(m) for m in operand)) + ";"
    text = str(operand)
    for raw, escaped in (("\\", "\\\\"), ("\t", "\\t"), ("\r", "\\r"), ("\n", "\\n"), ('"', '\\"')):
        text = text.replace(raw, escaped)
    return f'{opcode} "{text}";'


@method
def epd(
    board: Board,
    *,
    shredder: bool = False,
    en_passant: str = "legal",
    promoted: Optional[bool] = None,
    **operations: Any,
) -> str:
    """The EPD: the FEN's first four fields, then the operations (``bm``, ``id``, ...)."""
    parts = _fields(board, shredder, en_passant)[:4]
    ops = [_epd_operand(board, opcode, operand) for opcode, operand in operations.items()]
    return " ".join(parts + ops)


# ---------------------------------------------------------------- mirror and transforms


def _board_with(board: Board, piece_at: Callable[[int], Any], turn: bool, rights: int, ep: Optional[int]) -> Board:
    """A Board from a placement function, turn, castling rights (rook squares) and ep."""
    rows = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for file in range(8):
            p = piece_at(rank * 8 + file)
            if p is None:
                empty += 1
            else:
                row += (str(empty) if empty else "") + p.symbol()
                empty = 0
        rows.append(row + (str(empty) if empty else ""))
    fields = board.fen().split()
    ep_name = SQUARE_NAMES[ep] if ep is not None else "-"
    if board.chess960:
        castling = "".join(FILE_NAMES[square_file(q)].upper() for q in bb.scan_reversed(rights & bb.BB_RANK_1))
        castling += "".join(FILE_NAMES[square_file(q)] for q in bb.scan_reversed(rights & bb.BB_RANK_8))
    else:
        # A standard board's rights are its corner rooks: H1 = K, A1 = Q, h8 = k, a8 = q.
        castling = "".join(c for c, q in (("K", 7), ("Q", 0), ("k", 63), ("q", 56)) if rights >> q & 1)
    fen = " ".join(["/".join(rows), "w" if turn else "b", castling or "-", ep_name, fields[4], fields[5]])
    try:
        return Board(fen, chess960=board.chess960)
    except ValueError:
        # Rights or an en-passant square the transformed position cannot use are dropped.
        return Board(
            " ".join(["/".join(rows), "w" if turn else "b", "-", "-", fields[4], fields[5]]), chess960=board.chess960
        )


@method
def mirror(board: Board) -> Board:
    """The position seen from the other side: ranks reversed, colours, turn, castling
    rights and en passant swapped; no move stack."""
    from kibitz._core import Piece

    def at(sq: int) -> Any:
        p = board.piece_at(sq ^ 56)
        return None if p is None else Piece(p.piece_type, not p.color)

    ep = board.ep_square
    return _board_with(
        board, at, not board.turn, bb.flip_vertical(board.castling_rights), None if ep is None else ep ^ 56
    )


@method
def apply_mirror(board: Board) -> None:
    """``mirror()`` in place (the move stack is cleared)."""
    board._assign(mirror(board))


@method
def transform(board: Board, f: Callable[[int], int]) -> Board:
    """The position with every square mapped by the bitboard transformation ``f`` (e.g.
    ``flip_horizontal``); castling rights are mapped too and kept where still usable."""

    inverse = {bb.msb(f(1 << s)): s for s in range(64) if f(1 << s)}

    def at(sq: int) -> Any:
        src = inverse.get(sq)
        return None if src is None else board.piece_at(src)

    ep = board.ep_square
    return _board_with(board, at, board.turn, f(board.castling_rights), None if ep is None else bb.msb(f(1 << ep)))


@method
def apply_transform(board: Board, f: Callable[[int], int]) -> None:
    """``transform(f)`` in place (the move stack is cleared)."""
    board._assign(transform(board, f))


# ---------------------------------------------------------------- notation


def _standard_castling(board: Board, from_square: int, to_square: int, promotion: Optional[int]) -> tuple[int, int]:
    """King takes own rook to the standard king move, on a board that is not Chess960."""
    if not board.chess960 and promotion is None and board.piece_type_at(from_square) == KING:
        targets = {(4, 7): 6, (4, 0): 2, (60, 63): 62, (60, 56): 58}
        if (from_square, to_square) in targets and board.color_at(to_square) == board.color_at(from_square):
            return from_square, targets[(from_square, to_square)]
    return from_square, to_square


@method
def uci(board: Board, move: Any, *, chess960: Optional[bool] = None) -> str:
    """The move in UCI, castling as king-takes-rook when ``chess960`` (default: the
    board's mode)."""
    if chess960 is None:
        chess960 = board.chess960
    if not move:
        return "0000"
    if chess960 and board.is_castling(move) and abs(move.to_square - move.from_square) == 2 and not board.chess960:
        rook = (7 if move.to_square > move.from_square else 0) + 8 * square_rank(move.from_square)
        return str(SQUARE_NAMES[move.from_square]) + str(SQUARE_NAMES[rook])
    if not chess960 and board.is_castling(move) and board.color_at(move.to_square) == board.turn:
        f, t = _standard_castling(board, move.from_square, move.to_square, move.promotion)
        return SQUARE_NAMES[f] + SQUARE_NAMES[t]
    return str(move.uci())


@method
def xboard(board: Board, move: Any, chess960: Optional[bool] = None) -> str:
    """The move in XBoard notation: UCI, with castling as ``O-O`` / ``O-O-O`` in Chess960."""
    if chess960 is None:
        chess960 = board.chess960
    if not chess960 or not board.is_castling(move):
        return str(move.uci()) if move else "@@@@"
    return "O-O" if is_kingside_castling(board, move) else "O-O-O"


@method
def parse_xboard(board: Board, xboard: str) -> Move:
    """A move in XBoard notation (SAN or coordinates)."""
    return board.parse_san(xboard)


@method
def push_xboard(board: Board, xboard: str) -> Move:
    """Parses and plays a move in XBoard notation."""
    return board.push_san(xboard)


@method
def san_and_push(board: Board, move: Any) -> str:
    """The move's SAN, then the move played."""
    san = board.san(move)
    board.push(move)
    return str(san)


@method
def find_move(board: Board, from_square: int, to_square: int, promotion: Optional[int] = None) -> Move:
    """The legal move from ``from_square`` to ``to_square`` (a pawn reaching the last rank
    promotes to a queen unless told otherwise; king-takes-rook is castling);
    ``IllegalMoveError`` when there is none."""
    if promotion is None and board.piece_type_at(from_square) == PAWN and square_rank(to_square) in (0, 7):
        promotion = QUEEN
    f, t = _standard_castling(board, from_square, to_square, promotion)
    move = Move(f, t, promotion)
    if not board.is_legal(move):
        raise IllegalMoveError(
            f"no matching legal move for {move.uci()} ({SQUARE_NAMES[from_square]} -> {SQUARE_NAMES[to_square]}) in {board.fen()}"
        )
    return move


# ---------------------------------------------------------------- move generation


def _castling_rook(board: Board, move: Any) -> int:
    if board.color_at(move.to_square) == board.color_at(move.from_square):
        return int(move.to_square)  # king takes rook (Chess960)
    return (7 if move.to_square > move.from_square else 0) + 8 * square_rank(move.from_square)


def _filtered(board: Board, moves: Any, from_mask: int, to_mask: int) -> Iterator[Move]:
    for m in moves:
        target = _castling_rook(board, m) if board.is_castling(m) else m.to_square
        if from_mask >> m.from_square & 1 and (
            to_mask >> target & 1 or to_mask >> m.to_square & 1 and not board.is_castling(m)
        ):
            yield m


@method
def generate_pseudo_legal_moves(board: Board, from_mask: int = bb.BB_ALL, to_mask: int = bb.BB_ALL) -> Iterator[Move]:
    """Pseudo-legal moves (the king may be left in check) from and to the masks."""
    return _filtered(board, list(board.pseudo_legal_moves), from_mask & bb.BB_ALL, to_mask & bb.BB_ALL)


@method
def generate_pseudo_legal_captures(
    board: Board, from_mask: int = bb.BB_ALL, to_mask: int = bb.BB_ALL
) -> Iterator[Move]:
    """Pseudo-legal captures (en passant included) from and to the masks."""
    moves = [m for m in board.pseudo_legal_moves if board.is_capture(m)]
    return _filtered(board, moves, from_mask & bb.BB_ALL, to_mask & bb.BB_ALL)


@method
def generate_castling_moves(board: Board, from_mask: int = bb.BB_ALL, to_mask: int = bb.BB_ALL) -> Iterator[Move]:
    """Legal castling moves; ``to_mask`` is matched against the rook's square."""
    moves = [m for m in board.legal_moves if board.is_castling(m)]
    return _filtered(board, moves, from_mask & bb.BB_ALL, to_mask & bb.BB_ALL)


@method
def generate_legal_ep(board: Board, from_mask: int = bb.BB_ALL, to_mask: int = bb.BB_ALL) -> Iterator[Move]:
    """Legal en-passant captures from and to the masks."""
    moves = [m for m in board.legal_moves if board.is_en_passant(m)]
    return _filtered(board, moves, from_mask & bb.BB_ALL, to_mask & bb.BB_ALL)


@method
def has_pseudo_legal_en_passant(board: Board) -> bool:
    """Whether a pawn of the side to move can take en passant, legal or not."""
    return any(board.is_en_passant(m) for m in board.pseudo_legal_moves)


# ---------------------------------------------------------------- predicates


@method
def is_kingside_castling(board: Board, move: Any) -> bool:
    return bool(board.is_castling(move) and square_file(move.to_square) > square_file(move.from_square))


@method
def is_queenside_castling(board: Board, move: Any) -> bool:
    return bool(board.is_castling(move) and square_file(move.to_square) < square_file(move.from_square))


@method
def is_irreversible(board: Board, move: Any) -> bool:
    """Whether the move can never be taken back in this game: a capture or pawn move, one
    that loses castling rights, or any move while an en-passant capture is possible."""
    if board.is_zeroing(move) or board.has_legal_en_passant():
        return True
    rights = board.castling_rights
    touched = (1 << move.from_square) ^ (1 << move.to_square)
    if touched & rights:
        return True
    if rights & bb.BB_RANK_1 and touched & board.kings & board.occupied_co[True]:
        return True
    return bool(rights & bb.BB_RANK_8 and touched & board.kings & board.occupied_co[False])


@method
def is_into_check(board: Board, move: Any) -> bool:
    """Whether a pseudo-legal move would leave the mover's own king in check."""
    return bool(board.is_pseudo_legal(move) and not board.is_legal(move))


@method
def was_into_check(board: Board) -> bool:
    """Whether the side that just moved left its king in check (never, on a kibitz board)."""
    king = board.king(not board.turn)
    return king is not None and bool(board.is_attacked_by(board.turn, king))


for _name in ("is_variant_end", "is_variant_win", "is_variant_loss", "is_variant_draw"):
    EXTENSIONS[_name] = lambda board: types.MethodType(lambda self: False, board)


@method
def status(board: Board) -> bb.Status:
    """What is wrong with the position, as python-chess's ``Status`` flags (a kibitz board
    holds only positions it can play, so this is ``VALID`` but for the checks python-chess
    makes and kibitz's reader does not)."""
    errors = bb.Status.VALID
    occupied, white, black = board.occupied, board.occupied_co[True], board.occupied_co[False]
    if not occupied:
        errors |= bb.Status.EMPTY
    if not white & board.kings:
        errors |= bb.Status.NO_WHITE_KING
    if not black & board.kings:
        errors |= bb.Status.NO_BLACK_KING
    if bb.popcount(board.kings) > 2:
        errors |= bb.Status.TOO_MANY_KINGS
    if bb.popcount(white) > 16:
        errors |= bb.Status.TOO_MANY_WHITE_PIECES
    if bb.popcount(black) > 16:
        errors |= bb.Status.TOO_MANY_BLACK_PIECES
    if bb.popcount(white & board.pawns) > 8:
        errors |= bb.Status.TOO_MANY_WHITE_PAWNS
    if bb.popcount(black & board.pawns) > 8:
        errors |= bb.Status.TOO_MANY_BLACK_PAWNS
    if board.pawns & bb.BB_BACKRANKS:
        errors |= bb.Status.PAWNS_ON_BACKRANK
    if was_into_check(board):
        errors |= bb.Status.OPPOSITE_CHECK
    checkers = board.checkers_mask()
    if checkers:
        our_king = board.king(board.turn)
        n = bb.popcount(checkers)
        if n > 2:
            errors |= bb.Status.TOO_MANY_CHECKERS
        ep = _xfen_ep_square(board) if board.ep_square is not None else None
        if ep is not None:
            # The pawn that just made the double step, and where it came from: a check by
            # another piece is possible only if that step uncovered it.
            pushed_to, pushed_from = ep ^ 8, ep ^ 24
            occupied_before = (occupied & ~(1 << pushed_to)) | (1 << pushed_from)
            if n > 1 or (
                bb.msb(checkers) != pushed_to
                and our_king is not None
                and _attacked_with(board, our_king, occupied_before)
            ):
                errors |= bb.Status.IMPOSSIBLE_CHECK
        elif n > 2 or (n == 2 and our_king is not None and bb.ray(bb.lsb(checkers), bb.msb(checkers)) >> our_king & 1):
            errors |= bb.Status.IMPOSSIBLE_CHECK
    return errors


def _attacked_with(board: Board, square: int, occupied: int) -> bool:
    """Whether the side not to move attacks `square` when the occupied squares are
    `occupied` (sliders see through the given occupancy)."""
    them = board.occupied_co[not board.turn]
    if bb.BB_KNIGHT_ATTACKS[square] & board.knights & them or bb.BB_KING_ATTACKS[square] & board.kings & them:
        return True
    if bb.BB_PAWN_ATTACKS[board.turn][square] & board.pawns & them:
        return True
    for a in bb.scan_forward((board.rooks | board.queens) & them):
        if (square_file(a) == square_file(square) or square_rank(a) == square_rank(square)) and not bb.between(
            a, square
        ) & occupied:
            return True
    for a in bb.scan_forward((board.bishops | board.queens) & them):
        diagonal = bb.ray(a, square) and square_file(a) != square_file(square) and square_rank(a) != square_rank(square)
        if diagonal and not bb.between(a, square) & occupied:
            return True
    return False


@method
def is_valid(board: Board) -> bool:
    """Whether ``status()`` is ``VALID``."""
    return bool(status(board) == bb.Status.VALID)


# ---------------------------------------------------------------- python-chess internals its modules call


@method
def _from_chess960(
    board: Board,
    chess960: bool,
    from_square: int,
    to_square: int,
    promotion: Optional[int] = None,
    drop: Optional[int] = None,
) -> Move:
    """A move read in Chess960 notation (king takes rook) in the board's notation:
    chess.polyglot calls this on the boards it is given."""
    if not chess960 and promotion is None and drop is None:
        targets = {(4, 7): 6, (4, 0): 2, (60, 63): 62, (60, 56): 58}
        if (from_square, to_square) in targets and board.kings >> from_square & 1:
            return Move(from_square, targets[(from_square, to_square)])
    return Move(from_square, to_square, promotion)  # drops never occur in standard chess


@method
def _to_chess960(board: Board, move: Any) -> Move:
    """A standard castling move as king takes rook (other moves unchanged)."""
    if (
        move.from_square in (4, 60)
        and board.kings >> move.from_square & 1
        and abs(move.to_square - move.from_square) == 2
    ):
        rook = move.from_square + (3 if move.to_square > move.from_square else -4)
        if board.rooks >> rook & 1:
            return Move(move.from_square, rook)
    return move if isinstance(move, Move) else Move(move.from_square, move.to_square, move.promotion)
