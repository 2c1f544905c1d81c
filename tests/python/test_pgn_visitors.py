"""kibitz.pgn against python-chess's chess.pgn, visitors: the same callbacks in the same
order when reading and when walking a tree, the same exporter output, and the same moves and
errors from visitors that look only at moves (which kibitz serves from its movetext loop in
Rust), also on broken and mutated input and on text with bytes that are no UTF-8.

Hypothesis runs a modest number of examples by default; ``--runslow`` runs ten times as many.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any, Optional

import chess
import chess.pgn
import pytest
from hypothesis import given
from hypothesis import strategies as st

import kibitz.pgn as kpgn
from pgn_reference import (
    BROKEN,
    DATA_FILES,
    MUTATION_ALPHABET,
    assert_same_game,
    assert_same_reading,
    corpus,
    database_text,
    error_key,
    examples,
    mutated_corpus,
    read_all,
)

# --- visitors: the same callbacks in the same order ---------------------------------------


def recorder(base: Any) -> Any:
    class Recorder(base):  # type: ignore[misc, valid-type]
        def __init__(self) -> None:
            self.log: list[Any] = []

        def begin_game(self) -> None:
            self.log.append("begin_game")

        def begin_headers(self) -> None:
            self.log.append("begin_headers")

        def visit_header(self, tagname: str, tagvalue: str) -> None:
            self.log.append(("header", tagname, tagvalue))

        def end_headers(self) -> None:
            self.log.append("end_headers")

        def begin_parse_san(self, board: Any, san: str) -> None:
            self.log.append(("begin_parse_san", board.fen(), san))

        def visit_move(self, board: Any, move: Any) -> None:
            self.log.append(("move", board.fen(), move.uci()))

        def visit_board(self, board: Any) -> None:
            self.log.append(("board", board.fen()))

        def visit_comment(self, comment: str) -> None:
            self.log.append(("comment", comment))

        def visit_nag(self, nag: int) -> None:
            self.log.append(("nag", nag))

        def begin_variation(self) -> None:
            self.log.append("begin_variation")

        def end_variation(self) -> None:
            self.log.append("end_variation")

        def visit_result(self, result: str) -> None:
            self.log.append(("result", result))

        def end_game(self) -> None:
            self.log.append("end_game")

        def handle_error(self, error: Exception) -> None:
            self.log.append(("error", error_key(error)))

        def result(self) -> list[Any]:
            return self.log

    return Recorder


KRecorder = recorder(kpgn.BaseVisitor)
CRecorder = recorder(chess.pgn.BaseVisitor)


@pytest.mark.parametrize("seed", range(3))
def test_visitor_callbacks_when_reading(seed: int) -> None:
    text = corpus(300 + seed, 6) + "1. e4 e5 ( 1... c5 2. Nf3 Qxh7 ( 2. Nc3 ) ) 2. Nf3 1-0\n"
    a, b = io.StringIO(text), io.StringIO(text)
    while True:
        la, lb = kpgn.read_game(a, Visitor=KRecorder), chess.pgn.read_game(b, Visitor=CRecorder)
        assert la == lb
        if la is None:
            break


@pytest.mark.parametrize("seed", range(3))
def test_visitor_callbacks_when_walking(seed: int) -> None:
    for ours, theirs in read_all(corpus(400 + seed, 6))[:-1]:
        assert ours is not None and theirs is not None
        assert ours.accept(KRecorder()) == theirs.accept(CRecorder())
        node_a, node_b = ours, theirs
        while node_a.variations:
            node_a, node_b = node_a.variations[-1], node_b.variations[-1]
        assert node_a.accept(KRecorder()) == node_b.accept(CRecorder())
        assert node_a.accept_subgame(KRecorder()) == node_b.accept_subgame(CRecorder())
        assert ours.mainline().accept(KRecorder()) == theirs.mainline().accept(CRecorder())


@pytest.mark.parametrize("options", [
    {}, {"columns": None}, {"columns": 20}, {"headers": False}, {"comments": False}, {"variations": False},
    {"comments": False, "variations": False, "columns": 255},
])  # fmt: skip
def test_exporter_options(options: dict[str, Any]) -> None:
    for ours, theirs in read_all(corpus(500, 6))[:-1]:
        assert ours is not None and theirs is not None
        assert ours.accept(kpgn.StringExporter(**options)) == theirs.accept(chess.pgn.StringExporter(**options))
        fa, fb = io.StringIO(), io.StringIO()
        wa = ours.accept(kpgn.FileExporter(fa, **options))
        wb = theirs.accept(chess.pgn.FileExporter(fb, **options))
        assert (wa, fa.getvalue()) == (wb, fb.getvalue())
        assert str(ours.mainline()) == str(theirs.mainline())
        end_a, end_b = ours.end(), theirs.end()
        assert str(end_a) == str(end_b)


# --- visitors that look only at moves: the movetext loop in Rust ----------------------------


def move_recorder(base: Any, with_moves: bool) -> Any:
    """A visitor keeping BaseVisitor's callbacks but for moves (if asked) and errors: kibitz
    reads its movetext with read_plain_movetext."""

    class MoveRecorder(base):  # type: ignore[misc, valid-type]
        def begin_game(self) -> None:
            self.log: list[Any] = []

        def handle_error(self, error: Exception) -> None:
            self.log.append(("error", error_key(error)))

        def result(self) -> list[Any]:
            return self.log

    if with_moves:

        def visit_move(self: Any, board: Any, move: Any) -> None:
            self.log.append((board.fen(), move.uci(), len(board.move_stack)))

        MoveRecorder.visit_move = visit_move
    return MoveRecorder


def assert_same_moves(text: str) -> None:
    for with_moves in (True, False):
        ours, theirs = move_recorder(kpgn.BaseVisitor, with_moves), move_recorder(chess.pgn.BaseVisitor, with_moves)
        a, b, c = io.StringIO(text), io.StringIO(text), io.StringIO(text)
        for _ in range(10_000):
            la, lb = kpgn.read_game(a, Visitor=ours), chess.pgn.read_game(b, Visitor=theirs)
            headers = chess.pgn.read_headers(c)
            assert la == lb, headers
            assert a.tell() == b.tell()
            if la is None:
                break


def test_moves_only_visitors_take_the_rust_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    real = kpgn.read_plain_movetext

    def spy(*args: Any) -> Any:
        calls.append(args[0])
        return real(*args)

    monkeypatch.setattr(kpgn, "read_plain_movetext", spy)
    text = corpus(960, 4)
    assert_same_moves(text)
    assert calls
    calls.clear()
    kpgn.read_game(io.StringIO(text), Visitor=KRecorder)
    assert calls == []  # a visitor with its own comment, NAG... callbacks: the Python loop
    assert_same_reading(text)  # GameBuilder: the tree grown in Rust too
    assert calls


@pytest.mark.parametrize("text", BROKEN, ids=range(len(BROKEN)))
def test_moves_only_visitors_on_broken_input(text: str) -> None:
    assert_same_moves(text)
    assert_same_moves(text.replace("\n", "\r\n"))


@pytest.mark.parametrize("seed", range(4))
def test_moves_only_visitors_on_the_corpus(seed: int) -> None:
    assert_same_moves(corpus(970 + seed, 10))


@pytest.mark.parametrize("path", DATA_FILES, ids=lambda p: p.name)
def test_moves_only_visitors_on_data_files(path: Path) -> None:
    assert_same_moves(path.read_text(encoding="utf-8"))


def test_moves_only_visitors_on_database_games() -> None:
    assert_same_moves(database_text(12, 7))


@examples(40)
@given(st.integers(0, 2**32), st.lists(st.tuples(st.floats(0, 1), st.integers(0, 3), st.sampled_from(MUTATION_ALPHABET)),
                                         min_size=1, max_size=8))  # fmt: skip
def test_moves_only_visitors_on_mutated_text(seed: int, edits: list[tuple[float, int, str]]) -> None:
    assert_same_moves(mutated_corpus(seed, edits))


# Bytes that are no UTF-8 (\xe9, \xff) in comments, tags and a line comment: a file opened
# with errors="surrogateescape" turns them into lone surrogates. The first movetext line has
# one, a later plain line too (the core reads such runs of lines itself), a comment runs over
# two lines, and one is inside a variation.
SURROGATE_PGN = (
    b'[Event "caf\xe9"]\n[White "x"]\n\n'
    b"1. e4 {caf\xe9 bad} e5 2. Nf3 Nc6\n"
    b"3. Bb5 {multi\nline \xff comment} a6 ( 3... Nf6 {in \xe9 variation} 4. O-O ) 4. Ba4\n"
    b"4... Nf6 5. O-O ; line \xe9 comment\n"
    b"5... Be7 1-0\n\n"
    b'[Event "b"]\n\n1. d4 {\xff} d5 2. c4 0-1\n\n'
    b'[Event "c"]\n\n1. c4 *\n'
)


class _MovesOnly(chess.pgn.BaseVisitor[list[str]]):
    """Looks only at moves (kibitz reads its lines in the core)."""

    def begin_game(self) -> None:
        self.moves: list[str] = []

    def visit_move(self, board: Any, move: Any) -> None:
        self.moves.append(move.uci())

    def result(self) -> list[str]:
        return self.moves


class _Recorder(chess.pgn.BaseVisitor[list[Any]]):
    """Every callback, with a SAN hook (kibitz tokenizes each line in the core)."""

    def begin_game(self) -> None:
        self.calls: list[Any] = []

    def begin_parse_san(self, board: Any, san: str) -> None:
        self.calls.append(("san", san))

    def visit_comment(self, comment: str) -> None:
        self.calls.append(("comment", comment))

    def visit_move(self, board: Any, move: Any) -> None:
        self.calls.append(("move", move.uci()))

    def result(self) -> list[Any]:
        return self.calls


def _kibitz_visitor(cls: type) -> type:
    """The same visitor over kibitz.pgn's BaseVisitor."""
    return type(cls.__name__, (kpgn.BaseVisitor,), dict(vars(cls)))


@pytest.mark.parametrize("visitor", [None, _MovesOnly, _Recorder])
def test_lone_surrogates_read_as_python_chess_reads_them(tmp_path: Path, visitor: Optional[type]) -> None:
    path = tmp_path / "surrogates.pgn"
    path.write_bytes(SURROGATE_PGN)
    with open(path, errors="surrogateescape") as a, open(path, errors="surrogateescape") as b:
        for _ in range(4):
            if visitor is None:
                ours, theirs = kpgn.read_game(a), chess.pgn.read_game(b)
                assert_same_game(ours, theirs)
                if theirs is not None:
                    assert ours is not None and str(ours) == str(theirs)
            else:
                assert kpgn.read_game(a, Visitor=_kibitz_visitor(visitor)) == chess.pgn.read_game(b, Visitor=visitor)
            assert a.tell() == b.tell()
    with open(path, errors="surrogateescape") as a, open(path, errors="surrogateescape") as b:
        for _ in range(4):
            ours_h, theirs_h = kpgn.read_headers(a), chess.pgn.read_headers(b)
            assert (ours_h is None) == (theirs_h is None)
            if ours_h is not None and theirs_h is not None:
                assert list(ours_h.items()) == list(theirs_h.items())
            assert a.tell() == b.tell()
