"""tools/record_log.py: match.py's printed output made into the log kept in benches/results.

The raw input is rebuilt from a log kept in the repository (match.py's own game lines), with
the parts match.py prints that must not be kept (the openings' path on the machine that
played, a Ctrl-C traceback) put back in; the record must keep every game line unchanged,
carry the bounds, and pool (tools/sprt_pool.py) to the LLR match.py printed after its last
game."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
KEPT = ROOT / "benches" / "results" / "sprt-se-f7a37b0-5+0.05.run2.log"
sys.path.insert(0, str(ROOT / "tools"))

from record_log import record  # noqa: E402

TRACEBACK = """Traceback (most recent call last):
  File "/usr/lib/python3.11/asyncio/runners.py", line 123, in run
    raise KeyboardInterrupt()
KeyboardInterrupt
"""


def raw_from_kept() -> tuple[str, list[str]]:
    lines = KEPT.read_text(encoding="utf-8").splitlines()
    games = [l for l in lines if l.startswith("game ")]
    head = lines[0].replace(
        "openings balanced_8ply.pgn (the shared balanced openings)",
        "openings /home/someone/shared/data/openings/balanced_8ply.pgn",
    )
    return "\n".join([head, *games]) + "\n" + TRACEBACK, games


def test_a_stopped_run_keeps_its_games_names_its_bounds_and_pools_to_match_pys_llr(tmp_path: Path) -> None:
    raw, games = raw_from_kept()
    text = record(raw, ("0", "5"), "singular extensions,\n  a second run")
    lines = text.splitlines()
    assert lines[0].endswith("openings balanced_8ply.pgn (209 available, order random, seed 63)")
    assert lines[1] == "# sequential test: --sprt 0 5" and lines[2] == "# singular extensions, a second run"
    assert [l for l in lines if l.startswith("game ")] == games
    assert "Traceback" not in text and "KeyboardInterrupt" not in text and "/home" not in text
    out = tmp_path / "sprt-x.log"
    out.write_text(text, encoding="utf-8")
    pooled = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "sprt_pool.py"), "--elo0", "0", "--elo1", "5", "se-", str(out)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    # match.py's LLR after the game that completed the most games.
    tallies = [re.search(r"\+(\d+)=(\d+)-(\d+)\s+LLR ([+-]\d+\.\d+)", g) for g in games]
    last = max((m for m in tallies if m), key=lambda m: sum(int(m.group(i)) for i in (1, 2, 3)))
    assert f"LLR {last.group(4)} " in pooled, pooled


def test_a_match_without_a_sequential_test_has_no_bounds_line() -> None:
    raw, games = raw_from_kept()
    lines = record(raw, None, "against another engine, stopped by hand").splitlines()
    assert lines[0].endswith("openings balanced_8ply.pgn (209 available, order random, seed 63)")
    assert lines[1] == "# against another engine, stopped by hand"
    assert not any(l.startswith("# sequential test") for l in lines)
    assert [l for l in lines if l.startswith("game ")] == games and "Traceback" not in "\n".join(lines)


def test_a_finished_run_keeps_match_pys_summary() -> None:
    raw, _ = raw_from_kept()
    raw = raw.replace(TRACEBACK, "")
    summary = [
        "Score of se-f7a37b0 vs main-f7a37b0: 116 - 61 - 267  [0.562] 444 games",
        "Elo difference: +43.3 +/- 19.2 (95%, trinomial), LOS: 100.0 %",
        "SPRT elo0=0 elo1=5 alpha=0.05 beta=0.05: LLR 2.19 (-2.94, 2.94)",
        "se-f7a37b0: illegal moves 0, time forfeits 0, crashes 0",
        "Terminations: checkmate x200",
    ]
    text = record(raw + "\n" + "\n".join(summary) + "\n", ("0", "5"), "done")
    assert text.splitlines()[-len(summary) :] == summary


@pytest.mark.parametrize(
    ("raw", "why"),
    [
        ("# a vs b 5+0.05: 2 games\n", "no game lines"),
        ("game    1/2: a - b  1-0  10 plies\n", "no match.py header"),
    ],
)
def test_a_log_without_header_or_games_is_refused(raw: str, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        record(raw, ("0", "5"), "x")


def test_a_path_of_the_machine_is_refused(tmp_path: Path) -> None:
    raw, _ = raw_from_kept()
    with pytest.raises(ValueError, match="path of this machine"):
        record(raw, ("0", "5"), "the wheel in /tmp/whl-x/")
    # The command line refuses it too, with a message and exit status 2, and writes nothing.
    src = tmp_path / "raw.txt"
    src.write_text(raw, encoding="utf-8")
    out = tmp_path / "out.log"
    r = subprocess.run(
        [
            sys.executable,
            str(ROOT / "tools" / "record_log.py"),
            str(src),
            str(out),
            "--sprt",
            "0",
            "5",
            "--comment",
            "from /tmp/whl-x/",
        ],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 2 and "path of this machine" in r.stderr and not out.exists()
