"""``push`` on a board that has not listed its moves (a fresh board, a replayed line): an
ordinary move is checked without generating the move list, castling, en passant and
promotions go through the general path. Every move python-chess finds legal, and random
illegal ones, are pushed on fresh boards and compared with python-chess."""

from __future__ import annotations

import random

import chess
import pytest
from fuzzing import examples

import kibitz


def positions(seed: int, games: int) -> list[tuple[str, bool]]:
    """Positions of random games (a quarter Chess960), rich in castling, en passant and
    promotions."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        chess960 = rng.random() < 0.25
        board = chess.Board.from_chess960_pos(rng.randrange(960)) if chess960 else chess.Board()
        for _ in range(rng.randrange(200)):
            moves = list(board.legal_moves)
            if not moves:
                break
            special = [m for m in moves if m.promotion or board.is_castling(m) or board.is_en_passant(m)]
            special += [m for m in moves if board.piece_type_at(m.from_square) == chess.PAWN]
            board.push(rng.choice(special if special and rng.random() < 0.6 else moves))
            out.append((board.fen(), chess960))
    return out


@pytest.mark.parametrize("seed", range(3))
def test_every_legal_move_pushed_on_a_fresh_board_gives_python_chess_position(seed: int) -> None:
    rng = random.Random(seed)
    for fen, chess960 in positions(seed, examples(6)):
        ref = chess.Board(fen, chess960=chess960)
        for move in ref.legal_moves:
            kb = kibitz.Board(fen, chess960=chess960)
            kb.push(kibitz.Move.from_uci(move.uci()))
            ref.push(move)
            assert kb.fen(en_passant="fen") == ref.fen(en_passant="fen"), (fen, move.uci())
            assert kb.is_repetition(2) == ref.is_repetition(2)
            ref.pop()
        # Random moves of every shape (promotions to anything, king steps of two): those
        # that are not even pseudo-legal are refused and change nothing.
        for _ in range(40):
            from_square, to_square = rng.randrange(64), rng.randrange(64)
            promotion = rng.choice([None, None, None, 1, 2, 3, 4, 5, 6])
            if from_square == to_square:
                continue
            candidate = chess.Move(from_square, to_square, promotion)
            kb = kibitz.Board(fen, chess960=chess960)
            if ref.is_pseudo_legal(candidate):
                # Legal, or pseudo-legal (the own king left attacked): python-chess plays it.
                kb.push(kibitz.Move(from_square, to_square, promotion))
                ref.push(candidate)
                assert kb.fen() == ref.fen(), (fen, candidate.uci())
                assert kb.pop().uci() == ref.pop().uci() and kb.fen() == ref.fen()
            else:
                with pytest.raises(kibitz.IllegalMoveError):
                    kb.push(kibitz.Move(from_square, to_square, promotion))
                assert kb.fen() == ref.fen() and not kb.move_stack


def test_a_replayed_line_matches_python_chess_move_for_move() -> None:
    """A line pushed move by move on a board that never lists its moves (game replay)."""
    for seed in range(examples(20)):
        rng = random.Random(seed)
        ref = chess.Board()
        kb = kibitz.Board()
        for _ in range(150):
            moves = list(ref.legal_moves)
            if not moves:
                break
            move = rng.choice(moves)
            ref.push(move)
            kb.push(kibitz.Move.from_uci(move.uci()))
            assert kb.fen() == ref.fen()
        assert kb.is_game_over(claim_draw=True) == ref.is_game_over(claim_draw=True)
