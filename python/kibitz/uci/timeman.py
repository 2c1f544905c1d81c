"""Time management: how long to think about one move.

Pure functions, no clock reads and no engine calls, so every rule is unit-tested
(tests/python/test_timeman.py). The UCI layer (uci.py) calls :func:`allocate` once per
``go`` and :func:`adjust` after every finished iteration, and stops the search when
:func:`should_stop` says so; the Rust search enforces ``hard_ms`` by itself.

Two numbers per move:

* ``soft_ms`` -- the target. The search is stopped after an iteration that ends past the
  (adjusted) target, or when the next iteration would very likely not finish before it.
* ``hard_ms`` -- the absolute cap: the search returns its best move so far at this
  moment, whatever it is doing. It never exceeds the time left minus the move overhead,
  so a move can never lose on time as long as the overhead covers the real latency of
  the process, the pipe and the GUI (the ``Move Overhead`` option).

The shape follows the usual engine practice (chessprogramming wiki, "Time Management"):
a share of the remaining time per move plus most of the increment, a hard cap that is a
few times the target but never a large fraction of the clock, and a target that grows
when the best move keeps changing or the score drops and shrinks when the best move has
been stable for many iterations.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

# Moves to plan for in sudden death (no movestogo): a game lasts ~40 more moves from
# most positions (the figure Fruit and many others use); planning for 40 keeps a
# reserve because the increment is also added to each move's share.
DEFAULT_MOVES_TO_GO = 40
# movestogo above this is treated as this many: beyond ~50 moves the share per move is
# small anyway and a GUI's "movestogo 200" should not starve every move.
MAX_MOVES_TO_GO = 50
# Share of the increment spent on top of the base share: the increment arrives after the
# move, so spending all of it leaves nothing for latency; 3/4 is sustainable.
INCREMENT_SHARE = 0.75
# ... but only while the clock holds at least this many increments: below that the share
# tapers linearly to 0, so a clock that has run low is rebuilt by the increment instead of
# settling at a few tens of milliseconds (at 1s+0.01s it used to hover at 50-100 ms, where
# a 100 ms scheduling stall on a loaded machine loses on time; now it stays near 300 ms).
INCREMENT_RESERVE = 30
# The hard cap is this many times the target (room for the extensions below) ...
HARD_OVER_SOFT = 4.0
# ... but never more than this share of the clock (with movestogo > 1 or sudden death),
# so that one hard-capped move cannot put the rest of the game under pressure.
HARD_CLOCK_SHARE = 0.35
# With movestogo == 1 the whole remainder belongs to this move, but keep a margin.
LAST_MOVE_CLOCK_SHARE = 0.85
# The target never exceeds this share of the hard cap, so the Rust search (which does
# not start an iteration it cannot finish within soft_ms) has room to finish one.
SOFT_OVER_HARD = 0.5
# adjust() factors: limits of the dynamic multiplier of the soft target.
MIN_FACTOR = 0.5
MAX_FACTOR = 2.5
# An iteration typically takes ~1.5-2.5x the time of all previous ones together
# (effective branching factor of an alpha-beta search with the usual pruning); past this
# share of the target the next iteration is not started.
NEXT_ITERATION_SHARE = 0.6
# Default Move Overhead (ms): measured latency of a `go` -> `bestmove` round trip through
# the Python front end and a python-chess client is 1-5 ms on the development machine;
# 30 ms leaves a wide margin for a loaded machine or a GUI that is slow to stop clocks.
DEFAULT_MOVE_OVERHEAD_MS = 30


@dataclass(frozen=True)
class Budget:
    """The time for one move, in milliseconds. ``None`` means no limit of that kind."""

    soft_ms: Optional[int]
    hard_ms: Optional[int]
    # The most the soft target may grow to through adjust() (never above hard_ms); the
    # Rust search is given this as its own soft limit, and Python stops it earlier.
    max_soft_ms: Optional[int] = None
    # True for ``go movetime``: the whole time is used (no early stop after an iteration).
    fixed: bool = False

    @property
    def timed(self) -> bool:
        return self.hard_ms is not None


UNLIMITED = Budget(None, None, None)


def allocate(
    *,
    time_left_ms: Optional[int] = None,
    inc_ms: int = 0,
    movestogo: Optional[int] = None,
    movetime_ms: Optional[int] = None,
    overhead_ms: int = DEFAULT_MOVE_OVERHEAD_MS,
) -> Budget:
    """The budget for one move from the ``go`` parameters of the side to move.

    ``time_left_ms`` is our clock (wtime or btime), ``inc_ms`` our increment. With
    ``movetime_ms`` the move takes exactly that (less the overhead). Without either, the
    search is not timed (depth / nodes / infinite). Invariant: hard_ms never exceeds
    ``time_left_ms - overhead_ms`` (nor ``movetime_ms - overhead_ms``), and is never
    negative; soft_ms <= max_soft_ms <= hard_ms.
    """
    overhead_ms = max(0, int(overhead_ms))
    if movetime_ms is not None:
        hard = max(0, int(movetime_ms) - overhead_ms)
        if time_left_ms is not None:
            hard = min(hard, max(0, int(time_left_ms) - overhead_ms))
        return Budget(hard, hard, hard, fixed=True)
    if time_left_ms is None:
        return UNLIMITED

    available = float(max(0, int(time_left_ms) - overhead_ms))
    inc = max(0, int(inc_ms))
    if movestogo is not None and movestogo > 0:
        mtg = min(int(movestogo), MAX_MOVES_TO_GO)
    else:
        mtg = DEFAULT_MOVES_TO_GO

    clock_share = LAST_MOVE_CLOCK_SHARE if mtg == 1 else HARD_CLOCK_SHARE
    inc_share = INCREMENT_SHARE
    if inc > 0 and available < INCREMENT_RESERVE * inc:
        inc_share *= available / (INCREMENT_RESERVE * inc)
    base = available / mtg + inc_share * inc
    hard_f = min(base * HARD_OVER_SOFT, available * clock_share)
    if mtg == 1:
        # Nothing to save for: think up to the cap.
        hard_f = available * clock_share
    soft = min(base, hard_f * SOFT_OVER_HARD) if mtg > 1 else hard_f * SOFT_OVER_HARD
    max_soft = min(soft * MAX_FACTOR, hard_f)
    h = max(0, int(hard_f))
    s = max(0, min(int(soft), h))
    m = max(s, min(int(max_soft), h))
    return Budget(s, h, m)


@dataclass(frozen=True)
class Iteration:
    """What adjust() needs of one finished iteration."""

    depth: int
    best_move: Optional[str]
    score_cp: Optional[int]  # mate scores are passed as None


# Each best-move change in the last iterations raises the target by this share (Stockfish
# and Ethereal both scale time by recent best-move instability; 0.3 per change over the
# last few iterations is a common middle value).
CHANGE_WEIGHT = 0.3
# Only changes in the last this-many iterations count.
CHANGE_WINDOW = 4
# A score drop of at least this many centipawns since the previous iteration ...
SCORE_DROP_CP = 30
# ... raises the target by this share (a falling score means a problem to solve).
SCORE_DROP_WEIGHT = 0.4
# A best move unchanged for this many iterations (from depth STABLE_MIN_DEPTH on) stands
# out: the target shrinks to STABLE_FACTOR of its size.
STABLE_ITERATIONS = 6
STABLE_MIN_DEPTH = 8
STABLE_FACTOR = 0.6


def adjust(history: Sequence[Iteration]) -> float:
    """Multiplier of the soft target after the iterations in ``history`` (oldest first).

    More time when the best move keeps changing or the score drops, less when the same
    move has been best for many iterations. Always within [MIN_FACTOR, MAX_FACTOR].
    """
    if len(history) < 2:
        return 1.0
    factor = 1.0
    recent = history[-(CHANGE_WINDOW + 1) :]
    changes = sum(1 for a, b in zip(recent, recent[1:]) if a.best_move != b.best_move)
    factor += CHANGE_WEIGHT * changes
    prev, last = history[-2], history[-1]
    if prev.score_cp is not None and last.score_cp is not None and prev.score_cp - last.score_cp >= SCORE_DROP_CP:
        factor += SCORE_DROP_WEIGHT
    stable = 1
    for a, b in zip(reversed(history[:-1]), reversed(history)):
        if a.best_move != b.best_move:
            break
        stable += 1
    if changes == 0 and stable >= STABLE_ITERATIONS and last.depth >= STABLE_MIN_DEPTH:
        factor *= STABLE_FACTOR
    return max(MIN_FACTOR, min(MAX_FACTOR, factor))


def target_ms(budget: Budget, factor: float) -> Optional[int]:
    """The soft target scaled by ``factor``, never above max_soft_ms (nor hard_ms)."""
    if budget.soft_ms is None:
        return None
    cap = budget.max_soft_ms if budget.max_soft_ms is not None else budget.hard_ms
    t = int(budget.soft_ms * factor)
    if cap is not None:
        t = min(t, cap)
    return max(0, t)


def should_stop(elapsed_ms: float, target: Optional[int]) -> bool:
    """After a finished iteration: stop now rather than start the next one?"""
    if target is None:
        return False
    return elapsed_ms >= target * NEXT_ITERATION_SHARE
