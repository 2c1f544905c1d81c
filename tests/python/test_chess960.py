"""Chess960: castling by the 960 rules, Shredder-FEN and X-FEN castling fields, and
king-takes-rook castling notation, checked against published perft numbers
(tests/data/chess960.perft, 960 positions) and against python-chess.

Depth 4 of every position runs by default (about 4*10^8 nodes, a few seconds); depths 5
and 6 (about 3*10^11 nodes, most of an hour) run with ``--runslow``.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import chess
import pytest
from hypothesis import HealthCheck, given, settings

import kibitz
import reference
from kibitz import FenError, IllegalMoveError
from kibitz.testing import games, rare_rule_positions
from fuzzing import examples

DATA = Path(__file__).resolve().parent.parent / "data" / "chess960.perft"


@dataclass(frozen=True)
class Case:
    number: str
    fen: str
    counts: dict[int, int]


def load_cases(path: Path = DATA) -> list[Case]:
    """Reads blocks of ``id N`` / ``epd FEN`` (board, side, castling, en passant) /
    ``perft DEPTH NODES`` lines; ``#`` lines are comments."""
    cases: list[Case] = []
    number: str = ""
    fen: str | None = None
    counts: dict[int, int] = {}
    for lineno, raw in enumerate(path.read_text().splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, _, rest = line.partition(" ")
        if key == "id":
            if fen is not None:
                cases.append(Case(number, fen, counts))
            number, fen, counts = rest, None, {}
        elif key == "epd":
            assert len(rest.split()) == 4, f"{path.name}:{lineno}: expected four EPD fields"
            fen = rest + " 0 1"
        elif key == "perft":
            depth, nodes = rest.split()
            counts[int(depth)] = int(nodes)
        else:
            raise AssertionError(f"{path.name}:{lineno}: unexpected line {raw!r}")
    if fen is not None:
        cases.append(Case(number, fen, counts))
    return cases


CASES = load_cases()
IDS = [f"pos{c.number}" for c in CASES]


def test_data_file() -> None:
    assert len(CASES) == 960
    assert all(sorted(c.counts) == [1, 2, 3, 4, 5, 6] for c in CASES)
    assert len({c.fen for c in CASES}) == 960


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_perft_to_depth_4(case: Case) -> None:
    board = kibitz.Board(case.fen, chess960=True)
    for depth in range(1, 5):
        assert board.perft(depth) == case.counts[depth], f"{case.fen} depth {depth}"


def _deep_mismatches(case: Case) -> list[str]:
    board = kibitz.Board(case.fen, chess960=True)
    found = []
    for depth in (5, 6):
        nodes = board.perft(depth)
        if nodes != case.counts[depth]:
            found.append(f"pos{case.number} {case.fen} depth {depth}: {nodes} nodes, published {case.counts[depth]}")
    return found


@pytest.mark.slow
def test_perft_depth_5_and_6() -> None:
    """All 960 positions to depth 6 (about 3*10^11 nodes): perft releases the GIL, so one
    thread per core; every mismatch is listed. About 70 minutes on one core, 35-40 on two."""
    workers = int(os.environ.get("KIBITZ_TEST_THREADS", os.cpu_count() or 1))
    with ThreadPoolExecutor(max_workers=workers) as pool:
        mismatches = [m for found in pool.map(_deep_mismatches, CASES) for m in found]
    assert not mismatches, "\n".join(mismatches)


def test_data_positions_agree_with_python_chess() -> None:
    """Every data position: kibitz reads the Shredder-FEN castling field, writes X-FEN as
    python-chess does, reads python-chess's Shredder-FEN and X-FEN back, and lists the same
    legal moves (castling as king takes rook)."""
    for case in CASES:
        ref = chess.Board(case.fen, chess960=True)
        board = kibitz.Board(case.fen, chess960=True)
        assert board.fen() == ref.fen(), case.fen
        assert kibitz.Board(ref.fen(shredder=True), chess960=True).fen() == ref.fen()
        assert kibitz.Board(board.fen(), chess960=True).fen() == board.fen()
        assert sorted(board.legal_moves_uci()) == sorted(m.uci() for m in ref.legal_moves), case.fen


def test_divide_agrees_with_python_chess_on_a_sample() -> None:
    """Per-move counts at depth 3 on every 48th data position (python-chess is slow)."""
    for case in CASES[::48]:
        expected = reference.divide(chess.Board(case.fen, chess960=True), 3)
        assert kibitz.Board(case.fen, chess960=True).divide(3) == expected, case.fen


# -- random play against python-chess -------------------------------------------------------


def check_position(board: kibitz.Board, ref: chess.Board) -> None:
    assert board.fen() == ref.fen()
    assert sorted(board.legal_moves_uci()) == sorted(m.uci() for m in ref.legal_moves), ref.fen()
    assert kibitz.Board(ref.fen(shredder=True), chess960=True).fen() == ref.fen()
    assert board.is_check() == ref.is_check()


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(min_plies=10, max_plies=120, chess960=True))
def test_random_960_games_agree_with_python_chess(board: kibitz.Board) -> None:
    """Every position along a random game: FEN, legal moves, Shredder round trip."""
    moves = [m.uci() for m in board.move_stack]
    replay = board.copy()
    while replay.move_stack:
        replay.pop()
    ref = chess.Board(replay.fen(), chess960=True)
    for move in moves:
        check_position(replay, ref)
        ref.push_uci(move)
        replay.push_uci(move)
    check_position(replay, ref)
    assert replay.fen() == board.fen()


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rare_rule_positions(chess960=True))
def test_960_positions_with_castling_perft_agrees(board: kibitz.Board) -> None:
    ref = board.to_chess()
    assert ref.chess960
    check_position(board, ref)
    assert board.perft(2) == (reference.perft(ref, 2) if not ref.is_game_over() else board.perft(2))


# -- hand-picked castling cases ----------------------------------------------------------------

# Each FEN isolates one 960 castling situation; python-chess is the reference for the moves.
CASTLING_CASES = [
    # King already on g1: kingside castling moves only the rook (g1h1).
    "1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1",
    # Rook already on f1, king e1: castling moves only the king (e1f1 = king takes rook).
    "4k3/8/8/8/8/8/8/4KR2 w F - 0 1",
    # King f1 and rook g1 swap places (f1g1).
    "4k3/8/8/8/8/8/8/5KR1 w G - 0 1",
    # The same with Black's rook on g8: the king would land on the g-file it attacks once
    # the white rook has left g1, so no castling.
    "5kr1/8/8/8/8/8/8/5KR1 w Gg - 0 1",
    # King b1, rook a1: queenside castling moves the king right (to c1), rook to d1.
    "rk6/8/8/8/8/8/8/RK6 w Aa - 0 1",
    # King c1, rook b1: queenside castling leaves the king on c1 but uncovers the queen on a1.
    "4k3/8/8/8/8/8/8/qRK5 w B - 0 1",
    # Same without the queen: legal.
    "4k3/8/8/8/8/8/8/1RK5 w B - 0 1",
    # A bishop attacks d1, a square the king crosses when castling queenside from f1.
    "4k3/8/8/8/8/8/2b5/R4K2 w A - 0 1",
    # A bishop attacks b1: only the rook crosses it (allowed).
    "4k3/8/8/8/8/8/b7/R4K2 w A - 0 1",
    # A bishop attacks e1, which the king crosses from f1 to c1: not allowed.
    "4k3/8/8/8/8/2b5/8/R4K2 w A - 0 1",
    # A knight stands between king and rook's destination: not allowed.
    "4k3/8/8/8/8/8/8/RN3K2 w A - 0 1",
    # Two rooks on the kingside: rights for the inner one (G) only -- X-FEN writes G.
    "4k3/8/8/8/8/8/8/4K1RR w G - 0 1",
    # Two rooks on the kingside: rights for the outer one (H) -- X-FEN writes K; the inner
    # rook is in the way.
    "4k3/8/8/8/8/8/8/4K1RR w H - 0 1",
    # Black's side: all four rights, castling written king takes rook; b8g8 is illegal as
    # the rook on g1 attacks g8 once Black's rook has left it.
    "rk4r1/8/8/8/8/8/8/RK4R1 b GAga - 0 1",
    # The king in check may not castle.
    "4k3/8/8/8/8/8/4r3/R3K2R w HA - 0 1",
    # The castling rook is attacked: allowed.
    "4k3/8/8/8/8/8/7r/R3K2R w HA - 0 1",
    # Castling rook on d1 attacked through the d-file: the king crosses d1, so no castling;
    # d1xd8 takes the rook that Black's right refers to (the right goes, checked a ply later).
    "3rk3/8/8/8/8/8/8/3RK3 w Dd - 0 1",
]


@pytest.mark.parametrize("fen", CASTLING_CASES)
def test_castling_cases_agree_with_python_chess(fen: str) -> None:
    ref = chess.Board(fen, chess960=True)
    assert ref.is_valid(), fen
    board = kibitz.Board(fen, chess960=True)
    check_position(board, ref)
    for move in list(ref.legal_moves):  # and every position one ply later
        ref.push(move)
        board.push_uci(move.uci())
        check_position(board, ref)
        ref.pop()
        board.pop()
    assert board.perft(3) == reference.perft(ref, 3)


def test_castling_notation_is_king_takes_rook() -> None:
    board = kibitz.Board("rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1", chess960=True)
    assert board.chess960
    assert {"b1a1", "b1h1"} <= set(board.legal_moves_uci())
    board.push_uci("b1h1")
    assert board.fen() == "rk5r/8/8/8/8/8/8/R4RK1 b kq - 1 1"
    assert [m.uci() for m in board.move_stack] == ["b1h1"]
    # The king-to-destination form is not castling in Chess960 (b1g1 is no king move).
    board.pop()
    with pytest.raises(IllegalMoveError):
        board.push_uci("b1g1")


def test_standard_start_in_960_mode() -> None:
    """What a UCI front end with UCI_Chess960 on does with ``position startpos``."""
    board = kibitz.Board(chess.STARTING_FEN, chess960=True)
    for move in ("e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"):
        board.push_uci(move)
    assert "e1h1" in board.legal_moves_uci() and "e1g1" not in board.legal_moves_uci()
    board.push_uci("e1h1")
    assert board.fen() == "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4"
    assert board.perft(4) == kibitz.Board(board.fen()).perft(4)


def _standard_castling_answers(b: Any, lib: Any, uci: str) -> list[Any]:
    """What a board says of a king move written the standard way: the legality tests, the
    move lists, find_move, parse_uci, SAN, check, variation_san, and the positions after
    push and push_uci with the moves taken back."""
    move = lib.Move.from_uci(uci)
    out: list[Any] = [b.is_legal(move), b.is_pseudo_legal(move), move in b.legal_moves, move in b.pseudo_legal_moves]
    for ask in (
        lambda: b.find_move(move.from_square, move.to_square).uci(),
        lambda: b.parse_uci(uci).uci(),
        lambda: b.san(move),
        lambda: b.gives_check(move),
        lambda: b.variation_san([move]),
    ):
        try:
            out.append(ask())
        except (ValueError, AssertionError) as e:
            out.append(type(e).__name__)
    for push in (lambda c: c.push(move), lambda c: c.push_uci(uci)):
        after = b.copy()
        try:
            push(after)
        except ValueError as e:
            out.append(type(e).__name__)
            continue
        out += [after.fen(), [m.uci() for m in after.move_stack], after.pop().uci(), after.fen()]
    return out


@pytest.mark.parametrize(
    ("fen", "uci"),
    [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQK2R w KQkq - 0 1", "e1g1"),
        ("bbnrknq1/ppp2pp1/3Qp3/7p/3p3P/3PP3/PPP2PPN/BBNRK2R w KQq - 0 50", "e1g1"),
        ("r3kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1", "e8c8"),
        ("r3k2r/8/8/8/8/8/8/R3K1R1 w KQkq - 0 1", "e1g1"),  # a rook on g1: king takes rook
    ],
)
def test_castling_written_the_standard_way_on_a_chess960_board(fen: str, uci: str) -> None:
    """python-chess's push, push_uci and parse_uci read e1g1 / e1c1 (e8g8 / e8c8) on a
    Chess960 board, with the king on its e-file square and no rook on the target, as
    castling with the corner's rook; its is_legal, is_pseudo_legal, find_move and
    variation_san do not. kibitz answers each as python-chess does."""
    ours, theirs = kibitz.Board(fen, chess960=True), chess.Board(fen, chess960=True)
    assert _standard_castling_answers(ours, kibitz, uci) == _standard_castling_answers(theirs, chess, uci)


def test_python_chess_round_trip() -> None:
    board = kibitz.Board("rk4r1/8/8/8/8/8/8/RK4R1 w GAga - 0 1", chess960=True)
    board.push_uci("b1a1")
    ref = board.to_chess()
    assert ref.chess960 and ref.fen() == board.fen() and [m.uci() for m in ref.move_stack] == ["b1a1"]
    back = kibitz.Board.from_chess(ref)
    assert back.chess960 and back == board and [m.uci() for m in back.move_stack] == ["b1a1"]


@pytest.mark.parametrize(
    "fen",
    [
        "rk5r/8/8/8/8/8/8/RK5R w Z - 0 1",  # no such file
        "rk5r/8/8/8/8/8/8/RK5R w C - 0 1",  # no rook on c1
        "r6r/8/8/8/8/8/8/R6R w KQkq - 0 1",  # no kings at all
        "4k3/8/8/8/8/8/8/4K3 w K - 0 1",  # no rook on the kingside
        "rk5r/8/8/8/8/8/8/RK5R w HH - 0 1",  # the same right twice
        "rk5r/8/8/8/8/8/8/RK5R w B - 0 1",  # the king's own file
    ],
)
def test_bad_castling_fields_are_read_as_python_chess_reads_them(fen: str) -> None:
    """A malformed field is a FenError; rights without king or rook are kept as given and
    reported by status() (BAD_CASTLING_RIGHTS), the usable ones written, as in python-chess."""
    try:
        ref = chess.Board(fen, chess960=True)
    except ValueError:
        with pytest.raises(FenError):
            kibitz.Board(fen, chess960=True)
        return
    board = kibitz.Board(fen, chess960=True)
    assert (board.fen(), board.status(), board.castling_rights) == (ref.fen(), ref.status(), ref.castling_rights)


def test_960_castling_field_on_a_standard_board_is_as_python_chess_reads_it() -> None:
    fen = "rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1"
    board, ref = kibitz.Board(fen), chess.Board(fen)
    assert (board.fen(), board.status(), board.castling_rights) == (ref.fen(), ref.status(), ref.castling_rights)


def test_move_stack_and_peek_name_castlings_as_python_chess() -> None:
    """`move_stack` and `peek()` read the moves from the history without unmaking them: each
    castling must still be written with the rook of the side that castled (both sides castle
    in most of these games, with null moves between, which also hand the turn over)."""
    import random

    rng = random.Random(960)
    both_castled = 0
    for _ in range(16):
        ref = chess.Board.from_chess960_pos(rng.randrange(960))
        board = kibitz.Board(ref.fen(), chess960=True)
        castled = set()
        for _ in range(80):
            moves = list(ref.legal_moves)
            if not moves:
                break
            # Castle when possible, else clear the back rank between king and rooks.
            castles = [m for m in moves if ref.is_castling(m)]
            back = 0 if ref.turn == chess.WHITE else 7
            clearing = [
                m
                for m in moves
                if chess.square_rank(m.from_square) == back
                and ref.piece_type_at(m.from_square) not in (chess.KING, chess.ROOK)
            ]
            if not ref.is_check() and rng.random() < 0.1:
                move = chess.Move.null()
            else:
                move = rng.choice(castles or clearing or moves)
            if ref.is_castling(move):
                castled.add(ref.turn)
            ref.push(move)
            board.push(kibitz.Move.from_uci(move.uci()))
            assert [m.uci() for m in board.move_stack] == [m.uci() for m in ref.move_stack]
            assert board.peek().uci() == ref.peek().uci()
        both_castled += castled == {chess.WHITE, chess.BLACK}
    assert both_castled >= 8, f"only {both_castled} of 16 games had both sides castle"
