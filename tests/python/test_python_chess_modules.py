"""A kibitz.Board handed to python-chess's own modules behaves as a chess.Board there:
chess.svg, chess.polyglot (hash and book lookups), chess.pgn.Game.from_board, chess.syzygy
and chess.engine (kibitz's UCI engine driven by python-chess with a kibitz Board). Each test
really calls the python-chess module and compares with the same call on a chess.Board."""

from __future__ import annotations

import sys
from pathlib import Path

import chess
import chess.engine
import chess.pgn
import chess.polyglot
import chess.svg
import chess.syzygy
import pytest

import kibitz

ROOT = Path(__file__).resolve().parents[2]
BOOK = ROOT / "python" / "kibitz" / "book" / "data" / "book.bin"
TABLES = ROOT / "tests" / "data" / "syzygy"
LINE = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O"]


def both(moves: list[str] = LINE) -> tuple[kibitz.Board, chess.Board]:
    ours, theirs = kibitz.Board(), chess.Board()
    for san in moves:
        ours.push_san(san)
        theirs.push_san(san)
    return ours, theirs


@pytest.mark.parametrize("plies", [0, 3, len(LINE)])
def test_svg_board_draws_a_kibitz_board_as_a_chess_board(plies: int) -> None:
    ours, theirs = both(LINE[:plies])
    kwargs = {"lastmove": theirs.peek()} if plies else {}
    assert chess.svg.board(ours, size=200, **kwargs) == chess.svg.board(theirs, size=200, **kwargs)


@pytest.mark.parametrize("plies", range(len(LINE) + 1))
def test_polyglot_hash_and_book_lookups(plies: int) -> None:
    ours, theirs = both(LINE[:plies])
    assert chess.polyglot.zobrist_hash(ours) == chess.polyglot.zobrist_hash(theirs)
    with chess.polyglot.open_reader(BOOK) as reader:
        mine = [(e.move.uci(), e.weight) for e in reader.find_all(ours)]
        want = [(e.move.uci(), e.weight) for e in reader.find_all(theirs)]
    assert mine == want


def test_pgn_game_from_a_kibitz_board() -> None:
    ours, theirs = both()
    assert str(chess.pgn.Game.from_board(ours)) == str(chess.pgn.Game.from_board(theirs))
    fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    ours, theirs = kibitz.Board(fen), chess.Board(fen)
    for b in (ours, theirs):
        b.push_san("Bc4")
    assert str(chess.pgn.Game.from_board(ours)) == str(chess.pgn.Game.from_board(theirs))


def test_syzygy_probes_a_kibitz_board() -> None:
    with chess.syzygy.open_tablebase(str(TABLES)) as tb:
        for fen in [
            "8/8/8/3k4/8/8/8/KR6 w - - 0 1",
            "8/8/8/3k4/8/8/6p1/KR6 b - - 0 1",
            "8/8/8/4k3/8/8/3P4/4K3 w - - 0 1",
        ]:
            assert tb.probe_wdl(kibitz.Board(fen)) == tb.probe_wdl(chess.Board(fen))
            assert tb.probe_dtz(kibitz.Board(fen)) == tb.probe_dtz(chess.Board(fen))


def test_chess_engine_plays_and_analyses_a_kibitz_board() -> None:
    ours, _ = both()
    with chess.engine.SimpleEngine.popen_uci([sys.executable, "-m", "kibitz"]) as engine:
        played = engine.play(ours, chess.engine.Limit(nodes=3000))
        info = engine.analyse(ours, chess.engine.Limit(nodes=3000))
    assert played.move is not None and chess.Board(ours.fen()).is_legal(played.move)
    assert info["score"].relative.score() is not None
