"""python-chess interop, copies, and the GIL being released during long calls."""

import threading
import time

import chess
import chess.polyglot

import kibitz


def test_from_chess_keeps_history_and_position() -> None:
    ref = chess.Board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    for san in ["O-O", "Bb7", "a4", "O-O-O", "Nb5"]:
        ref.push_san(san)
    board = kibitz.Board.from_chess(ref)
    assert board.fen() == ref.fen()
    assert board.polyglot_key() == chess.polyglot.zobrist_hash(ref)
    assert [m.uci() for m in board.move_stack] == [m.uci() for m in ref.move_stack]
    # The history came along: popping walks back through the same positions.
    while ref.move_stack:
        assert board.pop().uci() == ref.pop().uci()
        assert board.fen() == ref.fen()


def test_to_chess_round_trip() -> None:
    board = kibitz.Board()
    for m in ["e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4"]:
        board.push_uci(m)
    ref = board.to_chess()
    assert isinstance(ref, chess.Board)
    assert ref.fen() == board.fen()
    assert [m.uci() for m in ref.move_stack] == [m.uci() for m in board.move_stack]
    assert kibitz.Board.from_chess(ref) == board


def test_copy_is_independent() -> None:
    board = kibitz.Board()
    board.push_uci("e2e4")
    other = board.copy()
    other.push_uci("e7e5")
    assert board.fen() != other.fen()
    assert [m.uci() for m in board.move_stack] == ["e2e4"]
    assert [m.uci() for m in other.move_stack] == ["e2e4", "e7e5"]


def test_perft_releases_the_gil() -> None:
    """While one thread runs a long perft, another Python thread keeps running."""
    board = kibitz.Board()
    done = threading.Event()
    ticks = 0

    def count() -> None:
        board.perft(6)
        done.set()

    worker = threading.Thread(target=count)
    worker.start()
    while not done.is_set():
        ticks += 1
        time.sleep(0.001)
    worker.join()
    # With the GIL held for the whole perft (~1 s), this loop could not have run at all.
    assert ticks > 20


def test_from_chess_keeps_a_history_with_a_null_move_in_check_and_a_move_into_check() -> None:
    """python-chess's push plays these (so may its boards' stacks hold them): the kibitz
    board plays them as its push does, position by position as python-chess's."""
    ref = chess.Board("4k3/8/8/8/8/8/8/4K2r w - - 0 1")
    for move in (chess.Move.null(), chess.Move.from_uci("e8d7"), chess.Move.from_uci("e1f1")):
        ref.push(move)
    board = kibitz.Board.from_chess(ref)
    assert [m.uci() for m in board.move_stack] == [m.uci() for m in ref.move_stack]
    while ref.move_stack:
        assert board.fen() == ref.fen()
        assert board.pop().uci() == ref.pop().uci()
    assert board.fen() == ref.fen()
