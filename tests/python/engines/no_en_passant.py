"""Planted bug: never generates en-passant captures."""

import chess
from perft_engine import main


def moves(board: chess.Board) -> list:
    return [m for m in board.legal_moves if not board.is_en_passant(m)]


if __name__ == "__main__":
    main(moves, "NoEnPassant (test engine)")
