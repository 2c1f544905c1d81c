"""``kibitz analyse``'s files and processes: outputs never destroy the input or each other,
a failed start leaves the outputs as they were, errors are one line (never a traceback),
every game read is written before a read error is reported, the workers end with the run,
and two runs on one output are refused.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[1] / "data"
GAMES = (DATA / "book_games.pgn").read_bytes()
NODES = "200"


def kibitz(*args: str, timeout: float = 300, **kw) -> subprocess.CompletedProcess:
    kw.setdefault("stdout", subprocess.PIPE)
    kw.setdefault("stderr", subprocess.PIPE)
    return subprocess.run([sys.executable, "-m", "kibitz", *args], timeout=timeout, **kw)


def assert_one_line_error(p: subprocess.CompletedProcess, *words: str, status: int = 2) -> str:
    err = p.stderr.decode()
    assert p.returncode == status, err
    assert "Traceback" not in err, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    for word in words:
        assert word in err, err
    return err


@pytest.fixture
def games(tmp_path: Path) -> Path:
    path = tmp_path / "g.pgn"
    path.write_bytes(GAMES)
    return path


def count_records(path: Path) -> int:
    return sum(1 for _ in path.read_bytes().splitlines())


# ---------------------------------------------------------------------------- outputs


def test_an_output_that_is_the_input_is_refused_and_the_input_kept(games, tmp_path):
    link = tmp_path / "hard-link.pgn"
    os.link(games, link)
    for args in (
        ["-o", str(games)],
        ["--pgn-out", str(games)],
        ["-o", str(link)],
        ["--pgn-out", str(tmp_path / "." / "g.pgn")],
    ):
        p = kibitz("analyse", str(games), "--nodes", NODES, *args)
        assert_one_line_error(p, "the input")
        assert games.read_bytes() == GAMES


def test_standard_output_that_is_the_input_is_refused(games):
    with open(games, "ab") as out:
        p = kibitz("analyse", str(games), "--nodes", NODES, stdout=out)
    assert_one_line_error(p, "the input")
    assert games.read_bytes() == GAMES


def test_the_two_outputs_must_be_different_files(games, tmp_path):
    out = tmp_path / "o.txt"
    out.write_bytes(b"keep\n")
    p = kibitz("analyse", str(games), "--nodes", NODES, "-o", str(out), "--pgn-out", str(out))
    assert_one_line_error(p, "refusing")
    assert out.read_bytes() == b"keep\n"


def test_the_report_may_not_replace_the_input_or_another_output(games, tmp_path):
    records = tmp_path / "r.jsonl"
    for args, kept in (
        (["--report", str(games)], games),
        (["-o", str(records), "--report", str(records)], records),
        (["--pgn-out", str(records), "--report", str(tmp_path / "." / "r.jsonl")], records),
    ):
        records.write_bytes(b"kept\n")
        p = kibitz("analyse", str(games), "--nodes", NODES, "--workers", "1", *args)
        assert_one_line_error(p, "refusing")
        assert games.read_bytes() == GAMES and records.read_bytes() == b"kept\n"
    # Two outputs that do not exist yet, named alike, are one file too.
    fresh = tmp_path / "fresh.out"
    p = kibitz("analyse", str(games), "--nodes", NODES, "-o", str(fresh), "--report", str(fresh))
    assert_one_line_error(p, "refusing")
    assert not fresh.exists()


def test_records_on_standard_output_may_not_be_the_report(games, tmp_path):
    page = tmp_path / "page.html"
    with open(page, "wb") as out:
        p = kibitz("analyse", str(games), "--nodes", NODES, "-o", "-", "--report", str(page), stdout=out)
    assert_one_line_error(p, "standard output")


def test_book_build_may_not_replace_its_input(games, tmp_path):
    link = tmp_path / "link.pgn"
    link.symlink_to(games)
    for out in (games, link):
        p = kibitz("book", "build", str(games), "-o", str(out))
        assert_one_line_error(p, "the input", "refusing")
        assert games.read_bytes() == GAMES


def test_an_unwritable_report_is_found_before_the_analysis(games, tmp_path):
    keep = tmp_path / "keep.jsonl"
    keep.write_bytes(b"kept\n")
    places = [tmp_path / "missing-dir" / "r.html", tmp_path]
    if os.geteuid() != 0:  # root writes into read-only directories
        ro = tmp_path / "ro"
        ro.mkdir()
        ro.chmod(0o555)
        places.append(ro / "r.html")
    for place in places:
        started = time.monotonic()
        # A budget that would take minutes: the error must come before any of it.
        p = kibitz("analyse", str(games), "--nodes", "5000000", "-o", str(keep), "--report", str(place))
        assert_one_line_error(p, "cannot write", str(place))
        assert time.monotonic() - started < 60
        assert keep.read_bytes() == b"kept\n"  # the records were not started either


@pytest.mark.parametrize(
    "bad",
    [
        ["--pgn-out", "/nonexistent-dir/x.pgn"],
        ["--depth", "200"],
        ["--hash", "2000000"],
        ["--movetime", "inf"],
        ["--resume", "--pgn-out", "/nonexistent-dir/x.pgn"],
    ],
)
def test_a_failed_start_leaves_the_existing_output_as_it_was(games, tmp_path, bad):
    keep = tmp_path / "keep.jsonl"
    keep.write_bytes(b'{"game":1}\n')
    budget = [] if {"--depth", "--movetime"} & set(bad) else ["--nodes", NODES]  # one limit at a time
    p = kibitz("analyse", str(games), *budget, "-o", str(keep), *bad)
    err = p.stderr.decode()
    assert p.returncode == 2 and "Traceback" not in err and "not allowed" not in err, err
    assert keep.read_bytes() == b'{"game":1}\n'


def test_unusable_outputs_are_one_line_errors(games, tmp_path):
    assert_one_line_error(kibitz("analyse", str(games), "-o", "/nonexistent-dir/x.jsonl"), "cannot write")
    assert_one_line_error(kibitz("analyse", str(games), "-o", str(tmp_path)), "cannot write")
    if os.geteuid() != 0:  # root writes read-only files
        ro = tmp_path / "ro.jsonl"
        ro.write_bytes(b"")
        ro.chmod(0o444)
        assert_one_line_error(kibitz("analyse", str(games), "-o", str(ro)), "cannot write")


def test_the_ray_backend_without_ray_is_a_one_line_error(games):
    try:
        import ray  # noqa: F401
    except ImportError:
        pass
    else:
        pytest.skip("Ray is installed")
    assert_one_line_error(kibitz("analyse", str(games), "--backend", "ray"), "pip install")


def test_write_errors_name_the_output_not_the_input(games):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    err = assert_one_line_error(kibitz("analyse", str(games), "--nodes", NODES, "-o", "/dev/full"), "/dev/full")
    assert "writing" in err and "reading" not in err


def test_a_closed_pipe_ends_the_run_quietly_with_141(games):
    p = subprocess.Popen(
        [sys.executable, "-m", "kibitz", "analyse", str(games), "--nodes", NODES, "--workers", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert p.stdout is not None and p.stderr is not None
    p.stdout.readline()
    p.stdout.close()
    err = p.stderr.read().decode()
    assert p.wait(timeout=120) == 141, err
    assert err == ""


# ---------------------------------------------------------------------------- inputs


def test_devices_are_refused_not_read_forever(tmp_path):
    p = kibitz("analyse", "/dev/zero", "--nodes", NODES, timeout=60)
    assert_one_line_error(p, "not a regular file")
    p = kibitz("book", "build", "/dev/zero", "-o", str(tmp_path / "b.bin"), timeout=60)
    assert_one_line_error(p, "not a regular file")
    p = kibitz("book", "build", "/dev/zero", "--repertoire", "-o", str(tmp_path / "b.bin"), timeout=60)
    assert_one_line_error(p, "not a regular file")
    games = tmp_path / "g.pgn"
    games.write_bytes(GAMES)
    p = kibitz("analyse", str(games), "--resume", "-o", "/dev/zero", timeout=60)
    assert_one_line_error(p, "not a regular file")


@pytest.mark.parametrize("kind", ["gz", "zst"])
def test_a_compressed_input_damaged_mid_file_is_reported_in_one_record(games, tmp_path, kind):
    if kind == "gz":
        data = bytearray(gzip.compress(GAMES))
    else:
        import zstandard

        data = bytearray(zstandard.ZstdCompressor().compress(GAMES))
    for i in range(len(data) // 2, len(data) // 2 + 40):
        data[i] ^= 0x55
    src = tmp_path / f"g.pgn.{kind}"
    src.write_bytes(bytes(data))
    out = tmp_path / "o.jsonl"
    p = kibitz("analyse", str(src), "--nodes", NODES, "--workers", "1", "-o", str(out))
    err = p.stderr.decode()
    assert p.returncode == 1 and "Traceback" not in err, err
    last = json.loads(out.read_bytes().splitlines()[-1])
    assert last["status"] == "error" and ("damaged" in last["error"] or "truncated" in last["error"])


def test_a_bad_crc_gives_every_game_read_with_one_or_two_workers(games, tmp_path):
    data = bytearray(gzip.compress(GAMES))
    data[-8] ^= 0xFF  # the CRC-32 of the trailer
    src = tmp_path / "g.pgn.gz"
    src.write_bytes(bytes(data))
    counts = []
    for workers in ("1", "2"):
        out = tmp_path / f"o{workers}.jsonl"
        p = kibitz("analyse", str(src), "--nodes", NODES, "--workers", workers, "-o", str(out))
        assert p.returncode == 1 and "Traceback" not in p.stderr.decode(), p.stderr.decode()
        counts.append(count_records(out))
        last = json.loads(out.read_bytes().splitlines()[-1])
        assert "damaged" in last["error"], last
    assert counts[0] == counts[1] == 213 + 1  # every game, then the damage


# ---------------------------------------------------------------------------- processes


def _children(pid: int) -> set[int]:
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    return {int(x) for x in out.split()}


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
def test_the_workers_end_when_the_run_is_killed(games, tmp_path, sig):
    p = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "kibitz",
            "analyse",
            str(games),
            "--nodes",
            "50000000",
            "--workers",
            "2",
            "-o",
            str(tmp_path / "o.jsonl"),
        ],
        stderr=subprocess.PIPE,
    )
    workers: set[int] = set()
    try:
        deadline = time.monotonic() + 60
        while len(workers) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
            workers = _children(p.pid)
        assert len(workers) >= 2
        time.sleep(1)
        p.send_signal(sig)
        p.wait(timeout=60)
        deadline = time.monotonic() + 20
        while any(_alive(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not any(_alive(w) for w in workers)
        if sig == signal.SIGTERM:
            assert p.returncode == 143
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
        for w in workers:
            if _alive(w):
                os.kill(w, signal.SIGKILL)


def test_a_second_run_on_the_same_output_is_refused(games, tmp_path):
    out = tmp_path / "o.jsonl"
    first = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "kibitz",
            "analyse",
            str(games),
            "--nodes",
            "50000000",
            "--workers",
            "1",
            "-o",
            str(out),
        ],
        stderr=subprocess.PIPE,
    )
    try:
        time.sleep(3)  # well into its first game
        assert first.poll() is None
        p = kibitz("analyse", str(games), "--nodes", NODES, "-o", str(out))
        assert_one_line_error(p, "another run")
        p = kibitz("analyse", str(games), "--nodes", NODES, "-o", str(tmp_path / "x.jsonl"), "--pgn-out", str(out))
        assert_one_line_error(p, "another run")
    finally:
        first.kill()
        first.wait()


# ---------------------------------------------------------------------------- tablebases

TB_GAMES = """[Event "queen ending"]
[White "a"]
[Black "b"]
[Result "1-0"]
[FEN "8/8/8/8/8/2k5/8/KQ6 w - - 0 1"]
[SetUp "1"]

1. Qb5 Kc2 2. Qb4 Kd3 3. Ka2 Ke3 1-0

[Event "rook against pawn"]
[White "a"]
[Black "b"]
[Result "1/2-1/2"]
[FEN "8/8/8/8/8/1k6/1p6/1K4R1 w - - 0 1"]
[SetUp "1"]

1. Rg3+ Kc4 2. Kxb2 Kd4 1/2-1/2

[Event "opening"]
[White "a"]
[Black "b"]
[Result "*"]

1. e4 e5 *
"""


def test_syzygy_tables_that_cannot_be_used_are_named_as_such_not_as_missing(tmp_path):
    broken = tmp_path / "broken"
    broken.mkdir()
    for table in (DATA / "syzygy").glob("KQvK.rtb?"):
        (broken / table.name).write_bytes(table.read_bytes()[:200])  # cut short
    path = tmp_path / "g.pgn"
    path.write_text('[FEN "8/8/8/3k4/8/8/8/KQ6 w - - 0 1"]\n[Result "*"]\n\n1. Qb7 *\n')
    p = kibitz(
        "analyse", str(path), "--nodes", NODES, "--workers", "1", "--syzygy", str(broken), "-o", str(tmp_path / "o")
    )
    assert_one_line_error(p, "none of the 2 Syzygy table files", "can be used")
    empty = tmp_path / "empty"
    empty.mkdir()
    p = kibitz(
        "analyse", str(path), "--nodes", NODES, "--workers", "1", "--syzygy", str(empty), "-o", str(tmp_path / "o")
    )
    assert_one_line_error(p, "no Syzygy table files")


def test_syzygy_marks_every_position_the_tables_decide_as_python_chess_probes_it(tmp_path):
    pytest.importorskip("chess")
    import chess
    import chess.syzygy

    path = tmp_path / "tb.pgn"
    path.write_text(TB_GAMES)
    tables = DATA / "syzygy"
    p = kibitz("analyse", str(path), "--nodes", NODES, "--workers", "1", "--syzygy", str(tables))
    assert p.returncode == 0, p.stderr.decode()
    records = [json.loads(line) for line in p.stdout.splitlines()]
    assert [r["status"] for r in records] == ["ok"] * 3
    marked = 0
    with chess.syzygy.open_tablebase(str(tables)) as reference:
        for record in records:
            for pos in record["positions"]:
                board = chess.Board(pos["fen"])
                expected = None
                if len(board.piece_map()) <= 5 and not board.castling_rights:
                    wdl = reference.get_wdl(board)
                    if wdl is not None:
                        expected = {"wdl": wdl}
                        dtz = reference.get_dtz(board)
                        if dtz is not None:
                            expected["dtz"] = dtz
                assert pos.get("tb") == expected, pos["fen"]
                marked += expected is not None
    assert marked >= 10  # every position of the two endings


def test_syzygy_directory_without_tables_is_a_one_line_error_before_any_output(tmp_path, games):
    out = tmp_path / "keep.jsonl"
    out.write_text("kept\n")
    for bad in (tmp_path / "missing", tmp_path):
        p = kibitz("analyse", str(games), "--nodes", NODES, "-o", str(out), "--syzygy", str(bad))
        assert_one_line_error(p, "kibitz analyse:")
        assert out.read_text() == "kept\n"


# ---------------------------------------------------------------------------- annotated PGN

# Games whose movetext has no result: their Result tags are not result tokens.
NO_RESULT_TOKEN = """[Event "comment opener"]
[White "W"]
[Black "B"]
[Result "1-0 { x"]

1. e4 e5 2. Nf3

[Event "words"]
[Result "White wins"]

1. d4 d5

[Event "tag only"]
[Result "1/2-1/2"]

1. c4 c5

[Event "last"]
[Result "0-1"]

1. c4 c5 0-1
"""


def test_the_annotated_pgn_ends_each_game_with_a_result_token(tmp_path):
    chess_pgn = pytest.importorskip("chess.pgn")
    import io

    src = tmp_path / "g.pgn"
    src.write_text(NO_RESULT_TOKEN)
    annotated = tmp_path / "a.pgn"
    p = kibitz("analyse", str(src), "--nodes", NODES, "--workers", "1", "--pgn-out", str(annotated))
    assert p.returncode == 0, p.stderr.decode()
    text = annotated.read_text()
    stream = io.StringIO(text)
    back = []
    while (game := chess_pgn.read_game(stream)) is not None:
        back.append(game)
    # Every game reads back, whole, with the moves of the input.
    assert [g.headers["Event"] for g in back] == ["comment opener", "words", "tag only", "last"]
    assert [len(list(g.mainline_moves())) for g in back] == [3, 2, 2, 2]
    assert not any(g.errors for g in back)
    # The movetext of each ends with one of the standard's four result tokens: the input's
    # own token, else the tag's when that is a token, else "*".
    movetexts = [part.rsplit("]\n\n", 1)[1].split() for part in text.strip().split("\n\n[")]
    assert [m[-1] for m in movetexts] == ["*", "*", "1/2-1/2", "0-1"]


# ---------------------------------------------------------------------------- --resume


def first_games(count: int) -> bytes:
    """The first ``count`` games of the test collection."""
    text = GAMES.decode()
    return text[: text.index(f'[Event "test {count + 1}"]')].encode()


def test_records_carry_the_limits_they_were_made_with(tmp_path):
    bad = b'[Event "bad"]\n\n1. e4 e5 2. Ke3 *\n'
    src = tmp_path / "g.pgn"
    for games, options, expected in (
        # The documented defaults (100,000 nodes, 16 MB); a bad game alone has nothing to search.
        (bad, [], {"nodes": 100_000, "multipv": 1, "hash_mb": 16, "syzygy": False}),
        (first_games(2) + bad, ["--nodes", "300", "--multipv", "2", "--hash", "8"], {"nodes": 300, "multipv": 2}),
        (first_games(2) + bad, ["--depth", "2"], {"depth": 2, "hash_mb": 16}),
        (first_games(2) + bad, ["--movetime", "5"], {"movetime_ms": 5.0}),
    ):
        src.write_bytes(games)
        p = kibitz("analyse", str(src), "--workers", "1", *options)
        records = [json.loads(line) for line in p.stdout.splitlines()]
        assert records and p.returncode == 1, p.stderr.decode()
        for record in records:  # the bad game's record too
            assert {k: record["limits"][k] for k in expected} == expected
            assert set(record["limits"]) - {"nodes", "depth", "movetime_ms"} == {"multipv", "hash_mb", "syzygy"}


@pytest.fixture
def interrupted(tmp_path):
    """Six games analysed at --nodes 200, and a copy of the records cut after three."""
    src = tmp_path / "g.pgn"
    src.write_bytes(first_games(6))
    full = tmp_path / "full.jsonl"
    p = kibitz("analyse", str(src), "--nodes", NODES, "--workers", "1", "-o", str(full))
    assert p.returncode == 0, p.stderr.decode()
    part = tmp_path / "part.jsonl"
    part.write_bytes(b"".join(full.read_bytes().splitlines(keepends=True)[:3]))
    return src, full, part


@pytest.mark.parametrize(
    "other", [["--nodes", "300"], ["--depth", "3"], ["--multipv", "2"], ["--hash", "8"], ["--movetime", "20"]]
)
def test_resume_with_other_limits_is_refused(interrupted, other):
    src, _, part = interrupted
    kept = part.read_bytes()
    budget = [] if {"--depth", "--movetime"} & set(other) else ["--nodes", NODES]
    p = kibitz("analyse", str(src), *budget, *other, "--workers", "1", "-o", str(part), "--resume")
    err = assert_one_line_error(p, "--nodes 200", "same limits")
    assert " ".join(other) in err
    assert part.read_bytes() == kept


def test_resume_with_the_same_limits_finishes_the_run(interrupted):
    src, full, part = interrupted
    p = kibitz("analyse", str(src), "--nodes", NODES, "--workers", "1", "-o", str(part), "--resume")
    assert p.returncode == 0, p.stderr.decode()
    assert part.read_bytes() == full.read_bytes()


def test_resume_of_records_without_limits_is_refused(interrupted):
    src, _, part = interrupted
    old = b"".join(
        json.dumps({k: v for k, v in json.loads(line).items() if k != "limits"}).encode() + b"\n"
        for line in part.read_bytes().splitlines()
    )
    part.write_bytes(old)
    p = kibitz("analyse", str(src), "--nodes", NODES, "--workers", "1", "-o", str(part), "--resume")
    assert_one_line_error(p, "limits", "new output")
    assert part.read_bytes() == old


@pytest.mark.parametrize(
    "edit",
    [
        (b"3. Bb5 a6", b"3. Bc4 a6"),  # a move of game 1 (the first kept record), its tags unchanged
        (b'[Event "test 2"]', b'[Event "test 2, edited"]'),  # the tags of game 2
        (b'[Event "test 2"]\n[Result', b'[Event "test 2"]\n[Annotator "x"]\n[Result'),  # a tag added
    ],
)
def test_resume_after_an_earlier_game_was_edited_is_refused(interrupted, edit):
    src, _, part = interrupted
    kept = part.read_bytes()
    text = src.read_bytes()
    assert text.count(edit[0]) == 1
    src.write_bytes(text.replace(edit[0], edit[1]))
    p = kibitz("analyse", str(src), "--nodes", NODES, "--workers", "1", "-o", str(part), "--resume")
    assert_one_line_error(p, "does not continue")
    assert part.read_bytes() == kept


# ---------------------------------------------------------------------------- memory


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_worker_killed_mid_run_is_a_one_line_error(games, tmp_path):
    out = tmp_path / "o.jsonl"
    p = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "kibitz",
            "analyse",
            str(games),
            "--nodes",
            "50000000",
            "--workers",
            "2",
            "-o",
            str(out),
        ],
        stderr=subprocess.PIPE,
    )
    try:
        workers: set[int] = set()
        deadline = time.monotonic() + 60
        while len(workers) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
            workers = _children(p.pid)
        assert len(workers) >= 2
        os.kill(min(workers), signal.SIGKILL)  # as the out-of-memory killer does
        err = p.communicate(timeout=60)[1]
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert_one_line_error(subprocess.CompletedProcess(p.args, p.returncode, b"", err), "worker", "--resume", "--hash")
    assert all(line.endswith(b"}") for line in out.read_bytes().splitlines())


def test_a_hash_beyond_the_memory_there_is_a_one_line_error(games, tmp_path):
    from kibitz import Engine

    huge = 1 << 20  # MB: the largest --hash the engine takes, a TiB
    try:
        Engine(hash_mb=huge)
    except MemoryError:
        pass
    else:
        pytest.skip("this machine allocates a TiB (overcommitted): no MemoryError to provoke")
    keep = tmp_path / "keep.jsonl"
    keep.write_bytes(b"kept\n")
    p = kibitz("analyse", str(games), "--hash", str(huge), "-o", str(keep))
    assert_one_line_error(p, "smaller --hash")
    assert keep.read_bytes() == b"kept\n"


# ---------------------------------------------------------------------------- what the user sees


def on_a_terminal(args: list[str], until, timeout: float = 120) -> tuple[str, subprocess.Popen]:
    """Runs ``kibitz`` with stderr on a 160-column terminal until ``until(text drawn so
    far)`` holds or the command ends; returns the text and the (possibly running) process."""
    pty = pytest.importorskip("pty")
    import fcntl
    import select
    import struct
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 160, 0, 0))
    p = subprocess.Popen([sys.executable, "-m", "kibitz", *args], stderr=slave, stdout=subprocess.DEVNULL)
    os.close(slave)
    seen = b""
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline and not until(seen.decode(errors="replace")):
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # the command ended and closed the terminal
                    break
                if not chunk:
                    break
                seen += chunk
    finally:
        os.close(master)
    return seen.decode(errors="replace"), p


def positions_of(pgn: bytes) -> int:
    """The positions a run searches in ``pgn``: every game's moves plus its start (python-chess)."""
    chess_pgn = pytest.importorskip("chess.pgn")
    import io

    stream, total = io.StringIO(pgn.decode()), 0
    while (game := chess_pgn.read_game(stream)) is not None:
        total += len(list(game.mainline_moves())) + 1
    return total


FRAME = re.compile(r"analyse:.*?(\d+)/(\d+) \[[\d:]+<([\d:?]+),.*?games (\d+)/(\d+), (\d+) bad\]")


def test_progress_shows_from_the_start_of_the_first_game(tmp_path):
    src = tmp_path / "g.pgn"
    src.write_bytes(first_games(6))
    out = tmp_path / "o.jsonl"
    total = positions_of(first_games(6))

    def two_positions_in(text: str) -> bool:  # within the first game, a rate and an estimate
        frames = FRAME.findall(text)
        return bool(frames) and 2 <= int(frames[-1][0]) < total // 6 and frames[-1][2] != "?"

    # About a second a position: the first game takes many seconds.
    text, p = on_a_terminal(
        ["analyse", str(src), "--nodes", "1000000", "--workers", "1", "-o", str(out)], two_positions_in
    )
    try:
        assert p.poll() is None and out.read_bytes() == b""  # no game is done yet
        done, of, left, games_done, games, bad = FRAME.findall(text)[-1]
        assert int(of) == total and (games_done, games, bad) == ("0", "6", "0")
        assert re.fullmatch(r"\d+:\d\d", left)  # the time left
    finally:
        p.kill()
        p.wait()


def test_each_bad_game_gets_one_line_and_the_run_a_count(tmp_path):
    games = [
        '[Event "Club"]\n[White "Ann"]\n[Black "Bo"]\n\n1. e4 e5 *\n',
        '[Event "Club"]\n[White "Xavier"]\n[Black "Yann"]\n\n1. e4 e5 2. Ke3 *\n',
        '[Event "Open"]\n\n1. e4 Zz9 *\n',
        '[Event "Club"]\n[White "Cy"]\n[Black "Di"]\n\n1. d4 d5 *\n',
    ]
    src = tmp_path / "g.pgn"
    src.write_text("\n".join(games))
    starts = [1 + sum(g.count("\n") + 1 for g in games[:i]) for i in range(len(games))]  # each game's first line
    p = kibitz("analyse", str(src), "--nodes", NODES, "--workers", "1", "-o", str(tmp_path / "o.jsonl"))
    assert p.returncode == 1
    lines = p.stderr.decode().splitlines()
    assert len(lines) == 3, lines
    assert f"game 2 (Xavier - Yann, Club, line {starts[1]})" in lines[0] and "illegal move Ke3" in lines[0]
    assert f"game 3 (? - ?, Open, line {starts[2]})" in lines[1] and "Zz9" in lines[1]
    assert "2 of 4 games" in lines[2]
    assert all(line.startswith("kibitz analyse: ") for line in lines)
