"""Board planes (kibitz.tensor) against planes computed independently here from
python-chess's view of the same positions: random games rich in en passant (legal and
pinned) and castling, canonical mirroring, both dtypes, batches from Boards and FENs."""

from __future__ import annotations

import io
from typing import Any
import random
import re

import chess
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kibitz
from kibitz.tensor import board_to_tensor, to_tensors
from planes_reference import canonical_reference, reference_planes


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


# FENs kibitz.Board(fen) takes that the core's strict reader does not, and some it refuses.
LENIENT_FENS = [
    "4k3/8/8/8/8/8/8/4K3 w",  # fields missing
    "4k3/8/8/8/8/8/8/4K3",
    "4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1",  # castling rights without their rook
    "r3k3/8/8/8/8/8/8/4K2R b KQkq - 3 9",
    "4k3/8/8/8/8/8/8/4K3 w - e3 0 1",  # an en-passant square no pawn crossed
    "4k3/8/8/3pP3/8/8/8/4K3 w - c6 0 1",
    "8/8/8/8/8/8/8/8 w - - 0 1",  # placements kibitz cannot play
    "8/8/8/8/8/8/8/K7 b - - 0 1",
    "kk6/8/8/8/8/8/8/KK6 w - - 0 1",
    "P3k3/8/8/8/8/8/8/4K2p w - - 0 1",
    "QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/8/8/8/8/k3K3 w - - 0 1",
    "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1",
]
BAD_FENS = [
    "not a fen",
    "",
    "4k3/8/8/8/8/8/8/4K2R w kqKQ - 0 1",
    "4k3/8/8/8/8/8/8/4K3 x - - 0 1",
    "4k3/8/8/8/8/8/8/4K3 w - - zero 1",
    "9/8/8/8/8/8/8/8 w",
]


@pytest.mark.parametrize("chess960", [False, True])
def test_fens_are_read_as_board_reads_them(chess960: bool) -> None:
    """to_tensors takes what Board(fen) takes, and its planes are that board's."""
    boards = [kibitz.Board(f, chess960=chess960) for f in LENIENT_FENS]
    for canonical in (False, True):
        want = np.stack([b.to_tensor(canonical=canonical) for b in boards])
        np.testing.assert_array_equal(to_tensors(LENIENT_FENS, canonical=canonical, chess960=chess960), want)
        mixed = [f if i % 2 else b for i, (f, b) in enumerate(zip(LENIENT_FENS, boards))]
        np.testing.assert_array_equal(to_tensors(mixed, canonical=canonical, chess960=chess960), want)
    # Where python-chess reads the position, the planes are the independent computation's.
    for fen, board in zip(LENIENT_FENS, boards):
        theirs = chess.Board(fen, chess960=chess960)
        if theirs.is_valid():
            np.testing.assert_array_equal(board.to_tensor(), reference_planes(theirs), err_msg=fen)


def test_a_fen_board_refuses_is_refused_with_board_s_error() -> None:
    out = np.full((2, 18, 8, 8), 7, dtype=np.float32)
    for fen in BAD_FENS + ["4k3/8/8/8/8/8/8/4K3 w - - 0 1\ud800"]:
        with pytest.raises(ValueError) as board_error:
            kibitz.Board(fen)
        with pytest.raises(ValueError) as batch_error:
            to_tensors([LENIENT_FENS[0], fen], out=out)
        assert type(batch_error.value) is type(board_error.value)
        assert str(batch_error.value) == str(board_error.value)
        assert (out == 7).all()  # nothing written


@pytest.mark.parametrize("code", [">f4", "<f4", "=f4", "|u1", "f", "uint8"])
def test_both_byte_orders_of_float32_are_written_as_asked(code: str) -> None:
    fens = random_fens(3, 12)
    want = np.stack([reference_planes(chess.Board(f)) for f in fens])
    dt = np.dtype(code)
    out = np.zeros((len(fens), 18, 8, 8), dtype=dt)
    assert to_tensors(fens, out=out) is out
    np.testing.assert_array_equal(out.astype(np.float32), want)  # values read through the dtype
    made = to_tensors(fens, dtype=dt)
    assert made.dtype == dt
    np.testing.assert_array_equal(made.astype(np.float32), want)
    board = kibitz.Board(fens[-1])
    for one in (board.to_tensor(dtype=dt), board_to_tensor(board, dtype=dt)):
        assert one.dtype == dt
        np.testing.assert_array_equal(one.astype(np.float32), want[-1])
    text = '[Result "1-0"]\n\n1. e4 e5 1-0\n'
    (chunk,) = kibitz.pgn_to_tensors(io.StringIO(text), dtype=dt)
    assert chunk.planes.dtype == dt
    np.testing.assert_array_equal(
        chunk.planes.astype(np.float32), next(kibitz.pgn_to_tensors(io.StringIO(text))).planes
    )


def test_every_other_dtype_is_refused_by_its_exact_name() -> None:
    codes = [c for c in np.typecodes["All"] if np.dtype(c).newbyteorder("=") not in (np.float32, np.uint8)]
    dtypes = [np.dtype(c).newbyteorder(order) for c in codes for order in "<>"] + [np.dtype([("a", "<f4")])]
    for dt in dtypes:
        order = {"<": "little-endian ", ">": "big-endian "}.get(dt.str[0], "")
        message = re.escape(f"planes are float32 or uint8, not {dt.str!r} ({order}{dt.name})")
        with pytest.raises(ValueError, match=message):
            kibitz.Board().to_tensor(dtype=dt)
        with pytest.raises(ValueError, match=message):
            board_to_tensor(kibitz.Board(), dtype=dt)
        with pytest.raises(ValueError, match=message):
            to_tensors([kibitz.Board()], dtype=dt)
        with pytest.raises(ValueError, match=message):
            next(kibitz.pgn_to_tensors(io.StringIO("1. e4 1-0\n"), dtype=dt))
        out = np.zeros((1, 18, 8, 8), dtype=dt)  # a flexible dtype (S0, U0) gets its size here
        with pytest.raises(ValueError, match=re.escape(f"out must be float32 or uint8, not {out.dtype.str!r}")):
            to_tensors([kibitz.Board()], out=out)
    with pytest.raises(ValueError, match=re.escape("dtype '<f4' (little-endian float32) differs from out's '>f4'")):
        to_tensors([kibitz.Board()], out=np.zeros((1, 18, 8, 8), dtype=">f4"), dtype="<f4")


def test_flags_as_python_tests_them_and_bad_input_raises_at_the_call(tmp_path: Any) -> None:
    """`canonical` given as 0/1 or a NumPy bool works as True/False (python-chess tests its
    flags with `if`); a bare FEN string, a file object where paths are read, zero workers
    and a missing file raise when called, not at the first chunk."""
    import numpy as np

    from kibitz.analysis.shards import pgn_to_tensors_parallel
    from kibitz.analysis.training import pgn_to_tensors
    from kibitz.tensor import board_to_tensor, to_tensors

    board = kibitz.Board()
    board.push_san("e4")
    want = board.to_tensor(canonical=True)
    for flag in (1, np.True_, "yes"):
        assert (board.to_tensor(flag) == want).all()
        assert (board_to_tensor(board, flag) == want).all()
        assert (to_tensors([board], flag)[0] == want).all()
    assert (board.to_tensor(0) == board.to_tensor(canonical=False)).all()
    with pytest.raises(TypeError, match="to_tensor"):
        to_tensors(kibitz.STARTING_FEN)
    missing = tmp_path / "missing.pgn"
    with pytest.raises(FileNotFoundError):
        pgn_to_tensors(missing)
    with pytest.raises(FileNotFoundError):
        pgn_to_tensors_parallel(missing)
    (tmp_path / "one.pgn").write_text('[Result "1-0"]\n\n1. e4 e5 1-0\n')
    with pytest.raises(ValueError, match="workers"):
        pgn_to_tensors_parallel(tmp_path, workers=0)
    with open(tmp_path / "one.pgn") as f, pytest.raises(TypeError, match="paths"):
        pgn_to_tensors_parallel(f)
    assert sum(len(c.moves) for c in pgn_to_tensors_parallel(tmp_path, backend="serial")) == 2
