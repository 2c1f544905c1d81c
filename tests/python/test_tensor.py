"""Board planes (kibitz.tensor) against planes computed independently here from
python-chess's view of the same positions: random games rich in en passant (legal and
pinned) and castling, canonical mirroring, both dtypes, batches from Boards and FENs."""

from __future__ import annotations

import random

import chess
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kibitz
from kibitz.tensor import board_to_tensor, to_tensors


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


def random_fens(seed: int, plies: int = 80) -> list[str]:
    rng = random.Random(seed)
    board = chess.Board()
    fens = [board.fen()]
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        # Pawn double steps and en-passant captures often, so the en-passant plane is tested.
        special = [m for m in moves if board.is_en_passant(m) or abs(m.to_square - m.from_square) == 16]
        board.push(rng.choice(special if special and rng.random() < 0.5 else moves))
        fens.append(board.fen())
    return fens


PINNED_EP = "7k/8/8/K2pP2r/8/8/8/8 w - d6 0 2"  # the capture e5xd6 is illegal: pinned pawn


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_planes_match_the_independent_computation(seed: int) -> None:
    fens = random_fens(seed) + [PINNED_EP, "r3k2r/8/8/8/8/8/8/R3K2R b Kq - 0 1"]
    for fen in fens:
        board = chess.Board(fen)
        want, want_canonical = reference_planes(board), canonical_reference(board)
        ours = kibitz.Board(fen)
        got = board_to_tensor(ours)
        assert got.shape == (18, 8, 8) and got.dtype == np.float32
        np.testing.assert_array_equal(got, want, err_msg=fen)
        np.testing.assert_array_equal(board_to_tensor(ours, canonical=True), want_canonical, err_msg=fen)
        np.testing.assert_array_equal(board_to_tensor(ours, dtype=np.uint8), want.astype(np.uint8), err_msg=fen)
        method = ours.to_tensor(canonical=True, dtype="uint8")
        assert method.dtype == np.uint8 and method.flags.writeable
        assert method.flags.c_contiguous and method.flags.owndata  # a new array of its own
        np.testing.assert_array_equal(method, want_canonical.astype(np.uint8), err_msg=fen)
        np.testing.assert_array_equal(ours.to_tensor(), want, err_msg=fen)
    batch = to_tensors(fens)
    np.testing.assert_array_equal(batch, np.stack([reference_planes(chess.Board(f)) for f in fens]))
    canonical = to_tensors([kibitz.Board(f) for f in fens], canonical=True, dtype="uint8")
    np.testing.assert_array_equal(
        canonical, np.stack([canonical_reference(chess.Board(f)) for f in fens]).astype(np.uint8)
    )


def test_a_pinned_en_passant_capture_leaves_the_plane_empty() -> None:
    assert not board_to_tensor(kibitz.Board(PINNED_EP))[16].any()
    legal = "7k/8/8/3pP3/8/8/8/K7 w - d6 0 2"
    assert board_to_tensor(kibitz.Board(legal))[16, 2, 3] == 1  # d6: row 2 (rank 6), column 3


def test_out_is_filled_in_place_and_checked() -> None:
    fens = random_fens(5, 20)
    out = np.full((len(fens), 18, 8, 8), 7, dtype=np.float32)
    assert to_tensors(fens, out=out) is out
    np.testing.assert_array_equal(out, np.stack([reference_planes(chess.Board(f)) for f in fens]))
    with pytest.raises(ValueError):
        to_tensors(fens, out=np.zeros((len(fens) + 1, 18, 8, 8), dtype=np.float32))
    with pytest.raises(ValueError):
        to_tensors(fens, out=np.zeros((len(fens), 18, 8, 8), dtype=np.float64))
    with pytest.raises(ValueError):
        to_tensors(fens, out=np.zeros((len(fens), 18, 8, 16), dtype=np.float32)[..., ::2])
    kept = out.copy()
    with pytest.raises(kibitz.FenError):
        to_tensors(fens[:-1] + ["not a fen"], out=out)
    np.testing.assert_array_equal(out, kept)  # a bad item changes nothing
    with pytest.raises(TypeError):
        to_tensors([42])  # type: ignore[list-item]
    with pytest.raises(ValueError):
        kibitz.Board().to_tensor(dtype=np.float64)
    assert to_tensors([]).shape == (0, 18, 8, 8)
