"""Board subclasses that override the methods python-chess builds its other methods on (move
generation, check, game ends): the same subclass written against both libraries plays the
same random games, and every answer built on the overrides (the move lists, check, mate,
the outcome, repetitions and draw claims, SAN both ways, UCI, gives_check, variation_san,
the FEN) is compared, errors too."""

from __future__ import annotations

import random
from typing import Any, Callable, Dict, List, Tuple

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kibitz
import kibitz._hooks as hooks
from fuzzing import examples
from hooked_subclasses import VARIANTS


# Knight moves out and back for both sides: repetitions, with and without the counters.
SHUFFLE = {"g1f3", "f3g1", "b1c3", "c3b1", "g8f6", "f6g8", "b8c6", "c6b8"}
PAIRS: Dict[str, Tuple[type, type]] = {name: (make(kibitz), make(chess)) for name, make in VARIANTS.items()}


def answer(f: Callable[[], Any]) -> Any:
    """What a call gives: its value, or its exception's type and message."""
    try:
        return ("ok", f())
    except (ValueError, AssertionError) as e:
        return ("raised", type(e).__name__, str(e))


def outcome_of(board: Any, claim: bool) -> Any:
    found = board.outcome(claim_draw=claim)
    return None if found is None else (found.termination.name, found.winner, found.result())


def observe(board: Any, lib: Any, rng: random.Random) -> List[Any]:
    """Every answer built on the overridable methods, for one position."""
    legal = sorted(m.uci() for m in board.legal_moves)
    seen: List[Any] = [
        legal,
        # In python-chess's order too.
        [m.uci() for m in board.legal_moves],
        [m.uci() for m in board.pseudo_legal_moves],
        bool(board.legal_moves),
        board.legal_moves.count(),
        sorted(m.uci() for m in board.pseudo_legal_moves),
        board.is_check(),
        int(board.checkers()),
        board.is_checkmate(),
        board.is_stalemate(),
        board.is_insufficient_material(),
        board.is_seventyfive_moves(),
        outcome_of(board, False),
        outcome_of(board, True),
        board.is_game_over(),
        board.result(),
        board.is_repetition(2),
        board.is_repetition(3),
        board.is_fivefold_repetition(),
        board.can_claim_threefold_repetition(),
        board.can_claim_fifty_moves(),
        board.can_claim_draw(),
        board.fen(),
        board.epd(),
        board == board.copy(stack=False),
        board == type(board)(board.fen(en_passant="xfen")),
        board == type(board)(),
        int(board.status()),
        board.is_valid(),
    ]
    for uci in rng.sample(legal, min(len(legal), 10)):
        move = lib.Move.from_uci(uci)
        san = board.san(move)
        seen += [
            uci,
            move in board.legal_moves,
            board.is_legal(move),
            san,
            board.lan(move),
            board.gives_check(move),
            answer(lambda: board.parse_san(san).uci()),
            answer(lambda: board.parse_uci(uci).uci()),
        ]
    # Moves the overrides refuse, and text that names nothing.
    for uci in sorted(m.uci() for m in board.pseudo_legal_moves)[:6]:
        move = lib.Move.from_uci(uci)
        seen += [board.is_legal(move), move in board.legal_moves, answer(lambda: board.parse_uci(uci).uci())]
    for text in ("Nf3", "exd5", "Qxf7#", "O-O", "O-O-O", "e8=Q", "Rad1", "Kxe8", "--", "e4e5", "N@f3", "Z0", "xx"):
        seen.append(answer(lambda: board.parse_san(text).uci()))
    line = []
    probe = board.copy()
    for _ in range(3):
        moves = list(probe.legal_moves)
        if not moves:
            break
        line.append(rng.choice(sorted(moves, key=lambda m: m.uci())))
        probe.push(line[-1])
    seen.append(answer(lambda: board.variation_san([lib.Move.from_uci(m.uci()) for m in line])))
    return seen


@pytest.mark.parametrize("name", sorted(VARIANTS))
@settings(max_examples=examples(5), deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_subclass_s_overrides_reach_what_python_chess_builds_on_them(name: str, seed: int) -> None:
    ours_class, theirs_class = PAIRS[name]
    ours, theirs = ours_class(), theirs_class()
    rng_ours, rng_theirs = random.Random(seed), random.Random(seed)
    for ply in range(50):
        assert ours.fen() == theirs.fen(), ply
        assert observe(ours, kibitz, rng_ours) == observe(theirs, chess, rng_theirs), (name, ply, theirs.fen())
        moves = sorted(m.uci() for m in theirs.legal_moves)
        if not moves or theirs.is_game_over():
            break
        # Knights going back and forth half the time: positions repeat.
        shuffles = [m for m in moves if m in SHUFFLE]
        knights = rng_ours.random() < 0.5
        rng_theirs.random()
        pool = shuffles if shuffles and knights else moves
        uci = rng_ours.choice(pool)
        rng_theirs.choice(pool)
        if ply % 3 == 0:
            san = theirs.san(chess.Move.from_uci(uci))
            assert ours.push_san(san).uci() == theirs.push_san(san).uci()
        elif ply % 3 == 1:
            assert ours.push_uci(uci).uci() == theirs.push_uci(uci).uci()
        else:
            ours.push(kibitz.Move.from_uci(uci))
            theirs.push(chess.Move.from_uci(uci))


def test_a_king_is_taken_and_the_game_ends_as_the_subclass_says() -> None:
    ours, theirs = PAIRS["king_capture"][0](), PAIRS["king_capture"][1]()
    for san in ("e4", "f5", "Qh5", "g6", "Qxg6", "Nf6", "Qxe8"):
        assert ours.push_san(san).uci() == theirs.push_san(san).uci()
    assert ours.fen() == theirs.fen()
    assert outcome_of(ours, False) == outcome_of(theirs, False) == ("VARIANT_LOSS", True, "1-0")
    assert list(ours.legal_moves) == [] and ours.is_game_over() and ours.result() == "1-0"


def test_only_the_methods_built_on_an_override_are_replaced() -> None:
    # A subclass overriding nothing keeps kibitz's native methods (their speed too).
    class Plain(kibitz.Board):
        def note(self) -> str:
            return "mine"

    assert Plain.is_checkmate is kibitz.Board.is_checkmate
    assert Plain.__dict__.get("legal_moves") is None
    # One overriding generate_legal_moves gets python-chess's is_checkmate, not its
    # is_check; one overriding checkers_mask gets python-chess's is_check and what is built
    # on it, not the move lists, which do not depend on it.
    no_captures = PAIRS["no_captures"][0]
    assert no_captures.is_checkmate is hooks.is_checkmate
    assert no_captures.__dict__["legal_moves"] is hooks.legal_moves
    assert no_captures.is_check is kibitz.Board.is_check

    class OwnCheck(kibitz.Board):
        def checkers_mask(self) -> int:
            return 0

        def is_checkmate(self) -> bool:
            return True

    assert OwnCheck.is_check is hooks.is_check and OwnCheck.outcome is hooks.outcome
    assert "is_checkmate" in OwnCheck.__dict__ and not getattr(OwnCheck.is_checkmate, "_kibitz_faithful", False)
    assert "legal_moves" not in OwnCheck.__dict__ and OwnCheck.generate_legal_moves is kibitz.Board.generate_legal_moves

    # A subclass of a subclass inherits the replacements and adds its own.
    class Deeper(OwnCheck):
        def is_variant_end(self) -> bool:
            return False

    assert Deeper.legal_moves is hooks.legal_moves and Deeper.is_check is hooks.is_check
    assert Deeper().is_checkmate() and not Deeper().is_check()


def test_the_call_graph_names_python_chess_s_methods() -> None:
    for name, calls in hooks.DEPENDS.items():
        assert hasattr(chess.Board, name), name
        for call in calls:
            assert hasattr(chess.Board, call), (name, call)
