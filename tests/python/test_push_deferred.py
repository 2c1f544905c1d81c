"""``push`` of a move found legal leaves it pending: the board makes it when anything next
reads or changes the board, and a ``pop`` that comes first only drops it. These tests make
sure no reader sees the position before the move: after a push with nothing read since,
every query of python-chess's Board is asked of both libraries and must agree, and the
Python search loop (push, go deeper, pop, with most leaves unread) is walked on both with
every popped move compared."""

from __future__ import annotations

import pickle
import random
from typing import Any, Callable

import chess
import pytest
from fuzzing import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import kibitz


def positions(seed: int, games: int) -> list[str]:
    """Positions of random games, with castling, en passant and promotions in reach."""
    rng = random.Random(seed)
    out = ["r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"]
    for _ in range(games):
        board = chess.Board()
        for _ in range(rng.randrange(120)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
            out.append(board.fen())
    return out


def plain(value: Any) -> Any:
    """A value both libraries can be compared on: squares sets as ints, moves as UCI,
    containers element by element, objects of either library by their text."""
    if isinstance(value, (kibitz.SquareSet, chess.SquareSet)):
        return int(value)
    if isinstance(value, (kibitz.Move, chess.Move)):
        return value.uci()
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (kibitz.Board, chess.Board)):
        return (value.fen(), [m.uci() for m in value.move_stack])
    if value is None or isinstance(value, (bool, int, str)):
        return value
    return str(value)


# Queries that read the position, each asked of a board right after a push.
READS: dict[str, Callable[[Any], Any]] = {
    "fen": lambda b: b.fen(),
    "fen(en_passant=fen)": lambda b: b.fen(en_passant="fen"),
    "epd": lambda b: b.epd(),
    "board_fen": lambda b: b.board_fen(),
    "shredder_fen": lambda b: b.shredder_fen(),
    "str": lambda b: str(b),
    "unicode": lambda b: b.unicode(),
    "turn": lambda b: b.turn,
    "castling_rights": lambda b: b.castling_rights,
    "ep_square": lambda b: b.ep_square,
    "halfmove_clock": lambda b: b.halfmove_clock,
    "fullmove_number": lambda b: b.fullmove_number,
    "ply": lambda b: b.ply(),
    "occupied": lambda b: b.occupied,
    "occupied_co": lambda b: b.occupied_co,
    "pawns": lambda b: b.pawns,
    "kings": lambda b: b.kings,
    "piece_map": lambda b: {s: p.symbol() for s, p in b.piece_map().items()},
    "piece_at(e4)": lambda b: str(b.piece_at(chess.E4)),
    "king": lambda b: b.king(chess.WHITE),
    "checkers": lambda b: b.checkers(),
    "is_check": lambda b: b.is_check(),
    "is_checkmate": lambda b: b.is_checkmate(),
    "is_stalemate": lambda b: b.is_stalemate(),
    "is_game_over": lambda b: b.is_game_over(),
    "outcome": lambda b: b.outcome(),
    "status": lambda b: int(b.status()),
    "is_valid": lambda b: b.is_valid(),
    "is_repetition": lambda b: b.is_repetition(2),
    "can_claim_draw": lambda b: b.can_claim_draw(),
    "has_legal_en_passant": lambda b: b.has_legal_en_passant(),
    "legal_moves": lambda b: sorted(m.uci() for m in b.legal_moves),
    "legal_moves.count": lambda b: b.legal_moves.count(),
    "pseudo_legal_moves": lambda b: sorted(m.uci() for m in b.pseudo_legal_moves),
    "move_stack": lambda b: b.move_stack,
    "peek": lambda b: b.peek(),
    "root": lambda b: b.root(),
    "copy": lambda b: b.copy(),
    "copy(stack=False)": lambda b: b.copy(stack=False),
    "mirror": lambda b: b.mirror(),
    "pickle": lambda b: pickle.loads(pickle.dumps(b)),
    "equal to its copy": lambda b: b == b.copy(),
    "is_attacked_by": lambda b: b.is_attacked_by(chess.BLACK, chess.E1),
    "attackers(e4)": lambda b: b.attackers(chess.WHITE, chess.E4),
    "is_pinned": lambda b: b.is_pinned(chess.WHITE, chess.E2),
    "san of the first move": lambda b: b.san(min(b.legal_moves, key=lambda m: m.uci())) if any(b.legal_moves) else "",
}


@pytest.mark.parametrize("name", sorted(READS))
def test_every_read_right_after_a_push_sees_the_move_made(name: str) -> None:
    read = READS[name]
    for fen in positions(7, examples(4))[:40]:
        ours, theirs = kibitz.Board(fen), chess.Board(fen)
        moves = list(ours.legal_moves)  # the listing push finds its moves in
        for move in moves[:6]:
            ours.push(move)
            theirs.push(chess.Move.from_uci(move.uci()))
            assert plain(read(ours)) == plain(read(theirs)), (fen, move.uci())
            assert ours.pop().uci() == theirs.pop().uci()
            assert ours.fen() == theirs.fen()


@pytest.mark.parametrize(
    "name,edit",
    [
        ("set_fen", lambda b: b.set_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1")),
        ("set_piece_at", lambda b: b.set_piece_at(chess.D4, chess.Piece(chess.QUEEN, chess.BLACK))),
        ("remove_piece_at", lambda b: b.remove_piece_at(chess.E1)),
        ("clear_stack", lambda b: b.clear_stack()),
        ("reset", lambda b: b.reset()),
        ("apply_mirror", lambda b: b.apply_mirror()),
        ("push_san", lambda b: b.push_san(b.san(min(b.legal_moves, key=lambda m: m.uci())))),
        ("push_uci", lambda b: b.push_uci(min(b.legal_moves, key=lambda m: m.uci()).uci())),
    ],
)
def test_an_edit_right_after_a_push_keeps_the_move(name: str, edit: Callable[[Any], Any]) -> None:
    for fen in positions(11, examples(3))[:25]:
        ours, theirs = kibitz.Board(fen), chess.Board(fen)
        moves = list(ours.legal_moves)
        if not moves:
            continue
        ours.push(moves[0])
        theirs.push(chess.Move.from_uci(moves[0].uci()))
        edit(ours)
        edit(theirs)
        assert ours.fen() == theirs.fen(), (fen, name)
        assert [m.uci() for m in ours.move_stack] == [m.uci() for m in theirs.move_stack]
        assert ours.status() == theirs.status()
        if theirs.is_valid():  # kibitz refuses to list moves of positions it cannot play
            assert sorted(m.uci() for m in ours.legal_moves) == sorted(m.uci() for m in theirs.legal_moves)


def walk(ours: kibitz.Board, theirs: chess.Board, depth: int, rng: random.Random, log: list[str]) -> None:
    """The Python search loop on both boards, a few moves a node. Leaves mostly read
    nothing (push then pop); some read the board, some push one more move from
    python-chess's listing (so kibitz makes the pending move and checks the new one) and
    take both back."""
    if depth == 0:
        roll = rng.random()
        if roll < 0.15:
            assert ours.fen() == theirs.fen()
        elif roll < 0.3:
            replies = list(theirs.legal_moves)
            if replies:
                reply = rng.choice(replies)
                theirs.push(reply)
                ours.push(kibitz.Move.from_uci(reply.uci()))
                log.append(ours.pop().uci())
                assert log[-1] == theirs.pop().uci()
        return
    moves = list(ours.legal_moves)
    assert sorted(m.uci() for m in moves) == sorted(m.uci() for m in theirs.legal_moves)
    for move in rng.sample(moves, min(len(moves), 4)):
        ours.push(move)
        theirs.push(chess.Move.from_uci(move.uci()))
        walk(ours, theirs, depth - 1, rng, log)
        log.append(ours.pop().uci())
        assert log[-1] == theirs.pop().uci()


@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), depth=st.integers(1, 3), copy_first=st.booleans())
def test_search_loop_with_unread_leaves_matches_python_chess(seed: int, depth: int, copy_first: bool) -> None:
    rng = random.Random(seed)
    fen = rng.choice(positions(seed % 5, 3))
    ours, theirs = kibitz.Board(fen), chess.Board(fen)
    original = ours
    if copy_first:  # the walk runs on a copy that shares the position: the original never changes
        ours = ours.copy()
    log: list[str] = []
    walk(ours, theirs, depth, rng, log)
    assert log
    assert ours.fen() == theirs.fen() == fen
    assert original.fen() == fen
    assert not ours.move_stack


def test_pop_of_a_pending_push_returns_the_move_pushed_and_unplays_it() -> None:
    board = kibitz.Board()
    e4 = next(m for m in board.legal_moves if m.uci() == "e2e4")
    board.push(e4)
    assert board.pop() is e4
    assert board.fen() == chess.STARTING_FEN
    with pytest.raises(IndexError):
        board.pop()
