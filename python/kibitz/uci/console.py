"""Stockfish's console commands beside UCI, in its formats, for the tools that read them:
``go perft N`` (the divide: the count below each legal move, then the total, which perft
checkers such as perftree read) and ``bench [DEPTH]`` (the engine's bench: each fixed
position searched to a fixed depth by a fresh engine, then the node total, the search's
signature, and the speed, which testing frameworks such as OpenBench read). ``kibitz
bench`` on the command line prints the same."""

from __future__ import annotations

from typing import Callable, List, Optional

from kibitz._core import BENCH_POSITIONS, Board
from kibitz._core import bench as _bench
from kibitz.uci.go import parse_go_number

__all__ = ["bench", "perft_lines", "read_depth"]


def read_depth(text: str, highest: int) -> Optional[int]:
    """The depth a command's argument names: a whole number from 1 to ``highest`` (written
    as an integer or a float, as GUIs write numbers), else None."""
    depth = parse_go_number(text)
    if depth is None or not 1 <= depth <= highest or depth != int(depth):
        return None
    return int(depth)


def perft_lines(board: Board, depth: int) -> List[str]:
    """What Stockfish's ``go perft DEPTH`` prints: ``move: count`` for each legal move (in
    kibitz's generation order, the move as UCI text in the board's castling notation), a
    blank line, ``Nodes searched: N`` and a blank line. ``ValueError`` for a depth outside
    1..64."""
    counts = board.divide(depth)
    lines = [f"{move}: {count}" for move, count in counts.items()]
    return [*lines, "", f"Nodes searched: {sum(counts.values())}", ""]


def bench(depth: int, send: Callable[[str], None]) -> int:
    """Runs the bench to ``depth`` and writes, through ``send``, a line a position as it is
    searched, then Stockfish's summary (total time, nodes searched, nodes a second).
    Returns the nodes searched. ``ValueError`` for a depth outside 1..MAX_DEPTH."""
    total = len(BENCH_POSITIONS)
    done = 0

    def each(row: tuple[str, int, float, str]) -> None:
        nonlocal done
        done += 1
        fen, nodes, secs, best = row
        send(f"Position {done:>2}/{total}: {nodes:>9} nodes {secs * 1e3:>7.1f} ms  bestmove {best:<6} {fen}")

    rows = _bench(depth, on_position=each)
    nodes = sum(row[1] for row in rows)
    secs = sum(row[2] for row in rows)
    send("")
    send("===========================")
    send(f"Total time (ms) : {secs * 1e3:.0f}")
    send(f"Nodes searched  : {nodes}")
    send(f"Nodes/second    : {nodes / secs if secs > 0 else 0:.0f}")
    return nodes
