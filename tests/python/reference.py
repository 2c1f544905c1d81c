"""python-chess as the independent reference the kibitz tests compare against."""

from __future__ import annotations

import random
from typing import Any, Iterable

import chess
import chess.polyglot


def board_after(fen: str | None = None, moves: Iterable[str] = (), *, chess960: bool = False) -> chess.Board:
    """python-chess's board for ``fen`` (None or empty: the start position) after the UCI ``moves``."""
    board = chess.Board(fen or chess.STARTING_FEN, chess960=chess960)
    for move in moves:
        board.push_uci(move)
    return board


def legal_uci(board: chess.Board) -> set[str]:
    """The legal moves of ``board`` as UCI strings (castling as e1g1)."""
    return {move.uci() for move in board.legal_moves}


def perft(board: chess.Board, depth: int) -> int:
    """Leaf count of the legal move tree, counting the last ply in bulk."""
    if depth == 0:
        return 1
    if depth == 1:
        return board.legal_moves.count()
    nodes = 0
    for move in list(board.legal_moves):
        board.push(move)
        nodes += perft(board, depth - 1)
        board.pop()
    return nodes


def divide(board: chess.Board, depth: int) -> dict[str, int]:
    """Per-root-move perft counts, ``{uci: perft(depth - 1)}``."""
    result = {}
    for move in list(board.legal_moves):
        board.push(move)
        result[move.uci()] = perft(board, depth - 1)
        board.pop()
    return result


def polyglot_key(board: chess.Board) -> int:
    return chess.polyglot.zobrist_hash(board)


# Flags python-chess reports for positions that are legal to set up and play from,
# though they cannot arise in a game: kibitz must accept these.
UNREACHABLE_BUT_PLAYABLE = chess.STATUS_IMPOSSIBLE_CHECK | chess.STATUS_TOO_MANY_CHECKERS

# More than 8 pawns or 16 pieces a side: either answer is fine (kibitz's piece lists
# hold 16 pieces a side, so it rejects 17; it accepts a ninth pawn).
EITHER_WAY = (
    chess.STATUS_TOO_MANY_WHITE_PAWNS
    | chess.STATUS_TOO_MANY_BLACK_PAWNS
    | chess.STATUS_TOO_MANY_WHITE_PIECES
    | chess.STATUS_TOO_MANY_BLACK_PIECES
)


# Squares a standard castling letter needs: the king's home square and the rook's.
CASTLING_HOMES = {
    "K": ((chess.E1, "K"), (chess.H1, "R")),
    "Q": ((chess.E1, "K"), (chess.A1, "R")),
    "k": ((chess.E8, "k"), (chess.H8, "r")),
    "q": ((chess.E8, "k"), (chess.A8, "r")),
}


def castling_is_backed(board: chess.Board, castling_field: str) -> bool:
    """Every KQkq letter has its king and rook on their home squares.

    Checked here by hand because python-chess silently drops some unbacked letters
    (``"q"`` with no black rook at all) instead of flagging STATUS_BAD_CASTLING_RIGHTS.
    """
    for letter in castling_field.replace("-", ""):
        homes = CASTLING_HOMES.get(letter)
        if homes is None:
            return True  # Shredder letters: python-chess's status judges those
        for square, symbol in homes:
            piece = board.piece_at(square)
            if piece is None or piece.symbol() != symbol:
                return False
    return True


def verdict(fen: str) -> str:
    """What kibitz must do with ``fen``: ``"accept"``, ``"reject"`` or ``"either"``."""
    try:
        board = chess.Board(fen)
    except ValueError:
        return "reject"
    fields = fen.split()
    if not castling_is_backed(board, fields[2] if len(fields) > 2 else "-"):
        return "reject"
    status = board.status() & ~UNREACHABLE_BUT_PLAYABLE
    if status == chess.STATUS_VALID:
        return "accept"
    if status & ~EITHER_WAY == chess.STATUS_VALID:
        return "either"
    return "reject"


def is_playable(fen: str) -> bool:
    """True when ``fen`` parses in python-chess to a position kibitz may accept."""
    return verdict(fen) != "reject"


def must_accept(fen: str) -> bool:
    """True when ``fen`` is a position kibitz must accept (given canonical syntax)."""
    return verdict(fen) == "accept"


def random_placement(
    rng: random.Random, symbols: str, *, valid: bool = True, board_class: Any = chess.Board
) -> chess.Board:
    """A python-chess board (of ``board_class``, a variant's for its rules) with these
    pieces (upper case white) on random squares, random side to move, no pawn on a back
    rank; ``valid``: python-chess's ``is_valid()`` holds."""
    for _ in range(100_000):
        board = board_class.empty()
        for symbol, square in zip(symbols, rng.sample(range(64), len(symbols))):
            if symbol in "Pp" and chess.square_rank(square) in (0, 7):
                break
            board.set_piece_at(square, chess.Piece.from_symbol(symbol))
        else:
            board.turn = rng.random() < 0.5
            if not valid or board.is_valid():
                return board  # type: ignore[no-any-return]
    raise AssertionError(f"no valid placement of {symbols}")
