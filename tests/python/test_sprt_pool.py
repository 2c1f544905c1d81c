"""tools/sprt_pool.py against match.py's own figures: for each sequential-test log kept in
benches/results, pooling that one log must give the LLR match.py printed after its last game
(match.py is the independent reference: the tool that played the games)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LOGS = sorted((ROOT / "benches" / "results").glob("sprt-*.log"))
# The bounds: match.py's closing "SPRT elo0=.. elo1=.." line, or for a run stopped by hand a
# "# sequential test: --sprt ELO0 ELO1" comment.
NUM = r"([+-]?\d+(?:\.\d+)?)"
BOUNDS = re.compile(rf"^(?:SPRT elo0={NUM} elo1={NUM} |# sequential test: --sprt {NUM} {NUM})")
LAST = re.compile(r"^game\s+\d+/\d+: (\S+) - (\S+) .*\| (\S+) \+\d+=\d+-\d+\s+LLR ([+-]\d+\.\d+)")


def last_game(path: Path) -> tuple[str, float]:
    found = None
    for line in path.read_text(encoding="utf-8").splitlines():
        m = LAST.match(line)
        if m:
            found = (m.group(3), float(m.group(4)))
    assert found is not None, f"{path.name}: no game line with an LLR"
    return found


def bounds(path: Path) -> list[str]:
    """The Elo bounds the log says its test ran with (match.py's header does not), else
    match.py's default [0, 10]."""
    for line in path.read_text(encoding="utf-8").splitlines():
        m = BOUNDS.match(line)
        if m:
            lo, hi = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
            return ["--elo0", lo, "--elo1", hi]
    return []


def pool(engine: str, *logs: Path) -> str:
    """What tools/sprt_pool.py prints for these logs."""
    return subprocess.run(
        [sys.executable, str(ROOT / "tools" / "sprt_pool.py"), engine, *map(str, logs), *bounds(logs[0])],
        capture_output=True,
        text=True,
        check=True,
    ).stdout


@pytest.mark.parametrize("log", LOGS, ids=[p.name for p in LOGS])
def test_one_log_pooled_gives_match_py_s_llr(log: Path) -> None:
    engine, llr = last_game(log)
    out = pool(engine, log)
    m = re.search(r"LLR ([+-]\d+\.\d+)", out)
    assert m is not None, out
    assert abs(float(m.group(1)) - llr) <= 0.011, (out, llr)


def test_two_logs_pool_their_pairs() -> None:
    # The same log twice: twice the pairs, the same score, twice the LLR.
    log = ROOT / "benches" / "results" / "sprt-corr-5+0.05.log"
    engine, llr = last_game(log)
    one = pool(engine, log)
    two = pool(engine, log, log)
    n1 = int(re.search(r"(\d+) pairs", one).group(1))  # type: ignore[union-attr]
    n2 = int(re.search(r"(\d+) pairs", two).group(1))  # type: ignore[union-attr]
    l2 = float(re.search(r"LLR ([+-]\d+\.\d+)", two).group(1))  # type: ignore[union-attr]
    assert n2 == 2 * n1
    assert abs(l2 - 2 * llr) <= 0.03
