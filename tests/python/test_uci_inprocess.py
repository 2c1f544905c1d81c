"""The UCI front end in-process, on the fake engine of fake_engine.py: races and ordering
that are hard to provoke through a pipe (stop before the search starts, deferred options,
strength-limited move choice)."""

from __future__ import annotations

import random
import time
from types import SimpleNamespace

import kibitz
from fake_engine import FakeEngine
from kibitz.uci import strength
from kibitz.uci import UciEngine
from uci_session import Out


def session(engine_cls=FakeEngine):
    out = Out()
    s = UciEngine(out, engine_factory=engine_cls, rng=random.Random(1))
    return s, out


def wait_done(s):
    job = s._job
    assert job is not None
    assert job.done.wait(10)


def test_stop_right_after_go_gives_one_bestmove():
    for _ in range(20):
        s, out = session()
        s.handle("go infinite")
        s.handle("stop")
        wait_done(s)
        assert len(out.bestmoves()) == 1


def test_deferred_options_apply_at_the_isready_after_the_search():
    s, out = session()
    s.handle("go depth 1")
    wait_done(s)
    s.handle("go infinite")
    s.handle("setoption name Hash value 64")
    assert s._engine.hash_mb == 16
    s.handle("stop")
    wait_done(s)
    assert s._engine.hash_mb == 16  # not yet: a go with a clock may come next
    s.handle("isready")
    assert s._engine.hash_mb == 64


def test_ponderhit_after_search_finished_answers_at_once():
    s, out = session()
    s.handle("setoption name OwnBook value false")
    s.handle("go ponder depth 1")
    time.sleep(0.1)
    assert not out.bestmoves()
    s.handle("ponderhit")
    wait_done(s)
    assert len(out.bestmoves()) == 1


def test_quit_stops_search_and_returns_false():
    s, out = session()
    s.handle("go infinite")
    assert s.handle("quit") is False
    assert len(out.bestmoves()) == 1


def line(cp, move, mate=None):
    return SimpleNamespace(score_cp=cp, mate=mate, pv=[move])


def test_strength_choice_follows_temperature():
    lines = [line(50, "a"), line(20, "b"), line(-200, "c")]
    weak, strong = strength.level_for(1000), strength.level_for(2400)
    rng = random.Random(5)
    weak_picks = [strength.choose(lines, weak, rng) for _ in range(2000)]
    strong_picks = [strength.choose(lines, strong, rng) for _ in range(2000)]
    assert weak_picks.count(0) > weak_picks.count(1) > weak_picks.count(2)
    assert weak_picks.count(1) > 400  # 30 cp worse: often played at 1000
    assert strong_picks.count(0) > 1900  # and almost never at 2400
    assert strong_picks.count(2) == 0
    # a mate is always preferred by a strong level; a mated line never chosen over cp lines
    assert strength.choose([line(None, "m", mate=2), line(900, "x")], strong, rng) == 0
    assert all(strength.choose([line(-50, "x"), line(None, "m", mate=-1)], weak, rng) == 0 for _ in range(50))


def test_levels_monotonic():
    levels = [strength.level_for(e) for e in range(1000, 2401, 50)]
    assert all(a.nodes <= b.nodes for a, b in zip(levels, levels[1:]))
    assert all(a.temperature_cp >= b.temperature_cp for a, b in zip(levels, levels[1:]))
    assert strength.level_for(10).elo == 1000 and strength.level_for(9999).elo == 2400


def test_real_engine_in_process():
    s, out = session(kibitz.Engine)
    s.handle("setoption name OwnBook value false")
    s.handle("position startpos moves e2e4")
    s.handle("go depth 4")
    wait_done(s)
    best = out.bestmoves()
    after = kibitz.Board()
    after.push_uci("e2e4")
    assert len(best) == 1 and best[0].split()[1] in after.legal_moves_uci()
