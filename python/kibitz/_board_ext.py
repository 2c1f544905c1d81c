"""python-chess's Board methods that kibitz writes in Python, over the Rust board's fast
primitives: editing (``set_fen``, ``reset``, ``clear_stack``, ``mirror``, ...), EPD and the
other FEN dialects, XBoard notation, the move-generator variants, the move predicates and
``status()``.

They become ordinary methods of ``kibitz.Board``: importing this module (``import kibitz``
does) sets each function of ``EXTENSIONS`` on the class under its name, where the Rust class
has no attribute of that name. They are not found through a ``__getattr__`` hook: a class
with one loses CPython's method-call fast path, so every ``board.push(m)`` would build a
bound-method object. Each is written from python-chess's documented behaviour and checked
against python-chess by the tests.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Dict, Iterator, Optional

from kibitz import _bitboards as bb
from kibitz import _hooks
from kibitz._constants import FILE_NAMES, PAWN, QUEEN, SQUARE_NAMES, square_file, square_rank
from kibitz._core import Board, IllegalMoveError, Move, Piece, SquareSet

EXTENSIONS: Dict[str, Callable[..., Any]] = {}


def method(f: Callable[..., Any]) -> Callable[..., Any]:
    """Registers `f(board, ...)` as the method `board.<name>(...)`."""
    EXTENSIONS[f.__name__] = f
    return f


# ---------------------------------------------------------------- set-up: any placement python-chess allows
#
# python-chess holds a position as placement, turn, castling rights (rook squares, usable or
# not), en-passant square (any square) and clocks, and accepts any placement. The rules
# library holds that model (``Setup``, in Rust): ``Board(fen)`` reads a FEN its strict
# reader refuses with it, and the editing methods (``set_piece_at``, ``set_board_fen``,
# ``set_castling_fen``, ``mirror``, the writable attributes) change it. When the core cannot
# play the position (no king, two kings, ...) the board keeps the placement for its queries
# and ``status()``, and its move operations raise ``InvalidPositionError``.


# ---------------------------------------------------------------- editing


@method
def set_fen(self: Board, fen: str) -> None:
    """Sets the position from a FEN; clears the move stack. A bad FEN raises and changes
    nothing."""
    self._assign(Board(fen, chess960=self.chess960))


@method
def reset(self: Board) -> None:
    """The start position, without history."""
    self._assign(Board(chess960=self.chess960))


@method
def clear_stack(self: Board) -> None:
    """Forgets the move stack; the position stays."""
    self._assign(self.copy(stack=False))


def _attackers_mask(board: Board, color: bool, square: int, occupied: int) -> int:
    """python-chess's ``_attackers_mask``: the pieces of ``color`` attacking ``square`` when
    the occupied squares (the blockers of sliders) are ``occupied``."""
    queens_rooks = board.queens | board.rooks
    queens_bishops = board.queens | board.bishops
    attackers = (
        bb.BB_KING_ATTACKS[square] & board.kings
        | bb.BB_KNIGHT_ATTACKS[square] & board.knights
        | bb.BB_PAWN_ATTACKS[not color][square] & board.pawns
    )
    for a in bb.scan_forward((queens_rooks | queens_bishops) & board.occupied_co[color]):
        line = bb.ray(a, square)
        if not line or bb.between(a, square) & occupied:
            continue
        straight = square_file(a) == square_file(square) or square_rank(a) == square_rank(square)
        attackers |= (1 << a) & (queens_rooks if straight else queens_bishops)
    return int(attackers & board.occupied_co[color])


def _pseudo_ep_capturers(board: Board) -> list[int]:
    """The squares of the pawns that can take en passant pseudo-legally, in python-chess's order."""
    ep = board.ep_square
    if not ep or board.occupied >> ep & 1:
        return []
    us = board.turn
    capturers = board.pawns & board.occupied_co[us] & bb.BB_PAWN_ATTACKS[not us][ep] & bb.BB_RANKS[4 if us else 3]
    return list(bb.scan_reversed(capturers))


def _ep_leaves_king_safe(board: Board, capturer: int) -> bool:
    """Whether taking en passant from ``capturer`` leaves the mover's king unattacked."""
    king, ep = board.king(board.turn), board.ep_square
    if king is None or ep is None:
        return True
    captured = ep - 8 if board.turn else ep + 8
    occupied = (board.occupied & ~(1 << capturer) & ~(1 << captured)) | (1 << ep)
    return not _attackers_mask(board, not board.turn, king, occupied) & ~(1 << captured)


def _legal_ep(board: Board) -> Optional[int]:
    """The en-passant square when an en-passant capture is legal (python-chess's rule)."""
    if any(_ep_leaves_king_safe(board, c) for c in _pseudo_ep_capturers(board)):
        return board.ep_square
    return None


@method
def generate_pseudo_legal_ep(self: Board, from_mask: int = bb.BB_ALL, to_mask: int = bb.BB_ALL) -> Iterator[Move]:
    """Pseudo-legal en-passant captures from and to the masks."""
    ep = self.ep_square
    if not ep or not to_mask >> ep & 1:
        return iter(())
    return iter([Move(c, ep) for c in _pseudo_ep_capturers(self) if from_mask >> c & 1])


@method
def has_chess960_castling_rights(self: Board) -> bool:
    """Whether a usable castling right is not a standard one (king on e1/e8, rook on a corner)."""
    rights = int(self.castling_rights) if self.move_stack else self._clean_castling_as_chess960()
    if rights & ~(bb.BB_A1 | bb.BB_H1 | bb.BB_A8 | bb.BB_H8):
        return True
    kings = self.kings
    if rights & bb.BB_RANK_1 and not kings & self.occupied_co[True] & bb.BB_E1:
        return True
    return bool(rights & bb.BB_RANK_8 and not kings & self.occupied_co[False] & bb.BB_E8)


# ---------------------------------------------------------------- Chess960 start positions


def _chess960_rank(scharnagl: int) -> str:
    """The white back rank (files a..h) of a Chess960 start position, by Scharnagl's numbering."""
    rank: list[Optional[str]] = [None] * 8
    n, light = divmod(scharnagl, 4)
    n, dark = divmod(n, 4)
    n, queen = divmod(n, 6)
    rank[2 * light + 1] = "B"
    rank[2 * dark] = "B"

    def put(piece: str, nth: int) -> None:
        free = [f for f in range(8) if rank[f] is None]
        rank[free[nth]] = piece

    put("Q", queen)
    knights = [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)][n]
    put("N", knights[1])
    put("N", knights[0])
    for piece in "RKR":
        put(piece, 0)
    return "".join(p or "" for p in rank)


_CHESS960_INDEX: Dict[str, int] = {}


def _chess960_index(rank: str) -> Optional[int]:
    if not _CHESS960_INDEX:
        _CHESS960_INDEX.update((_chess960_rank(i), i) for i in range(960))
    return _CHESS960_INDEX.get(rank)


def placement_chess960_pos(board: Any) -> Optional[int]:
    """BaseBoard's ``chess960_pos``: the index of the placement as a Chess960 start position
    (None with a piece marked promoted, as in python-chess)."""
    if board.promoted:
        return None
    pieces = {sq: p.symbol() for sq, p in board.piece_map().items()}
    if len(pieces) != 32 or any(pieces.get(8 + f) != "P" or pieces.get(48 + f) != "p" for f in range(8)):
        return None
    white = "".join(pieces.get(f, " ") for f in range(8))
    black = "".join(pieces.get(56 + f, " ") for f in range(8))
    if black != white.lower() or not white.isupper():
        return None
    return _chess960_index(white)


@method
def chess960_pos(
    self: Board, *, ignore_turn: bool = False, ignore_castling: bool = False, ignore_counters: bool = True
) -> Optional[int]:
    """The index 0..959 of the position as a Chess960 start position, or None."""
    if self.ep_square:
        return None
    if not ignore_turn and not self.turn:
        return None
    if not ignore_castling and self.clean_castling_rights() != self.rooks:
        return None
    if not ignore_counters and (self.fullmove_number != 1 or self.halfmove_clock != 0):
        return None
    return placement_chess960_pos(self)


@method
def set_chess960_pos(self: Board, scharnagl: int) -> None:
    """Sets up the Chess960 start position of that index (the board becomes a Chess960 board)."""
    rank = _chess960_rank(scharnagl) if 0 <= scharnagl <= 959 else None
    if rank is None:
        raise ValueError(f"chess960 position index not 0 <= {scharnagl!r} <= 959")
    # Castling rights on every rook, named by their files (Shredder-FEN), White to move.
    rooks = "".join(FILE_NAMES[f] for f, p in enumerate(rank) if p == "R")
    fen = f"{rank.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{rank} w {rooks.upper()}{rooks} - 0 1"
    self._assign(Board(fen, chess960=True))


# ---------------------------------------------------------------- FEN dialects and EPD


def _castling_shredder(board: Board) -> str:
    rights = board.clean_castling_rights()
    if not rights:
        return "-"
    letters = [FILE_NAMES[square_file(s)].upper() for s in bb.scan_reversed(rights & bb.BB_RANK_1)]
    letters += [FILE_NAMES[square_file(s)] for s in bb.scan_reversed(rights & bb.BB_RANK_8)]
    return "".join(letters)


def _castling_xfen(board: Board) -> str:
    rights = board.clean_castling_rights()
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
    ep = _legal_ep(board)
    return SQUARE_NAMES[ep] if ep is not None else "-"


def _xfen_ep_square(board: Board) -> Optional[int]:
    """The en-passant square when a pawn of the side to move stands beside the pawn that
    just moved two squares (whether or not the capture is legal)."""
    return board.ep_square if _pseudo_ep_capturers(board) else None


def _fields(board: Board, shredder: bool, en_passant: str, promoted: Optional[bool] = None) -> list[str]:
    return [
        board.board_fen(promoted=bool(promoted)),
        "w" if board.turn else "b",
        _castling_shredder(board) if shredder else _castling_xfen(board),
        _ep_field(board, en_passant),
        str(board.halfmove_clock),
        str(board.fullmove_number),
    ]


def fen_with(
    board: Board, *, shredder: bool = False, en_passant: str = "legal", promoted: Optional[bool] = None
) -> str:
    """``Board.fen`` with python-chess's options (the Rust method calls this when any is
    given)."""
    return " ".join(_fields(board, shredder, en_passant, promoted))


@method
def shredder_fen(self: Board, *, en_passant: str = "legal", promoted: Optional[bool] = None) -> str:
    """The FEN with Shredder-FEN castling (rook files: ``HAha``)."""
    return " ".join(_fields(self, True, en_passant, promoted))


@method
def castling_shredder_fen(self: Board) -> str:
    """The castling field as Shredder-FEN."""
    return _castling_shredder(self)


@method
def castling_xfen(self: Board) -> str:
    """The castling field as X-FEN (``KQkq``, files for inner rooks)."""
    return _castling_xfen(self)


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
        return opcode + "".join(" " + line.san_and_push(m) for m in operand) + ";"
    if opcode in ("am", "bm") and not isinstance(operand, str) and hasattr(operand, "__iter__"):
        return opcode + "".join(" " + san for san in sorted(board.san(m) for m in operand)) + ";"
    text = str(operand)
    for raw, escaped in (("\\", "\\\\"), ("\t", "\\t"), ("\r", "\\r"), ("\n", "\\n"), ('"', '\\"')):
        text = text.replace(raw, escaped)
    return f'{opcode} "{text}";'


@method
def epd(
    self: Board,
    *,
    shredder: bool = False,
    en_passant: str = "legal",
    promoted: Optional[bool] = None,
    **operations: Any,
) -> str:
    """The EPD: the FEN's first four fields, then the operations (``bm``, ``id``, ...)."""
    parts = _fields(self, shredder, en_passant, promoted)[:4]
    ops = [_epd_operand(self, opcode, operand) for opcode, operand in operations.items()]
    return " ".join(parts + ops)


# ---------------------------------------------------------------- mirror and transforms


# ---------------------------------------------------------------- notation


@method
def uci(self: Board, move: Any, *, chess960: Optional[bool] = None) -> str:
    """The move in UCI, castling as king-takes-rook when ``chess960`` (default: the
    board's mode)."""
    if chess960 is None:
        chess960 = self.chess960
    if not move:
        return "0000"
    if move.from_square not in (4, 60):
        return str(move.uci())
    # python-chess's rule, by the squares alone (legal or not, either side's king): a king
    # on e1 or e8 going two files over is written as king takes rook, then back to the
    # two-square move unless ``chess960``.
    move = _to_chess960(self, move)
    move = _from_chess960(self, chess960, move.from_square, move.to_square, move.promotion, move.drop)
    return str(move.uci())


@method
def xboard(self: Board, move: Any, chess960: Optional[bool] = None) -> str:
    """The move in XBoard notation: UCI, with castling as ``O-O`` / ``O-O-O`` in Chess960."""
    if chess960 is None:
        chess960 = self.chess960
    if not chess960 or not self.is_castling(move):
        return str(move.uci()) if move else "@@@@"
    return "O-O" if is_kingside_castling(self, move) else "O-O-O"


@method
def parse_xboard(self: Board, xboard: str) -> Move:
    """A move in XBoard notation (SAN or coordinates)."""
    return self.parse_san(xboard)


@method
def push_xboard(self: Board, san: str) -> Move:
    """Parses and plays a move in XBoard notation (python-chess's ``push_san`` under a second
    name: a subclass's own ``push_san`` is not called)."""
    return Board.push_san(self, san)


@method
def san_and_push(self: Board, move: Any) -> str:
    """The move's SAN, then the move played."""
    san = self.san(move)
    self.push(move)
    return str(san)


@method
def find_move(self: Board, from_square: int, to_square: int, promotion: Optional[int] = None) -> Move:
    """The legal move from ``from_square`` to ``to_square`` (a pawn reaching the last rank
    promotes to a queen unless told otherwise; king-takes-rook is castling);
    ``IllegalMoveError`` when there is none."""
    if promotion is None and self.piece_type_at(from_square) == PAWN and square_rank(to_square) in (0, 7):
        promotion = QUEEN
    # python-chess's reading: a king on e1 (e8) going to a corner of its rank is castling,
    # whoever's rook stands there (the error then names the castling move).
    move = _hooks._from_king_takes_rook(self, self.chess960, from_square, to_square, promotion)
    if not self.is_legal(move):
        raise IllegalMoveError(
            f"no matching legal move for {move.uci()} ({SQUARE_NAMES[from_square]} -> {SQUARE_NAMES[to_square]}) in {self.fen()}"
        )
    return move


# ---------------------------------------------------------------- move generation


def _castling_rook(board: Board, move: Any) -> int:
    if board.color_at(move.to_square) == board.color_at(move.from_square):
        return int(move.to_square)  # king takes rook (Chess960)
    return (7 if move.to_square > move.from_square else 0) + 8 * square_rank(move.from_square)


# kibitz's own masked legal move generator, whatever a subclass overrides (the methods here
# answer from kibitz's rules; kibitz/_hooks.py builds python-chess's on a subclass's).
_OWN_GENERATE_LEGAL = Board.__dict__["generate_legal_moves"]


def _filtered(board: Board, moves: Any, from_mask: int, to_mask: int) -> Iterator[Move]:
    """The moves from ``from_mask`` to ``to_mask``, a castling move matched by its rook's
    square (python-chess's masks)."""
    if from_mask == bb.BB_ALL and to_mask == bb.BB_ALL:
        yield from moves
        return
    kings = board.kings
    for m in moves:
        if not from_mask >> m.from_square & 1:
            continue
        # Only a king's move can be castling.
        if kings >> m.from_square & 1 and board.is_castling(m):
            if to_mask >> _castling_rook(board, m) & 1:
                yield m
        elif to_mask >> m.to_square & 1:
            yield m


@method
def generate_castling_moves(self: Board, from_mask: int = bb.BB_ALL, to_mask: int = bb.BB_ALL) -> Iterator[Move]:
    """Legal castling moves; ``to_mask`` is matched against the rook's square."""
    kings = self.kings & self.occupied_co[self.turn] & int(from_mask)
    if not kings:
        return iter(())
    # Only the king's moves are generated: castling is one of them.
    moves = [m for m in _OWN_GENERATE_LEGAL(self, kings, bb.BB_ALL) if Board.is_castling(self, m)]
    return _filtered(self, moves, from_mask & bb.BB_ALL, to_mask & bb.BB_ALL)


@method
def generate_legal_ep(self: Board, from_mask: int = bb.BB_ALL, to_mask: int = bb.BB_ALL) -> Iterator[Move]:
    """Legal en-passant captures from and to the masks."""
    ep = self.ep_square
    if ep is None or not int(to_mask) >> ep & 1:
        return iter(())
    # Only the moves of the pawns that attack the square, to the square, are generated.
    us = self.turn
    capturers = self.pawns & self.occupied_co[us] & bb.BB_PAWN_ATTACKS[not us][ep] & int(from_mask) & bb.BB_ALL
    if not capturers:
        return iter(())
    return iter([m for m in _OWN_GENERATE_LEGAL(self, capturers, bb.BB_SQUARES[ep]) if self.is_en_passant(m)])


@method
def has_pseudo_legal_en_passant(self: Board) -> bool:
    """Whether a pawn of the side to move can take en passant, legal or not."""
    return self.ep_square is not None and bool(_pseudo_ep_capturers(self))


# ---------------------------------------------------------------- predicates


@method
def is_kingside_castling(self: Board, move: Any) -> bool:
    return bool(self.is_castling(move) and square_file(move.to_square) > square_file(move.from_square))


@method
def is_queenside_castling(self: Board, move: Any) -> bool:
    return bool(self.is_castling(move) and square_file(move.to_square) < square_file(move.from_square))


@method
def is_irreversible(self: Board, move: Any) -> bool:
    """Whether the move can never be taken back in this game: a capture or pawn move, one
    that loses castling rights, or any move while an en-passant capture is possible."""
    if self.is_zeroing(move) or self.has_legal_en_passant():
        return True
    # The rights moves are made with (python-chess's clean_castling_rights), and the kings
    # that castle (not promoted ones).
    rights = self.clean_castling_rights()
    touched = (1 << move.from_square) ^ (1 << move.to_square)
    if touched & rights:
        return True
    kings = self.kings & ~self.promoted
    if rights & bb.BB_RANK_1 and touched & kings & self.occupied_co[True]:
        return True
    return bool(rights & bb.BB_RANK_8 and touched & kings & self.occupied_co[False])


@method
def is_into_check(self: Board, move: Any) -> bool:
    """Whether a pseudo-legal move would leave the mover's own king in check. The null move
    and a drop leave the king where it stands: into check when it is in check, as
    python-chess's evasions never hold them."""
    if not move or getattr(move, "drop", None):
        return bool(self.is_check())
    return bool(Board.is_pseudo_legal(self, move) and not Board.is_legal(self, move))


@method
def was_into_check(self: Board) -> bool:
    """Whether the side that just moved left its king in check (never, on a kibitz board)."""
    king = self.king(not self.turn)
    return king is not None and bool(self.is_attacked_by(self.turn, king))


for _name in ("is_variant_end", "is_variant_win", "is_variant_loss", "is_variant_draw"):
    EXTENSIONS[_name] = lambda self: False


# ---------------------------------------------------------------- python-chess internals its modules call


@method
def _from_chess960(
    self: Board,
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
        if (from_square, to_square) in targets and self.kings >> from_square & 1:
            return Move(from_square, targets[(from_square, to_square)])
    return Move(from_square, to_square, promotion, drop)


@method
def _to_chess960(self: Board, move: Any) -> Move:
    """A standard castling move as king takes rook (other moves unchanged), as python-chess
    writes it: a king on e1 (e8) going to g1 or c1 (g8 or c8) where no rook stands."""
    if move.from_square in (4, 60) and self.kings >> move.from_square & 1:
        home = move.from_square - 4
        for to, rook in ((home + 6, home + 7), (home + 2, home)):
            if move.to_square == to and not self.rooks >> to & 1:
                return Move(move.from_square, rook)
    if isinstance(move, Move):
        return move
    return Move(move.from_square, move.to_square, move.promotion, getattr(move, "drop", None))


# ---------------------------------------------------------------- EPD operations

_EPD_SPACE = " \t\r\n"
_MOVE_LIST_OPCODES = ("pv", "am", "bm")


def _epd_operations(text: str, position: Callable[[], Board]) -> Dict[str, Any]:
    """The operations of an EPD's fifth part, as python-chess reads them: ``opcode;`` alone
    (None, or [] for pv/am/bm), a quoted string (backslash escapes the next character), a
    number (int, or float when it has '.', 'e' or 'E'; not finite is a ValueError), or moves
    in SAN, UCI or xboard text read on ``position()`` (pv as a line played in turn, am/bm as
    a list, any other opcode as one move). An opcode "-" is skipped."""
    ops: Dict[str, Any] = {}
    board: Optional[Board] = None
    i, n = 0, len(text)

    def moves_of(opcode: str, operand: str) -> Any:
        nonlocal board
        if board is None:
            board = position()
        if opcode == "pv":
            line = board.copy(stack=False)
            played = []
            for token in operand.split():
                move = line.parse_xboard(token)
                played.append(move)
                line.push(move)
            return played
        if opcode in ("am", "bm"):
            return [board.parse_xboard(token) for token in operand.split()]
        return board.parse_xboard(operand)

    while i < n:
        # The opcode: up to white space or ';'.
        start = i
        while i < n and text[i] not in _EPD_SPACE and text[i] != ";":
            i += 1
        opcode = text[start:i]
        if i < n and text[i] == ";" or i == n:
            i += 1
            if opcode and opcode != "-":
                ops[opcode] = [] if opcode in _MOVE_LIST_OPCODES else None
            continue
        if not opcode or opcode == "-":
            i += 1  # white space between operations (or after a "-" opcode)
            continue
        if not opcode[0].isalpha():
            # An opcode with an operand must start with a letter (a lone one ends at ';').
            raise ValueError(f"expected epd opcode to start with a letter, got: {opcode!r}")
        while i < n and text[i] in _EPD_SPACE:
            i += 1
        if i == n or text[i] == ";":
            ops[opcode] = [] if opcode in _MOVE_LIST_OPCODES else None
            i += 1
            continue
        if text[i] == '"':
            i += 1
            chars = []
            while i < n and text[i] != '"':
                if text[i] == "\\":
                    i += 1
                    if i == n:
                        break
                chars.append(text[i])
                i += 1
            ops[opcode] = "".join(chars)
            i += 1  # the closing quote (then the rest up to ';' is the next opcode's text)
            continue
        numeric = text[i] in "+-.0123456789"
        end = text.find(";", i)
        end = n if end < 0 else end
        operand = text[i:end]
        i = end + 1
        if numeric:
            if any(c in operand for c in ".eE"):
                value = float(operand)
                if not math.isfinite(value):
                    raise ValueError(f"invalid numeric operand for epd operation {opcode!r}: {operand!r}")
                ops[opcode] = value
            else:
                ops[opcode] = int(operand)
        else:
            ops[opcode] = moves_of(opcode, operand)
    return ops


@method
def set_epd(self: Board, epd: str) -> Dict[str, Any]:
    """Sets the position from an EPD (the FEN's first four fields, then operations) and
    returns the operations; ``hmvc`` and ``fmvn`` become the clocks (else 0 and 1)."""
    fields = epd.strip().rstrip(";").split(None, 4)
    if len(fields) <= 4:
        self.set_fen(epd)
        return {}
    head = fields[:4]
    ops = _epd_operations(fields[4], lambda: type(self)(" ".join(head) + " 0 1", chess960=self.chess960))
    clocks = [str(ops["hmvc"]) if "hmvc" in ops else "0", str(ops["fmvn"]) if "fmvn" in ops else "1"]
    self.set_fen(" ".join(head + clocks))
    return ops


def _needs_python_chess(convert: Callable[[Board], Any]) -> Callable[[Board], Any]:
    """``Board.to_chess`` (the Rust method ``convert``), first importing python-chess so that
    a missing one is an ImportError that says how to install it, not a bare "No module named
    'chess'" from inside the method."""

    def to_chess(self: Board) -> Any:
        try:
            import chess  # noqa: F401 (imported for its error only; the method imports it too)
        except ImportError as e:
            if e.name != "chess":
                raise
            raise ModuleNotFoundError(
                "Board.to_chess() needs python-chess, which is not installed: pip install chess", name="chess"
            ) from None
        return convert(self)

    to_chess.__doc__ = convert.__doc__
    return to_chess


def _subclass_new(cls: type, *args: Any, **kwargs: Any) -> Any:
    """A subclass's board before its ``__init__`` runs: the start position, whatever the
    arguments (they are the subclass's own, for its ``__init__``)."""
    return Board.__new__(cls)


def _init_subclass(cls: type, /, **kwargs: Any) -> None:
    """``Board.__init_subclass__``: a subclass may take arguments of its own, as
    python-chess's may; ``Board``'s constructor takes only ``(fen, *, chess960)``, so the
    subclass gets a ``__new__`` that takes any, and sets its position in ``__init__`` through
    ``super().__init__(fen, chess960=...)`` (or Board's, when it has none). When it
    overrides methods other methods of python-chess's are built on, those are built on its
    overrides (``kibitz._hooks``)."""
    super(Board, cls).__init_subclass__(**kwargs)  # type: ignore[misc]
    if "__new__" not in cls.__dict__:
        cls.__new__ = staticmethod(_subclass_new)  # type: ignore[assignment]
    # python-chess's methods built on the ones the subclass overrides (kibitz/_hooks.py).
    _hooks.install(cls)


# ---------------------------------------------------------------- Jupyter's pictures of pieces and square sets


def _piece_svg(self: Piece) -> str:
    """A piece as an SVG picture in a notebook, as python-chess draws it (45 pixels)."""
    from kibitz import svg

    return svg.piece(self, size=45)


def _square_set_svg(self: SquareSet) -> str:
    """A square set as an SVG picture in a notebook: an empty board with the squares
    marked, as python-chess draws it (390 pixels)."""
    from kibitz import svg

    return svg.board(squares=self, size=390)


def _install() -> None:
    """Sets the functions above on the Board class (the Rust class's own attributes win),
    and wraps ``to_chess`` for its message when python-chess is missing."""
    for name, function in EXTENSIONS.items():
        if not hasattr(Board, name):
            setattr(Board, name, function)
    setattr(Piece, "_repr_svg_", _piece_svg)
    setattr(SquareSet, "_repr_svg_", _square_set_svg)
    setattr(Board, "to_chess", _needs_python_chess(Board.to_chess))
    setattr(Board, "__init_subclass__", classmethod(_init_subclass))


_install()
