"""Bad moves, empty history, and the exception hierarchy; game-ending positions."""

from __future__ import annotations

import chess
import pytest

import kibitz
import reference
from perft_data import KIWIPETE_FEN, STARTING_FEN


def snapshot(board: kibitz.Board) -> tuple[str, int, list[str]]:
    """Everything a failed push must leave alone."""
    return board.fen(), board.polyglot_key(), sorted(board.legal_moves_uci())


def history_length(board: kibitz.Board) -> int:
    """Count the moves on the board's history by popping a copy empty."""
    twin, n = board.copy(), 0
    while True:
        try:
            twin.pop()
        except IndexError:
            return n
        n += 1


def assert_push_fails(board: kibitz.Board, move: str, error: type[Exception]) -> None:
    """push_uci(move) raises ``error`` and changes nothing, history included."""
    before, plies = snapshot(board), history_length(board)
    with pytest.raises(error):
        board.push_uci(move)
    assert snapshot(board) == before
    assert history_length(board) == plies


def test_error_classes_subclass_value_error() -> None:
    """All three error classes are ValueErrors, distinct from each other."""
    errors = (kibitz.FenError, kibitz.IllegalMoveError, kibitz.InvalidMoveError)
    for error in errors:
        assert issubclass(error, ValueError)
    assert len(set(errors)) == 3
    assert not issubclass(kibitz.IllegalMoveError, kibitz.InvalidMoveError)
    assert not issubclass(kibitz.InvalidMoveError, kibitz.IllegalMoveError)


# --- malformed and illegal UCI strings -----------------------------------------------

MALFORMED = [
    "",
    "e2",
    "xx",
    "e2e9",  # no rank 9
    "i2i4",  # no file i
    "e0e1",
    "E2E4",  # UCI squares are lower case
    "e2-e4",
    "e2e4qq",
    "a1a1",  # same from- and to-square (python-chess: use 0000 for null moves)
]

# A promotion letter other than q, r, b, n is malformed too: it names no piece a pawn
# may become in standard chess. (python-chess parses "k" for its antichess variant and
# then calls the move illegal; kibitz has no variants.)
BAD_PROMOTION = [
    (STARTING_FEN, "e7e8k"),
    (STARTING_FEN, "e2e4e"),
    ("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8k"),
    ("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8p"),
    ("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8Q"),
]


@pytest.mark.parametrize("move", MALFORMED)
def test_malformed_uci_raises_invalid_move_error(move: str) -> None:
    """Strings that are not UCI moves raise InvalidMoveError, board untouched."""
    with pytest.raises(chess.InvalidMoveError):
        chess.Move.from_uci(move)  # the reference agrees these are malformed
    board = kibitz.Board()
    board.push_uci("d2d4")
    assert_push_fails(board, move, kibitz.InvalidMoveError)


@pytest.mark.parametrize(("fen", "move"), BAD_PROMOTION)
def test_bad_promotion_letter_raises_what_python_chess_raises(fen: str, move: str) -> None:
    """A promotion suffix that is no piece letter is an InvalidMoveError; a promotion to a
    king or a pawn is a well-formed move (python-chess's Move holds one) that is never
    legal: IllegalMoveError. The board is untouched either way."""
    with pytest.raises(ValueError) as theirs:
        chess.Board(fen).push_uci(move)
    want = kibitz.IllegalMoveError if theirs.type is chess.IllegalMoveError else kibitz.InvalidMoveError
    assert theirs.type in (chess.IllegalMoveError, chess.InvalidMoveError)
    assert_push_fails(kibitz.Board(fen), move, want)


ILLEGAL = [
    (STARTING_FEN, "e2e5", "pawn moving three squares"),
    (STARTING_FEN, "e2e4q", "promotion suffix on a non-promoting move"),
    (STARTING_FEN, "e1e2", "onto an own piece"),
    (STARTING_FEN, "e7e5", "wrong side to move"),
    (STARTING_FEN, "a3a4", "empty from-square"),
    (STARTING_FEN, "g1g3", "knight moving like a rook"),
    (STARTING_FEN, "e1g1", "castling through own pieces"),
    ("4k3/4r3/8/8/8/8/8/4K3 w - - 0 1", "e1e2", "king staying in check on the file"),
    ("4k3/8/8/8/8/8/8/4K2r w - - 0 1", "e1d1", "king retreating along the checking ray"),
    ("4k3/8/8/8/8/8/8/4K2r w - - 0 1", "e1f1", "king stepping towards the checking rook"),
    ("4k3/8/8/8/8/2n5/8/4K3 w - - 0 1", "e1e2", "king moving into a knight's reach"),
    ("4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1", "e2d3", "moving a pinned bishop"),
    ("4k3/8/8/8/8/8/6r1/R3K2R w KQ - 0 1", "e1g1", "castling into check"),
    ("4k3/8/8/8/8/5r2/8/R3K2R w KQ - 0 1", "e1g1", "castling through check on f1"),
    ("4k3/8/8/8/8/3r4/8/R3K2R w KQ - 0 1", "e1c1", "castling through check on d1"),
    ("4k3/8/8/8/8/4r3/8/R3K2R w KQ - 0 1", "e1g1", "castling out of check"),
    ("4k3/8/8/8/8/4r3/8/R3K2R w KQ - 0 1", "e1c1", "castling out of check, queenside"),
    ("r3k2r/8/8/8/8/8/8/3RK3 b kq - 0 1", "e8c8", "black castling through check on d8"),
    ("r3k2r/8/8/8/8/8/8/4K1R1 b kq - 0 1", "e8g8", "black castling into check on g8"),
    ("r3k2r/8/8/8/8/8/8/2R1K3 b kq - 0 1", "e8c8", "black castling into check on c8"),
    ("4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1", "e1c1", "queenside path blocked on b1"),
    ("4k3/8/8/8/8/8/8/R3K2R w Q - 0 1", "e1g1", "no kingside right"),
    ("r3k2r/8/8/8/8/8/8/4K3 b k - 0 1", "e8c8", "no queenside right"),
    ("1b1k4/8/8/1rPpK3/8/8/8/8 w - d6 0 1", "c5d6", "en passant exposing the king on the rank"),
    ("8/8/8/8/k2Pp2Q/8/8/4K3 b - d3 0 1", "e4d3", "en passant exposing the king (black)"),
    ("4k3/8/8/2Pp4/8/8/8/4K3 w - - 0 1", "c5d6", "en passant without the right"),
    ("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8", "promotion without a piece"),
    ("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", "e2e4", "after mate"),
    (KIWIPETE_FEN, "e5f7q", "knight move with a promotion suffix"),
]


@pytest.mark.parametrize(
    ("fen", "move", "why"),
    ILLEGAL,
    ids=[f"{move}-{why.replace(' ', '-')}" for _, move, why in ILLEGAL],
)
def test_illegal_move_raises_illegal_move_error(fen: str, move: str, why: str) -> None:
    """Well-formed but illegal moves raise IllegalMoveError and leave the board as it was."""
    assert move not in reference.legal_uci(chess.Board(fen)), why  # the reference agrees
    assert_push_fails(kibitz.Board(fen), move, kibitz.IllegalMoveError)


def test_castling_with_attacked_rook_square_is_legal() -> None:
    """Control case: an attacked b8 (which the king does not cross) allows e8c8."""
    fen = "r3k2r/8/8/8/8/8/8/1R2K3 b kq - 0 1"
    assert "e8c8" in reference.legal_uci(chess.Board(fen))
    board = kibitz.Board(fen)
    assert "e8c8" in board.legal_moves_uci()
    board.push_uci("e8c8")
    expected = chess.Board(fen)
    expected.push_uci("e8c8")
    assert board.fen() == expected.fen()


def test_failed_push_keeps_history() -> None:
    """After a rejected move the earlier moves still pop back in order."""
    board = kibitz.Board()
    for move in ["e2e4", "e7e5", "g1f3"]:
        board.push_uci(move)
    for bad in ["e1e3", "", "e5e4"]:
        with pytest.raises(ValueError):
            board.push_uci(bad)
    assert [board.pop().uci() for _ in range(3)] == ["g1f3", "e7e5", "e2e4"]
    assert board.fen() == STARTING_FEN


def test_legal_moves_are_accepted() -> None:
    """Every move legal_moves() lists is accepted by push_uci (Kiwipete, all move kinds)."""
    board = kibitz.Board(KIWIPETE_FEN)
    for move in board.legal_moves_uci():
        board.push_uci(move)
        assert board.pop().uci() == move
    assert board.fen() == KIWIPETE_FEN


# --- pop -----------------------------------------------------------------------------


@pytest.mark.parametrize("fen", [kibitz.STARTING_FEN, KIWIPETE_FEN])
def test_pop_on_empty_history_raises_index_error(fen: str | None) -> None:
    """pop() with no moves played raises IndexError and leaves the board alone."""
    board = kibitz.Board(fen)
    before = snapshot(board)
    with pytest.raises(IndexError):
        board.pop()
    assert snapshot(board) == before


def test_pop_past_the_start_raises_index_error() -> None:
    """Popping one more time than pushed raises IndexError."""
    board = kibitz.Board()
    board.push_uci("e2e4")
    assert board.pop().uci() == "e2e4"
    with pytest.raises(IndexError):
        board.pop()
    assert board.fen() == STARTING_FEN


# --- game-ending positions -----------------------------------------------------------

ENDINGS = [
    # (fen, checkmate, stalemate)
    ("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", True, False),  # fool's mate
    ("r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4", True, False),  # scholar's
    ("6rk/5Npp/8/8/8/8/8/6K1 b - - 0 1", True, False),  # smothered mate
    ("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", True, False),  # back-rank mate
    ("k7/8/1Q6/8/8/8/8/7K b - - 0 1", False, True),  # queen stalemate
    ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", False, True),
    ("k7/P7/K7/8/8/8/8/8 b - - 0 1", False, True),  # king boxed in by pawn and king
    # Sam Loyd's ten-move stalemate.
    ("5bnr/4p1pq/4Qpkr/7p/7P/4P3/PPPP1PP1/RNB1KBNR b KQ - 2 10", False, True),
    ("8/8/8/8/8/5k2/8/5K2 w - - 0 1", False, False),  # bare kings: not ended
    ("4k3/8/8/8/8/8/4q3/4K3 w - - 0 1", False, False),  # check, but Kxe2
    ("8/8/8/8/8/2k5/1q6/K7 w - - 0 1", True, False),  # Kxb2 illegal: the queen is defended
    ("8/8/8/8/8/8/1q6/K1k5 w - - 0 1", True, False),  # Kxb2 illegal: the queen is defended
]


@pytest.mark.parametrize(("fen", "mate", "stalemate"), ENDINGS)
def test_checkmate_and_stalemate(fen: str, mate: bool, stalemate: bool) -> None:
    """is_checkmate/is_stalemate/is_check agree with python-chess and the known answer."""
    board, ref = kibitz.Board(fen), chess.Board(fen)
    assert (ref.is_checkmate(), ref.is_stalemate()) == (mate, stalemate)  # sanity of the table
    assert board.is_checkmate() == mate
    assert board.is_stalemate() == stalemate
    assert board.is_check() == ref.is_check()
    assert (board.legal_moves_uci() == []) == (mate or stalemate)
    assert board.perft(1) == len(board.legal_moves_uci())


def test_mate_reached_by_moves() -> None:
    """Playing fool's mate ends the game; popping the last move reopens it."""
    board = kibitz.Board()
    for move in ["f2f3", "e7e5", "g2g4", "d8h4"]:
        assert not board.is_checkmate()
        board.push_uci(move)
    assert board.is_check() and board.is_checkmate() and not board.is_stalemate()
    assert board.legal_moves_uci() == []
    assert_push_fails(board, "e2e4", kibitz.IllegalMoveError)
    assert board.pop().uci() == "d8h4"
    assert not board.is_check() and not board.is_checkmate()
    expected = chess.Board()
    for move in ["f2f3", "e7e5", "g2g4"]:
        expected.push_uci(move)
    assert set(board.legal_moves_uci()) == reference.legal_uci(expected)
