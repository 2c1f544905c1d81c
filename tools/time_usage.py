"""How each engine of a match spends its clock, from the match's PGN (the ``%emt`` and
``%clk`` comments that ``match.py`` writes after every move).

    python tools/time_usage.py MATCH.pgn [MATCH.pgn ...]

For each engine: moves played, mean seconds a move over the game and by phase (plies 0-39,
40-99, 100 and later), and the median clock left at the end of its games. Used to compare
kibitz's time management with its opponents' at the same time control: an engine that ends
its games with half its base time unused has strength left on the table.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
from typing import Dict, List, Tuple

import chess.pgn

EMT = re.compile(r"%emt (\d+):(\d+):([\d.]+)")
CLK = re.compile(r"%clk (\d+):(\d+):([\d.]+)")
PHASES = [(0, 40, "plies 0-39"), (40, 100, "40-99"), (100, 10**9, "100+")]


def seconds(m: "re.Match[str]") -> float:
    return 3600 * int(m.group(1)) + 60 * int(m.group(2)) + float(m.group(3))


def usage(path: str) -> Tuple[int, Dict[str, List[Tuple[int, float]]], Dict[str, List[float]]]:
    """(games, per engine its (ply, seconds) of every move, per engine its clocks at the end)."""
    spent: Dict[str, List[Tuple[int, float]]] = {}
    left: Dict[str, List[float]] = {}
    games = 0
    with open(path, encoding="utf-8") as f:
        while (game := chess.pgn.read_game(f)) is not None:
            games += 1
            names = {chess.WHITE: game.headers["White"], chess.BLACK: game.headers["Black"]}
            last: Dict[str, float] = {}
            for ply, node in enumerate(game.mainline()):
                mover = names[not node.turn()]
                if (m := EMT.search(node.comment)) is not None:
                    spent.setdefault(mover, []).append((ply, seconds(m)))
                if (c := CLK.search(node.comment)) is not None:
                    last[mover] = seconds(c)
            for name, clock in last.items():
                left.setdefault(name, []).append(clock)
    return games, spent, left


def main(argv: List[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pgn", nargs="+", help="PGN files written by match.py")
    args = parser.parse_args(argv)
    for path in args.pgn:
        games, spent, left = usage(path)
        print(f"{path}: {games} games")
        for name, moves in spent.items():
            phases = []
            for lo, hi, label in PHASES:
                times = [t for p, t in moves if lo <= p < hi]
                phases.append(f"{label} {statistics.mean(times):.3f}" if times else f"{label} -")
            print(
                f"  {name:<16} moves {len(moves):5d}  mean {statistics.mean(t for _, t in moves):.3f} s/move; "
                f"{', '.join(phases)}; clock left at the end: median {statistics.median(left[name]):.2f} s"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
