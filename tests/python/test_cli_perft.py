"""``kibitz perft`` on the command line, and the README's tested examples.

The README's code blocks preceded by ``<!-- test: console -->`` or ``<!-- test: python -->``
are run here: console blocks command by command (``$ `` lines), comparing the output with
the lines that follow (``...`` inside a line matches any text), python blocks by executing
them and calling every ``test_*`` function they define.
"""

from __future__ import annotations

import contextlib
import io

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import chess
import pytest

import reference
from kibitz.cli import main

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"

POSITION_3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def parse_divide(out: str) -> tuple[dict[str, int], int]:
    counts = {}
    total = -1
    for line in out.splitlines():
        m = re.fullmatch(r"([a-h][1-8][a-h][1-8][qrbn]?): (\d+)", line)
        if m:
            counts[m.group(1)] = int(m.group(2))
        elif line.startswith("Nodes searched: "):
            total = int(line.split(": ")[1])
    return counts, total


# -- kibitz perft ----------------------------------------------------------------------------


def test_perft_start_position(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run(capsys, "perft", "4")
    assert rc == 0
    lines = out.splitlines()
    assert lines[0] == "Nodes searched: 197281"  # published: chessprogramming.org/Perft_Results
    assert re.fullmatch(r"Time: \d+\.\d{3} s \([\d,]+ nodes/s\)|Time: \d+\.\d{3} s \(inf nodes/s\)", lines[1])


@pytest.mark.parametrize(
    "argv",
    [
        ["--fen", POSITION_3, "3", "--divide"],
        ["3", "--fen", POSITION_3, "--divide"],
        ["--divide", "--fen", POSITION_3, "3"],
    ],
)
def test_divide_matches_python_chess(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    rc, out, _ = run(capsys, "perft", *argv)
    assert rc == 0
    counts, total = parse_divide(out)
    expected = reference.divide(chess.Board(POSITION_3), 3)
    assert counts == expected and total == sum(expected.values()) == 2812
    # Sorted, one "move: count" line each, a blank line, then the total (as Stockfish prints).
    lines = out.splitlines()
    assert lines[: len(counts)] == [f"{m}: {expected[m]}" for m in sorted(expected)]
    assert lines[len(counts)] == ""


@pytest.mark.parametrize(
    "argv",
    [
        ["--moves", "e2e4", "e7e5", "3"],  # DEPTH after the moves, as the usage line shows
        ["3", "--moves", "e2e4", "e7e5"],
        ["--moves", "e2e4", "e7e5", "--divide", "3"],
    ],
)
def test_moves_before_or_after_depth(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    rc, out, _ = run(capsys, "perft", *argv)
    assert rc == 0
    board = chess.Board()
    board.push_uci("e2e4")
    board.push_uci("e7e5")
    assert parse_divide(out)[1] == sum(reference.divide(board, 3).values())


def test_depth_zero(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["0"], ["0", "--divide"]):
        rc, out, _ = run(capsys, "perft", *argv)
        assert rc == 0 and parse_divide(out) == ({}, 1)


def test_checkmate_has_no_moves(capsys: pytest.CaptureFixture[str]) -> None:
    mate = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"  # fool's mate
    rc, out, _ = run(capsys, "perft", "--fen", mate, "3", "--divide")
    assert rc == 0 and parse_divide(out) == ({}, 0)


def test_chess960(capsys: pytest.CaptureFixture[str]) -> None:
    fen = "rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1"
    rc, out, _ = run(capsys, "perft", "--chess960", "--fen", fen, "1", "--divide")
    assert rc == 0
    counts, _ = parse_divide(out)
    assert {"b1a1", "b1h1"} <= set(counts)  # castling written king takes rook
    assert set(counts) == {m.uci() for m in chess.Board(fen, chess960=True).legal_moves}


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--fen", "not a fen", "2"], "kibitz perft: "),
        (["--moves", "e2e5", "2"], "illegal uci: 'e2e5'"),
        (["--moves", "e2e4x", "2"], "kibitz perft: "),
        (["65"], "DEPTH between 0 and 64"),
        ([], "DEPTH between 0 and 64 is required"),
        (["--fen", "rk5r/8/8/8/8/8/8/RK5R w AHah - 0 1", "2"], "kibitz perft: "),  # 960 without --chess960
    ],
)
def test_errors_exit_2_with_a_message(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    rc, out, err = run(capsys, "perft", *argv)
    assert rc == 2 and message in err and "Traceback" not in err and out == ""


def test_negative_depth_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["perft", "-1"])
    assert e.value.code == 2


def test_entry_point_runs() -> None:
    """``python -m kibitz`` (what the ``kibitz`` script calls) works outside pytest too."""
    proc = subprocess.run(
        [sys.executable, "-m", "kibitz", "perft", "--moves", "e2e4", "2", "--divide"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert parse_divide(proc.stdout)[1] == 600


# -- the README's examples -------------------------------------------------------------------


def readme_blocks(kind: str) -> list[tuple[int, str]]:
    """(line number, code) of every README code block marked ``<!-- test: KIND -->``."""
    lines = README.read_text().splitlines()
    blocks = []
    i = 0
    while i < len(lines):
        if lines[i].strip() == f"<!-- test: {kind} -->":
            start = i + 1
            assert lines[start].startswith("```"), f"README.md:{start + 1}: a code block must follow the marker"
            end = start + 1
            while not lines[end].startswith("```"):
                end += 1
            blocks.append((start + 2, "\n".join(lines[start + 1 : end])))
            i = end
        i += 1
    return blocks


def console_examples() -> list[tuple[str, str, list[str]]]:
    examples = []
    where = ""
    for lineno, block in readme_blocks("console"):
        command: str | None = None
        expected: list[str] = []
        for k, line in enumerate(block.splitlines()):
            if line.startswith("$ "):
                if command is not None:
                    examples.append((where, command, expected))
                where, command, expected = f"README.md:{lineno + k}", line[2:], []
            else:
                expected.append(line)
        if command is not None:
            examples.append((where, command, expected))
    return examples


def line_pattern(expected: str) -> re.Pattern[str]:
    return re.compile(".*".join(re.escape(part) for part in expected.split("...")))


def env_with_this_python() -> dict[str, str]:
    """PATH starting with this interpreter's bin directory, so ``kibitz`` and ``python3``
    in the examples (and in the commands they pass to perft-diff) are this installation."""
    env = dict(os.environ)
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    return env


CONSOLE_EXAMPLES = console_examples()


@pytest.mark.parametrize("where, command, expected", CONSOLE_EXAMPLES, ids=[e[0] for e in CONSOLE_EXAMPLES])
def test_readme_console_example(where: str, command: str, expected: list[str]) -> None:
    argv = shlex.split(command)
    if argv[0] == "kibitz":
        argv = [sys.executable, "-m", "kibitz", *argv[1:]]
    proc = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, env=env_with_this_python(), timeout=120)
    assert proc.returncode in (0, 1) and proc.stderr == "", f"{where}: {command}\n{proc.stderr}"
    actual = proc.stdout.rstrip("\n").splitlines()
    assert len(actual) == len(expected), f"{where}: {command}\n{proc.stdout}{proc.stderr}"
    for want, got in zip(expected, actual):
        assert line_pattern(want).fullmatch(got), f"{where}: {command}\nexpected {want!r}\ngot      {got!r}"


def test_readme_has_tested_examples_for_each_tool() -> None:
    commands = " ".join(c for _, c, _ in CONSOLE_EXAMPLES)
    assert "perft" in commands and "--divide" in commands and "perft-diff --engine" in commands
    assert "perft-diff --script" in commands
    # The fuzzing helpers are a pytest example, so they live in docs/perft.md (tested by
    # test_docs.py); the README points there.
    assert "kibitz.testing" in README.read_text() and "kibitz.testing" in (ROOT / "docs" / "perft.md").read_text()


def test_readme_examples_can_be_pasted() -> None:
    # Pasted into a Python prompt, a test function defines itself and runs nothing: the
    # README's examples are plain code whose printed lines it states.
    for lineno, code in readme_blocks("python"):
        assert not re.search(r"^\s*def test_", code, re.M), f"README.md:{lineno}: a test function in an example"
        assert "# -> " in code, f"README.md:{lineno}: an example states what it prints (# -> ...)"


PYTHON_EXAMPLES = readme_blocks("python")


@pytest.mark.parametrize("lineno, code", PYTHON_EXAMPLES, ids=[f"README.md:{n}" for n, _ in PYTHON_EXAMPLES])
def test_readme_python_example(lineno: int, code: str) -> None:
    # Each `# -> TEXT` comment states a line the example prints, in order.
    expected = [m.group(1).rstrip() for m in re.finditer(r"# -> (.*)$", code, re.M)]
    namespace: dict[str, object] = {"__name__": f"readme_line_{lineno}"}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, f"README.md:{lineno}", "exec"), namespace)
    assert out.getvalue().splitlines() == expected, f"README.md:{lineno}"


def _impossible_check_cases() -> list:
    """The published cases whose FEN holds a check no last move could have given (perft
    suites keep such positions: the count is still the written position's)."""
    from kibitz._bitboards import Status
    from perft_data import load_perftsuite, load_tricky

    cases = []
    for case in load_perftsuite() + load_tricky():
        fen = case.fen if len(case.fen.split()) > 4 else case.fen + " 0 1"
        status = chess.Board(fen).status()
        if status & (chess.STATUS_IMPOSSIBLE_CHECK | chess.STATUS_TOO_MANY_CHECKERS) and not status & ~(
            chess.STATUS_IMPOSSIBLE_CHECK | chess.STATUS_TOO_MANY_CHECKERS
        ):
            cases.append((case.name, fen, case.counts))
    assert int(Status.IMPOSSIBLE_CHECK) == chess.STATUS_IMPOSSIBLE_CHECK
    return cases


IMPOSSIBLE_CHECKS = _impossible_check_cases()


def test_the_suites_hold_positions_with_impossible_checks() -> None:
    assert len(IMPOSSIBLE_CHECKS) >= 5


@pytest.mark.parametrize("name, fen, counts", IMPOSSIBLE_CHECKS, ids=[c[0] for c in IMPOSSIBLE_CHECKS])
def test_a_check_no_last_move_could_give_is_counted(
    capsys: pytest.CaptureFixture[str], name: str, fen: str, counts: dict[int, int]
) -> None:
    depth = max(d for d, n in counts.items() if n <= 2_000_000)
    rc, out, err = run(capsys, "perft", "--fen", fen, str(depth))
    assert rc == 0, err
    assert f"Nodes searched: {counts[depth]}" in out
