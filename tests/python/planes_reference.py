"""Board planes in kibitz's documented layout (docs/tensors.md) computed from python-chess's
public API, independently of kibitz: the reference of the plane tests, and of
benches/peers.py's to_tensor() row. numpy and python-chess only (no pytest), so that the
benchmark's environment can import it."""

from __future__ import annotations

import chess
import numpy as np


def reference_planes(board: chess.Board) -> np.ndarray:
    """The documented layout, from python-chess's public API."""
    planes = np.zeros((18, 8, 8), dtype=np.float32)
    for square, piece in board.piece_map().items():
        plane = (0 if piece.color == chess.WHITE else 6) + piece.piece_type - 1
        planes[plane, 7 - chess.square_rank(square), chess.square_file(square)] = 1
    rights = [
        board.has_kingside_castling_rights(chess.WHITE),
        board.has_queenside_castling_rights(chess.WHITE),
        board.has_kingside_castling_rights(chess.BLACK),
        board.has_queenside_castling_rights(chess.BLACK),
    ]
    for i, held in enumerate(rights):
        if held:
            planes[12 + i] = 1
    if board.ep_square is not None and board.has_legal_en_passant():
        planes[16, 7 - chess.square_rank(board.ep_square), chess.square_file(board.ep_square)] = 1
    if board.turn == chess.WHITE:
        planes[17] = 1
    return planes


def canonical_reference(board: chess.Board) -> np.ndarray:
    return reference_planes(board.mirror() if board.turn == chess.BLACK else board)
