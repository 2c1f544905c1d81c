"""``pgn_to_tensors``: a PGN file as training chunks (planes, move indexes, results, game
numbers), compared with the same file read and replayed by python-chess, the planes built
from python-chess's public API and the move indexes from its moves."""

from __future__ import annotations

import gzip
import io
import random
from pathlib import Path

import chess
import chess.pgn
import chess.variant
import numpy as np
import pytest
from planes_reference import canonical_reference, reference_planes

import kibitz
from kibitz import pgn_to_tensors
from kibitz.tensor import MOVE_INDEXES, NULL_MOVE_INDEX, UnindexedMoveError, move_index

RESULTS = {"1-0": 1, "0-1": -1, "1/2-1/2": 0}


def random_game(rng: random.Random, chess960: bool) -> chess.pgn.Game:
    """A random game, with promotions (under-promotions included) and castling made likely."""
    board = chess.Board.from_chess960_pos(rng.randrange(960)) if chess960 else chess.Board()
    game = chess.pgn.Game.from_board(board)
    node: chess.pgn.GameNode = game
    for _ in range(rng.randrange(1, 160)):
        moves = list(board.legal_moves)
        if not moves:
            break
        special = [m for m in moves if m.promotion or board.is_castling(m) or board.is_en_passant(m)]
        move = rng.choice(special if special and rng.random() < 0.7 else moves)
        node = node.add_variation(move)
        board.push(move)
    game.headers["Result"] = rng.choice(["1-0", "0-1", "1/2-1/2", "1/2-1/2", "*"])
    return game


def corpus(seed: int, n: int) -> str:
    rng = random.Random(seed)
    games = [str(random_game(rng, chess960=rng.random() < 0.25)) for _ in range(n)]
    # A game with an illegal move: left out by both, as an error.
    games.insert(n // 2, '[Result "1-0"]\n\n1. e4 e5 2. Ke3 Nc6 1-0')
    return "\n\n".join(games) + "\n"


def expected(text: str, canonical: bool) -> tuple[np.ndarray, list[int], list[int], list[int], int]:
    """Planes, move indexes, results and game numbers as python-chess sees the file."""
    planes, moves, results, numbers = [], [], [], []
    skipped = 0
    handle = io.StringIO(text)
    number = 0
    while (game := chess.pgn.read_game(handle)) is not None:
        number += 1
        result = RESULTS.get(game.headers.get("Result", "*"))
        if result is None or game.errors:
            skipped += 1
            continue
        board = game.board()
        for move in game.mainline_moves():
            flip = canonical and board.turn == chess.BLACK
            planes.append(canonical_reference(board) if canonical else reference_planes(board))
            uci = board.uci(move)
            from_square, to_square = chess.parse_square(uci[:2]), chess.parse_square(uci[2:4])
            if flip:
                from_square, to_square = chess.square_mirror(from_square), chess.square_mirror(to_square)
            kind = {chess.KNIGHT: 1, chess.BISHOP: 2, chess.ROOK: 3}.get(move.promotion or 0, 0)
            moves.append(from_square * 64 + to_square + 4096 * kind)
            results.append(-result if flip else result)
            numbers.append(number)
            board.push(move)
    return np.array(planes, dtype=np.float32).reshape(-1, 18, 8, 8), moves, results, numbers, skipped


@pytest.mark.parametrize("canonical", [False, True])
@pytest.mark.parametrize("chunk", [1, 37, 4096])
def test_chunks_hold_what_python_chess_reads(tmp_path: Path, canonical: bool, chunk: int) -> None:
    text = corpus(11, 40)
    path = tmp_path / "games.pgn.gz"
    path.write_bytes(gzip.compress(text.encode()))
    chunks = list(pgn_to_tensors(path, chunk=chunk, canonical=canonical))
    planes, moves, results, numbers, skipped = expected(text, canonical)
    assert len(moves) > 1000 and skipped >= 2
    assert all(c.planes.shape == (len(c.moves), 18, 8, 8) for c in chunks)
    assert all(len(c.moves) >= chunk or c is chunks[-1] for c in chunks)
    assert np.array_equal(np.concatenate([c.planes for c in chunks]), planes)
    assert np.concatenate([c.moves for c in chunks]).tolist() == moves
    assert np.concatenate([c.results for c in chunks]).tolist() == results
    assert np.concatenate([c.games for c in chunks]).tolist() == numbers
    assert sum(c.skipped for c in chunks) == skipped
    assert all(c.planes.dtype == np.float32 and c.moves.dtype == np.int32 for c in chunks)


def test_uint8_planes_and_file_objects(tmp_path: Path) -> None:
    text = corpus(12, 15)
    as_float = list(pgn_to_tensors(io.StringIO(text)))
    as_bytes = list(pgn_to_tensors(io.BytesIO(text.encode()), dtype=np.uint8))
    assert [c.planes.dtype for c in as_bytes] == [np.dtype(np.uint8)] * len(as_bytes)
    assert np.array_equal(
        np.concatenate([c.planes for c in as_float]), np.concatenate([c.planes for c in as_bytes]).astype(np.float32)
    )


def test_every_index_is_in_range_and_move_index_agrees(tmp_path: Path) -> None:
    text = corpus(13, 20)
    got = np.concatenate([c.moves for c in pgn_to_tensors(io.StringIO(text), canonical=True)]).tolist()
    assert all(0 <= i < MOVE_INDEXES for i in got)
    want = []
    handle = io.StringIO(text)
    while (game := chess.pgn.read_game(handle)) is not None:
        if game.headers.get("Result") not in RESULTS or game.errors:
            continue
        board = kibitz.Board(game.board().fen(), chess960=game.board().chess960)
        for move in game.mainline_moves():
            want.append(move_index(board, move, canonical=True))
            board.push(move)
    assert got == want


def test_bad_arguments_are_value_errors() -> None:
    with pytest.raises(ValueError, match="chunk"):
        next(pgn_to_tensors(io.StringIO("1. e4 1-0"), chunk=0))
    with pytest.raises(ValueError, match="float32 or uint8"):
        next(pgn_to_tensors(io.StringIO("1. e4 1-0"), dtype=np.int64))
    assert list(pgn_to_tensors(io.StringIO(""))) == []
    (whole,) = pgn_to_tensors(io.StringIO("1. e4 e5 1-0"), chunk=1 << 80)
    assert len(whole.moves) == 2


def chunks_of(text: str, canonical: bool = False) -> tuple[list[int], list[int], list[int], int]:
    """The move indexes, results, game numbers and skipped count of a PGN text."""
    chunks = list(pgn_to_tensors(io.StringIO(text), canonical=canonical))
    moves = [m for c in chunks for m in c.moves.tolist()]
    results = [r for c in chunks for r in c.results.tolist()]
    numbers = [g for c in chunks for g in c.games.tolist()]
    return moves, results, numbers, sum(c.skipped for c in chunks)


def test_a_tag_with_an_unescaped_quote_keeps_its_game() -> None:
    text = '[Event "Say "hi" there"]\n[Site "C:\\"]\n[Result "1-0"]\n\n1. e4 e5 1-0\n'
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None and game.headers["Event"] == 'Say "hi" there' and not game.errors
    assert chunks_of(text) == ([796, 3364], [1, 1], [1, 1], 0)
    (ours,) = kibitz.read_games(io.StringIO(text))
    assert ours.error is None and ours.headers["Event"] == 'Say "hi" there' and ours.headers["Site"] == "C:\\"


@pytest.mark.parametrize(
    ("tag", "token", "label"),
    [
        ('[Result "1-0"]\n', "*", 1),  # the tag wins over the token
        ('[Result "1-0"]\n', "", 1),  # no token at all, next game's tags follow
        ('[Result "0-1"]\n', "1-0", -1),
        ('[Result "*"]\n', "1/2-1/2", 0),  # a `*` tag: the token
        ("", "0-1", -1),
        ('[Result "?"]\n', "1-0", None),  # a tag that is no result: no result, as python-chess
    ],
)
def test_the_result_is_python_chess_s(tag: str, token: str, label: int) -> None:
    text = f'{tag}\n1. e4 e5 {token}\n\n[Result "1-0"]\n\n1. d4 1-0\n'
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None and RESULTS.get(game.headers.get("Result", "*")) == label
    moves, results, numbers, skipped = chunks_of(text)
    if label is None:
        assert (results, numbers, skipped) == ([1], [2], 1)
    else:
        assert (results, numbers, skipped) == ([label, label, 1], [1, 1, 2], 0)


def test_a_game_the_file_ends_in_without_a_result_token_is_read() -> None:
    for text in ('[Result "1-0"]\n\n1. e4 e5\n', '[Result "1-0"]\n\n1. e4 e5', '[Result "1-0"]\n\n1. e4 e5 {cut'):
        assert chunks_of(text) == ([796, 3364], [1, 1], [1, 1], 0), text


def test_null_moves_are_read_with_index_0_and_the_position_passed() -> None:
    text = '[Result "0-1"]\n\n1. e4 -- 2. d4 Z0 3. Nf3 0000 4. Nc3 @@@@ 0-1\n'
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None and not game.errors and len(list(game.mainline_moves())) == 8
    for canonical in (False, True):
        moves, results, numbers, skipped = chunks_of(text, canonical)
        assert moves[1::2] == [NULL_MOVE_INDEX] * 4 and skipped == 0
        assert results == ([-1, 1] * 4 if canonical else [-1] * 8)
    planes = next(pgn_to_tensors(io.StringIO(text))).planes
    board = game.board()
    for got, move in zip(planes, game.mainline_moves()):
        np.testing.assert_array_equal(got, reference_planes(board))
        board.push(move)
    # A null move in check leaves the game out (the position after it is no legal one).
    in_check = '[Result "1-0"]\n\n1. e4 f5 2. Qh5+ -- 1-0\n'
    assert chunks_of(in_check) == ([], [], [], 1)


def test_move_index_of_a_null_move_and_of_moves_without_an_index() -> None:
    assert move_index(kibitz.Board(), kibitz.Move.null()) == NULL_MOVE_INDEX == 0
    assert move_index(chess.Board(), chess.Move.null(), canonical=True) == NULL_MOVE_INDEX
    drop = chess.variant.CrazyhouseBoard("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[P] w KQkq - 0 1")
    with pytest.raises(UnindexedMoveError, match="'P@e4' has no training index"):
        move_index(drop, chess.Move.from_uci("P@e4"))
    assert issubclass(UnindexedMoveError, ValueError)


def test_a_game_without_moves_from_an_empty_board_is_read() -> None:
    text = '[FEN "8/8/8/8/8/8/8/8 w - - 0 1"]\n[Result "1-0"]\n\n1-0\n\n[Result "0-1"]\n\n1. e4 0-1\n'
    assert chunks_of(text) == ([796], [-1], [2], 0)
    # A move from it is an error for both readers: the game is left out.
    moved = '[FEN "8/8/8/8/8/8/8/8 w - - 0 1"]\n[Result "1-0"]\n\n1. e4 1-0\n'
    game = chess.pgn.read_game(io.StringIO(moved))
    assert game is not None and game.errors
    assert chunks_of(moved) == ([], [], [], 1)


def test_fen_tags_are_read_as_board_reads_them() -> None:
    # Castling rights without their rook, an en-passant square no pawn crossed, missing
    # clocks: python-chess reads the game; so does kibitz.Board(fen).
    text = '[FEN "4k3/8/8/8/8/8/8/4K3 w KQkq e3"]\n[Result "1-0"]\n\n1. Kd2 Kd7 1-0\n'
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None and not game.errors
    (chunk,) = pgn_to_tensors(io.StringIO(text))
    assert chunk.skipped == 0 and len(chunk.moves) == 2
    np.testing.assert_array_equal(chunk.planes[0], reference_planes(game.board()))
