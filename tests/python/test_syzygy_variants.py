"""kibitz.syzygy on the tables of variants (Atomic, Suicide, Giveaway, Antichess) against
python-chess's chess.syzygy, on real tables in tests/data/syzygy-variants (made by the
tables' own generator; see the README there): every probe on random positions of every
table, positions with a piece more (captures resolve them, or a missing table is named), the
raw table readers, the same answers, defaults and exceptions (types and messages), with
kibitz's and python-chess's variant boards; and the published values of the suicide tables
(syzygy-tables.info, as python-chess's own test data gives them)."""

from __future__ import annotations

import random
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
import kibitz.variant.boards as kvariant
from reference import random_placement

DATA = Path(__file__).resolve().parents[1] / "data" / "syzygy-variants"
PROBES = ("probe_wdl", "probe_dtz", "probe_dtz_no_ep", "probe_wdl_table", "get_wdl", "get_dtz")

# name: (python-chess's board class, kibitz's, the tables' directory). Suicide on the
# giveaway tables and Giveaway on the suicide tables: the tables without pawns of the other
# suffix are taken by name, and then refused by their magic, as python-chess refuses them.
VARIANTS: dict[str, tuple[Any, Any, str]] = {
    "atomic": (chess.variant.AtomicBoard, kvariant.AtomicBoard, "atomic"),
    "suicide": (chess.variant.SuicideBoard, kvariant.SuicideBoard, "suicide"),
    "giveaway": (chess.variant.GiveawayBoard, kvariant.GiveawayBoard, "giveaway"),
    "antichess": (chess.variant.AntichessBoard, kvariant.AntichessBoard, "giveaway"),
    "suicide-on-giveaway-tables": (chess.variant.SuicideBoard, kvariant.SuicideBoard, "giveaway"),
    "giveaway-on-suicide-tables": (chess.variant.GiveawayBoard, kvariant.GiveawayBoard, "suicide"),
}


def table_names(directory: str) -> list[str]:
    return sorted({p.stem for p in (DATA / directory).iterdir() if p.suffix[2:] == "tbw"})


def outcome(probe: Callable[[], Any]) -> tuple[str, Any]:
    """What a probe gives: its value, or its exception's type name and message."""
    try:
        return "value", probe()
    except Exception as e:  # noqa: BLE001 (any exception is an answer to compare)
        return type(e).__name__, str(e)


class Pair:
    """python-chess's tablebase and kibitz's over one directory, for one variant."""

    def __init__(self, name: str) -> None:
        self.theirs_class, self.ours_class, directory = VARIANTS[name]
        self.directory = DATA / directory
        self.names = table_names(directory)
        self.theirs = chess.syzygy.open_tablebase(str(self.directory), VariantBoard=self.theirs_class)
        self.ours = ksyzygy.open_tablebase(self.directory, VariantBoard=self.ours_class)

    def close(self) -> None:
        self.theirs.close()
        self.ours.close()

    def assert_same_answers(self, board: chess.Board, probes: tuple[str, ...] = PROBES) -> None:
        """Each probe of kibitz's tablebase, on kibitz's board of the variant and on
        python-chess's, answers as python-chess's does on python-chess's board."""
        for probe in probes:
            want = outcome(lambda: getattr(self.theirs, probe)(board.copy()))
            mine = self.ours_class(board.fen())
            assert outcome(lambda: getattr(self.ours, probe)(mine)) == want, (probe, board.fen())
            assert mine.fen() == board.fen(), "the probe changed the board"
            assert outcome(lambda: getattr(self.ours, probe)(board.copy())) == want, (probe, board.fen())


@pytest.fixture(scope="module")
def pairs() -> Iterator[dict[str, Pair]]:
    made = {name: Pair(name) for name in VARIANTS}
    yield made
    for pair in made.values():
        pair.close()


def of_table(rng: random.Random, board_class: Any, name: str, extra: str = "") -> chess.Board:
    """A position of a table's material (either colour holding either side), with `extra`
    pieces more."""
    left, right = name.split("v")
    if rng.random() < 0.5:
        left, right = right, left
    return random_placement(rng, left + right.lower() + extra, board_class=board_class)


# The probes -----------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(VARIANTS)), st.integers(0, 2**32 - 1))
def test_every_table_answers_as_python_chess(pairs: dict[str, Pair], variant: str, seed: int) -> None:
    pair = pairs[variant]
    rng = random.Random(seed)
    for _ in range(4):
        pair.assert_same_answers(of_table(rng, pair.theirs_class, rng.choice(pair.names)))


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(sorted(VARIANTS)), st.integers(0, 2**32 - 1))
def test_a_piece_more_answers_as_python_chess(pairs: dict[str, Pair], variant: str, seed: int) -> None:
    """A piece more than the table: captures (compulsory in the losing variants, explosions
    in atomic) reach the tables, or the probe names the table it lacks."""
    pair = pairs[variant]
    rng = random.Random(seed)
    for _ in range(3):
        extra = rng.choice("QRBNPqrbnp")
        pair.assert_same_answers(of_table(rng, pair.theirs_class, rng.choice(pair.names), extra))


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(sorted(VARIANTS)), st.integers(0, 2**32 - 1))
def test_the_lower_probes_answer_as_python_chess(pairs: dict[str, Pair], variant: str, seed: int) -> None:
    pair = pairs[variant]
    rng = random.Random(seed)
    for _ in range(3):
        board = of_table(rng, pair.theirs_class, rng.choice(pair.names), rng.choice(["", "", "N", "p"]))
        for alpha, beta in ((-2, 2), (-1, 1), (0, 2), (1, 2)):
            for threats in (False, True):
                want = outcome(lambda: pair.theirs.probe_ab(board.copy(), alpha, beta, threats))
                assert outcome(lambda: pair.ours.probe_ab(board.copy(), alpha, beta, threats)) == want
        if pair.theirs_class.captures_compulsory:
            want = outcome(lambda: pair.theirs.sprobe_capts(board.copy(), -2, 2))
            assert outcome(lambda: pair.ours.sprobe_capts(board.copy(), -2, 2)) == want
        if not board.is_variant_end():
            want = outcome(lambda: pair.theirs.probe_wdl(board.copy()))
            if want[0] == "value" and want[1] != 0:
                want_dtz = outcome(lambda: pair.theirs.probe_dtz_table(board.copy(), want[1]))
                assert outcome(lambda: pair.ours.probe_dtz_table(board.copy(), want[1])) == want_dtz


def test_invalid_positions_answer_as_python_chess(pairs: dict[str, Pair]) -> None:
    """Placements python-chess calls invalid (the side not to move in check, kings missing
    or several): python-chess still probes them, as its move generator leads it."""
    rng = random.Random(11)
    for variant, pair in sorted(pairs.items()):
        for _ in range(40):
            name = rng.choice(pair.names)
            left, right = name.split("v")
            board = random_placement(rng, left + right.lower(), valid=False, board_class=pair.theirs_class)
            pair.assert_same_answers(board, ("probe_wdl", "probe_dtz", "get_wdl", "get_dtz"))


# The tables -----------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["atomic", "suicide", "giveaway"])
def test_raw_tables_read_python_chess_values(variant: str) -> None:
    """Every table file of the variant, read by kibitz's WdlTable and DtzTable and by
    python-chess's, gives the same stored values on random positions of its material."""
    theirs_class, ours_class, directory = VARIANTS[variant]
    rng = random.Random(variant)
    wdl_suffix, dtz_suffix = theirs_class.tbw_suffix, theirs_class.tbz_suffix
    checked = 0
    for name in table_names(directory):
        path = DATA / directory / name
        with ExitStack() as stack:
            their_wdl = stack.enter_context(chess.syzygy.WdlTable(str(path) + wdl_suffix, variant=theirs_class))
            our_wdl = stack.enter_context(ksyzygy.WdlTable(str(path) + wdl_suffix, variant=ours_class))
            has_dtz = Path(str(path) + dtz_suffix).exists()
            if has_dtz:
                their_dtz = stack.enter_context(chess.syzygy.DtzTable(str(path) + dtz_suffix, variant=theirs_class))
                our_dtz = stack.enter_context(ksyzygy.DtzTable(str(path) + dtz_suffix, variant=ours_class))
            for _ in range(6):
                board = of_table(rng, theirs_class, name)
                want = outcome(lambda: their_wdl.probe_wdl_table(board))
                assert outcome(lambda: our_wdl.probe_wdl_table(board)) == want, (name, board.fen())
                assert outcome(lambda: our_wdl.probe_wdl_table(ours_class(board.fen()))) == want
                if has_dtz:
                    for wdl in (-2, -1, 1, 2):
                        want_dtz = outcome(lambda: their_dtz.probe_dtz_table(board, wdl))
                        assert outcome(lambda: our_dtz.probe_dtz_table(board, wdl)) == want_dtz, (name, board.fen())
                checked += 1
            assert (our_wdl.key, our_wdl.mirrored_key, our_wdl.num, our_wdl.symmetric, our_wdl.has_pawns) == (
                their_wdl.key,
                their_wdl.mirrored_key,
                their_wdl.num,
                their_wdl.symmetric,
                their_wdl.has_pawns,
            )
    assert checked == 6 * len(table_names(directory)) >= 6 * 20


def test_every_encoding_of_the_losing_variants_is_read() -> None:
    """The giveaway tables here lead with three unique pieces, two unique ones (kings that
    may touch), two or three like pieces, and pawns: each kind of index is exercised."""
    with ExitStack() as stack:
        kinds = set()
        for name in table_names("giveaway"):
            table = stack.enter_context(
                ksyzygy.WdlTable(DATA / "giveaway" / f"{name}.gtbw", variant=kvariant.GiveawayBoard)
            )
            kinds.add("pawns" if table.has_pawns else table.enc_type)
    assert kinds >= {0, 2, 3, 4, "pawns"}


def test_published_suicide_values() -> None:
    """The suicide tables' values as syzygy-tables.info publishes them (python-chess's test
    data, its positions of up to three pieces), checked as python-chess's own tests check
    the published tables: WDL exact; DTZ exact for the lines of its DTZ test, within one
    ply for those of its statistics test."""
    counted = {"suicide-dtz.epd": 0, "suicide-stats.epd": 0}
    with ksyzygy.open_tablebase(DATA / "suicide", VariantBoard=kvariant.SuicideBoard) as tables:
        for name in counted:
            for line in (DATA / name).read_text().splitlines():
                board = kvariant.SuicideBoard()
                solution = board.set_epd(line)
                if "wdl" in solution:
                    assert tables.probe_wdl(board) == solution["wdl"], line
                dtz = tables.probe_dtz(board)
                if name == "suicide-dtz.epd":
                    assert dtz == solution["dtz"], line
                else:
                    assert abs(dtz - solution["dtz"]) <= 1, (line, dtz)
                counted[name] += 1
    assert counted == {"suicide-dtz.epd": 5, "suicide-stats.epd": 246}


# python-chess's behaviour at the edges -----------------------------------------------------


def test_python_chess_tests_of_variant_tables() -> None:
    """python-chess's own tests that need no table: a lone king in atomic has lost; an
    antichess KvK needs its table, and a standard tablebase refuses the board."""
    with ksyzygy.Tablebase(VariantBoard=kvariant.AtomicBoard) as tables:
        board = kvariant.AtomicBoard.empty()
        board.set_piece_at(chess.D1, chess.Piece.from_symbol("k"))
        assert tables.probe_wdl(board) == -2
    kvk = kvariant.AntichessBoard("4k3/8/8/8/8/8/8/4K3 w - - 0 1")
    with pytest.raises(KeyError):
        ksyzygy.Tablebase().probe_dtz(kvk)
    with pytest.raises(ksyzygy.MissingTableError, match="KvK"):
        ksyzygy.Tablebase(VariantBoard=kvariant.AntichessBoard).probe_dtz(kvk)


def test_suffixes_choose_the_files() -> None:
    """A directory's files are taken by the variant's suffixes (python-chess's rule: the
    variant's own, and for tables without pawns its ``pawnless_`` ones)."""
    for name, (theirs_class, ours_class, directory) in VARIANTS.items():
        with (
            chess.syzygy.open_tablebase(str(DATA / directory), VariantBoard=theirs_class) as theirs,
            ksyzygy.open_tablebase(DATA / directory, VariantBoard=ours_class) as ours,
        ):
            assert sorted(ours.wdl) == sorted(theirs.wdl), name
            assert sorted(ours.dtz) == sorted(theirs.dtz), name
    with ksyzygy.open_tablebase(DATA / "atomic") as standard:
        assert not standard.wdl and standard.max_pieces == 0  # a standard tablebase takes no .atbw file
    with ksyzygy.open_tablebase(DATA / "atomic", VariantBoard=kvariant.AtomicBoard) as atomic:
        assert atomic.max_pieces == 4
    with ksyzygy.open_tablebase(DATA / "suicide", VariantBoard=kvariant.SuicideBoard) as suicide:
        assert suicide.max_pieces == 3
    for board_class in (kvariant.CrazyhouseBoard, kvariant.HordeBoard, kvariant.ThreeCheckBoard):
        with ksyzygy.open_tablebase(DATA / "atomic", VariantBoard=board_class) as none:
            assert not none.wdl
            board = board_class()
            assert outcome(lambda: none.probe_wdl(board)) == outcome(
                lambda: chess.syzygy.Tablebase(VariantBoard=getattr(chess.variant, board_class.__name__)).probe_wdl(
                    getattr(chess.variant, board_class.__name__)()
                )
            )


def test_boards_of_another_variant_are_refused(pairs: dict[str, Pair]) -> None:
    board = kvariant.AtomicBoard("8/8/8/3k4/8/8/8/KR6 w - - 0 1")
    for name in ("suicide", "giveaway"):
        with pytest.raises(KeyError, match="opened for"):
            pairs[name].ours.probe_wdl(board)
    with pytest.raises(KeyError, match="opened for atomic"):
        pairs["atomic"].ours.probe_wdl(kibitz.Board("8/8/8/3k4/8/8/8/KR6 w - - 0 1"))


def test_known_atomic_endgames(pairs: dict[str, Pair]) -> None:
    tables = pairs["atomic"].ours
    # King and queen win; the queen's capture next to the king explodes it at once.
    assert tables.probe_wdl(kvariant.AtomicBoard("8/8/8/3k4/8/8/8/KQ6 w - - 0 1")) == 2
    assert tables.probe_wdl(kvariant.AtomicBoard("8/8/8/3k4/3q4/8/8/K7 w - - 0 1")) == -2
    # A lone knight cannot win in atomic.
    assert tables.probe_wdl(kvariant.AtomicBoard("8/8/8/3k4/8/8/8/KN6 w - - 0 1")) == 0
    assert tables.probe_dtz(kvariant.AtomicBoard("8/8/8/3k4/8/8/8/KN6 w - - 0 1")) == 0


def test_the_rust_tables_answer_where_they_may(monkeypatch: pytest.MonkeyPatch) -> None:
    """Atomic's and Antichess's tables are also read in Rust: a valid position whose tables
    are all loaded is answered there (the Python walk is not taken); Suicide's, which the
    Rust tables do not read, always walk in Python."""
    import kibitz._core as core

    with pytest.raises(ValueError, match="suicide"):
        core.VariantTablebase("suicide")
    walked = []
    monkeypatch.setattr(ksyzygy.Tablebase, "_py_wdl", lambda self, pos: walked.append(pos.fen()) or 7)
    monkeypatch.setattr(ksyzygy.Tablebase, "_py_dtz", lambda self, pos: walked.append(pos.fen()) or 7)
    cases = [
        (kvariant.AtomicBoard, "atomic", "8/8/8/3k4/8/8/8/KQ6 w - - 0 1", 2),
        (kvariant.AntichessBoard, "giveaway", "8/8/8/3n4/8/8/8/K7 w - - 0 1", None),
        (kvariant.GiveawayBoard, "giveaway", "8/8/8/3n4/8/8/8/K7 w - - 0 1", None),
    ]
    for board_class, directory, fen, want in cases:
        with ksyzygy.open_tablebase(DATA / directory, VariantBoard=board_class) as tables:
            assert tables.skipped == []
            wdl = tables.probe_wdl(board_class(fen))
            assert wdl in (-2, -1, 0, 1, 2) and (want is None or wdl == want)
            assert tables.probe_dtz(board_class(fen)) != 7
    assert walked == []
    with ksyzygy.open_tablebase(DATA / "suicide", VariantBoard=kvariant.SuicideBoard) as tables:
        assert tables.probe_wdl(kvariant.SuicideBoard("8/8/8/3n4/8/8/8/K7 w - - 0 1")) == 7
    assert walked == ["8/8/8/3n4/8/8/8/K7 w - - 0 1"]
