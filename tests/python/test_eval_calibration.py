"""tools/eval_calibration.py: the pairs of the named engine's score and its opponent's next
score are taken from the engine's side, only where both plies carry a score; the fitted line,
the optimism groups and the bands are computed from them."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import eval_calibration as ec  # noqa: E402


def game(white: str, black: str, result: str, movetext: str) -> str:
    return f'[White "{white}"]\n[Black "{black}"]\n[Result "{result}"]\n\n{movetext} {result}\n\n'


def test_pairs_take_the_named_engines_side_and_skip_missing_or_mate_scores(tmp_path: Path) -> None:
    pgn = tmp_path / "m.pgn"
    pgn.write_text(
        # kibitz is White and wins: plies 1 (its own, +0.30 -> the reply's -0.10 from White's
        # side) and 3 (+0.50, reply #-3 is a mate: left out).
        game(
            "kibitz-x",
            "Other",
            "1-0",
            "1. e4 { [%eval 0.30,12] } 1... e5 { [%eval -0.10,11] } 2. Nf3 { [%eval 0.50,12] } "
            "2... Nc6 { [%eval #-3,9] } 3. Bb5 { [%eval 0.2,10] }",
        )
        # kibitz is Black and loses: ply 2 (-0.40 from White's side is +40 for kibitz; the
        # reply's 1.00 is -100), ply 4 has no reply score; ply 1 is the opponent's.
        + game(
            "Other",
            "kibitz-x",
            "1-0",
            "1. d4 { [%eval 0.20,12] } 1... d5 { [%eval -0.40,11] } 2. c4 { [%eval 1.00,12] } "
            "2... e6 { [%eval 0.10,12] } 3. Nc3",
        )
        # An unfinished game counts for nothing.
        + game("kibitz-x", "Other", "*", "1. e4 { [%eval 0.30,12] } 1... e5 { [%eval -0.10,11] }"),
        encoding="utf-8",
    )
    got = ec.pairs([str(pgn)], "kibitz", 1, 100, 600)
    assert got == [ec.Pair(30.0, -10.0, 1.0), ec.Pair(40.0, -100.0, 0.0)]
    # The ply window applies to the engine's move.
    assert ec.pairs([str(pgn)], "kibitz", 2, 100, 600) == [ec.Pair(40.0, -100.0, 0.0)]
    # So does the clamp, to either score of a pair.
    assert ec.pairs([str(pgn)], "kibitz", 1, 100, 50) == [ec.Pair(30.0, -10.0, 1.0)]
    with pytest.raises(SystemExit, match=r"a game without an engine named nobody\*: kibitz-x - Other"):
        ec.pairs([str(pgn)], "nobody", 1, 100, 600)


def test_fit_recovers_a_known_line_and_refuses_a_degenerate_one() -> None:
    ps = [ec.Pair(x, 0.9 * x - 66, 0.5) for x in (-200.0, -50.0, 0.0, 30.0, 120.0)]
    a, b = ec.fit(ps)
    assert a == pytest.approx(0.9) and b == pytest.approx(-66)
    with pytest.raises(ValueError, match="at least two pairs"):
        ec.fit(ps[:1])
    with pytest.raises(ValueError, match="no line to fit"):
        ec.fit([ec.Pair(10.0, 0.0, 1.0), ec.Pair(10.0, 5.0, 0.0)])


def test_report_groups_and_bands() -> None:
    ps = [
        ec.Pair(0.0, -100.0, 0.0),  # more optimistic by 100: lost
        ec.Pair(20.0, -60.0, 0.5),  # more optimistic by 80: drawn
        ec.Pair(-100.0, 0.0, 1.0),  # less optimistic by 100: won
        ec.Pair(200.0, 180.0, 1.0),  # within 50
    ]
    text = ec.report(ps, "kibitz")
    lines = text.splitlines()
    more = next(line for line in lines if line.startswith("kibitz more optimistic"))
    assert " 2 pairs" in more and "kibitz's game score 0.250" in more
    less = next(line for line in lines if line.startswith("kibitz less optimistic"))
    assert " 1 pairs" in less and "score 1.000" in less
    # The level band by kibitz's scores holds 0 and 20 (0.25); by the opponent's, only 0 (1.0).
    level = next(line for line in lines if line.strip().startswith("-50 to +50"))
    assert level.split("|")[1].split() == ["2", "0.250"]
    assert level.split("|")[2].split() == ["1", "1.000"]
    top = next(line for line in lines if line.strip().startswith("+150 and above"))
    assert top.split("|")[1].split() == ["1", "1.000"] and top.split("|")[2].split() == ["1", "1.000"]


def test_command_line_refuses_a_bad_window_and_too_few_pairs(tmp_path: Path, capsys) -> None:
    pgn = tmp_path / "m.pgn"
    pgn.write_text(game("kibitz-x", "Other", "1-0", "1. e4 { [%eval 0.30,12] } 1... e5"), encoding="utf-8")
    with pytest.raises(SystemExit):
        ec.main([str(pgn), "--engine", "kibitz", "--plies", "80-20"])
    assert "--plies: FIRST-LAST" in capsys.readouterr().err
    assert ec.main([str(pgn), "--engine", "kibitz"]) == 1
    assert "fewer than two pairs" in capsys.readouterr().err
