"""The python-chess-shaped API, checked against python-chess itself.

Random games (hypothesis) from the start position, from positions rich in castling, en
passant and promotion (``kibitz.testing.RARE_RULE_SEEDS``), from Chess960 starts, and from
positions near the fifty- and seventy-five-move limits, are played on both libraries; at
every ply every query is compared. Then the objects: Move/Piece equality and hashing against
python-chess's, copy and pickle round trips with the move stack, live ``legal_moves`` views,
argument errors, the busy-board error, and Ctrl-C during a deep perft.

The default run keeps a few hundred examples; ``--runslow`` runs many more.
"""

from __future__ import annotations

import copy
import importlib
import os
import pickle
import random
import signal
import subprocess
import sys
import threading
import time
from typing import Any

import chess
import chess.polyglot
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import kibitz
from kibitz.testing import RARE_RULE_SEEDS, chess960_start_fens

SLOW = "--runslow" in sys.argv


def examples(n: int) -> settings:
    """``n`` examples by default, ten times as many with --runslow."""
    return settings(
        max_examples=n * 10 if SLOW else n,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


def same_move(a: object, b: chess.Move) -> bool:
    return a == b and b == a and hash(a) == hash(b)


def assert_same_queries(kb: kibitz.Board, cb: chess.Board, rnd: random.Random, full: bool = True) -> None:
    """Every position query of kibitz equals python-chess's on this position (the costly
    python-chess side of squares, per-move kinds and draw claims only when ``full``)."""
    where = f"{cb.fen()} after {' '.join(m.uci() for m in cb.move_stack)}"
    assert kb.fen() == cb.fen(), where
    assert kb.board_fen() == cb.board_fen(), where
    assert kb.turn == cb.turn, where
    assert kb.castling_rights == cb.clean_castling_rights(), where
    assert kb.ep_square == cb.ep_square, where
    assert kb.halfmove_clock == cb.halfmove_clock and kb.fullmove_number == cb.fullmove_number, where
    assert kb.ply() == cb.ply(), where
    assert kb.zobrist_hash() == chess.polyglot.zobrist_hash(cb), where
    assert str(kb) == str(cb) and repr(kb) == repr(cb), where
    assert kb.unicode() == cb.unicode(), where
    assert kb.unicode(invert_color=True, borders=True, empty_square=".", orientation=chess.BLACK) == cb.unicode(
        invert_color=True, borders=True, empty_square=".", orientation=chess.BLACK
    ), where
    # Moves: the view, its len / in / count / any, pseudo-legal moves, captures.
    legal = list(kb.legal_moves)
    ref_legal = list(cb.legal_moves)
    assert set(legal) == set(ref_legal) and len(legal) == len(set(legal)), where
    assert len(kb.legal_moves) == kb.legal_moves.count() == len(ref_legal), where
    assert kb.legal_moves.any() == bool(ref_legal) == bool(kb.legal_moves), where
    assert all(m in kb.legal_moves for m in ref_legal), where
    assert set(kb.pseudo_legal_moves) == set(cb.pseudo_legal_moves), where
    assert set(kb.generate_legal_captures()) == set(cb.generate_legal_captures()), where
    for m in cb.pseudo_legal_moves:
        assert kb.is_legal(m) == cb.is_legal(m) and kb.is_pseudo_legal(m), (m, where)
    assert kb.is_checkmate() == cb.is_checkmate() and kb.is_stalemate() == cb.is_stalemate(), where
    if not full:
        return
    # Pieces and squares.
    assert kb.piece_map() == cb.piece_map(), where
    for sq in chess.SQUARES:
        assert kb.piece_at(sq) == cb.piece_at(sq), where
        assert kb.piece_type_at(sq) == cb.piece_type_at(sq) and kb.color_at(sq) == cb.color_at(sq), where
    for color in chess.COLORS:
        assert kb.king(color) == cb.king(color), where
        assert kb.has_castling_rights(color) == cb.has_castling_rights(color), where
        assert kb.has_kingside_castling_rights(color) == cb.has_kingside_castling_rights(color), where
        assert kb.has_queenside_castling_rights(color) == cb.has_queenside_castling_rights(color), where
        assert kb.has_insufficient_material(color) == cb.has_insufficient_material(color), where
        for pt in chess.PIECE_TYPES:
            assert int(kb.pieces(pt, color)) == int(cb.pieces(pt, color)), where
        for sq in rnd.sample(chess.SQUARES, 6):
            assert int(kb.attackers(color, sq)) == int(cb.attackers(color, sq)), (sq, where)
            assert kb.is_attacked_by(color, sq) == cb.is_attacked_by(color, sq), (sq, where)
            assert kb.is_pinned(color, sq) == cb.is_pinned(color, sq), (sq, where)
            assert int(kb.pin(color, sq)) == int(cb.pin(color, sq)), (sq, where)
    for sq in rnd.sample(chess.SQUARES, 16):
        assert int(kb.attacks(sq)) == int(cb.attacks(sq)), (sq, where)
    assert kb.is_check() == cb.is_check() and int(kb.checkers()) == int(cb.checkers()), where
    assert kb.has_legal_en_passant() == cb.has_legal_en_passant(), where
    # Per move: notation and move kinds (all moves, including the pseudo-legal ones).
    for m in ref_legal:
        assert kb.san(m) == cb.san(m) and kb.lan(m) == cb.lan(m), (m, where)
        assert kb.gives_check(m) == cb.gives_check(m), (m, where)
    for m in cb.pseudo_legal_moves:
        assert kb.is_capture(m) == cb.is_capture(m), (m, where)
        assert kb.is_en_passant(m) == cb.is_en_passant(m), (m, where)
        assert kb.is_castling(m) == cb.is_castling(m), (m, where)
        assert kb.is_zeroing(m) == cb.is_zeroing(m), (m, where)
    # Game end.
    assert kb.is_checkmate() == cb.is_checkmate() and kb.is_stalemate() == cb.is_stalemate(), where
    assert kb.is_insufficient_material() == cb.is_insufficient_material(), where
    assert kb.is_seventyfive_moves() == cb.is_seventyfive_moves(), where
    assert kb.is_fivefold_repetition() == cb.is_fivefold_repetition(), where
    assert kb.is_repetition() == cb.is_repetition(), where
    assert kb.is_fifty_moves() == cb.is_fifty_moves(), where
    assert kb.can_claim_fifty_moves() == cb.can_claim_fifty_moves(), where
    assert kb.can_claim_threefold_repetition() == cb.can_claim_threefold_repetition(), where
    assert kb.can_claim_draw() == cb.can_claim_draw(), where
    for claim in (False, True):
        ours, theirs = kb.outcome(claim_draw=claim), cb.outcome(claim_draw=claim)
        assert (ours is None) == (theirs is None), where
        if ours is not None and theirs is not None:
            assert ours.termination.name == theirs.termination.name, where
            assert ours.termination.value == theirs.termination.value, where
            assert ours.winner == theirs.winner and ours.result() == theirs.result(), where
        assert kb.is_game_over(claim_draw=claim) == cb.is_game_over(claim_draw=claim), where
        assert kb.result(claim_draw=claim) == cb.result(claim_draw=claim), where
    # History.
    assert [m.uci() for m in kb.move_stack] == [m.uci() for m in cb.move_stack], where
    assert all(same_move(a, b) for a, b in zip(kb.move_stack, cb.move_stack)), where
    if cb.move_stack:
        assert same_move(kb.peek(), cb.peek()), where


def play_and_compare(kb: kibitz.Board, cb: chess.Board, seed: int, plies: int, *, repeat_bias: bool = False) -> None:
    """Plays the same random game on both boards, comparing every query at every ply. With
    ``repeat_bias``, knights and kings shuffle back and forth often, so repetitions happen."""
    rnd = random.Random(seed)
    for ply in range(plies):
        assert_same_queries(kb, cb, rnd, full=ply % 4 == 0)
        moves = sorted(cb.legal_moves, key=lambda m: m.uci())
        if not moves:
            break
        move = rnd.choice(moves)
        if repeat_bias and len(cb.move_stack) >= 2 and rnd.random() < 0.7:
            back = cb.move_stack[-2]
            undo = chess.Move(back.to_square, back.from_square)
            if undo in moves:
                move = undo
        # Half the moves go in as python-chess Moves, half as kibitz Moves.
        ours = move if rnd.random() < 0.5 else kibitz.Move.from_uci(move.uci())
        kb.push(ours)
        cb.push(move)
    assert_same_queries(kb, cb, rnd)
    # variation_san of the whole game from the root, as python-chess writes it.
    assert kb.root().variation_san(kb.move_stack) == cb.root().variation_san(cb.move_stack)


seeds = st.integers(0, 2**32 - 1)


@examples(30)
@given(seed=seeds, plies=st.integers(0, 60))
def test_random_games_from_the_start(seed: int, plies: int) -> None:
    play_and_compare(kibitz.Board(), chess.Board(), seed, plies)


@examples(40)
@given(fen=st.sampled_from(RARE_RULE_SEEDS), seed=seeds, plies=st.integers(0, 16))
def test_random_games_with_castling_en_passant_and_promotion(fen: str, seed: int, plies: int) -> None:
    play_and_compare(kibitz.Board(fen), chess.Board(fen), seed, plies)


@examples(30)
@given(fen=chess960_start_fens(), seed=seeds, plies=st.integers(0, 40))
def test_random_chess960_games(fen: str, seed: int, plies: int) -> None:
    play_and_compare(kibitz.Board(fen, chess960=True), chess.Board(fen, chess960=True), seed, plies)


# Few pieces and high clocks: insufficient material, the fifty- and 75-move rules, repetitions.
ENDGAMES = [
    "8/8/4k3/8/8/3K4/5B2/8 w - - {h} 60",
    "8/8/4k3/2b5/8/3K4/5B2/8 w - - {h} 60",
    "8/2n5/4k3/8/8/3K4/5N2/8 b - - {h} 60",
    "4k3/8/8/8/8/8/4P3/4K3 w - - {h} 60",
    "r3k3/8/8/8/8/8/8/4K2R w Kq - {h} 60",
    "8/8/8/4k3/8/8/2Q5/K7 w - - {h} 60",
]


@examples(40)
@given(
    fen=st.sampled_from(ENDGAMES), clock=st.integers(0, 149), seed=seeds, plies=st.integers(0, 12), repeat=st.booleans()
)
def test_random_endgames_near_the_move_limits(fen: str, clock: int, seed: int, plies: int, repeat: bool) -> None:
    fen = fen.format(h=clock)
    play_and_compare(kibitz.Board(fen), chess.Board(fen), seed, plies, repeat_bias=repeat)


@examples(20)
@given(seed=seeds, plies=st.integers(4, 40))
def test_repetitions_from_the_start(seed: int, plies: int) -> None:
    play_and_compare(kibitz.Board(), chess.Board(), seed, plies, repeat_bias=True)


def test_castling_through_check_and_king_takes_rook_forms() -> None:
    # f1 and d1 attacked: no castling either way; e1h1 / e1a1 name castling in standard chess.
    fen = "r3k2r/8/8/8/2b2b2/8/8/R3K2R w KQkq - 0 1"  # bishops watch f1 and c1
    kb, cb = kibitz.Board(fen), chess.Board(fen)
    assert set(kb.legal_moves) == set(cb.legal_moves)
    assert not kb.is_legal(kibitz.Move.from_uci("e1g1")) and not kb.is_legal(kibitz.Move.from_uci("e1c1"))
    ok = kibitz.Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert ok.is_legal(chess.Move.from_uci("e1h1")) and "e1h1" in ok.legal_moves
    ok.push(chess.Move.from_uci("e1h1"))  # python-chess accepts this form too
    assert ok.peek() == chess.Move.from_uci("e1g1") and ok.fen().startswith("r3k2r/8/8/8/8/8/8/R4RK1 b kq")


# ---- Move, Piece, SquareSet, constants ----


@given(st.integers(0, 63), st.integers(0, 63), st.sampled_from([None, 2, 3, 4, 5]))
def test_move_equals_and_hashes_like_python_chess(a: int, b: int, promo: int | None) -> None:
    ours, theirs = kibitz.Move(a, b, promo), chess.Move(a, b, promo)
    lookup: dict[Any, int] = {theirs: 1}
    assert same_move(ours, theirs) and {ours} == {theirs} and lookup[ours] == 1
    assert str(ours) == str(theirs) and repr(ours) == repr(theirs) and ours.uci() == theirs.uci()
    assert bool(ours) == bool(theirs)
    assert (ours.from_square, ours.to_square, ours.promotion, ours.drop) == (a, b, promo, None)
    if a != b:
        assert kibitz.Move.from_uci(theirs.uci()) == ours
    assert pickle.loads(pickle.dumps(ours)) == ours and copy.deepcopy(ours) == ours
    assert ours != chess.Move(a, b ^ 1, promo) and ours != theirs.uci()


def test_move_null_and_bad_text() -> None:
    assert kibitz.Move.null() == chess.Move.null() and not kibitz.Move.null()
    assert kibitz.Move.null().uci() == "0000"
    for bad in ["", "e2", "e2e9", "e2e2", "X@e4", "e2e4x"]:
        with pytest.raises(chess.InvalidMoveError):
            chess.Move.from_uci(bad)
        with pytest.raises(kibitz.InvalidMoveError):
            kibitz.Move.from_uci(bad)
    # Read as python-chess reads them, though never legal: a king promotion and a drop.
    for odd in ["e2e4k", "P@e4"]:
        assert kibitz.Move.from_uci(odd) == chess.Move.from_uci(odd)
        assert kibitz.Move.from_uci(odd).uci() == odd
    with pytest.raises(ValueError):
        kibitz.Move(0, 64)
    with pytest.raises(AttributeError):
        kibitz.Move(0, 1).from_square = 3  # type: ignore[misc]


def test_piece_like_python_chess() -> None:
    for sym in "PNBRQKpnbrqk":
        ours, theirs = kibitz.Piece.from_symbol(sym), chess.Piece.from_symbol(sym)
        assert ours == theirs and theirs == ours and hash(ours) == hash(theirs)
        assert (ours.piece_type, ours.color, ours.symbol(), str(ours), repr(ours)) == (
            theirs.piece_type,
            theirs.color,
            theirs.symbol(),
            str(theirs),
            repr(theirs),
        )
        assert ours.unicode_symbol() == theirs.unicode_symbol()
        assert ours.unicode_symbol(invert_color=True) == theirs.unicode_symbol(invert_color=True)
        assert kibitz.Piece(theirs.piece_type, theirs.color) == ours
        assert pickle.loads(pickle.dumps(ours)) == ours
    with pytest.raises(ValueError):
        kibitz.Piece.from_symbol("x")


def test_constants_and_square_helpers_match_python_chess() -> None:
    for name in [
        "WHITE",
        "BLACK",
        "PAWN",
        "KNIGHT",
        "BISHOP",
        "ROOK",
        "QUEEN",
        "KING",
        "SQUARES",
        "SQUARE_NAMES",
        "FILE_NAMES",
        "RANK_NAMES",
        "PIECE_TYPES",
        "COLORS",
    ]:
        assert getattr(kibitz, name) == getattr(chess, name), name
    for name in chess.SQUARE_NAMES:
        assert getattr(kibitz, name.upper()) == getattr(chess, name.upper())
    for sq in chess.SQUARES:
        f, r = chess.square_file(sq), chess.square_rank(sq)
        assert (kibitz.square_file(sq), kibitz.square_rank(sq), kibitz.square(f, r)) == (f, r, sq)
        assert kibitz.square_name(sq) == chess.square_name(sq)
        assert kibitz.parse_square(chess.square_name(sq)) == sq
    with pytest.raises(ValueError):
        kibitz.parse_square("i9")


def test_square_set_behaves_like_python_chess() -> None:
    b, ref = kibitz.Board(), chess.Board()
    ours, theirs = b.pieces(chess.PAWN, chess.WHITE), ref.pieces(chess.PAWN, chess.WHITE)
    assert list(ours) == list(theirs) and len(ours) == len(theirs) and int(ours) == int(theirs)
    assert ours == theirs and ours == int(theirs) and ours == set(theirs)
    assert str(ours) == str(theirs) and repr(ours) == repr(theirs)
    assert chess.E2 in ours and chess.E4 not in ours
    assert int(ours | b.pieces(chess.KING, True)) == int(theirs | ref.pieces(chess.KING, True))
    assert int(ours & 0xFF00) == 0xFF00 and int(ours - 0x0F00) == 0xF000 and int(~ours) == int(~theirs)
    assert ours.tolist() == theirs.tolist()


# ---- copy, pickle, equality ----


@examples(30)
@given(seed=seeds, plies=st.integers(0, 40), chess960=st.booleans(), data=st.data())
def test_copy_and_pickle_keep_position_and_history(seed: int, plies: int, chess960: bool, data: st.DataObject) -> None:
    fen = data.draw(chess960_start_fens()) if chess960 else chess.STARTING_FEN
    b = kibitz.Board(fen, chess960=chess960)
    rnd = random.Random(seed)
    for _ in range(plies):
        moves = list(b.legal_moves)
        if not moves:
            break
        b.push(rnd.choice(moves))
    for twin in (
        b.copy(),
        copy.copy(b),
        copy.deepcopy(b),
        pickle.loads(pickle.dumps(b)),
        kibitz.Board.from_chess(b.to_chess()),
    ):
        assert twin == b and twin is not b
        assert twin.fen() == b.fen() and twin.move_stack == b.move_stack and twin.chess960 == b.chess960
        assert twin.root().fen() == b.root().fen()
        assert twin.zobrist_hash() == b.zobrist_hash() and set(twin.legal_moves) == set(b.legal_moves)
    # A copy is independent.
    twin = b.copy()
    if list(twin.legal_moves):
        twin.push(next(iter(twin.legal_moves)))
        assert twin != b and len(twin.move_stack) == len(b.move_stack) + 1
    # copy(stack=...) keeps that many moves, like python-chess.
    ref = b.to_chess()
    for n in {0, 1, plies // 2, plies + 3}:
        ours, theirs = b.copy(stack=n), ref.copy(stack=n)
        assert ours.move_stack == theirs.move_stack and ours.root().fen() == theirs.root().fen()
        assert ours.ep_square == theirs.ep_square
    assert b.copy(stack=False).move_stack == [] and b.copy(stack=False).fen() == b.fen()


def test_boards_stay_off_the_cycle_collector_and_subclass_cycles_are_collected() -> None:
    # A board holds no Python object that could lead back to it, so boards of the Board class
    # are not tracked (a list of millions of copies costs the collector nothing); a subclass's
    # boards have an instance dict, stay tracked, and a cycle through one is still collected.
    import gc
    import weakref

    b = kibitz.Board()
    b.push_san("e4")
    list(b.legal_moves)  # the cached tuple of Moves is the one Python object a board holds
    for board in (b, b.copy(), copy.copy(b), b.copy(stack=0), kibitz.Board("8/8/8/8/8/8/8/K6k w - - 0 1")):
        assert not gc.is_tracked(board)
    assert b.copy().fen() == b.fen()

    class Sub(kibitz.Board):
        pass

    s = Sub()
    assert gc.is_tracked(s) and gc.is_tracked(s.copy()) and type(s.copy()) is Sub
    s.me = s  # type: ignore[attr-defined]  # a cycle through the instance dict
    gone = weakref.ref(s)
    del s
    gc.collect()
    assert gone() is None


class WithDict(kibitz.Board):
    pass


class Slotted(kibitz.Board):
    __slots__ = ()


def test_freed_boards_release_what_they_hold_at_once() -> None:
    # A board's deallocator is kibitz's own (the Board class is made a plain, uncollected
    # type at import): what a freed board held must go with it, at once, whatever shape the
    # board was in: copies, boards with cached move lists along a line, boards with a
    # history from before an attribute assignment, unplayable ones, subclasses with and
    # without an instance dict. Checked on the reference counts of the interned Moves the
    # cached lists hold, and on the memory Python's allocator traces.
    import gc
    import tracemalloc

    # The switch happened (it is skipped, PyO3's paths kept, on a type layout it does not
    # recognise): the class is no longer one the cycle collector manages.
    assert kibitz.Board.__flags__ & (1 << 14) == 0  # Py_TPFLAGS_HAVE_GC
    first = next(iter(kibitz.Board().legal_moves))
    before = sys.getrefcount(first)

    def make(cls: type[kibitz.Board], i: int) -> list[kibitz.Board]:
        b = cls()
        list(b.legal_moves)
        b.push(first)
        list(b.legal_moves)
        if i % 2:
            b.turn = not b.turn  # keeps the line before the assignment (and its cached lists)
            list(b.legal_moves)
        out = [b, b.copy(), b.copy(stack=1), copy.copy(b), pickle.loads(pickle.dumps(b))]
        if i % 3 == 0:
            u = cls(None)  # no kings: unplayable
            out += [u, u.copy()]
        return out

    boards = [x for cls in (kibitz.Board, WithDict, Slotted) for i in range(30) for x in make(cls, i)]
    assert sys.getrefcount(first) > before + 30  # the cached lists hold the start's Moves
    assert type(boards[-1]) is Slotted and any(type(x) is WithDict for x in boards)
    del boards
    gc.collect()
    assert sys.getrefcount(first) == before

    tracemalloc.start()
    try:
        sources = [x for i in range(20) for x in make(kibitz.Board, i)]
        for _ in range(2):  # warm the allocator's pools
            copies = [b.copy() for b in sources for _ in range(50)]
            del copies
        start, _ = tracemalloc.get_traced_memory()
        copies = [b.copy() for b in sources for _ in range(50)]
        held, _ = tracemalloc.get_traced_memory()
        del copies
        gc.collect()
        end, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    made = 50 * len(sources)
    assert held - start >= made * kibitz.Board.__basicsize__  # the copies were traced
    assert end - start < made * 8  # and freed: less than a word each is left


@pytest.mark.parametrize("chess960", [False, True])
def test_start_boards_are_independent_and_the_same_as_a_start_position_read_from_its_fen(chess960: bool) -> None:
    # Board() and Board(STARTING_FEN) share one start position until they change (no FEN is
    # read); they must be what reading the start position's FEN gives, and python-chess's.
    theirs = chess.Board(chess960=chess960)
    read = kibitz.Board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", chess960=chess960)
    boards = [kibitz.Board(chess960=chess960), kibitz.Board(chess.STARTING_FEN, chess960=chess960)]
    for b in boards:
        for ours in (b, read):
            assert ours.fen() == theirs.fen() and ours.chess960 == theirs.chess960 == chess960
            assert ours.castling_rights == theirs.castling_rights and ours.ep_square is None
            assert (ours.halfmove_clock, ours.fullmove_number) == (0, 1) and ours.move_stack == []
        assert b.zobrist_hash() == read.zobrist_hash() and b == read
        assert sorted(m.uci() for m in b.legal_moves) == sorted(m.uci() for m in theirs.legal_moves)
    a, b = boards
    a.push_san("e4")
    c = kibitz.Board(chess960=chess960)
    assert b.fen() == c.fen() == theirs.fen() and a.fen() != theirs.fen()
    a.pop()
    assert a == b == c
    b.set_piece_at(chess.E2, None)
    assert kibitz.Board(chess960=chess960).piece_at(chess.E2) == chess.Piece(chess.PAWN, chess.WHITE)


def test_pickle_keeps_an_en_passant_square_without_capturer() -> None:
    # python-chess keeps a FEN's ep square even when no pawn can take there; so do we.
    fen = "4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1"
    b = kibitz.Board(fen)
    assert b.ep_square == chess.Board(fen).ep_square == chess.E3
    again = pickle.loads(pickle.dumps(b))
    assert again.ep_square == chess.E3 and again == b


def test_boards_differ_by_history() -> None:
    a, b = kibitz.Board(), kibitz.Board()
    for m in ["g1f3", "g8f6", "f3g1", "f6g8"]:
        a.push_uci(m)
    assert a.fen() != b.fen() or True
    assert a != b and a.root() == b and a == a


# ---- live views ----


def test_legal_moves_view_is_live() -> None:
    b = kibitz.Board()
    view = b.legal_moves
    assert len(view) == 20 and chess.Move.from_uci("e2e4") in view
    b.push_san("e4")
    assert len(view) == 20 and chess.Move.from_uci("e7e5") in view and chess.Move.from_uci("e2e4") not in view
    b.push_san("f5")
    assert set(view) == set(chess.Board("rnbqkbnr/ppppp1pp/8/5p2/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2").legal_moves)
    b.pop()
    b.pop()
    assert len(view) == 20
    pseudo = b.pseudo_legal_moves
    b.push_san("e4")
    assert set(pseudo) == set(
        chess.Board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").pseudo_legal_moves
    )
    # An iterator made before a push keeps the moves of its own position.
    it = iter(b.legal_moves)
    b.push(next(it))
    rest = list(it)
    b.pop()
    assert len(rest) == 19 and set(rest) < set(b.legal_moves)
    # Mate: the view is empty and false.
    b = kibitz.Board("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")
    assert not b.legal_moves and b.legal_moves.count() == 0 and not b.legal_moves.any()


def test_natural_python_loop_counts_perft() -> None:
    def perft(b: kibitz.Board, depth: int) -> int:
        if depth == 0:
            return 1
        n = 0
        for m in b.legal_moves:
            b.push(m)
            n += perft(b, depth - 1)
            b.pop()
        return n

    kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    assert perft(kibitz.Board(), 3) == 8902  # published counts
    assert perft(kibitz.Board(kiwipete), 2) == 2039


# ---- errors ----


def test_illegal_pushes_raise_and_leave_the_board() -> None:
    b = kibitz.Board()
    before = b.fen()
    for bad in [chess.Move.from_uci("e2e5"), kibitz.Move.from_uci("e7e5"), "e1e2"]:
        with pytest.raises(kibitz.IllegalMoveError):
            b.push(bad)
        assert b.fen() == before and b.move_stack == []
    with pytest.raises(TypeError):
        b.push(42)
    with pytest.raises(IndexError):
        b.pop()
    b.push(kibitz.Move.null())
    assert b.turn == chess.BLACK and b.pop() == kibitz.Move.null()
    # The null move in check is played as python-chess plays it (the position after it has
    # the side not to move in check), and taken back.
    checked, ref = kibitz.Board("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1"), chess.Board("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1")
    checked.push(kibitz.Move.null())
    ref.push(chess.Move.null())
    assert checked.fen() == ref.fen() and checked.status() == ref.status() and checked.was_into_check()
    assert checked.pop() == kibitz.Move.null() and checked.fen() == "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1"
    with pytest.raises(kibitz.IllegalMoveError):
        b.variation_san([chess.Move.from_uci("e2e4"), chess.Move.from_uci("e2e4")])


def test_perft_and_divide_arguments() -> None:
    b = kibitz.Board()
    with pytest.raises(ValueError, match="depth"):
        b.perft(2**63)
    with pytest.raises(ValueError, match="depth"):
        b.perft(-1)
    with pytest.raises(ValueError, match="depth"):
        b.divide(0)  # not the depth-1 counts
    with pytest.raises(TypeError):
        b.perft("3")  # type: ignore[arg-type]
    assert b.perft(0) == 1 and sum(b.divide(2).values()) == 400


def perft_in_a_thread(b: kibitz.Board) -> tuple[threading.Thread, list[BaseException]]:
    """A started thread running a long perft on `b`, and the list its error would go to."""
    errors: list[BaseException] = []

    def deep() -> None:
        try:
            b.perft(6)
        except BaseException as e:  # noqa: BLE001 - reported by the caller
            errors.append(e)

    t = threading.Thread(target=deep)
    t.start()
    return t, errors


def test_two_threads_on_one_board_get_a_clear_error() -> None:
    b = kibitz.Board()
    t, errors = perft_in_a_thread(b)
    deadline = time.monotonic() + 10
    seen = None
    while time.monotonic() < deadline and seen is None:
        try:
            b.push_uci("e2e4")
            b.pop()
        except RuntimeError as e:
            seen = e
        time.sleep(0.001)
    t.join()
    assert not errors
    assert seen is not None and "another thread" in str(seen)
    assert b.fen() == chess.STARTING_FEN


def test_push_pop_and_move_list_see_a_board_busy_in_another_thread() -> None:
    # push, pop, copy and the legal move list take the board's lock their own, cheaper way
    # (per node of a Python search loop); they must refuse a board another thread holds.
    b = kibitz.Board()
    e4 = kibitz.Move.from_uci("e2e4")
    t, errors = perft_in_a_thread(b)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and t.is_alive():  # until the perft holds the board
        try:
            b.fen()
        except RuntimeError:
            break
    refused: set[str] = set()
    while time.monotonic() < deadline and len(refused) < 4 and t.is_alive():
        calls = (("push", lambda: b.push(e4)), ("pop", b.pop), ("list", lambda: list(b.legal_moves)), ("copy", b.copy))
        for name, call in calls:
            try:
                call()
                if name == "push":
                    b.pop()
            except RuntimeError as e:
                assert "another thread" in str(e)
                refused.add(name)
            except IndexError:
                pass  # pop of the start position when the lock was free
        time.sleep(0.001)
    t.join()
    assert not errors
    assert refused == {"push", "pop", "list", "copy"}
    assert b.fen() == chess.STARTING_FEN


def test_fen_with_two_digits_in_a_row_is_rejected() -> None:
    with pytest.raises(kibitz.FenError, match="rank 5"):
        kibitz.Board("4k3/8/8/44/8/8/8/4K3 w - - 0 1")
    with pytest.raises(ValueError):
        chess.Board("4k3/8/8/44/8/8/8/4K3 w - - 0 1")


def test_repr_svg_uses_kibitz_svg_when_present() -> None:
    b = kibitz.Board()
    b.push_san("e4")
    try:
        importlib.import_module("kibitz.svg")
    except ImportError:
        assert b._repr_svg_() is None
        return
    svg = b._repr_svg_()
    assert isinstance(svg, str) and "<svg" in svg


# ---- Ctrl-C ----

CTRL_C_CHILD = """
import sys, kibitz
b = kibitz.Board()
b.push_uci("e2e4")
print("ready", flush=True)
try:
    b.perft(12)
except KeyboardInterrupt:
    import time
    print("interrupted", time.monotonic(), b.fen(), flush=True)
"""


def interrupt_deep_perft() -> tuple[float, str]:
    """Starts a deep perft in a child, sends SIGINT, and returns the delay until the child
    caught KeyboardInterrupt and the FEN of its board afterwards."""
    p = subprocess.Popen(
        [sys.executable, "-c", CTRL_C_CHILD],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert p.stdout is not None
    assert p.stdout.readline().strip() == "ready"
    time.sleep(0.3)  # well inside the perft
    sent = time.monotonic()
    p.send_signal(signal.SIGINT)
    try:
        out, _ = p.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        raise AssertionError("the perft ignored SIGINT for 10 s") from None
    line = out.split()
    assert line and line[0] == "interrupted", line
    # CLOCK_MONOTONIC is system-wide, so the child's reading compares with ours.
    return float(line[1]) - sent, " ".join(line[2:])


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process is POSIX")
def test_ctrl_c_interrupts_a_deep_perft_within_100_ms() -> None:
    # The machine running the tests may be busy: one of three tries must answer within
    # 100 ms (the requirement), every try within a second, and the board is always unchanged.
    delays = []
    for _ in range(3):
        delay, fen = interrupt_deep_perft()
        assert fen == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        assert delay < 1.0, f"took {delay:.3f} s"
        delays.append(delay)
        if delay < 0.1:
            break
    assert min(delays) < 0.1, f"delays {delays}"
