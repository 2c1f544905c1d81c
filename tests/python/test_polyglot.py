"""kibitz.polyglot against python-chess's chess.polyglot: the same keys, the same entries,
the same picks for the same random seed, on the built-in book and on a book built from
games, for kibitz boards and python-chess boards alike."""

from __future__ import annotations

import random
import struct
from pathlib import Path

import chess
import chess.polyglot
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kibitz
import kibitz.polyglot as kpoly
from kibitz.book import DEFAULT_BOOK, build_from_games, read_pgn_file

DATA = Path(__file__).resolve().parents[1] / "data"


def random_game_fens(seed: int, plies: int) -> list[str]:
    """FENs along a random legal game played with python-chess (pawn double steps and
    castling favoured, so en passant and castling-rights cases come up often)."""
    rng = random.Random(seed)
    board = chess.Board()
    fens = [board.fen()]
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        special = [m for m in moves if board.is_castling(m) or abs(m.to_square - m.from_square) == 16]
        move = rng.choice(special if special and rng.random() < 0.4 else moves)
        board.push(move)
        fens.append(board.fen())
    return fens


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_keys_are_python_chess_keys_for_both_kinds_of_board(seed: int) -> None:
    for fen in random_game_fens(seed, 60):
        want = chess.polyglot.zobrist_hash(chess.Board(fen))
        assert kpoly.zobrist_hash(kibitz.Board(fen)) == want, fen
        assert kpoly.zobrist_hash(chess.Board(fen)) == want, fen


def test_en_passant_is_hashed_when_a_pawn_stands_beside_even_if_the_capture_is_illegal() -> None:
    # The capturing pawn on e5 is pinned to its king by the rook on h5: the capture is
    # illegal, but Polyglot hashes the file all the same.
    fen = "7k/8/8/K2pP2r/8/8/8/8 w - d6 0 2"
    want = chess.polyglot.zobrist_hash(chess.Board(fen))
    assert kpoly.zobrist_hash(chess.Board(fen)) == want
    assert kpoly.ZobristHasher(kpoly.POLYGLOT_RANDOM_ARRAY)(chess.Board(fen)) == want
    no_ep = chess.polyglot.zobrist_hash(chess.Board(fen.replace(" d6 ", " - ")))
    assert want != no_ep


def test_the_random_array_is_polyglots() -> None:
    assert kpoly.POLYGLOT_RANDOM_ARRAY == list(chess.polyglot.POLYGLOT_RANDOM_ARRAY)


def entries_of(reader, board) -> list[tuple[str, int, int]]:  # type: ignore[no-untyped-def]
    return [(e.move.uci(), e.weight, e.learn) for e in reader.find_all(board)]


def book_positions(path: Path, walks: int, seed: int) -> list[str]:
    """Positions reached by following book moves from the start (python-chess's reader
    picks them), so that lookups hit entries."""
    rng = random.Random(seed)
    fens = []
    with chess.polyglot.open_reader(path) as reader:
        for _ in range(walks):
            board = chess.Board()
            for _ in range(20):
                fens.append(board.fen())
                entries = list(reader.find_all(board))
                if not entries:
                    break
                board.push(rng.choice(entries).move)
    return fens


@pytest.fixture(scope="module")
def games_book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = build_from_games(read_pgn_file(DATA / "book_games.pgn"), max_plies=24, min_games=1, use_results=True)
    path = tmp_path_factory.mktemp("book") / "games.bin"
    path.write_bytes(data)
    return path


@pytest.mark.parametrize("which", ["builtin", "games"])
def test_lookups_agree_with_python_chess(which: str, games_book: Path) -> None:
    path = DEFAULT_BOOK if which == "builtin" else games_book
    fens = book_positions(path, 30, 7)
    assert len(fens) > 50
    hits = 0
    with chess.polyglot.open_reader(path) as theirs, kpoly.open_reader(path) as ours:
        assert len(ours) == len(theirs)
        for fen in fens:
            want = entries_of(theirs, chess.Board(fen))
            assert entries_of(ours, kibitz.Board(fen)) == want, fen
            assert entries_of(ours, chess.Board(fen)) == want, fen
            hits += bool(want)
            for board in (kibitz.Board(fen), chess.Board(fen)):
                if want:
                    assert ours.find(board).move.uci() == theirs.find(chess.Board(fen)).move.uci()
                    for seed in range(3):
                        a = ours.weighted_choice(board, random=random.Random(seed))
                        b = theirs.weighted_choice(chess.Board(fen), random=random.Random(seed))
                        assert (a.move.uci(), a.weight) == (b.move.uci(), b.weight)
                        a = ours.choice(board, random=random.Random(seed))
                        b = theirs.choice(chess.Board(fen), random=random.Random(seed))
                        assert (a.move.uci(), a.weight) == (b.move.uci(), b.weight)
                else:
                    with pytest.raises(IndexError):
                        ours.find(board)
                    assert ours.get(board) is None
    assert hits > 20


def test_python_chess_boards_get_python_chess_moves_and_castling_in_their_notation(games_book: Path) -> None:
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
    with kpoly.open_reader(DEFAULT_BOOK) as reader:
        for entry in reader.find_all(board, minimum_weight=0):
            assert isinstance(entry.move, chess.Move)
            assert board.is_legal(entry.move)


def test_minimum_weight_exclude_moves_and_integer_keys(games_book: Path) -> None:
    board = chess.Board()
    with kpoly.open_reader(games_book) as ours, chess.polyglot.open_reader(games_book) as theirs:
        first = ours.find(kibitz.Board())
        excluded = [(e.move.uci(), e.weight) for e in ours.find_all(kibitz.Board(), exclude_moves=[first.move])]
        want = [
            (e.move.uci(), e.weight)
            for e in theirs.find_all(board, exclude_moves=[chess.Move.from_uci(first.move.uci())])
        ]
        assert excluded == want and first.move.uci() not in [m for m, _ in excluded]
        heavy = [e.weight for e in ours.find_all(kibitz.Board(), minimum_weight=3)]
        assert heavy == [e.weight for e in theirs.find_all(board, minimum_weight=3)]
        key = chess.polyglot.zobrist_hash(board)
        assert [e.raw_move for e in ours.find_all(key)] == [e.raw_move for e in theirs.find_all(key)]
        assert ours[0].key == theirs[0].key and ours[-1].raw_move == theirs[-1].raw_move


def test_an_empty_book_has_no_entries_and_a_closed_one_refuses(tmp_path: Path) -> None:
    empty = tmp_path / "empty.bin"
    empty.write_bytes(b"")
    with kpoly.open_reader(empty) as reader:
        assert len(reader) == 0
        assert list(reader.find_all(kibitz.Board())) == []
        with pytest.raises(IndexError):
            reader.weighted_choice(kibitz.Board())
    # A closed book raises ValueError on every read, as python-chess's closed map does (it
    # is no empty book: a use after close must not look like "no book move").
    for lib, module in ((kibitz, kpoly), (chess, chess.polyglot)):
        reader = module.open_reader(DEFAULT_BOOK)
        reader.close()
        for read in (
            len,
            list,
            lambda r: r[0],
            lambda r: list(r.find_all(lib.Board())),
            lambda r: r.choice(lib.Board()),
            lambda r: r.weighted_choice(lib.Board()),
        ):
            with pytest.raises(ValueError):
                read(reader)
        # find() turns it into "no entry" there (its max() of nothing), and get() into None.
        with pytest.raises(IndexError):
            reader.find(lib.Board())
        assert reader.get(lib.Board()) is None


def test_keys_are_whatever_int_takes_and_entries_of_either_library_are_found(games_book: Path) -> None:
    import numpy as np

    key = chess.polyglot.zobrist_hash(chess.Board())
    with kpoly.open_reader(games_book) as ours, chess.polyglot.open_reader(games_book) as theirs:
        for as_key in (np.uint64(key), str(key), key):
            assert [e.raw_move for e in ours.find_all(as_key)] == [e.raw_move for e in theirs.find_all(as_key)]
            assert ours.find(as_key).raw_move == theirs.find(as_key).raw_move
        entry, their_entry = ours.find(kibitz.Board()), theirs.find(chess.Board())
        assert entry in ours and their_entry in ours and entry in theirs
        assert (1, 2) not in ours and None not in ours
    assert kpoly.ENTRY_STRUCT.format == chess.polyglot.ENTRY_STRUCT.format


def test_python_chess_boards_with_an_en_passant_square_on_a1_hash_as_there() -> None:
    # python-chess tests `if board.ep_square`: a square a1 counts as none.
    board = chess.Board("8/8/8/8/8/8/1p6/K6k b - a1 0 1")
    assert kpoly.zobrist_hash(board) == chess.polyglot.zobrist_hash(board)
    hasher = kpoly.ZobristHasher(kpoly.POLYGLOT_RANDOM_ARRAY)
    assert hasher(board) == chess.polyglot.ZobristHasher(chess.polyglot.POLYGLOT_RANDOM_ARRAY)(board)


def test_a_missing_book_raises_oserror(tmp_path: Path) -> None:
    with pytest.raises(OSError):
        kpoly.open_reader(tmp_path / "nope.bin")


@pytest.mark.parametrize("tail", [1, 8, 15])
def test_a_book_whose_size_is_no_multiple_of_16_raises_oserror_as_python_chess_does(tmp_path: Path, tail: int) -> None:
    whole = DEFAULT_BOOK.read_bytes()[:64]
    path = tmp_path / "cut.bin"
    path.write_bytes(whole + b"\0" * tail)
    with pytest.raises(OSError) as theirs:
        chess.polyglot.open_reader(path)
    with pytest.raises(OSError) as ours:
        kpoly.open_reader(path)
    assert str(ours.value) == str(theirs.value)


def test_an_entry_from_a_square_to_itself_is_a_drop_as_python_chess_reads_it(tmp_path: Path) -> None:
    # e2e2 with the promotion bits of a rook (3 + 1 = 4): python-chess reads "R@e2".
    e2 = chess.E2
    raws = [e2 | e2 << 6 | 3 << 12, e2 | e2 << 6, chess.E4 | e2 << 6, chess.E8 | chess.E7 << 6 | 4 << 12]
    path = tmp_path / "drops.bin"
    path.write_bytes(b"".join(struct.pack(">QHHI", 1, raw, 1, 0) for raw in raws))
    with chess.polyglot.open_reader(path) as theirs, kpoly.open_reader(path) as ours:
        want = [(e.move.uci(), e.move.drop, e.move.promotion) for e in theirs]
        assert [(e.move.uci(), e.move.drop, e.move.promotion) for e in ours] == want
        assert [e.move.uci() for e in ours.find_all(1)] == [e.move.uci() for e in theirs.find_all(1)]
    assert want[0] == ("R@e2", chess.ROOK, None)
