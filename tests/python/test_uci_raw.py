"""Scripted raw UCI sessions with a real ``kibitz`` process: protocol details and bad input."""

from __future__ import annotations

import os
import pty
import re
import select
import shutil
import subprocess
import sys
import time
from types import SimpleNamespace

import chess
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kibitz.uci import format_info
from uci_session import RawUci, has_real_engine, kibitz_command

# Tests whose answer depends on the search finding the right move.
real_search = pytest.mark.skipif(not has_real_engine(), reason="needs the real search (kibitz.Engine)")

REQUIRED_OPTIONS = [
    "Hash",
    "Clear Hash",
    "Threads",
    "MultiPV",
    "Ponder",
    "OwnBook",
    "BookFile",
    "Move Overhead",
    "UCI_LimitStrength",
    "UCI_Elo",
    "UCI_Chess960",
]
MATE_IN_1 = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"  # Rd8#
FOOLS_MATE = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
STALEMATE = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"


@pytest.fixture
def uci():
    s = RawUci()
    yield s
    code = s.close()
    assert code == 0
    assert b"Traceback" not in s.stderr, s.stderr.decode(errors="replace")


def bestmoves(lines):
    return [l for l in lines if l.startswith("bestmove")]


def legal_in(fen, move):
    b = chess.Board(fen)
    return chess.Move.from_uci(move) in b.legal_moves


def test_handshake(uci):
    uci.send("uci")
    uci.expect("uciok")
    lines = uci.seen
    # Driven by a program (stdin is a pipe): nothing before the protocol's own answer.
    assert lines[0].startswith("id name kibitz")
    assert any(l.startswith("id author ") for l in lines)
    names = [re.match(r"option name (.*?) type ", l).group(1) for l in lines if l.startswith("option ")]
    for name in REQUIRED_OPTIONS:
        assert name in names
    uci.send("debug on")
    uci.send("debug off")
    uci.send("register later")
    uci.send("register name kibitz code 1234")
    assert uci.sync() == []


def test_isready_answered_during_search_and_one_bestmove(uci):
    uci.send("position startpos")
    uci.send("go infinite")
    time.sleep(0.2)
    t = time.monotonic()
    uci.send("isready")
    uci.expect("readyok", timeout=2)
    assert time.monotonic() - t < 1.0
    assert bestmoves(uci.seen) == []
    uci.send("stop")
    line = uci.expect("bestmove")
    assert legal_in(chess.STARTING_FEN, line.split()[1])
    # a second stop, a ponderhit with nothing running: no second bestmove
    uci.send("stop")
    uci.send("ponderhit")
    uci.sync()
    assert len(bestmoves(uci.seen)) == 1


def test_go_before_position_searches_start_position(uci):
    uci.send("setoption name OwnBook value false")
    uci.send("go depth 2")
    line = uci.expect("bestmove")
    assert legal_in(chess.STARTING_FEN, line.split()[1])


def test_book_move_by_default(uci):
    uci.send("position startpos moves e2e4")
    uci.send("go wtime 60000 btime 60000")
    line = uci.expect("bestmove")
    assert any("book move" in l for l in uci.seen)
    move = line.split()[1]
    assert move in {"e7e5", "c7c5", "e7e6", "c7c6", "d7d6", "d7d5", "g8f6", "g7g6"}


def test_every_go_gets_exactly_one_bestmove(uci):
    uci.send("setoption name OwnBook value false")
    uci.send("position startpos moves e2e4")
    for go in [
        "go depth 1",
        "go nodes 500",
        "go movetime 50",
        "go wtime 500 btime 500 winc 5 binc 5",
        "go wtime 3000 btime 3000 movestogo 1",
        "go depth 3 searchmoves a7a6",
    ]:
        uci.send(go)
        uci.expect("bestmove")
    # go while searching: the first search is stopped and answered, then the second
    uci.send("go infinite")
    uci.send("go depth 1")
    time.sleep(0.3)
    uci.sync()
    assert len(bestmoves(uci.seen)) == 8
    uci.send("go infinite")
    uci.send("stop")
    uci.expect("bestmove")
    uci.sync()
    assert len(bestmoves(uci.seen)) == 9


def test_searchmoves_and_info_fields(uci):
    uci.send("setoption name OwnBook value false")
    uci.send("position startpos")
    uci.send("go depth 4 searchmoves a2a3 h2h3")
    line = uci.expect("bestmove")
    assert line.split()[1] in ("a2a3", "h2h3")
    infos = [l for l in uci.seen if l.startswith("info depth")]
    assert infos
    last = infos[-1].split()
    for field in ("depth", "seldepth", "multipv", "score", "nodes", "nps", "hashfull", "time", "pv"):
        assert field in last, infos[-1]
    assert last[last.index("pv") + 1] in ("a2a3", "h2h3")


@real_search
def test_go_mate(uci):
    uci.send(f"position fen {MATE_IN_1}")
    uci.send("go mate 1")
    line = uci.expect("bestmove")
    assert line.split()[1] == "d1d8"
    assert any("score mate 1" in l for l in uci.seen)


def test_mated_and_stalemated_positions(uci):
    uci.send(f"position fen {FOOLS_MATE}")
    uci.send("go depth 3")
    assert uci.expect("bestmove") == "bestmove (none)"
    assert any("score mate 0" in l for l in uci.seen)
    uci.send(f"position fen {STALEMATE}")
    uci.send("go movetime 100")
    assert uci.expect("bestmove") == "bestmove (none)"
    uci.send("go infinite")
    time.sleep(0.2)
    assert len(bestmoves(uci.seen)) == 2  # infinite: no bestmove before stop
    uci.send("stop")
    assert uci.expect("bestmove") == "bestmove (none)"


@real_search
def test_infinite_never_answers_before_stop(uci):
    uci.send(f"position fen {MATE_IN_1}")
    uci.send("go infinite")
    lines = uci.collect(0.6)
    assert bestmoves(lines) == []
    uci.send("stop")
    assert uci.expect("bestmove").split()[1] == "d1d8"


@pytest.mark.parametrize(
    "option",
    [
        "UseNNUE value false",
        "Hash value 32",
        "EvalFile value /nonexistent.nnue",
        "SyzygyPath value /nonexistent",
        "Threads value 2",
        "Clear Hash",
    ],
)
def test_an_option_set_during_the_first_search_leaves_it_stoppable(uci, option):
    """No isready before the first go: the search's worker makes the engine while the
    option arrives. There must be one engine, the one stop reaches (UseNNUE used to make a
    second one, and the search then ran on, deaf to stop, ponderhit and quit)."""
    uci.send("setoption name OwnBook value false")
    uci.send("position startpos")
    uci.send("go infinite")
    uci.send(f"setoption name {option}")
    assert bestmoves(uci.collect(0.3)) == []
    uci.send("stop")
    assert legal_in(chess.STARTING_FEN, uci.expect("bestmove", timeout=5).split()[1])
    uci.sync()
    uci.send("go depth 3")
    assert legal_in(chess.STARTING_FEN, uci.expect("bestmove", timeout=10).split()[1])


@real_search
def test_the_last_info_line_counts_every_node_searched(uci):
    """A node limit stops the search inside an iteration: the line before bestmove says
    how many nodes were searched in all (Stockfish's last line does), not the count at the
    end of the last whole iteration."""
    uci.send("setoption name OwnBook value false")
    uci.send("position startpos")
    uci.send("go nodes 60000")
    uci.expect("bestmove")
    infos = [l for l in uci.seen if l.startswith("info depth")]
    last = infos[-1].split()
    nodes = int(last[last.index("nodes") + 1])
    assert 60000 <= nodes <= 61000, infos[-3:]
    assert " pv " in infos[-1] and " score " in infos[-1]


def test_ponder_waits_for_ponderhit(uci):
    uci.send("setoption name Ponder value true")
    uci.send("setoption name OwnBook value false")
    uci.send("position startpos moves e2e4 e7e5")
    uci.send("go ponder depth 2")  # the search ends long before ponderhit
    assert bestmoves(uci.collect(0.5)) == []
    t = time.monotonic()
    uci.send("ponderhit")
    line = uci.expect("bestmove", timeout=5)
    assert time.monotonic() - t < 2
    assert legal_in(chess.Board("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2").fen(), line.split()[1])


def test_ponderhit_switches_to_the_clock(uci):
    uci.send("setoption name OwnBook value false")
    uci.send("position startpos moves e2e4 e7e5")
    uci.send("go ponder wtime 2000 btime 2000 winc 0 binc 0")
    assert bestmoves(uci.collect(1.0)) == []  # no clock runs while pondering
    t = time.monotonic()
    uci.send("ponderhit")
    uci.expect("bestmove", timeout=5)
    # the budget after ponderhit is that of a 2 s clock: well under the 2 s
    assert time.monotonic() - t < 1.0


def test_ponder_stop(uci):
    uci.send("position startpos moves d2d4")
    uci.send("go ponder wtime 10000 btime 10000")
    time.sleep(0.3)
    uci.send("stop")
    uci.expect("bestmove")
    uci.sync()
    assert len(bestmoves(uci.seen)) == 1


BAD_INPUT = [
    ("xyzzy", "unknown command"),
    ("position", "position needs"),
    ("position fen", "needs a FEN"),
    ("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "bad FEN"),
    ("position fen 8/8/8/8/8/8/8/8 w - - 0 1", "bad FEN"),
    ("position banana", "startpos or fen"),
    ("setoption name Hash value 0", "out of range"),
    ("setoption name Hash value lots", "integer"),
    ("setoption name MultiPV value 1000", "out of range"),
    ("setoption name UCI_Elo value 3500", "out of range"),
    ("setoption name Ponder value maybe", "true or false"),
    ("setoption name NoSuchOption value 3", "no such option"),
    ("setoption", "setoption needs"),
    ("debug sideways", "on or off"),
]


@pytest.mark.parametrize("line,problem", BAD_INPUT)
def test_bad_input_is_reported_and_nothing_lost(uci, line, problem):
    good = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    uci.send(f"position fen {good}")
    uci.send(line)
    out = uci.sync()
    assert any(l.startswith("info string") and problem in l for l in out), out
    uci.send("d")
    fen_line = uci.expect(lambda l: "Fen:" in l)
    assert fen_line.split("Fen: ")[1] == good
    uci.send("setoption name OwnBook value false")
    uci.send("go depth 1")
    if line.startswith("position"):
        # The GUI's position is unknown: nothing is searched (the board is kept for `d`).
        assert uci.expect("bestmove") == "bestmove (none)"
    else:
        assert legal_in(good, uci.expect("bestmove").split()[1])


def test_bad_move_keeps_the_moves_before_it(uci):
    uci.send("position startpos moves e2e4 e7e5 e1e3 g1f3")
    out = uci.sync()
    msg = [l for l in out if l.startswith("info string")]
    assert msg and "e1e3" in msg[0] and "move 3" in msg[0]
    uci.send("d")
    fen = uci.expect(lambda l: "Fen:" in l).split("Fen: ")[1]
    assert fen == "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    uci.send("position startpos moves e2e4 zzz")
    out = uci.sync()
    assert any("zzz" in l for l in out)


def test_a_null_move_passes_the_turn_but_never_in_check(uci):
    # python-chess sends 0000 for a null move in a board's history (to see what a side
    # threatens); played in check it would leave the side that passed in check, which no
    # game reaches: it is refused like an illegal move, and the moves before it are kept.
    uci.send("setoption name OwnBook value false")
    ref = chess.Board()
    for m in ("e2e4", "0000", "d2d4"):
        ref.push_uci(m)
    uci.send("position startpos moves e2e4 0000 d2d4")
    uci.send("d")
    assert uci.expect(lambda l: "Fen:" in l).split("Fen: ")[1] == ref.fen()
    fen = "4k3/8/8/8/8/8/4q3/4K3 w - - 0 1"
    uci.send(f"position fen {fen} moves 0000 e2e1")
    out = uci.sync()
    msg = [l for l in out if l.startswith("info string") and "0000" in l]
    assert msg and "move 1 of 2" in msg[0] and "null move in check" in msg[0], out
    uci.send("d")
    assert uci.expect(lambda l: "Fen:" in l).split("Fen: ")[1] == fen
    uci.send("go depth 3")
    assert legal_in(fen, uci.expect("bestmove").split()[1])
    assert not any("search error" in l for l in uci.seen), uci.seen


def test_bad_go_parameters(uci):
    uci.send("setoption name OwnBook value false")
    uci.send("go depth banana")  # depth ignored: a go without limits, which runs until stop
    assert "not a number" in uci.expect("info string")
    uci.send("stop")
    uci.expect("bestmove")


def test_bad_go_parameters_then_limit(uci):
    uci.send("setoption name OwnBook value false")
    uci.send("go depth banana nodes 1000 frobnicate")
    line = uci.expect("bestmove")
    infos = [l for l in uci.seen if l.startswith("info string")]
    assert any("banana" in l for l in infos) and any("frobnicate" in l for l in infos)
    assert legal_in(chess.STARTING_FEN, line.split()[1])
    uci.send("go movetime -5")
    uci.send("go wtime -100 btime -100")  # a flagged clock: answer at once
    uci.expect("bestmove")
    uci.expect("bestmove")
    # The value refused is the one sent, not the one it was clamped to.
    assert any("go movetime -5 is not positive" in l for l in uci.seen), uci.seen


def test_a_promotion_letter_in_capitals_is_read_as_stockfish_reads_it(uci):
    uci.send("setoption name OwnBook value false")
    uci.send("position fen 8/4P3/8/8/8/8/k7/7K w - - 0 1 moves e7e8Q a2a3")
    uci.send("go depth 1")
    after = chess.Board("8/4P3/8/8/8/8/k7/7K w - - 0 1")
    for m in ("e7e8q", "a2a3"):
        after.push_uci(m)
    assert legal_in(after.fen(), uci.expect("bestmove").split()[1])  # White to move after a2a3
    uci.send("position fen 8/4P3/8/8/8/8/k7/7K w - - 0 1")
    uci.send("go depth 3 searchmoves e7e8N")
    assert uci.expect("bestmove").split()[1] == "e7e8n"


def test_binary_garbage_and_long_lines(uci):
    uci.send(b"\xff\xfe\x00garbage\x80")
    uci.send("x" * 100_000)
    uci.send("\t  \t")
    uci.send("")
    out = uci.sync()
    assert len([l for l in out if l.startswith("info string")]) == 2
    assert uci.alive()


def test_unknown_token_before_command(uci):
    # UCI: unknown tokens are skipped and the rest of the line is parsed.
    uci.send("joho isready")
    uci.expect("readyok")


def test_chess960_castling(uci):
    fen = "nrkbbqrn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBQRN w GBgb - 0 1"
    uci.send("setoption name UCI_Chess960 value true")
    uci.send(f"position fen {fen} moves b1a3")  # illegal: the b1 rook cannot reach a3
    assert any("b1a3" in l for l in uci.sync())
    fen2 = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    uci.send(f"position fen {fen2} moves e1h1")
    out = uci.sync()
    assert not any("illegal" in l for l in out), out
    uci.send("d")
    assert uci.expect(lambda l: "Fen:" in l).split("Fen: ")[1].startswith("r3k2r/8/8/8/8/8/8/R4RK1 b kq")
    uci.send("setoption name OwnBook value false")
    uci.send(f"position fen {fen2}")
    uci.send("go depth 2 searchmoves e1h1 e1a1")
    assert uci.expect("bestmove").split()[1] in ("e1h1", "e1a1")


def test_end_of_input_stops_a_finite_search_and_exits_after_its_bestmove():
    # depth 120 would take hours: at the end of input nobody can send stop, so the search
    # is stopped, its bestmove written, and the process ends.
    start = time.monotonic()
    p = subprocess.run(
        kibitz_command(),
        input=b"setoption name OwnBook value false\nposition startpos\ngo depth 120\n",
        capture_output=True,
        timeout=60,
    )
    assert time.monotonic() - start < 20
    assert p.returncode == 0
    out = p.stdout.decode().splitlines()
    assert len(bestmoves(out)) == 1
    assert legal_in(chess.STARTING_FEN, bestmoves(out)[0].split()[1])


KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def answer_at_once(uci, limit: str) -> str:
    """The move of ``go LIMIT`` from Kiwipete, which must come at once, legal, and leave
    the session answering."""
    uci.send("setoption name OwnBook value false")
    uci.send(f"position fen {KIWIPETE}")
    start = time.monotonic()
    uci.send(f"go {limit}")
    move = uci.expect("bestmove", timeout=10).split()[1]
    assert time.monotonic() - start < 5
    assert legal_in(KIWIPETE, move)
    uci.sync()  # still answering
    return move


@pytest.mark.parametrize("limit", ["depth 0", "nodes 0", "mate 0", "depth 0 nodes 0 mate 0"])
def test_go_with_a_zero_depth_nodes_or_mate_answers_at_once_with_a_legal_move(uci, limit):
    answer_at_once(uci, limit)


@pytest.mark.parametrize(
    "limit", ["depth -3", "nodes x", "movetime -5", "mate", "depth -1 nodes -1", "depth -3 searchmoves e1g1"]
)
def test_go_whose_every_limit_is_refused_answers_at_once_instead_of_searching_forever(uci, limit):
    """A go that asked for a limit, none of which can be read, is answered at once (as a
    depth 0 is, and as Stockfish answers ``go depth -3``): without a stop the GUI has no
    reason to send, a search without limits would never end."""
    move = answer_at_once(uci, limit)
    if "searchmoves" in limit:
        assert move == "e1g1"
    assert "info string go: no limit left to search to: answering at once" in uci.seen


@pytest.mark.parametrize("limit", ["depth -3 infinite", "nodes x ponder", "depth -3 wtime 100000 btime 100000"])
def test_a_refused_limit_beside_a_usable_one_keeps_that_one(uci, limit):
    uci.send("setoption name OwnBook value false")
    uci.send(f"go {limit}")
    assert not any(line.startswith("bestmove") for line in uci.collect(0.5))
    assert "info string go: no limit left to search to: answering at once" not in uci.seen
    uci.send("stop")
    uci.expect("bestmove")


def test_quit_during_search():
    s = RawUci()
    s.send("go infinite")
    time.sleep(0.2)
    s.send("quit")
    assert s.proc.wait(10) == 0


def test_debug_shows_budget(uci):
    uci.send("setoption name OwnBook value false")
    uci.send("debug on")
    uci.send("go wtime 10000 btime 10000 winc 100 binc 100")
    uci.expect("bestmove")
    assert any("budget soft 473" in l for l in uci.seen)


def test_deferred_hash_change(uci):
    uci.send("setoption name OwnBook value false")
    uci.send("go depth 1")
    uci.expect("bestmove")
    uci.send("go infinite")
    uci.send("setoption name Hash value 32")
    uci.send("setoption name Clear Hash")
    out = uci.sync()
    assert any("takes effect" in l for l in out)
    uci.send("stop")
    uci.expect("bestmove")
    uci.send("go depth 2")
    uci.expect("bestmove")


@pytest.fixture(scope="module")
def shared_uci():
    s = RawUci()
    s.send("setoption name OwnBook value false")
    yield s
    assert s.alive()
    assert s.close() == 0


COMMAND_WORDS = [
    "uci",
    "isready",
    "setoption",
    "name",
    "value",
    "position",
    "startpos",
    "fen",
    "moves",
    "go",
    "stop",
    "ponderhit",
    "ucinewgame",
    "debug",
    "register",
    "depth",
    "nodes",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "infinite",
    "ponder",
    "mate",
    "searchmoves",
    "Hash",
    "MultiPV",
    "e2e4",
    "e7e5",
    "g1f3",
    "-1",
    "0",
    "1",
    "99999999999999999999",
    "true",
    "on",
    "off",
    "8/8/8/8/8/8/8/8",
    "w",
    "b",
    "KQkq",
    "-",
    "UCI_Chess960",
    "OwnBook",
    "BookFile",
]


def harmless(line: str) -> bool:
    """Lines the garbage test may send: anything but quit (which rightly ends the
    process), new lines, and options that would load files or allocate memory."""
    words = line.split()
    return (
        "quit" not in words
        and "\n" not in line
        and "\r" not in line
        and "BookFile" not in words
        and "Hash" not in words
    )


garbage_line = st.one_of(
    st.text(min_size=0, max_size=200),
    st.lists(st.sampled_from(COMMAND_WORDS) | st.text(max_size=8), max_size=12).map(" ".join),
).filter(harmless)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(garbage_line, min_size=1, max_size=5))
def test_garbage_never_ends_the_process(shared_uci, lines):
    for line in lines:
        shared_uci.send(line.encode("utf-8", "surrogatepass"))
    shared_uci.send("stop")
    shared_uci.sync(timeout=30)
    assert shared_uci.alive()


def test_tty_banner_and_silence_when_piped():
    pid, fd = pty.fork()
    if pid == 0:  # child: kibitz with the pty as stdin/stdout
        os.execv(kibitz_command()[0], kibitz_command())
    try:
        out = b""
        deadline = time.monotonic() + 20
        while b"help" not in out and time.monotonic() < deadline:
            r, _, _ = select.select([fd], [], [], 0.5)
            if r:
                try:
                    out += os.read(fd, 4096)
                except OSError:
                    break
        os.write(fd, b"quit\n")
        text = out.decode(errors="replace")
        assert "UCI chess engine" in text and "kibitz --help" in text
    finally:
        os.waitpid(pid, 0)
        os.close(fd)


def test_help_lists_subcommands():
    p = subprocess.run(kibitz_command() + ["--help"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0
    for sub in ("uci", "book", "play", "perft"):
        assert sub in p.stdout


def test_console_script_installed():
    exe = shutil.which("kibitz") or os.path.join(os.path.dirname(sys.executable), "kibitz")
    assert os.path.exists(exe)


def test_format_info_bounds_and_mate():
    info = SimpleNamespace(
        depth=5,
        seldepth=9,
        multipv=2,
        score_cp=31,
        mate=None,
        bound="lower",
        nodes=1234,
        nps=5678,
        hashfull=12,
        time_ms=217,
        pv=["e2e4", "e7e5"],
    )
    assert format_info(info) == (
        "info depth 5 seldepth 9 multipv 2 score cp 31 lowerbound nodes 1234 nps 5678 hashfull 12 time 217 pv e2e4 e7e5"
    )
    info.mate, info.bound = -3, "upper"
    assert "score mate -3 upperbound" in format_info(info)
    info.bound = "exact"
    assert "bound" not in format_info(info)


def test_show_wdl_adds_win_draw_loss_per_mille_that_follow_the_score(uci):
    """UCI_ShowWDL: off by default (no wdl), on gives `wdl W D L` after the score, summing
    to 1000, with the win share above the loss share exactly when the score is positive,
    and a found mate as certain."""
    uci.send("setoption name OwnBook value false")
    uci.send("position startpos")
    start = len(uci.seen)
    uci.send("go depth 4")
    uci.expect("bestmove")
    assert not any(" wdl " in line for line in uci.seen[start:])
    uci.send("setoption name UCI_ShowWDL value true")
    for fen in (
        "4k3/8/8/8/8/8/8/QQ2K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/qq2K3 w - - 0 1",
        "r1bqkbnr/pppppppp/n7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ):
        uci.send(f"position fen {fen}")
        start = len(uci.seen)
        uci.send("go depth 6")
        uci.expect("bestmove")
        out = uci.seen[start:]
        seen = 0
        for line in out:
            m = re.search(r"score (cp|mate) (-?\d+)(?: \w+bound)? wdl (\d+) (\d+) (\d+) ", line)
            if not m:
                continue
            seen += 1
            kind, value = m.group(1), int(m.group(2))
            w, d, l = (int(m.group(i)) for i in (3, 4, 5))
            assert w + d + l == 1000, line
            if kind == "mate":
                assert (w, l) == ((1000, 0) if value > 0 else (0, 1000)), line
            elif value > 0:
                assert w > l, line
            elif value < 0:
                assert w < l, line
        assert seen > 0, out


# --- analysis users: a forced move analysed, MultiPV lines, strength levels, bad positions --

ONLY_KD7 = "4k2R/B7/2p2K2/1pPr1n2/1P2p3/4p3/r3P3/8 b - - 1 76"  # Black's only move: Kd7


def _last_lines(lines):
    """The last info line of each MultiPV line, by its number."""
    out = {}
    for line in lines:
        words = line.split()
        if line.startswith("info depth") and "pv" in words:
            out[int(words[words.index("multipv") + 1]) if "multipv" in words else 1] = words
    return out


@real_search
def test_a_movetime_analyses_an_only_move_for_the_whole_time(uci):
    """A fixed move time is an analysis: even a forced move is searched for the whole
    time (as Stockfish does), so that its score means something. On a clock the only move
    is played after one iteration."""
    uci.send("setoption name OwnBook value false")
    uci.send(f"position fen {ONLY_KD7}")
    t = time.monotonic()
    uci.send("go movetime 400")
    assert uci.expect("bestmove").split()[1] == "e8d7"
    assert time.monotonic() - t >= 0.35
    depth = int(_last_lines(uci.seen)[1][2])
    assert depth >= 6, uci.seen[-3:]
    uci.send("position startpos")
    t = time.monotonic()
    uci.send("go movetime 400 searchmoves g1f3")  # one root move to analyse
    assert uci.expect("bestmove").split()[1] == "g1f3"
    assert time.monotonic() - t >= 0.35
    uci.send(f"position fen {ONLY_KD7}")
    t = time.monotonic()
    uci.send("go wtime 60000 btime 60000")
    assert uci.expect("bestmove").split()[1] == "e8d7"
    assert time.monotonic() - t < 0.35


@real_search
@pytest.mark.parametrize("nodes", [5000, 10000, 20000])
def test_multipv_lines_as_the_search_ended_name_each_move_once(uci, nodes):
    """A node limit stops the search inside an iteration, which may rank another move
    first: the lines sent last (what a GUI and python-chess's analyse keep) must still name
    each move once, and the first must be the bestmove."""
    uci.send("setoption name OwnBook value false")
    uci.send("setoption name MultiPV value 3")
    fens = [
        "r2k1b1r/2qbpp1p/1pp3pn/p1n5/7P/P1P1PPP1/1PBP2K1/RNB3NR b - - 5 14",
        "r1bqkb1r/1pp1p1pp/p1np1p2/6P1/2B1Q3/2N4P/PP1P1P2/R1B1K1NR w KQkq - 0 9",
        chess.STARTING_FEN,
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8",
    ]
    for fen in fens:
        uci.send("ucinewgame")
        uci.send(f"position fen {fen}")
        start = len(uci.seen)
        uci.send(f"go nodes {nodes}")
        best = uci.expect("bestmove").split()[1]
        lines = _last_lines(uci.seen[start:])
        firsts = [words[words.index("pv") + 1] for _, words in sorted(lines.items())]
        assert sorted(lines) == [1, 2, 3] and len(set(firsts)) == 3, (fen, firsts)
        assert firsts[0] == best


@real_search
def test_a_strength_level_shows_only_the_lines_multipv_asks_for(uci):
    uci.send("setoption name OwnBook value false")
    uci.send("setoption name UCI_LimitStrength value true")
    uci.send("setoption name UCI_Elo value 1400")
    uci.send("position startpos moves e2e4")
    uci.send("go movetime 300")
    uci.expect("bestmove")
    infos = [l for l in uci.seen if l.startswith("info depth")]
    assert infos and all(" multipv 1 " in l for l in infos), infos
    uci.send("setoption name MultiPV value 2")
    start = len(uci.seen)
    uci.send("go movetime 300")
    uci.expect("bestmove")
    assert sorted(_last_lines(uci.seen[start:])) == [1, 2]


@real_search
def test_a_strength_levels_last_line_is_the_move_it_plays(uci):
    """A weak level often plays another move than its best line's: the last line 1 before
    bestmove must then be the played move's line (a GUI shows it, python-chess's play()
    returns its score and pv); before, the pv shown could start with any other move."""
    uci.send("setoption name OwnBook value false")
    uci.send("setoption name UCI_LimitStrength value true")
    uci.send("setoption name UCI_Elo value 1000")
    board = chess.Board()
    for multipv in (1, 2):
        uci.send(f"setoption name MultiPV value {multipv}")
        for ply in range(10):
            uci.send(f"position startpos moves {' '.join(m.uci() for m in board.move_stack)}".rstrip())
            start = len(uci.seen)
            uci.send("go movetime 200")
            best = uci.expect("bestmove").split()[1]
            infos = [l.split() for l in uci.seen[start:] if l.startswith("info depth")]
            ones = [w for w in infos if "pv" in w and w[w.index("multipv") + 1] == "1"]
            assert ones and ones[-1][ones[-1].index("pv") + 1] == best, (board.fen(), best, infos[-3:])
            lines = _last_lines(uci.seen[start:])
            assert sorted(lines) == list(range(1, multipv + 1))
            pv_board = board.copy()
            for m in ones[-1][ones[-1].index("pv") + 1 :]:
                pv_board.push_uci(m)  # the pv shown is legal from the position
            board.push_uci(best)


@pytest.mark.parametrize(
    "position",
    [
        "position fen 8/8/8/8/8/8/4k3/4K3 w - - 0 1",  # no legal placement: kings touch
        "position fen 4k3/8/8/8/8/8/8/8 w - - 0 1",  # no white king
        "position fen",
        "position frobnicate",
    ],
)
def test_go_after_a_refused_position_searches_nothing(uci, position):
    """The GUI's position is unknown after a refused `position`: searching the one before
    it would answer a move that may be illegal in the GUI's (python-chess then raises), so
    go answers bestmove (none) with the reason, until a good position comes."""
    uci.send("setoption name OwnBook value false")
    uci.send("position startpos moves d2d4")
    uci.send(position)
    uci.send("go depth 3")
    assert uci.expect("bestmove") == "bestmove (none)"
    assert any(l.startswith("info string no position to search") for l in uci.seen)
    uci.send("position startpos moves e2e4")
    uci.send("go depth 3")
    assert legal_in(
        chess.Board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").fen(),
        uci.expect("bestmove").split()[1],
    )
    uci.send(position)
    uci.send("ucinewgame")  # a new game starts from the start position
    uci.send("go depth 3")
    assert legal_in(chess.STARTING_FEN, uci.expect("bestmove").split()[1])


def test_searchmoves_naming_no_legal_move_searches_nothing(uci):
    """python-chess's ``root_moves=[]`` sends ``searchmoves 0000``: no move may be chosen,
    so the answer is bestmove (none), as Stockfish's."""
    uci.send("setoption name OwnBook value false")
    uci.send("position startpos")
    uci.send("go depth 3 searchmoves 0000")
    assert uci.expect("bestmove") == "bestmove (none)"
    uci.send("go depth 3 searchmoves e2e5 a1a8")
    assert uci.expect("bestmove") == "bestmove (none)"
    uci.send("go depth 3 searchmoves e2e5 g1f3")
    assert uci.expect("bestmove").split()[1] == "g1f3"


@real_search
def test_a_ponderhit_after_the_ponder_search_ended_repeats_its_lines(uci):
    """python-chess's play reads the lines that come after the ponderhit: a ponder search
    that had already ended sends its lines again before bestmove, so the move has a score."""
    uci.send("setoption name OwnBook value false")
    uci.send("position startpos moves e2e4 e7e5")
    uci.send("go ponder depth 3 wtime 10000 btime 10000")
    uci.expect("info depth 3")  # the ponder search has ended (no ponderhit yet)
    assert bestmoves(uci.collect(0.3)) == []
    start = len(uci.seen)
    uci.send("ponderhit")
    best = uci.expect("bestmove").split()[1]
    after = [l for l in uci.seen[start:] if l.startswith("info depth") and " score " in l]
    assert after and after[-1].split()[after[-1].split().index("pv") + 1] == best
