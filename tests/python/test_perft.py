"""Perft and divide against published node counts and python-chess.

Default run: every perftsuite position to depth min(4, listed) and the tricky positions to
depth 3. With ``--runslow``: the full listed depths of both files. (chess960.perft is
covered by test_chess960.py.)
"""

from __future__ import annotations

import chess
import pytest

import kibitz
import reference
from perft_data import (
    KIWIPETE_FEN,
    STARTING_FEN,
    PerftCase,
    load_perftsuite,
    load_tricky,
)

DEFAULT_SUITE_DEPTH = 4
DEFAULT_TRICKY_DEPTH = 3

SUITE = load_perftsuite()
TRICKY = load_tricky()


def case_id(case: PerftCase) -> str:
    """A readable test id: case name, then placement and side to move."""
    placement, turn = case.fen.split()[:2]
    return f"{case.name}:{placement}_{turn}"


def params(cases: list[PerftCase]) -> list[object]:
    return [pytest.param(case, id=case_id(case)) for case in cases]


def deep_params(cases: list[PerftCase], above: int) -> list[object]:
    """One slow param per (case, depth) for every listed depth deeper than ``above``."""
    return [
        pytest.param(case, depth, id=f"{case_id(case)}-D{depth}", marks=pytest.mark.slow)
        for case in cases
        for depth in sorted(case.counts)
        if depth > above
    ]


def standard_castling(case: PerftCase) -> bool:
    """False for X-FEN / Chess960 castling rights, which standard chess cannot honour.

    python-chess (standard rules) keeps only the castling rights backed by a king and
    rook on their home squares; the tricky file also holds Chess960 positions whose
    published counts include castling with the king or rook elsewhere.
    """
    castling = case.fen.split()[2]
    return chess.Board(case.fen).castling_xfen() == castling


STANDARD_TRICKY = [case for case in TRICKY if standard_castling(case)]
XFEN_TRICKY = [case for case in TRICKY if not standard_castling(case)]


def expect_counts(fen: str, counts: dict[int, int], depths: range) -> None:
    board = kibitz.Board(fen)
    before = board.fen()
    got = {depth: board.perft(depth) for depth in depths}
    assert got == {depth: counts[depth] for depth in depths}
    assert board.fen() == before, "perft must leave the board as it found it"


# --- perftsuite.epd ------------------------------------------------------------------


@pytest.mark.parametrize("case", params(SUITE))
def test_perftsuite_shallow(case: PerftCase) -> None:
    """Depths 1..min(4, listed) match the published counts."""
    expect_counts(case.fen, case.counts, range(1, min(DEFAULT_SUITE_DEPTH, case.max_depth) + 1))


@pytest.mark.parametrize(("case", "depth"), deep_params(SUITE, DEFAULT_SUITE_DEPTH))
def test_perftsuite_deep(case: PerftCase, depth: int) -> None:
    """Each listed depth beyond 4 matches the published count."""
    assert kibitz.Board(case.fen).perft(depth) == case.counts[depth]


def test_perftsuite_is_complete() -> None:
    """Guard against a truncated data file silently shrinking the suite."""
    assert len(SUITE) == 127
    assert SUITE[0].fen == STARTING_FEN
    assert SUITE[0].counts[6] == 119_060_324


# --- tricky.perft --------------------------------------------------------------------


@pytest.mark.parametrize("case", params(STANDARD_TRICKY))
def test_tricky_shallow(case: PerftCase) -> None:
    """Listed depths up to 3 match the published counts."""
    expect_counts(case.fen, case.counts, range(1, min(DEFAULT_TRICKY_DEPTH, case.max_depth) + 1))


@pytest.mark.parametrize(("case", "depth"), deep_params(STANDARD_TRICKY, DEFAULT_TRICKY_DEPTH))
def test_tricky_deep(case: PerftCase, depth: int) -> None:
    """Listed depths beyond 3 match the published counts."""
    assert kibitz.Board(case.fen).perft(depth) == case.counts[depth]


@pytest.mark.parametrize("case", params(XFEN_TRICKY))
def test_tricky_xfen_castling_read_as_python_chess_reads_it(case: PerftCase) -> None:
    """Chess960-style castling rights (king or rook off its home square) in standard chess:
    python-chess keeps the position and drops the rights it cannot use, flagging them in
    status(); kibitz reads them the same way."""
    ours, theirs = kibitz.Board(case.fen), chess.Board(case.fen)
    assert ours.fen() == theirs.fen()
    assert int(ours.status()) == int(theirs.status())
    assert ours.status() & kibitz.STATUS_BAD_CASTLING_RIGHTS


@pytest.mark.parametrize("case", params(XFEN_TRICKY))
def test_tricky_xfen_as_chess960(case: PerftCase) -> None:
    """With chess960=True the X-FEN positions match their published counts."""
    board = kibitz.Board(case.fen, chess960=True)
    assert {depth: board.perft(depth) for depth in case.counts} == case.counts


@pytest.mark.parametrize("case", params(XFEN_TRICKY))
def test_tricky_xfen_without_castling(case: PerftCase) -> None:
    """The Chess960 positions with castling rights removed match python-chess to depth 3."""
    fen = " ".join(case.fen.split()[:2] + ["-"] + case.fen.split()[3:])
    expected = {depth: reference.perft(chess.Board(fen), depth) for depth in (1, 2, 3)}
    expect_counts(fen, expected, range(1, 4))


def test_tricky_split_is_as_expected() -> None:
    """The X-FEN positions are exactly the ones named so, plus the asymmetrical-rights one."""
    assert {case.name for case in XFEN_TRICKY} == {
        "xfen-00",
        "xfen-01",
        "xfen-02",
        "xfen-03",
        "xfen-04",
        "asymmetrical-and-king-on-h",
    }


# --- perft edge cases ----------------------------------------------------------------


def test_perft_depth_zero_is_one() -> None:
    """perft(0) counts the root itself (chessprogramming.org/Perft)."""
    assert kibitz.Board().perft(0) == 1


def test_perft_mated_position_is_zero() -> None:
    """A checkmated side has no moves, so every depth >= 1 counts zero leaves."""
    board = kibitz.Board("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
    assert [board.perft(depth) for depth in (1, 2, 3)] == [0, 0, 0]


# --- divide --------------------------------------------------------------------------

DIVIDE_FENS = [
    STARTING_FEN,
    KIWIPETE_FEN,
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "8/8/8/1k6/3Pp3/8/8/4KQ2 b - d3 0 1",
    "1b1k4/8/8/1rPpK3/8/8/8/8 w - d6 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
]


@pytest.mark.parametrize("fen", DIVIDE_FENS)
def test_divide_keys_are_the_legal_moves(fen: str) -> None:
    """divide() has one entry per legal move, the same set python-chess generates."""
    board = kibitz.Board(fen)
    expected = reference.legal_uci(chess.Board(fen))
    assert set(board.divide(1)) == expected
    assert set(board.divide(2)) == expected
    assert set(board.legal_moves_uci()) == expected
    assert set(board.divide(1).values()) <= {1}


@pytest.mark.parametrize("fen", DIVIDE_FENS)
def test_divide_depth_two_matches_python_chess(fen: str) -> None:
    """Per-move counts at depth 2 equal python-chess's."""
    assert kibitz.Board(fen).divide(2) == reference.divide(chess.Board(fen), 2)


@pytest.mark.parametrize("case", params(SUITE[:12]))
def test_divide_sums_to_perft(case: PerftCase) -> None:
    """The divide counts add up to perft and to the published count."""
    board = kibitz.Board(case.fen)
    for depth in (1, 2, 3):
        total = sum(board.divide(depth).values())
        assert total == case.counts[depth]
        assert total == board.perft(depth)
