"""The engine's time budget (Rust, engine::timeman, through kibitz._core.time_budget):
budgets never exceed the clock, simulated games never lose on time. The adjustments after
each iteration are unit-tested in the Rust module; the search's use of them by the UCI
tests (test_uci*.py) and the time-forfeit matches recorded in benches/results."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Optional

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from kibitz._core import DEFAULT_MOVE_OVERHEAD_MS, time_budget

INCREMENT_SHARE = 0.75  # engine::timeman::INCREMENT_SHARE


def allocate(
    *,
    time_left_ms: Optional[int] = None,
    inc_ms: int = 0,
    movestogo: Optional[int] = None,
    movetime_ms: Optional[int] = None,
    overhead_ms: int = DEFAULT_MOVE_OVERHEAD_MS,
) -> SimpleNamespace:
    soft, max_soft, hard, fixed = time_budget(
        time_left_ms=time_left_ms, inc_ms=inc_ms, movestogo=movestogo, movetime_ms=movetime_ms, overhead_ms=overhead_ms
    )
    return SimpleNamespace(soft_ms=soft, max_soft_ms=max_soft, hard_ms=hard, fixed=fixed, timed=hard is not None)


clock_ms = st.integers(min_value=-100, max_value=10_000_000)
inc_ms = st.integers(min_value=0, max_value=60_000)
overhead_ms = st.integers(min_value=0, max_value=5000)
mtg = st.one_of(st.none(), st.integers(min_value=-5, max_value=500))


@settings(max_examples=2000, deadline=None)
@given(clock_ms, inc_ms, mtg, overhead_ms)
def test_budget_never_exceeds_time_left_minus_overhead(time_left, inc, movestogo, overhead):
    b = allocate(time_left_ms=time_left, inc_ms=inc, movestogo=movestogo, overhead_ms=overhead)
    assert b.hard_ms is not None and b.soft_ms is not None and b.max_soft_ms is not None
    limit = max(0, time_left - overhead)
    assert 0 <= b.soft_ms <= b.max_soft_ms <= b.hard_ms <= limit


@settings(max_examples=500, deadline=None)
@given(st.integers(min_value=0, max_value=1_000_000), overhead_ms, st.one_of(st.none(), clock_ms))
def test_movetime_budget(movetime, overhead, time_left):
    b = allocate(movetime_ms=movetime, overhead_ms=overhead, time_left_ms=time_left)
    expected = max(0, movetime - overhead)
    if time_left is not None:
        expected = min(expected, max(0, time_left - overhead))
    assert b.fixed and b.soft_ms == b.hard_ms == expected


def test_no_clock_is_unlimited():
    b = allocate()
    assert not b.timed and b.soft_ms is None and b.max_soft_ms is None and not b.fixed


def test_increment_adds_time_and_movestogo_divides():
    base = allocate(time_left_ms=60_000)
    with_inc = allocate(time_left_ms=60_000, inc_ms=1000)
    assert with_inc.soft_ms > base.soft_ms
    few = allocate(time_left_ms=60_000, movestogo=5)
    many = allocate(time_left_ms=60_000, movestogo=40)
    assert few.soft_ms > many.soft_ms
    last = allocate(time_left_ms=60_000, movestogo=1)
    assert last.hard_ms > few.hard_ms
    assert last.hard_ms <= 60_000 - DEFAULT_MOVE_OVERHEAD_MS


def test_typical_figures():
    # 10+0.1 at the start: 9970/25 + 75 = 473.8 ms target, 4x for the hard cap.
    b = allocate(time_left_ms=10_000, inc_ms=100, overhead_ms=30)
    assert b.soft_ms == 473 and b.hard_ms == 1895
    # 1+0.01: 970/25 + 7.5, about 46 ms.
    b = allocate(time_left_ms=1000, inc_ms=10, overhead_ms=30)
    assert 40 <= b.soft_ms <= 50


# The clock simulations' controls: base time up to 10 minutes, increment up to 5 s, Move
# Overhead 1-200 ms.
CONTROL = dict(
    base_ms=st.integers(min_value=1, max_value=600_000),
    inc=st.integers(min_value=0, max_value=5000),
    overhead=st.integers(min_value=1, max_value=200),
)


@settings(max_examples=300, deadline=None)
@given(**CONTROL, latency_share=st.floats(min_value=0.0, max_value=1.0))
def test_sudden_death_never_loses_on_time(base_ms, inc, overhead, latency_share):
    """A 300-move game in which every move uses its whole hard budget and then loses to
    latency up to the Move Overhead (and no more than the increment brings back, else
    any clock runs out with enough moves) never lets the clock reach zero."""
    assume(base_ms > overhead)  # a control that gives less than the latency is lost at once
    clock = float(base_ms)
    latency = latency_share * min(overhead, inc)
    for _ in range(300):
        b = allocate(time_left_ms=int(clock), inc_ms=inc, overhead_ms=overhead)
        clock -= b.hard_ms + latency
        assert clock > 0
        clock += inc


@settings(max_examples=300, deadline=None)
@given(**CONTROL, movestogo=st.integers(min_value=1, max_value=60))
def test_repeating_control_never_loses_on_time(base_ms, inc, overhead, movestogo):
    """Moves-in-period controls (e.g. 40 moves in 5 minutes, repeating): every move uses
    its whole hard budget, and each leaves at least the overhead on the clock."""
    clock = base_ms
    left = movestogo
    for _ in range(200):
        b = allocate(time_left_ms=clock, inc_ms=inc, movestogo=left, overhead_ms=overhead)
        assert clock - b.hard_ms >= min(clock, overhead)
        clock -= b.hard_ms
        assert clock > 0
        clock += inc
        left -= 1
        if left == 0:
            clock += base_ms
            left = movestogo


@pytest.mark.parametrize("time_left", [0, 1, 29, 30])
def test_no_time_left_gives_zero_budget(time_left):
    b = allocate(time_left_ms=time_left, overhead_ms=30)
    assert b.hard_ms == 0 and b.soft_ms == 0


def test_low_clock_spends_less_than_the_increment():
    # At 1s+0.01s a clock down to 130 ms must be rebuilt: the target stays under the
    # increment, so the clock grows back instead of settling near zero.
    b = allocate(time_left_ms=130, inc_ms=10, overhead_ms=30)
    assert b.soft_ms < 10 * INCREMENT_SHARE
    high = allocate(time_left_ms=5000, inc_ms=10, overhead_ms=30)
    assert high.soft_ms >= 10 * INCREMENT_SHARE
