"""What the command line says when something is wrong: one line on stderr naming the
problem in words and what to do, a nonzero status, no traceback (unless asked for)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import chess
import pytest

from kibitz.cli import main

ROOT = Path(__file__).resolve().parents[2]
KIBITZ = [sys.executable, "-m", "kibitz"]

EMPTY = "8/8/8/8/8/8/8/8 w - - 0 1"
TWO_WHITE_KINGS = "4k3/8/8/8/8/8/8/4K2K w - - 0 1"
BLACK_IN_CHECK_WHITE_TO_MOVE = "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1"

# python-chess's status flags and the words a message must use for each (python-chess's
# documentation of Board.status()).
STATUS_WORDS = {
    chess.STATUS_NO_WHITE_KING: "no white king",
    chess.STATUS_NO_BLACK_KING: "no black king",
    chess.STATUS_TOO_MANY_KINGS: "more than two kings",
    chess.STATUS_PAWNS_ON_BACKRANK: "pawn on the first or eighth rank",
    chess.STATUS_OPPOSITE_CHECK: "the side not to move is in check",
    chess.STATUS_EMPTY: "the board is empty",
}


def kibitz_run(*args: str, env: dict[str, str] | None = None, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        KIBITZ + list(args), input=stdin, capture_output=True, text=True, timeout=120, cwd=ROOT, env=env
    )


def words_for(fen: str) -> list[str]:
    status = chess.Board(fen).status()
    assert status != chess.STATUS_VALID
    return [words for flag, words in STATUS_WORDS.items() if status & flag]


def assert_one_line_error(p: subprocess.CompletedProcess[str], prog: str) -> str:
    assert p.returncode == 2, (p.returncode, p.stdout, p.stderr)
    assert "Traceback" not in p.stderr, p.stderr
    lines = p.stderr.splitlines()
    assert len(lines) == 1, p.stderr
    assert lines[0].startswith(prog + ": "), lines[0]
    return lines[0]


# ----------------------------------------------------------------- positions kibitz cannot play


@pytest.mark.parametrize("fen", [EMPTY, TWO_WHITE_KINGS, BLACK_IN_CHECK_WHITE_TO_MOVE])
@pytest.mark.parametrize(
    "prog, args",
    [
        ("kibitz play", ["play", "--time", "0.05", "--fen", "{fen}"]),
        ("kibitz book show", ["book", "show", "{fen}"]),
        ("kibitz perft-diff", ["perft-diff", "2", "--script", "true", "--fen", "{fen}"]),
        ("kibitz perft", ["perft", "2", "--fen", "{fen}"]),
    ],
    ids=["play", "book-show", "perft-diff", "perft"],
)
def test_a_position_kibitz_cannot_play_is_one_line_in_words(fen: str, prog: str, args: list[str]) -> None:
    p = kibitz_run(*[a.format(fen=fen) for a in args], stdin="quit\n")
    line = assert_one_line_error(p, prog)
    for words in words_for(fen):
        assert words in line, line
    assert "Status." not in line and "status()" not in line  # no enum repr, no API advice
    assert "one king a side" in line  # what a position needs


def test_perft_message_for_the_empty_board() -> None:
    p = kibitz_run("perft", "--fen", EMPTY, "1")
    line = assert_one_line_error(p, "kibitz perft")
    assert "no white king, no black king; the board is empty" in line


# ----------------------------------------------------------------- the console's encoding


@pytest.mark.parametrize("encoding", ["cp1252", "cp437"])
def test_unicode_pieces_fall_back_to_letters_on_a_console_that_cannot_show_them(encoding: str) -> None:
    env = dict(os.environ, PYTHONIOENCODING=encoding)
    p = kibitz_run("play", "--unicode", "--no-book", "--time", "0.05", env=env, stdin="quit\n")
    assert p.returncode == 0, p.stderr
    assert "Traceback" not in p.stderr
    assert " 8  r n b q k b n r" in p.stdout  # the start position, in letters
    assert encoding in p.stderr and "PYTHONIOENCODING=utf-8" in p.stderr  # said once, with the fix
    assert len(p.stderr.splitlines()) == 1


# ----------------------------------------------------------------- unexpected exceptions


def test_an_unexpected_exception_is_one_line_asking_for_a_report(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import kibitz.cli.perft

    def broken(args: object) -> int:
        raise TypeError("a bug")

    monkeypatch.setattr(kibitz.cli.perft, "cmd_perft", broken)
    monkeypatch.delenv("KIBITZ_DEBUG", raising=False)
    rc = main(["perft", "1"])
    out, err = capsys.readouterr()
    assert rc == 70  # sysexits.h EX_SOFTWARE: an internal error
    assert out == "" and len(err.splitlines()) == 1
    assert err.startswith("kibitz perft: internal error: TypeError: a bug")
    assert "report" in err and "KIBITZ_DEBUG=1" in err
    # With KIBITZ_DEBUG set, the exception (and so its traceback) comes out.
    monkeypatch.setenv("KIBITZ_DEBUG", "1")
    with pytest.raises(TypeError, match="a bug"):
        main(["perft", "1"])


# ----------------------------------------------------------------- usage errors


def test_negative_depth_is_perfts_own_usage_error() -> None:
    p = kibitz_run("perft", "-3")
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.startswith("usage: kibitz perft"), p.stderr
    assert "depth must be a non-negative integer" in p.stderr


def test_perft_diff_depth_must_be_positive() -> None:
    p = kibitz_run("perft-diff", "-3", "--script", "true")
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.startswith("usage: kibitz perft-diff"), p.stderr
    assert "depth must be a positive integer" in p.stderr


def test_help_says_depths_default_and_what_uci_does() -> None:
    perft = kibitz_run("perft", "--help").stdout
    positional = perft.split("positional arguments:")[1].split("options:")[0]
    assert "DEPTH" in positional and "required" in positional, positional
    uci = kibitz_run("uci", "--help").stdout
    description = uci.split("options:")[0].split("\n", 1)[1]  # after the usage line
    assert "UCI" in description and "stdin" in description, uci


@pytest.mark.parametrize(
    "option, value, words",
    [
        ("--max-plies", "-5", "at least 1"),
        ("--max-plies", "0", "at least 1"),
        ("--max-plies", "x", "not an integer"),
        ("--min-games", "-3", "at least 1"),
        ("--min-games", "0", "at least 1"),
    ],
)
def test_book_build_refuses_nonsensical_counts(tmp_path: Path, option: str, value: str, words: str) -> None:
    out = tmp_path / "book.bin"
    p = kibitz_run("book", "build", "tests/data/book_games.pgn", "-o", str(out), f"{option}={value}")
    assert p.returncode == 2, p.stdout
    assert p.stderr.startswith("usage: kibitz book build"), p.stderr
    assert option in p.stderr and words in p.stderr
    assert not out.exists()
