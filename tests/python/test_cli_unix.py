"""The command line as a Unix tool: --version,
closed pipes, Ctrl-C, errors as one line on stderr with status 2, progress only on a
terminal, perft-diff deadlines and bounded lines, script process groups, book files read
only when regular and written atomically."""

from __future__ import annotations

import fcntl
import os
import stat
import pty
import select
import signal
import struct
import subprocess
import sys
import termios
import textwrap
import time
from pathlib import Path
from typing import List

import chess
import chess.polyglot
import pytest

import kibitz
from kibitz._atomic import write_atomically
from kibitz.book import ENTRY, Book, BookError, add_line

KIBITZ = [sys.executable, "-m", "kibitz"]


def kibitz_run(*args: str, timeout: float = 120, **kw: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(KIBITZ + list(args), capture_output=True, text=True, timeout=timeout, **kw)  # type: ignore[call-overload]


# ----------------------------------------------------------------- --version


def test_version_is_the_package_version_everywhere() -> None:
    p = kibitz_run("--version")
    assert p.returncode == 0 and p.stderr == ""
    assert p.stdout.strip() == f"kibitz {kibitz.__version__}"
    # The UCI id name carries the same version.
    uci = subprocess.run(KIBITZ, input="uci\nquit\n", capture_output=True, text=True, timeout=60)
    assert f"id name kibitz {kibitz.__version__}" in uci.stdout.splitlines()
    # And it is the version pip knows.
    from importlib.metadata import version

    assert version("kibitz") == kibitz.__version__


# ----------------------------------------------------------------- closed pipe


def closed_pipe(args: List[str], stdin: bytes = b"") -> tuple[int, bytes]:
    """Run kibitz with stdout read for one line, then closed (`... | head -1`); its status
    and stderr."""
    proc = subprocess.Popen(KIBITZ + args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdin and proc.stdout and proc.stderr
    try:
        proc.stdin.write(stdin)
        proc.stdin.close()
    except BrokenPipeError:
        pass
    proc.stdout.readline()
    proc.stdout.close()
    try:
        code = proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        pytest.fail(f"kibitz {args} did not end after its output was closed")
    return code, proc.stderr.read()


@pytest.mark.parametrize(
    "args",
    [
        ["perft", "5", "--divide"],
        ["perft", "6"],
        ["book", "show", "--moves", "e2e4"],
        ["--help"],
        ["perft-diff", "3", "--engine", f"{sys.executable} {Path(__file__).parent / 'engines' / 'no_en_passant.py'}"],
    ],
)
def test_a_closed_pipe_ends_quietly(args: List[str]) -> None:
    code, err = closed_pipe(args)
    assert b"Traceback" not in err and b"Exception ignored" not in err and b"BrokenPipe" not in err, err
    assert code in (0, 1, 141), code  # done before the close was noticed, or 128 + SIGPIPE


def test_play_with_a_closed_pipe_ends_quietly() -> None:
    code, err = closed_pipe(["play", "--no-book", "--time", "0.05"], stdin=b"e2e4\ne7e5\nquit\n")
    assert b"Traceback" not in err and b"Exception ignored" not in err, err
    assert code in (0, 141)


# ----------------------------------------------------------------- Ctrl-C


@pytest.mark.parametrize(
    "args",
    [["perft", "9"], ["perft", "9", "--divide"], ["play", "--no-book", "--time", "30"], ["uci"]],
)
def test_ctrl_c_ends_any_subcommand_with_130(args: List[str]) -> None:
    proc = subprocess.Popen(KIBITZ + args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdin
    if args[0] == "play":
        proc.stdin.write(b"e2e4\n")  # kibitz thinks for 30 s on its reply
    elif args[0] == "uci":
        proc.stdin.write(b"go infinite\n")
    proc.stdin.flush()
    time.sleep(1.5)
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail(f"Ctrl-C did not end kibitz {args}")
    assert time.monotonic() - sent < 5
    assert b"Traceback" not in err, err.decode(errors="replace")
    assert proc.returncode == 130, (proc.returncode, err)


# ----------------------------------------------------------------- errors


@pytest.mark.parametrize(
    "args,words",
    [
        (["perft-diff", "65", "--script", "true"], "between 1 and 64"),
        (["perft-diff", "100000000000000000000", "--script", "true"], "between 1 and 64"),
        (["perft-diff", "2", "--engine", "'unterminated"], "closing quotation"),
        (["perft-diff", "2", "--script", '"unterminated'], "closing quotation"),
        (["perft-diff", "2", "--script", "true", "--timeout", "inf"], "--timeout"),
        (["perft-diff", "2", "--script", "true", "--timeout", "nan"], "--timeout"),
        (["play", "--time", "nan"], "--time"),
        (["play", "--time", "inf"], "--time"),
        (["play", "--time", "-1"], "--time"),
        (["play", "--depth", "500"], "--depth"),
        (["perft", "65"], "DEPTH"),
        (["book", "build", "tests/data/book_games.pgn", "-o", "/nonexistent/x.bin"], "cannot write"),
        (["book", "build", "tests/data/book_games.pgn", "-o", "/tmp"], "cannot write"),
        (["book", "add", "/tmp", "e2e4"], "it is a directory"),
        (["book", "add", "/nonexistent-dir/x.bin", "e2e4"], "cannot write"),
        (["book", "add", "x.bin", "Kd2", "--fen", "8/8/8/8/8/8/8/4K3 w - - 0 1"], "no black king"),
        (["book", "add", "tests/data/book_games.pgn", "e2e4"], "tests/data/book_games.pgn is not a Polyglot book"),
        (["no-such-command"], "invalid choice"),
    ],
)
def test_errors_are_one_line_on_stderr_with_status_2(args: List[str], words: str) -> None:
    root = Path(__file__).resolve().parents[2]
    p = kibitz_run(*args, cwd=root, stdin=subprocess.DEVNULL)
    assert p.returncode == 2, (p.returncode, p.stdout, p.stderr)
    assert "Traceback" not in p.stderr
    assert words in p.stderr, p.stderr
    assert p.stdout == ""


# ----------------------------------------------------------------- progress


def test_progress_on_a_terminal_only() -> None:
    # stderr a pipe: silent.
    p = kibitz_run("perft", "7", "--fen", "8/8/8/8/8/8/8/K1k5 w - - 0 1")
    assert p.returncode == 0 and p.stderr == ""
    assert p.stdout.splitlines()[0] == f"Nodes searched: {chess_perft('8/8/8/8/8/8/8/K1k5 w - - 0 1', 7)}"
    # stderr a terminal: a tqdm bar appears there, stdout keeps the same answer.
    pid, fd = pty.openpty()
    # A terminal 80 columns wide (a fresh pty has 0, where tqdm draws an empty bar).
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    try:
        proc = subprocess.Popen(
            KIBITZ + ["perft", "7", "--fen", "8/8/8/8/8/8/8/K1k5 w - - 0 1"],
            stdout=subprocess.PIPE,
            stderr=fd,
            stdin=subprocess.DEVNULL,
        )
        out, _ = proc.communicate(timeout=120)
        tty_output = b""
        while select.select([pid], [], [], 0.2)[0]:
            try:
                chunk = os.read(pid, 4096)
            except OSError:
                break
            if not chunk:
                break
            tty_output += chunk
    finally:
        os.close(fd)
        os.close(pid)
    assert out.decode().splitlines() == p.stdout.splitlines()[:1] + out.decode().splitlines()[1:]
    assert b"perft 7" in tty_output and b"move" in tty_output, tty_output


def chess_perft(fen: str, depth: int) -> int:
    board = chess.Board(fen)

    def count(d: int) -> int:
        if d == 0:
            return 1
        n = 0
        for m in board.legal_moves:
            board.push(m)
            n += count(d - 1)
            board.pop()
        return n

    return count(depth)


# ----------------------------------------------------------------- perft-diff (items 6, 14)

CHATTY = textwrap.dedent(
    """
    import sys
    mode = sys.argv[1]
    if mode == "endless-line":
        while True:
            sys.stdout.write("x" * 65536)
            sys.stdout.flush()
    for line in sys.stdin:
        cmd = line.strip()
        if cmd == "uci" and mode == "chatty-handshake":
            while True:
                print("info string still thinking about it", flush=True)
        if cmd == "uci":
            print("uciok", flush=True)
        elif cmd == "isready":
            print("readyok", flush=True)
        elif cmd.startswith("go perft"):
            while True:
                print("info string counting", flush=True)
    """
)


@pytest.mark.parametrize("mode", ["chatty-handshake", "chatty-perft", "endless-line"])
def test_perft_diff_deadlines_hold_whatever_the_engine_prints(tmp_path: Path, mode: str) -> None:
    script = tmp_path / "chatty.py"
    script.write_text(CHATTY)
    t0 = time.monotonic()
    p = kibitz_run("perft-diff", "2", "--engine", f"{sys.executable} {script} {mode}", "--timeout", "2", timeout=60)
    took = time.monotonic() - t0
    assert p.returncode == 2, p.stderr
    assert "within" in p.stderr and "Traceback" not in p.stderr
    assert took < 30
    assert len(p.stderr) < 10_000  # quoted lines are bounded too


def test_perft_diff_script_timeout_kills_the_scripts_children(tmp_path: Path) -> None:
    marker = tmp_path / "child.pid"
    script = tmp_path / "slow.sh"
    script.write_text(f"#!/bin/sh\nsleep 300 &\necho $! > {marker}\nwait\n")
    script.chmod(0o755)
    p = kibitz_run("perft-diff", "1", "--script", str(script), "--timeout", "1", timeout=60)
    assert p.returncode == 2 and "within 1 s" in p.stderr
    child = int(marker.read_text())
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    os.kill(child, signal.SIGKILL)
    pytest.fail("the script's child outlived the timeout")


# ----------------------------------------------------------------- book files (items 8, 10)


def test_book_file_must_be_a_regular_file(tmp_path: Path) -> None:
    fifo = tmp_path / "book.fifo"
    os.mkfifo(fifo)
    t0 = time.monotonic()
    for path in (str(fifo), "/dev/zero", str(tmp_path)):
        with pytest.raises(BookError, match="not a regular file"):
            Book.open(path)
    assert time.monotonic() - t0 < 5
    # Through UCI: reported, the engine goes on.
    p = subprocess.run(
        KIBITZ,
        input=f"setoption name BookFile value {fifo}\nisready\nquit\n",
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert "not a regular file" in p.stdout and "readyok" in p.stdout


def test_book_size_is_limited(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import kibitz.book as book

    big = tmp_path / "big.bin"
    big.write_bytes(b"\0" * 64)
    monkeypatch.setattr(book, "MAX_BOOK_BYTES", 32)
    with pytest.raises(BookError, match="more than the 32"):
        Book.open(big)


def test_a_failed_write_leaves_the_old_book_whole(tmp_path: Path) -> None:
    target = tmp_path / "book.bin"
    old = add_line(b"", ["e2e4", "e7e5", "g1f3"])
    target.write_bytes(old)
    new = add_line(old, ["d2d4", "d7d5"]) * 1000  # big enough to cross the file size limit
    source = tmp_path.parent / f"{tmp_path.name}-new.bin"
    source.write_bytes(new)
    # A process with a 8 kB file size limit (ulimit -f 8: 8 blocks of 1024 bytes) cannot
    # write it; the old file must stay as it was, with no temporary file left behind.
    code = textwrap.dedent(
        f"""
        import resource, signal, sys
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (8192, 8192))
        from kibitz._atomic import write_atomically
        try:
            write_atomically({str(target)!r}, open({str(source)!r}, "rb").read())
        except OSError as e:
            print("refused:", e)
            sys.exit(3)
        """
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert p.returncode == 3, p.stdout + p.stderr
    assert target.read_bytes() == old
    assert sorted(x.name for x in tmp_path.iterdir()) == ["book.bin"]
    # And through the CLI: book build under the limit reports and keeps the old book.
    root = Path(__file__).resolve().parents[2]
    p = subprocess.run(
        [
            "sh",
            "-c",
            f'ulimit -f 8; exec "$0" -m kibitz book build tests/data/book_games.pgn -o {target}',
            sys.executable,
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=root,
    )
    assert p.returncode == 2 and "cannot write" in p.stderr, (p.returncode, p.stderr)
    assert target.read_bytes() == old


def test_atomic_write_keeps_the_files_mode(tmp_path: Path) -> None:
    target = tmp_path / "book.bin"
    target.write_bytes(b"")
    target.chmod(0o640)
    write_atomically(target, b"x" * 16)
    assert target.read_bytes() == b"x" * 16 and (target.stat().st_mode & 0o777) == 0o640


def test_atomic_write_goes_through_a_symbolic_link_and_refuses_devices_and_fifos(tmp_path: Path) -> None:
    real = tmp_path / "real.bin"
    real.write_bytes(b"old")
    link = tmp_path / "link.bin"
    link.symlink_to(real)
    write_atomically(link, b"new")
    assert link.is_symlink() and real.read_bytes() == b"new"
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(OSError, match="not a regular file"):
        write_atomically(fifo, b"x")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    with pytest.raises(OSError, match="not a regular file"):
        write_atomically("/dev/null", b"x")
    assert stat.S_ISCHR(os.lstat("/dev/null").st_mode)
    assert sorted(x.name for x in tmp_path.iterdir()) == ["fifo", "link.bin", "real.bin"]


def test_book_and_report_outputs_that_are_not_regular_files_are_refused_before_the_work(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[2]
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)

    def kibitz_cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "kibitz", *args], capture_output=True, text=True, timeout=120, cwd=root
        )

    for args in (
        ("book", "build", "tests/data/book_games.pgn", "-o", str(fifo)),
        ("book", "add", str(fifo), "e2e4"),
    ):
        p = kibitz_cli(*args)
        assert p.returncode == 2 and "not a regular file" in p.stderr, (args, p.returncode, p.stderr)
        assert "Traceback" not in p.stderr
        assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    # A book behind a symbolic link is edited in place: the link stays a link.
    real = tmp_path / "real.bin"
    real.write_bytes(add_line(b"", ["e2e4"]))
    link = tmp_path / "link.bin"
    link.symlink_to(real)
    p = kibitz_cli("book", "add", str(link), "d2d4")
    assert p.returncode == 0, p.stderr
    assert link.is_symlink() and len(real.read_bytes()) == 2 * ENTRY.size


def entries(data: bytes) -> list[tuple[int, int, int, int]]:
    return [ENTRY.unpack_from(data, i) for i in range(0, len(data), ENTRY.size)]


def test_book_add_keeps_other_entries_as_they_are_and_refuses_to_merge_duplicates(tmp_path: Path) -> None:
    start = chess.polyglot.zobrist_hash(chess.Board())
    e2e4 = 0x031C  # from e2 (file 4, row 1), to e4 (file 4, row 3): the Polyglot encoding
    d2d4 = 0x02DB
    # Two entries for e2e4 in the start position (as some book tools write them).
    data = ENTRY.pack(start, e2e4, 5, 7) + ENTRY.pack(start, e2e4, 3, 9) + ENTRY.pack(start, d2d4, 4, 1)
    with chess.polyglot.MemoryMappedReader(_write(tmp_path / "ref.bin", data)) as ref:
        assert sorted(str(e.move) for e in ref.find_all(chess.Board())) == ["d2d4", "e2e4", "e2e4"]
    with pytest.raises(BookError, match="2 entries for e2e4"):
        add_line(data, ["e2e4"])
    # Adding another move keeps the duplicates and every learn value exactly.
    new = add_line(data, ["d2d4", "d7d5"], weight=2)
    rows = entries(new)
    assert (start, e2e4, 5, 7) in rows and (start, e2e4, 3, 9) in rows and (start, d2d4, 6, 1) in rows
    assert len(rows) == 4
    with chess.polyglot.MemoryMappedReader(_write(tmp_path / "new.bin", new)) as ref:
        board = chess.Board()
        board.push_uci("d2d4")
        assert [str(e.move) for e in ref.find_all(board)] == ["d7d5"]


@pytest.mark.parametrize("weight", ["-3", "0"])
def test_book_add_refuses_weights_below_one(tmp_path: Path, weight: str) -> None:
    book = tmp_path / "b.bin"
    book.write_bytes(add_line(b"", ["e2e4"], weight=10))
    before = book.read_bytes()
    p = kibitz_run("book", "add", str(book), "e2e4", "--weight", weight)
    assert p.returncode == 2 and "positive" in p.stderr and "Traceback" not in p.stderr
    assert book.read_bytes() == before


def _write(path: Path, data: bytes) -> str:
    path.write_bytes(data)
    return str(path)


@pytest.mark.parametrize(
    "shell",
    [
        '"$0" -m kibitz perft 2 >&-',
        '"$0" -m kibitz book show >&-',
        '"$0" -m kibitz <&-',
        '"$0" -m kibitz play <&-',
    ],
)
def test_a_closed_standard_stream_is_no_traceback(shell: str) -> None:
    root = Path(__file__).resolve().parents[2]
    p = subprocess.run(["sh", "-c", shell, sys.executable], capture_output=True, text=True, timeout=120, cwd=root)
    assert p.returncode == 0, (p.returncode, p.stderr)
    assert "Traceback" not in p.stderr and "internal error" not in p.stderr, p.stderr


def test_resume_without_an_output_file_is_refused_and_a_stop_says_what_was_kept(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[2]
    report = tmp_path / "r.html"
    p = subprocess.run(
        [sys.executable, "-m", "kibitz", "analyse", "tests/data/book_games.pgn", "--report", str(report), "--resume"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=root,
    )
    assert p.returncode == 2 and "--resume needs -o" in p.stderr and "Traceback" not in p.stderr, p.stderr
    assert not report.exists()
