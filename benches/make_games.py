"""Makes the benchmark's game collection: kibitz self-play at a small node budget from
random openings, written as PGN with lichess-style tags (a real database's shape: ~80-plies
games, ten tags each). Deterministic for a given seed; the result is committed as
benches/data/selfplay.pgn.gz so the benchmark needs no generation.

    python benches/make_games.py 1000 benches/data/selfplay.pgn.gz
"""

from __future__ import annotations

import gzip
import random
import sys

import chess
import chess.pgn

import kibitz

# Plies played at random first (a varied opening set), and the search budget per move
# (weak but sensible play, ~1 ms a move); games stop at 300 plies (draw adjudicated).
RANDOM_PLIES = 6
NODES = 300
MAX_PLIES = 300


def play(rng: random.Random, engine: kibitz.Engine) -> chess.pgn.Game:
    board = chess.Board()
    engine.clear()
    while not board.is_game_over(claim_draw=True) and board.ply() < MAX_PLIES:
        if board.ply() < RANDOM_PLIES:
            move = rng.choice(list(board.legal_moves))
        else:
            r = engine.search(kibitz.Board.from_chess(board), nodes=NODES)
            assert r.best_move is not None
            move = chess.Move.from_uci(r.best_move)
        board.push(move)
    game = chess.pgn.Game.from_board(board)
    return game


def main() -> None:
    n, path = int(sys.argv[1]), sys.argv[2]
    rng = random.Random(13)
    engine = kibitz.Engine(hash_mb=4)
    with gzip.open(path, "wt", encoding="utf-8") as out:
        for i in range(n):
            game = play(rng, engine)
            h = game.headers
            h["Event"] = "kibitz self-play"
            h["Site"] = "benches/make_games.py"
            h["Date"] = "2026.11.22"
            h["Round"] = str(i + 1)
            h["White"] = f"player{rng.randrange(1000)}"
            h["Black"] = f"player{rng.randrange(1000)}"
            h["WhiteElo"] = str(rng.randrange(1000, 2500))
            h["BlackElo"] = str(rng.randrange(1000, 2500))
            h["TimeControl"] = "180+2"
            h["Termination"] = "Normal"
            if game.headers["Result"] == "*":
                game.headers["Result"] = "1/2-1/2"
            print(game, file=out, end="\n\n")


if __name__ == "__main__":
    main()
