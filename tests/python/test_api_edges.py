"""The Python API where python-chess is odd or lenient, answered as python-chess answers:
null moves in SAN and in repetition counting, en-passant squares no legal capture uses,
squares as list indexes (negative, out of range, huge), counts of any size, promotions to a
pawn or a king and drops (never legal, but python-chess's Move holds them), XBoard text,
yes/no arguments given as 0, 1 or None (python-chess tests them with `if`).

Every case runs both libraries on the same input and compares the answer or the exception
class; the stateful test drives both with the same random operations and compares them
after every step (briefly by default; `KIBITZ_FUZZ_LONG=1` runs it long)."""

from __future__ import annotations

from typing import Any, Callable

import chess
import chess.pgn
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

import kibitz
import kibitz.pgn
from fuzzing import LONG, examples

PROMOTE = "6k1/3P4/8/8/8/8/8/4K3 w - - 0 1"
INTO_CHECK = "4k3/8/8/8/8/8/4r3/3K4 w - - 0 1"
IN_CHECK = "4k3/4Q3/8/8/8/8/8/4K3 b - - 0 1"
PINNED = "4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1"
CASTLE = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
CASTLE_THROUGH_CHECK = "r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1"
PINNED_EP = "7k/3p4/8/K3P2r/8/8/8/8 b - - 0 1"  # after d7d5 the capture e5xd6 is pinned

Case = Callable[[Any], Any]

CASES: dict[str, Case] = {
    # null moves
    "parse_san --": lambda lib: lib.Board().parse_san("--").uci(),
    "parse_san Z0": lambda lib: lib.Board().parse_san("Z0").uci(),
    "parse_san 0000": lambda lib: lib.Board().parse_san("0000").uci(),
    "parse_san @@@@": lambda lib: lib.Board().parse_san("@@@@").uci(),
    "push_san -- then fen": lambda lib: _push_san(lib.Board(), "--").fen(),
    "push_san Z0 twice repeats": lambda lib: _push_san(_push_san(lib.Board(), "Z0"), "Z0").is_repetition(2),
    "two null moves repeat": lambda lib: _nulls(lib, 2).is_repetition(2),
    "four null moves repeat thrice": lambda lib: _nulls(lib, 4).is_repetition(3),
    "null moves and knights": lambda lib: _play(lib, ["g1f3", None, "f3g1", None]).is_repetition(2),
    "san of the null move": lambda lib: lib.Board().san(lib.Move.null()),
    "lan of the null move": lambda lib: lib.Board().lan(lib.Move.null()),
    "variation_san with a null move": lambda lib: lib.Board().variation_san(
        [lib.Move.from_uci("e2e4"), lib.Move.null(), lib.Move.from_uci("d2d4")]
    ),
    "root after a null move": lambda lib: _nulls(lib, 1).root().fen(),
    "fen after null moves": lambda lib: _nulls(lib, 3).fen(),
    # en passant no legal capture uses
    "pinned ep fivefold": lambda lib: _pinned_ep(lib, 4).is_fivefold_repetition(),
    "pinned ep repetition 5": lambda lib: _pinned_ep(lib, 4).is_repetition(5),
    "pinned ep repetition 2": lambda lib: _pinned_ep(lib, 1).is_repetition(2),
    "pinned ep claim": lambda lib: _pinned_ep(lib, 2).can_claim_threefold_repetition(),
    "pinned ep outcome": lambda lib: str(_pinned_ep(lib, 4).outcome()),
    # squares as list indexes
    "piece_at(64)": lambda lib: lib.Board().piece_at(64),
    "piece_at(-1)": lambda lib: str(lib.Board().piece_at(-1)),
    "piece_at(-64)": lambda lib: str(lib.Board().piece_at(-64)),
    "piece_at(-65)": lambda lib: lib.Board().piece_at(-65),
    "piece_at(2**70)": lambda lib: lib.Board().piece_at(2**70),
    "piece_at('a1')": lambda lib: lib.Board().piece_at("a1"),
    "piece_type_at(-8)": lambda lib: lib.Board().piece_type_at(-8),
    "color_at(100)": lambda lib: lib.Board().color_at(100),
    "attackers(WHITE, 64)": lambda lib: lib.Board().attackers(lib.WHITE, 64),
    "attacks(-2)": lambda lib: int(lib.Board().attacks(-2)),
    "is_attacked_by(BLACK, -44)": lambda lib: lib.Board().is_attacked_by(lib.BLACK, -44),
    "attackers_mask(BLACK, 2**64)": lambda lib: lib.Board().attackers_mask(lib.BLACK, 2**64),
    # counts of any size
    "is_repetition(2**70)": lambda lib: lib.Board().is_repetition(2**70),
    "is_repetition(-2**70)": lambda lib: lib.Board().is_repetition(-(2**70)),
    "is_repetition(0)": lambda lib: lib.Board().is_repetition(0),
    # promotions to a pawn or a king, drops
    "from_uci d7d8k": lambda lib: lib.Move.from_uci("d7d8k").uci(),
    "from_uci d7d8p promotion": lambda lib: lib.Move.from_uci("d7d8p").promotion,
    "Move(E1, G1, KING)": lambda lib: lib.Move(lib.E1, lib.G1, lib.KING).uci(),
    "is_capture of a king promotion": lambda lib: lib.Board(PROMOTE).is_capture(lib.Move.from_uci("d7d8k")),
    "is_castling of a king promotion": lambda lib: lib.Board(PROMOTE).is_castling(lib.Move(lib.E1, lib.G1, lib.KING)),
    "is_en_passant of a pawn promotion": lambda lib: lib.Board().is_en_passant(lib.Move(lib.E2, lib.E4, lib.PAWN)),
    "is_zeroing of a king promotion": lambda lib: lib.Board().is_zeroing(lib.Move(lib.E2, lib.E4, lib.KING)),
    "is_irreversible of a king promotion": lambda lib: lib.Board().is_irreversible(lib.Move(lib.E2, lib.E4, lib.KING)),
    "is_into_check of a king promotion": lambda lib: lib.Board().is_into_check(lib.Move(lib.E2, lib.E4, lib.KING)),
    "gives_check of a king promotion": lambda lib: lib.Board(PROMOTE).gives_check(lib.Move.from_uci("d7d8k")),
    "gives_check of a rook jump": lambda lib: lib.Board().gives_check(lib.Move.from_uci("a1a7")),
    "is_legal of a king promotion": lambda lib: lib.Board(PROMOTE).is_legal(lib.Move.from_uci("d7d8k")),
    "in legal_moves, king promotion": lambda lib: lib.Move.from_uci("d7d8k") in lib.Board(PROMOTE).legal_moves,
    "push of a king promotion": lambda lib: _push(lib.Board(PROMOTE), lib.Move.from_uci("d7d8k")),
    "parse_san d8=K": lambda lib: lib.Board(PROMOTE).parse_san("d8=K"),
    "e2e4p is not e2e4": lambda lib: lib.Move.from_uci("e2e4p") == lib.Move.from_uci("e2e4"),
    "drop uci": lambda lib: lib.Move.from_uci("P@e4").uci(),
    "drop lower case": lambda lib: lib.Move.from_uci("n@e4").uci(),
    "drop fields": lambda lib: (lambda m: (m.from_square, m.to_square, m.promotion, m.drop))(lib.Move.from_uci("Q@h8")),
    "drop equals its constructor": lambda lib: lib.Move.from_uci("P@e4") == lib.Move(lib.E4, lib.E4, drop=lib.PAWN),
    "drop hash": lambda lib: hash(lib.Move.from_uci("P@e4")),
    "drop repr": lambda lib: repr(lib.Move.from_uci("P@e4")),
    "drop on a1 is not null": lambda lib: bool(lib.Move(0, 0, drop=lib.PAWN)),
    "drop in legal_moves": lambda lib: lib.Move.from_uci("P@e4") in lib.Board().legal_moves,
    "drop in pseudo_legal_moves": lambda lib: lib.Move.from_uci("P@e4") in lib.Board().pseudo_legal_moves,
    "is_legal of a drop": lambda lib: lib.Board().is_legal(lib.Move.from_uci("P@e4")),
    "bad drop": lambda lib: lib.Move.from_uci("X@e4"),
    "from_uci e4e4": lambda lib: lib.Move.from_uci("e4e4"),
    "from_uci e2e4Q": lambda lib: lib.Move.from_uci("e2e4Q"),
    "from_uci @@@@": lambda lib: lib.Move.from_uci("@@@@"),
    "kibitz and python-chess king promotions are equal": lambda lib: (
        lib.Move.from_uci("d7d8k") == chess.Move.from_uci("d7d8k")
    ),
    "one set of kibitz and python-chess drops": lambda lib: len(
        {lib.Move.from_uci("P@e4"), chess.Move.from_uci("P@e4")}
    ),
    # XBoard text
    "xboard of a move": lambda lib: lib.Move.from_uci("e7e8q").xboard(),
    "xboard of the null move": lambda lib: lib.Move.null().xboard(),
    "xboard of a drop": lambda lib: lib.Move.from_uci("P@e4").xboard(),
    # a king onto its own rook: castling, for python-chess's is_pseudo_legal in standard chess too
    "is_pseudo_legal(e1h1)": lambda lib: lib.Board(CASTLE).is_pseudo_legal(lib.Move.from_uci("e1h1")),
    "e1a1 in pseudo_legal_moves": lambda lib: lib.Move.from_uci("e1a1") in lib.Board(CASTLE).pseudo_legal_moves,
    "is_pseudo_legal(e1h1) through check": lambda lib: lib.Board(CASTLE_THROUGH_CHECK).is_pseudo_legal(
        lib.Move.from_uci("e1h1")
    ),
    "is_pseudo_legal(e8h8) without the right": lambda lib: lib.Board(CASTLE.replace("KQkq", "KQ")).is_pseudo_legal(
        lib.Move.from_uci("e8h8")
    ),
    # a pseudo-legal move into check: python-chess writes it as any other move
    "san of a king move into check": lambda lib: lib.Board(INTO_CHECK).san(lib.Move.from_uci("d1e1")),
    "lan of a king move into check": lambda lib: lib.Board(INTO_CHECK).lan(lib.Move.from_uci("d1e1")),
    "san of a pinned piece's move": lambda lib: lib.Board(PINNED).san(lib.Move.from_uci("e2d3")),
    "san of the next move after one into check": lambda lib: _pushed(lib, INTO_CHECK, "d1e1").san(
        lib.Move.from_uci("e2e1")
    ),
    "PGN of a game with a move into check": lambda lib: str(_game_of(lib, _pushed(lib, INTO_CHECK, "d1e1"))),
    # drops on a standard board: in no move list, refused by parse_uci as python-chess does
    "parse_uci of a drop": lambda lib: lib.Board().parse_uci("N@e4"),
    "push_uci of a drop": lambda lib: lib.Board().push_uci("N@e4"),
    "is_pseudo_legal of a drop": lambda lib: lib.Board().is_pseudo_legal(lib.Move.from_uci("N@e4")),
    "is_capture of a drop": lambda lib: lib.Board().is_capture(lib.Move.from_uci("N@e7")),
    "is_castling of a drop": lambda lib: lib.Board().is_castling(lib.Move.from_uci("K@e4")),
    "is_en_passant of a drop": lambda lib: lib.Board().is_en_passant(lib.Move.from_uci("P@e4")),
    "is_zeroing of a pawn drop": lambda lib: lib.Board().is_zeroing(lib.Move.from_uci("P@e4")),
    "is_zeroing of a knight drop": lambda lib: lib.Board().is_zeroing(lib.Move.from_uci("N@e4")),
    "is_irreversible of a knight drop": lambda lib: lib.Board().is_irreversible(lib.Move.from_uci("N@e4")),
    "is_into_check of a drop in check": lambda lib: lib.Board(IN_CHECK).is_into_check(lib.Move.from_uci("N@d7")),
    "is_into_check of the null move in check": lambda lib: lib.Board(IN_CHECK).is_into_check(lib.Move.null()),
    "is_into_check of the null move": lambda lib: lib.Board().is_into_check(lib.Move.null()),
    "variation_san of the null move, no black king": lambda lib: lib.Board("8/8/8/8/8/8/8/4K3 w - - 0 1").variation_san(
        [lib.Move.null()]
    ),
    "piece_symbol(0)": lambda lib: lib.piece_symbol(0),
    "piece_name(0)": lambda lib: lib.piece_name(0),
    # EPD operations with empty move lists
    "epd(bm=[])": lambda lib: lib.Board().epd(bm=[]),
    "epd(pv=[])": lambda lib: lib.Board().epd(pv=[]),
    # dict order, which code that takes the first piece or writes the dict out sees
    "piece_map order": lambda lib: list(lib.Board().piece_map()),
    "piece_map(mask=) order": lambda lib: list(lib.Board().piece_map(mask=lib.BB_RANK_2 | lib.BB_RANK_7)),
    "BaseBoard.piece_map order": lambda lib: list(lib.BaseBoard("k7/8/8/8/8/8/8/7K").piece_map()),
    # yes/no arguments by their truth value (python-chess keeps the object where it stores one)
    "Board(chess960=0)": lambda lib: bool(lib.Board(lib.STARTING_FEN, chess960=0).chess960),
    "Board(chess960=1) castling": lambda lib: lib.Board(lib.STARTING_FEN, chess960=1).fen(shredder=None),
    "Board.empty(chess960=None)": lambda lib: bool(lib.Board.empty(chess960=None).chess960),
    "from_epd(chess960=0)": lambda lib: lib.Board.from_epd("8/8/8/8/8/8/8/K1k5 w - - bm Kb1;", chess960=0)[0].fen(),
    "fen(shredder=1)": lambda lib: lib.Board().fen(shredder=1),
    "fen(shredder=None)": lambda lib: lib.Board().fen(shredder=None),
    "board_fen(promoted=0)": lambda lib: lib.Board().board_fen(promoted=0),
    "result(claim_draw=1)": lambda lib: _knights_dance(lib).result(claim_draw=1),
    "outcome(claim_draw=None)": lambda lib: _knights_dance(lib).outcome(claim_draw=None),
    "is_game_over(claim_draw=1)": lambda lib: _knights_dance(lib).is_game_over(claim_draw=1),
    "unicode(borders=1, invert_color=0)": lambda lib: lib.Board().unicode(borders=1, invert_color=0),
    "unicode(orientation=0)": lambda lib: lib.Board().unicode(orientation=0),
    "set_piece_at(promoted=1)": lambda lib: _promoted_fen(lib, 1),
    "set_piece_at(promoted=None)": lambda lib: _promoted_fen(lib, None),
    "board.chess960 = 1": lambda lib: _set(lib.Board(), "chess960", 1).fen(shredder=False),
    "Piece.unicode_symbol(invert_color=1)": lambda lib: lib.Piece(lib.PAWN, True).unicode_symbol(invert_color=1),
    "Piece(PAWN, None)": lambda lib: lib.Piece(lib.PAWN, None).symbol(),
    "Move(a1, a2, promotion=0)": lambda lib: lib.Move(0, 8, 0).uci(),
    "push of Move(e2, e4, 0)": lambda lib: _push(lib.Board(), lib.Move(12, 28, 0)),
    "copy(stack=None)": lambda lib: len(_push_san(lib.Board(), "e4").copy(stack=None).move_stack),
    "copy(stack=0)": lambda lib: len(_push_san(lib.Board(), "e4").copy(stack=0).move_stack),
    # drops onto a king's home square are no castling
    "uci of Q@e8": lambda lib: lib.Board().uci(lib.Move.from_uci("Q@e8")),
    "uci of N@e1 on a crazyhouse board": lambda lib: (
        _variants(lib).CrazyhouseBoard(ZH_KNIGHT).uci(lib.Move.from_uci("N@e1"))
    ),
    "uci of N@e1 after e1 emptied": lambda lib: (
        _variants(lib).CrazyhouseBoard(ZH_KNIGHT).uci(lib.Move.from_uci("N@e1"), chess960=True)
    ),
    "crazyhouse is_zeroing of a pawn drop": lambda lib: (
        _variants(lib).CrazyhouseBoard(ZH_PAWN).is_zeroing(lib.Move.from_uci("P@d4"))
    ),
    "crazyhouse is_zeroing of a knight drop": lambda lib: (
        _variants(lib).CrazyhouseBoard(ZH_KNIGHT).is_zeroing(lib.Move.from_uci("N@d4"))
    ),
    # variant state through transforms, EPD's positional arguments
    "crazyhouse transform keeps the pockets": lambda lib: (
        _variants(lib).CrazyhouseBoard("4k3/8/8/8/8/8/8/R3K2R[Qq] w KQ - 0 1").transform(lib.flip_vertical).fen()
    ),
    "three-check transform keeps the checks": lambda lib: (
        _variants(lib).ThreeCheckBoard("4k3/8/8/8/8/8/8/R3K2R w KQ - 2+1 0 1").transform(lib.flip_horizontal).fen()
    ),
    "three-check epd(True)": lambda lib: _variants(lib).ThreeCheckBoard().epd(True),
    "crazyhouse epd(True, 'fen')": lambda lib: _variants(lib).CrazyhouseBoard().epd(True, "fen"),
    "atomic transform": lambda lib: _variants(lib).AtomicBoard().transform(lib.flip_vertical).fen(),
    # pictures in a notebook
    "Board._repr_svg_ width": lambda lib: _svg_size(lib.Board()._repr_svg_()),
    "Board._repr_svg_ type is a str": lambda lib: isinstance(lib.Board()._repr_svg_(), str),
    "Board._repr_svg_ has _repr_svg_": lambda lib: hasattr(lib.Board()._repr_svg_(), "_repr_svg_"),
    "Piece._repr_svg_ has _repr_svg_": lambda lib: hasattr(lib.Piece(1, True)._repr_svg_(), "_repr_svg_"),
    "SquareSet._repr_svg_ width": lambda lib: _svg_size(lib.SquareSet(1)._repr_svg_()),
    "empty Board._repr_svg_ width": lambda lib: _svg_size(lib.Board(None)._repr_svg_()),
}

ZH_KNIGHT = "4k3/8/8/8/8/8/8/5K2[n] b - - 0 1"
ZH_PAWN = "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1"


def _variants(lib: Any) -> Any:
    import importlib

    return importlib.import_module("kibitz.variant.boards" if lib is kibitz else "chess.variant")


def _svg_size(svg: str) -> tuple[str, str]:
    import re

    head = svg[: svg.index(">")]
    width, height = re.search(r'width="(\d+)"', head), re.search(r'height="(\d+)"', head)
    assert width is not None and height is not None
    return width.group(1), height.group(1)


def _push(board: Any, move: Any) -> Any:
    board.push(move)
    return board.fen()


def _push_san(board: Any, san: str) -> Any:
    board.push_san(san)
    return board


def _pushed(lib: Any, fen: str, uci: str) -> Any:
    board = lib.Board(fen)
    board.push(lib.Move.from_uci(uci))
    return board


def _game_of(lib: Any, board: Any) -> Any:
    pgn = kibitz.pgn if lib is kibitz else chess.pgn
    return pgn.Game.from_board(board)


def _knights_dance(lib: Any) -> Any:
    """The start position twice repeated: threefold repetition may be claimed."""
    return _play(lib, ["g1f3", "g8f6", "f3g1", "f6g8"] * 2)


def _promoted_fen(lib: Any, promoted: Any) -> str:
    board = lib.Board()
    board.set_piece_at(lib.D8, lib.Piece(lib.QUEEN, True), promoted=promoted)
    return str(board.board_fen(promoted=True))


def _set(board: Any, name: str, value: Any) -> Any:
    setattr(board, name, value)
    return board


def _nulls(lib: Any, n: int) -> Any:
    board = lib.Board()
    for _ in range(n):
        board.push(lib.Move.null())
    return board


def _play(lib: Any, moves: list[str | None]) -> Any:
    board = lib.Board()
    for m in moves:
        board.push(lib.Move.null() if m is None else lib.Move.from_uci(m))
    return board


def _pinned_ep(lib: Any, cycles: int) -> Any:
    board = lib.Board(PINNED_EP)
    board.push_uci("d7d5")
    for _ in range(cycles):
        for m in ("a5a4", "h8g8", "a4a5", "g8h8"):
            board.push_uci(m)
    return board


def answer(case: Case, lib: Any) -> Any:
    try:
        return ("value", case(lib))
    except Exception as e:  # the exception's class is the answer
        return ("raises", type(e).__name__)


# Where kibitz keeps a board python-chess would corrupt: pushing a move that is never legal
# raises instead of writing it on the board (listed in docs/python-chess.md).
DIFFERENT = {"push of a king promotion": ("raises", "IllegalMoveError")}


@pytest.mark.parametrize("name", sorted(CASES))
def test_answers_as_python_chess(name: str) -> None:
    theirs = answer(CASES[name], chess)
    ours = answer(CASES[name], kibitz)
    if name in DIFFERENT:
        assert ours == DIFFERENT[name] and theirs != ours
    else:
        assert ours == theirs


# ---------------------------------------------------------------------------- stateful

STARTS = [
    chess.STARTING_FEN,
    PINNED_EP,
    "7k/8/8/K2pP2r/8/8/8/8 w - d6 0 2",  # a pinned en-passant capture at the root
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "4k3/8/8/2p5/3P4/8/8/4K3 b - - 0 1",
    "8/8/3k4/8/8/3K4/8/8 w - - 40 60",
]


class SameAsPythonChess(RuleBasedStateMachine):
    """Both libraries get the same operations; every answer must agree."""

    def __init__(self) -> None:
        super().__init__()
        self.ours = kibitz.Board()
        self.theirs = chess.Board()
        # Boards left behind by `copy_and_go_on`, each with its python-chess twin: whatever
        # the copies do later must not change them (kibitz's copies share the position until
        # one of them changes it).
        self.left: list[tuple[Any, chess.Board]] = []

    @rule(start=st.sampled_from(STARTS))
    def set_up(self, start: str) -> None:
        self.ours = kibitz.Board(start)
        self.theirs = chess.Board(start)

    @rule(data=st.data())
    def push_legal(self, data: st.DataObject) -> None:
        moves = list(self.theirs.legal_moves)
        if moves:
            move = data.draw(st.sampled_from(moves))
            self.theirs.push(move)
            self.ours.push(kibitz.Move.from_uci(move.uci()))

    @rule(data=st.data())
    def push_back_and_forth(self, data: st.DataObject) -> None:
        """A reversible move and its return, so that positions repeat."""
        for move in list(self.theirs.legal_moves):
            if not self.theirs.is_zeroing(move) and not self.theirs.is_castling(move):
                self.theirs.push(move)
                self.ours.push(kibitz.Move.from_uci(move.uci()))
                return

    @precondition(lambda self: not self.theirs.is_check())
    @rule(spelling=st.sampled_from(["--", "Z0", "0000", "@@@@", None]))
    def push_null(self, spelling: str | None) -> None:
        if spelling is None:
            self.theirs.push(chess.Move.null())
            self.ours.push(kibitz.Move.null())
        else:
            self.theirs.push_san(spelling)
            self.ours.push_san(spelling)

    @rule(data=st.data())
    def push_san_spelling(self, data: st.DataObject) -> None:
        moves = list(self.theirs.legal_moves)
        if not moves:
            return
        move = data.draw(st.sampled_from(moves))
        spelling = data.draw(
            st.sampled_from([self.theirs.san(move), self.theirs.lan(move), move.uci(), self.theirs.san(move) + "!?"])
        )
        assert answer(lambda lib: self.ours.parse_san(spelling).uci(), kibitz) == answer(
            lambda lib: self.theirs.parse_san(spelling).uci(), chess
        ), spelling
        self.theirs.push(move)
        self.ours.push(kibitz.Move.from_uci(move.uci()))

    @rule(stack=st.sampled_from([None, True, False, 0, 1, 2, 5]), go_on_with_copy=st.booleans())
    def copy_and_go_on(self, stack: Any, go_on_with_copy: bool) -> None:
        """Copy (all, none or the last n moves of the history) and go on with the copy or
        the original; the other is kept and must never change."""
        kwargs = {} if stack is None else {"stack": stack}
        ours, theirs = self.ours.copy(**kwargs), self.theirs.copy(**kwargs)
        assert ours.fen() == theirs.fen() and len(ours.move_stack) == len(theirs.move_stack)
        if go_on_with_copy:
            self.left.append((self.ours, self.theirs.copy()))
            self.ours, self.theirs = ours, theirs
        else:
            self.left.append((ours, theirs))
        del self.left[:-3]

    @precondition(lambda self: bool(self.theirs.move_stack))
    @rule()
    def pop(self) -> None:
        assert self.ours.pop().uci() == self.theirs.pop().uci()

    @invariant()
    def same_answers(self) -> None:
        ours, theirs = self.ours, self.theirs
        assert ours.fen() == theirs.fen()
        assert ours.epd() == theirs.epd()
        for n in (2, 3, 4, 5):
            assert ours.is_repetition(n) == theirs.is_repetition(n), n
        assert ours.can_claim_threefold_repetition() == theirs.can_claim_threefold_repetition()
        assert ours.can_claim_draw() == theirs.can_claim_draw()
        assert str(ours.outcome(claim_draw=True)) == str(theirs.outcome(claim_draw=True))
        assert ours.is_fivefold_repetition() == theirs.is_fivefold_repetition()
        # In python-chess's order: code that keeps the first of equal moves depends on it.
        assert [m.uci() for m in ours.legal_moves] == [m.uci() for m in theirs.legal_moves]
        assert [m.uci() for m in ours.pseudo_legal_moves] == [m.uci() for m in theirs.pseudo_legal_moves]
        assert [m.uci() for m in ours.move_stack] == [m.uci() for m in theirs.move_stack]
        for left, left_ref in self.left:
            assert left.fen() == left_ref.fen()
            assert [m.uci() for m in left.move_stack] == [m.uci() for m in left_ref.move_stack]
            assert {m.uci() for m in left.legal_moves} == {m.uci() for m in left_ref.legal_moves}


SameAsPythonChess.TestCase.settings = settings(
    max_examples=examples(40),
    stateful_step_count=60 if LONG else 25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
test_same_as_python_chess = SameAsPythonChess.TestCase
