"""kibitz.pgn against python-chess's chess.pgn at the edges of its fast paths: each test runs
the same operations with both libraries and compares what they answer.

* read_headers and skip_game on streams that cannot seek (a pipe, a child's standard input,
  a socket's ``makefile``) and on a text file being iterated (``for line in f``), where
  python-chess reads line by line: the same answers, the stream left at the same place.
* Nodes after moves that push plays but a legal-moves-only replay refuses (a null move in
  check, a pseudo-legal move into check): their boards, SAN, UCI, repr, the ``accept``
  walks and ``Game.from_board``.
* Visitor callbacks set on the instance (an attribute, ``unittest.mock.patch.object``):
  python-chess calls the instance's attribute, for reading and for the ``accept`` walks.
* ``node[...]`` and ``node.variation(...)`` with slices and integer-like objects.
"""

from __future__ import annotations

import io
import json
import os
import re
import socket
import subprocess
import sys
import threading
from functools import partial
from pathlib import Path
from typing import Any, Callable
from unittest import mock

import chess
import chess.pgn
import numpy as np
import pytest

import kibitz
import kibitz.pgn as kpgn
from pgn_reference import corpus, tree

ROOT = Path(__file__).resolve().parents[2]
BOOK = (ROOT / "tests" / "data" / "book_games.pgn").read_text(encoding="utf-8")
# Games with comments over several lines, variations, NAGs and escape lines, then the book's.
TEXT = corpus(11, 12) + "\n" + BOOK[:6000]
LIBS = [(kpgn, kibitz), (chess.pgn, chess)]


def plain(value: Any) -> Any:
    """A value of either library as plain data: headers as pairs, a game as its PGN."""
    if value is None or isinstance(value, (bool, str, int)):
        return value
    if isinstance(value, (kpgn.Headers, chess.pgn.Headers)):
        return list(value.items())
    if isinstance(value, (kpgn.Game, chess.pgn.Game)):
        return str(value)
    raise TypeError(value)


def apply(pgn: Any, handle: Any, op: str) -> Any:
    """One call on the stream: read_headers, skip_game, read_game, or readline."""
    if op == "readline":
        return handle.readline()
    return plain(getattr(pgn, op)(handle))


def op_sequences() -> list[list[str]]:
    ops = ["read_headers", "skip_game", "read_game", "readline"]
    out = [["read_headers"] * 8, ["skip_game"] * 8, ["read_headers", "skip_game"] * 4]
    out.append([ops[(i * 7 + i // 3) % 4] for i in range(16)])
    return out


# --- streams that cannot seek, files being iterated ----------------------------------------


def pipe_reader(text: str) -> tuple[Any, threading.Thread]:
    """The read end of a pipe (a text file that cannot seek), a thread writing ``text`` into it."""
    read_fd, write_fd = os.pipe()

    def write() -> None:
        with open(write_fd, "w", encoding="utf-8") as out:
            out.write(text)

    writer = threading.Thread(target=write)
    writer.start()
    return open(read_fd, encoding="utf-8"), writer


def socket_reader(text: str) -> tuple[Any, threading.Thread]:
    """A socket's ``makefile("r")`` (cannot seek), a thread sending ``text`` to it."""
    ours, theirs = socket.socketpair()

    def send() -> None:
        with theirs:
            theirs.sendall(text.encode("utf-8"))

    sender = threading.Thread(target=send)
    sender.start()
    handle = ours.makefile("r", encoding="utf-8")
    ours.close()  # the file keeps the connection open
    return handle, sender


@pytest.mark.parametrize("make", [pipe_reader, socket_reader], ids=["pipe", "socket"])
@pytest.mark.parametrize("ops", op_sequences())
def test_unseekable_stream_reads_as_python_chess(make: Callable[[str], Any], ops: list[str]) -> None:
    """After each number of calls, the answers so far and the text still in the stream."""
    for count in range(len(ops) + 1):
        seen = []
        for pgn, _ in LIBS:
            handle, writer = make(TEXT)
            with handle:
                assert not handle.seekable()
                answers = [apply(pgn, handle, op) for op in ops[:count]]
                seen.append((answers, handle.read()))
            writer.join()
        assert seen[0] == seen[1], (ops[:count], seen[0][0], seen[1][0])


CHILD = """
import json, sys
import {module} as pgn
out = []
for op in sys.argv[1:]:
    if op == "readline":
        out.append(sys.stdin.readline())
        continue
    got = getattr(pgn, op)(sys.stdin)
    out.append(got if got is None or isinstance(got, bool) else list(got.items()) if op == "read_headers" else str(got))
out.append(sys.stdin.read())
print(json.dumps(out))
"""


def test_stdin_pipe_reads_as_python_chess() -> None:
    """sys.stdin of a child process fed through a pipe."""
    ops = ["read_headers", "skip_game", "readline", "read_headers", "read_game", "skip_game", "read_headers"]
    answers = []
    for module in ("kibitz.pgn", "chess.pgn"):
        child = subprocess.run(
            [sys.executable, "-c", CHILD.format(module=module), *ops],
            input=TEXT,
            capture_output=True,
            text=True,
            encoding="utf-8",
            check=False,
            timeout=120,
        )
        assert child.returncode == 0, child.stderr
        answers.append(json.loads(child.stdout))
    assert answers[0] == answers[1]


@pytest.mark.parametrize("encoding", ["utf-8", "latin-1"])
@pytest.mark.parametrize("ops", op_sequences())
@pytest.mark.parametrize("calls_before", [0, 2])
def test_file_being_iterated_reads_as_python_chess(
    tmp_path: Path, encoding: str, ops: list[str], calls_before: int
) -> None:
    """``for line in f: break`` (tell() refused until the iteration ends), before any call or
    after some (the file then followed from its last game): the answers, then the rest of the
    file; and after a seek (tell() allowed again) the next answers and the position."""
    path = tmp_path / "games.pgn"
    path.write_text(TEXT, encoding="latin-1" if encoding == "latin-1" else "utf-8", errors="replace")
    seen = []
    for pgn, _ in LIBS:
        with path.open(encoding=encoding) as handle:
            answers = [apply(pgn, handle, "read_headers") for _ in range(calls_before)]
            for line in handle:
                answers.append(line)
                break
            answers += [apply(pgn, handle, op) for op in ops]
            answers.append(handle.readline())
            for line in handle:
                answers.append(line)
                break
            answers.append(apply(pgn, handle, "skip_game"))
            handle.seek(0)
            answers += [apply(pgn, handle, op) for op in ops]
            answers.append(handle.tell())
            answers.append(handle.read())
        seen.append(answers)
    assert seen[0] == seen[1]


# --- moves push plays that a legal replay refuses -------------------------------------------

CHECK_FEN = "4k3/8/8/8/8/8/8/4K2r w - - 0 1"
PUSHED_PGN = [
    f'[FEN "{CHECK_FEN}"]\n\n1. -- Kd7 2. Kd2 *',
    f'[FEN "{CHECK_FEN}"]\n\n1. Kd2 ( 1. -- Kd8 2. -- ) 1... Ke7 2. -- Kd6 *',
    '[Event "x"]\n\n1. e4 e5 2. Bc4 Nc6 3. Bxf7+ -- 4. Bb3 Ke7 *',
]
REPR_ADDRESS = re.compile(r" at 0x[0-9a-f]+")


def described(game: Any) -> list[Any]:
    """Every node of the tree (either library): its board, SAN, UCI and repr, and the walks."""
    out: list[Any] = [str(game), game.end().board().fen(), [m.uci() for m in game.end().board().move_stack]]
    stack = list(game.variations)
    while stack:
        node = stack.pop()
        board = node.board()
        out.append(
            [
                board.fen(),
                [m.uci() for m in board.move_stack],
                node.san(),
                node.uci(),
                node.uci(chess960=True),
                REPR_ADDRESS.sub("", repr(node)),
                node.accept(exporter_of(game)),
                node.accept_subgame(exporter_of(game)),
                node.mainline().accept(exporter_of(game)),
                str(node.mainline()),
                node.ply(),
            ]
        )
        stack.extend(node.variations)
    return out


def exporter_of(game: Any) -> Any:
    return chess.pgn.StringExporter() if isinstance(game, chess.pgn.GameNode) else kpgn.StringExporter()


@pytest.mark.parametrize("text", PUSHED_PGN)
def test_nodes_after_pushed_moves_read(text: str) -> None:
    games = [pgn.read_game(io.StringIO(text)) for pgn, _ in LIBS]
    assert [[str(e) for e in g.errors] for g in games] == [[], []]
    assert described(games[0]) == described(games[1])


def hand_made(pgn: Any, lib: Any) -> Any:
    """A game with moves added by hand: a king's move into check, a null move in check."""
    game = pgn.Game()
    game.setup(CHECK_FEN)
    node = game.add_variation(lib.Move.from_uci("e1f1"))
    node = node.add_variation(lib.Move.from_uci("e8d7"))
    node.add_variation(lib.Move.null())
    side = game.add_variation(lib.Move.null())
    side.add_line([lib.Move.from_uci("e8e7"), lib.Move.from_uci("e1e2")])
    return game


def test_nodes_after_pushed_moves_added_by_hand() -> None:
    games = [hand_made(pgn, lib) for pgn, lib in LIBS]
    assert described(games[0]) == described(games[1])


@pytest.mark.parametrize("ucis", [["e1f1", "e8d7", "0000"], ["0000", "e8d7", "e1d2"], ["e1d1", "0000", "0000"]])
def test_game_from_board_with_pushed_moves(ucis: list[str]) -> None:
    described_games = []
    for pgn, lib in LIBS:
        board = lib.Board(CHECK_FEN)
        for uci in ucis:
            board.push(lib.Move.from_uci(uci))
        game = pgn.Game.from_board(board)
        described_games.append(described(game) + [game.end().board().fen()])
    assert described_games[0] == described_games[1]


# --- callbacks set on the visitor instance --------------------------------------------------

# The first game is legal throughout; the second has an illegal move (handle_error: raised by
# BaseVisitor's, kept by GameBuilder's).
VISITOR_PGN = (
    '[Event "edges"]\n[White "A"]\n\n'
    "{ start } 1. e4 $1 { after e4 } e5 ( 1... c5 2. Nf3 d6 ) ( 1... e6 ) 2. Nf3 !? Nc6\n"
    "3. Bb5 a6 *\n\n"
    '[Event "two"]\n\n1. d4 d5 2. c4 { plain } e6 3. Qxf7 Nf6 1-0\n'
)
CALLBACKS = [
    "begin_game",
    "begin_headers",
    "visit_header",
    "end_headers",
    "begin_parse_san",
    "parse_san",
    "visit_move",
    "visit_board",
    "visit_comment",
    "visit_nag",
    "begin_variation",
    "end_variation",
    "visit_result",
    "end_game",
    "handle_error",
]


class KibitzMoves(kpgn.BaseVisitor[list[str]]):
    """A visitor that looks at nothing but the moves (kibitz's fast path for such visitors)."""

    def __init__(self) -> None:
        self.moves: list[str] = []

    def visit_move(self, board: Any, move: Any) -> None:
        self.moves.append(move.uci())

    def result(self) -> list[str]:
        return self.moves


class ChessMoves(chess.pgn.BaseVisitor[list[str]]):
    """The same visitor for python-chess."""

    def __init__(self) -> None:
        self.moves: list[str] = []

    def visit_move(self, board: Any, move: Any) -> None:
        self.moves.append(move.uci())

    def result(self) -> list[str]:
        return self.moves


def new_visitor(pgn: Any, kind: str) -> Any:
    if kind == "MovesOnly":
        return KibitzMoves() if pgn is kpgn else ChessMoves()
    return getattr(pgn, kind)()


def recorded(value: Any) -> Any:
    """A callback's argument or answer as plain data."""
    if hasattr(value, "fen"):
        return value.fen()
    if hasattr(value, "uci"):
        return value.uci()
    if isinstance(value, (kpgn.Headers, chess.pgn.Headers)):
        return ("headers", list(value.items()))
    if isinstance(value, Exception):
        return type(value).__name__
    if isinstance(value, (kpgn.SkipType, chess.pgn.SkipType)):
        return "SKIP"
    return value


def wrap_on_instance(visitor: Any, name: str, calls: list[Any]) -> None:
    """Sets on the instance a function that records each call and calls the class's callback."""
    original = getattr(visitor, name)

    def wrapper(*args: Any) -> Any:
        answer = original(*args)
        calls.append((name, [recorded(a) for a in args], recorded(answer)))
        return answer

    setattr(visitor, name, wrapper)


def attempt(f: Callable[[], Any]) -> Any:
    """What f answers, or ``("raises", the error's class name)``."""
    try:
        return f()
    except Exception as error:  # noqa: BLE001 - the error's kind is compared
        return ("raises", type(error).__name__)


def final(value: Any) -> Any:
    """A visitor's result as plain data."""
    if isinstance(value, tuple):
        return value
    if isinstance(value, (kpgn.Game, chess.pgn.Game)):
        # The tree, not the PGN: a walk from a child builds a game that starts mid-line.
        return [list(value.headers.items()), value.comment, tree(value), [str(e) for e in value.errors]]
    return recorded(value)


@pytest.mark.parametrize("kind", ["GameBuilder", "StringExporter", "HeadersBuilder", "BoardBuilder", "MovesOnly"])
@pytest.mark.parametrize("name", CALLBACKS)
def test_callback_set_on_instance_is_called_reading(kind: str, name: str) -> None:
    seen = []
    for pgn, _ in LIBS:
        calls: list[Any] = []
        handle = io.StringIO(VISITOR_PGN)
        results = []
        while True:
            visitor = new_visitor(pgn, kind)
            wrap_on_instance(visitor, name, calls)
            result = attempt(partial(pgn.read_game, handle, Visitor=partial(lambda v: v, visitor)))
            if result is None:
                break
            results.append(final(result))
            if isinstance(result, tuple):  # raised: the stream is left mid-game
                break
        seen.append((calls, results))
    assert seen[0] == seen[1]


@pytest.mark.parametrize("kind", ["GameBuilder", "StringExporter", "BoardBuilder", "MovesOnly"])
@pytest.mark.parametrize("name", CALLBACKS)
@pytest.mark.parametrize("walk", ["game", "child", "subgame", "mainline"])
def test_callback_set_on_instance_is_called_walking(kind: str, name: str, walk: str) -> None:
    seen = []
    for pgn, _ in LIBS:
        game = pgn.read_game(io.StringIO(VISITOR_PGN))
        calls: list[Any] = []
        visitor = new_visitor(pgn, kind)
        visitor.begin_game()  # the walks from a child call no begin_game
        wrap_on_instance(visitor, name, calls)
        start = game.variations[0].variations[1]
        if walk == "game":
            result = attempt(lambda: game.accept(visitor))
        elif walk == "child":
            result = attempt(lambda: start.accept(visitor))
        elif walk == "subgame":
            result = attempt(lambda: start.accept_subgame(visitor))
        else:
            result = attempt(lambda: start.mainline().accept(visitor))
        seen.append((calls, final(result)))
    assert seen[0] == seen[1]


def test_parse_san_replaced_on_game_builder() -> None:
    """A parse_san set on a GameBuilder decides the moves (here: e6 for every e5)."""
    games = []
    for pgn, _ in LIBS:
        builder = pgn.GameBuilder()
        builder.parse_san = lambda board, san: board.parse_san("e6" if san == "e5" else san)
        game = pgn.read_game(io.StringIO(VISITOR_PGN), Visitor=lambda builder=builder: builder)
        games.append([str(game), [str(e) for e in game.errors]])
    assert games[0] == games[1]
    assert "e6" in games[0][0]


@pytest.mark.parametrize("walk", ["accept", "mainline", "read"])
def test_mock_patch_object_on_exporter(walk: str) -> None:
    answers = []
    for pgn, _ in LIBS:
        game = pgn.read_game(io.StringIO(VISITOR_PGN))
        exporter = pgn.StringExporter()
        boards: list[str] = []
        with mock.patch.object(exporter, "visit_board", side_effect=lambda board: boards.append(board.fen())):
            with mock.patch.object(exporter, "visit_move", wraps=exporter.visit_move) as visit_move:
                if walk == "accept":
                    text = game.accept(exporter)
                elif walk == "mainline":
                    text = game.mainline().accept(exporter)
                else:
                    text = pgn.read_game(io.StringIO(VISITOR_PGN), Visitor=lambda exporter=exporter: exporter)
        answers.append([text, boards, visit_move.call_count])
    assert answers[0] == answers[1]
    assert answers[0][1]


# --- indexing children ------------------------------------------------------------------------


class Index:
    """An integer-like object (``__index__``), as numpy's integers are."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value


def children_game(pgn: Any) -> Any:
    return pgn.read_game(io.StringIO("1. e4 ( 1. d4 ) ( 1. c4 ) ( 1. Nf3 ) e5 *"))


def outcome(f: Callable[[], Any]) -> Any:
    """What f answers, as plain data (nodes by their moves), or the kind of error it raises."""
    value = attempt(f)
    if isinstance(value, list):
        return [node if isinstance(node, str) else node.move.uci() for node in value]
    if isinstance(value, (kpgn.ChildNode, chess.pgn.ChildNode)):
        return value.move.uci()
    return value


KEYS: list[Callable[[Any], Any]] = [
    lambda lib: slice(0, 2),
    lambda lib: slice(1, None),
    lambda lib: slice(None, None, -1),
    lambda lib: slice(5, 9),
    lambda lib: np.int64(0),
    lambda lib: np.int32(2),
    lambda lib: np.uint8(3),
    lambda lib: np.int64(-1),
    lambda lib: np.int64(7),
    lambda lib: Index(1),
    lambda lib: Index(9),
    lambda lib: True,
    lambda lib: 2,
    lambda lib: -5,
    lambda lib: 1.0,
    lambda lib: "e2e4",
    lambda lib: None,
    lambda lib: np.float64(0.0),
    lambda lib: lib.Move.from_uci("c2c4"),
    lambda lib: lib.Move.from_uci("a2a3"),
]


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize(
    "op",
    [
        lambda node, key: node[key],
        lambda node, key: node.variation(key),
        lambda node, key: key in node,
        lambda node, key: node.has_variation(key),
        lambda node, key: (node.promote(key), [child.move.uci() for child in node.variations])[1],
        lambda node, key: (node.demote(key), [child.move.uci() for child in node.variations])[1],
        lambda node, key: (node.promote_to_main(key), [child.move.uci() for child in node.variations])[1],
        lambda node, key: (node.remove_variation(key), [child.move.uci() for child in node.variations])[1],
    ],
    ids=["getitem", "variation", "contains", "has_variation", "promote", "demote", "promote_to_main", "remove"],
)
def test_children_by_key(key: Callable[[Any], Any], op: Callable[[Any, Any], Any]) -> None:
    answers = []
    for pgn, lib in LIBS:
        game = children_game(pgn)
        answers.append(outcome(partial(op, game, key(lib))))
    assert answers[0] == answers[1]


def test_children_by_node() -> None:
    answers = []
    for pgn, _ in LIBS:
        game = children_game(pgn)
        other = children_game(pgn)
        node = game.variations[2]
        answers.append(
            [
                outcome(lambda: game[node]),
                outcome(lambda: game.variation(node)),
                node in game,
                other.variations[2] in game,
                outcome(lambda: game[other.variations[2]]),
            ]
        )
    assert answers[0] == answers[1]
