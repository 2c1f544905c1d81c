"""Time management: how long kibitz thinks about one move.

The design card puts time management in the Python package: this module owns every time
decision, and the Rust search keeps only the mechanism (a cap it stops at mid-iteration,
checked by its node counter, and a call after each finished iteration whose answer stops
it). ``kibitz.Engine.search`` takes a time manager (``time_manager=``): any object with the
three methods of ``TimeManagerLike`` below. With none, it makes the default one,
``TimeManager``, from its clock arguments (``for_search``); the UCI front end and the
Python API both play the clock that way.

Two numbers per move (``Budget``):

* ``soft``, the target. The search is stopped after an iteration that ends past the
  adjusted target, or when the next iteration would very likely not finish before the hard
  limit.
* ``hard``, the absolute cap: the search returns its best move so far at this moment,
  whatever it is doing. It never exceeds the time left minus the move overhead, so a move
  never loses on time as long as the overhead covers the real latency of the process, the
  pipe and the GUI (the UCI option ``Move Overhead``).

The shape follows the usual engine practice (chessprogramming wiki, "Time Management"): a
share of the remaining time per move plus most of the increment, a hard cap a few times the
target but never a large fraction of the clock, and a target that grows when the best move
keeps changing or the score drops and shrinks when the best move has been stable for many
iterations. The figures were measured with the engine (the matches are named beside each).

The protocol, as the engine calls it (times in milliseconds from the search's start)::

    start(*, only_move, pondering) -> hard cap or None    # when the search starts
    iteration(*, depth, best_move, score_cp, elapsed_ms) -> True to stop   # after each
    ponderhit(*, elapsed_ms) -> (hard cap or None, stop now)   # UCI ponderhit, any thread
"""

from __future__ import annotations

import math
from typing import List, NamedTuple, Optional, Protocol, Tuple

__all__ = [
    "DEFAULT_MOVES_TO_GO",
    "DEFAULT_MOVE_OVERHEAD_MS",
    "Budget",
    "Iteration",
    "TimeManager",
    "TimeManagerLike",
    "adjust",
    "allocate",
    "for_search",
    "time_budget",
]

# Moves to plan for in sudden death (no movestogo). Planning for 40 (the figure Fruit and
# many others use) left kibitz with a median 4.9 s of its 10 s base unused at the end of its
# games against Ethereal 12 at 10s+0.1s, where Ethereal kept 0.6 s and spent twice as long on
# its first 20 moves (benches/results/time-usage-vs-ethereal.txt): the search stops most
# iterations well before the target (see NEXT_ITERATION_SHARE and STABLE_FACTOR), so the
# target can be generous. 25 against 40, self-play at 5s+0.05s, sequential test [0, 10] in two
# runs (benches/results/sprt-timeman-mtg25-5+0.05.*): +63 =132 -31 over 226 games, then +121
# =256 -78 over 455; pooled (tools/sprt_pool.py) 340 game pairs, +38 [+21, +55] Elo, LLR
# +4.28: accepted. Against Ethereal 12 at 10s+0.1s it ends its games with a median 2.9 s left
# instead of 4.9 s and scored 35.75 % over 200 games.
DEFAULT_MOVES_TO_GO = 25
# movestogo above this is taken as this many: beyond about 50 moves the share per move is
# small anyway, and a GUI's "movestogo 200" should not starve every move.
MAX_MOVES_TO_GO = 50
# Share of the increment spent on top of the base share: the increment arrives after the
# move, so spending all of it leaves nothing for latency; 3/4 is sustainable.
INCREMENT_SHARE = 0.75
# ... but only while the clock holds a reserve: below it the share tapers linearly to 0, so a
# clock that has run low is rebuilt by the increment instead of settling at a few tens of
# milliseconds (at 1s+0.01s it used to hover at 50-100 ms, where a 100 ms scheduling stall on
# a loaded machine loses on time; with the taper it stays near 300 ms). The reserve is this
# many increments ...
INCREMENT_RESERVE = 30.0
# ... or, when that is less, this many milliseconds plus RESERVE_INCREMENTS increments: 30
# increments of a large increment is a clock that never runs low (at 3s+2s, 60 s), and the
# taper then banked the increment: kibitz ended a 3s+2s game with 40.7 s of its 109 s unused
# after 53 moves (63 % used; Stockfish 84 %). The two agree up to an increment of 100 ms
# (2.5 s + 5 x 0.1 s = 30 x 0.1 s), so 10s+0.1s and faster are allocated as before.
RESERVE_FLOOR_MS = 2500.0
RESERVE_INCREMENTS = 5.0
# Sudden death without increment: each move also costs latency the engine does not see (the
# pipe, the GUI; a few milliseconds on a loaded machine), and nothing brings it back. Spending a
# share of the clock per move lets the clock fall towards the one Move Overhead kept back, and
# the latency of the remaining moves then runs it out: at 0.5s+0 kibitz lost 2 of 4 games to
# Stockfish on time near ply 130, with 30 ms overhead. So this many more overheads are kept
# back for the moves after the clock has run low (at the default overhead, 300 ms: a hundred
# moves or more at the latencies measured), less what the increments bring: an increment of
# INCREMENT_RESERVE / SUDDEN_DEATH_RESERVE overheads or more (10 ms at the default) keeps none,
# since its own reserve above rebuilds the clock. Stockfish keeps back Move Overhead times
# (2 + moves to go) for the same reason.
SUDDEN_DEATH_RESERVE = 10.0
# The hard cap is this many times the target (room for the extensions below) ...
HARD_OVER_SOFT = 4.0
# ... but never more than this share of the clock (with movestogo > 1 or sudden death), so
# that one hard-capped move cannot put the rest of the game under pressure.
HARD_CLOCK_SHARE = 0.35
# With movestogo == 1 the whole remainder belongs to this move, but keep a margin.
LAST_MOVE_CLOCK_SHARE = 0.85
# The target never exceeds this share of the hard cap, so that an iteration started just
# before the target has room to finish.
SOFT_OVER_HARD = 0.5
# Limits of the factor by which the target is scaled after each iteration.
MIN_FACTOR = 0.5
MAX_FACTOR = 2.5
# An iteration typically takes 1.5-2.5 times as long as all previous ones together (the
# effective branching factor of an alpha-beta search with the usual pruning); past this share
# of the target the next iteration is not started.
NEXT_ITERATION_SHARE = 0.6
# Default move overhead in milliseconds (the UCI option ``Move Overhead``): the measured
# latency of a ``go`` -> ``bestmove`` round trip through the Python front end and a
# python-chess client is 1-5 ms on the development machine; 30 ms leaves a wide margin for a
# loaded machine or a GUI that is slow to stop clocks.
DEFAULT_MOVE_OVERHEAD_MS = 30

# Each best-move change in the last iterations raises the target by this share (Stockfish and
# Ethereal both scale time by recent best-move instability; 0.3 per change over the last few
# iterations is a common middle value).
CHANGE_WEIGHT = 0.3
# Only changes in the last this-many iterations count.
CHANGE_WINDOW = 4
# A score drop of at least this many centipawns since the previous iteration ...
SCORE_DROP_CP = 30
# ... raises the target by this share (a falling score means a problem to solve).
SCORE_DROP_WEIGHT = 0.4
# A best move unchanged for this many iterations (from depth STABLE_MIN_DEPTH on) stands out:
# the target shrinks to STABLE_FACTOR of its size.
STABLE_ITERATIONS = 6
STABLE_MIN_DEPTH = 8
STABLE_FACTOR = 0.6


def _overhead(overhead_ms: Optional[float], time_left_ms: Optional[float]) -> float:
    """The move overhead to keep back: as given, else DEFAULT_MOVE_OVERHEAD_MS on a game clock
    and none for a fixed move time (used exactly)."""
    if overhead_ms is not None:
        return overhead_ms
    return DEFAULT_MOVE_OVERHEAD_MS if time_left_ms is not None else 0


def _whole_ms(x: float) -> float:
    """Whole milliseconds, never negative (the budgets are whole milliseconds)."""
    return float(math.floor(max(x, 0.0)))


class Budget(NamedTuple):
    """The time for one move, in milliseconds; ``None`` means no limit of that kind.
    Invariant: ``soft <= max_soft <= hard``."""

    soft: Optional[float]
    hard: Optional[float]
    # The most the soft target may grow to through the adjustments (never above ``hard``).
    max_soft: Optional[float]
    # A fixed move time (UCI ``movetime``): the whole time is used, no early stop.
    fixed: bool = False

    @property
    def timed(self) -> bool:
        """Whether the time stops the search: a cap, or a target alone (which then ends it
        at the first iteration past its share, with no cap inside an iteration)."""
        return self.hard is not None or self.soft is not None

    @staticmethod
    def explicit(soft: Optional[float], hard: Optional[float]) -> Budget:
        """A budget from an explicit target and cap (either may be missing): the target may
        grow up to MAX_FACTOR times, never past the cap."""
        max_soft = None
        if soft is not None:
            grown = soft * MAX_FACTOR
            max_soft = grown if hard is None else min(grown, hard)
            if hard is not None:
                soft = min(soft, hard)
        return Budget(soft, hard, max_soft, False)

    def target(self, factor: float) -> Optional[float]:
        """The soft target scaled by ``factor``, never above ``max_soft`` (nor ``hard``)."""
        if self.soft is None:
            return None
        t = min(self.soft * max(factor, 0.0), 1e12)
        cap = self.max_soft if self.max_soft is not None else self.hard
        return t if cap is None else min(t, cap)


UNLIMITED = Budget(None, None, None, False)


def allocate(
    time_left_ms: Optional[float] = None,
    inc_ms: float = 0.0,
    movestogo: Optional[int] = None,
    movetime_ms: Optional[float] = None,
    overhead_ms: float = DEFAULT_MOVE_OVERHEAD_MS,
    moves_to_go: int = DEFAULT_MOVES_TO_GO,
) -> Budget:
    """The budget for one move from the clock of the side to move, or a fixed ``movetime``
    (exactly that, less the overhead; never more than the clock, when one is given), or
    neither (not timed). ``hard`` never exceeds ``time_left - overhead`` (nor ``movetime -
    overhead``); in sudden death with a small increment it keeps back SUDDEN_DEATH_RESERVE
    overheads more, for the latency of the moves still to play. All are whole milliseconds. A negative clock (some GUIs send one after a
    flag fall) counts as 0. ``moves_to_go`` is the horizon planned for when ``movestogo``
    is not given (sudden death), 1 to ``MAX_MOVES_TO_GO``."""
    if not 1 <= moves_to_go <= MAX_MOVES_TO_GO:
        raise ValueError(f"moves_to_go must be 1 to {MAX_MOVES_TO_GO}, got {moves_to_go}")

    def left_after_overhead(t: float) -> float:
        return max(math.floor(max(t, 0.0)) - overhead_ms, 0.0)

    if movetime_ms is not None:
        hard = left_after_overhead(movetime_ms)
        if time_left_ms is not None:
            hard = min(hard, left_after_overhead(time_left_ms))
        h = _whole_ms(hard)
        return Budget(h, h, h, True)
    if time_left_ms is None:
        return UNLIMITED
    available = left_after_overhead(time_left_ms)
    inc = float(math.floor(max(inc_ms, 0.0)))
    sudden_death = movestogo is None or movestogo <= 0
    if sudden_death:
        available = max(available - max(SUDDEN_DEATH_RESERVE * overhead_ms - INCREMENT_RESERVE * inc, 0.0), 0.0)
    mtg = min(movestogo, MAX_MOVES_TO_GO) if movestogo is not None and movestogo > 0 else moves_to_go
    clock_share = LAST_MOVE_CLOCK_SHARE if mtg == 1 else HARD_CLOCK_SHARE
    inc_share = INCREMENT_SHARE
    reserve = min(INCREMENT_RESERVE * inc, RESERVE_FLOOR_MS + RESERVE_INCREMENTS * inc)
    if inc > 0.0 and available < reserve:
        inc_share *= available / reserve
    base = available / mtg + inc_share * inc
    # With movestogo == 1 there is nothing to save for: think up to the cap.
    hard = available * clock_share if mtg == 1 else min(base * HARD_OVER_SOFT, available * clock_share)
    soft = min(base, hard * SOFT_OVER_HARD) if mtg > 1 else hard * SOFT_OVER_HARD
    max_soft = min(soft * MAX_FACTOR, hard)
    h = _whole_ms(hard)
    s = min(_whole_ms(soft), h)
    m = max(min(_whole_ms(max_soft), h), s)
    return Budget(s, h, m, False)


def time_budget(
    *,
    time_left_ms: Optional[float] = None,
    inc_ms: float = 0,
    movestogo: Optional[int] = None,
    movetime_ms: Optional[float] = None,
    overhead_ms: float = DEFAULT_MOVE_OVERHEAD_MS,
    moves_to_go: int = DEFAULT_MOVES_TO_GO,
) -> Tuple[Optional[int], Optional[int], Optional[int], bool]:
    """The time manager's first decision for one move, before any iteration adjusts the
    target, as ``(soft_ms, max_soft_ms, hard_ms, fixed)`` (``None`` where there is no limit);
    arguments as UCI's ``go`` gives them for the side to move (``moves_to_go``: see
    ``allocate``)."""
    b = allocate(time_left_ms, inc_ms, movestogo, movetime_ms, overhead_ms, moves_to_go)

    def whole(x: Optional[float]) -> Optional[int]:
        return None if x is None else int(x)

    return whole(b.soft), whole(b.max_soft), whole(b.hard), b.fixed


class Iteration(NamedTuple):
    """What the adjustment needs of one finished iteration."""

    depth: int
    best_move: str
    # The score in centipawns; ``None`` for a mate score.
    score_cp: Optional[int]


def adjust(history: List[Iteration]) -> float:
    """Factor of the soft target after the iterations in ``history`` (oldest first): more
    time when the best move keeps changing or the score drops, less when the same move has
    been best for many iterations. Always within [MIN_FACTOR, MAX_FACTOR]."""
    if len(history) < 2:
        return 1.0
    recent = history[max(len(history) - (CHANGE_WINDOW + 1), 0) :]
    changes = sum(1 for a, b in zip(recent, recent[1:]) if a.best_move != b.best_move)
    factor = 1.0 + CHANGE_WEIGHT * changes
    prev, last = history[-2], history[-1]
    if prev.score_cp is not None and last.score_cp is not None and prev.score_cp - last.score_cp >= SCORE_DROP_CP:
        factor += SCORE_DROP_WEIGHT
    stable = 1
    for a, b in zip(reversed(history[:-1]), reversed(history[1:])):
        if a.best_move != b.best_move:
            break
        stable += 1
    if changes == 0 and stable >= STABLE_ITERATIONS and last.depth >= STABLE_MIN_DEPTH:
        factor *= STABLE_FACTOR
    return min(max(factor, MIN_FACTOR), MAX_FACTOR)


class TimeManagerLike(Protocol):
    """What ``Engine.search(..., time_manager=...)`` calls; times are milliseconds from the
    search's start. ``start`` is called once as the search starts and returns the hard cap
    (``None``: none); ``iteration`` after each finished iteration, ``True`` stops the
    search; ``ponderhit`` when the UCI ``ponderhit`` arrives during a ponder search (from
    another thread), returning a new hard cap (``None``: keep the current one) and whether
    to stop at once."""

    def start(self, *, only_move: bool, pondering: bool) -> Optional[float]: ...

    def iteration(self, *, depth: int, best_move: str, score_cp: Optional[int], elapsed_ms: float) -> bool: ...

    def ponderhit(self, *, elapsed_ms: float) -> Tuple[Optional[float], bool]: ...


class TimeManager:
    """The default time manager: a ``Budget`` (``allocate``) adjusted after each iteration
    (``adjust``), the "next iteration would not finish" rule, the only move played after one
    iteration, and a ponder search whose clock starts at ``ponderhit``."""

    def __init__(self, budget: Budget, *, adjust: bool = True) -> None:
        self.budget = budget
        # Whether the target is scaled by the iterations (``adjust``); off only for ablation.
        self.adjust = adjust
        self.history: List[Iteration] = []
        # The longest recent iteration (decayed), for the "will the next one finish" rule.
        self._last_iteration = 0.0
        self._last_elapsed = 0.0
        self._only_move = False
        self._pondering = False
        # The hard cap from the search's start (None: none, or still pondering).
        self._hard: Optional[float] = None

    @classmethod
    def from_clock(
        cls,
        *,
        time_left_ms: Optional[float] = None,
        inc_ms: float = 0,
        movestogo: Optional[int] = None,
        movetime_ms: Optional[float] = None,
        overhead_ms: Optional[float] = None,
        moves_to_go: int = DEFAULT_MOVES_TO_GO,
    ) -> TimeManager:
        """A manager for the clock of the side to move (or a fixed ``movetime_ms``). The
        overhead defaults to ``DEFAULT_MOVE_OVERHEAD_MS`` on a clock and to none for a move
        time, which is then used exactly; ``moves_to_go`` is the sudden-death horizon
        (``allocate``)."""
        overhead = _overhead(overhead_ms, time_left_ms)
        return cls(allocate(time_left_ms, inc_ms, movestogo, movetime_ms, overhead, moves_to_go))

    def target(self) -> Optional[float]:
        """The current target: the soft budget scaled by the iterations so far."""
        return self.budget.target(adjust(self.history) if self.adjust else 1.0)

    def start(self, *, only_move: bool, pondering: bool) -> Optional[float]:
        self.history = []
        self._last_iteration = self._last_elapsed = 0.0
        self._only_move = only_move
        self._pondering = pondering
        # A ponder search runs without a clock until ponderhit arms the cap.
        self._hard = None if pondering else self.budget.hard
        return self._hard

    def iteration(self, *, depth: int, best_move: str, score_cp: Optional[int], elapsed_ms: float) -> bool:
        took = max(elapsed_ms - self._last_elapsed, 0.0)
        self._last_elapsed = elapsed_ms
        self.history.append(Iteration(depth, best_move, score_cp))
        self._last_iteration = max(took, self._last_iteration / 4)
        if self._pondering or not self.budget.timed:
            return False
        return self._play_only_move() or self._stop_after_iteration(elapsed_ms)

    def ponderhit(self, *, elapsed_ms: float) -> Tuple[Optional[float], bool]:
        if not self._pondering:
            return None, False
        self._pondering = False
        # The cap counts from the ponderhit, the target from the search's start: a search
        # that has pondered long enough stops at once, with its last iteration's move.
        if self.budget.hard is not None:
            self._hard = elapsed_ms + self.budget.hard
        stop = (
            bool(self.history)
            and self.budget.timed
            and (self._play_only_move() or self._stop_after_iteration(elapsed_ms))
        )
        return self._hard, stop

    def _play_only_move(self) -> bool:
        """Only one legal move (among the root moves searched) on a clock: play it once an
        iteration has scored it. A fixed move time is used whole even then: it asks for an
        analysis of the move (its score, its line), as an analysis of a chosen move does."""
        return self._only_move and not self.budget.fixed

    def _stop_after_iteration(self, elapsed_ms: float) -> bool:
        """After a finished iteration, ``elapsed_ms`` after the start: stop rather than
        start the next one? Never for a fixed move time, which is used whole."""
        if self.budget.fixed or not self.history:
            return False
        target = self.target()
        if target is None:
            return False
        if elapsed_ms >= target * NEXT_ITERATION_SHARE:
            return True
        # The next iteration typically costs about twice the last one: do not start one that
        # cannot end before the hard limit.
        return self._hard is not None and self._last_iteration * 2 > max(self._hard - elapsed_ms, 0.0)


def for_search(
    *,
    time_left_ms: Optional[float] = None,
    inc_ms: Optional[float] = None,
    movestogo: Optional[int] = None,
    movetime_ms: Optional[float] = None,
    overhead_ms: Optional[float] = None,
    soft_ms: Optional[float] = None,
    hard_ms: Optional[float] = None,
) -> Optional[TimeManager]:
    """The default manager for ``Engine.search``'s arguments (the side to move's clock, a
    fixed move time, an explicit target and cap), or ``None`` when none of them is given."""
    if time_left_ms is None and movetime_ms is None and soft_ms is None and hard_ms is None:
        return None
    if time_left_ms is None and movetime_ms is None:
        budget = UNLIMITED
    else:
        budget = allocate(time_left_ms, inc_ms or 0.0, movestogo, movetime_ms, _overhead(overhead_ms, time_left_ms))
    # An explicit target replaces the budget's (and may grow); an explicit cap caps all.
    if soft_ms is not None:
        budget = Budget.explicit(_whole_ms(soft_ms), budget.hard)
    if hard_ms is not None:
        h = _whole_ms(hard_ms)
        if budget.soft is None:
            budget = Budget.explicit(None, h)
        budget = Budget(
            None if budget.soft is None else min(budget.soft, h),
            h if budget.hard is None else min(budget.hard, h),
            None if budget.max_soft is None else min(budget.max_soft, h),
            budget.fixed,
        )
    return TimeManager(budget)
