"""How well each engine's own evaluation foretells a match's results, read from the scores
the engines reported during the games (the `[%eval]` comments match.py writes).

    python tools/eval_calibration.py MATCH.pgn [MATCH.pgn ...] --engine NAME
        [--plies 20-80] [--clamp 600]

NAME is one of the two engines (the start of its name as the PGN's White and Black tags give
it). Each move NAME played within the plies gives a pair: the score NAME reported for it and
the score the opponent reported for its reply on the next ply, both turned to NAME's side
(python-chess writes `[%eval]` from White's side). Pairs where either score is a mate or
lies beyond +-clamp centipawns are left out. Printed:

- the line fitted through the pairs, opponent = a * NAME + b: a near 1 says the two scales
  agree, and b is how much rosier NAME sees its own positions than the opponent does;
- how many pairs have NAME more optimistic, or less optimistic, by more than 50 centipawns,
  and NAME's game score in those games;
- NAME's game score by band of the evaluation, once as NAME's score places the positions
  and once as the opponent's does. An evaluation that foretells the results scores near
  50 % in its level band; the one whose level band scores further from 50 % misjudges the
  positions the games reached.

The two scores of a pair come from different searches (the opponent has seen one move
more), so the offset b is the sum of the evaluations' disagreement and of what the reply
revealed; against a stronger engine both point the same way.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
from typing import List, NamedTuple, Tuple

import chess
import chess.pgn
from phase_eval import side_of  # the colour of the engine named: one rule for both tools

EVAL = re.compile(r"\[%eval\s+([-+]?(?:\d+(?:\.\d*)?|\.\d+)|#[-+]?\d+)")
RESULTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
BANDS = [(-10_000, -150), (-150, -50), (-50, 50), (50, 150), (150, 10_000)]
MARGIN = 50


class Pair(NamedTuple):
    own: float  # NAME's score of its move, from NAME's side (centipawns)
    opponent: float  # the opponent's score of its reply, from NAME's side
    result: float  # NAME's score in the game: 1, 0.5 or 0


def white_cp(comment: str) -> float | None:
    """The `[%eval]` score of a comment in centipawns from White's side; None without one
    or for a mate."""
    m = EVAL.search(comment)
    if m is None or m.group(1).startswith("#"):
        return None
    return float(m.group(1)) * 100


def pairs(paths: List[str], engine: str, first: int, last: int, clamp: float) -> List[Pair]:
    """The (NAME's score, opponent's next score, NAME's result) pairs of every finished game
    of ``paths``, NAME's move at a ply in ``first..last``."""
    out: List[Pair] = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            while (game := chess.pgn.read_game(f)) is not None:
                result = RESULTS.get(game.headers.get("Result", "*"))
                if result is None:
                    continue
                side = side_of(game, engine, path)
                if side == chess.BLACK:
                    result = 1.0 - result
                sign = 1.0 if side == chess.WHITE else -1.0
                scores = [white_cp(node.comment) for node in game.mainline()]
                for i in range(len(scores) - 1):
                    ply = i + 1
                    own_move = (ply % 2 == 1) == (side == chess.WHITE)
                    if not own_move or not first <= ply <= last:
                        continue
                    a, b = scores[i], scores[i + 1]
                    if a is None or b is None or abs(a) > clamp or abs(b) > clamp:
                        continue
                    out.append(Pair(sign * a, sign * b, result))
    return out


def fit(ps: List[Pair]) -> Tuple[float, float]:
    """Least squares of opponent = a * own + b over the pairs."""
    if len(ps) < 2:
        raise ValueError("a line needs at least two pairs")
    xs = [p.own for p in ps]
    ys = [p.opponent for p in ps]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    if sxx == 0:
        raise ValueError("every pair has the same score of its own: no line to fit")
    a = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    return a, my - a * mx


def band_label(lo: int, hi: int) -> str:
    if lo <= -10_000:
        return f"below {hi:+d}"
    if hi >= 10_000:
        return f"{lo:+d} and above"
    return f"{lo:+d} to {hi:+d}"


def report(ps: List[Pair], engine: str) -> str:
    a, b = fit(ps)
    lines = [
        f"{len(ps)} pairs: opponent = {a:.2f} * {engine} {b:+.0f} cp",
    ]
    groups = [
        (f"{engine} more optimistic by over {MARGIN} cp", [p for p in ps if p.own - p.opponent > MARGIN]),
        (f"{engine} less optimistic by over {MARGIN} cp", [p for p in ps if p.opponent - p.own > MARGIN]),
        (f"within {MARGIN} cp", [p for p in ps if abs(p.own - p.opponent) <= MARGIN]),
    ]
    for name, g in groups:
        if g:
            lines.append(
                f"{name:40s} {len(g):6d} pairs, {engine} {statistics.fmean(p.own for p in g):+5.0f}, "
                f"opponent {statistics.fmean(p.opponent for p in g):+5.0f}, "
                f"{engine}'s game score {statistics.fmean(p.result for p in g):.3f}"
            )
        else:
            lines.append(f"{name:40s}      0 pairs")
    lines.append(f"{engine}'s game score by band of the evaluation (centipawns, {engine}'s side):")
    lines.append(f"{'band':>16s} | {'by ' + engine + ' n':>14s} {'score':>6s} | {'by opponent n':>14s} {'score':>6s}")
    for lo, hi in BANDS:
        own = [p.result for p in ps if lo <= p.own < hi]
        opp = [p.result for p in ps if lo <= p.opponent < hi]
        fmt = lambda v: f"{len(v):14d} {statistics.fmean(v):6.3f}" if v else f"{0:14d} {'-':>6s}"  # noqa: E731
        lines.append(f"{band_label(lo, hi):>16s} | {fmt(own)} | {fmt(opp)}")
    return "\n".join(lines)


def main(argv: List[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pgn", nargs="+", help="PGN files of a match with [%%eval] comments (match.py writes them)")
    parser.add_argument("--engine", required=True, help="the engine whose side is taken (start of its name)")
    parser.add_argument("--plies", default="20-80", help="the plies of NAME's moves taken, FIRST-LAST")
    parser.add_argument("--clamp", type=float, default=600, help="pairs with a score beyond this are left out")
    args = parser.parse_args(argv)
    m = re.fullmatch(r"(\d+)-(\d+)", args.plies)
    if m is None or int(m.group(1)) > int(m.group(2)):
        parser.error("--plies: FIRST-LAST, two ply numbers, the first not above the last")
    ps = pairs(args.pgn, args.engine, int(m.group(1)), int(m.group(2)), args.clamp)
    if len(ps) < 2:
        print("fewer than two pairs with scores: nothing to measure", file=sys.stderr)
        return 1
    print(f"plies {args.plies}, scores within +-{args.clamp:g} cp, from {args.engine}'s side")
    print(report(ps, args.engine))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
