"""Moves are listed in python-chess's order: code written for python-chess that keeps the
first of equal moves (a negamax that replaces its best move only on a better score, a move
picker, ``next(iter(board.legal_moves))``) must give python-chess's answer on kibitz.

Each generator of a board is compared with python-chess's, list against list, in the
positions of random games (standard and Chess960, hypothesis choosing the moves) and in
hand-picked positions for the rarer cases: evasions, double check, promotions with and
without capture, en passant (also as the evasion of a pawn's check), castling on both sides.
"""

from __future__ import annotations

import random
from typing import Any, Callable, List

import chess
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import kibitz
from fuzzing import examples

FROM = 0x00FF_00FF_00FF_00FF
TO = 0xFFFF_0000_FFFF_0000

GENERATORS: List[tuple[str, Callable[[Any], Any]]] = [
    ("legal_moves", lambda b: b.legal_moves),
    ("pseudo_legal_moves", lambda b: b.pseudo_legal_moves),
    ("generate_legal_moves()", lambda b: b.generate_legal_moves()),
    ("generate_legal_moves(masks)", lambda b: b.generate_legal_moves(FROM, TO)),
    ("generate_pseudo_legal_moves()", lambda b: b.generate_pseudo_legal_moves()),
    ("generate_pseudo_legal_moves(masks)", lambda b: b.generate_pseudo_legal_moves(TO, FROM)),
    ("generate_legal_captures()", lambda b: b.generate_legal_captures()),
    ("generate_pseudo_legal_captures()", lambda b: b.generate_pseudo_legal_captures()),
    ("generate_castling_moves()", lambda b: b.generate_castling_moves()),
    ("generate_legal_ep()", lambda b: b.generate_legal_ep()),
    ("generate_pseudo_legal_ep()", lambda b: b.generate_pseudo_legal_ep()),
]


def check_orders(ours: kibitz.Board, theirs: chess.Board) -> None:
    for name, gen in GENERATORS:
        assert [m.uci() for m in gen(ours)] == [m.uci() for m in gen(theirs)], f"{name} in {theirs.fen()}"
    assert ours.legal_moves_uci() == [m.uci() for m in theirs.legal_moves]


POSITIONS = [
    chess.STARTING_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",  # Kiwipete
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",  # promotions, captures
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",  # promotion by capture
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",  # castling both ways
    "4k3/8/4r3/8/8/8/3P4/R3K2R w KQ - 0 1",  # in check: evasions, no castling
    "4k3/8/8/1b6/8/8/8/r3K2R w K - 0 1",  # double check: the king alone
    "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",  # en passant takes the checking pawn
    "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",  # en passant that would expose the king
    "1k6/1r6/8/2pP4/8/8/8/1K6 w - c6 0 2",  # two pawns could take en passant: one is legal
    "4k3/8/8/2PpP3/8/8/8/4K3 w - d6 0 2",  # two en-passant captures
    "r3k2r/8/8/8/8/8/8/1R2K1R1 b kq - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",  # promotions both ways
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",  # Chess960
    "2r1kr2/8/8/8/8/8/8/1R2K1R1 w GBfc - 0 1",  # Chess960, both sides
]


def check_listed_moves_play(ours: kibitz.Board, theirs: chess.Board) -> None:
    """Each listed move, pushed and read back, gives python-chess's position: the listed
    moves are the moves themselves (a double push sets the en-passant square, castling moves
    the rook), not only their names."""
    for m in list(ours.legal_moves):
        theirs.push(chess.Move.from_uci(m.uci()))
        ours.push(m)
        try:
            assert ours.fen(en_passant="fen") == theirs.fen(en_passant="fen"), m.uci()
            assert ours.is_check() == theirs.is_check(), m.uci()
        finally:
            ours.pop()
            theirs.pop()


@pytest.mark.parametrize("fen", POSITIONS)
def test_listed_moves_play_as_python_chess_s(fen: str) -> None:
    chess960 = any(c in fen.split()[2] for c in "ABCDEFGHabcdefgh")
    check_listed_moves_play(kibitz.Board(fen, chess960=chess960), chess.Board(fen, chess960=chess960))


@pytest.mark.parametrize("fen", POSITIONS)
def test_order_in_chosen_positions(fen: str) -> None:
    chess960 = any(c in fen.split()[2] for c in "ABCDEFGHabcdefgh")
    check_orders(kibitz.Board(fen, chess960=chess960), chess.Board(fen, chess960=chess960))


@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=False)
@given(seed=st.integers(0, 2**32 - 1), chess960=st.booleans())
def test_order_along_random_games(seed: int, chess960: bool) -> None:
    rng = random.Random(seed)
    if chess960:
        n = rng.randrange(960)
        ours, theirs = kibitz.Board.from_chess960_pos(n), chess.Board.from_chess960_pos(n)
    else:
        ours, theirs = kibitz.Board(), chess.Board()
    for _ in range(rng.randrange(20, 160)):
        check_orders(ours, theirs)
        if rng.random() < 0.1:
            check_listed_moves_play(ours, theirs)
        moves = list(theirs.legal_moves)
        if not moves:
            break
        # Captures and checks more often than at random, for more evasions and promotions.
        forcing = [m for m in moves if theirs.is_capture(m) or theirs.gives_check(m) or m.promotion]
        move = rng.choice(forcing if forcing and rng.random() < 0.5 else moves)
        theirs.push(move)
        ours.push(kibitz.Move.from_uci(move.uci()))


def test_first_of_equal_moves_is_python_chess_s() -> None:
    # A one-ply material picker that keeps the first of the best: the same move on both.
    def pick(board: Any, lib: Any) -> str:
        values = {lib.PAWN: 1, lib.KNIGHT: 3, lib.BISHOP: 3, lib.ROOK: 5, lib.QUEEN: 9}
        best, best_score = None, -1
        for m in board.legal_moves:
            captured = board.piece_at(m.to_square)
            score = values.get(captured.piece_type, 0) if captured else 0
            if score > best_score:
                best, best_score = m, score
        return best.uci()

    for fen in POSITIONS:
        chess960 = any(c in fen.split()[2] for c in "ABCDEFGHabcdefgh")
        ours, theirs = kibitz.Board(fen, chess960=chess960), chess.Board(fen, chess960=chess960)
        if any(theirs.legal_moves):
            assert pick(ours, kibitz) == pick(theirs, chess), fen
