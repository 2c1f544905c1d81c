"""Several search threads (Lazy SMP), from Python and over UCI: the argument is range-checked,
moves stay legal, helper nodes are counted, stop ends every thread, and the lichess-bot style
configuration (Threads 2-4, Hash 256, Move Overhead 100, ponder on) plays bullet without
losing on time. The reference for legality is python-chess."""

from __future__ import annotations

import threading
import time

import chess
import chess.engine
import pytest

import kibitz
from uci_session import kibitz_command

MIDDLEGAME = "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 0 9"


@pytest.mark.parametrize("bad", [0, -1, 1025, 2**70, -(2**70)])
def test_threads_out_of_range_are_value_errors_naming_the_argument(bad):
    with pytest.raises(ValueError, match="threads"):
        kibitz.Engine(threads=bad)
    engine = kibitz.Engine()
    with pytest.raises(ValueError, match="threads"):
        engine.set_threads(bad)
    assert engine.threads == 1


def test_two_threads_play_legal_moves_and_count_helper_nodes():
    engine = kibitz.Engine(hash_mb=16, threads=2)
    engine.set_thread_limit(2)  # helpers even on a one-core machine
    assert engine.threads == 2 and engine.effective_threads == 2
    assert "threads=2" in repr(engine)
    board = kibitz.Board(MIDDLEGAME)
    result = engine.search(board, nodes=200_000)
    assert chess.Move.from_uci(str(result.best_move)) in chess.Board(MIDDLEGAME).legal_moves
    # The main thread stops at the node limit exactly; the helpers' nodes come on top.
    assert result.nodes > 200_000
    engine.set_threads(1)
    assert engine.search(board, nodes=200_000).nodes == 200_000


def test_stop_ends_every_thread_promptly():
    engine = kibitz.Engine(threads=4)
    board = kibitz.Board(MIDDLEGAME)
    out = {}

    def run():
        out["result"] = engine.search(board)

    t = threading.Thread(target=run)
    t.start()
    time.sleep(0.3)
    stopped = time.perf_counter()
    engine.stop()
    t.join(timeout=5)
    lag = time.perf_counter() - stopped
    assert not t.is_alive(), "the search did not stop"
    # Generous for a shared machine; a thread that missed the stop would run for ever.
    assert lag < 0.5, f"{lag * 1000:.0f} ms to stop four threads"
    assert chess.Move.from_uci(str(out["result"].best_move)) in chess.Board(MIDDLEGAME).legal_moves


def test_uci_at_the_most_threads_keeps_the_clock_and_answers_stop_promptly():
    # GUIs set Threads to its maximum: the answer must still come in time on a small machine
    # (generous bounds: shared two-core machines are noisy).
    from uci_session import RawUci

    uci = RawUci()
    try:
        uci.send("setoption name OwnBook value false")
        uci.send("setoption name Threads value 1024")
        lines = uci.sync()
        if kibitz.Engine().thread_limit < 1024:
            assert any(l.startswith("info string Threads 1024:") and "will search" in l for l in lines), lines
        uci.send("position fen " + MIDDLEGAME)
        for go, bound in [("go movetime 100", 1.0), ("go wtime 2000 btime 2000", 2.0), ("go movetime 100", 1.0)]:
            start = time.monotonic()
            uci.send(go)
            line = uci.expect("bestmove", 20)
            took = time.monotonic() - start
            assert took < bound, f"{go}: bestmove after {took:.2f} s"
            assert chess.Move.from_uci(line.split()[1]) in chess.Board(MIDDLEGAME).legal_moves
        uci.send("go infinite")
        time.sleep(0.3)
        start = time.monotonic()
        uci.send("stop")
        uci.expect("bestmove", 20)
        assert time.monotonic() - start < 1.0, f"bestmove {time.monotonic() - start:.2f} s after stop"
        uci.sync()
    finally:
        assert uci.close() == 0


def test_uci_threads_option_is_declared_and_range_checked():
    engine = chess.engine.SimpleEngine.popen_uci(kibitz_command(), timeout=30)
    try:
        opt = engine.options["Threads"]
        assert (opt.type, opt.default, opt.min, opt.max) == ("spin", 1, 1, 1024)
        with pytest.raises(chess.engine.EngineError):
            engine.configure({"Threads": 1025})  # python-chess checks the declared range
        engine.configure({"Threads": 3})
        board = chess.Board(MIDDLEGAME)
        info = engine.analyse(board, chess.engine.Limit(depth=8))
        assert info["pv"][0] in board.legal_moves
    finally:
        engine.quit()


@pytest.mark.parametrize("threads", [2, 4])
def test_lichess_bot_configuration_plays_bullet_without_forfeit(threads):
    """Threads 2-4, Hash 256, Move Overhead 100, ponder on, 1+0 bullet-like clocks: every
    move legal and the clock never runs out (the client deducts the real time used)."""
    engine = chess.engine.SimpleEngine.popen_uci(kibitz_command(), timeout=30)
    try:
        # Ponder is set by python-chess itself when play(..., ponder=True) is used.
        engine.configure({"Threads": threads, "Hash": 256, "Move Overhead": 100})
        board = chess.Board()
        clock = {chess.WHITE: 6.0, chess.BLACK: 6.0}  # seconds left, a short bullet game
        inc = 0.05
        for _ in range(40):
            if board.is_game_over():
                break
            limit = chess.engine.Limit(
                white_clock=clock[chess.WHITE], black_clock=clock[chess.BLACK], white_inc=inc, black_inc=inc
            )
            start = time.perf_counter()
            result = engine.play(board, limit, ponder=True)
            used = time.perf_counter() - start
            clock[board.turn] -= used
            assert clock[board.turn] > 0, f"lost on time at ply {board.ply()} ({used:.2f} s used)"
            clock[board.turn] += inc
            assert result.move in board.legal_moves
            board.push(result.move)
    finally:
        engine.quit()
