"""python-chess's Board methods that kibitz adds in Python (kibitz._board_ext) and the
bitboard attributes, against python-chess on the positions of random games (castling,
en passant and promotions favoured), Chess960 included."""

from __future__ import annotations

import random
from typing import Any

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kibitz
from fuzzing import examples


def random_positions(seed: int, plies: int = 60, chess960: bool = False) -> list[str]:
    rng = random.Random(seed)
    board = chess.Board.from_chess960_pos(rng.randrange(960)) if chess960 else chess.Board()
    fens = [board.fen()]
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        special = [m for m in moves if board.is_castling(m) or board.is_en_passant(m) or m.promotion
                   or abs(m.to_square - m.from_square) == 16]  # fmt: skip
        board.push(rng.choice(special if special and rng.random() < 0.4 else moves))
        fens.append(board.fen())
    return fens


ATTRIBUTES = ["occupied", "pawns", "knights", "bishops", "rooks", "queens", "kings", "promoted", "castling_rights"]
QUERIES = [
    "epd()", "epd(shredder=True)", "epd(en_passant='xfen')", "shredder_fen()", "castling_xfen()", "castling_shredder_fen()",
    "fen(shredder=True)", "fen(en_passant='xfen')", "status()", "is_valid()", "was_into_check()",
    "has_pseudo_legal_en_passant()", "mirror().fen()", "checkers_mask()", "clean_castling_rights()",
    "is_variant_end()", "uci_variant", "starting_fen",
]  # fmt: skip


def outcome(f):  # type: ignore[no-untyped-def]
    try:
        return f()
    except Exception as e:  # noqa: BLE001 -- the type is compared
        return ("raises", type(e).__name__)


@settings(max_examples=examples(25), deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans())
def test_queries_match_python_chess(seed: int, chess960: bool) -> None:
    for fen in random_positions(seed, chess960=chess960):
        ours, theirs = kibitz.Board(fen, chess960=chess960), chess.Board(fen, chess960=chess960)
        for name in ATTRIBUTES:
            assert getattr(ours, name) == getattr(theirs, name), (fen, name)
        assert list(ours.occupied_co) == list(theirs.occupied_co)
        for q in QUERIES:
            assert outcome(lambda: eval("b." + q, {"b": ours})) == outcome(lambda: eval("b." + q, {"b": theirs})), (
                fen,
                q,
            )
        for color in (True, False):
            for pt in range(1, 7):
                assert ours.pieces_mask(pt, color) == theirs.pieces_mask(pt, color)
        for sq in range(64):
            assert ours.attacks_mask(sq) == theirs.attacks_mask(sq)
            assert ours.attackers_mask(True, sq) == theirs.attackers_mask(True, sq)
            assert ours.pin_mask(ours.turn, sq) == theirs.pin_mask(theirs.turn, sq)
        for m in theirs.pseudo_legal_moves:
            km = kibitz.Move.from_uci(m.uci())
            for name in ("is_into_check", "is_irreversible", "is_kingside_castling", "is_queenside_castling"):
                assert getattr(ours, name)(km) == getattr(theirs, name)(m), (fen, name, m)
        for m in theirs.legal_moves:
            km = kibitz.Move.from_uci(m.uci())
            assert ours.xboard(km) == theirs.xboard(m)
            assert ours.epd(bm=km, id='q"1', c0=None, n=3) == theirs.epd(bm=m, id='q"1', c0=None, n=3)


@settings(max_examples=examples(25), deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 2**64 - 1), st.integers(-(2**64), 2**64 - 1))
def test_generators_with_masks_match_python_chess(seed: int, from_mask: int, to_mask: int) -> None:
    for fen in random_positions(seed, 40)[::5]:
        ours, theirs = kibitz.Board(fen), chess.Board(fen)
        for name in ("generate_legal_moves", "generate_legal_captures", "generate_pseudo_legal_moves",
                     "generate_pseudo_legal_captures", "generate_castling_moves", "generate_legal_ep"):  # fmt: skip
            for fm, tm in (
                (from_mask, to_mask),
                (chess.BB_ALL, to_mask),
                (from_mask, chess.BB_ALL),
                (chess.BB_ALL, chess.BB_ALL),
            ):
                mine = sorted(m.uci() for m in getattr(ours, name)(fm, tm))
                want = sorted(m.uci() for m in getattr(theirs, name)(fm, tm))
                assert mine == want, (fen, name, hex(fm), hex(tm & chess.BB_ALL))


@settings(max_examples=examples(60), deadline=None)
@given(
    st.data(),
    st.booleans(),
    st.integers(-(2**64), 2**64 - 1),
    st.integers(-(2**64), 2**64 - 1),
    st.booleans(),
)
def test_castling_and_en_passant_generators_in_rich_positions(
    data: st.DataObject, chess960: bool, from_mask: int, to_mask: int, as_squaresets: bool
) -> None:
    """generate_castling_moves and generate_legal_ep (which generate only the king's and the
    capturing pawns' moves) against python-chess, in positions rich in castling and en
    passant, standard and Chess960, with random masks, plain or as SquareSets."""
    from kibitz.testing import rare_rule_positions

    ours = data.draw(rare_rule_positions(chess960=chess960))
    theirs = chess.Board(ours.fen(), chess960=chess960)
    for name in ("generate_castling_moves", "generate_legal_ep"):
        for fm, tm in (
            (from_mask, to_mask),
            (chess.BB_ALL, to_mask),
            (from_mask, chess.BB_ALL),
            (chess.BB_ALL, chess.BB_ALL),
        ):
            want = [m.uci() for m in getattr(theirs, name)(fm, tm)]
            if as_squaresets:
                fm, tm = kibitz.SquareSet(fm & chess.BB_ALL), kibitz.SquareSet(tm & chess.BB_ALL)
            assert [m.uci() for m in getattr(ours, name)(fm, tm)] == want, (ours.fen(), name, fm, tm)
        assert [m.uci() for m in getattr(ours, name)()] == [m.uci() for m in getattr(theirs, name)()]


@settings(max_examples=examples(60), deadline=None)
@given(
    st.data(),
    st.booleans(),
    st.lists(st.tuples(st.integers(0, 63), st.integers(0, 63), st.sampled_from([None, 2, 3, 4, 5])), max_size=40),
)
def test_is_legal_of_any_squares_as_python_chess(data: st.DataObject, chess960: bool, moves: Any) -> None:
    """is_legal, `in legal_moves` and is_pseudo_legal for moves between any squares (from an empty square, an
    enemy piece, an own piece; castling written either way), against python-chess."""
    from kibitz.testing import rare_rule_positions

    ours = data.draw(rare_rule_positions(chess960=chess960))
    theirs = chess.Board(ours.fen(), chess960=chess960)
    candidates = [chess.Move(f, t, p) for f, t, p in moves] + list(theirs.pseudo_legal_moves)
    for m in candidates:
        mine = kibitz.Move(m.from_square, m.to_square, m.promotion)
        assert ours.is_legal(mine) == theirs.is_legal(m), (ours.fen(), m.uci())
        assert (mine in ours.legal_moves) == (m in theirs.legal_moves), (ours.fen(), m.uci())
        assert ours.is_pseudo_legal(mine) == theirs.is_pseudo_legal(m), (ours.fen(), m.uci())


def test_editing_methods() -> None:
    ours, theirs = kibitz.Board(), chess.Board()
    for b in (ours, theirs):
        b.push_san("e4")
        b.push_san("e5")
    assert ours.san_and_push(ours.parse_san("Nf3")) == theirs.san_and_push(theirs.parse_san("Nf3"))
    for b in (ours, theirs):
        b.clear_stack()
    assert ours.fen() == theirs.fen() and len(ours.move_stack) == len(theirs.move_stack) == 0
    fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    for b in (ours, theirs):
        b.set_fen(fen)
    assert ours.fen() == theirs.fen()
    assert ours.find_move(chess.E1, chess.H1).uci() == theirs.find_move(chess.E1, chess.H1).uci() == "e1g1"
    with pytest.raises(ValueError):
        ours.set_fen("not a fen")
    assert ours.fen() == fen  # unchanged by the bad FEN
    ours.apply_mirror()
    theirs.apply_mirror()
    assert ours.fen() == theirs.fen()
    for b in (ours, theirs):
        b.reset()
    assert ours.fen() == theirs.fen() == chess.STARTING_FEN
    with pytest.raises(chess.IllegalMoveError):
        theirs.find_move(chess.E2, chess.E5)
    with pytest.raises(kibitz.IllegalMoveError):
        ours.find_move(chess.E2, chess.E5)
    assert ours.parse_xboard("e4").uci() == theirs.parse_xboard("e4").uci()


def test_unknown_attributes_still_raise_attribute_error() -> None:
    with pytest.raises(AttributeError):
        kibitz.Board().no_such_method  # noqa: B018
    assert not hasattr(kibitz.Board(), "no_such_method")


@pytest.mark.parametrize(
    "fen",
    [
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
        "4k3/8/8/8/8/8/8/R3K1NR w KQ - 0 1",
        "r3k2r/8/8/8/8/8/8/4K3 b kq - 0 1",
        "4k3/8/8/8/8/8/8/4K2r w - - 0 1",
    ],
)
def test_find_move_reads_a_king_to_a_corner_as_python_chess(fen: str) -> None:
    # A king on e1 or e8 sent to a corner of its rank is read as castling whoever stands
    # there: the move found, or the error naming the castling move.
    def found(lib: Any) -> str:
        board = lib.Board(fen)
        try:
            return str(board.find_move(*squares).uci())
        except ValueError as e:
            return f"{type(e).__name__}: {e}"

    for squares in [(4, 7), (4, 0), (60, 63), (60, 56), (4, 6), (4, 5)]:
        assert found(kibitz) == found(chess), (fen, squares)
