"""FEN parsing: malformed input raises FenError naming the problem; valid input round-trips.

python-chess is the reference: kibitz must accept the positions python-chess considers
playable, reject the rest (see ``reference.verdict``), and print the same FEN.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import chess
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import kibitz
import reference
from perft_data import STARTING_FEN, load_chess960, load_perftsuite, load_tricky
from fuzzing import examples

SUITE_FENS = [case.fen for case in load_perftsuite()]
TRICKY_FENS = [case.fen for case in load_tricky()]
CHESS960_FENS = [case.fen for case in load_chess960()][::40]
SEED_FENS = SUITE_FENS + TRICKY_FENS + CHESS960_FENS

FUZZ_SETTINGS = settings(
    max_examples=examples(1500),
    deadline=None,
    derandomize=False,
    suppress_health_check=[HealthCheck.too_slow],
)

# A FEN in canonical syntax: single spaces, 4 or 6 fields, castling in KQkq order, clocks
# without sign or leading zeros. python-chess is more lenient (partial FENs, "~" markers,
# "0" move numbers), so the "must accept" direction is checked only for these.
STRICT_FEN = re.compile(
    r"[pnbrqkPNBRQK1-8/]+ [wb] (?:-|KQ?k?q?|Qk?q?|kq?|q) (?:-|[a-h][36])"
    r"(?: (?:0|[1-9][0-9]{0,3}) [1-9][0-9]{0,3})?"
)


def check_fen(fen: str) -> None:
    """The fuzz property: FenError, or a board that agrees with python-chess and round-trips."""
    try:
        board = kibitz.Board(fen)
    except kibitz.FenError:
        if STRICT_FEN.fullmatch(fen) and reference.must_accept(fen):
            raise AssertionError(f"kibitz rejected a valid FEN {fen!r}") from None
        return

    ref_board = try_python_chess(fen)
    if board._unplayable is not None or not reference.is_playable(fen):
        # A position python-chess reads but cannot call valid: read as python-chess reads it.
        loose = chess.Board(fen)
        assert board.status() == loose.status(), f"input {fen!r}"
        assert board.fen() == saturated(loose.fen()), f"input {fen!r}"
        return
    del ref_board
    out = board.fen()
    # Round trip. The key is compared through python-chess rather than with the
    # original board: fen() drops an en-passant square that no legal capture can use,
    # while the Polyglot key still hashes it when a pawn stands beside the pushed pawn.
    again = kibitz.Board(out)
    assert again.fen() == out
    ep_dropped = out.split()[3] == "-" and len(fen.split()) > 3 and fen.split()[3] != "-"
    if not ep_dropped:
        assert again.polyglot_key() == board.polyglot_key(), f"input {fen!r}"
    out_ref = chess.Board(out)
    assert out_ref.fen() == out, f"kibitz printed a non-canonical FEN {out!r} for {fen!r}"
    assert reference.is_playable(out), f"kibitz accepted an invalid position {fen!r}"
    assert again.polyglot_key() == reference.polyglot_key(out_ref)

    ref = try_python_chess(fen)
    if ref is not None:
        assert reference.is_playable(fen), f"kibitz accepted an invalid position {fen!r}"
        assert out == saturated(ref.fen()), f"input {fen!r}"
        assert board.polyglot_key() == reference.polyglot_key(ref), f"input {fen!r}"
        assert set(board.legal_moves_uci()) == reference.legal_uci(ref), f"input {fen!r}"


# kibitz reads FEN counters above 2^31 - 1 as that value (rust/chess/fen.rs COUNTER_MAX: they
# saturate rather than wrap); python-chess keeps any integer.
COUNTER_MAX = 2**31 - 1


def saturated(fen: str) -> str:
    """python-chess's FEN with its counters saturated as kibitz reads them."""
    fields = fen.split()
    for i in (4, 5):
        if len(fields) > i:
            fields[i] = str(min(int(fields[i]), COUNTER_MAX))
    return " ".join(fields)


def try_python_chess(fen: str) -> chess.Board | None:
    try:
        return chess.Board(fen)
    except ValueError:
        return None


# --- valid FENs ----------------------------------------------------------------------

VALID_FENS = SUITE_FENS + [
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",  # ep shown as "-"
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",  # ep kept
    "1b1k4/8/8/1rPpK3/8/8/8/8 w - d6 0 1",  # only capture is pinned: "-"
    "4k3/8/8/8/8/8/8/4K3 b - - 99 300",
    "r3k2r/8/8/8/8/8/8/R3K2R w Kq - 12 40",
    "8/8/8/8/8/8/8/K6k w - - 0 1",
]


@pytest.mark.parametrize("fen", VALID_FENS)
def test_valid_fen_round_trips_like_python_chess(fen: str) -> None:
    """A valid FEN is accepted and printed back exactly as python-chess prints it."""
    board = kibitz.Board(fen)
    ref = chess.Board(fen)
    assert board.fen() == ref.fen()
    assert board.turn == ref.turn
    assert kibitz.Board(board.fen()).fen() == ref.fen()
    assert board.polyglot_key() == reference.polyglot_key(ref)


@pytest.mark.parametrize("fen", [fen for fen in TRICKY_FENS if len(fen.split()) == 4])
def test_four_field_fen_gets_default_clocks(fen: str) -> None:
    """FENs without clocks (EPD style) are accepted with halfmove 0, fullmove 1."""
    ref = chess.Board(fen)
    if not reference.is_playable(fen):
        pytest.skip("Chess960 castling rights; covered by test_perft")
    assert kibitz.Board(fen).fen() == ref.fen()
    assert kibitz.Board(fen).fen().endswith(" 0 1")


# --- malformed FENs: one FenError per category ---------------------------------------

START_PLACEMENT = STARTING_FEN.split()[0]

MALFORMED = {
    "field count": (
        r"field|part",
        [
            "",
            START_PLACEMENT,
            f"{START_PLACEMENT} w",
            f"{START_PLACEMENT} w KQkq",
            f"{START_PLACEMENT} w KQkq - 0 1 extra",
        ],
    ),
    "piece letters": (
        r"piece|char|letter|symbol",
        [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN? w KQkq - 0 1",
            "rnbqkbnr/pppppppp/8/8/4x3/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNé w KQkq - 0 1",
        ],
    ),
    "rank lengths": (
        r"rank|row|square|column|file",
        [
            "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",  # 7 squares
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1",  # 9 squares
            "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",  # 7 ranks
            "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",  # 9 ranks
        ],
    ),
    "bad digits": (
        r"rank|row|square|column|file|char|digit|piece",
        [
            "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "rnbqkbnr/pppppppp/8/8/0/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ],
    ),
    "kings": (
        r"king",
        [
            "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",  # no black king
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1",  # no white king
            "8/8/8/8/8/8/8/8 w - - 0 1",
            "4k3/8/8/8/8/8/8/K3K3 w - - 0 1",  # two white kings
            "k3k3/8/8/8/8/8/8/4K3 w - - 0 1",  # two black kings
        ],
    ),
    "pawns on back rank": (
        r"pawn",
        [
            "P3k3/8/8/8/8/8/8/4K3 w - - 0 1",
            "4k3/8/8/8/8/8/8/p3K3 w - - 0 1",
            "p3k3/8/8/8/8/8/8/4K3 b - - 0 1",
            "4k3/8/8/8/8/8/8/4K2P b - - 0 1",
        ],
    ),
    "side not to move in check": (
        r"check",
        [
            "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1",  # white to move, black king attacked
            "4k3/8/8/8/8/8/8/r3K3 b - - 0 1",  # black to move, white king attacked
            "rnbqkbnr/ppppp2p/5p2/6pQ/4P3/8/PPPP1PPP/RNB1KBNR w KQkq - 0 1",
        ],
    ),
    "castling rights": (
        r"castl",
        [
            "4k3/8/8/8/8/8/8/4K3 w K - 0 1",  # no rook
            "4k3/8/8/8/8/8/8/R3K3 w K - 0 1",  # rook on the wrong side
            "4k3/8/8/8/8/8/8/3K3R w K - 0 1",  # king off e1
            "r3k3/8/8/8/8/8/8/4K3 w k - 0 1",  # black short castling without h8 rook
            "r3k2r/8/8/8/8/8/8/4K3 w KQkq - 0 1",  # white rights without white rooks
            "4k2r/8/8/8/8/8/8/4K2r w Kk - 0 1",  # black rook on h1 does not count
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1",  # bad letter
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Gg - 0 1",  # g-file: knights
        ],
    ),
    "en passant": (
        r"en.?passant|\bep\b|e\.p\.",
        [
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 2",  # rank 3, white to move
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1",  # rank 4
            "4k3/8/8/8/8/8/8/4K3 w - e6 0 1",  # no pawn that just moved
            "4k3/8/8/4P3/8/8/8/4K3 w - e6 0 1",  # own pawn, not the opponent's
            "4k3/4r3/8/4p3/8/8/8/4K3 w - e6 0 1",  # e7 occupied: no double push
            "4k3/8/4r3/4p3/8/8/8/4K3 w - e6 0 1",  # e6 itself occupied
            "4k3/8/8/8/8/8/8/4K3 w - z9 0 1",  # not a square
        ],
    ),
    "side to move": (
        r"side|turn|colou?r|active|move",
        [
            f"{START_PLACEMENT} x KQkq - 0 1",
            f"{START_PLACEMENT} W KQkq - 0 1",
            f"{START_PLACEMENT} white KQkq - 0 1",
        ],
    ),
    "clocks": (
        r"clock|halfmove|fullmove|move|number",
        [
            f"{START_PLACEMENT} w KQkq - x 1",
            f"{START_PLACEMENT} w KQkq - 0 y",
            f"{START_PLACEMENT} w KQkq - -1 1",
            f"{START_PLACEMENT} w KQkq - 0 -5",
        ],
    ),
}

MALFORMED_PARAMS = [
    pytest.param(fen, keyword, id=f"{category}-{index}")
    for category, (keyword, fens) in MALFORMED.items()
    for index, fen in enumerate(fens)
]


@pytest.mark.parametrize(("fen", "keyword"), MALFORMED_PARAMS)
def test_malformed_fen_raises_fen_error(fen: str, keyword: str) -> None:
    """Each kind of malformed FEN that python-chess refuses raises FenError (a ValueError)
    whose message names it; those python-chess reads (missing fields, no king...) are read
    as it reads them, with the same status()."""
    try:
        reference = chess.Board(fen)
    except ValueError:
        pass
    else:
        assert kibitz.Board(fen).status() == reference.status()
        return
    with pytest.raises(kibitz.FenError) as excinfo:
        kibitz.Board(fen)
    assert isinstance(excinfo.value, ValueError)
    assert re.search(keyword, str(excinfo.value), re.IGNORECASE), str(excinfo.value)


@pytest.mark.parametrize(
    "fen",
    ["garbage", "8/8/8 w - - 0 1", f"{START_PLACEMENT} x KQkq - 0 1", f"{START_PLACEMENT} w KQkq - 0 1 extra", ""],
)
def test_unreadable_fen_says_what_is_wrong_and_what_a_fen_is(fen: str) -> None:
    """The message is python-chess's reason (the first fault, with the text) and what a FEN
    holds; nothing from a second reader that could name another fault."""
    with pytest.raises(ValueError) as theirs:
        chess.Board(fen)
    with pytest.raises(kibitz.FenError) as ours:
        kibitz.Board(fen)
    message = str(ours.value)
    assert message.startswith(str(theirs.value)) and "; a FEN is the placement" in message, message
    assert "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" in message
    assert "(expected" not in message


@pytest.mark.parametrize(("fen", "keyword"), MALFORMED_PARAMS)
def test_malformed_fens_are_invalid_for_python_chess_too(fen: str, keyword: str) -> None:
    """Sanity check of the table above: python-chess refuses or flags every entry."""
    assert not (reference.must_accept(fen) and STRICT_FEN.fullmatch(fen))


# --- fuzzing -------------------------------------------------------------------------

FEN_ALPHABET = "pnbrqkPNBRQK12345678/ -wbKQkqabcdefgh0369"


@st.composite
def mutated_fens(draw: st.DrawFn) -> str:
    """A seed FEN with a few character-level edits: swap, delete, insert, replace."""
    chars = list(draw(st.sampled_from(SEED_FENS)))
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["swap", "delete", "insert", "replace"]))
        if not chars and op != "insert":
            continue
        i = draw(st.integers(0, max(len(chars) - 1, 0)))
        if op == "swap" and i + 1 < len(chars):
            chars[i], chars[i + 1] = chars[i + 1], chars[i]
        elif op == "delete":
            del chars[i]
        elif op in ("insert", "replace"):
            c = draw(st.one_of(st.sampled_from(FEN_ALPHABET), st.characters()))
            if op == "insert":
                chars.insert(i, c)
            else:
                chars[i] = c
    return "".join(chars)


FIELD_VALUES = [
    st.text(FEN_ALPHABET, max_size=12),
    st.sampled_from(["w", "b", "-", "KQkq", "Kq", "k", "Q", "e3", "e6", "d6", "a3", "h6"]),
    st.builds(lambda f, r: f + r, st.sampled_from("abcdefgh"), st.sampled_from("12345678")),
    st.integers(-3, 2**70).map(str),
]


@st.composite
def field_mutated_fens(draw: st.DrawFn) -> str:
    """A seed FEN with whole fields replaced, borrowed from other FENs, dropped or added."""
    fields = draw(st.sampled_from(SEED_FENS)).split(" ")
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(["replace", "borrow", "drop", "add"]))
        i = draw(st.integers(0, len(fields)))
        if op == "add" or not fields:
            fields.insert(i, draw(st.one_of(*FIELD_VALUES)))
            continue
        i = min(i, len(fields) - 1)
        if op == "replace":
            fields[i] = draw(st.one_of(*FIELD_VALUES))
        elif op == "borrow":
            donor = draw(st.sampled_from(SEED_FENS)).split(" ")
            fields[i] = donor[min(i, len(donor) - 1)]
        else:
            del fields[i]
    return " ".join(fields)


@st.composite
def random_positions(draw: st.DrawFn) -> str:
    """A random placement with random side, castling and en-passant fields.

    Kings and rooks are often put on their home squares and pawns beside a possible
    en-passant target, so that valid castling and en-passant fields come up regularly.
    """
    pieces: dict[int, chess.Piece] = {}
    squares = st.integers(0, 63)
    symbols = st.sampled_from("PNBRQKpnbrqk")
    homes = {chess.E1: "K", chess.A1: "R", chess.H1: "R", chess.E8: "k", chess.A8: "r", chess.H8: "r"}
    for square, symbol in homes.items():
        if draw(st.booleans()):
            pieces[square] = chess.Piece.from_symbol(symbol)
    for _ in range(draw(st.integers(0, 2))):
        pieces[draw(squares)] = chess.Piece.from_symbol(draw(st.sampled_from("Kk")))
    for _ in range(draw(st.integers(0, 10))):
        pieces[draw(squares)] = chess.Piece.from_symbol(draw(symbols))
    turn = draw(st.sampled_from("wb"))
    ep = "-"
    if draw(st.booleans()):
        file = draw(st.integers(0, 7))
        pushed = chess.square(file, 4 if turn == "w" else 3)
        pieces[pushed] = chess.Piece(chess.PAWN, turn == "b")
        ep = chess.square_name(chess.square(file, 5 if turn == "w" else 2))
        if draw(st.booleans()):
            beside = chess.square(max(0, min(7, file + draw(st.sampled_from([-1, 1])))), 4 if turn == "w" else 3)
            pieces[beside] = chess.Piece(chess.PAWN, turn == "w")
    castling = "".join(c for c in "KQkq" if draw(st.booleans())) or "-"
    placement = chess.BaseBoard.empty()
    placement.set_piece_map(pieces)
    return f"{placement.board_fen()} {turn} {castling} {ep} 0 1"


@FUZZ_SETTINGS
@given(mutated_fens())
def test_mutated_fens_never_crash(fen: str) -> None:
    """Character-level edits of valid FENs: FenError or a consistent, round-tripping board."""
    check_fen(fen)


@FUZZ_SETTINGS
@given(field_mutated_fens())
def test_field_mutated_fens_never_crash(fen: str) -> None:
    """Field-level edits of valid FENs: FenError or a consistent, round-tripping board."""
    check_fen(fen)


@FUZZ_SETTINGS
@given(st.one_of(st.text(FEN_ALPHABET, max_size=80), st.text(max_size=80)))
def test_random_strings_never_crash(fen: str) -> None:
    """Arbitrary text: FenError or a consistent board (almost always FenError)."""
    check_fen(fen)


@FUZZ_SETTINGS
@given(random_positions())
def test_random_positions_accepted_exactly_when_valid(fen: str) -> None:
    """Random setups: accepted iff python-chess finds them playable, and then identical."""
    ref = chess.Board(fen)
    board = kibitz.Board(fen)  # python-chess reads any placement, and so does kibitz
    assert board.status() == ref.status()
    if not reference.is_playable(fen):
        return
    assert board._unplayable is None, f"cannot play {fen!r}"
    assert board.fen() == ref.fen()
    assert board.polyglot_key() == reference.polyglot_key(ref)
    assert set(board.legal_moves_uci()) == reference.legal_uci(ref)


def outcome_of(make: Callable[[], kibitz.Board]) -> tuple[str, str]:
    """What a constructor call gives: ("ok", the FEN written by the full method) or the
    error's type and message."""
    try:
        board = make()
    except Exception as e:  # noqa: BLE001 (the error itself is compared)
        return type(e).__name__, str(e)
    return "ok", board.fen(en_passant="legal")


@FUZZ_SETTINGS
@given(st.one_of(random_positions(), mutated_fens(), field_mutated_fens(), st.text(FEN_ALPHABET, max_size=80)))
def test_quick_constructor_and_fen_agree_with_the_full_ones(fen: str) -> None:
    """`Board(fen)` and `fen()` have quick paths (the class's vectorcall and a raw method);
    a keyword argument sends either through the full one (PyO3's argument parsing, the
    generic construction). Both give the same board, FEN and error, for any text."""
    quick = outcome_of(lambda: kibitz.Board(fen))
    assert quick == outcome_of(lambda: kibitz.Board(fen, chess960=False))
    assert quick == outcome_of(lambda: kibitz.Board(fen=fen))
    if quick[0] == "ok":
        board = kibitz.Board(fen)
        assert board.fen() == quick[1] == board.fen(shredder=False, promoted=None)


def test_quick_constructor_leaves_the_other_calls_to_the_full_one() -> None:
    # Start position, empty board, Chess960 and a subclass with its own __init__: the same
    # boards through either path; other argument types raise what the full path raises.
    assert kibitz.Board().fen() == kibitz.Board(chess960=False).fen() == chess.STARTING_FEN
    assert kibitz.Board(None).fen() == kibitz.Board(fen=None).fen() == chess.Board(None).fen()
    assert kibitz.Board(chess.STARTING_FEN, chess960=True).chess960
    for bad in (123, b"8/8/8/8/8/8/8/8 w - - 0 1", ["x"]):
        quick = outcome_of(lambda: kibitz.Board(bad))  # type: ignore[arg-type]
        assert quick[0] == "TypeError" and quick == outcome_of(lambda: kibitz.Board(fen=bad))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        kibitz.Board(chess.STARTING_FEN, False)  # type: ignore[misc]

    class Named(kibitz.Board):
        def __init__(self, fen: str = chess.STARTING_FEN, *, name: str = "") -> None:
            super().__init__(fen)
            self.name = name

    named = Named("8/8/8/8/8/8/8/K6k w - - 0 1", name="x")
    assert type(named) is Named and named.name == "x" and named.fen() == "8/8/8/8/8/8/8/K6k w - - 0 1"


def test_lone_surrogate_is_a_fen_error() -> None:
    """A str with a lone surrogate (found by the mutation fuzzer) is not UTF-8: FenError."""
    with pytest.raises(kibitz.FenError, match="not valid text"):
        kibitz.Board("\ud800rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")


@pytest.mark.parametrize("method", ["push_uci", "push_san", "san", "parse_san"])
def test_lone_surrogate_move_is_an_invalid_move_error(method: str) -> None:
    board = kibitz.Board()
    with pytest.raises(kibitz.InvalidMoveError, match="not valid text"):
        getattr(board, method)("e2e4\udcff")
    assert board.fen() == kibitz.Board().fen()


@pytest.mark.parametrize(
    "fen",
    [
        "r3k~2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "4k3/8/8/8/8/8/8/R3K~2R w KQ - 0 1",
        "4k3/8/8/8/8/8/8/R3K~2R w A - 0 1",
        "rk~5r/8/8/8/8/8/8/RK5R w KQkq - 0 1",
        "1k~6/8/8/8/8/8/8/4K2R w K - 0 1",
        "r3k2r/8/8/8/8/8/8/R2QK~Q~1R w KQkq - 0 1",
        "r3kk~1r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
    ],
)
@pytest.mark.parametrize("chess960", [False, True])
def test_a_king_marked_promoted_never_castles_as_in_python_chess(fen: str, chess960: bool) -> None:
    """python-chess reads "K~" as a promoted king, which no castling right can use: the
    rights are cleaned and status() says BAD_CASTLING_RIGHTS. (The fuzzer found it.)"""
    ours, theirs = kibitz.Board(fen, chess960=chess960), chess.Board(fen, chess960=chess960)
    assert ours.fen() == theirs.fen()
    assert ours.status() == theirs.status()
    assert ours.castling_rights == theirs.castling_rights
    assert ours.clean_castling_rights() == theirs.clean_castling_rights()
