"""``kibitz perft-diff`` (kibitz.perftdiff): finds planted bugs, agrees with Stockfish,
and fails clearly when the other engine misbehaves.

The broken engines in ``engines/`` generate moves with python-chess and plant one bug
each; the expected answers are checked against python-chess, not only against kibitz.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from pathlib import Path
from typing import Sequence

import chess
import pytest

import reference
from kibitz.cli import main
from kibitz.perftdiff import (
    DivideResult,
    EngineError,
    ScriptEngine,
    UciEngine,
    find_difference,
    format_difference,
    parse_divide_lines,
)

ENGINES = Path(__file__).resolve().parent / "engines"
STOCKFISH = os.environ.get("KIBITZ_STOCKFISH", "/usr/games/stockfish")
needs_stockfish = pytest.mark.skipif(shutil.which(STOCKFISH) is None, reason=f"Stockfish not installed at {STOCKFISH}")


def engine_cmd(name: str, *args: str) -> str:
    return shlex.join([sys.executable, str(ENGINES / name), *args])


KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
# Standard perft positions (https://www.chessprogramming.org/Perft_Results) with depths at
# which Stockfish and kibitz together answer in well under a second.
STANDARD_POSITIONS = [
    (None, 5),
    (KIWIPETE, 4),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5),
    ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 4),
    ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 4),
    ("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 4),
    ("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", 4),
]


def check_steps_independently(root: str | None, diff) -> None:  # type: ignore[no-untyped-def]
    """kibitz's counts along the descent equal python-chess's."""
    board = reference.board_after(root)
    for step, move in zip(diff.steps, diff.path[len(diff.path) - len(diff.steps) :]):
        assert step.move == move
        board.push_uci(move)
        assert step.ours == reference.perft(board, step.depth - 1)
        assert step.theirs != step.ours


# -- against Stockfish ---------------------------------------------------------------------


@needs_stockfish
def test_stockfish_agrees_on_standard_positions() -> None:
    with UciEngine(STOCKFISH) as sf:
        assert sf.name.startswith("Stockfish")
        for fen, depth in STANDARD_POSITIONS:
            assert find_difference(sf.divide, depth, fen) is None, fen


@needs_stockfish
def test_stockfish_agrees_on_chess960_positions() -> None:
    fens = [
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
        "qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 9",
        # A start position where castling is nearly available for both sides.
        "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1",
    ]
    with UciEngine(STOCKFISH, chess960=True) as sf:
        for fen in fens:
            assert find_difference(sf.divide, 4, fen, chess960=True) is None, fen


@needs_stockfish
def test_cli_against_stockfish(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft-diff", "--engine", STOCKFISH, "--moves", "e2e4", "c7c5", "4"]) == 0
    out = capsys.readouterr().out
    assert "No difference" in out and "Stockfish" in out and "depth 4" in out


# -- planted bugs ----------------------------------------------------------------------------


def test_finds_missing_en_passant_exactly() -> None:
    # After ...d7d5 (or ...f7f5) White may take en passant; d7d5 comes first in UCI order.
    root = "rnbqkbnr/pppp1ppp/8/4P3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    with UciEngine(engine_cmd("no_en_passant.py")) as eng:
        diff = find_difference(eng.divide, 3, root)
    assert diff is not None and diff.kind == "moves"
    assert diff.path[0] == "d7d5"
    board = reference.board_after(root, diff.path)
    assert diff.fen == board.fen()
    assert diff.missing == sorted(m.uci() for m in board.legal_moves if board.is_en_passant(m))
    assert diff.missing and diff.extra == []
    check_steps_independently(root, diff)


def test_finds_missing_en_passant_in_kiwipete() -> None:
    with UciEngine(engine_cmd("no_en_passant.py")) as eng:
        diff = find_difference(eng.divide, 3, KIWIPETE)
    assert diff is not None
    # The first root move (UCI order) whose subtree holds an en-passant capture is a1b1;
    # after ...c7c5 the pawn on d5 may take on c6.
    assert diff.path == ["a1b1", "c7c5"]
    assert diff.fen == "r3k2r/p2pqpb1/bn2pnp1/2pPN3/1p2P3/2N2Q1p/PPPBBPPP/1R2K2R w Kkq c6 0 2"
    assert diff.missing == ["d5c6"] and diff.extra == []
    board = reference.board_after(KIWIPETE, diff.path)
    assert board.is_en_passant(chess.Move.from_uci("d5c6"))
    check_steps_independently(KIWIPETE, diff)


def test_finds_castling_through_check() -> None:
    with UciEngine(engine_cmd("castles_through_check.py")) as eng:
        diff = find_difference(eng.divide, 3, KIWIPETE)
    assert diff is not None and diff.kind == "moves"
    # ...Bxe2 (a6e2) attacks f1, so White may no longer castle short; the engine still does.
    assert diff.path == ["a1b1", "a6e2"]
    assert diff.missing == [] and diff.extra == ["e1g1"]
    board = reference.board_after(KIWIPETE, diff.path)
    assert diff.fen == board.fen()
    castle = chess.Move.from_uci("e1g1")
    assert castle not in board.legal_moves
    assert board.is_attacked_by(chess.BLACK, chess.F1) and not board.is_check()
    check_steps_independently(KIWIPETE, diff)


def test_finds_missing_underpromotions_below_the_root() -> None:
    root = "4k3/1P6/8/8/8/8/8/4K3 b - - 0 1"
    with UciEngine(engine_cmd("no_underpromotion.py")) as eng:
        diff = find_difference(eng.divide, 3, root)
    assert diff is not None
    assert diff.path[:1] == ["e8d7"]  # Black's first king move in UCI order
    board = reference.board_after(root, diff.path)
    assert diff.fen == board.fen()
    assert diff.missing == sorted(m.uci() for m in board.legal_moves if m.promotion not in (None, chess.QUEEN))
    assert set(diff.missing) >= {"b7b8n", "b7b8b", "b7b8r"} and diff.extra == []
    check_steps_independently(root, diff)


def test_finds_missing_underpromotions_at_the_root() -> None:
    root = "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1"
    with UciEngine(engine_cmd("no_underpromotion.py")) as eng:
        diff = find_difference(eng.divide, 2, root)
    assert diff is not None and diff.path == [] and diff.steps == []
    expected = sorted(
        m.uci() for m in chess.Board(root).legal_moves if m.promotion in (chess.KNIGHT, chess.BISHOP, chess.ROOK)
    )
    assert diff.missing == expected and len(expected) == 9


def test_script_mode_finds_the_same_bug() -> None:
    moves = ["e2e4", "a7a6", "e4e5", "d7d5"]
    eng = ScriptEngine(engine_cmd("no_en_passant.py", "--script"))
    diff = find_difference(eng.divide, 2, None, moves)
    assert diff is not None
    assert diff.path == moves and diff.missing == ["e5d6"]
    assert diff.fen == reference.board_after(None, moves).fen()
    assert eng.argv(None, moves, 2)[-6:] == [chess.STARTING_FEN, "2", *moves]


def test_script_placeholders_run_kibitz_itself() -> None:
    kibitz_cmd = f"{shlex.quote(sys.executable)} -m kibitz perft --fen {{fen}} {{depth}} --divide --moves {{moves}}"
    eng = ScriptEngine(kibitz_cmd)
    assert eng.argv("8/8/8/8/8/8/8/k6K w - - 0 1", ["h1g1"], 2)[-7:] == [
        "perft",
        "--fen",
        "8/8/8/8/8/8/8/k6K w - - 0 1",
        "2",
        "--divide",
        "--moves",
        "h1g1",
    ]
    assert find_difference(eng.divide, 3, KIWIPETE, ["e1g1"]) is None


def test_chess960_uci_mode_with_a_correct_engine() -> None:
    fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
    with UciEngine(engine_cmd("perft_engine.py"), chess960=True) as eng:
        assert find_difference(eng.divide, 2, fen, chess960=True) is None
        # Castling at once, both sides, written king takes rook (b1a1, b1h1) by both.
        assert find_difference(eng.divide, 2, "rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1", chess960=True) is None


def test_cli_reports_difference(capsys: pytest.CaptureFixture[str]) -> None:
    root = "rnbqkbnr/pppp1ppp/8/4P3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    rc = main(["perft-diff", "--engine", engine_cmd("no_en_passant.py"), "--fen", root, "2"])
    out = capsys.readouterr().out
    assert rc == 1
    leaf = reference.board_after(root, ["d7d5"]).fen()
    assert f"position: {leaf}" in out
    assert "path:     d7d5" in out
    assert "moves it misses: e5d6" in out
    assert "moves it has that are not legal: (none)" in out
    assert f"kibitz perft --fen '{leaf}' 1 --divide" in out
    assert "position fen " + root + " moves d7d5\\ngo perft 1" in out


def test_cli_reproduce_commands_work(capsys: pytest.CaptureFixture[str]) -> None:
    """The printed kibitz commands, run as printed, show the divide of the named position."""
    rc = main(["perft-diff", "--script", engine_cmd("no_en_passant.py", "--script"), "--fen", KIWIPETE, "3"])
    out = capsys.readouterr().out
    assert rc == 1
    commands = [line.strip() for line in out.splitlines() if line.strip().startswith("kibitz perft ")]
    assert len(commands) == 2
    for command in commands:
        assert main(shlex.split(command)[1:]) == 0
        shown = capsys.readouterr().out
        assert "d5c6: 1" in shown


# -- the search itself, with Python generators -------------------------------------------------


def chess_divide(fen: str | None, moves: Sequence[str], depth: int) -> dict[str, int]:
    """python-chess's divide, in the form find_difference calls."""
    return reference.divide(reference.board_after(fen, moves), depth)


def test_python_callable_without_difference() -> None:
    assert find_difference(chess_divide, 3, KIWIPETE) is None


def test_count_kind_at_depth_one() -> None:
    def wrong(fen: str | None, moves: Sequence[str], depth: int) -> DivideResult:
        counts = chess_divide(fen, moves, depth)
        counts["g1f3"] += 1
        return DivideResult(counts, sum(counts.values()))

    diff = find_difference(wrong, 1)
    assert diff is not None and diff.kind == "count" and "g1f3" in diff.note


def test_total_that_is_not_the_sum() -> None:
    def bad_total(fen: str | None, moves: Sequence[str], depth: int) -> DivideResult:
        counts = chess_divide(fen, moves, depth)
        return DivideResult(counts, sum(counts.values()) + 1)

    diff = find_difference(bad_total, 2, KIWIPETE)
    assert diff is not None and diff.kind == "total" and diff.path == [] and "2040, not their sum 2039" in diff.note


def test_inconsistent_engine_is_named() -> None:
    with UciEngine(engine_cmd("misbehaving.py", "inconsistent")) as eng:
        diff = find_difference(eng.divide, 3, None)
    assert diff is not None and diff.kind == "inconsistent"
    # The engine inflates the first move it lists, python-chess's first: g1h3, then g8h6.
    assert diff.path == ["g1h3", "g8h6"]
    assert [(s.ours, s.theirs) for s in diff.steps] == [(400, 401), (20, 21)]
    report = format_difference(diff, eng.name, eng.reproduce)
    assert "position startpos moves g1h3\\ngo perft 2" in report  # the parent, too


def test_depth_and_bad_root_are_rejected() -> None:
    with pytest.raises(ValueError):
        find_difference(chess_divide, 0)
    from kibitz import FenError, IllegalMoveError

    with pytest.raises(FenError):
        find_difference(chess_divide, 2, "not a fen")
    with pytest.raises(IllegalMoveError):
        find_difference(chess_divide, 2, None, ["e2e5"])


# -- reading answers ---------------------------------------------------------------------------


def test_parse_stockfish_style_output() -> None:
    text = "info string NNUE enabled\n\na2a3: 380\nb7b8Q: 2\n\nNodes searched: 382\n"
    result = parse_divide_lines(text.splitlines())
    assert result.counts == {"a2a3": 380, "b7b8q": 2} and result.total == 382


@pytest.mark.parametrize(
    "text, message",
    [
        ("a2a3: 1\na2a3: 1\nNodes searched: 2", "twice"),
        ("a2a3: 1\n", "no 'Nodes searched: N'"),
        ("perft 3 = 8902\n", "'perft 3 = 8902'"),
        ("Nodes searched: 20\n", "no 'move: count'"),
    ],
)
def test_parse_rejects_other_formats(text: str, message: str) -> None:
    with pytest.raises(EngineError, match=message):
        parse_divide_lines(text.splitlines())


def test_no_moves_is_a_valid_answer() -> None:
    assert parse_divide_lines(["", "Nodes searched: 0"]).counts == {}


# -- engines that misbehave --------------------------------------------------------------------

# Short waits keep these tests fast; the engines fail at once or never answer. (Starting
# a Python engine takes ~0.2 s, so the handshake keeps its default, generous timeout.)
SHORT = 0.5


@pytest.mark.parametrize(
    "mode, message",
    [
        ("silent", r"gave no 'Nodes searched: N' after 'go perft 2' .*within 0.5 s"),
        ("search", r"searched instead of counting.*bestmove e2e4"),
        ("format", r"gave no 'Nodes searched: N'.*It printed: 'perft 2 = 8902'"),
        ("crash", r"exited with code 3 .*segmentation fault \(simulated\)"),
        ("not_uci", r"no answer 'uciok' to 'uci'.*is it a UCI engine"),
        ("no_divide", r"no 'move: count' lines"),
    ],
)
def test_misbehaving_engine_errors(mode: str, message: str) -> None:
    # not_uci never finishes the handshake: shorten that wait for it only (not below a
    # second, so that the engine has started and its answer is quoted on a busy machine).
    handshake = 1.0 if mode == "not_uci" else 10.0
    with pytest.raises(EngineError, match=message):
        with UciEngine(engine_cmd("misbehaving.py", mode), timeout=SHORT, handshake_timeout=handshake) as eng:
            eng.divide(None, [], 2)


def test_failed_handshake_leaves_no_process(monkeypatch: pytest.MonkeyPatch) -> None:
    import subprocess

    started: list[subprocess.Popen[str]] = []
    real_popen = subprocess.Popen

    def recording_popen(*args, **kwargs):  # type: ignore[no-untyped-def]
        proc = real_popen(*args, **kwargs)
        started.append(proc)
        return proc

    monkeypatch.setattr("kibitz.perftdiff.subprocess.Popen", recording_popen)
    with pytest.raises(EngineError):
        UciEngine(engine_cmd("misbehaving.py", "not_uci"), handshake_timeout=1.0).start()
    assert len(started) == 1 and started[0].poll() is not None


def test_engine_that_does_not_exist() -> None:
    with pytest.raises(EngineError, match="cannot start engine"):
        UciEngine("/nonexistent/engine").start()


def test_engine_without_chess960_option() -> None:
    with pytest.raises(EngineError, match="no UCI_Chess960 option"):
        with UciEngine(engine_cmd("misbehaving.py", "no960"), timeout=SHORT, chess960=True):
            pass


def test_script_failures() -> None:
    with pytest.raises(EngineError, match="exit code 1.*cannot parse FEN"):
        ScriptEngine(engine_cmd("misbehaving.py", "script_fail")).divide(None, [], 2)
    with pytest.raises(EngineError, match="did not finish within 0.5 s"):
        ScriptEngine(engine_cmd("misbehaving.py", "script_slow"), timeout=SHORT).divide(None, [], 2)
    with pytest.raises(EngineError, match="cannot run script"):
        ScriptEngine("/nonexistent/script").divide(None, [], 2)


def test_cli_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft-diff", "--engine", engine_cmd("misbehaving.py", "crash"), "2"]) == 2
    assert "exited with code 3" in capsys.readouterr().err
    assert main(["perft-diff", "--script", "/nonexistent/script", "--fen", "bad fen", "2"]) == 2
    assert "kibitz perft-diff:" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:
        main(["perft-diff", "--script", "/nonexistent/script", "0"])
    assert e.value.code == 2 and "depth must be a positive integer" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["perft-diff", "3"])  # neither --engine nor --script


def test_moves_go_to_the_engine_in_its_notation_whatever_form_was_given() -> None:
    """``--moves`` takes castling either way (and kibitz plays it); the generator must get
    it as it reads it, king takes rook in Chess960, else it counts another position (the
    test engine, as Stockfish, stops reading the moves at one it does not take)."""
    fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    with UciEngine(engine_cmd("perft_engine.py"), chess960=True) as eng:
        assert find_difference(eng.divide, 2, fen, ["e1g1"], chess960=True) is None
        assert find_difference(eng.divide, 2, fen, ["e1h1", "e8a8"], chess960=True) is None
    with UciEngine(engine_cmd("perft_engine.py")) as eng:
        assert find_difference(eng.divide, 2, fen, ["e1h1"]) is None
        assert find_difference(eng.divide, 2, fen.replace(" w ", "\nw "), ["e1g1"]) is None  # one line
        with pytest.raises(ValueError, match="null move"):
            find_difference(eng.divide, 2, None, ["e2e4", "0000"])


def test_an_engine_that_dies_part_way_down_leaves_what_was_found() -> None:
    """The descent had found a difference when the engine died: the report keeps it, and
    names the position it was asked about."""
    calls: list[list[str]] = []

    def dies_below_the_root(fen: str | None, moves: Sequence[str], depth: int) -> dict[str, int]:
        calls.append(list(moves))
        if moves:
            raise EngineError("engine 'x' exited with code 134 while perft-diff waited.")
        board = chess.Board(fen)
        counts = {m.uci(): reference.perft(_after(board, m), depth - 1) for m in board.legal_moves}
        counts["a1b1"] += 3
        return counts

    with pytest.raises(
        EngineError,
        match=r"exited with code 134 .*It was asked about .*then a1b1\) at depth 2.*a1b1 at depth 3: kibitz",
    ):
        find_difference(dies_below_the_root, 3, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert calls[-1] == ["a1b1"]


def _after(board: chess.Board, move: chess.Move) -> chess.Board:
    child = board.copy()
    child.push(move)
    return child


def test_unread_answer_lines_are_quoted_when_a_move_then_seems_missing() -> None:
    result = parse_divide_lines(["e2e4: 20", "O-O: 5", "Nodes searched: 25"])
    assert result.unread == ["O-O: 5"]
