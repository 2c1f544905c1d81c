"""Where a match is lost: a reference engine's evaluation of the positions at fixed plies of
every game, from one engine's side.

    python tools/phase_eval.py MATCH.pgn [MATCH.pgn ...] --engine NAME
        [--judge /usr/games/stockfish] [--depth 14] [--plies 16,24,32,40,50,60,80,100]

NAME is the engine whose side is taken (the start of its name as the PGN's White and Black
tags give it). For each ply, over the games that reached it: the mean and median of the
judge's score in centipawns (clamped to +-1000, a mate counting as 1000), and how many
positions stand worse than -100 and better than +100 for NAME. A match against a stronger
engine is lost in the phase where the mean falls: level after the opening and falling
through the middlegame says the middlegame play is what to improve, not the openings or
the clock of the first moves. The judge should be stronger than both players (Stockfish
against kibitz and Ethereal 12); its depth keeps a run to seconds a game.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from typing import Dict, List

import chess
import chess.engine
import chess.pgn

CLAMP = 1000


def side_of(game: chess.pgn.Game, engine: str, path: str) -> chess.Color:
    """The colour the engine named ``engine`` (the start of its name) played in ``game``."""
    white, black = game.headers.get("White", ""), game.headers.get("Black", "")
    if white.startswith(engine):
        return chess.WHITE
    if black.startswith(engine):
        return chess.BLACK
    raise SystemExit(f"{path}: a game without an engine named {engine}*: {white} - {black}")


def scores(paths: List[str], engine: str, judge: str, depth: int, plies: List[int]) -> Dict[int, List[int]]:
    """For each ply of ``plies``, the judge's score of the position after that ply, from the
    side of the engine named ``engine``, over every game of ``paths`` that reached it."""
    out: Dict[int, List[int]] = {p: [] for p in plies}
    with chess.engine.SimpleEngine.popen_uci(judge) as ref:
        for path in paths:
            with open(path, encoding="utf-8") as f:
                while (game := chess.pgn.read_game(f)) is not None:
                    side = side_of(game, engine, path)
                    board = game.board()
                    for ply, move in enumerate(game.mainline_moves(), start=1):
                        board.push(move)
                        if ply in out:
                            info = ref.analyse(board, chess.engine.Limit(depth=depth))
                            cp = info["score"].pov(side).score(mate_score=CLAMP)
                            out[ply].append(max(-CLAMP, min(CLAMP, cp)))
    return out


def main(argv: List[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pgn", nargs="+", help="PGN files of a match (match.py writes them)")
    parser.add_argument("--engine", required=True, help="the engine whose side is taken (start of its name)")
    parser.add_argument("--judge", default="/usr/games/stockfish", help="a UCI engine stronger than both")
    parser.add_argument("--depth", type=int, default=14)
    parser.add_argument("--plies", default="16,24,32,40,50,60,80,100")
    args = parser.parse_args(argv)
    plies = sorted({int(p) for p in args.plies.split(",")})
    if not plies or plies[0] < 1:
        parser.error("--plies: positive ply numbers, comma-separated")
    table = scores(args.pgn, args.engine, args.judge, args.depth, plies)
    print(f"{args.judge} at depth {args.depth}, from {args.engine}'s side (centipawns, clamped to +-{CLAMP})")
    for ply in plies:
        v = table[ply]
        if not v:
            print(f"ply {ply:3d}: no game reached it")
            continue
        worse = sum(1 for x in v if x < -100)
        better = sum(1 for x in v if x > 100)
        print(
            f"ply {ply:3d}: games {len(v):3d}  mean {statistics.mean(v):+5.0f}  median {statistics.median(v):+5.0f}  "
            f"worse than -100: {worse:3d}  better than +100: {better:3d}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
