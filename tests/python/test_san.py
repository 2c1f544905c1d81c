"""SAN out and in, against python-chess on random games."""

import random

import chess
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import kibitz
from fuzzing import examples


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False), st.integers(min_value=0, max_value=120))
def test_san_of_every_legal_move_matches_python_chess(rnd: random.Random, plies: int) -> None:
    """At every ply of a random game, SAN of each legal move equals python-chess's, and
    parsing that SAN gives the move back."""
    ours = kibitz.Board()
    ref = chess.Board()
    for _ in range(plies):
        moves = ours.legal_moves_uci()
        if not moves:
            break
        for m in moves:
            san = ref.san(chess.Move.from_uci(m))
            assert ours.san(m) == san, ref.fen()
            assert ours.parse_san(san).uci() == m, (san, ref.fen())
        m = rnd.choice(moves)
        assert ours.push_san(ref.san(chess.Move.from_uci(m))).uci() == m
        ref.push_uci(m)


def test_ambiguous_and_bad_san_raise_and_leave_the_board_alone() -> None:
    board = kibitz.Board("4k3/8/8/8/8/8/4K3/R6R w - - 0 1")
    before = board.fen()
    with pytest.raises(kibitz.AmbiguousMoveError):
        board.push_san("Rd1")
    with pytest.raises(kibitz.IllegalMoveError):
        board.push_san("Rd2")
    with pytest.raises(kibitz.InvalidMoveError):
        board.push_san("Zz9")
    assert board.fen() == before
    assert board.push_san("Rad1").uci() == "a1d1"
    assert issubclass(kibitz.AmbiguousMoveError, ValueError)


def test_san_variants_accepted() -> None:
    board = kibitz.Board("r3k3/1P6/8/8/8/8/8/4K2R w K - 0 1")
    assert board.parse_san("0-0").uci() == "e1g1"
    assert board.parse_san("O-O+").uci() == "e1g1" or board.san("e1g1") == "O-O"
    assert board.parse_san("b8=Q").uci() == "b7b8q"
    assert board.parse_san("bxa8Q+").uci() == "b7a8q"
    assert board.san("b7a8q") == "bxa8=Q+"
