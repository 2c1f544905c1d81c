"""Planted bug: pawns promote only to a queen (no knight, bishop or rook promotions)."""

import chess
from perft_engine import main


def moves(board: chess.Board) -> list:
    return [m for m in board.legal_moves if m.promotion in (None, chess.QUEEN)]


if __name__ == "__main__":
    main(moves, "NoUnderpromotion (test engine)")
