"""kibitz.testing: its strategies draw what they promise (checked with python-chess), its
checks catch planted bugs with readable messages, and kibitz itself passes them against
python-chess as the independent reference."""

from __future__ import annotations

import subprocess
import sys

import chess
import pytest
from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st

import kibitz
import reference
from kibitz.testing import (
    RARE_RULE_SEEDS,
    assert_same_divide,
    assert_same_moves,
    chess960_fen,
    chess960_start_fens,
    games,
    move_kinds,
    move_sequences,
    rare_rule_positions,
)

# Enough examples to matter, few enough that the file runs in seconds. No deadline: the
# machine is shared and a slow example is not a failure.
FEW = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def replay_with_chess(board: kibitz.Board) -> chess.Board:
    """The same game in python-chess: kibitz's root FEN, then every move of its history."""
    root = board.copy()
    while root.move_stack:
        root.pop()
    ref = chess.Board(root.fen(), chess960=board.chess960)
    for move in [m.uci() for m in board.move_stack]:
        ref.push_uci(move)
    return ref


def same_as_python_chess(board: kibitz.Board) -> None:
    ref = replay_with_chess(board)
    assert board.fen() == ref.fen()
    assert sorted(board.legal_moves_uci()) == sorted(m.uci() for m in ref.legal_moves)
    assert board.is_check() == ref.is_check()
    assert board.is_checkmate() == ref.is_checkmate()
    assert board.is_stalemate() == ref.is_stalemate()


def chess_divide(fen: str, depth: int) -> dict[str, int]:
    """python-chess's divide, in the form assert_same_divide calls."""
    return reference.divide(chess.Board(fen), depth)


# -- Chess960 start positions ------------------------------------------------------------------


def test_chess960_numbering_matches_python_chess() -> None:
    for n in range(960):
        assert chess960_fen(n) == chess.Board.from_chess960_pos(n).fen(), n
    assert chess960_fen(518) == chess.STARTING_FEN  # Scharnagl's number of the normal start
    assert len({chess960_fen(n) for n in range(960)}) == 960


@pytest.mark.parametrize("n", [-1, 960])
def test_chess960_numbering_rejects_out_of_range(n: int) -> None:
    with pytest.raises(ValueError):
        chess960_fen(n)


@FEW
@given(chess960_start_fens())
def test_chess960_starts_are_boards(fen: str) -> None:
    board = kibitz.Board(fen, chess960=True)
    assert board.fen() == fen and len(board.legal_moves_uci()) == chess.Board(fen, chess960=True).legal_moves.count()


# -- the strategies, checked against python-chess ----------------------------------------------


@FEW
@given(games())
def test_games_are_legal_and_agree_with_python_chess(board: kibitz.Board) -> None:
    assert len(board.move_stack) <= 80
    same_as_python_chess(board)


@FEW
@given(games(chess960=True, max_plies=60))
def test_chess960_games_agree_with_python_chess(board: kibitz.Board) -> None:
    assert board.chess960
    same_as_python_chess(board)


@FEW
@given(games(5, 5, fen=RARE_RULE_SEEDS[0]))
def test_games_from_a_fen(board: kibitz.Board) -> None:
    assert len(board.move_stack) == 5  # Kiwipete has no mate within five plies
    same_as_python_chess(board)


@FEW
@given(move_sequences(max_size=30))
def test_move_sequences_are_legal(moves: list[str]) -> None:
    ref = chess.Board()
    for m in moves:
        ref.push_uci(m)  # raises if a move were illegal
    assert len(moves) <= 30


def test_move_sequences_from_a_960_start_need_the_fen() -> None:
    with pytest.raises(ValueError):
        move_sequences(chess960=True)


@FEW
@given(rare_rule_positions())
def test_rare_rule_positions_agree_with_python_chess(board: kibitz.Board) -> None:
    same_as_python_chess(board)
    ref = replay_with_chess(board)
    if not ref.is_game_over():
        assert board.perft(2) == reference.perft(ref, 2)


@FEW
@given(rare_rule_positions(chess960=True))
def test_rare_rule_960_positions_agree_with_python_chess(board: kibitz.Board) -> None:
    same_as_python_chess(board)


@FEW
@given(rare_rule_positions(), st.data())
def test_move_kinds_match_python_chess(board: kibitz.Board, data: st.DataObject) -> None:
    moves = sorted(board.legal_moves_uci())
    if not moves:
        return
    move = data.draw(st.sampled_from(moves))
    ref = replay_with_chess(board)
    m = chess.Move.from_uci(move)
    expected = set()
    if ref.is_castling(m):
        expected.add("castling")
    if ref.is_en_passant(m):
        expected.add("en_passant")
    if m.promotion:
        expected.add("promotion")
    if ref.gives_check(m):
        expected.add("check")
    ref.push(m)
    if ref.ep_square is not None and any(ref.is_en_passant(r) for r in ref.legal_moves):
        expected.add("allows_en_passant")
    assert move_kinds(board, move) == expected
    assert board.fen() == replay_with_chess(board).fen()  # move_kinds leaves the board as it was


@pytest.mark.parametrize(
    "kind",
    ["castling", "en_passant", "promotion", "check", "allows_en_passant"],
)
def test_rare_rule_positions_offer_each_rule(kind: str) -> None:
    """Each rare rule shows up: hypothesis finds a drawn position offering it, quickly."""
    board = find(
        rare_rule_positions(),
        lambda b: any(kind in move_kinds(b, m) for m in b.legal_moves_uci()),
        settings=settings(max_examples=200, deadline=None, database=None),
    )
    assert any(kind in move_kinds(board, m) for m in board.legal_moves_uci())


def test_rare_rule_positions_often_in_check() -> None:
    board = find(
        rare_rule_positions(),
        lambda b: b.is_check() and len(b.move_stack) >= 2,
        settings=settings(max_examples=200, deadline=None, database=None),
    )
    assert replay_with_chess(board).is_check()


def test_seeds_are_valid_positions() -> None:
    for fen in RARE_RULE_SEEDS:
        ref = chess.Board(fen)
        assert ref.is_valid(), fen
        assert kibitz.Board(fen).fen() == ref.fen()


# -- the checks ------------------------------------------------------------------------------


def chess_moves(fen: str) -> list[str]:
    return [m.uci() for m in chess.Board(fen).legal_moves]


def no_en_passant(fen: str) -> list[str]:
    board = chess.Board(fen)
    return [m.uci() for m in board.legal_moves if not board.is_en_passant(m)]


EP_FEN = "rnbqkbnr/ppp2ppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3"


def test_assert_same_moves_passes_for_python_chess() -> None:
    assert_same_moves(chess_moves, kibitz.Board(EP_FEN))


def test_assert_same_moves_names_the_missing_move() -> None:
    board = kibitz.Board()
    for m in ("e2e4", "a7a6", "e4e5", "d7d5"):
        board.push_uci(m)
    with pytest.raises(AssertionError) as e:
        assert_same_moves(no_en_passant, board)
    message = str(e.value)
    assert board.fen() in message
    assert "reached by: e2e4 a7a6 e4e5 d7d5" in message
    assert "legal moves it misses: e5d6" in message


def test_assert_same_moves_names_illegal_and_repeated_moves() -> None:
    with pytest.raises(AssertionError, match="not legal: e1g1[^\n]*\n.*twice: a2a3"):
        assert_same_moves(lambda fen: chess_moves(fen) + ["e1g1", "a2a3"], kibitz.Board())


def test_assert_same_divide_passes_and_fails() -> None:
    assert_same_divide(chess_divide, kibitz.Board(RARE_RULE_SEEDS[0]), 2)

    def queens_only(fen: str, depth: int) -> dict[str, int]:
        counts = chess_divide(fen, depth)
        return {m: n for m, n in counts.items() if len(m) == 4 or m.endswith("q")}

    board = kibitz.Board("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
    with pytest.raises(AssertionError) as e:
        assert_same_divide(queens_only, board, 2)
    message = str(e.value)
    assert "position: 4k3/1P6/8/8/8/8/8/4K3 w - - 0 1" in message
    assert "moves it misses: b7b8b b7b8n b7b8r" in message


@FEW
@given(rare_rule_positions(max_plies=6))
def test_kibitz_against_python_chess_via_the_recipe(board: kibitz.Board) -> None:
    """kibitz's own use of the recipe: python-chess as "your generator"."""
    assert_same_moves(chess_moves, board)
    assert_same_divide(chess_divide, board, 2)


# -- hypothesis stays optional ---------------------------------------------------------------


def test_kibitz_does_not_import_hypothesis() -> None:
    code = (
        "import sys, kibitz, kibitz.cli, kibitz.perftdiff; kibitz.cli.build_parser(); "
        "assert 'hypothesis' not in sys.modules, 'kibitz imported hypothesis'"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_kibitz_testing_without_hypothesis_says_what_to_install() -> None:
    code = (
        "import sys; sys.modules['hypothesis'] = None\n"
        "try:\n    import kibitz.testing\nexcept ImportError as e:\n    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60).stdout
    assert "pip install hypothesis" in out
