"""A python-chess program, written for python-chess and nothing else: random games to the
end (draws claimed), each made into a PGN game; prints the board's module, the plies
played and the results.

    python examples/python/random_games.py [GAMES] [SEED]                   # on python-chess
    python -m kibitz.compat examples/python/random_games.py [GAMES] [SEED]  # the same, on kibitz

Both print the same plies and results (the moves are drawn from the legal moves sorted by
UCI text, so the games do not depend on the order a library lists them in); only the first
word, the module of the board class, differs. docs/python-chess.md times the two.
"""

from __future__ import annotations

import random
import sys

import chess
import chess.pgn

games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
plies = 0
results: dict[str, int] = {}
for _ in range(games):
    board = chess.Board()
    while not board.is_game_over(claim_draw=True):
        board.push(rng.choice(sorted(board.legal_moves, key=lambda m: m.uci())))
    game = chess.pgn.Game.from_board(board)
    plies += board.ply()
    results[game.headers["Result"]] = results.get(game.headers["Result"], 0) + 1
print(type(board).__module__, plies, sorted(results.items()))
