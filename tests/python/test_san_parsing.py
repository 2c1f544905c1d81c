"""SAN parsing as python-chess reads it: a pawn move without a file is never a capture,
long algebraic (Ng1-f3, e2-e4) and fully specified coordinates are moves, a promotion to a
king is illegal rather than malformed; compared with python-chess move for move and
exception for exception."""

from __future__ import annotations

import chess
import pytest

import kibitz

CAPTURE = "4k3/8/8/2p5/3P4/8/8/4K3 b - - 0 1"
PROMOTE = "6k1/3P4/8/8/8/8/8/4K3 w - - 0 1"


@pytest.mark.parametrize(
    "fen,san",
    [
        (CAPTURE, "d4"), (CAPTURE, "cxd4"), (CAPTURE, "c5d4"), (CAPTURE, "c4"),
        (None, "Ng1-f3"), (None, "e2-e4"), (None, "g1f3"), (None, "e2e4"), (None, "Nf3"), (None, "e4+"),
        (None, "Kg1"), (None, "Nb1-d2"), (PROMOTE, "d8=K"), (PROMOTE, "d7d8"), (PROMOTE, "d8=Q"), (PROMOTE, "d8Q"),
        (PROMOTE, "d8=N"), (PROMOTE, "dxc8=Q"),
    ],
)  # fmt: skip
def test_parse_san_answers_as_python_chess(fen: str | None, san: str) -> None:
    def answer(lib):  # type: ignore[no-untyped-def]
        board = lib.Board(fen) if fen else lib.Board()
        try:
            return board.parse_san(san).uci()
        except ValueError as e:
            return type(e).__name__

    assert answer(kibitz) == answer(chess)


def test_castling_in_san_picks_the_side_the_text_names_in_every_chess960_start() -> None:
    """O-O and O-O-O in each of the 960 starting positions with only kings and rooks left
    on the back ranks: the king may already stand on its castled square (g1 for O-O, c1 for
    O-O-O), where the move's direction cannot tell the sides apart."""
    checked = 0
    for n in range(960):
        cb = chess.Board.from_chess960_pos(n)
        for sq in list(chess.SquareSet(chess.BB_BACKRANKS)):
            if cb.piece_type_at(sq) not in (chess.KING, chess.ROOK):
                cb.remove_piece_at(sq)
        fen = cb.fen()
        kb = kibitz.Board(fen, chess960=True)
        for san in ("O-O", "O-O-O", "0-0", "0-0-0"):
            try:
                expected = cb.parse_san(san).uci()
            except chess.IllegalMoveError:  # a rook in the way of the other
                with pytest.raises(kibitz.IllegalMoveError):
                    kb.parse_san(san)
                continue
            assert kb.parse_san(san).uci() == expected, (fen, san)
            checked += 1
    assert checked > 960 * 3
