"""kibitz.syzygy against python-chess's chess.syzygy on the real 3- and 4-piece tables in
tests/data/syzygy: every public name and constant; the raw table readers (WdlTable,
DtzTable) and every probe on random positions of every table, with kibitz and python-chess
boards; positions kibitz cannot play and table sets with holes, where kibitz runs
python-chess's algorithm; the same answers, defaults and exceptions (types and messages);
and python-chess's own syzygy tests (its test.py, SyzygyTestCase) with kibitz in place."""

from __future__ import annotations

import os
import random
import shutil
import types
from contextlib import ExitStack
from pathlib import Path
from typing import Any, Callable, Iterator

import chess
import chess.syzygy
import chess.variant
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kibitz
import kibitz.syzygy as ksyzygy
from reference import random_placement

TABLES = Path(__file__).resolve().parents[1] / "data" / "syzygy"
TABLE_NAMES = sorted({p.stem for p in TABLES.glob("*.rtbw")})
PROBES = ("probe_wdl", "probe_dtz", "probe_dtz_no_ep", "probe_wdl_table", "get_wdl", "get_dtz")


@pytest.fixture(scope="module")
def theirs() -> Iterator[chess.syzygy.Tablebase]:
    with chess.syzygy.open_tablebase(str(TABLES)) as tb:
        yield tb


@pytest.fixture(scope="module")
def ours() -> Iterator[ksyzygy.Tablebase]:
    with ksyzygy.open_tablebase(TABLES) as tb:
        yield tb


def outcome(probe: Callable[[], Any]) -> tuple[str, Any]:
    """What a probe gives: its value, or its exception's type name and message."""
    try:
        return "value", probe()
    except Exception as e:  # noqa: BLE001 (any exception is an answer to compare)
        return type(e).__name__, str(e)


def assert_same_answers(theirs: Any, ours: Any, board: chess.Board, probes: tuple[str, ...] = PROBES) -> None:
    """Each probe of `ours` (on a kibitz board and on the python-chess board) answers as
    `theirs` does on the python-chess board."""
    for probe in probes:
        want = outcome(lambda: getattr(theirs, probe)(board.copy()))
        assert outcome(lambda: getattr(ours, probe)(kibitz.Board(board.fen()))) == want, (probe, board.fen())
        assert outcome(lambda: getattr(ours, probe)(board.copy())) == want, (probe, board.fen())


def place(rng: random.Random, symbols: str, *, valid: bool = True) -> chess.Board:
    """A position with these pieces (upper case white) on random squares, random side to
    move, no pawn on a back rank; `valid`: python-chess's is_valid() holds."""
    return random_placement(rng, symbols, valid=valid)


def of_table(rng: random.Random, name: str, *, valid: bool = True) -> chess.Board:
    """A position of a table's material, either colour holding either side."""
    left, right = name.split("v")
    if rng.random() < 0.5:
        left, right = right, left
    return place(rng, left + right.lower(), valid=valid)


def random_material(rng: random.Random, extra: int, *, valid: bool = True) -> chess.Board:
    """Two kings and `extra` more pieces of any kind and colour."""
    return place(rng, "Kk" + "".join(rng.choice("QRBNPqrbnp") for _ in range(extra)), valid=valid)


def en_passant_position(rng: random.Random, extra: int) -> chess.Board:
    """A legal position where the side to move may take en passant: a pawn that just made
    a double step beside one of the other colour."""
    while True:
        file, side = rng.randrange(8), rng.choice([-1, 1])
        if not 0 <= file + side < 8:
            continue
        white = rng.random() < 0.5
        pawn_rank, ep_rank = (4, 5) if white else (3, 2)
        board = chess.Board(None)
        board.set_piece_at(chess.square(file, pawn_rank), chess.Piece(chess.PAWN, not white))
        board.set_piece_at(chess.square(file + side, pawn_rank), chess.Piece(chess.PAWN, white))
        behind = {chess.square(file, ep_rank), chess.square(file, ep_rank + (1 if white else -1))}
        free = [s for s in range(64) if board.piece_at(s) is None and s not in behind]
        squares = rng.sample(free, 2 + extra)
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        for square in squares[2:]:
            symbol = rng.choice("QRBN")
            board.set_piece_at(square, chess.Piece.from_symbol(symbol if rng.random() < 0.5 else symbol.lower()))
        board.turn = white
        board.ep_square = chess.square(file, ep_rank)
        if board.is_valid():
            return board


# The names --------------------------------------------------------------------------------


def public_names() -> list[str]:
    """chess.syzygy's public names, less the modules and typing helpers it imports and the
    loop variables its tables leave behind (i, j, s)."""
    names = []
    for name in dir(chess.syzygy):
        value = getattr(chess.syzygy, name)
        if name.startswith("_") or name in ("i", "j", "s") or isinstance(value, types.ModuleType):
            continue
        if getattr(value, "__module__", None) in ("typing", "builtins", "__future__"):
            continue
        names.append(name)
    return names


def test_every_public_name_of_chess_syzygy_is_here() -> None:
    names = public_names()
    assert len(names) == 47
    missing = [name for name in names if not hasattr(ksyzygy, name)]
    assert not missing
    assert set(names) <= set(ksyzygy.__all__)
    for cls in ("Tablebase",):
        theirs = {n for n in dir(getattr(chess.syzygy, cls)) if not n.startswith("_")}
        assert theirs <= set(dir(getattr(ksyzygy, cls)))
    for cls, kind in (("WdlTable", "wdl"), ("DtzTable", "dtz")):
        for method in (f"init_table_{kind}", f"probe_{kind}_table", "init_mmap", "check_magic", "close"):
            assert callable(getattr(getattr(ksyzygy, cls), method)), (cls, method)
        for method in ("encode_piece", "encode_pawn", "pawn_file", "decompress_pairs", "read_uint16", "read_uint32"):
            assert callable(getattr(getattr(ksyzygy, cls), method)), (cls, method)


def test_constants_are_python_chess_values() -> None:
    for name in public_names():
        value = getattr(chess.syzygy, name)
        if isinstance(value, (int, list)):
            assert getattr(ksyzygy, name) == value, name
    assert ksyzygy.TABLENAME_REGEX.pattern == chess.syzygy.TABLENAME_REGEX.pattern
    for name in ("UINT16", "UINT32", "UINT32_BE", "UINT64_BE"):
        assert getattr(ksyzygy, name).format == getattr(chess.syzygy, name).format


def test_missing_table_error_is_a_key_error() -> None:
    assert issubclass(ksyzygy.MissingTableError, KeyError)


def test_name_helpers_are_python_chess_helpers() -> None:
    for count in range(0, 8):
        for one_king in (True, False):
            ours = list(ksyzygy.tablenames(one_king=one_king, piece_count=count))
            assert ours == list(chess.syzygy.tablenames(one_king=one_king, piece_count=count)), (count, one_king)
    assert list(ksyzygy.tablenames()) == list(chess.syzygy.tablenames())
    names = list(chess.syzygy.tablenames(piece_count=7)) + list(chess.syzygy.tablenames(one_king=False, piece_count=5))
    for name in names:
        left, right = name.split("v")
        for variant in (name, right + "v" + left, left[::-1] + "v" + right[::-1]):
            for mirror in (False, True):
                assert ksyzygy.normalize_tablename(variant, mirror=mirror) == chess.syzygy.normalize_tablename(
                    variant, mirror=mirror
                )
            for one_king in (True, False):
                for normalized in (True, False):
                    for count in (None, 4, 7):
                        kwargs = dict(one_king=one_king, normalized=normalized, piece_count=count)
                        assert ksyzygy.is_tablename(variant, **kwargs) == chess.syzygy.is_tablename(variant, **kwargs)
    for name in list(chess.syzygy.tablenames(piece_count=6))[::7]:
        for one_king in (True, False):
            assert list(ksyzygy.dependencies(name, one_king=one_king)) == list(
                chess.syzygy.dependencies(name, one_king=one_king)
            )
            assert list(ksyzygy.all_dependencies([name, "KPvK"], one_king=one_king)) == list(
                chess.syzygy.all_dependencies([name, "KPvK"], one_king=one_king)
            )
    for bad in ("", "KvK", "Kv", "vK", "KQ", "KXvK", "kqvk", "KQvK ", "QvK"):
        assert ksyzygy.is_tablename(bad) == chess.syzygy.is_tablename(bad), bad
    for x in range(-3, 70):
        for y in range(-3, 9):
            assert ksyzygy.binom(x, y) == chess.syzygy.binom(x, y)
            assert ksyzygy.subfactor(y, x) == chess.syzygy.subfactor(y, x)
    for wdl in range(-2, 3):
        assert ksyzygy.dtz_before_zeroing(wdl) == chess.syzygy.dtz_before_zeroing(wdl)
    for square in range(64):
        assert ksyzygy.offdiag(square) == chess.syzygy.offdiag(square)
        assert ksyzygy.flipdiag(square) == chess.syzygy.flipdiag(square)
        assert ksyzygy.test45(square) == chess.syzygy.test45(square)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_material_keys_are_python_chess_keys(seed: int) -> None:
    rng = random.Random(seed)
    board = random_material(rng, rng.randrange(0, 6), valid=False)
    for mirror in (False, True):
        want = chess.syzygy.calc_key(board, mirror=mirror)
        assert ksyzygy.calc_key(board, mirror=mirror) == want
        assert ksyzygy.calc_key(kibitz.Board(board.fen()), mirror=mirror) == want
    codes = [rng.choice([1, 2, 3, 4, 5, 6, 9, 10, 11, 12, 13, 14]) for _ in range(rng.randrange(7))]
    for mirror in (False, True):
        assert ksyzygy.recalc_key(codes, mirror=mirror) == chess.syzygy.recalc_key(codes, mirror=mirror)


# The tables, read in Python ---------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(TABLE_NAMES), st.integers(0, 2**32 - 1))
def test_raw_tables_read_python_chess_values(name: str, seed: int) -> None:
    rng = random.Random(seed)
    with ExitStack() as stack:
        their_wdl = stack.enter_context(chess.syzygy.WdlTable(str(TABLES / f"{name}.rtbw")))
        their_dtz = stack.enter_context(chess.syzygy.DtzTable(str(TABLES / f"{name}.rtbz")))
        our_wdl = stack.enter_context(ksyzygy.WdlTable(TABLES / f"{name}.rtbw"))
        our_dtz = stack.enter_context(ksyzygy.DtzTable(TABLES / f"{name}.rtbz"))
        their_wdl.init_table_wdl()
        their_dtz.init_table_dtz()
        for _ in range(8):
            board = of_table(rng, name)
            want = their_wdl.probe_wdl_table(board)
            assert our_wdl.probe_wdl_table(board) == want, board.fen()
            assert our_wdl.probe_wdl_table(kibitz.Board(board.fen())) == want, board.fen()
            for wdl in (-2, -1, 1, 2):
                want_dtz = their_dtz.probe_dtz_table(board, wdl)
                assert our_dtz.probe_dtz_table(board, wdl) == want_dtz, (board.fen(), wdl)
        assert (our_wdl.key, our_wdl.mirrored_key) == (their_wdl.key, their_wdl.mirrored_key)
        assert (our_dtz.key, our_dtz.mirrored_key) == (their_dtz.key, their_dtz.mirrored_key)
        assert (our_wdl.num, our_wdl.symmetric, our_wdl.has_pawns) == (
            their_wdl.num,
            their_wdl.symmetric,
            their_wdl.has_pawns,
        )


def test_a_table_refuses_other_material() -> None:
    with ksyzygy.WdlTable(TABLES / "KRvK.rtbw") as table:
        with pytest.raises(ValueError, match="KRvK"):
            table.probe_wdl_table(chess.Board("8/8/8/3k4/8/8/8/KQ6 w - - 0 1"))


# The probes ------------------------------------------------------------------------------


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(TABLE_NAMES), st.integers(0, 2**32 - 1))
def test_every_table_answers_as_python_chess(
    theirs: chess.syzygy.Tablebase, ours: ksyzygy.Tablebase, name: str, seed: int
) -> None:
    rng = random.Random(seed)
    for _ in range(5):
        assert_same_answers(theirs, ours, of_table(rng, name))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_en_passant_positions_answer_as_python_chess(
    theirs: chess.syzygy.Tablebase, ours: ksyzygy.Tablebase, seed: int
) -> None:
    rng = random.Random(seed)
    for _ in range(5):
        board = en_passant_position(rng, rng.choice([0, 0, 1]))
        assert_same_answers(theirs, ours, board)
        assert outcome(lambda: ours.probe_ab(board, -2, 2)) == outcome(lambda: theirs.probe_ab(board.copy(), -2, 2))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([1, 2, 2, 3]))
def test_positions_kibitz_cannot_play_answer_as_python_chess(
    theirs: chess.syzygy.Tablebase, ours: ksyzygy.Tablebase, seed: int, extra: int
) -> None:
    """Any placement of two kings and a few pieces, most of them the side not to move in
    check: python-chess answers, or raises, as its move generator leads it."""
    rng = random.Random(seed)
    for _ in range(5):
        board = random_material(rng, extra, valid=False)
        assert_same_answers(theirs, ours, board, ("probe_wdl", "probe_dtz", "get_wdl", "get_dtz"))


def test_the_side_not_to_move_in_check_gets_python_chess_answers(
    theirs: chess.syzygy.Tablebase, ours: ksyzygy.Tablebase
) -> None:
    rng = random.Random(5)
    answered = raised = 0
    for _ in range(400):
        board = random_material(rng, rng.choice([1, 2]), valid=False)
        if not board.was_into_check():
            continue
        assert_same_answers(theirs, ours, board, ("probe_wdl", "probe_dtz", "get_wdl", "get_dtz"))
        if ours.get_wdl(kibitz.Board(board.fen())) is None:
            raised += 1
        else:
            answered += 1
    # python-chess takes the king, and answers only when a capture settles the position first.
    assert answered > 0 and raised > 0


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_five_pieces_with_four_piece_tables(theirs: chess.syzygy.Tablebase, ours: ksyzygy.Tablebase, seed: int) -> None:
    """MissingTableError naming the table python-chess meets first, or python-chess's value
    where a capture settles the position."""
    rng = random.Random(seed)
    for _ in range(5):
        assert_same_answers(theirs, ours, random_material(rng, 3))


def test_five_pieces_raise_missing_table_error_or_answer(
    theirs: chess.syzygy.Tablebase, ours: ksyzygy.Tablebase
) -> None:
    board = kibitz.Board("4k3/8/8/8/8/8/2RQ4/4K2r w - - 0 1")
    with pytest.raises(ksyzygy.MissingTableError, match="did not find wdl table KQRvKR"):
        ours.probe_wdl(board)
    with pytest.raises(ksyzygy.MissingTableError):
        ours.probe_dtz(board)
    assert ours.get_wdl(board) is None and ours.get_dtz(board, -99) == -99
    # Among random 5-piece positions, some are settled by a capture before the missing
    # table is met (a value), the others raise.
    rng = random.Random(11)
    answers = set()
    for _ in range(300):
        b = random_material(rng, 3)
        answers.add(outcome(lambda: ours.probe_wdl(kibitz.Board(b.fen())))[0])
    assert answers == {"value", "MissingTableError"}


@pytest.mark.parametrize("seed", range(6))
def test_table_sets_with_holes_answer_as_python_chess(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    for path in TABLES.iterdir():
        if path.suffix in (".rtbw", ".rtbz") and rng.random() < 0.75:
            shutil.copy(path, tmp_path / path.name)
    with ksyzygy.open_tablebase(tmp_path) as ours, chess.syzygy.open_tablebase(str(tmp_path)) as theirs:
        for _ in range(60):
            board = random_material(rng, rng.choice([1, 2, 2, 3]), valid=rng.random() < 0.8)
            assert_same_answers(theirs, ours, board)


def test_wdl_only_tables_answer_dtz_as_python_chess(tmp_path: Path) -> None:
    """Without DTZ tables python-chess still answers a DTZ probe where a capture or a pawn
    step zeroes at once; elsewhere MissingTableError names the DTZ table."""
    with (
        ksyzygy.open_tablebase(TABLES, load_dtz=False) as ours,
        chess.syzygy.open_tablebase(str(TABLES), load_dtz=False) as theirs,
    ):
        rng = random.Random(3)
        kinds = set()
        for _ in range(150):
            board = random_material(rng, rng.choice([1, 2]))
            assert_same_answers(theirs, ours, board, ("probe_dtz", "get_dtz"))
            kinds.add(outcome(lambda: ours.probe_dtz(board))[0])
        assert kinds == {"value", "MissingTableError"}


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_probe_ab_and_tables_are_python_chess_answers(
    theirs: chess.syzygy.Tablebase, ours: ksyzygy.Tablebase, seed: int
) -> None:
    rng = random.Random(seed)
    for _ in range(4):
        board = random_material(rng, rng.choice([1, 2, 3]))
        for window in ((-2, 2), (-2, 0), (0, 2), (1, 2)):
            want = outcome(lambda: theirs.probe_ab(board.copy(), *window))
            assert outcome(lambda: ours.probe_ab(kibitz.Board(board.fen()), *window)) == want, (board.fen(), window)
        for wdl in (-2, -1, 1, 2):
            want = outcome(lambda: theirs.probe_dtz_table(board.copy(), wdl))
            assert outcome(lambda: ours.probe_dtz_table(kibitz.Board(board.fen()), wdl)) == want


# Errors, defaults, loading --------------------------------------------------------------


def test_errors_are_python_chess_errors(tmp_path: Path) -> None:
    some = tmp_path / "some"
    some.mkdir()
    for name in ("KRvK.rtbw", "KRvK.rtbz"):
        shutil.copy(TABLES / name, some / name)
    with ksyzygy.open_tablebase(some) as ours, chess.syzygy.open_tablebase(str(some)) as theirs:
        for fen in (
            "8/8/8/3k4/8/8/8/KQ6 w - - 0 1",  # no KQvK table
            "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1",  # castling rights
            chess.STARTING_FEN,  # castling rights and 32 pieces
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",  # 32 pieces
            "1k6/8/8/8/8/8/PPPPPPP1/K7 w - - 0 1",  # 9 pieces
            "1k6/8/8/8/8/8/PPPPPP2/K7 w - - 0 1",  # 8 pieces: one more than a table
            "8/8/8/3k4/8/8/8/KR6 w - - 0 1",
        ):
            assert_same_answers(theirs, ours, chess.Board(fen))
        with pytest.raises(ksyzygy.MissingTableError, match="did not find wdl table KQvK"):
            ours.probe_wdl(kibitz.Board("8/8/8/3k4/8/8/8/KQ6 w - - 0 1"))
        with pytest.raises(KeyError, match="castling rights"):
            ours.probe_wdl(kibitz.Board("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"))


def test_boards_of_other_variants_are_refused() -> None:
    """A standard tablebase refuses a board of a variant as python-chess's does (the
    variants' own tables: tests/python/test_syzygy_variants.py)."""
    atomic = chess.variant.AtomicBoard("8/8/8/3k4/8/8/8/KR6 w - - 0 1")
    with ksyzygy.open_tablebase(TABLES) as ours, chess.syzygy.open_tablebase(str(TABLES)) as theirs:
        assert outcome(lambda: ours.probe_wdl(atomic)) == outcome(lambda: theirs.probe_wdl(atomic))
        assert ours.get_dtz(atomic) is None
    with ksyzygy.Tablebase(VariantBoard=chess.Board) as standard:  # python-chess's standard board
        assert standard.probe_wdl(chess.Board("8/8/8/3k4/8/8/8/K7 w - - 0 1")) == 0


def test_defaults(ours: ksyzygy.Tablebase) -> None:
    with ksyzygy.Tablebase() as empty:
        board = kibitz.Board()
        assert empty.get_dtz(board, empty.get_wdl(board)) is None
        bare = kibitz.Board("8/8/8/3k4/8/8/8/K7 w - - 0 1")
        assert empty.probe_wdl(bare) == 0 and empty.probe_dtz(bare) == 0  # bare kings need no table
        assert empty.get_wdl(kibitz.Board("8/8/8/3k4/8/8/8/KR6 w - - 0 1"), "none") == "none"
    board = kibitz.Board("8/8/8/3k4/8/8/8/KR6 w - - 0 1")
    assert ours.get_wdl(board) == 2 and ours.get_wdl(board, default=7) == 2
    assert ours.get_dtz(kibitz.Board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"), default=-1) == -1


def test_known_endgames(ours: ksyzygy.Tablebase) -> None:
    assert ours.max_pieces == 4
    assert ours.probe_wdl(kibitz.Board("8/8/8/8/8/8/8/K1k5 w - - 0 1")) == 0  # bare kings
    # KRvK is won for the rook's side, lost for the other side.
    assert ours.probe_wdl(kibitz.Board("8/8/8/3k4/8/8/8/KR6 w - - 0 1")) == 2
    assert ours.probe_wdl(kibitz.Board("8/8/8/3k4/8/8/8/KR6 b - - 0 1")) == -2
    # KBvK is a draw whoever moves.
    assert ours.probe_dtz(kibitz.Board("8/8/8/3k4/8/8/8/KB6 b - - 0 1")) == 0


def test_load_flags_choose_the_table_kinds() -> None:
    tb = ksyzygy.Tablebase()
    assert tb.add_directory(TABLES, load_dtz=False) == len(list(TABLES.glob("*.rtbw")))
    board = kibitz.Board("8/8/8/3k4/8/8/8/KR6 w - - 0 1")
    assert tb.probe_wdl(board) == 2
    with pytest.raises(ksyzygy.MissingTableError, match="did not find dtz table KRvK"):
        tb.probe_dtz(board)  # no DTZ table loaded
    assert tb.add_file(TABLES / "KRvK.rtbz") == 1 and tb.probe_dtz(board) > 0
    assert tb.add_file(TABLES / "SOURCE.txt") == 0 and tb.add_file(TABLES / "KQvK.rtbz", load_dtz=False) == 0
    tb.close()
    with pytest.raises(ksyzygy.MissingTableError):
        tb.probe_wdl(board)


def test_broken_and_foreign_files(tmp_path: Path) -> None:
    """python-chess's behaviour: a file is taken by its name and read when first probed (a
    truncated one raises OSError then); kibitz also lists what its Rust tables skipped."""
    d = tmp_path / "mixed"
    d.mkdir()
    shutil.copy(TABLES / "KRvK.rtbw", d / "KRvK.rtbw")
    shutil.copy(TABLES / "KRvK.rtbz", d / "KRvK.rtbz")
    (d / "KQvK.rtbw").write_bytes((TABLES / "KQvK.rtbw").read_bytes()[:10])  # truncated
    (d / "notes.txt").write_text("not a table")
    (d / "Kxyz.rtbw").write_bytes(b"\0" * 64)  # not a table name
    with ksyzygy.open_tablebase(d) as ours, chess.syzygy.open_tablebase(str(d)) as theirs:
        assert ours.probe_wdl(kibitz.Board("8/8/8/3k4/8/8/8/KR6 w - - 0 1")) == 2
        skipped = {Path(p).name for p, _ in ours.skipped}
        assert skipped == {"KQvK.rtbw"}
        queen = chess.Board("8/8/8/3k4/8/8/8/KQ6 w - - 0 1")
        assert_same_answers(theirs, ours, queen, ("probe_wdl", "probe_dtz"))
        with pytest.raises(OSError, match="invalid file size"):
            ours.probe_wdl(kibitz.Board(queen.fen()))
    assert ksyzygy.Tablebase().add_directory(d) == chess.syzygy.Tablebase().add_directory(str(d)) == 3


def test_a_corrupt_table_of_the_right_size_raises_oserror(tmp_path: Path) -> None:
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


def test_max_fds_bounds_the_open_tables(ours: ksyzygy.Tablebase) -> None:
    with ksyzygy.open_tablebase(TABLES, max_fds=2) as tb:
        for name in TABLE_NAMES[:6]:
            tb.probe_wdl_table(of_table(random.Random(name), name))
        assert len(tb.lru) == 2
        assert len({id(table) for table in tb.wdl.values() if table.data is not None}) == 2


# python-chess's own tests (test.py, SyzygyTestCase), kibitz in place ------------------------


class TestPythonChessSyzygyCase:
    """python-chess's SyzygyTestCase with kibitz.syzygy and kibitz boards. Its data
    directory's tables are the 3- to 5-piece ones; tests/data/syzygy has the 3- and 4-piece
    tables, so its EPD suite (4-piece positions with their wdl_table, wdl and dtz) becomes
    random positions checked against python-chess, and the 5-piece tests see
    MissingTableError, as python-chess's do without those tables (they skip on it). Its
    suicide tests need variant tables kibitz does not read."""

    def test_calc_key(self) -> None:
        board = kibitz.Board("8/8/8/5N2/5K2/2kB4/8/8 b - - 0 1")
        assert ksyzygy.calc_key(board) == ksyzygy.normalize_tablename("KBNvK")

    def test_tablenames(self) -> None:
        names = set(ksyzygy.tablenames())
        for name in ("KPPvKN", "KNNPvKN", "KQRNvKR", "KRRRvKR", "KRRvKRR", "KRNvKRP", "KRPvKP"):
            assert name in names

    def test_suicide_tablenames(self) -> None:
        assert sum(1 for eg in ksyzygy.tablenames(one_king=False) if len(eg) == 7) == 5754

    def test_normalize_tablename(self) -> None:
        names = set(ksyzygy.tablenames())
        for name in names:
            assert ksyzygy.normalize_tablename(name) in names
            w, b = name.split("v", 1)
            assert ksyzygy.normalize_tablename(b + "v" + w) in names

    def test_normalize_nnvbb(self) -> None:
        assert ksyzygy.normalize_tablename("KNNvKBB") == "KBBvKNN"

    def test_dependencies(self) -> None:
        assert set(ksyzygy.dependencies("KBNvK")) == {"KBvK", "KNvK"}

    def test_get_wdl_get_dtz(self) -> None:
        with ksyzygy.Tablebase() as tables:
            board = kibitz.Board()
            assert tables.get_dtz(board, tables.get_wdl(board)) is None

    def test_probe_pawnless_wdl_table(self) -> None:
        wdl = ksyzygy.WdlTable(str(TABLES / "KBNvK.rtbw"))
        wdl.init_table_wdl()
        for fen, want in (
            ("8/8/8/5N2/5K2/2kB4/8/8 b - - 0 1", -2),
            ("7B/5kNK/8/8/8/8/8/8 w - - 0 1", 2),
            ("N7/8/2k5/8/7K/8/8/B7 w - - 0 1", 2),
            ("8/8/1NkB4/8/7K/8/8/8 w - - 1 1", 0),
            ("8/8/8/2n5/2b1K3/2k5/8/8 w - - 0 1", -2),
        ):
            assert wdl.probe_wdl_table(kibitz.Board(fen)) == want, fen
        wdl.close()

    def test_probe_wdl_table(self) -> None:
        wdl = ksyzygy.WdlTable(str(TABLES / "KRvKP.rtbw"))
        wdl.init_table_wdl()
        assert wdl.probe_wdl_table(kibitz.Board("8/8/2K5/4P3/8/8/8/3r3k b - - 1 1")) == 0
        assert wdl.probe_wdl_table(kibitz.Board("8/8/2K5/8/4P3/8/8/3r3k b - - 1 1")) == 2
        wdl.close()

    def test_probe_dtz_table_piece(self) -> None:
        dtz = ksyzygy.DtzTable(str(TABLES / "KRvKN.rtbz"))
        dtz.init_table_dtz()
        # Pawnless position with white to move, then the same with black to move.
        assert dtz.probe_dtz_table(kibitz.Board("7n/6k1/4R3/4K3/8/8/8/8 w - - 0 1"), 2) == (0, -1)
        assert dtz.probe_dtz_table(kibitz.Board("7n/6k1/4R3/4K3/8/8/8/8 b - - 1 1"), -2) == (8, 1)
        dtz.close()

    def test_probe_dtz_table_pawn(self) -> None:
        dtz = ksyzygy.DtzTable(str(TABLES / "KNvKP.rtbz"))
        dtz.init_table_dtz()
        assert dtz.probe_dtz_table(kibitz.Board("8/1K6/1P6/8/8/8/6n1/7k w - - 0 1"), 2) == (2, 1)
        dtz.close()

    def test_probe_wdl_tablebase(self) -> None:
        with ksyzygy.Tablebase(max_fds=2) as tables:
            assert tables.add_directory(str(TABLES)) >= 70
            assert tables.probe_wdl_table(kibitz.Board("7k/6b1/6K1/8/8/8/8/3R4 b - - 12 7")) == -2  # KRvKB
            assert tables.probe_wdl_table(kibitz.Board("7k/8/8/4K3/3B4/4B3/8/8 b - - 12 7")) == 0  # KBBvK
            assert tables.probe_wdl_table(kibitz.Board("7k/8/8/4K2B/8/4B3/8/8 w - - 12 7")) == 2

    def test_wdl_ep(self) -> None:
        with ksyzygy.open_tablebase(str(TABLES)) as tables:
            # Winning KPvKP because of en passant; without it, a draw.
            board = kibitz.Board("8/8/8/k2Pp3/8/8/8/4K3 w - e6 0 2")
            assert tables.probe_wdl_table(board) == 0
            assert tables.probe_wdl(board) == 2

    def test_dtz_ep(self) -> None:
        with ksyzygy.open_tablebase(str(TABLES)) as tables:
            board = kibitz.Board("8/8/8/8/2pP4/2K5/4k3/8 b - d3 0 1")
            assert tables.probe_dtz_no_ep(board) == -1
            assert tables.probe_dtz(board) == 1

    def test_testsuite(self, theirs: chess.syzygy.Tablebase) -> None:
        with ksyzygy.open_tablebase(str(TABLES)) as tables:
            rng = random.Random(200)
            for line in range(200):
                board = of_table(rng, rng.choice(TABLE_NAMES))
                ours = kibitz.Board(board.fen())
                assert tables.probe_wdl_table(ours) == theirs.probe_wdl_table(board), (line, board.fen())
                assert tables.probe_wdl(ours) == theirs.probe_wdl(board), (line, board.fen())
                assert tables.probe_dtz(ours) == theirs.probe_dtz(board), (line, board.fen())

    def test_stockfish_dtz_bug(self) -> None:
        with ksyzygy.open_tablebase(str(TABLES)) as tables:
            with pytest.raises(ksyzygy.MissingTableError):  # python-chess's test skips on this
                tables.probe_dtz(kibitz.Board("3K4/8/3k4/8/4p3/4B3/5P2/8 w - - 0 5"))

    def test_issue_93(self) -> None:
        with ksyzygy.open_tablebase(str(TABLES)) as tables:
            board = kibitz.Board("4r1K1/6PP/3k4/8/8/8/8/8 w - - 1 64")
            with pytest.raises(ksyzygy.MissingTableError):  # python-chess's test skips on this
                tables.probe_wdl(board)

    def test_antichess_kvk(self) -> None:
        kvk = chess.variant.AntichessBoard("4k3/8/8/8/8/8/8/4K3 w - - 0 1")
        with pytest.raises(KeyError):
            ksyzygy.Tablebase().probe_dtz(kvk)
        with pytest.raises(ksyzygy.MissingTableError):
            ksyzygy.Tablebase(VariantBoard=chess.variant.AntichessBoard).probe_dtz(kvk)


def _open_table_files() -> int:
    """How many of this process's open files are table files."""
    fds = Path("/proc/self/fd")
    count = 0
    for fd in fds.iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        count += target.endswith((".rtbw", ".rtbz"))
    return count


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc to count open files")
@pytest.mark.parametrize("max_fds", [2, 4, 9])
def test_at_most_max_fds_table_files_are_open(max_fds: int) -> None:
    """python-chess's max_fds: probes that reach every table keep about that many table
    files open (a six- or seven-piece set has more files than a process may hold open; the
    1,024 of the usual limit were passed before), and the answers stay python-chess's."""
    rng = random.Random(max_fds)
    boards = [en_passant_position(rng, 0) if rng.random() < 0.2 else of_table(rng, name) for name in TABLE_NAMES * 2]
    before = _open_table_files()
    with ksyzygy.open_tablebase(TABLES, max_fds=max_fds) as ours:
        most = 0
        for board in boards:
            ours.get_wdl(board)
            ours.get_dtz(board)
            most = max(most, _open_table_files() - before)
        # The Rust tables keep one open even when the Python prober holds max_fds.
        assert 2 <= most <= max_fds + 1
        with chess.syzygy.open_tablebase(str(TABLES)) as theirs:
            for board in boards[::5]:
                assert_same_answers(theirs, ours, board, ("probe_wdl", "probe_dtz"))
    assert _open_table_files() == before  # close() closes them all
