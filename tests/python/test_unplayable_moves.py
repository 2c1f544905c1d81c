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
    if not theirs.move_stack:  # python-chess counts repetitions over its stack; kibitz does not here
        ours_outcome, theirs_outcome = ours.outcome(), theirs.outcome()
        assert (ours_outcome is None) == (theirs_outcome is None), fen
        if ours_outcome is not None and theirs_outcome is not None:
            assert ours_outcome.termination.name == theirs_outcome.termination.name, fen
            assert ours_outcome.winner == theirs_outcome.winner
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
