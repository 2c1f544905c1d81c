"""The Rust PGN reader (``kibitz.read_games``, ``_core.PgnReader``) on hostile input: it
must end on any bytes, keep memory bounded, recover the games after a broken one, and read
what python-chess reads the same way.

The reader runs in a child process so that a reader that never ends (in Rust, holding the
GIL) fails the test after a timeout instead of hanging it.
"""

from __future__ import annotations

import gc
import io
import json
import logging
import select
import struct
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Optional

import chess
import chess.pgn
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fuzzing import examples

import kibitz
from kibitz._core import san_line

DATA = Path(__file__).resolve().parents[1] / "data"
REAL_PGNS = [p.read_bytes() for p in sorted(DATA.glob("*.pgn"))]

# Seconds one input may take in the child: generous for a loaded machine, far below "never".
READ_TIMEOUT = 20.0

_CHILD = r"""
import io, json, struct, sys
import kibitz
out = sys.stdout
inp = sys.stdin.buffer
while True:
    head = inp.read(4)
    if len(head) < 4:
        break
    (n,) = struct.unpack(">I", head)
    data = inp.read(n)
    try:
        games = [[g.headers, g.moves, g.result, g.error] for g in kibitz.read_games(io.BytesIO(data))]
        reply = {"games": games}
    except Exception as e:  # any exception is a finding too: reported, not hidden
        reply = {"exception": f"{type(e).__name__}: {e}"}
    out.write(json.dumps(reply) + "\n")
    out.flush()
"""


class ReaderProcess:
    """A child process that reads PGN byte strings sent to it and answers with the games."""

    def __init__(self) -> None:
        self.proc: Optional[subprocess.Popen[bytes]] = None

    def _start(self) -> subprocess.Popen[bytes]:
        if self.proc is None or self.proc.poll() is not None:
            self.proc = subprocess.Popen([sys.executable, "-c", _CHILD], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        return self.proc

    def read(self, data: bytes) -> dict[str, Any]:
        proc = self._start()
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(struct.pack(">I", len(data)) + data)
        proc.stdin.flush()
        ready, _, _ = select.select([proc.stdout], [], [], READ_TIMEOUT)
        if not ready:
            self.close()
            raise AssertionError(f"the reader did not end within {READ_TIMEOUT} s on {data[:200]!r}")
        line = proc.stdout.readline()
        assert line, "the reader's process died"
        reply: dict[str, Any] = json.loads(line)
        return reply

    def close(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None


@pytest.fixture(scope="module")
def reader():
    r = ReaderProcess()
    yield r
    r.close()


def python_chess_read(data: bytes) -> list[chess.pgn.Game]:
    """The games python-chess reads from ``data`` opened as a text file would be."""
    logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)  # it logs every bad move
    handle = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="replace", newline=None)
    games = []
    while True:
        game = chess.pgn.read_game(handle)
        if game is None:
            return games
        games.append(game)


def python_chess_moves(game: chess.pgn.Game) -> list[str]:
    board = game.board()
    out = []
    for move in game.mainline_moves():
        out.append(board.uci(move))
        board.push(move)
    return out


def assert_agrees_with_python_chess(data: bytes, ours: list[list[Any]]) -> None:
    """On input both readers split into the same games, every game that both read without
    a problem has the same moves in both. Input python-chess's own reader crashes on (it
    raises IndexError on a ")" right after a move number when no variation is open) has no
    reference: kibitz's reader must only end on it, which ``read_ok`` checks."""
    try:
        theirs = python_chess_read(data)
    except IndexError:
        return
    if len(theirs) != len(ours):
        return
    for (headers, moves, _result, error), ref in zip(ours, theirs):
        if error is not None or ref.errors:
            continue
        if _set_tags(headers) != _set_tags(ref.headers):
            continue  # the readers split the games differently here (see the test below)
        assert moves == python_chess_moves(ref), (data, headers)


# python-chess fills in the Seven Tag Roster with these when a game lacks them (its own
# empty Headers give them).
_ROSTER_DEFAULTS = dict(chess.pgn.Headers())


def _set_tags(headers: Any) -> dict[str, str]:
    """The tags a game really has: python-chess's roster placeholders left out."""
    return {k: v for k, v in dict(headers).items() if _ROSTER_DEFAULTS.get(k) != v}


def read_ok(reader: ReaderProcess, data: bytes) -> list[list[Any]]:
    reply = reader.read(data)
    assert "exception" not in reply, reply["exception"]
    games: list[list[Any]] = reply["games"]
    return games


# ---------------------------------------------------------------------------- termination


@pytest.mark.parametrize(
    "data",
    [
        b'1. e4 " e5 *\n',
        b'\x00\x00[Event "x"]\n\n1. e4 e5 *\n',
        b'1. e4 [Event "on a movetext line"] e5 *\n',
        '[Event "x"]\n\n1. e4 e5 *\n'.encode("utf-16"),
        b'[Event "x"]\r\r1. e4 e5\r% an escape\r2. Nf3 *\r',
        bytes(range(256)) * 4,
    ],
)
def test_the_reader_ends_on_input_that_once_made_it_spin(reader, data):
    games = read_ok(reader, data)
    assert games


def test_a_stray_quote_is_reported_as_a_bad_move_and_the_next_game_is_read(reader):
    games = read_ok(reader, b'1. e4 " e5 *\n\n[Event "next"]\n\n1. d4 *\n')
    assert len(games) == 2
    assert games[0][3].startswith('not a move in SAN: "\\""')
    assert games[1][1] == ["d2d4"] and games[1][3] is None


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=600))
def test_the_reader_ends_on_arbitrary_bytes(reader, data):
    assert_agrees_with_python_chess(data, read_ok(reader, data))


@st.composite
def mutated_pgn(draw: st.DrawFn) -> bytes:
    """A real PGN (tests/data) with a few bytes replaced, inserted or deleted, and its line
    ends perhaps changed to CR LF or lone CR."""
    data = bytearray(draw(st.sampled_from(REAL_PGNS))[: draw(st.integers(200, 6000))])
    special = st.sampled_from(list(b'"[](){};%$\\\r\n\x00*.-\xfc\xff'))
    for _ in range(draw(st.integers(0, 6))):
        at = draw(st.integers(0, len(data)))
        op = draw(st.sampled_from(["replace", "insert", "delete"]))
        byte = draw(st.one_of(special, st.integers(0, 255)))
        if op == "insert" or at == len(data):
            data.insert(at, byte)
        elif op == "replace":
            data[at] = byte
        else:
            del data[at]
    ending = draw(st.sampled_from([b"\n", b"\r\n", b"\r"]))
    return bytes(data).replace(b"\n", ending)


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_pgn())
def test_the_reader_ends_on_mutated_real_games_and_agrees_with_python_chess(reader, data):
    assert_agrees_with_python_chess(data, read_ok(reader, data))


def test_a_game_broken_before_its_movetext_ends_at_the_next_tag_section_not_at_a_blank_line(reader):
    """Where the readers split games apart on purpose: kibitz's game runs to its result or
    the next tag section, python-chess's to the next blank line. A tag line that lost its
    "[" puts the movetext after the blank line into the broken game for kibitz, into a game
    of its own for python-chess."""
    text = b'[Event "a"]\n"Result "1-0"]\n\n1. d4 d5 1-0\n\n[Event "b"]\n\n1. c4 *\n'
    ours = read_ok(reader, text)
    assert [(g[0], g[1]) for g in ours] == [({"Event": "a"}, []), ({"Event": "b"}, ["c2c4"])]
    assert ours[0][3] == 'not a move in SAN: "\\"Result" on line 2' and ours[1][3] is None
    theirs = python_chess_read(text)
    assert [(_set_tags(g.headers), python_chess_moves(g)) for g in theirs] == [
        ({"Event": "a", "Result": "1-0"}, []),
        ({"Result": "1-0"}, ["d2d4", "d7d5"]),
        ({"Event": "b"}, ["c2c4"]),
    ]


def test_games_split_apart_are_not_compared_even_when_both_readers_count_as_many():
    """Two such breaks can leave both readers with the same number of games, misaligned: the
    comparison must then skip the games whose tags differ, not compare the moves of
    different games. A mutated test file once made it compare a game without tags with the
    one python-chess had split off before it."""
    data = (DATA / "book_games.pgn").read_bytes()
    data = b'"' + data[1 : data.index(b'[Event "test 16"]')]  # the ";" of the first line lost
    third = data.index(b"[Result", data.index(b'[Event "test 3"]'))
    data = data[:third] + b'"' + data[third + 1 :]  # and the "[" of the third game's Result tag
    ours = [list(g) for g in _read_in_process(data)]
    theirs = python_chess_read(data)
    assert len(ours) == len(theirs) - 1
    data = data.rstrip(b"\n") + b"]\n\n["  # a "]" after the last result, a stray "[" line: a game more for kibitz
    ours = [list(g) for g in _read_in_process(data)]
    theirs = python_chess_read(data)
    assert len(ours) == len(theirs)
    misaligned = [i for i, (o, t) in enumerate(zip(ours, theirs)) if o[1] != python_chess_moves(t)]
    assert misaligned, "the two readers were meant to split these games differently"
    assert_agrees_with_python_chess(data, ours)


def _read_in_process(data: bytes) -> list[tuple[dict[str, str], list[str], Optional[str], Optional[str]]]:
    return [(g.headers, g.moves, g.result, g.error) for g in kibitz.read_games(io.BytesIO(data))]


def test_real_games_read_as_python_chess_reads_them_with_every_line_ending(reader):
    for text in REAL_PGNS:
        for ending in (b"\n", b"\r\n", b"\r"):
            data = text.replace(b"\n", ending)
            ours = read_ok(reader, data)
            theirs = python_chess_read(data)
            assert len(ours) == len(theirs)
            assert [g[1] for g in ours] == [python_chess_moves(g) for g in theirs]


def test_reading_from_a_pipe_stops_on_ctrl_c(tmp_path):
    """A long read checks for signals: SIGINT stops it with KeyboardInterrupt."""
    code = (
        "import sys, kibitz\n"
        "try:\n"
        "    for g in kibitz.read_games(sys.stdin.buffer): pass\n"
        "except KeyboardInterrupt:\n"
        "    sys.exit(7)\n"
    )
    feeder = subprocess.Popen(
        ["sh", "-c", "while :; do printf ' e4 e5 Nf3 Nc6 Nf3 Nc6 \\n'; done"], stdout=subprocess.PIPE
    )
    proc = subprocess.Popen([sys.executable, "-c", code], stdin=feeder.stdout)
    try:
        time.sleep(1.5)
        proc.send_signal(2)
        assert proc.wait(timeout=20) == 7
    finally:
        for p in (proc, feeder):
            if p.poll() is None:
                p.kill()
            p.wait()


# ---------------------------------------------------------------------------- recovery


def test_a_semicolon_comment_ends_at_a_lone_cr_and_later_games_are_read(reader):
    text = b'[Event "a"]\r\r1. e4 ; a comment\re5 *\r\r[Event "b"]\r\r1. d4 d5 *\r'
    ours = read_ok(reader, text)
    theirs = python_chess_read(text)
    assert [g[1] for g in ours] == [python_chess_moves(g) for g in theirs] == [["e2e4", "e7e5"], ["d2d4", "d7d5"]]
    assert [g[3] for g in ours] == [None, None]


def test_an_unclosed_variation_is_reported_and_the_next_game_is_read(reader):
    text = b'[Event "a"]\n\n1. e4 (1. d4 d5 e5 *\n\n[Event "b"]\n\n1. c4 *\n'
    games = read_ok(reader, text)
    assert len(games) == 2
    assert games[0][1] == ["e2e4"]
    assert "variation opened on line 3 is never closed" in games[0][3]
    assert games[1][0] == {"Event": "b"} and games[1][1] == ["c2c4"] and games[1][3] is None


@pytest.mark.parametrize(
    "text",
    [
        b'[Event "a"]\n[Result "*"]\n\n\n[Event "b"]\n[Result "*"]\n\n\n',
        b'[Event "a"]\n[Result "*"]\n\n\n[Event "b"]\n[Result "*"]\n',
        b'[Event "a"]\n[Result "*"]',
    ],
    ids=["two blank lines", "end of file", "no newline"],
)
def test_a_last_game_of_tags_alone_is_a_game_without_moves_not_a_truncated_one(reader, text):
    ours = read_ok(reader, text)
    theirs = python_chess_read(text)
    assert [g[0]["Event"] for g in ours] == [g.headers["Event"] for g in theirs]
    assert [(g[1], g[3]) for g in ours] == [([], None)] * len(theirs)


def test_a_file_ending_inside_a_variation_says_so(reader):
    (game,) = read_ok(reader, b"1. e4 (1. d4 d5")
    assert game[3] == "truncated: the input ends inside the variation opened on line 1"


# ---------------------------------------------------------------------------- memory


def test_a_huge_token_is_cut_in_the_message(reader):
    (game,) = read_ok(reader, b"1. e4 " + b"\x00" * 5_000_000 + b" *\n")
    assert game[3].startswith("not a move in SAN: ")
    assert len(game[3]) < 200, game[3][:300]
    (game,) = read_ok(reader, b"1. e4 N" + b"a" * 5_000_000 + b" *\n")
    assert len(game[3]) < 300, game[3][:300]
    (game,) = read_ok(reader, b'[Event "' + b"x" * 5_000_000 + b'"]\n\n1. e4 *\n')
    assert game[1] == ["e2e4"] and len(game[0]["Event"]) <= 4096


# ---------------------------------------------------------------------------- sources


def test_text_streams_read_as_binary_ones_do():
    text = (DATA / "book_games.pgn").read_text(encoding="utf-8")
    expected = [(g.headers, g.moves) for g in kibitz.read_games(io.BytesIO(text.encode()))]
    assert [(g.headers, g.moves) for g in kibitz.read_games(io.StringIO(text))] == expected
    non_ascii = '[White "Müller ♘"]\n\n1. e4 *\n' * 3000  # read(n) gives n characters, more bytes
    assert [g.headers["White"] for g in kibitz.read_games(io.StringIO(non_ascii))] == ["Müller ♘"] * 3000


def test_bytes_beyond_what_was_asked_are_kept():
    data = (DATA / "book_games.pgn").read_bytes()

    class Generous(io.RawIOBase):
        """A file object that ignores n and returns whole lumps."""

        def __init__(self) -> None:
            self.left = data

        def read(self, n: int = -1) -> bytes:
            out, self.left = self.left[:100_000], self.left[100_000:]
            return out

        def readable(self) -> bool:
            return True

    expected = [(g.headers, g.moves) for g in kibitz.read_games(io.BytesIO(data * 8))]
    big = data * 8
    lumps = Generous()
    lumps.left = big
    assert [(g.headers, g.moves) for g in kibitz.read_games(lumps)] == expected


def test_a_source_that_gives_neither_bytes_nor_str_is_a_clear_error():
    class Odd:
        def read(self, n: int) -> list[int]:
            return [1, 2]

    with pytest.raises(TypeError, match="binary mode"):
        list(kibitz.read_games(Odd()))  # type: ignore[arg-type]


def test_tags_that_are_not_utf8_are_read_as_windows_1252():
    data = '[White "Müller"]\n[Black "Šťastný – €"]\n\n1. e4 *\n'.encode("cp1252", errors="replace")
    (game,) = kibitz.read_games(io.BytesIO(data))
    assert game.headers == {"White": "Müller", "Black": data.split(b'"')[3].decode("cp1252")}
    utf8 = '[White "Müller"]\n\n1. e4 *\n'.encode()
    assert next(kibitz.read_games(io.BytesIO(utf8))).headers["White"] == "Müller"


# ---------------------------------------------------------------------------- SAN lines


def _knight_shuffle(plies: int) -> list[str]:
    cycle = ["g1f3", "g8f6", "f3g1", "f6g8"]
    return [cycle[i % 4] for i in range(plies)]


def test_san_line_takes_time_linear_in_the_game_length():
    """Four times the plies take about four times the time (a quadratic san_line took ten
    times and more): the best of interleaved runs of each, as a ratio, so the machine's
    speed matters little. The time is the thread's CPU time (san_line runs on the calling
    thread), so a busy machine that preempts the longer run does not stretch it: by the
    wall clock, with two other jobs on two cores, the ratio once read 11."""
    fen = chess.STARTING_FEN
    n = 8_000
    short, long = _knight_shuffle(n), _knight_shuffle(4 * n)
    assert san_line(fen, short[:4]) == ["Nf3", "Nf6", "Ng1", "Ng8"]
    best = {n: float("inf"), 4 * n: float("inf")}
    gc.disable()
    try:
        for _ in range(5):
            for moves in (short, long):
                t = time.thread_time()
                out = san_line(fen, moves)
                best[len(moves)] = min(best[len(moves)], time.thread_time() - t)
                assert len(out) == len(moves)
    finally:
        gc.enable()
    ratio = best[4 * n] / best[n]
    assert ratio < 7, ratio


def test_utf16_files_with_a_byte_order_mark_are_read(tmp_path):
    text = (DATA / "book_games.pgn").read_text(encoding="utf-8").replace('[Event "test 1"]', '[Event "Müller"]')
    expected = [(g.headers, g.moves, g.error) for g in kibitz.read_games(io.BytesIO(text.encode()))]
    for encoding in ("utf-16", "utf-16-be"):
        data = text.encode(encoding)
        if encoding == "utf-16-be":
            data = b"\xfe\xff" + data
        path = tmp_path / f"{encoding}.pgn"
        path.write_bytes(data)
        assert [(g.headers, g.moves, g.error) for g in kibitz.read_games(path)] == expected
        source = io.BytesIO(data)
        assert [(g.headers, g.moves, g.error) for g in kibitz.read_games(source)] == expected
        assert not source.closed


def test_game_node_subclasses_make_their_own_children() -> None:
    # python-chess's way of extending the tree: a node class whose add_variation makes the
    # children, and read_game(..., Visitor=MyGame.builder) building with it.
    import kibitz.pgn

    class MyGameNode(kibitz.pgn.GameNode):
        def add_variation(self, move, *, comment="", starting_comment="", nags=()):  # type: ignore[no-untyped-def]
            return MyChildNode(self, move, comment=comment, starting_comment=starting_comment, nags=nags)

    class MyChildNode(kibitz.pgn.ChildNode, MyGameNode):
        pass

    class MyGame(kibitz.pgn.Game, MyGameNode):
        pass

    game = kibitz.pgn.read_game(io.StringIO("1. e4 (1. d4 d5) e5 2. Nf3 *"), Visitor=MyGame.builder)
    assert isinstance(game, MyGame)
    nodes = list(game.mainline()) + [game.variations[1], game.variations[1].variations[0]]
    assert [n.move.uci() for n in nodes] == ["e2e4", "e7e5", "g1f3", "d2d4", "d7d5"]
    assert all(isinstance(n, MyChildNode) for n in nodes)
