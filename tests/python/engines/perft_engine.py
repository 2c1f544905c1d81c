"""A tiny perft "engine" over python-chess, for the tests of ``kibitz perft-diff``.

The broken engines next to this file each plant one bug by passing their own move
generator to :func:`main`. An engine speaks just enough UCI for perft-diff::

    uci                      -> id name ..., option name UCI_Chess960 ..., uciok
    isready                  -> readyok
    setoption name UCI_Chess960 value true|false
    position startpos|fen FEN [moves M ...]
    go perft N               -> "move: count" lines, a blank line, "Nodes searched: N"
    quit

and, called as ``ENGINE --script FEN DEPTH [MOVE ...]``, prints one divide and exits
(perft-diff's ``--script`` mode).
"""

from __future__ import annotations

import sys
from typing import Callable, Iterable, List, Optional

import chess

MoveGen = Callable[[chess.Board], Iterable[chess.Move]]


def correct_moves(board: chess.Board) -> List[chess.Move]:
    return list(board.legal_moves)


def perft(board: chess.Board, depth: int, gen: MoveGen) -> int:
    moves = list(gen(board))
    if depth <= 1:
        return len(moves) if depth == 1 else 1
    nodes = 0
    for move in moves:
        board.push(move)
        nodes += perft(board, depth - 1, gen)
        board.pop()
    return nodes


def divide_lines(board: chess.Board, depth: int, gen: MoveGen) -> List[str]:
    lines = []
    total = 0
    for move in gen(board):
        board.push(move)
        n = perft(board, depth - 1, gen)
        board.pop()
        total += n
        lines.append(f"{board.uci(move)}: {n}")
    return lines + ["", f"Nodes searched: {total}", ""]


def set_position(tokens: List[str], chess960: bool) -> chess.Board:
    """Reads ``position startpos|fen F1 .. F6 [moves ...]`` (after the word position)."""
    if tokens[0] == "startpos":
        board = chess.Board(chess960=chess960)
        rest = tokens[1:]
    else:
        fen_tokens = []
        rest = tokens[1:]
        while rest and rest[0] != "moves":
            fen_tokens.append(rest.pop(0))
        board = chess.Board(" ".join(fen_tokens), chess960=chess960)
    if rest and rest[0] == "moves":
        for text in rest[1:]:
            board.push_uci(text)
    return board


def uci_loop(
    gen: MoveGen,
    name: str,
    on_go: Optional[Callable[[chess.Board, int], bool]] = None,
    chess960_option: bool = True,
) -> None:
    chess960 = False
    board = chess.Board()
    out = sys.stdout
    for raw in sys.stdin:
        tokens = raw.split()
        if not tokens:
            continue
        cmd = tokens[0]
        if cmd == "uci":
            out.write(f"id name {name}\n")
            if chess960_option:
                out.write("option name UCI_Chess960 type check default false\n")
            out.write("uciok\n")
        elif cmd == "isready":
            out.write("readyok\n")
        elif cmd == "setoption" and len(tokens) >= 5 and tokens[2] == "UCI_Chess960":
            chess960 = tokens[4] == "true"
        elif cmd == "position":
            board = set_position(tokens[1:], chess960)
        elif cmd == "go" and len(tokens) == 3 and tokens[1] == "perft":
            if on_go is None or not on_go(board, int(tokens[2])):
                out.write("\n".join(divide_lines(board, int(tokens[2]), gen)) + "\n")
        elif cmd == "quit":
            return
        else:
            out.write(f"Unknown command: '{raw.strip()}'\n")
        out.flush()


def main(gen: MoveGen, name: str) -> None:
    args = sys.argv[1:]
    if args and args[0] == "--script":
        fen, depth, moves = args[1], int(args[2]), args[3:]
        board = set_position(["fen", *fen.split(), "moves", *moves], "--chess960" in args)
        print("\n".join(divide_lines(board, depth, gen)))
        return
    uci_loop(gen, name)


if __name__ == "__main__":
    main(correct_moves, "PythonChessPerft (test engine)")
