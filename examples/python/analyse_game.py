"""Analysing a game with kibitz.Engine: every position searched, the worst moves marked.

    python examples/python/analyse_game.py [NODES]

For whole PGN files, with JSON records, annotated PGN and worker processes, use
``kibitz analyse`` or ``kibitz.analyse_games`` instead (docs/analysis.md); this script
shows the engine API underneath.
"""

from __future__ import annotations

import sys

import kibitz
from kibitz import Board, Move

# A short game with a blunder in it (the Legal trap).
GAME = "e4 e5 Nf3 d6 Bc4 Bg4 Nc3 g6 Nxe5 Bxd1 Bxf7+ Ke7 Nd5#"


MATE = 10000  # a mate, counted in centipawns


def white_cp(result: kibitz.SearchResult, white_to_move: bool) -> int:
    """The search's score from White's side, a mate counted as +-MATE."""
    if result.mate is not None:
        score = MATE if result.mate > 0 else -MATE
    elif result.checkmate:
        score = -MATE
    else:
        score = result.score_cp or 0
    return score if white_to_move else -score


def main() -> None:
    nodes = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    engine = kibitz.Engine(hash_mb=16)
    board = Board()
    before = white_cp(engine.search(board, nodes=nodes), board.turn)
    for san in GAME.split():
        mover_is_white = board.turn
        number = board.fullmove_number
        best = engine.search(board, nodes=nodes).best_move
        best_san = board.san(Move.from_uci(best)) if best else "-"
        board.push_san(san)
        after = white_cp(engine.search(board, nodes=nodes), board.turn)
        loss = (before - after) if mover_is_white else (after - before)
        mark = "??" if loss >= 300 else "?" if loss >= 100 else ""
        prefix = f"{number}." if mover_is_white else f"{number}..."
        shown = f"{after / 100:+7.2f}" if abs(after) < MATE else ("  White mates" if after > 0 else "  Black mates")
        print(f"{prefix:5} {san + mark:8} eval {shown}   best was {best_san}")
        before = after
    outcome = board.outcome()
    print("result:", outcome.result() if outcome else "*")


if __name__ == "__main__":
    main()
