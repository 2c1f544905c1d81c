"""A large annotated PGN file for the kibitz.pgn benchmarks, written by python-chess.

The games are the self-play games of ``benches/data/selfplay.pgn.gz`` (about 90 plies each),
taken in turn, each annotated afresh from its own seeded generator the way game databases
annotate them: a ``[%clk]`` comment after every move (lichess's exports), ``[%eval]`` after
every move in about a third of the games (the analysed ones), NAGs on about one move in
twenty, a text comment on about one in twenty-five, arrows now and then, and side lines on
about one move in sixteen (one to six plies of other legal moves, some with a side line of
their own and comments and NAGs inside). python-chess writes the file (its
``FileExporter``, 80 columns), so the input does not depend on kibitz.

    python benches/annotated_games.py 20000 OUT.pgn
"""

from __future__ import annotations

import argparse
import gzip
import io
import random
from pathlib import Path
from typing import Any, Iterator

import chess
import chess.engine
import chess.pgn

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "data" / "selfplay.pgn.gz"
WORDS = ["good", "bad", "only move", "the idea", "better was", "a classic plan", "unclear", "zugzwang"]


def _source_games() -> list[chess.pgn.Game]:
    text = gzip.decompress(SOURCE.read_bytes()).decode()
    stream = io.StringIO(text)
    games = []
    while (game := chess.pgn.read_game(stream)) is not None:
        games.append(game)
    return games


def _side_line(rng: random.Random, node: Any, before: chess.Board, depth: int) -> None:
    """Adds a side line beside `node` (other moves than its move; `before`: the position before it)."""
    moves = [m for m in before.legal_moves if m != node.move]
    if not moves:
        return
    child = node.parent.add_variation(rng.choice(moves))
    board = before.copy(stack=False)
    for _ in range(rng.randint(1, 6)):
        previous = board.copy(stack=False)
        board.push(child.move)
        if rng.random() < 0.3:
            child.comment = rng.choice(WORDS)
        if rng.random() < 0.15:
            child.nags.add(rng.choice([1, 2, 3, 4, 5, 6, 14, 15, 16, 17]))
        if depth < 1 and rng.random() < 0.1:
            _side_line(rng, child, previous, depth + 1)
        legal = list(board.legal_moves)
        if not legal:
            break
        child = child.add_variation(rng.choice(legal))


def annotate(game: chess.pgn.Game, seed: int, index: int) -> chess.pgn.Game:
    """A copy of `game`'s main line with annotations drawn from `seed`."""
    rng = random.Random(seed)
    out = chess.pgn.Game()
    for name, value in game.headers.items():
        out.headers[name] = value
    out.headers["Round"] = str(index + 1)
    analysed = rng.random() < 0.35
    clock = [180.0, 180.0]
    node: Any = out
    board = chess.Board()
    for ply, move in enumerate(game.mainline_moves()):
        before = board.copy(stack=False)
        node = node.add_variation(move)
        board.push(move)
        side = ply % 2
        clock[side] = max(0.0, clock[side] - rng.uniform(0.5, 12.0) + 2.0)
        node.set_clock(round(clock[side], 1))
        if analysed:
            node.set_eval(chess.engine.PovScore(chess.engine.Cp(rng.randint(-300, 300)), chess.WHITE))
        if rng.random() < 0.05:
            node.nags.add(rng.choice([1, 2, 3, 4, 5, 6]))
        if rng.random() < 0.04:
            node.comment = rng.choice(WORDS) + " " + node.comment
        if rng.random() < 0.01:
            node.set_arrows([(rng.randrange(64), rng.randrange(64))])
        if rng.random() < 0.06:
            _side_line(rng, node, before, 0)
    out.headers["Result"] = game.headers.get("Result", "*")
    return out


def games(n: int, seed: int = 2026) -> Iterator[chess.pgn.Game]:
    source = _source_games()
    for i in range(n):
        yield annotate(source[i % len(source)], seed * 1_000_003 + i, i)


def write(n: int, path: Path, seed: int = 2026) -> None:
    with open(path, "w", encoding="utf-8") as f:
        exporter = chess.pgn.FileExporter(f)
        for game in games(n, seed):
            game.accept(exporter)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("games", type=int)
    ap.add_argument("out", type=Path)
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()
    write(args.games, args.out, args.seed)


if __name__ == "__main__":
    main()
