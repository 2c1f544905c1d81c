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
import numpy as np
import pytest
from test_tensor import canonical_reference, reference_planes

import kibitz
from kibitz import pgn_to_tensors
from kibitz.tensor import MOVE_INDEXES, move_index

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
