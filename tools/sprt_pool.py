"""Pools the game logs of several runs of one sequential test (``match.py --sprt``) and gives
the score, Elo with its 95 % interval and the log-likelihood ratio over all of them.

    python tools/sprt_pool.py ENGINE LOG [LOG ...] [--elo0 0 --elo1 10]

ENGINE is the name (or the start of the name) of the engine under test as the logs write it;
each LOG is a match log as ``match.py`` prints it, one ``game N/M: WHITE - BLACK RESULT`` line
a game. Games pair up by opening as match.py plays them (games 2k-1 and 2k of a run share an
opening, colours swapped), pairs never across runs. The statistic is match.py's: the
generalised SPRT on game pairs (pentanomial, normal approximation, logistic Elo),
N ((m - s0)^2 - (m - s1)^2) / (2 var); with the default alpha = beta = 0.05 it accepts H1 at
+2.94 and H0 at -2.94. Used when a test was stopped and run again (a machine shut down, the
cores needed elsewhere): the pooled figure is reported beside each run's own.
"""

from __future__ import annotations

import argparse
import math
import re
from typing import Dict, List, Tuple

GAME = re.compile(r"^game\s+(\d+)/\d+: (\S+) - (\S+)\s+(1-0|0-1|1/2-1/2)")


def pair_scores(engine: str, logs: List[str]) -> List[float]:
    """The engine's mean score of every complete pair of games, over all logs."""
    pairs: Dict[Tuple[int, int], List[float]] = {}
    for run, path in enumerate(logs):
        with open(path, encoding="utf-8") as f:
            for line in f:
                m = GAME.match(line)
                if not m:
                    continue
                number, white, black, result = int(m.group(1)), m.group(2), m.group(3), m.group(4)
                if not (white.startswith(engine) or black.startswith(engine)):
                    raise SystemExit(f"{path}: game {number} has no engine named {engine}*")
                if result == "1/2-1/2":
                    score = 0.5
                else:
                    score = float((result == "1-0") == white.startswith(engine))
                pairs.setdefault((run, (number + 1) // 2), []).append(score)
    return [sum(v) / 2 for v in pairs.values() if len(v) == 2]


def elo(score: float) -> float:
    return -400 * math.log10(1 / score - 1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("engine")
    ap.add_argument("logs", nargs="+")
    ap.add_argument("--elo0", type=float, default=0.0)
    ap.add_argument("--elo1", type=float, default=10.0)
    args = ap.parse_args()
    xs = pair_scores(args.engine, args.logs)
    n = len(xs)
    if n < 10:
        raise SystemExit(f"{n} complete pairs: too few")
    mean = sum(xs) / n
    var = sum((x - mean) ** 2 for x in xs) / n
    s0, s1 = (1 / (1 + 10 ** (-e / 400)) for e in (args.elo0, args.elo1))
    llr = n * ((mean - s0) ** 2 - (mean - s1) ** 2) / (2 * var)
    half = 1.96 * math.sqrt(var / n)
    print(
        f"{n} pairs ({2 * n} games): score {mean:.4f}, Elo {elo(mean):+.1f} "
        f"[{elo(mean - half):+.1f}, {elo(mean + half):+.1f}], "
        f"LLR {llr:+.2f} for [{args.elo0:g}, {args.elo1:g}] (bounds -2.94, +2.94)"
    )


if __name__ == "__main__":
    main()
