"""Hostile numbers at the Python API: every number reaching the Rust core is
range-checked or clamped (never a panic, an OverflowError or an abort), a table that cannot
be allocated is a MemoryError that leaves the engine usable, Ctrl-C ends a search, and the
FEN counters are read as python-chess reads them and never wrap."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import threading
import time

import chess
import pytest

import kibitz

HUGE = [1e23, 1e30, float("inf"), 10**22, 10**400]


def search_stopped_after(
    engine: kibitz.Engine, board: kibitz.Board, seconds: float, **kw: object
) -> kibitz.SearchResult:
    """search(**kw), stopped from another thread after `seconds` (for limits that are, in
    effect, no limit)."""
    timer = threading.Timer(seconds, engine.stop)
    timer.start()
    try:
        return engine.search(board, **kw)  # type: ignore[arg-type]
    finally:
        timer.cancel()


@pytest.mark.parametrize("name", ["movetime_ms", "soft_ms", "hard_ms"])
@pytest.mark.parametrize("value", HUGE)
def test_huge_times_are_clamped_not_panics(name: str, value: float) -> None:
    engine, board = kibitz.Engine(1), kibitz.Board()
    result = search_stopped_after(engine, board, 0.2, **{name: value})
    assert result.best_move in {m.uci() for m in chess.Board().legal_moves}


@pytest.mark.parametrize("value", [10**22, 2**64, 10**400])
def test_huge_node_counts_saturate(value: int) -> None:
    engine, board = kibitz.Engine(1), kibitz.Board()
    result = search_stopped_after(engine, board, 0.2, nodes=value)
    assert result.depth >= 1 and result.best_move is not None


@pytest.mark.parametrize(
    "kw",
    [
        dict(movetime_ms=float("nan")),
        dict(movetime_ms=-1),
        dict(soft_ms=float("-inf")),
        dict(hard_ms=-(10**400)),
        dict(depth=0),
        dict(depth=121),
        dict(depth=10**30),
        dict(depth=-(10**30)),
        dict(nodes=0),
        dict(nodes=-(10**22)),
        dict(multipv=0),
        dict(multipv=-(2**70)),
        dict(movetime_ms="100"),
    ],
)
def test_bad_limits_are_value_errors_naming_the_argument(kw: dict[str, object]) -> None:
    engine = kibitz.Engine(1)
    (name,) = kw
    with pytest.raises(ValueError, match=name):
        engine.search(kibitz.Board(), **kw)  # type: ignore[arg-type]
    assert engine.search(kibitz.Board(), depth=2).best_move is not None


def test_huge_multipv_is_capped() -> None:
    result = kibitz.Engine(1).search(kibitz.Board(), depth=1, multipv=10**30)
    assert len(result.lines) == 20  # every legal move of the start position, no more


@pytest.mark.parametrize("mb", [1 << 20, 1 << 19])
def test_a_table_that_cannot_be_had_is_an_error_not_an_abort(mb: int) -> None:
    # 1 << 20 MB (1 TB) is the documented maximum; 512 GB is within it but no machine this
    # runs on has it (both abort the process without a fallible allocation).
    with pytest.raises(MemoryError, match="could not allocate"):
        kibitz.Engine(hash_mb=mb)
    engine = kibitz.Engine(2)
    with pytest.raises(MemoryError):
        engine.resize(mb)
    assert engine.hash_mb == 2  # the old size, empty, and usable
    assert engine.search(kibitz.Board(), depth=3).best_move is not None


@pytest.mark.parametrize("mb", [0, -1, (1 << 20) + 1, 10**30, -(10**30)])
def test_hash_sizes_out_of_range_are_value_errors(mb: int) -> None:
    with pytest.raises(ValueError, match="hash_mb"):
        kibitz.Engine(hash_mb=mb)
    with pytest.raises(ValueError, match="hash_mb"):
        kibitz.Engine(1).resize(mb)


def run_then_interrupt(code: str, after: float = 1.0) -> tuple[subprocess.CompletedProcess[str], float]:
    """Run `code` in a fresh interpreter, send SIGINT once it has printed 'started' and
    `after` seconds have passed; the result and how long it took to end after the signal."""
    proc = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(code)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "started"
    time.sleep(after)
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail("SIGINT did not end the search within 10 s")
    took = time.monotonic() - sent
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err), took


def test_ctrl_c_ends_a_search() -> None:
    result, took = run_then_interrupt(
        """
        import kibitz
        e = kibitz.Engine(1)
        print("started", flush=True)
        try:
            e.search(kibitz.Board())  # no limit: runs until stopped
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            print(e.search(kibitz.Board(), depth=2).best_move)  # still usable
        """
    )
    assert result.stdout.split()[:1] == ["interrupted"], result.stderr
    assert len(result.stdout.split()) == 2
    assert took < 2.0


BASE = "4k3/8/8/8/8/8/8/4K2R w - -"


@pytest.mark.parametrize(
    "half,full",
    [
        ("0", "1"),
        ("99", "0"),
        ("100", "1"),
        ("4294967295", "1"),
        ("4294967296", "4294967296"),
        ("99999999999999999999", "7"),
        ("+5", "-0"),
        ("0_0", "1_0"),
        ("007", "08"),
        ("-1", "1"),
        ("1", "-3"),
        ("1__0", "1"),
        ("_1", "1"),
        ("1_", "1"),
        ("1.5", "1"),
        ("x", "1"),
        ("+", "1"),
        ("0x10", "1"),
        ("1", "1e3"),
    ],
)
def test_counters_are_read_as_python_chess_reads_them(half: str, full: str) -> None:
    fen = f"{BASE} {half} {full}"
    try:
        ref = chess.Board(fen)
    except ValueError:
        with pytest.raises(kibitz.FenError):
            kibitz.Board(fen)
        return
    board = kibitz.Board(fen)
    cap = 2**31 - 1  # kibitz's saturation point (rust/chess/fen.rs COUNTER_MAX)
    assert board.halfmove_clock == min(ref.halfmove_clock, cap)
    assert board.fullmove_number == min(ref.fullmove_number, cap)
    assert board.is_fifty_moves() == ref.is_fifty_moves()
    # One ply later the clock has not wrapped: still the same verdict as python-chess.
    board.push_uci("e1d1")
    ref.push_uci("e1d1")
    assert board.halfmove_clock == min(ref.halfmove_clock, cap + 1)
    assert board.is_fifty_moves() == ref.is_fifty_moves()
