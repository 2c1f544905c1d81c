"""Random games played on kibitz and python-chess side by side, compared at every ply.

Hypothesis draws a start position (the start position or a perftsuite position), a seed
and a game length; the moves come from ``random.Random(seed)``, so shrinking the length
keeps the same game prefix and finds the first ply where the engines disagree.
"""

from __future__ import annotations

import random

import chess
import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

import kibitz
import reference
from perft_data import KIWIPETE_FEN, STARTING_FEN, load_perftsuite
from fuzzing import examples

MAX_PLIES = 300
# 700 random games a default run (about 13 s; the slowest test of the suite at 2,000), fifty
# times that with KIBITZ_FUZZ_LONG=1.
GAMES_PER_RUN = examples(700)

START_FENS = [STARTING_FEN] + [case.fen for case in load_perftsuite()]

GAME_SETTINGS = settings(
    max_examples=GAMES_PER_RUN,
    deadline=None,
    derandomize=False,
    suppress_health_check=[HealthCheck.too_slow],
)

# Half the games start from the initial position, half from a random perftsuite position.
start_fens = st.one_of(st.just(STARTING_FEN), st.sampled_from(START_FENS))
seeds = st.integers(min_value=0, max_value=2**32 - 1)
lengths = st.one_of(st.just(MAX_PLIES), st.integers(min_value=0, max_value=MAX_PLIES))


def assert_same_position(board: kibitz.Board, ref: chess.Board, context: str) -> list[str]:
    """Compare every observable property; return the legal moves (sorted) for the caller."""
    moves = board.legal_moves_uci()
    ref_moves = reference.legal_uci(ref)
    assert len(moves) == len(set(moves)), f"duplicate moves {sorted(moves)} {context}"
    assert set(moves) == ref_moves, (
        f"missing {sorted(ref_moves - set(moves))}, extra {sorted(set(moves) - ref_moves)} {context}"
    )
    assert board.fen() == ref.fen(), context
    assert board.turn == ref.turn, context
    in_check = ref.is_check()
    assert board.is_check() == in_check, context
    # Mate and stalemate follow from the reference move list and check flag, which
    # saves python-chess from generating the moves a second time.
    assert board.is_checkmate() == (in_check and not ref_moves), context
    assert board.is_stalemate() == (not in_check and not ref_moves), context
    assert board.polyglot_key() == reference.polyglot_key(ref), context
    return sorted(ref_moves)


@GAME_SETTINGS
@given(start=start_fens, seed=seeds, length=lengths)
def test_random_games_match_python_chess(start: str, seed: int, length: int) -> None:
    """Legal moves, fen, check/mate/stalemate flags and Polyglot key agree at every ply."""
    rng = random.Random(seed)
    board, ref = kibitz.Board(start), chess.Board(start)
    played: list[str] = []
    for _ in range(length + 1):
        moves = assert_same_position(board, ref, f"after {played} from {start!r}")
        if not moves or len(played) == length:
            break
        move = rng.choice(moves)
        board.push_uci(move)
        ref.push_uci(move)
        played.append(move)
    note(f"start={start!r} moves={played}")


PUSH_POP_SETTINGS = settings(
    max_examples=examples(300),
    deadline=None,
    derandomize=False,
    suppress_health_check=[HealthCheck.too_slow],
)


@PUSH_POP_SETTINGS
@given(start=st.sampled_from(START_FENS), seed=seeds, length=st.integers(0, 200))
def test_random_push_pop_sequences(start: str, seed: int, length: int) -> None:
    """Interleaved pushes and pops track python-chess; popping everything restores the start."""
    rng = random.Random(seed)
    board, ref = kibitz.Board(start), chess.Board(start)
    log: list[str] = []
    for _ in range(length):
        moves = sorted(reference.legal_uci(ref))
        if ref.move_stack and (not moves or rng.random() < 0.4):
            expected = ref.pop().uci()
            assert board.pop().uci() == expected, f"pop after {log} from {start!r}"
            log.append("pop")
        elif moves:
            move = rng.choice(moves)
            board.push_uci(move)
            ref.push_uci(move)
            log.append(move)
        else:
            break
        assert_same_position(board, ref, f"after {log} from {start!r}")
    while ref.move_stack:
        assert board.pop().uci() == ref.pop().uci()
    assert_same_position(board, ref, f"after undoing {log} from {start!r}")
    with pytest.raises(IndexError):
        board.pop()
    note(f"start={start!r} ops={log}")


@settings(max_examples=examples(200), deadline=None, derandomize=False)
@given(start=st.sampled_from(START_FENS), seed=seeds, split=st.integers(0, 40))
def test_copies_are_independent(start: str, seed: int, split: int) -> None:
    """A copy starts equal, then the two boards play different games without interference."""
    rng = random.Random(seed)
    board, ref = kibitz.Board(start), chess.Board(start)
    for _ in range(split):
        moves = sorted(reference.legal_uci(ref))
        if not moves:
            break
        move = rng.choice(moves)
        board.push_uci(move)
        ref.push_uci(move)

    twin, twin_ref = board.copy(), ref.copy()
    assert_same_position(twin, twin_ref, "fresh copy")
    for _ in range(20):
        for side, side_ref in ((board, ref), (twin, twin_ref)):
            moves = sorted(reference.legal_uci(side_ref))
            if moves:
                move = rng.choice(moves)
                side.push_uci(move)
                side_ref.push_uci(move)
        assert_same_position(board, ref, "original after diverging")
        assert_same_position(twin, twin_ref, "copy after diverging")


def test_copy_does_not_share_state() -> None:
    """Moves pushed on a copy leave the original alone, and the other way round."""
    board = kibitz.Board(KIWIPETE_FEN)
    twin = board.copy()
    twin.push_uci("e1g1")
    assert board.fen() == KIWIPETE_FEN
    assert board.polyglot_key() == reference.polyglot_key(chess.Board(KIWIPETE_FEN))
    assert "e1g1" in board.legal_moves_uci()

    board.push_uci("e1c1")
    expected_twin = chess.Board(KIWIPETE_FEN)
    expected_twin.push_uci("e1g1")
    assert twin.fen() == expected_twin.fen()
    assert twin.pop().uci() == "e1g1"
    assert twin.fen() == KIWIPETE_FEN
    assert board.pop().uci() == "e1c1"


def test_start_position_defaults() -> None:
    """Board() is the standard start position; Board(None) is empty, as in python-chess."""
    assert kibitz.Board(None).fen() == chess.Board(None).fen()
    for board in (kibitz.Board(),):
        assert board.fen() == chess.STARTING_FEN
        assert board.turn is True
        assert board.polyglot_key() == 0x463B96181691FC9C  # Polyglot spec's start key


@pytest.mark.parametrize(
    "fen",
    [
        # En-passant square kept for hashing although the capture is illegal (pinned pawn):
        # Polyglot hashes the file whenever a pawn stands ready to capture.
        "1b1k4/8/8/1rPpK3/8/8/8/8 w - d6 0 1",
        "rnbqk1nr/bb3p1p/1q2r3/2pPp3/3P4/7P/1PP1NpPP/R1BQKBNR w KQkq c6 0 1",
        # Legal en-passant capture.
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "8/8/8/1k6/3Pp3/8/8/4KQ2 b - d3 0 1",
    ],
)
def test_polyglot_key_and_fen_of_set_up_positions(fen: str) -> None:
    """Keys of positions set up from FEN (including en-passant subtleties) match python-chess."""
    board, ref = kibitz.Board(fen), chess.Board(fen)
    assert_same_position(board, ref, fen)


# Test vectors from the Polyglot book format specification (hgm.nubati.net/book_format.html).
POLYGLOT_SPEC_KEYS = [
    ("", 0x463B96181691FC9C),
    ("e2e4", 0x823C9B50FD114196),
    ("e2e4 d7d5", 0x0756B94461C50FB0),
    ("e2e4 d7d5 e4e5", 0x662FAFB965DB29D4),
    ("e2e4 d7d5 e4e5 f7f5", 0x22A48B5A8E47FF78),
    ("e2e4 d7d5 e4e5 f7f5 e1e2", 0x652A607CA3F242C1),
    ("e2e4 d7d5 e4e5 f7f5 e1e2 e8f7", 0x00FDD303C946BDD9),
    ("a2a4 b7b5 h2h4 b5b4 c2c4", 0x3C8123EA7B067637),
    ("a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3", 0x5C3F9B829B279560),
]


@pytest.mark.parametrize(("moves", "key"), POLYGLOT_SPEC_KEYS, ids=[m or "start" for m, _ in POLYGLOT_SPEC_KEYS])
def test_polyglot_spec_keys(moves: str, key: int) -> None:
    """The published Polyglot keys, reached by playing the moves and by setting up the FEN."""
    board, ref = kibitz.Board(), chess.Board()
    for move in moves.split():
        board.push_uci(move)
        ref.push_uci(move)
    assert board.polyglot_key() == key
    assert kibitz.Board(ref.fen()).polyglot_key() == key
