"""Moves of positions kibitz's engine cannot play (no king or several, pawns on a back rank,
more than sixteen pieces, the side not to move in check), against python-chess answer by
answer: the legal and pseudo-legal lists in python-chess's order, the masked generators,
every move test, check, mate and stalemate, the game's outcome, SAN and LAN of each legal
move and SAN read back, UCI, and play on with push and pop.

The positions are random placements python-chess accepts, most of them not valid, with
random castling rights and en-passant squares; each also after a few moves played on both
boards."""

from __future__ import annotations

import random
from typing import Any, List

import chess
import pytest

import kibitz

KINDS = [chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN, chess.KING]


def random_position(rng: random.Random) -> str:
    """A FEN python-chess reads: any placement, rights and en-passant square; now and then a
    playable placement with an en-passant square no pawn can have crossed."""
    if rng.random() < 0.15:
        while True:
            board = chess.Board.empty()
            board.set_piece_at(rng.randrange(64), chess.Piece(chess.KING, chess.WHITE))
            board.set_piece_at(rng.randrange(64), chess.Piece(chess.KING, chess.BLACK))
            for _ in range(rng.randrange(0, 8)):
                board.set_piece_at(rng.randrange(8, 56), chess.Piece(rng.choice(KINDS[:5]), rng.random() < 0.5))
            board.turn = rng.random() < 0.5
            board.ep_square = rng.randrange(16, 24) if board.turn == chess.BLACK else rng.randrange(40, 48)
            if board.is_valid() or board.status() == chess.STATUS_INVALID_EP_SQUARE:
                return board.fen(en_passant="fen")
    board = chess.Board.empty()
    for color in (chess.WHITE, chess.BLACK):
        for _ in range(rng.choice([0, 1, 1, 1, 1, 2, 3])):
            board.set_piece_at(rng.randrange(64), chess.Piece(chess.KING, color))
        for _ in range(rng.randrange(0, 12)):
            board.set_piece_at(rng.randrange(64), chess.Piece(rng.choice(KINDS[:5]), color))
    board.turn = rng.random() < 0.5
    rights = 0
    for sq in (chess.A1, chess.H1, chess.A8, chess.H8, rng.randrange(64)):
        if rng.random() < 0.4:
            rights |= chess.BB_SQUARES[sq]
    board.castling_rights = rights
    if rng.random() < 0.3:
        board.ep_square = rng.choice([rng.randrange(16, 24), rng.randrange(40, 48), rng.randrange(64)])
    return board.fen(en_passant="fen")


def uci(moves: Any) -> List[str]:
    return [m.uci() for m in moves]


def outcome_of(board: Any, claim_draw: bool) -> Any:
    o = board.outcome(claim_draw=claim_draw)
    return None if o is None else (o.termination.name, o.winner)


def compare_draw_rules(ours: Any, theirs: chess.Board) -> None:
    """The game's end and the draw rules, repetitions counted over the whole move stack.

    python-chess is asked on copies: to count repetitions it pops its stack and pushes the
    moves back, and where an attribute assignment (`turn = ...`) sits between two moves the
    pushes replay them without it, so the copy ends as another board. Its `is_repetition`
    answers before that and is always compared; an answer that goes on reading the board
    (the claim of a threefold repetition with the next move, and what uses it) is compared
    where python-chess's copy came back as it was."""
    where = (theirs.fen(), [m.uci() for m in theirs.move_stack])

    def asked(f: Any) -> tuple[Any, bool]:
        copy = theirs.copy()
        answer = f(copy)
        return answer, copy.fen() == theirs.fen() and copy.move_stack == theirs.move_stack

    for count in (1, 2, 3, 4, 5):
        assert ours.is_repetition(count) == asked(lambda b: b.is_repetition(count))[0], (count, where)
    checks: dict[str, Any] = {
        "outcome": (lambda b: outcome_of(b, False)),
        "outcome(claim_draw=True)": (lambda b: outcome_of(b, True)),
        "is_game_over(claim_draw=True)": (lambda b: b.is_game_over(claim_draw=True)),
    }
    for name in (
        "is_fivefold_repetition",
        "can_claim_threefold_repetition",
        "is_seventyfive_moves",
        "is_fifty_moves",
        "can_claim_fifty_moves",
        "can_claim_draw",
    ):
        checks[name] = lambda b, name=name: getattr(b, name)()
    for name, f in checks.items():
        answer, reliable = asked(f)
        if reliable:
            assert f(ours) == answer, (name, where)
    assert ours.fen() == theirs.fen(), where


def compare(ours: kibitz.Board, theirs: chess.Board, rng: random.Random) -> None:
    fen = theirs.fen()
    assert ours.fen() == fen
    assert uci(ours.legal_moves) == uci(theirs.legal_moves), fen
    assert uci(ours.pseudo_legal_moves) == uci(theirs.pseudo_legal_moves), fen
    assert ours.legal_moves.count() == theirs.legal_moves.count()
    assert bool(ours.legal_moves) == bool(theirs.legal_moves)
    assert ours.is_check() == theirs.is_check(), fen
    assert ours.is_checkmate() == theirs.is_checkmate(), fen
    assert ours.is_stalemate() == theirs.is_stalemate(), fen
    assert ours.was_into_check() == theirs.was_into_check(), fen
    compare_draw_rules(ours, theirs)
    for _ in range(4):
        from_mask, to_mask = rng.getrandbits(64), rng.getrandbits(64)
        for name in ("generate_legal_moves", "generate_pseudo_legal_moves", "generate_legal_captures"):
            a = uci(getattr(ours, name)(from_mask, to_mask))
            b = uci(getattr(theirs, name)(from_mask, to_mask))
            assert a == b, (name, fen)
    for name in ("generate_castling_moves", "generate_legal_ep", "generate_pseudo_legal_ep"):
        assert uci(getattr(ours, name)()) == uci(getattr(theirs, name)()), (name, fen)
    # Every move test on the listed moves and on random ones.
    candidates = list(theirs.pseudo_legal_moves) + [
        chess.Move(rng.randrange(64), rng.randrange(64), rng.choice([None, None, None, chess.QUEEN, chess.KNIGHT]))
        for _ in range(30)
    ]
    candidates = [m for m in candidates if m.from_square != m.to_square]
    for m in candidates:
        km = kibitz.Move.from_uci(m.uci())
        assert ours.is_pseudo_legal(km) == theirs.is_pseudo_legal(m), (m.uci(), fen)
        assert ours.is_legal(km) == theirs.is_legal(m), (m.uci(), fen)
        assert (km in ours.legal_moves) == (m in theirs.legal_moves), (m.uci(), fen)
    for m in theirs.legal_moves:
        km = kibitz.Move.from_uci(m.uci())
        san = theirs.san(m)
        assert ours.san(km) == san, (m.uci(), fen)
        assert ours.lan(km) == theirs.lan(m), (m.uci(), fen)
        assert ours.parse_san(san) == km, (san, fen)
        assert ours.parse_uci(m.uci()) == km, (m.uci(), fen)


def shuffle_move(board: chess.Board, rng: random.Random) -> Any:
    """A legal move, often one that takes the side's last move back (the way repetitions
    come about); None when there is none."""
    moves = list(board.legal_moves)
    if not moves:
        return None
    if len(board.move_stack) >= 2 and rng.random() < 0.7:
        last = board.move_stack[-2]
        back = chess.Move(last.to_square, last.from_square)
        if back in moves:
            return back
    return rng.choice(moves)


def play_back_and_forth(
    ours: Any, theirs: chess.Board, rng: random.Random, plies: int, flip_chance: float, valid_only: bool
) -> None:
    """Shuffle moves on both boards (comparing the draw rules before each), now and then
    flipping the side to move instead: an assignment in the middle of the stack, python-chess's
    plain attribute. With ``valid_only`` a flip is made only out of check and undone when
    it leaves an invalid position."""
    for _ply in range(plies):
        compare_draw_rules(ours, theirs)
        if rng.random() < flip_chance and not (valid_only and theirs.is_check()):
            theirs.turn = not theirs.turn
            ours.turn = not ours.turn
            if valid_only and not theirs.is_valid():
                theirs.turn = not theirs.turn
                ours.turn = not ours.turn
            continue
        m = shuffle_move(theirs, rng)
        if m is None:
            break
        theirs.push(m)
        ours.push(kibitz.Move.from_uci(m.uci()))


@pytest.mark.parametrize("seed", range(12))
def test_draw_rules_count_the_whole_stack(seed: int) -> None:
    """Positions kibitz cannot play, and playable ones whose stack runs through attribute
    assignments, played back and forth into repetitions, with clocks near the fifty- and
    seventy-five-move marks: the draw rules and the outcome as python-chess gives them."""
    rng = random.Random(1000 + seed)
    for _ in range(12):
        theirs = chess.Board(random_position(rng), chess960=rng.random() < 0.1)
        theirs.halfmove_clock = rng.choice([0, 5, 97, 98, 99, 100, 147, 148, 149, 150])
        ours = kibitz.Board(theirs.fen(en_passant="fen"), chess960=theirs.chess960)
        assert ours.fen() == theirs.fen()
        play_back_and_forth(ours, theirs, rng, 24, 0.08, valid_only=False)


@pytest.mark.parametrize("seed", range(6))
def test_playable_games_with_assignments_count_as_python_chess(seed: int) -> None:
    """Ordinary games shuffled into repetitions, with the side to move flipped now and then
    (a stack that runs through assignments): repetitions counted as python-chess counts them."""
    rng = random.Random(2000 + seed)
    play_back_and_forth(kibitz.Board(), chess.Board(), rng, 60, 0.05, valid_only=True)


@pytest.mark.parametrize("seed", range(12))
def test_unplayable_positions_move_as_python_chess(seed: int) -> None:
    rng = random.Random(seed)
    checked = 0
    for _ in range(25):
        fen = random_position(rng)
        chess960 = rng.random() < 0.2
        theirs = chess.Board(fen, chess960=chess960)
        ours = kibitz.Board(fen, chess960=chess960)
        for _ply in range(6):
            compare(ours, theirs, rng)
            checked += 1
            moves = list(theirs.legal_moves)
            if not moves:
                break
            m = rng.choice(moves)
            theirs.push(m)
            ours.push(kibitz.Move.from_uci(m.uci()))
        while theirs.move_stack:
            assert ours.pop() == kibitz.Move.from_uci(theirs.pop().uci())
        assert ours.fen() == theirs.fen()
    assert checked > 25


def test_one_king() -> None:
    """python-chess's own test: an empty board with one king moves, passes and moves again."""
    board = kibitz.Board.empty()
    board.set_piece_at(kibitz.A1, kibitz.Piece(kibitz.KING, kibitz.WHITE))
    assert not board.is_valid()
    assert board.legal_moves.count() == 3 and board.pseudo_legal_moves.count() == 3
    board.push_san("Kb1")
    assert board.legal_moves.count() == 0 and board.pseudo_legal_moves.count() == 0
    board.push_san("--")
    assert board.legal_moves.count() == 5 and board.pseudo_legal_moves.count() == 5


def test_the_engine_and_perft_still_refuse() -> None:
    board = kibitz.Board("8/8/8/8/8/8/8/K7 w - - 0 1")
    with pytest.raises(kibitz.InvalidPositionError):
        board.perft(1)
    with pytest.raises(kibitz.InvalidPositionError):
        kibitz.Engine(hash_mb=1).search(board, depth=1)
