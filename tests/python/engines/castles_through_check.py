"""Planted bug: castling checks the king's start and destination squares but not the
square it passes over (f1/d1, f8/d8), so it may castle through an attacked square."""

import chess
from perft_engine import main

# (right's rook square, squares that must be empty, square passed over, king destination)
# for standard chess, White's side; Black's mirror these on the eighth rank.
SIDES = [
    (chess.H1, [chess.F1, chess.G1], chess.F1, chess.G1),
    (chess.A1, [chess.B1, chess.C1, chess.D1], chess.D1, chess.C1),
]


def moves(board: chess.Board) -> list:
    result = list(board.legal_moves)
    us, them = board.turn, not board.turn
    if board.is_check():
        return result
    for rook, empty, passed, dest in SIDES:
        if us == chess.BLACK:
            rook, passed, dest = (chess.square_mirror(s) for s in (rook, passed, dest))
            empty = [chess.square_mirror(s) for s in empty]
        king = chess.E1 if us == chess.WHITE else chess.E8
        if not board.castling_rights & chess.BB_SQUARES[rook] or board.king(us) != king:
            continue
        if any(board.piece_at(s) for s in empty):
            continue
        if board.is_attacked_by(them, dest):
            continue
        move = chess.Move(king, dest)
        if move not in result:
            result.append(move)  # only when the passed-over square is attacked
    return result


if __name__ == "__main__":
    main(moves, "CastlesThroughCheck (test engine)")
