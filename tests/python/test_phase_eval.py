"""tools/phase_eval.py: the judge's score is taken from the named engine's side, at the plies
asked for, over the games that reach them (Stockfish as the judge; skipped without it)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import phase_eval  # noqa: E402
from test_perftdiff import STOCKFISH, needs_stockfish  # noqa: E402

pytestmark = needs_stockfish

# White has a queen more, and still has after 1. Ke2 Kc7 (2 plies) and 2. Ke3 (3).
UP_A_QUEEN = "3k4/8/8/8/8/8/8/3QK3 w - - 0 1"


def game(white: str, black: str, moves: str) -> str:
    return f'[White "{white}"]\n[Black "{black}"]\n[Result "*"]\n[SetUp "1"]\n[FEN "{UP_A_QUEEN}"]\n\n{moves} *\n\n'


def test_scores_are_from_the_named_engines_side_at_the_plies_reached(tmp_path: Path) -> None:
    pgn = tmp_path / "m.pgn"
    # kibitz has the queen in the first game and faces it in the second; the second game
    # ends before ply 3.
    pgn.write_text(
        game("kibitz-x", "Other", "1. Ke2 Kc7 2. Ke3") + game("Other", "kibitz-x", "1. Ke2 Kc7"),
        encoding="utf-8",
    )
    table = phase_eval.scores([str(pgn)], "kibitz", STOCKFISH, depth=8, plies=[2, 3])
    assert len(table[2]) == 2 and len(table[3]) == 1
    first, second = table[2]
    assert first > 500 and second < -500, table
    assert table[3][0] > 500


def test_a_game_without_the_engine_is_an_error(tmp_path: Path) -> None:
    pgn = tmp_path / "m.pgn"
    pgn.write_text(game("A", "B", "1. Ke2"), encoding="utf-8")
    with pytest.raises(SystemExit, match="a game without an engine named kibitz"):
        phase_eval.scores([str(pgn)], "kibitz", STOCKFISH, depth=4, plies=[1])
