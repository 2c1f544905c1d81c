"""From engine scores to judgements: win probability, the played move's loss, its mark
(inaccuracy / mistake / blunder), centipawn loss, move and game accuracy. Pure functions,
no engine.

The computations are lichess's, as its server code does them (lila's ``WinPercent``,
``AccuracyPercent`` and ``Advice``; their newest versions followed here are scalachess's
``eval.scala`` for Win%, lila's ``modules/analyse/.../AccuracyPercent.scala`` for the
accuracies and ``modules/tree/.../Advice.scala`` for the judgements), so the figures compare
with what players see there:

- Win% of a score of ``cp`` centipawns (White's side): ``50 + 50 * (2 / (1 + exp(-0.00368208
  * cp)) - 1)`` with cp clamped to +-1000 first; a forced mate counts as +-1000 by who mates
  (Win% 97.5 or 2.5), a checkmated side to move (``{"mate": 0}``) as -1000 for that side.
  ``win_probability`` is Win% / 100.
- the played move's loss: the mover's win probability before the move minus after it
  (both from the searches of the two positions), floored at 0;
- move accuracy from that loss in Win% points: ``103.1668100711649 * exp(-0.04354415386753951
  * loss) - 3.166924740191411``, plus lichess's "uncertainty bonus" of 1, clamped to 0..100
  (100 when nothing is lost);
- game accuracy per side: lichess's mean of a volatility-weighted mean and a harmonic mean of
  the side's move accuracies (``game_accuracy``);
- judgement (lichess's ``Advice``): between two centipawn scores, by the mover's loss of
  winning chances (the curve above on the -1..1 scale, of the centipawns as they are: the
  newest Advice does not clamp them), 0.3 / 0.2 / 0.1 for blunder / mistake / inaccuracy,
  which is 0.15 / 0.10 / 0.05 on the 0..1 scale of ``win_probability``; when a mate is in
  either score, by the mate made or lost and the centipawns on the other side of it
  (``judgement``);
- centipawn loss: the mover's score before minus after, each clamped to +-1000 (mate = 1000),
  floored at 0.
"""

from __future__ import annotations

import math
import statistics
from typing import Any, Optional, Sequence

# lichess's Win% curve: the logistic slope per centipawn fitted to rated games.
WIN_SLOPE = 0.00368208
# Scores beyond a piece-and-a-half-of-rook's worth change nothing a human notices; lichess
# caps centipawns at 1000 both for Win% and for centipawn loss, and so do we. A mate counts
# as the cap.
CP_CAP = 1000
# The score lichess gives every game's start position in its game accuracy (whatever the
# position: its analysis has no score for it).
CP_INITIAL = 15
# Beyond this the winning chances are +-1 to the last bit; centipawns are clamped here only
# so that exp() cannot overflow.
_CP_SATURATED = 50_000

# Loss thresholds in win probability (0..1), lichess's 0.3 / 0.2 / 0.1 halved.
BLUNDER = 0.15
MISTAKE = 0.10
INACCURACY = 0.05

# lichess's accuracy curve (Accuracy% as a function of the Win% drop in percentage points),
# and the point it adds to every move that loses something.
ACC_A = 103.1668100711649
ACC_K = 0.04354415386753951
ACC_B = 3.166924740191411
ACC_BONUS = 1.0

# lichess's game accuracy: windows of a tenth of the game's plies, 2 to 8 of them, weighted
# by the standard deviation of the Win% in them, clamped to 0.5..12.
WINDOW_MIN, WINDOW_MAX = 2, 8
WEIGHT_MIN, WEIGHT_MAX = 0.5, 12.0

# The centipawn bounds of lichess's judgements around mates: a mate made against a side
# already this far down is an inaccuracy / a mistake rather than a blunder, and a mate lost
# by a side still this far up after it likewise.
MATE_INACCURACY_CP = 999
MATE_MISTAKE_CP = 700

# PGN NAGs for the judgements (PGN standard: $6 "?!", $2 "?", $4 "??").
NAGS = {"inaccuracy": 6, "mistake": 2, "blunder": 4}
MARKS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
PLURALS = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}


class ScoreError(ValueError):
    """A score that is neither ``{"cp": n}`` nor ``{"mate": n}`` with n a whole number."""


def _checked(score: Any) -> tuple[str, int]:
    """("cp", n) or ("mate", n) of a score; ScoreError for anything else."""
    if isinstance(score, dict) and len(score) == 1:
        ((kind, value),) = score.items()
        if kind in ("cp", "mate") and isinstance(value, int) and not isinstance(value, bool):
            return kind, value
    raise ScoreError(f'a score is {{"cp": n}} or {{"mate": n}} with n a whole number, not {score!r}')


def _chances(cp: float) -> float:
    """lichess's winning chances (-1..1) of ``cp`` centipawns, as they are."""
    cp = max(-_CP_SATURATED, min(_CP_SATURATED, cp))
    return max(-1.0, min(1.0, 2.0 / (1.0 + math.exp(-WIN_SLOPE * cp)) - 1.0))


def capped_cp(score: dict[str, int], white_to_move: bool) -> int:
    """White's score in centipawns clamped to +-CP_CAP, a mate counting as the cap (a
    checkmated side to move, ``{"mate": 0}``, as the cap against it)."""
    kind, n = _checked(score)
    if kind == "mate":
        white_wins = (n > 0) if n != 0 else not white_to_move
        return CP_CAP if white_wins else -CP_CAP
    return max(-CP_CAP, min(CP_CAP, n))


def win_percent(score: dict[str, int], white_to_move: bool) -> float:
    """lichess's Win% (0..100) of White for a score from White's side: ``{"cp": n}`` or
    ``{"mate": n}`` (n > 0: White mates; n < 0: Black mates; 0: the side to move is mated),
    a mate counting as 1000 centipawns."""
    return 50.0 + 50.0 * _chances(capped_cp(score, white_to_move))


def win_probability(score: dict[str, int], white_to_move: bool) -> float:
    """White's win probability (0..1): ``win_percent`` / 100."""
    return win_percent(score, white_to_move) / 100.0


def judge(loss: float) -> Optional[str]:
    """The mark a loss of win probability (0..1) earns: None, inaccuracy, mistake or blunder."""
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    if loss >= INACCURACY:
        return "inaccuracy"
    return None


def _mover_view(score: dict[str, int], mover_to_move: bool, white_moved: bool) -> tuple[str, int]:
    """A White's-side score from the mover's side: ("cp", n), ("mate", n) with n > 0 when the
    mover mates, or ("mated", 0) / ("given", 0) for a checkmate on the board (the side to move
    is mated: the mover when ``mover_to_move``, else the mover's opponent)."""
    kind, n = _checked(score)
    if kind == "mate" and n == 0:
        return ("mated", 0) if mover_to_move else ("given", 0)
    return kind, n if white_moved else -n


def judgement(before: dict[str, int], after: dict[str, int], white_moved: bool) -> Optional[str]:
    """lichess's judgement (``Advice``) of a move from the White's-side scores of the position
    before it and after it: None, "inaccuracy", "mistake" or "blunder".

    Between two centipawn scores, by the mover's loss of winning chances (``judge`` of half
    the drop on lichess's -1..1 scale; the centipawns are not clamped). Otherwise, from the
    mover's side: a mate against the mover where there was none is an inaccuracy when the
    mover was already more than 999 centipawns down, a mistake when more than 700, else a
    blunder; a mate of the mover's that is gone (no mate after the move, or the opponent's)
    is an inaccuracy when more than 999 centipawns stay, a mistake when more than 700, else
    (a mate after it counting as 0) a blunder; any other case (a mate delayed, kept or given,
    a mate suffered before and after) is no mark."""
    b = _mover_view(before, True, white_moved)
    a = _mover_view(after, False, white_moved)
    if b[0] == "cp" and a[0] == "cp":
        # On White's side, then turned to the mover's, as lichess computes it.
        drop = _chances(after["cp"]) - _chances(before["cp"])
        delta = -drop if white_moved else drop
        for limit, name in ((BLUNDER, "blunder"), (MISTAKE, "mistake"), (INACCURACY, "inaccuracy")):
            if delta >= 2 * limit:
                return name
        return None
    cp_before = b[1] if b[0] == "cp" else 0
    cp_after = a[1] if a[0] == "cp" else 0
    if b[0] == "cp" and a[0] == "mate" and a[1] < 0:  # a mate made against the mover
        if cp_before < -MATE_INACCURACY_CP:
            return "inaccuracy"
        return "mistake" if cp_before < -MATE_MISTAKE_CP else "blunder"
    if b[0] == "mate" and b[1] > 0 and (a[0] == "cp" or (a[0] == "mate" and a[1] < 0)):  # a mate lost
        if cp_after > MATE_INACCURACY_CP:
            return "inaccuracy"
        return "mistake" if cp_after > MATE_MISTAKE_CP else "blunder"
    return None


def move_accuracy(loss: float) -> float:
    """lichess's accuracy of a move (0..100) from its loss of win probability (0..1):
    ``accuracy_percent`` of that drop."""
    return accuracy_percent(100.0, 100.0 - 100.0 * loss)


def accuracy_percent(before: float, after: float) -> float:
    """lichess's accuracy of a move (0..100) from the mover's Win% (0..100) before and
    after it: 100 when nothing is lost, else its curve of the drop in points plus its point
    of bonus, clamped."""
    if after >= before:
        return 100.0
    return max(0.0, min(100.0, ACC_A * math.exp(-ACC_K * (before - after)) - ACC_B + ACC_BONUS))


def game_accuracy(scores: Sequence[dict[str, int]], white_first: bool) -> tuple[Optional[float], Optional[float]]:
    """lichess's game accuracy of (White, Black) from the White's-side scores of the
    positions after each ply of the game (the first ply White's when ``white_first``); None
    for a side without a move.

    White's Win% is taken at the start (from CP_INITIAL centipawns, as lichess does whatever
    the start position) and after each ply. Each ply gets a weight: the standard deviation
    of the Win% in a window of a tenth of the game's plies (2 to 8) around it, clamped to
    0.5..12 (the first plies share the first window), so that moves in a calm game weigh
    less than moves where the game swings. A side's accuracy is the mean of the weighted
    mean and the harmonic mean (each accuracy at least 1 there) of its move accuracies."""
    wins = [50.0 + 50.0 * _chances(CP_INITIAL)]
    white_to_move = not white_first
    for score in scores:
        wins.append(win_percent(score, white_to_move))
        white_to_move = not white_to_move
    plies = len(wins) - 1
    size = max(WINDOW_MIN, min(WINDOW_MAX, plies // 10))
    weights: list[float] = []
    for i in range(plies):
        # The window of ply i: the first ``size`` values for the first plies, then sliding.
        start = max(0, i - (size - 2))
        window = wins[start : start + size]
        weights.append(max(WEIGHT_MIN, min(WEIGHT_MAX, statistics.pstdev(window))))
    sides: dict[bool, list[tuple[float, float]]] = {True: [], False: []}
    for i in range(plies):
        white = (i % 2 == 0) == white_first
        # Black's Win% is 100 minus White's: its drop is White's rise (lichess swaps the two).
        before, after = (wins[i], wins[i + 1]) if white else (wins[i + 1], wins[i])
        sides[white].append((accuracy_percent(before, after), weights[i]))
    out: list[Optional[float]] = []
    for white in (True, False):
        moves = sides[white]
        if not moves:
            out.append(None)
            continue
        weighted = math.fsum(a * w for a, w in moves) / math.fsum(w for _, w in moves)
        harmonic = len(moves) / math.fsum(1.0 / max(1.0, a) for a, _ in moves)
        out.append((weighted + harmonic) / 2.0)
    return out[0], out[1]


def side_summary(moves: list[dict[str, Any]], accuracy: Optional[float]) -> dict[str, Any]:
    """Per side: moves judged, average centipawn loss, ``accuracy`` (the side's game
    accuracy, rounded to 0.1) and the count of each mark. Empty sides get None figures."""
    n = len(moves)
    out: dict[str, Any] = {
        "moves": n,
        "acpl": round(sum(m["cp_loss"] for m in moves) / n, 1) if n else None,
        "accuracy": round(accuracy, 1) if n and accuracy is not None else None,
    }
    for kind in ("inaccuracy", "mistake", "blunder"):
        out[PLURALS[kind]] = sum(1 for m in moves if m["judgement"] == kind)
    return out
