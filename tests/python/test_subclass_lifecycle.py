"""What python-chess's Board does with a subclass's own constructor, its overrides of the
methods that set a position, and its instance attributes, compared with kibitz's: both
libraries run the same code and must agree."""

from __future__ import annotations

import copy
import pickle
from types import ModuleType

import chess
import pytest

import kibitz

LIBS = [pytest.param(chess, id="python-chess"), pytest.param(kibitz, id="kibitz")]
OTHER_FEN = "8/8/8/8/8/8/8/K6k w - - 0 1"


def narrow(lib: ModuleType) -> type:
    class Narrow(lib.Board):  # type: ignore[name-defined,misc]
        def __init__(self, fen: str | None = lib.STARTING_FEN) -> None:
            super().__init__(fen)

    return Narrow


def tagged(lib: ModuleType) -> type:
    class Tagged(lib.Board):  # type: ignore[name-defined,misc]
        def reset(self) -> None:
            super().reset()
            self.tags = {"how": "reset"}

        def set_fen(self, fen: str) -> None:
            super().set_fen(fen)
            self.tags = {"how": "set_fen", "fen": fen}

        def clear(self) -> None:
            super().clear()
            self.tags = {"how": "clear"}

    return Tagged


def outcome(f):  # the value, or the exception's class name
    try:
        return f()
    except Exception as e:  # noqa: BLE001 - the class is what is compared
        return type(e).__name__


def test_a_subclass_whose_constructor_takes_no_chess960_copies_mirrors_and_transforms() -> None:
    seen = []
    for lib in (chess, kibitz):
        cls = narrow(lib)
        b = cls()
        b.push_san("e4")
        seen.append(
            [
                outcome(lambda: (type(b.copy()).__name__, b.copy().fen(), len(b.copy().move_stack))),
                outcome(lambda: b.mirror().fen()),
                outcome(lambda: b.transform(lib.flip_horizontal).fen()),
                outcome(lambda: copy.copy(b).fen()),
                outcome(lambda: copy.deepcopy(b).fen()),
                outcome(lambda: b.copy(stack=False).fen()),
                outcome(lambda: type(b.root()).__name__),  # python-chess's root passes chess960=
            ]
        )
    assert seen[0] == seen[1]
    assert seen[1][0] == ("Narrow", chess.Board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").fen(), 1)


@pytest.mark.parametrize("args", [(), (OTHER_FEN,), (None,), (chess.STARTING_FEN,)])
def test_the_constructor_sets_the_position_through_the_subclasss_overrides(args) -> None:
    seen = []
    for lib in (chess, kibitz):
        b = tagged(lib)(*args)
        seen.append((getattr(b, "tags", None), b.fen()))
        seen.append((getattr(b.copy(), "tags", None),))  # copies are made with cls(None)
    assert seen[0] == seen[2] and seen[1] == seen[3]
    assert seen[0][0] is not None


def test_a_pickled_subclass_keeps_its_instance_attributes() -> None:
    seen = []
    for lib in (chess, kibitz):
        cls = PICKLABLE[lib.__name__]
        b = cls(OTHER_FEN)
        b.game_id = 42
        b.push(lib.Move.from_uci("a1a2"))
        back = pickle.loads(pickle.dumps(b))
        seen.append((type(back) is cls, back.game_id, back.tags, back.fen(), [m.uci() for m in back.move_stack]))
    assert seen[0] == seen[1]


# The subclasses pickled, at module level where pickle finds them by name.
PICKLABLE = {}
for _lib in (chess, kibitz):
    _cls = tagged(_lib)
    _cls.__qualname__ = _cls.__name__ = f"Tagged_{_lib.__name__}"
    globals()[_cls.__name__] = PICKLABLE[_lib.__name__] = _cls


def test_set_piece_map_clears_the_promoted_marks() -> None:
    seen = []
    for lib in (chess, kibitz):
        b = lib.Board("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
        b.push_san("b8=Q")
        b.set_piece_map(lib.Board("1q2k3/8/8/8/8/8/8/4K3 w - - 0 1").piece_map())
        seen.append((int(b.promoted), b.fen(promoted=True)))
    assert seen[0] == seen[1] == (0, "1q2k3/8/8/8/8/8/8/4K3 b - - 0 1")


@pytest.mark.parametrize("lib", LIBS)
def test_moves_pieces_and_outcomes_match_patterns_by_their_fields(lib: ModuleType) -> None:
    def describe(x: object) -> str:
        match x:
            case lib.Move(f, t, p, None):
                return f"move {f} {t} {p}"
            case lib.Piece(kind, color):
                return f"piece {kind} {color}"
            case lib.Outcome(termination, winner):
                return f"outcome {termination.name} {winner}"
        return "other"

    board = lib.Board("7k/5Q2/6K1/8/8/8/8/8 w - - 0 1")
    seen = [describe(lib.Move.from_uci("e7e8q")), describe(lib.Piece.from_symbol("n"))]
    board.push_san("Qg7#")
    seen.append(describe(board.outcome()))
    assert seen == ["move 52 60 5", "piece 2 False", "outcome CHECKMATE True"]
