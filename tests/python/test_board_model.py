"""python-chess's board model, answer against answer: `==` compares positions (not histories),
colours may be the ints 0 and 1, and "no move" (None, the null move) is answered, not refused.
Each case asks python-chess and kibitz the same question."""

from __future__ import annotations

import gc
import itertools
import pickle
import random
import sys
from typing import Any, Callable, List

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kibitz
from fuzzing import examples

# Knight shuffles and a few pawn moves: many transpositions, with and without the counters
# agreeing.
SHUFFLE = ["g1f3", "f3g1", "b1c3", "c3b1", "g8f6", "f6g8", "b8c6", "c6b8", "e2e4", "e7e5", "d2d4", "d7d5"]


def walk(rng: random.Random, plies: int) -> tuple[list[Any], list[chess.Board]]:
    """A random walk of mostly reversible moves: the kibitz and python-chess boards after
    each ply (copies, so that every one can be compared with every other)."""
    ours, theirs = kibitz.Board(), chess.Board()
    kb, cb = [ours.copy()], [theirs.copy()]
    for _ in range(plies):
        legal = {m.uci() for m in theirs.legal_moves}
        choices = [u for u in SHUFFLE if u in legal] or sorted(legal)
        if not choices:
            break
        u = rng.choice(choices)
        theirs.push_uci(u)
        ours.push_uci(u)
        kb.append(ours.copy())
        cb.append(theirs.copy())
    return kb, cb


@settings(max_examples=examples(25), deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_equality_is_python_chess_s_across_transpositions(seed: int) -> None:
    rng = random.Random(seed)
    k1, c1 = walk(rng, rng.randrange(4, 30))
    k2, c2 = walk(rng, rng.randrange(4, 30))
    ks, cs = k1 + k2, c1 + c2
    for i, j in itertools.combinations(range(len(ks)), 2):
        expected = cs[i] == cs[j]
        assert (ks[i] == ks[j]) is expected, (cs[i].fen(), cs[j].fen())
        assert (ks[i] != ks[j]) is (not expected)


def test_equality_ignores_history_and_chess960_but_not_counters() -> None:
    a, b = kibitz.Board(), kibitz.Board()
    for u in ["g1f3", "g8f6", "f3g1", "f6g8"]:
        a.push_uci(u)
    # The same position, four moves on: the counters differ (python-chess: unequal too).
    assert (a == b) is (chess.Board().copy() == _replay(["g1f3", "g8f6", "f3g1", "f6g8"]))
    fen = a.fen()
    assert a == kibitz.Board(fen)  # history differs, position and counters agree
    assert _replay(["g1f3", "g8f6", "f3g1", "f6g8"]) == chess.Board(fen)
    assert kibitz.Board(chess960=True) == kibitz.Board()
    # An en-passant square no capture can use does not count; one that can, does.
    assert kibitz.Board("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1") == kibitz.Board("4k3/8/8/8/4P3/8/8/4K3 b - - 0 1")
    assert kibitz.Board("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1") != kibitz.Board("4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1")


def _replay(ucis: List[str]) -> chess.Board:
    b = chess.Board()
    for u in ucis:
        b.push_uci(u)
    return b


COLOUR_QUESTIONS: List[tuple[str, Callable[[Any, Any, Any], Any]]] = [
    ("king", lambda b, lib, c: b.king(c)),
    ("pieces", lambda b, lib, c: int(b.pieces(lib.PAWN, c))),
    ("pieces_mask", lambda b, lib, c: b.pieces_mask(lib.KNIGHT, c)),
    ("attackers", lambda b, lib, c: int(b.attackers(c, lib.E4))),
    ("attackers_mask", lambda b, lib, c: b.attackers_mask(c, lib.D5)),
    ("is_attacked_by", lambda b, lib, c: b.is_attacked_by(c, lib.E3)),
    ("is_pinned", lambda b, lib, c: b.is_pinned(c, lib.D2)),
    ("pin", lambda b, lib, c: int(b.pin(c, lib.D7))),
    ("has_castling_rights", lambda b, lib, c: b.has_castling_rights(c)),
    ("has_kingside_castling_rights", lambda b, lib, c: b.has_kingside_castling_rights(c)),
    ("has_queenside_castling_rights", lambda b, lib, c: b.has_queenside_castling_rights(c)),
    ("has_insufficient_material", lambda b, lib, c: b.has_insufficient_material(c)),
    ("occupied_co", lambda b, lib, c: b.occupied_co[c]),
    ("Piece", lambda b, lib, c: lib.Piece(lib.ROOK, c).symbol()),
]

FENS = [
    chess.STARTING_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "4k3/3r4/8/8/8/8/3B4/3K4 w - - 0 1",
    "8/8/4k3/8/8/8/4K3/6N1 b - - 0 1",
]


@pytest.mark.parametrize("fen", FENS)
@pytest.mark.parametrize("colour", [0, 1, False, True])
@pytest.mark.parametrize("name,question", COLOUR_QUESTIONS, ids=[q[0] for q in COLOUR_QUESTIONS])
def test_colours_as_ints(fen: str, colour: Any, name: str, question: Callable[[Any, Any, Any], Any]) -> None:
    ours, theirs = kibitz.Board(fen), chess.Board(fen)
    assert question(ours, kibitz, colour) == question(theirs, chess, colour)


def test_a_colour_that_is_no_colour_is_refused_clearly() -> None:
    with pytest.raises(ValueError, match="WHITE"):
        kibitz.Board().king(2)
    with pytest.raises(TypeError, match="colour"):
        kibitz.Board().king("white")


@pytest.mark.parametrize("fen", FENS)
def test_no_move_is_answered_as_python_chess_answers(fen: str) -> None:
    ours, theirs = kibitz.Board(fen), chess.Board(fen)
    assert (None in ours.legal_moves) is (None in theirs.legal_moves) is False
    assert (None in ours.pseudo_legal_moves) is (None in theirs.pseudo_legal_moves) is False
    assert ours.is_legal(None) is theirs.is_legal(None) is False  # type: ignore[arg-type]
    assert ours.is_pseudo_legal(None) is theirs.is_pseudo_legal(None) is False  # type: ignore[arg-type]
    assert ours.gives_check(kibitz.Move.null()) == theirs.gives_check(chess.Move.null())


# ---- writable attributes: python-chess's plain fields, the move stack kept ----

from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule  # noqa: E402


class _OurSubclass(kibitz.Board):
    pass


class _TheirSubclass(chess.Board):
    pass


class AssignLikePythonChess(RuleBasedStateMachine):
    """Pushes (legal, pseudo-legal, the null move in check), pops, attribute assignments and
    piece edits (a second king, no king, a pawn on a back rank: positions the engine cannot
    play, whose moves python-chess still lists and plays; promoted pieces) on subclasses of
    both libraries' boards; every answer compared."""

    def __init__(self) -> None:
        super().__init__()
        # Subclasses of both boards, as programs written for python-chess make them.
        self.ours = _OurSubclass()
        self.theirs = _TheirSubclass()
        # The move_stack lists first handed out: python-chess's is an attribute, one list
        # for the board's life.
        self.lists = (self.ours.move_stack, self.theirs.move_stack)

    @rule(data=st.data())
    def push(self, data: st.DataObject) -> None:
        moves = list(self.theirs.legal_moves)
        if moves:
            move = data.draw(st.sampled_from(moves))
            self.theirs.push(move)
            self.ours.push(kibitz.Move.from_uci(move.uci()))

    @precondition(lambda self: bool(self.theirs.move_stack))
    @rule()
    def pop(self) -> None:
        assert self.ours.pop().uci() == self.theirs.pop().uci()

    @rule(data=st.data())
    def push_pseudo_legal(self, data: st.DataObject) -> None:
        # python-chess plays a pseudo-legal move that leaves the own king attacked (engines
        # written in Python push, look at was_into_check() and pop).
        moves = [m for m in self.theirs.pseudo_legal_moves if not self.theirs.is_legal(m)] or list(
            self.theirs.pseudo_legal_moves
        )
        if moves:
            move = data.draw(st.sampled_from(moves))
            self.theirs.push(move)
            self.ours.push(kibitz.Move.from_uci(move.uci()))
            assert self.ours.was_into_check() == self.theirs.was_into_check()

    @precondition(lambda self: self.theirs.is_check() and self.theirs.is_valid())
    @rule(as_uci=st.booleans())
    def push_null_in_check(self, as_uci: bool) -> None:
        if as_uci:
            assert self.ours.parse_uci("0000").uci() == self.theirs.parse_uci("0000").uci()
            assert self.ours.push_uci("0000").uci() == self.theirs.push_uci("0000").uci()
        else:
            self.theirs.push(chess.Move.null())
            self.ours.push(kibitz.Move.null())

    @rule(
        square=st.integers(0, 63),
        piece=st.sampled_from(["K", "k", "P", "p", "Q", "n", None]),
    )
    def set_piece(self, square: int, piece: Any) -> None:
        # python-chess's editing clears the move stack; any placement is allowed.
        if piece is None:
            self.theirs.remove_piece_at(square)
            self.ours.remove_piece_at(square)
        else:
            self.theirs.set_piece_at(square, chess.Piece.from_symbol(piece))
            self.ours.set_piece_at(square, kibitz.Piece.from_symbol(piece))

    @rule(square=st.integers(0, 63), piece=st.sampled_from(["Q", "q", "N", "r"]))
    def set_promoted_piece(self, square: int, piece: str) -> None:
        self.theirs.set_piece_at(square, chess.Piece.from_symbol(piece), promoted=True)
        self.ours.set_piece_at(square, kibitz.Piece.from_symbol(piece), promoted=True)

    @rule()
    def flip_turn(self) -> None:
        self.theirs.turn = not self.theirs.turn
        self.ours.turn = not self.ours.turn

    @rule(colour=st.sampled_from([0, 1, True, False]))
    def set_turn(self, colour: Any) -> None:
        self.theirs.turn = bool(colour)
        self.ours.turn = colour

    @rule(mask=st.sampled_from([0, chess.BB_H1, chess.BB_A1 | chess.BB_H8, chess.BB_CORNERS, chess.BB_E4]))
    def set_castling_rights(self, mask: int) -> None:
        # Only rights with their king and rook: with moves on its stack python-chess keeps
        # and writes any mask assigned, kibitz the usable rights (a difference it documents).
        stackless = self.theirs.copy(stack=False)
        stackless.castling_rights = mask
        mask = stackless.clean_castling_rights()
        self.theirs.castling_rights = mask
        self.ours.castling_rights = mask

    @rule(square=st.sampled_from([None, chess.E3, chess.D6, chess.A3, chess.H6, chess.E4]))
    def set_ep_square(self, square: Any) -> None:
        self.theirs.ep_square = square
        self.ours.ep_square = square

    @rule(n=st.integers(0, 120))
    def set_halfmove_clock(self, n: int) -> None:
        self.theirs.halfmove_clock = n
        self.ours.halfmove_clock = n

    @rule(n=st.integers(1, 200))
    def set_fullmove_number(self, n: int) -> None:
        self.theirs.fullmove_number = n
        self.ours.fullmove_number = n

    @rule(flag=st.booleans())
    def set_chess960(self, flag: bool) -> None:
        self.theirs.chess960 = flag
        self.ours.chess960 = flag
        # Rights the other mode cannot use (a rook beside a king off the e-file) are dropped,
        # as set_castling_rights keeps only usable ones.
        usable = self.theirs.copy(stack=False).clean_castling_rights()
        if usable != self.theirs.castling_rights:
            self.theirs.castling_rights = usable
            self.ours.castling_rights = usable

    @invariant()
    def same_answers(self) -> None:
        ours, theirs = self.ours, self.theirs
        assert ours.fen() == theirs.fen()
        assert (ours.turn, ours.castling_rights, ours.ep_square) == (
            theirs.turn,
            theirs.castling_rights,
            theirs.ep_square,
        )
        assert (ours.halfmove_clock, ours.fullmove_number, ours.chess960) == (
            theirs.halfmove_clock,
            theirs.fullmove_number,
            theirs.chess960,
        )
        assert [m.uci() for m in ours.move_stack] == [m.uci() for m in theirs.move_stack]
        # The same list at every read, brought up to date by the read.
        assert (ours.move_stack is self.lists[0]) == (theirs.move_stack is self.lists[1])
        assert [m.uci() for m in self.lists[0]] == [m.uci() for m in self.lists[1]]
        assert ours.root().fen() == theirs.root().fen()
        if theirs.move_stack:
            assert ours.peek().uci() == theirs.peek().uci()
        assert ours.status() == theirs.status()
        assert int(ours.promoted) == int(theirs.promoted)
        assert ours.fen(promoted=True) == theirs.fen(promoted=True)
        assert type(ours.copy()) is type(ours) and type(ours.root()) is type(ours)
        # Compared where python-chess's own moves mean something: a valid position whose
        # castling rights have their rooks (python-chess trusts the rights while it has a
        # move stack, and would castle with a missing rook).
        stackless = theirs.copy(stack=False)
        if stackless.is_valid() or not stackless.castling_rights & ~stackless.clean_castling_rights():
            assert [m.uci() for m in ours.legal_moves] == [m.uci() for m in theirs.legal_moves]
            assert [m.uci() for m in ours.pseudo_legal_moves] == [m.uci() for m in theirs.pseudo_legal_moves]
            assert ours.is_check() == theirs.is_check()
            assert ours.is_checkmate() == theirs.is_checkmate()
        assert ours == ours.copy() and ours.copy().fen() == theirs.copy().fen()
        # The stack sliced by copy(stack=k) and kept whole by pickling, through assignments.
        for k in (0, 1, 2, 3):
            a, b = ours.copy(stack=k), theirs.copy(stack=k)
            assert [m.uci() for m in a.move_stack] == [m.uci() for m in b.move_stack], k
            assert a.fen() == b.fen() and a.root().fen() == b.root().fen(), k
        again = pickle.loads(pickle.dumps(ours))
        assert type(again) is type(ours)
        assert [m.uci() for m in again.move_stack] == [m.uci() for m in theirs.move_stack]
        assert again.fen(promoted=True) == theirs.fen(promoted=True)
        assert again.root().fen() == theirs.root().fen()
        # Repetitions over the whole stack (python-chess asked on a copy: its count pops and
        # pushes back, which drops an assignment made between two moves).
        for count in (2, 3):
            assert ours.is_repetition(count) == theirs.copy().is_repetition(count), count
        # Questions about moves, answered by python-chess's rules in any position: en passant
        # on an assigned square no pawn can have crossed, the rights a move takes away (the
        # usable ones), the null move and pseudo-legal moves where kings are missing, doubled
        # or in check on the wrong side (python-chess's gives_check pushes and pops: asked on
        # a copy), and UCI by the squares alone, either side's king on e1 or e8.
        assert ours.has_legal_en_passant() == theirs.has_legal_en_passant()
        for flags in ({}, {"ignore_turn": True, "ignore_castling": True}):
            assert ours.chess960_pos(**flags) == theirs.chess960_pos(**flags), flags
        assert ours.gives_check(kibitz.Move.null()) == theirs.copy().gives_check(chess.Move.null())
        for move in list(theirs.pseudo_legal_moves)[:16]:
            mine = kibitz.Move.from_uci(move.uci())
            assert ours.is_irreversible(mine) == theirs.is_irreversible(move), move
            assert ours.gives_check(mine) == theirs.copy().gives_check(move), move
        for uci in ("e1g1", "e1h1", "e1c1", "e1a1", "e8g8", "e8h8", "e8c8", "e8a8", "e1e2"):
            for flag in (None, True, False):
                expected = theirs.uci(chess.Move.from_uci(uci), chess960=flag)
                assert ours.uci(kibitz.Move.from_uci(uci), chess960=flag) == expected, (uci, flag)


AssignLikePythonChess.TestCase.settings = settings(max_examples=examples(60), stateful_step_count=30, deadline=None)
test_assign_like_python_chess = AssignLikePythonChess.TestCase


@pytest.mark.parametrize(
    "fen",
    [
        "1b2b1r1/pp1k2p1/8/2P1pB2/p2N1n2/P1P3q1/3PPPP1/1B1KBNR1 b - - 1 18",  # in check
        chess.STARTING_FEN,
        "8/8/8/8/8/8/8/K1k5 w - - 0 1",
    ],
)
def test_the_null_move_in_uci_text_as_python_chess_takes_it(fen: str) -> None:
    ours, theirs = kibitz.Board(fen), chess.Board(fen)
    assert ours.parse_uci("0000").uci() == theirs.parse_uci("0000").uci() == "0000"
    assert ours.push_uci("0000").uci() == theirs.push_uci("0000").uci()
    assert ours.fen() == theirs.fen() and ours.was_into_check() == theirs.was_into_check()
    assert ours.pop().uci() == theirs.pop().uci() and ours.fen() == theirs.fen()


@pytest.mark.parametrize("square", [3, 8, 55, 63])
def test_a_start_position_with_a_promoted_mark_has_no_chess960_number(square: int) -> None:
    ours, theirs = kibitz.Board(), chess.Board()
    piece = theirs.piece_at(square)
    assert piece is not None
    theirs.set_piece_at(square, piece, promoted=True)
    ours.set_piece_at(square, kibitz.Piece.from_symbol(piece.symbol()), promoted=True)
    for flags in ({}, {"ignore_turn": True, "ignore_castling": True}):
        assert ours.chess960_pos(**flags) == theirs.chess960_pos(**flags), flags
    assert (
        kibitz.BaseBoard(ours.board_fen(promoted=True)).chess960_pos()
        == chess.BaseBoard(theirs.board_fen(promoted=True)).chess960_pos()
    )
    assert kibitz.Board().chess960_pos() == chess.Board().chess960_pos() == 518


# ---- subclasses ----


def _counting(lib: Any, name: str) -> Any:
    """A python-chess-style subclass of ``lib.Board``: its own __init__ and attribute, an
    overridden push; named ``name`` at module level, so that pickle finds it."""

    class Counting(lib.Board):  # type: ignore[misc, name-defined]
        def __init__(self, fen: Any = lib.STARTING_FEN, *, chess960: bool = False, label: str = "x") -> None:
            super().__init__(fen, chess960=chess960)
            self.label = label
            self.pushes = 0

        def push(self, move: Any) -> None:
            self.pushes += 1
            super().push(move)

    Counting.__name__ = Counting.__qualname__ = name
    return Counting


Counting = _counting(kibitz, "Counting")
CountingChess = _counting(chess, "CountingChess")


def test_a_subclass_behaves_as_python_chess_s() -> None:
    ours, theirs = Counting(label="mine"), CountingChess(label="mine")
    for b in (ours, theirs):
        b.push_san("e4")
        b.push_uci("e7e5")
        b.push(b.parse_san("Nf3"))
    assert ours.pushes == theirs.pushes == 3 and ours.label == "mine"
    assert ours.fen() == theirs.fen()
    import pickle

    for make in (
        lambda b: b.copy(),
        lambda b: b.copy(stack=1),
        lambda b: b.mirror(),
        lambda b: b.root(),
        lambda b: pickle.loads(pickle.dumps(b)),
        # python-chess's constructors that are classmethods make the subclass (cls(None, ...)).
        lambda b: type(b).empty(),
        lambda b: type(b).empty(chess960=True),
        lambda b: type(b).from_epd('4k3/8/8/8/8/8/4P3/4K3 w - - bm e4; id "x";')[0],
        lambda b: type(b).from_chess960_pos(100),
        lambda b: (
            b.transform(kibitz.flip_vertical) if isinstance(b, kibitz.Board) else b.transform(chess.flip_vertical)
        ),
    ):
        a, c = make(ours), make(theirs)
        assert type(a) is Counting and type(c) is CountingChess
        assert a.fen() == c.fen() and [m.uci() for m in a.move_stack] == [m.uci() for m in c.move_stack]
        assert repr(a) == repr(c).replace("CountingChess(", "Counting(")
    assert isinstance(ours, kibitz.Board) and Counting("8/8/8/4k3/8/8/8/4K3 w - - 0 1").king(True) == chess.E1
    assert [m.uci() for m in kibitz.LegalMoveGenerator(ours)] == [m.uci() for m in chess.LegalMoveGenerator(theirs)]
    assert kibitz.PseudoLegalMoveGenerator(ours).count() == chess.PseudoLegalMoveGenerator(theirs).count()


def test_a_subclass_that_only_names_another_variant_is_a_board_as_in_python_chess() -> None:
    # Its rules are the ones it overrides (none here): python-chess's board plays standard
    # chess for it, and so does kibitz's; == tells it from a standard board by the name.
    class Atomicish(kibitz.Board):
        uci_variant = "atomic"

    class AtomicishChess(chess.Board):
        uci_variant = "atomic"

    ours, theirs = Atomicish(), AtomicishChess()
    assert [m.uci() for m in ours.legal_moves] == [m.uci() for m in theirs.legal_moves]
    assert (ours == kibitz.Board(), ours == Atomicish()) == (theirs == chess.Board(), theirs == AtomicishChess())
    assert (ours == kibitz.Board(), ours == Atomicish()) == (False, True)


@pytest.mark.parametrize("name", ["flip_vertical", "flip_horizontal", "flip_diagonal", "flip_anti_diagonal"])
def test_flips_of_square_sets_as_python_chess(name: str) -> None:
    for mask in (0x1E22_2212_0E0A_1222, chess.BB_ALL, chess.BB_A1 | chess.BB_G7, 0):
        ours, theirs = getattr(kibitz, name)(kibitz.SquareSet(mask)), getattr(chess, name)(chess.SquareSet(mask))
        assert type(ours).__name__ == type(theirs).__name__ == "SquareSet"
        assert int(ours) == int(theirs) == getattr(kibitz, name)(mask)


def test_move_generators_take_any_board_like_object() -> None:
    # python-chess's generators read any object with its methods, walking it once a use.
    class Mock:
        def __init__(self) -> None:
            self.walks = 0

        def generate_legal_moves(self) -> Any:
            self.walks += 1
            yield from kibitz.Board().generate_legal_moves()

        def generate_pseudo_legal_moves(self) -> Any:
            yield from kibitz.Board().generate_pseudo_legal_moves()

        def is_legal(self, move: Any) -> bool:
            return move in kibitz.Board().legal_moves

        def is_pseudo_legal(self, move: Any) -> bool:
            return kibitz.Board().is_pseudo_legal(move)

    mock = Mock()
    gen = kibitz.LegalMoveGenerator(mock)
    assert [m.uci() for m in gen] == [m.uci() for m in chess.Board().legal_moves] and mock.walks == 1
    assert gen.count() == 20 and bool(gen) and kibitz.Move.from_uci("e2e4") in gen and None not in gen
    pseudo = kibitz.PseudoLegalMoveGenerator(mock)
    assert pseudo.count() == 20 and kibitz.Move.from_uci("g1f3") in pseudo


# ---------------------------------------------------------------- promoted pieces

PROMOTION_FENS = [
    "r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R w KQkq - 0 1",
    "4k3/1P4P1/8/2pP4/8/8/1p4p1/4K3 w - c6 0 1",
    "r3k2r/1P6/8/8/8/8/6p1/R3K2R b KQkq - 0 1",
]


@pytest.mark.parametrize("seed", range(60))
def test_promoted_pieces_are_tracked_as_python_chess_tracks_them(seed: int) -> None:
    """``promoted`` and ``fen(promoted=True)`` after random pushes (promotions favoured),
    pops, ``set_piece_at(..., promoted=...)``, ``remove_piece_at`` and ``mirror()``, answer by
    answer against python-chess."""
    rng = random.Random(seed)
    fen = PROMOTION_FENS[seed % len(PROMOTION_FENS)]
    ours, theirs = kibitz.Board(fen), chess.Board(fen)
    for step in range(40):
        roll = rng.random()
        legal = sorted(m.uci() for m in theirs.legal_moves)
        if roll < 0.1 and theirs.move_stack:
            ours.pop()
            theirs.pop()
        elif roll < 0.15:
            square = rng.randrange(64)
            if theirs.piece_type_at(square) not in (None, chess.KING):
                flag = rng.random() < 0.5
                piece = theirs.piece_at(square)
                theirs.set_piece_at(square, piece, promoted=flag)
                ours.set_piece_at(square, kibitz.Piece.from_symbol(piece.symbol()), promoted=flag)
        elif roll < 0.18:
            square = rng.randrange(64)
            if theirs.piece_type_at(square) not in (None, chess.KING):
                theirs.remove_piece_at(square)
                ours.remove_piece_at(square)
        elif roll < 0.2:
            ours, theirs = ours.mirror(), theirs.mirror()
        elif legal:
            promotions = [u for u in legal if len(u) == 5]
            uci = rng.choice(promotions if promotions and rng.random() < 0.7 else legal)
            ours.push_uci(uci)
            theirs.push_uci(uci)
        else:
            break
        assert ours.promoted == theirs.promoted, (step, theirs.fen())
        assert ours.fen(promoted=True) == theirs.fen(promoted=True)
        assert ours.board_fen(promoted=True) == theirs.board_fen(promoted=True)
        assert ours.fen() == theirs.fen()


def test_promoted_marks_are_read_from_a_fen_and_assigned() -> None:
    fen = "4k3/8/8/8/3R~4/8/8/Q~3K3 w - - 0 1"
    ours, theirs = kibitz.Board(fen), chess.Board(fen)
    assert ours.promoted == theirs.promoted == chess.BB_A1 | chess.BB_D4
    for b in (ours, theirs):
        b.push_uci("d4d6")
        b.promoted = chess.BB_A1  # an assignment keeps the stack
    assert ours.promoted == theirs.promoted and ours.fen(promoted=True) == theirs.fen(promoted=True)
    ours.pop()
    theirs.pop()
    assert ours.promoted == theirs.promoted == chess.BB_A1 | chess.BB_D4
    ours.set_board_fen("4k3/8/8/8/8/8/8/N~3K3")
    theirs.set_board_fen("4k3/8/8/8/8/8/8/N~3K3")
    assert ours.promoted == theirs.promoted == chess.BB_A1
    again = pickle.loads(pickle.dumps(ours))
    assert again.promoted == ours.promoted and again.board_fen(promoted=True) == ours.board_fen(promoted=True)
    ours.clear_board()
    theirs.clear_board()
    assert ours.promoted == theirs.promoted == 0


@settings(max_examples=examples(40), deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_attackers_through_another_occupancy_as_python_chess(seed: int) -> None:
    # python-chess's attackers_mask / attackers / is_attacked_by take an occupancy for the
    # sliders to see (an int mask, or any square set for the last two): the attackers are
    # still the board's pieces. Random games, then edits that may leave no king or two.
    rng = random.Random(seed)
    ours, theirs = kibitz.Board(), chess.Board()
    for _ in range(rng.randrange(0, 60)):
        moves = sorted(m.uci() for m in theirs.legal_moves)
        if not moves:
            break
        u = rng.choice(moves)
        ours.push_uci(u)
        theirs.push_uci(u)
    for _ in range(rng.randrange(0, 4)):
        square, kind = rng.randrange(64), rng.choice([None, 1, 3, 4, 5, 6])
        color = rng.random() < 0.5
        ours.set_piece_at(square, None if kind is None else kibitz.Piece(kind, color))
        theirs.set_piece_at(square, None if kind is None else chess.Piece(kind, color))
    boards = [(ours, theirs), (kibitz.BaseBoard(theirs.board_fen()), chess.BaseBoard(theirs.board_fen()))]
    for _ in range(30):
        color, square = rng.random() < 0.5, rng.randrange(64)
        occupied = rng.choice([rng.getrandbits(64), theirs.occupied & rng.getrandbits(64), 0, chess.BB_ALL])
        squares = [s for s in range(64) if occupied >> s & 1]
        for k, c in boards:
            assert k.attackers_mask(color, square, occupied) == c.attackers_mask(color, square, occupied)
            for arg in (occupied, squares, kibitz.SquareSet(occupied)):
                theirs_arg = chess.SquareSet(occupied) if isinstance(arg, kibitz.SquareSet) else arg
                assert int(k.attackers(color, square, arg)) == int(c.attackers(color, square, theirs_arg))
                assert k.is_attacked_by(color, square, arg) == c.is_attacked_by(color, square, theirs_arg)
            assert k.attackers_mask(color, square) == c.attackers_mask(color, square)


@pytest.mark.parametrize("ours, theirs", [(kibitz.Board, chess.Board), (kibitz.BaseBoard, chess.BaseBoard)])
def test_methods_take_python_chess_s_parameters_by_the_same_names(ours: Any, theirs: Any) -> None:
    # Keyword calls written for python-chess (board.push_xboard(san=...),
    # board.attackers_mask(color, square, occupied=...)) work unchanged; kibitz may add
    # keyword-only parameters with defaults after them.
    import inspect

    checked = 0
    for name, theirs_member in inspect.getmembers(theirs):
        if name.startswith("_") or not callable(theirs_member) or isinstance(theirs_member, type):
            continue
        theirs_params = list(inspect.signature(theirs_member).parameters.values())
        try:
            ours_params = list(inspect.signature(getattr(ours, name)).parameters.values())
        except (TypeError, ValueError):
            continue  # no signature to read (a builtin without a text signature)
        kinds = [p.kind for p in ours_params if p.name not in ("self", "cls")]
        if kinds == [inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD]:
            continue
        names = [p.name for p in theirs_params if p.name not in ("self", "cls")]
        ours_names = [p.name for p in ours_params if p.name not in ("self", "cls")]
        assert ours_names[: len(names)] == names, (name, ours_names, names)
        extra = [p for p in ours_params if p.name not in names and p.name not in ("self", "cls")]
        assert all(p.kind == p.KEYWORD_ONLY and p.default is not p.empty for p in extra), (name, extra)
        checked += 1
    assert checked > (60 if ours is kibitz.Board else 20)


@settings(max_examples=examples(40), deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_move_stack_is_one_list_brought_up_to_date_at_each_read(seed: int) -> None:
    """A plain Board's move_stack is python-chess's one list: random pushes, pops and
    set-ups with the list read in between (a read after each change syncs only what
    changed), a list the caller emptied or grew rebuilt from the board at the next read,
    and a copy with a list of its own."""
    rng = random.Random(seed)
    ours, theirs = kibitz.Board(), chess.Board()
    kept = ours.move_stack
    for _ in range(rng.randrange(20, 120)):
        roll = rng.random()
        if roll < 0.6 and not theirs.is_game_over():
            move = rng.choice(list(theirs.legal_moves))
            theirs.push(move)
            ours.push(kibitz.Move.from_uci(move.uci()))
        elif roll < 0.85 and theirs.move_stack:
            for _ in range(rng.randrange(1, 4)):
                if theirs.move_stack:
                    assert ours.pop().uci() == theirs.pop().uci()
        elif roll < 0.9:
            # The caller changes the list: the board keeps its moves and the next read
            # shows them again.
            if rng.random() < 0.5:
                ours.move_stack.clear()
            else:
                ours.move_stack.append(kibitz.Move.null())
        elif roll < 0.93:
            fen = theirs.fen()
            theirs.set_fen(fen)
            ours.set_fen(fen)
        else:
            copied = ours.copy()
            assert copied.move_stack is not ours.move_stack
            assert copied.move_stack == ours.move_stack
        if rng.random() < 0.7:
            assert ours.move_stack is kept
            assert [m.uci() for m in kept] == [m.uci() for m in theirs.move_stack]
            assert len(ours.move_stack) == len(theirs.move_stack)
            if theirs.move_stack:
                assert ours.move_stack[-1].uci() == theirs.move_stack[-1].uci()


@pytest.mark.parametrize("make", [kibitz.Board, _OurSubclass, lambda: kibitz.Board().copy()])
def test_a_freed_board_releases_its_move_stack_list(make: Callable[[], Any]) -> None:
    board = make()
    board.push_uci("e2e4")
    kept = board.move_stack
    held = sys.getrefcount(kept)
    del board
    gc.collect()
    assert sys.getrefcount(kept) == held - 1
    assert [m.uci() for m in kept] == ["e2e4"]
