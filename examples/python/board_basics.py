"""Board basics: a position, moves in SAN and UCI, the legal moves, the end of a game.

    python examples/python/board_basics.py

kibitz.Board follows python-chess's API (docs/python-chess.md): code written for it moves
over by changing the import.
"""

from __future__ import annotations

import kibitz
from kibitz import Board, Move


def main() -> None:
    board = Board()
    print(board)  # the board as text, White at the bottom
    print(f"{len(board.legal_moves)} legal moves from the start")

    board.push_san("e4")  # SAN ...
    board.push_uci("e7e5")  # ... or UCI text ...
    board.push(Move.from_uci("g1f3"))  # ... or a Move
    print("after 1. e4 e5 2. Nf3:", board.fen())
    print("Black's captures here:", [board.san(m) for m in board.generate_legal_captures()] or "none")
    print("the knight on f3 attacks", [kibitz.square_name(sq) for sq in board.attacks(kibitz.F3)])

    try:
        board.push_san("Ke2")  # not Black's move, and not legal: the board is unchanged
    except kibitz.IllegalMoveError as e:
        print("refused:", e)

    # Fool's mate: the game-end rules.
    board = Board()
    for san in ["f3", "e5", "g4", "Qh4#"]:
        board.push_san(san)
    outcome = board.outcome()
    assert outcome is not None
    print("Fool's mate:", outcome.termination.name, outcome.result())
    print("moves:", Board().variation_san(list(board.move_stack)))

    try:
        import chess  # python-chess, when installed: conversion both ways, history included
    except ImportError:
        return
    theirs = board.to_chess()
    assert isinstance(theirs, chess.Board) and theirs.is_checkmate()
    assert Board.from_chess(theirs) == board
    print("converted to python-chess and back")


if __name__ == "__main__":
    main()
