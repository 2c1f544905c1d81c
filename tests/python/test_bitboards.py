"""kibitz's module-level bitboard API against python-chess's: every BB_* constant and
table, the bit helpers, shifts, flips, distances, rays, Status and the other constants,
with hypothesis drawing the bitboards and squares."""

from __future__ import annotations

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kibitz
from fuzzing import examples

bitboards = st.integers(0, (1 << 64) - 1) | st.sampled_from([0, 1, 1 << 63, (1 << 64) - 1, 0x8100_0000_0000_0081])
squares = st.integers(0, 63)

CONSTANT_NAMES = sorted(
    n
    for n in dir(chess)
    if n.startswith(("BB_", "STATUS_")) or n in ("SQUARES_180", "STARTING_BOARD_FEN", "UNICODE_PIECE_SYMBOLS")
)


@pytest.mark.parametrize("name", CONSTANT_NAMES)
def test_every_constant_is_python_chess_value(name: str) -> None:
    assert getattr(kibitz, name) == getattr(chess, name)


def test_status_flags_have_python_chess_names_and_values() -> None:
    assert {s.name: s.value for s in kibitz.Status} == {s.name: s.value for s in chess.Status}
    assert issubclass(kibitz.Status, int)


UNARY = [
    "popcount", "flip_vertical", "flip_horizontal", "flip_diagonal", "flip_anti_diagonal",
    "shift_down", "shift_2_down", "shift_up", "shift_2_up", "shift_right", "shift_2_right",
    "shift_left", "shift_2_left", "shift_up_left", "shift_up_right", "shift_down_left", "shift_down_right",
]  # fmt: skip


@settings(max_examples=examples(300))
@given(bitboards)
def test_bit_helpers_shifts_and_flips(bb: int) -> None:
    for name in UNARY:
        assert getattr(kibitz, name)(bb) == getattr(chess, name)(bb), name
    assert kibitz.lsb(bb) == chess.lsb(bb) and kibitz.msb(bb) == chess.msb(bb)
    assert list(kibitz.scan_forward(bb)) == list(chess.scan_forward(bb))
    assert list(kibitz.scan_reversed(bb)) == list(chess.scan_reversed(bb))


@given(squares, squares)
def test_distances_rays_and_between(a: int, b: int) -> None:
    for name in ("square_distance", "square_manhattan_distance", "square_knight_distance", "ray", "between"):
        assert getattr(kibitz, name)(a, b) == getattr(chess, name)(a, b), name
    assert kibitz.square_mirror(a) == chess.square_mirror(a)


def test_piece_names_and_symbols() -> None:
    for pt in chess.PIECE_TYPES:
        assert kibitz.piece_symbol(pt) == chess.piece_symbol(pt)
        assert kibitz.piece_name(pt) == chess.piece_name(pt)


@pytest.mark.parametrize(
    "text",
    [
        "e4",
        "Nf3",
        "exd5",
        "e8=Q",
        "Nbd7",
        "R1a3",
        "Qh4e1",
        "Ng1-f3",
        "e2-e4",
        "O-O",
        "Kg1",
        "d8=K",
        "a9",
        "Nf3+",
        "Qxf7#",
        "xe4",
    ],
)
def test_san_regex_matches_what_python_chess_matches(text: str) -> None:
    mine, theirs = kibitz.SAN_REGEX.match(text), chess.SAN_REGEX.match(text)
    assert (mine is None) == (theirs is None)
    if mine and theirs:
        assert mine.groups() == theirs.groups()


@pytest.mark.parametrize("text", ["-", "KQkq", "Kk", "Q", "HAha", "KQkqK", "kK", "x", ""])
def test_fen_castling_regex_matches_what_python_chess_matches(text: str) -> None:
    assert (kibitz.FEN_CASTLING_REGEX.match(text) is None) == (chess.FEN_CASTLING_REGEX.match(text) is None)
