"""kibitz.BaseBoard against python-chess's chess.BaseBoard: random edits applied to both,
every query compared after each; Board counts as a BaseBoard for isinstance/issubclass."""

from __future__ import annotations

from typing import Any

import chess
from hypothesis import given, settings
from hypothesis import strategies as st

import kibitz
from fuzzing import examples

SQUARE = st.integers(0, 63)
PIECE = st.tuples(st.integers(1, 6), st.booleans())
EDIT = st.one_of(
    st.tuples(st.just("set"), SQUARE, PIECE),
    st.tuples(st.just("remove"), SQUARE),
    st.tuples(st.just("clear")),
    st.tuples(st.just("reset")),
    st.tuples(st.just("chess960"), st.integers(0, 959)),
    st.tuples(st.just("mirror")),
    st.tuples(st.just("flip")),
)


def apply(lib: Any, board: Any, edit: tuple[Any, ...]) -> Any:
    kind = edit[0]
    if kind == "set":
        board.set_piece_at(edit[1], lib.Piece(*edit[2]))
    elif kind == "remove":
        board.remove_piece_at(edit[1])
    elif kind == "clear":
        board.clear_board()
    elif kind == "reset":
        board.reset_board()
    elif kind == "chess960":
        board.set_chess960_pos(edit[1])
    elif kind == "mirror":
        board.apply_mirror()
    else:
        board.apply_transform(lib.flip_horizontal)
    return board


def observe(lib: Any, board: Any) -> tuple[Any, ...]:
    return (
        board.board_fen(),
        str(board),
        repr(board),
        sorted((s, p.symbol()) for s, p in board.piece_map().items()),
        board.king(True),
        board.king(False),
        board.chess960_pos(),
        [int(board.attackers(c, s)) for c in (True, False) for s in (0, 27, 36, 63)],
        [int(board.pin(c, s)) for c in (True, False) for s in (12, 52)],
        int(board.occupied),
        board.mirror().board_fen(),
        board.transform(lib.flip_vertical).board_fen(),
        board == lib.BaseBoard(board.board_fen()),
        board.copy().board_fen(),
    )


@settings(max_examples=examples(80), deadline=None)
@given(
    st.one_of(st.none(), st.just(chess.STARTING_BOARD_FEN), st.just("8/8/8/4k3/8/8/8/4K3")), st.lists(EDIT, max_size=8)
)
def test_baseboard_agrees_with_python_chess(start: Any, edits: list[tuple[Any, ...]]) -> None:
    ours, theirs = kibitz.BaseBoard(start), chess.BaseBoard(start)
    assert observe(kibitz, ours) == observe(chess, theirs)
    for edit in edits:
        apply(kibitz, ours, edit)
        apply(chess, theirs, edit)
        assert observe(kibitz, ours) == observe(chess, theirs), edit


def test_board_is_a_baseboard() -> None:
    assert isinstance(kibitz.Board(), kibitz.BaseBoard) and issubclass(kibitz.Board, kibitz.BaseBoard)
    assert not isinstance(kibitz.BaseBoard(), kibitz.Board)
    assert kibitz.BaseBoard() == kibitz.Board() and kibitz.BaseBoard.empty().board_fen() == "8/8/8/8/8/8/8/8"
    assert kibitz.BaseBoard.from_chess960_pos(518) == kibitz.BaseBoard()
