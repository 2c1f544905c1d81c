"""State python-chess keeps beside the position, against python-chess itself: the root of a
copy made with ``copy(stack=k)``, the Polyglot key of a position whose en-passant square no
pawn can have made, and the castling-side tests on boards with extra kings.

Each test builds the same board in both libraries and compares every answer; the random
games come from hypothesis, so a failure shrinks to a short line of moves.
"""

from __future__ import annotations

import pickle

import chess
import chess.polyglot
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kibitz
import kibitz.polyglot
from fuzzing import examples


def play_random(seed_moves: list[int], n: int) -> tuple[kibitz.Board, chess.Board]:
    """The same random game of ``n`` plies on both libraries (choices drawn from ``seed_moves``)."""
    ours, theirs = kibitz.Board(), chess.Board()
    for i in range(n):
        moves = sorted(theirs.legal_moves, key=lambda m: m.uci())
        if not moves:
            break
        move = moves[seed_moves[i % len(seed_moves)] % len(moves)]
        theirs.push(move)
        ours.push_uci(move.uci())
    return ours, theirs


# Castling lines: both sides castle or lose rights within the first plies, so that a copy
# keeping the last few moves starts from a root whose rights differ from the current ones.
CASTLING_LINES = [
    "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1 f8c5 d2d3 e8g8 c1g5 d7d6",
    "d2d4 d7d5 b1c3 b8c6 c1f4 c8f5 d1d2 d8d7 e1c1 e8c8 f2f3 f7f6",
    "e2e4 e7e5 e1e2 e8e7 e2e1 e7e8 g1f3 g8f6",
    "g2g3 g7g6 f1g2 f8g7 g1f3 g8f6 h1g1 h8g8 g1h1 g8h8",
]


def compare_roots(ours: kibitz.Board, theirs: chess.Board) -> None:
    """Both boards popped back to their roots answer alike, and their roots too."""
    assert ours.castling_rights == theirs.castling_rights
    ours_root, theirs_root = ours.root(), theirs.root()
    assert ours_root.fen() == theirs_root.fen()
    assert ours_root.castling_rights == theirs_root.castling_rights
    assert ours_root.status() == theirs_root.status()
    assert ours_root.is_valid() == theirs_root.is_valid()
    unpickled = pickle.loads(pickle.dumps(ours))
    assert unpickled.fen() == theirs.fen()
    assert [m.uci() for m in unpickled.move_stack] == [m.uci() for m in theirs.move_stack]
    while theirs.move_stack:
        assert ours.pop().uci() == theirs.pop().uci()
        assert ours.fen() == theirs.fen()
        assert ours.castling_rights == theirs.castling_rights
        assert ours.status() == theirs.status()
    # Editing the root's placement keeps the root's rights where python-chess keeps them.
    ours.set_board_fen(ours.board_fen())
    theirs.set_board_fen(theirs.board_fen())
    assert ours.fen() == theirs.fen()


@pytest.mark.parametrize("line", CASTLING_LINES)
@pytest.mark.parametrize("keep", range(0, 9))
def test_copy_keeping_part_of_the_stack_starts_from_the_right_root(line: str, keep: int) -> None:
    ours, theirs = kibitz.Board(), chess.Board()
    for uci in line.split():
        ours.push_uci(uci)
        theirs.push_uci(uci)
    ours_copy, theirs_copy = ours.copy(stack=keep), theirs.copy(stack=keep)
    assert [m.uci() for m in ours_copy.move_stack] == [m.uci() for m in theirs_copy.move_stack]
    if ours_copy.move_stack:
        # to_chess replays the kept moves from the copy's root: castling among them needs its rights.
        assert ours_copy.to_chess().fen() == theirs_copy.fen()
    compare_roots(ours_copy, theirs_copy)


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(st.integers(0, 10_000), min_size=1, max_size=8), st.integers(0, 60), st.integers(0, 12))
def test_copy_with_stack_on_random_games(seeds: list[int], plies: int, keep: int) -> None:
    ours, theirs = play_random(seeds, plies)
    compare_roots(ours.copy(stack=keep), theirs.copy(stack=keep))


# En-passant fields no pawn can have made, with a pawn of the side to move beside the square
# behind them (python-chess hashes the file then), and controls where it does not.
ODD_EP_FENS = [
    "4k3/8/8/3P4/8/8/8/4K3 w - e6 0 1",
    "4k3/8/8/3P1P2/8/8/8/4K3 w - e6 0 1",
    "4k3/8/8/7P/8/8/8/4K3 w - g6 0 1",
    "4k3/8/8/8/3p4/8/8/4K3 b - e3 0 1",
    "4k3/8/8/8/6p1/8/8/4K3 b - h3 0 1",
    "4k3/8/8/8/8/8/1P6/4K3 w - a3 0 1",
    "4k3/8/8/8/8/8/8/4K3 w - e6 0 1",
    "4k3/8/8/2P5/8/8/8/4K3 w - e6 0 1",
    "4k3/8/8/3P4/8/8/8/4K3 w - d6 0 1",
]


@pytest.mark.parametrize("fen", ODD_EP_FENS)
def test_polyglot_key_of_an_odd_en_passant_square(fen: str) -> None:
    ours, theirs = kibitz.Board(fen), chess.Board(fen)
    want = chess.polyglot.zobrist_hash(theirs)
    assert kibitz.polyglot.zobrist_hash(ours) == want
    assert ours.zobrist_hash() == want
    # python-chess's hasher applied to the kibitz board reads the same fields.
    assert chess.polyglot.zobrist_hash(ours) == want


@settings(max_examples=examples(200), deadline=None)
@given(
    st.sampled_from(["w", "b"]),
    st.integers(0, 63),
    st.lists(st.tuples(st.integers(8, 55), st.booleans()), max_size=6),
)
def test_polyglot_key_with_any_en_passant_square(turn: str, ep: int, pawns: list[tuple[int, bool]]) -> None:
    theirs = chess.Board(None)
    theirs.set_piece_at(chess.E1, chess.Piece(chess.KING, chess.WHITE))
    theirs.set_piece_at(chess.E8, chess.Piece(chess.KING, chess.BLACK))
    for square, white in pawns:
        if theirs.piece_at(square) is None:
            theirs.set_piece_at(square, chess.Piece(chess.PAWN, white))
    fen = theirs.board_fen() + f" {turn} - {chess.square_name(ep)} 0 1"
    try:
        ours = kibitz.Board(fen)
    except ValueError:
        return
    theirs = chess.Board(fen)
    assert kibitz.polyglot.zobrist_hash(ours) == chess.polyglot.zobrist_hash(theirs), fen


CASTLING_FENS = [
    # A second white king on the a-file above the back rank, the rights set.
    "r3k2r/8/8/8/8/K7/8/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/8/K7/8/8/R3K2R w KQkq - 0 1",
    "r3k2r/K7/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w Qk - 0 1",
    "r3k2r/8/8/8/8/8/8/RK5R w KQkq - 0 1",
    "r3k2r/8/k7/8/8/8/8/R3K2R b KQkq - 0 1",
    "r3kk1r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
    "r3k2r/8/8/8/8/8/8/R4K1R w KQkq - 0 1",
    "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
    "8/8/8/8/8/8/8/R3K2R w KQ - 0 1",
]


@pytest.mark.parametrize("fen", CASTLING_FENS)
def test_castling_side_rights(fen: str) -> None:
    ours, theirs = kibitz.Board(fen), chess.Board(fen)
    for color in (chess.WHITE, chess.BLACK):
        assert ours.has_castling_rights(color) == theirs.has_castling_rights(color), (fen, color)
        assert ours.has_kingside_castling_rights(color) == theirs.has_kingside_castling_rights(color), (fen, color)
        assert ours.has_queenside_castling_rights(color) == theirs.has_queenside_castling_rights(color), (fen, color)


@pytest.mark.parametrize("fen", ["r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"])
def test_castling_side_rights_in_chess960(fen: str) -> None:
    ours, theirs = kibitz.Board(fen, chess960=True), chess.Board(fen, chess960=True)
    for color in (chess.WHITE, chess.BLACK):
        assert ours.has_kingside_castling_rights(color) == theirs.has_kingside_castling_rights(color)
        assert ours.has_queenside_castling_rights(color) == theirs.has_queenside_castling_rights(color)
