"""From engine scores to judgements: win probability, the played move's loss, its mark
(inaccuracy / mistake / blunder), centipawn loss and accuracy. Pure functions, no engine.

The formulas are lichess's published ones (https://lichess.org/page/accuracy and its
``Advice`` thresholds), so figures are comparable with what players see there:

- win probability of a score of ``cp`` centipawns: ``1 / (1 + exp(-0.00368208 * cp))``
  (lichess's Win% / 100, fitted to real games), with cp clamped to +-1000 first; a forced
  mate counts as 1 for the side that mates and 0 for the side that is mated;
- the played move's loss: the mover's win probability before the move minus after it
  (both from the searches of the two positions), floored at 0;
- judgement by that loss: >= 0.15 blunder, >= 0.10 mistake, >= 0.05 inaccuracy (lichess's
  0.3 / 0.2 / 0.1 on its -1..1 "winning chances" scale, which is twice this one);
- move accuracy: ``103.1668 * exp(-0.04354 * loss_in_percent) - 3.1669``, clamped to 0..100;
- centipawn loss: the mover's score before minus after, each clamped to +-1000 (mate = 1000),
  floored at 0.
"""

from __future__ import annotations

import math
from typing import Any, Optional

# lichess's Win% curve: the logistic slope per centipawn fitted to rated games.
WIN_SLOPE = 0.00368208
# Scores beyond a piece-and-a-half-of-rook's worth change nothing a human notices; lichess
# caps centipawns at 1000 both for Win% and for centipawn loss, and so do we.
CP_CAP = 1000

# Loss thresholds in win probability (0..1), lichess's 0.3 / 0.2 / 0.1 halved.
BLUNDER = 0.15
MISTAKE = 0.10
INACCURACY = 0.05

# lichess's accuracy curve (Accuracy% as a function of the Win% drop in percentage points).
ACC_A = 103.1668
ACC_K = 0.04354
ACC_B = 3.1669

# PGN NAGs for the judgements (PGN standard: $6 "?!", $2 "?", $4 "??").
NAGS = {"inaccuracy": 6, "mistake": 2, "blunder": 4}
MARKS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
PLURALS = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}


def win_probability(score: dict[str, int], white_to_move: bool) -> float:
    """White's win probability (0..1) for a score from White's side: ``{"cp": n}`` or
    ``{"mate": n}`` (n > 0: White mates; n < 0: Black mates; 0: the side to move is mated)."""
    if "mate" in score:
        m = score["mate"]
        if m == 0:
            return 0.0 if white_to_move else 1.0
        return 1.0 if m > 0 else 0.0
    cp = max(-CP_CAP, min(CP_CAP, score["cp"]))
    return 1.0 / (1.0 + math.exp(-WIN_SLOPE * cp))


def capped_cp(score: dict[str, int], white_to_move: bool) -> int:
    """White's score in centipawns clamped to +-CP_CAP, a mate counting as the cap."""
    if "mate" in score:
        m = score["mate"]
        white_wins = (m > 0) if m != 0 else not white_to_move
        return CP_CAP if white_wins else -CP_CAP
    return max(-CP_CAP, min(CP_CAP, score["cp"]))


def judge(loss: float) -> Optional[str]:
    """The mark a move's win-probability loss earns: None, inaccuracy, mistake or blunder."""
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    if loss >= INACCURACY:
        return "inaccuracy"
    return None


def move_accuracy(loss: float) -> float:
    """lichess's per-move accuracy (0..100) for a win-probability loss (0..1)."""
    acc = ACC_A * math.exp(-ACC_K * (loss * 100.0)) - ACC_B
    return max(0.0, min(100.0, acc))


def side_summary(moves: list[dict[str, Any]]) -> dict[str, Any]:
    """Per side: moves judged, average centipawn loss, accuracy (the plain mean of move
    accuracies) and the count of each mark. Empty sides get None figures."""
    n = len(moves)
    out: dict[str, Any] = {
        "moves": n,
        "acpl": round(sum(m["cp_loss"] for m in moves) / n, 1) if n else None,
        "accuracy": round(sum(m["accuracy"] for m in moves) / n, 1) if n else None,
    }
    for kind in ("inaccuracy", "mistake", "blunder"):
        out[PLURALS[kind]] = sum(1 for m in moves if m["judgement"] == kind)
    return out
