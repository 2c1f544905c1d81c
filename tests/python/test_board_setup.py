"""Board set-up and editing compared with python-chess: any placement (no king, several
kings, pawns on a back rank...), lenient FENs, the editing methods, ``status()``.

Every check compares kibitz's answer with python-chess's on the same input, after every
step of random edit sequences."""

from __future__ import annotations

from typing import Any, Callable, Optional

import chess
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import kibitz
from fuzzing import examples

# ---------------------------------------------------------------- helpers


def outcome(f: Callable[[], Any]) -> tuple[str, Any]:
    """("ok", value) or ("error", the python-chess exception family)."""
    try:
        return "ok", f()
    except IndexError:
        return "error", IndexError
    except ValueError:
        return "error", ValueError


def observe(board: Any) -> dict[str, Any]:
    """What both boards must agree on after every step."""
    return {
        "fen": board.fen(),
        "epd": board.epd(),
        "shredder": board.shredder_fen(),
        "fen_ep": board.fen(en_passant="fen"),
        "xfen": board.fen(en_passant="xfen"),
        "board_fen": board.board_fen(),
        "pieces": {sq: p.symbol() for sq, p in board.piece_map().items()},
        "status": int(board.status()),
        "valid": board.is_valid(),
        "str": str(board),
        "turn": board.turn,
        "castling": int(board.castling_rights),
        "clean": int(board.clean_castling_rights()),
        "ep": board.ep_square,
        "check": board.is_check(),
        "checkers": int(board.checkers_mask()),
        "kings": (board.king(chess.WHITE), board.king(chess.BLACK)),
        "clocks": (board.halfmove_clock, board.fullmove_number),
        "chess960_rights": board.has_chess960_castling_rights(),
        "castling_flags": [board.has_castling_rights(c) for c in (True, False)],
        "pseudo_ep": sorted(m.uci() for m in board.generate_pseudo_legal_ep()),
        "insufficient": board.is_insufficient_material(),
        "chess960_pos": board.chess960_pos(),
        "mirror": board.mirror().fen(en_passant="fen"),
        "mirror_status": int(board.mirror().status()),
    }


def same(kb: Any, cb: chess.Board) -> None:
    assert observe(kb) == observe(cb), cb.fen(en_passant="fen")
    # Where kibitz can play the position, it plays what python-chess plays.
    if kb._unplayable is None and cb.is_valid():
        assert sorted(m.uci() for m in kb.legal_moves) == sorted(m.uci() for m in cb.legal_moves)


# ---------------------------------------------------------------- strategies

PIECES = [chess.Piece(t, c) for t in chess.PIECE_TYPES for c in chess.COLORS]
squares = st.integers(0, 63)
pieces = st.sampled_from(PIECES)
castling_fields = st.sampled_from(
    ["-", "K", "Q", "k", "q", "KQkq", "KQ", "kq", "Kk", "Qq", "AH", "ah", "Bb", "HAha", "KK", "x", "KQkqK"]
)
ep_fields = st.sampled_from(["-", "e3", "e6", "d6", "a3", "h6", "c4", "a1", "z9"])


@st.composite
def board_fens(draw: Any) -> str:
    """Board parts: mostly sparse placements, with kings sometimes missing or doubled."""
    placement = draw(st.dictionaries(squares, pieces, max_size=12))
    board = chess.BaseBoard.empty()
    for sq, p in placement.items():
        board.set_piece_at(sq, p)
    if draw(st.booleans()):
        board.set_piece_at(draw(st.sampled_from([4, 0, 7, 3])), chess.Piece(chess.KING, chess.WHITE))
    if draw(st.booleans()):
        board.set_piece_at(draw(st.sampled_from([60, 56, 63, 59])), chess.Piece(chess.KING, chess.BLACK))
    return board.board_fen()


@st.composite
def fens(draw: Any) -> str:
    """FENs python-chess accepts (any placement, lenient fields) and some it refuses."""
    parts = [
        draw(board_fens()),
        draw(st.sampled_from(["w", "b", "x"])),
        draw(castling_fields),
        draw(ep_fields),
        draw(st.sampled_from(["0", "5", "-1", "x"])),
        draw(st.sampled_from(["1", "0", "40", "-2"])),
    ]
    n = draw(st.sampled_from([1, 2, 3, 4, 4, 6, 6, 6, 7]))
    return " ".join((parts + ["extra"])[:n])


edit = st.one_of(
    st.tuples(st.just("set_piece_at"), squares, st.one_of(st.none(), pieces)),
    st.tuples(st.just("remove_piece_at"), squares),
    st.tuples(st.just("clear")),
    st.tuples(st.just("clear_board")),
    st.tuples(st.just("reset")),
    st.tuples(st.just("reset_board")),
    st.tuples(st.just("set_piece_map"), st.dictionaries(squares, pieces, max_size=10)),
    st.tuples(st.just("set_board_fen"), board_fens()),
    st.tuples(st.just("set_castling_fen"), castling_fields),
    st.tuples(st.just("set_fen"), fens()),
    st.tuples(st.just("set_chess960_pos"), st.integers(-1, 960)),
    st.tuples(st.just("turn")),
    st.tuples(st.just("apply_mirror")),
    st.tuples(
        st.just("apply_transform"),
        st.sampled_from(["flip_vertical", "flip_horizontal", "flip_diagonal", "flip_anti_diagonal", "shift_up"]),
    ),
)


def apply(board: Any, step: tuple[Any, ...], module: Any) -> Any:
    name, *args = step
    if name == "set_piece_at":
        sq, p = args
        piece = None if p is None else module.Piece(p.piece_type, p.color)
        return board.set_piece_at(sq, piece)
    if name == "remove_piece_at":
        p = board.remove_piece_at(args[0])
        return None if p is None else p.symbol()
    if name == "set_piece_map":
        return board.set_piece_map({sq: module.Piece(p.piece_type, p.color) for sq, p in args[0].items()})
    if name == "apply_transform":
        return board.apply_transform(getattr(module, args[0]))
    if name == "turn":
        # python-chess's turn is an attribute; kibitz's boards change turn through set_fen.
        return board.set_fen(
            board.fen(en_passant="fen").replace(" w ", " _ ").replace(" b ", " w ").replace(" _ ", " b ")
        )
    return getattr(board, name)(*args)


# ---------------------------------------------------------------- tests


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fens(), st.booleans())
def test_fen_reading_and_writing_match_python_chess(fen: str, chess960: bool) -> None:
    k = outcome(lambda: kibitz.Board(fen, chess960=chess960))
    c = outcome(lambda: chess.Board(fen, chess960=chess960))
    assert k[0] == c[0], (fen, k, c)
    if k[0] == "ok":
        same(k[1], c[1])
    else:
        assert issubclass(k[1], c[1])


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([chess.STARTING_FEN, None, "4k3/8/8/8/8/8/8/4K3 w - - 0 1"]), st.lists(edit, max_size=8))
def test_edit_sequences_match_python_chess(start: Optional[str], steps: list[tuple[Any, ...]]) -> None:
    kb, cb = kibitz.Board(start), chess.Board(start)
    same(kb, cb)
    for step in steps:
        k = outcome(lambda: apply(kb, step, kibitz))
        c = outcome(lambda: apply(cb, step, chess))
        assert k == c, (step, k, c)
        same(kb, cb)


@pytest.mark.parametrize(
    "fen",
    [
        "8/8/8/8/8/8/8/8 w - - 0 1",
        "4k3/8/8/8/8/8/8/8 w - - 0 1",
        "4k3/8/8/8/8/8/8/4KK2 w - - 0 1",
        "P3k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - e6 0 1",
        "4k3/8/8/3Pp3/8/8/8/4K3 b - e3 0 1",
        "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1",
        "3rkr2/8/8/8/8/8/8/3RKR2 w - - 0 1",
        "4k3/8/8/8/1b6/8/8/R3K2r w - - 0 1",
        "4k3/8/8/2Pp4/8/8/8/4K2r w - d6 0 1",
        "pppppppp/pppppppp/pppppppp/8/8/PPPPPPPP/PPPPPPPP/PPPPPPPP w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3",
        "4k3/8/8/8/8/8/8/4K3 b",
    ],
)
def test_named_positions_match_python_chess(fen: str) -> None:
    same(kibitz.Board(fen), chess.Board(fen))
    same(kibitz.Board(fen, chess960=True), chess.Board(fen, chess960=True))


def test_unplayable_positions_move_as_python_chess_and_refuse_search_with_a_clear_error() -> None:
    fen = "4k3/8/8/8/8/8/8/4KK2 w - - 0 1"
    b, ref = kibitz.Board(fen), chess.Board(fen)
    assert not b.is_valid()
    assert [m.uci() for m in b.legal_moves] == [m.uci() for m in ref.legal_moves]
    b.push_uci("e1e2")
    ref.push_uci("e1e2")
    assert b.fen() == ref.fen()
    with pytest.raises(kibitz.InvalidPositionError, match="2 kings"):
        kibitz.Engine().search(b, depth=1)
    with pytest.raises(kibitz.InvalidPositionError, match="2 kings"):
        b.perft(2)


def test_empty_board_and_editing_back_to_a_playable_position() -> None:
    b = kibitz.Board(None)
    assert b.fen() == chess.Board(None).fen()
    assert kibitz.Board.empty().fen() == chess.Board.empty().fen()
    b.set_piece_at(chess.E1, kibitz.Piece(kibitz.KING, kibitz.WHITE))
    b.set_piece_at(chess.E8, kibitz.Piece(kibitz.KING, kibitz.BLACK))
    b.set_piece_at(chess.A2, kibitz.Piece(kibitz.PAWN, kibitz.WHITE))
    assert b.is_valid()
    b.push_san("a4")
    assert b.fen() == "4k3/8/8/8/P7/8/8/4K3 b - - 0 1"
