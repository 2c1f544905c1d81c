"""EPD reading (`set_epd`, `Board.from_epd`) against python-chess: the same position, the
same operations (strings, numbers, moves, move lists, lines), the same exception class,
on hand-picked texts and on random ones built from EPD pieces."""

from __future__ import annotations

from typing import Any

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kibitz
from fuzzing import examples

POSITIONS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
    "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq -",
    "7k/8/8/K2pP2r/8/8/8/8 w - d6",
    "8/8/8/8/8/8/8/8 w - -",
]

CASES = [
    POSITIONS[1] + ' bm Qxf7#; id "scholar";',
    POSITIONS[1] + ' bm Qxf7# Bxf7+; am Nh3; c0 "a \\"quoted\\" comment"; acd 12; ce -35;',
    POSITIONS[0] + " hmvc 7; fmvn 12;",
    POSITIONS[0] + " pv e4 e5 Nf3 Nc6;",
    POSITIONS[0] + " pv e2e4 e7e5;",
    POSITIONS[0] + " sm e4; noop;",
    POSITIONS[0] + " - ; id x;",
    POSITIONS[0] + ' id "unterminated',
    POSITIONS[0] + " acd 1.5e3;",
    POSITIONS[0] + " acd nan;",
    POSITIONS[0] + " acd inf;",
    POSITIONS[0] + " acd 1.0e999;",
    POSITIONS[0] + " acd 12x;",
    POSITIONS[0] + " bm Qh5;",
    POSITIONS[0] + " bm;",
    POSITIONS[0] + " bm ;am;",
    POSITIONS[0],
    POSITIONS[0] + ";",
    POSITIONS[2] + " bm exd6;",
    POSITIONS[3] + ' id "empty";',
    POSITIONS[0] + ' id "a\\\\b";',
    POSITIONS[0] + " c0 two words ; c1 3 ;",
    "not an epd at all",
    POSITIONS[0] + ' hmvc "5";',
]


def answer(lib: Any, epd: str, via_class: bool) -> Any:
    try:
        if via_class:
            board, ops = lib.Board.from_epd(epd)
        else:
            board = lib.Board()
            ops = board.set_epd(epd)
        out = {}
        for k, v in ops.items():
            if isinstance(v, list):
                out[k] = [m.uci() for m in v]
            elif hasattr(v, "uci"):
                out[k] = v.uci()
            else:
                out[k] = (type(v).__name__, v)
        return ("ok", board.fen(), board.status() == chess.STATUS_VALID, out)
    except Exception as e:
        # python-chess raises a plain ValueError for a bad FEN, kibitz its subclass FenError.
        name = "ValueError" if isinstance(e, kibitz.FenError) else type(e).__name__
        return ("raises", name)


@pytest.mark.parametrize("epd", CASES)
@pytest.mark.parametrize("via_class", [False, True])
def test_epd_read_as_python_chess_reads_it(epd: str, via_class: bool) -> None:
    assert answer(kibitz, epd, via_class) == answer(chess, epd, via_class)


PIECES = st.sampled_from(
    ["bm", "am", "pv", "id", "c0", "acd", "ce", "hmvc", "fmvn", "sm", "-", "noop", "e4", "Nf3", "e2e4", '"x y"', '"a\\"b"',
     "12", "-3", "1.5", "2e3", ";", " ", "  ", "\t", "Qh5", "O-O", "d4 d5", "@@@@", "--", '"', "\\"]
)  # fmt: skip


@settings(max_examples=examples(200), deadline=None)
@given(st.sampled_from(POSITIONS[:3]), st.lists(PIECES, max_size=10))
def test_random_epd_operations_agree_with_python_chess(position: str, pieces: list[str]) -> None:
    """(Playable positions only: on one kibitz cannot play, reading a move raises
    InvalidPositionError, a listed difference.)"""
    epd = position + " " + " ".join(pieces)
    assert answer(kibitz, epd, False) == answer(chess, epd, False), epd
