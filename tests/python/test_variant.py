"""kibitz.variant, the table-driven generator for chess variants.

The reference is Fairy-Stockfish 11.1 (``go perft`` per move, and its FEN after the same
moves): every built-in variant from its start position and from positions reached by
seeded random play, a user's definition file given to both (Fairy-Stockfish through its
``VariantPath`` option), and the same pieces written in Betza notation. Tests that need
Fairy-Stockfish skip, saying so, where it is not installed.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fairy import FAIRY, SKIP_REASON, Fairy
import kibitz.variant as variant_module
from kibitz.cli import main
from fuzzing import examples
from kibitz.variant import Board, FenError, IllegalMoveError, InvalidMoveError, VariantError, builtin_variants

ROOT = Path(__file__).resolve().parents[2]
CROSSOVER = ROOT / "examples" / "variants" / "crossover.ini"
BUILTINS = [
    "capablanca",
    "chancellor",
    "chess",
    "courier",
    "embassy",
    "gothic",
    "grand",
    "janus",
    "knightmate",
    "modern",
    "shako",
    "shatranj",
]
needs_fairy = pytest.mark.skipif(FAIRY is None, reason=SKIP_REASON)


def random_game(variant: str, seed: int, max_plies: int) -> tuple[Board, list[str]]:
    """A board after seeded random legal moves (stopping early at a game end)."""
    rng = random.Random(seed)
    board = Board(variant)
    moves: list[str] = []
    for _ in range(rng.randrange(1, max_plies)):
        legal = sorted(board.legal_moves)
        if not legal:
            break
        move = rng.choice(legal)
        board.push(move)
        moves.append(move)
    return board, moves


def assert_same_divide(board: Board, fsf: Fairy, depth: int) -> None:
    ours = board.divide(depth)
    theirs, total = fsf.divide(board.fen(), depth)
    assert total == sum(theirs.values())
    if ours != theirs:
        diff = {m: (ours.get(m), theirs.get(m)) for m in set(ours) | set(theirs) if ours.get(m) != theirs.get(m)}
        pytest.fail(f"{board.variant} {board.fen()} depth {depth}: (kibitz, fairy-stockfish) differ on {diff}")


def test_builtins_are_the_documented_set() -> None:
    assert builtin_variants() == BUILTINS


# -- against Fairy-Stockfish ---------------------------------------------------------------


@needs_fairy
@pytest.mark.parametrize("variant", BUILTINS)
def test_start_position_perft_matches_fairy_stockfish(variant: str) -> None:
    board = Board(variant)
    with Fairy(variant) as fsf:
        assert fsf.fen_after(board.fen(), []) == board.fen()
        assert_same_divide(board, fsf, 3)


@needs_fairy
@pytest.mark.parametrize("variant", BUILTINS)
def test_random_positions_match_fairy_stockfish(variant: str) -> None:
    """12 positions per variant from random games of up to 160 plies: the same FEN after
    the same moves, and the same divide at depth 3."""
    with Fairy(variant) as fsf:
        for seed in range(12):
            board, moves = random_game(variant, seed, 160)
            assert fsf.fen_after(Board(variant).fen(), moves) == board.fen(), (variant, moves)
            assert_same_divide(board, fsf, 3)


@pytest.mark.slow
@needs_fairy
@pytest.mark.parametrize("variant", BUILTINS)
def test_deep_perft_matches_fairy_stockfish(variant: str) -> None:
    """Depth 4 from the start (5 for the 8x8 variants) and 60 random positions at depth 3."""
    board = Board(variant)
    with Fairy(variant) as fsf:
        assert_same_divide(board, fsf, 5 if board.files == board.ranks == 8 else 4)
        for seed in range(100, 160):
            b, _ = random_game(variant, seed, 400)
            assert_same_divide(b, fsf, 3)


# Positions rich in the rules random play reaches rarely: promotion limits and optional
# promotion (grand), castling on 10 files and into a 9-file board's corners, promotion
# choices, the bare-king rule ending the game before a promotion (shatranj).
RULE_POSITIONS = [
    ("grand", "r8r/1nbqkcabn1/pppppppp2/9P/10/10/10/10/1NB1KCABN1/R8R w - - 0 1"),
    ("grand", "r8r/1nbqkcab1P/pppppppp2/10/10/10/10/10/1NB1KCAB2/R8R w - - 0 1"),
    ("grand", "r8r/1nbqkcabn1/pppppppp2/10/10/10/10/10/1NB1KCABN1/R8R w - - 0 1"),
    ("shatranj", "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1"),
    ("shatranj", "4k2r/1P6/8/8/8/8/8/4K3 w - - 0 1"),
    ("capablanca", "r3k4r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R w KQkq - 0 1"),
    ("capablanca", "r3k4r/pppp1ppppp/10/10/10/10/PPPP1PPPPP/R4K3R b KQkq - 0 1"),
    ("capablanca", "r4k3r/1P8/10/10/10/10/10/R4K3R w KQkq - 0 1"),
    ("embassy", "r3k4r/pppppppppp/10/10/10/10/PPPPPPPPPP/R3K4R w KQkq - 0 1"),
    ("janus", "r3k4r/pppppppppp/10/10/10/10/PPPPPPPPPP/R3K4R w KQkq - 0 1"),
    ("shako", "c8c/r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R/C8C w KQkq - 0 1"),
    ("knightmate", "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"),
    ("courier", "5k5r/P11/12/12/12/12/12/5K6 w - - 0 1"),
    ("modern", "r3k3r/1P7/9/9/9/9/9/9/R3K3R w KQkq - 0 1"),
]


@needs_fairy
@pytest.mark.parametrize("variant, fen", RULE_POSITIONS)
def test_rule_positions_match_fairy_stockfish(variant: str, fen: str) -> None:
    board = Board(variant, fen)
    with Fairy(variant) as fsf:
        assert fsf.fen_after(fen, []) == board.fen()
        assert_same_divide(board, fsf, 3)


# Positions aimed at the check and pin analysis that lets most moves be counted without
# being made (the speed work), in the variants where it differs from chess: a royal
# knight (knightmate) in check from riders and leapers, answered by blocks and captures,
# with pinned pieces; Grand's promotion zone under check and pin. The chess cases are
# checked against the fast generator in tests/variant.rs.
CHECK_AND_PIN_POSITIONS = [
    ("knightmate", "4k3/8/8/8/8/2b5/8/4K3 w - - 0 1"),
    ("knightmate", "4k3/8/8/8/4r3/8/4B3/2M1K3 w - - 0 1"),
    ("knightmate", "4k3/8/8/8/8/3m4/4R3/4K3 b - - 0 1"),
    ("knightmate", "r3k2r/8/8/8/8/8/5q2/R3K2R w KQkq - 0 1"),
    ("capablanca", "4k5/10/10/10/10/10/4a5/2C1K5 w - - 0 1"),
    ("capablanca", "4k5/10/10/4r5/10/10/4A5/4K5 w - - 0 1"),
    ("grand", "4k5/10/10/3r6/10/10/10/3P6/10/4K5 w - - 0 1"),
    ("grand", "4k5/1P8/10/10/10/10/10/10/10/r3K5 w - - 0 1"),
    ("grand", "r3k5/4P5/10/10/10/10/10/10/10/4K5 w - - 0 1"),
]


@needs_fairy
@pytest.mark.parametrize("variant, fen", CHECK_AND_PIN_POSITIONS)
def test_check_and_pin_positions_match_fairy_stockfish(variant: str, fen: str) -> None:
    board = Board(variant, fen)
    with Fairy(variant) as fsf:
        assert_same_divide(board, fsf, 3)


# A lame leaper (the horse, nN) and a hopper (the cannon, mRcpR) in the user's crossover
# variant: a horse whose leg an own piece blocks (that piece is pinned to its line), a
# horse's check answered by blocking the leg, a cannon's check (a hopper's: answered by
# moving the screen away as well as by blocking or capturing) and a piece that would
# become a cannon's screen.
CROSSOVER_POSITIONS = [
    "4k4/9/9/9/9/9/3h5/3R5/4K4 w - - 0 1",
    "4k4/9/9/9/9/9/3h5/6R2/4K4 w - - 0 1",
    "4k4/9/9/9/4c4/9/4P4/9/4K4 w - - 0 1",
    "4k4/9/9/9/4c4/9/9/2R6/4K4 w - - 0 1",
    "4k4/9/9/9/4c4/9/9/9/4K1H2 w - - 0 1",
]


@needs_fairy
@pytest.mark.parametrize("fen", CROSSOVER_POSITIONS)
def test_lame_leaper_and_hopper_positions_match_fairy_stockfish(fen: str) -> None:
    board = Board(CROSSOVER, fen)
    with Fairy("crossover", variant_path=str(CROSSOVER)) as fsf:
        assert_same_divide(board, fsf, 3)


# -- a user's definition file --------------------------------------------------------------


@needs_fairy
def test_user_definition_file_matches_fairy_stockfish_via_variant_path() -> None:
    """examples/variants/crossover.ini (horse and cannon on 9x9, named types only) read by
    kibitz and, through VariantPath, by Fairy-Stockfish."""
    board = Board(CROSSOVER)
    assert board.variant == "crossover" and (board.files, board.ranks) == (9, 9)
    with Fairy("crossover", variant_path=str(CROSSOVER)) as fsf:
        assert fsf.fen_after(board.fen(), []) == board.fen()
        assert_same_divide(board, fsf, 4)
        for seed in range(12):
            b, moves = random_game(str(CROSSOVER), seed, 160)
            assert fsf.fen_after(board.fen(), moves) == b.fen()
            assert_same_divide(b, fsf, 3)


@needs_fairy
def test_betza_pieces_match_named_types(tmp_path: Path) -> None:
    """The same variant with its pieces written in Betza notation (nN, mRcpR, RB, ...) for
    kibitz, against Fairy-Stockfish reading the named types."""
    text = CROSSOVER.read_text()
    for named, betza in [
        ("horse = h", "customPiece1 = h:nN"),
        ("cannon = c", "customPiece2 = c:mRcpR"),
        ("queen = q", "customPiece3 = q:RB"),
        ("bishop = b", "customPiece4 = b:FF"),
        ("rook = r", "customPiece5 = r:WW\ncastlingRookPiece = r"),
    ]:
        assert named in text
        text = text.replace(named, betza)
    path = tmp_path / "crossover-betza.ini"
    path.write_text(text)
    with Fairy("crossover", variant_path=str(CROSSOVER)) as fsf:
        for seed in range(8):
            b, _ = random_game(str(path), seed, 120)
            assert_same_divide(b, fsf, 3)


NAMED_TYPES = (
    "commoner fers wazir alfil fersAlfil silver gold archbishop chancellor amazon centaur aiwok bers "
    "dragonHorse knibis biskni kniroo rookni shogiPawn lance shogiKnight euroshogiKnight breakthrough "
    "cannon horse elephant banner knight bishop rook queen"
).split()
# A piece X on e5 of a 9x9 board: alone, among pieces of both sides to take and to be
# blocked or jumped by (immobile z/Z), and near the edges.
NAMED_TYPE_BOARDS = [
    "1k7/9/9/9/4X4/9/9/9/7K1",
    "1k7/9/4z4/3Z1z3/2z1X1Z2/4Z4/9/4z4/7K1",
    "1k7/4z4/9/9/1z2X3z/9/9/4Z4/7K1",
    "1k7/9/9/3zZz3/3ZXZ3/3zZz3/9/9/7K1",
]


@needs_fairy
@pytest.mark.parametrize("name", NAMED_TYPES)
def test_each_named_piece_type_moves_as_fairy_stockfish_moves_it(tmp_path: Path, name: str) -> None:
    """The named types (`shogiKnight = n`) are Fairy-Stockfish 11.1's: the same moves from
    e5 on boards with pieces to take, to be blocked by and to hop over, for either side
    (a shogi knight leaps only to the two squares ahead, a breakthrough piece takes only
    diagonally forward)."""
    path = tmp_path / f"t{name.lower()}.ini"
    path.write_text(
        f"[t{name.lower()}]\nmaxFile = 9\nmaxRank = 9\nking = k\nimmobile = z\n{name} = x\n"
        "castling = false\nstartFen = 1k7/9/9/9/4X4/9/9/9/7K1 w - - 0 1\n"
    )
    with Fairy(f"t{name.lower()}", variant_path=str(path)) as fsf:
        for placement in NAMED_TYPE_BOARDS:
            for fen in (f"{placement} w - - 0 1", f"{placement.replace('X', 'x')} b - - 0 1"):
                ours = sorted(m for m in Board(str(path), fen).legal_moves if m.startswith("e5"))
                theirs = sorted(m for m in fsf.divide(fen, 1)[0] if m.startswith("e5"))
                assert ours == theirs, (name, fen)


# -- the Board API ---------------------------------------------------------------------------


def test_moves_push_pop_and_is_legal_agree() -> None:
    for variant in BUILTINS:
        for seed in range(4):
            board, moves = random_game(variant, seed, 80)
            legal = set(board.legal_moves)
            assert legal == set(board.divide(1)) if legal else board.divide(1) == {}
            fen = board.fen()
            for m in sorted(legal):
                assert board.is_legal(m)
                board.push(m)
                assert board.pop() == m
                assert board.fen() == fen
            # Well-formed moves that are not legal: every from-to pair of the moving side's
            # legal moves' squares swapped.
            for m in sorted(legal)[:10]:
                swapped = re.sub(r"^([a-l]\d+)([a-l]\d+)", r"\2\1", m)
                assert board.is_legal(swapped) == (swapped in legal)
            # pop takes the game back to the start
            for m in reversed(moves):
                assert board.pop() == m
            assert board.fen() == Board(variant).fen()


def test_bad_input_raises_value_errors_and_changes_nothing() -> None:
    board = Board("capablanca")
    fen = board.fen()
    with pytest.raises(IllegalMoveError):
        board.push("f1i1")  # castling through pieces
    with pytest.raises(InvalidMoveError):
        board.push("z9z9")
    with pytest.raises(InvalidMoveError):
        board.is_legal("e2")
    assert board.fen() == fen
    with pytest.raises(IndexError):
        board.pop()
    with pytest.raises(FenError, match="rank 8 describes 8 squares, expected 10"):
        Board("capablanca", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    with pytest.raises(FenError, match="describes"):
        Board("chess", "rnbqkbnr/pppppppp/99999999999999999999999999/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1")
    with pytest.raises(FenError, match="royal"):
        Board("chess", "8/8/8/8/8/8/8/8 w - - 0 1")
    with pytest.raises(VariantError, match="unknown variant 'nosuch'"):
        Board("nosuch")
    assert issubclass(VariantError, ValueError)


@pytest.mark.parametrize(
    "fen",
    [
        "4k3/8/8/8/8/8/8/RK6 w Q - 0 1",  # castling b1-c1 beside the king's step b1-c1
        "4k3/8/8/8/8/8/8/R1K5 w Q - 0 1",  # castling leaves the king on c1
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    ],
)
def test_castling_whose_king_move_reads_as_another_move_is_written_king_takes_rook(fen: str) -> None:
    board = Board("chess", fen)
    moves = board.legal_moves
    assert len(set(moves)) == len(moves), moves
    for depth in (1, 2, 3):
        counts = board.divide(depth)
        assert sorted(counts) == sorted(moves)
        assert sum(counts.values()) == board.perft(depth)
    for m in moves:  # each text plays its own move, and pop gives the same text back
        b = board.copy()
        b.push(m)
        assert b.pop() == m and b.fen() == board.fen()
    if fen.startswith("4k3"):
        assert "b1a1" in moves or "c1a1" in moves


def test_definition_errors_name_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.ini"
    path.write_text("[mine:chess]\nmaxFile = 10\ncustomPiece1 = a:BNx\n")
    with pytest.raises(VariantError, match=r"bad\.ini, line 3: customPiece1: 'BNx'"):
        Board(path)
    path.write_text("[mine:chess]\npieceDrops = true\n")
    with pytest.raises(VariantError, match=r"line 2: unknown or unsupported rule \"pieceDrops\""):
        Board(path)
    with pytest.raises(VariantError, match="cannot read"):
        Board(tmp_path / "missing.ini")


def test_outcomes() -> None:
    # Fool's mate: checkmate, a loss for the side to move.
    b = Board("chess")
    for m in ["f2f3", "e7e5", "g2g4", "d8h4"]:
        b.push(m)
    assert b.is_check() and b.outcome() == ("loss", "checkmate") and b.legal_moves == []
    # Shatranj: stalemate loses (the ferz on c7 and the king take every square).
    assert Board("shatranj", "k7/2Q5/1K6/8/8/8/8/8 b - - 0 1").outcome() == ("loss", "stalemate")
    # White has bared Black's king and Black cannot bare White's in reply: White has won.
    b = Board("shatranj", "k7/8/1K6/8/8/8/8/2R5 w - - 0 1")
    assert b.outcome() == ("win", "extinction") and b.legal_moves == []
    # A bare king loses at once unless it can bare the other king in reply (claim rule):
    # with king and two pieces against a bare king the game is over, with no moves.
    b = Board("shatranj", "k7/8/8/8/8/8/8/KRR5 b - - 0 1")
    assert b.outcome() == ("loss", "extinction") and b.legal_moves == [] and b.perft(2) == 0
    b = Board("shatranj", "k7/8/8/8/8/8/8/KR6 b - - 0 1")
    assert b.outcome() is None and b.legal_moves


@needs_fairy
def test_game_ends_agree_with_fairy_stockfish() -> None:
    """Positions where Fairy-Stockfish has no moves because the game is over (bare king)
    and where it still has some."""
    with Fairy("shatranj") as fsf:
        for fen in [
            "k7/8/8/8/8/8/8/KRR5 b - - 0 1",
            "k7/8/8/8/8/8/8/KR6 b - - 0 1",
            "k7/8/8/8/8/8/8/KRR5 w - - 0 1",
            "k7/8/1K6/8/8/8/8/2R5 w - - 0 1",
            "kr6/8/8/8/8/8/8/K7 w - - 0 1",
        ]:
            b = Board("shatranj", fen)
            _, total = fsf.divide(fen, 1)
            assert b.perft(1) == total
            assert (b.outcome() is not None) == (total == 0)


# -- command line ------------------------------------------------------------------------------


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


@needs_fairy
def test_cli_perft_divide_matches_fairy_stockfish(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run(capsys, "perft", "--variant", "grand", "--moves", "e3e5", "e8e6", "2", "--divide")
    assert rc == 0
    counts = dict((m, int(n)) for m, n in re.findall(r"^([a-j]\d+[a-j]\d+[a-z]?): (\d+)$", out, re.M))
    board = Board("grand")
    board.push("e3e5")
    board.push("e8e6")
    with Fairy("grand") as fsf:
        theirs, total = fsf.divide(board.fen(), 2)
    assert counts == theirs and f"Nodes searched: {total}" in out


def test_cli_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    rc, _, err = run(capsys, "perft", "--variant", "nosuch", "2")
    assert rc == 2 and "unknown variant 'nosuch'" in err
    bad = tmp_path / "bad.ini"
    bad.write_text("[x]\nking = k\nmaxRank = 99\n")
    rc, _, err = run(capsys, "perft", "--variant", str(bad), "2")
    assert rc == 2 and "line 3: maxRank must be" in err
    rc, _, err = run(capsys, "perft", "--variant", "chess", "--moves", "e2e5", "2")
    assert rc == 2 and "illegal move e2e5" in err


def test_perft_refuses_a_fifo_a_device_and_a_huge_file_as_variant_definitions_without_reading_them(
    tmp_path: Path,
) -> None:
    """Each case runs in its own process with a time limit: reading a FIFO waits for a
    writer and /dev/zero never ends, so a loader that reads first would hang or fill memory."""
    import os

    if not hasattr(os, "mkfifo"):
        pytest.skip("needs FIFOs (POSIX)")
    fifo = tmp_path / "fifo.ini"
    os.mkfifo(fifo)
    huge = tmp_path / "huge.ini"
    with open(huge, "wb") as f:
        f.truncate(600 << 20)  # sparse: no disk space taken
    cases = [(str(fifo), "a FIFO, not a regular file"), (str(huge), "more than the")]
    if os.path.exists("/dev/zero"):
        cases.append(("/dev/zero", "not a regular file"))
    cases.append((str(tmp_path), "a directory, not a regular file"))
    for path, message in cases:
        proc = subprocess.run(
            [sys.executable, "-m", "kibitz", "perft", "--variant", path, "1"],
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert proc.returncode == 2, (path, proc.stdout, proc.stderr)
        assert "cannot read variant definition" in proc.stderr and message in proc.stderr, (path, proc.stderr)


def test_perft_diff_finds_a_planted_bug(capsys: pytest.CaptureFixture[str]) -> None:
    """A test engine whose cannon also captures like a rook: perft-diff names the position
    and the move it should not have."""
    engine = f"{sys.executable} {ROOT / 'tests/python/engines/variant_engine.py'} --bug 'cannon = c' 'customPiece9 = c:mRcpRcR'"
    rc, out, err = run(capsys, "perft-diff", "--variant", str(CROSSOVER), "--engine", engine, "4")
    assert rc == 1, err
    assert "moves it has that are not legal: f9f8" in out
    m = re.search(r"position: (.*)", out)
    assert m is not None
    b = Board(CROSSOVER, m.group(1))
    assert "f9f8" not in b.legal_moves and not b.is_legal("f9f8")


@needs_fairy
def test_perft_diff_against_fairy_stockfish_finds_no_difference(capsys: pytest.CaptureFixture[str]) -> None:
    for variant in [str(CROSSOVER), "knightmate"]:
        rc, out, err = run(capsys, "perft-diff", "--variant", variant, "--engine", str(FAIRY), "3")
        assert rc == 0 and "No difference" in out, out + err


def test_perft_diff_reports_an_engine_without_the_variant(capsys: pytest.CaptureFixture[str]) -> None:
    engine = f"{sys.executable} {ROOT / 'tests/python/engines/no_en_passant.py'}"
    rc, _, err = run(capsys, "perft-diff", "--variant", "grand", "--engine", engine, "2")
    assert rc == 2 and "has no UCI_Variant option" in err, err


def test_definition_files_ship_in_the_package() -> None:
    import kibitz.variant

    data = Path(kibitz.variant.__file__).parent / "data"
    assert sorted(p.stem for p in data.glob("*.ini")) == BUILTINS
    assert (data / "README.md").exists()
    out = subprocess.run(
        [sys.executable, "-m", "kibitz", "perft", "--variant", "courier", "2"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.startswith("Nodes searched: ")


def test_mutated_input_raises_value_errors_only(tmp_path: Path) -> None:
    """Seeded random mutations of FENs, moves and definition files: every failure is a
    ValueError subclass with a message (a Rust panic would surface as PanicException)."""
    rng = random.Random(15)
    alphabet = "pnbrqkacmfwe0123456789/ -KQkqwb[]:=#\n" + "x"
    fen = Board("grand").fen()
    for _ in range(400):
        s = list(fen)
        for _ in range(rng.randrange(1, 4)):
            s[rng.randrange(len(s))] = rng.choice(alphabet)
        try:
            b = Board("grand", "".join(s))
            b.perft(1)
        except ValueError as e:
            assert str(e)
    board = Board("courier")
    for _ in range(300):
        text = "".join(rng.choice("abcdefghijklmn0123456789") for _ in range(rng.randrange(0, 7)))
        try:
            board.push(text)
            board.pop()
        except ValueError as e:
            assert str(e)
    text = (Path(__file__).resolve().parents[2] / "python/kibitz/variant/data/grand.ini").read_text()
    for i in range(200):
        s = list(text)
        for _ in range(rng.randrange(1, 4)):
            s[rng.randrange(len(s))] = rng.choice(alphabet)
        path = tmp_path / f"m{i}.ini"
        path.write_text("".join(s))
        try:
            Board(path).perft(2)
        except ValueError as e:
            assert str(e)


def test_ctrl_c_interrupts_a_long_perft() -> None:
    """SIGINT (sent from Popen: a shell's & would ignore it) stops perft with
    KeyboardInterrupt well within a second."""
    import signal
    import time

    code = (
        "import sys\nfrom kibitz.variant import Board\nb = Board('grand')\nprint('ready', flush=True)\n"
        "try:\n    b.perft(8)\nexcept KeyboardInterrupt:\n    print('interrupted', flush=True)\n    sys.exit(3)\n"
    )
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert p.stdout is not None and p.stdout.readline().strip() == "ready"
    time.sleep(0.5)
    start = time.monotonic()
    p.send_signal(signal.SIGINT)
    out, _ = p.communicate(timeout=30)
    assert p.returncode == 3 and "interrupted" in out
    assert time.monotonic() - start < 5  # generous: the machine may be loaded


# ---------------------------------------------------------------------------- fuzzing

_KEY_LINES = sorted(
    {
        line.strip()
        for _, text in variant_module._builtin_sources()
        for line in text.splitlines()
        if "=" in line and not line.lstrip().startswith("#")
    }
)


@st.composite
def variant_definition(draw: st.DrawFn) -> str:
    """A definition file made of lines of the built-in ones (keys and values mixed), with a
    few values mutated: the generator must load it or refuse it with a clear error."""
    lines = draw(st.lists(st.sampled_from(_KEY_LINES), min_size=1, max_size=14))
    out = []
    for line in lines:
        key, _, value = line.partition("=")
        if draw(st.integers(0, 4)) == 0:
            value = draw(
                st.one_of(
                    st.text(alphabet="abcdefghijklmnopqrstuvwxyzKQRBNP0123456789-/ :;@", max_size=12),
                    st.sampled_from(["", "a", "z", "0", "-1", "99", "K", "true", "false"]),
                )
            )
        out.append(f"{key.strip()} = {value.strip()}")
    parent = draw(st.sampled_from(["", ":chess", ":capablanca", ":shatranj"]))
    return f"[fuzzed{parent}]\n" + "\n".join(out) + "\n"


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=variant_definition())
def test_random_definitions_load_or_are_refused_and_divide_sums_to_perft(tmp_path: Path, text: str) -> None:
    path = tmp_path / "fuzzed.ini"
    path.write_text(text)
    try:
        board = Board(str(path))
    except ValueError as e:  # VariantError or FenError: a clear refusal
        assert str(e)
        return
    moves = board.legal_moves
    assert len(moves) == len(set(moves)), moves  # every move has a text of its own
    divide = board.divide(2)
    assert sum(divide.values()) == board.perft(2)
    assert board.perft(1) == len(moves)
