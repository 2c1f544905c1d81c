"""kibitz.syzygy against python-chess's chess.syzygy on the real 3- and 4-piece tables in
tests/data/syzygy: the same WDL and DTZ on random positions, for kibitz and python-chess
boards; the same exceptions; broken table files skipped with a reason."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import chess
import chess.syzygy
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kibitz
import kibitz.syzygy as ksyzygy

TABLES = Path(__file__).resolve().parents[1] / "data" / "syzygy"


@pytest.fixture(scope="module")
def theirs() -> chess.syzygy.Tablebase:
    with chess.syzygy.open_tablebase(str(TABLES)) as tb:
        yield tb


@pytest.fixture(scope="module")
def ours() -> ksyzygy.Tablebase:
    with ksyzygy.open_tablebase(TABLES) as tb:
        yield tb


def random_position(rng: random.Random, extra: int) -> chess.Board:
    """A legal position with two kings and `extra` (1 or 2) more pieces, no castling; now
    and then with an en-passant square (a pawn that just made a double step beside one
    that can take it)."""
    kinds = [chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT, chess.PAWN]
    while True:
        board = chess.Board(None)
        squares = rng.sample(range(64), 2 + extra)
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        for sq in squares[2:]:
            kind = rng.choice(kinds)
            if kind == chess.PAWN and chess.square_rank(sq) in (0, 7):
                kind = chess.KNIGHT
            board.set_piece_at(sq, chess.Piece(kind, rng.random() < 0.6))
        board.turn = rng.random() < 0.5
        if board.is_valid():
            return board


def random_ep_position(rng: random.Random) -> chess.Board:
    while True:
        file = rng.randrange(8)
        side = rng.choice([-1, 1])
        if not 0 <= file + side < 8:
            continue
        board = chess.Board(None)
        board.set_piece_at(chess.square(file, 4), chess.Piece(chess.PAWN, chess.BLACK))
        board.set_piece_at(chess.square(file + side, 4), chess.Piece(chess.PAWN, chess.WHITE))
        free = [
            s
            for s in range(64)
            if board.piece_at(s) is None and s != chess.square(file, 5) and s != chess.square(file, 6)
        ]
        wk, bk = rng.sample(free, 2)
        board.set_piece_at(wk, chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(bk, chess.Piece(chess.KING, chess.BLACK))
        board.turn = chess.WHITE
        board.ep_square = chess.square(file, 5)
        if board.is_valid():
            return board


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([1, 2]))
def test_wdl_and_dtz_are_python_chess_answers(
    theirs: chess.syzygy.Tablebase, ours: ksyzygy.Tablebase, seed: int, extra: int
) -> None:
    rng = random.Random(seed)
    for _ in range(10):
        board = random_position(rng, extra)
        fen = board.fen()
        for probe in ("probe_wdl", "probe_dtz"):
            want = getattr(theirs, probe)(board)
            assert getattr(ours, probe)(kibitz.Board(fen)) == want, (probe, fen)
            assert getattr(ours, probe)(board) == want, (probe, fen)


def test_en_passant_positions_agree(theirs: chess.syzygy.Tablebase, ours: ksyzygy.Tablebase) -> None:
    rng = random.Random(3)
    for _ in range(200):
        board = random_ep_position(rng)
        for probe in ("probe_wdl", "probe_dtz"):
            assert getattr(ours, probe)(kibitz.Board(board.fen())) == getattr(theirs, probe)(board), board.fen()


def test_known_endgames() -> None:
    with ksyzygy.open_tablebase(TABLES) as tb:
        assert tb.max_pieces == 4
        assert tb.probe_wdl(kibitz.Board("8/8/8/8/8/8/8/K1k5 w - - 0 1")) == 0  # bare kings
        # KRvK is won for the rook's side, lost for the other side.
        assert tb.probe_wdl(kibitz.Board("8/8/8/3k4/8/8/8/KR6 w - - 0 1")) == 2
        assert tb.probe_wdl(kibitz.Board("8/8/8/3k4/8/8/8/KR6 b - - 0 1")) == -2
        # KBvK is a draw whoever moves.
        assert tb.probe_dtz(kibitz.Board("8/8/8/3k4/8/8/8/KB6 b - - 0 1")) == 0


def test_errors_are_python_chess_errors(tmp_path: Path) -> None:
    some = tmp_path / "some"
    some.mkdir()
    for name in ("KRvK.rtbw", "KRvK.rtbz"):
        shutil.copy(TABLES / name, some / name)
    fen_queen = "8/8/8/3k4/8/8/8/KQ6 w - - 0 1"
    with ksyzygy.open_tablebase(some) as ours, chess.syzygy.open_tablebase(str(some)) as theirs:
        with pytest.raises(ksyzygy.MissingTableError):
            ours.probe_wdl(kibitz.Board(fen_queen))
        with pytest.raises(chess.syzygy.MissingTableError):
            theirs.probe_wdl(chess.Board(fen_queen))
        assert ours.get_wdl(kibitz.Board(fen_queen), "none") == "none"
        assert ours.get_dtz(chess.Board(fen_queen)) is None
        castling = "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"
        with pytest.raises(KeyError):
            ours.probe_wdl(kibitz.Board(castling))
        with pytest.raises(KeyError):
            theirs.probe_wdl(chess.Board(castling))
        with pytest.raises(KeyError):
            ours.probe_dtz(kibitz.Board())  # 32 pieces
        assert ours.get_wdl(kibitz.Board()) is None


def test_load_flags_choose_the_table_kinds(tmp_path: Path) -> None:
    tb = ksyzygy.Tablebase()
    assert tb.add_directory(TABLES, load_dtz=False) == len(list(TABLES.glob("*.rtbw")))
    board = kibitz.Board("8/8/8/3k4/8/8/8/KR6 w - - 0 1")
    assert tb.probe_wdl(board) == 2
    with pytest.raises(KeyError):
        tb.probe_dtz(board)  # no DTZ table loaded
    tb.close()
    with pytest.raises(KeyError):
        tb.probe_wdl(board)


def test_broken_and_foreign_files_are_skipped_or_passed_over(tmp_path: Path) -> None:
    d = tmp_path / "mixed"
    d.mkdir()
    shutil.copy(TABLES / "KRvK.rtbw", d / "KRvK.rtbw")
    shutil.copy(TABLES / "KRvK.rtbz", d / "KRvK.rtbz")
    (d / "KQvK.rtbw").write_bytes((TABLES / "KQvK.rtbw").read_bytes()[:10])  # truncated
    (d / "notes.txt").write_text("not a table")
    (d / "Kxyz.rtbw").write_bytes(b"\0" * 64)  # not a table name
    with ksyzygy.open_tablebase(d) as tb:
        assert tb.probe_wdl(kibitz.Board("8/8/8/3k4/8/8/8/KR6 w - - 0 1")) == 2
        skipped = {Path(p).name for p, _ in tb.skipped}
        assert "KQvK.rtbw" in skipped
        assert "notes.txt" not in skipped and "Kxyz.rtbw" not in skipped
        with pytest.raises(KeyError):
            tb.probe_wdl(kibitz.Board("8/8/8/3k4/8/8/8/KQ6 w - - 0 1"))


def test_a_corrupt_table_of_the_right_size_raises_oserror_not_a_panic(tmp_path: Path) -> None:
    d = tmp_path / "corrupt"
    d.mkdir()
    raw = bytearray((TABLES / "KRvK.rtbw").read_bytes())
    raw[0:4] = b"XXXX"  # wrong magic
    (d / "KRvK.rtbw").write_bytes(bytes(raw))
    with ksyzygy.open_tablebase(d) as tb:
        with pytest.raises(OSError) as raised:
            tb.probe_wdl(kibitz.Board("8/8/8/3k4/8/8/8/KR6 w - - 0 1"))
        message = str(raised.value)
        assert "KRvK" in message and "\n" not in message, message


def test_a_missing_directory_raises() -> None:
    with pytest.raises(OSError):
        ksyzygy.open_tablebase(TABLES / "nope")
