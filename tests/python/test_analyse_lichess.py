"""`kibitz analyse`'s figures against lichess's computations, and its PGN reader against
python-chess on the endings and suffixes pasted games have.

References: lichess's formulas (lila's WinPercent, AccuracyPercent.gameAccuracy and Advice,
with scalalib's Maths helpers) are written out here a second time, from their definitions and
independently of kibitz.analysis.judgement, and compared with the package's figures on
hand-made score sequences and on the records of a real (small) analysis; python-chess's
``chess.pgn.read_game`` reads the same PGN text as ``kibitz.read_games`` and ``kibitz
analyse``.
"""

from __future__ import annotations

import gzip
import io
import json
import math
import random
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any, Optional

import pytest

import kibitz
from pgn_reference import python_chess_games
from kibitz.analysis import judgement

# ---------------------------------------------------------------- the reference


def ref_white_cp(score: dict[str, int], white_to_move: bool) -> int:
    """White's centipawns as lichess counts them for Win%: cp clamped to +-1000, a mate
    +-1000 by who mates, a mated side to move (mate 0) -1000 for that side."""
    if "cp" in score:
        return min(1000, max(-1000, score["cp"]))
    m = score["mate"]
    if m == 0:
        return -1000 if white_to_move else 1000
    return 1000 if m > 0 else -1000


def ref_win_percent(score: dict[str, int], white_to_move: bool) -> float:
    cp = ref_white_cp(score, white_to_move)
    return 50 + 50 * (2 / (1 + math.exp(-0.00368208 * cp)) - 1)


def ref_accuracy(before: float, after: float) -> float:
    """lichess's move accuracy from the mover's Win% before and after, with its +1."""
    if after >= before:
        return 100.0
    raw = 103.1668100711649 * math.exp(-0.04354415386753951 * (before - after)) - 3.166924740191411
    return min(100.0, max(0.0, raw + 1))


def ref_game_accuracy(scores: list[dict[str, int]], white_first: bool) -> tuple[Optional[float], Optional[float]]:
    """lichess's gameAccuracy for the White's-side scores of the positions after each ply."""
    wins = [50 + 50 * (2 / (1 + math.exp(-0.00368208 * 15)) - 1)]  # the start counts as 15 cp
    white_to_move = not white_first  # after the first ply
    for s in scores:
        wins.append(ref_win_percent(s, white_to_move))
        white_to_move = not white_to_move
    size = min(8, max(2, len(scores) // 10))
    windows = [wins[:size] for _ in range(min(size, len(wins)) - 2)]
    if len(wins) >= size:
        windows += [wins[i : i + size] for i in range(len(wins) - size + 1)]
    else:
        windows.append(wins)
    weights = [min(12.0, max(0.5, statistics.pstdev(w))) for w in windows]
    per_side: dict[bool, list[tuple[float, float]]] = {True: [], False: []}
    for i in range(min(len(wins) - 1, len(weights))):
        white = (i % 2 == 0) == white_first
        if white:
            acc = ref_accuracy(wins[i], wins[i + 1])
        else:
            acc = ref_accuracy(100 - wins[i], 100 - wins[i + 1])
        per_side[white].append((acc, weights[i]))
    out: list[Optional[float]] = []
    for white in (True, False):
        pairs = per_side[white]
        if not pairs:
            out.append(None)
            continue
        weighted = sum(a * w for a, w in pairs) / sum(w for _, w in pairs)
        harmonic = len(pairs) / sum(1 / max(1.0, a) for a, _ in pairs)
        out.append((weighted + harmonic) / 2)
    return out[0], out[1]


def ref_judgement(before: dict[str, int], after: dict[str, int], white_moved: bool) -> Optional[str]:
    """lila's Advice (modules/tree Advice.scala): CpAdvice on the winning chances of the
    centipawns as they are (no ceiling there), MateAdvice from the mover's side."""
    sign = 1 if white_moved else -1
    if "cp" in before and "cp" in after:

        def chances(cp: int) -> float:
            return 2 / (1 + math.exp(-0.00368208 * cp)) - 1

        delta = sign * (chances(before["cp"]) - chances(after["cp"]))
        for limit, name in ((0.3, "blunder"), (0.2, "mistake"), (0.1, "inaccuracy")):
            if delta >= limit:
                return name
        return None
    # The mover's view: ("cp", n), ("mate", n) with n != 0, or the mate already given.
    b = ("cp", sign * before["cp"]) if "cp" in before else ("mate", sign * before["mate"])
    if "cp" in after:
        a: tuple[str, int] = ("cp", sign * after["cp"])
    elif after["mate"] == 0:
        a = ("given", 0)  # the opponent, to move, is mated
    else:
        a = ("mate", sign * after["mate"])
    cp_before = b[1] if b[0] == "cp" else 0
    cp_after = a[1] if a[0] == "cp" else 0
    if b[0] == "cp" and a[0] == "mate" and a[1] < 0:
        return "inaccuracy" if cp_before < -999 else "mistake" if cp_before < -700 else "blunder"
    if b[0] == "mate" and b[1] > 0 and (a[0] == "cp" or (a[0] == "mate" and a[1] < 0)):
        return "inaccuracy" if cp_after > 999 else "mistake" if cp_after > 700 else "blunder"
    return None


# ---------------------------------------------------------------- hand-made scores


CPS = [-3000, -1200, -1001, -1000, -999, -800, -701, -700, -650, -300, -50, 0, 15, 40, 300, 650, 700, 701, 800]
CPS += [999, 1000, 1001, 2500, 40000, -40000]
MATES = [-5, -1, 1, 4]


def test_win_percent_counts_a_mate_as_1000_centipawns():
    for cp in CPS:
        for white_to_move in (True, False):
            s = {"cp": cp}
            assert judgement.win_percent(s, white_to_move) == pytest.approx(ref_win_percent(s, white_to_move), abs=1e-9)
            assert judgement.win_probability(s, white_to_move) == pytest.approx(ref_win_percent(s, white_to_move) / 100)
    for m in MATES + [0]:
        for white_to_move in (True, False):
            s = {"mate": m}
            expected = ref_win_percent(s, white_to_move)
            assert judgement.win_percent(s, white_to_move) == pytest.approx(expected, abs=1e-9)
            assert judgement.win_probability(s, white_to_move) == pytest.approx(expected / 100, abs=1e-12)
    # lichess's mate is 1000 centipawns: Win% 97.5 / 2.5, not 100 / 0.
    assert judgement.win_percent({"mate": 3}, True) == pytest.approx(97.54, abs=0.01)
    assert judgement.win_percent({"mate": -1}, False) == pytest.approx(2.46, abs=0.01)
    assert judgement.win_percent({"mate": 0}, True) == pytest.approx(2.46, abs=0.01)  # White is mated
    assert judgement.win_percent({"mate": 0}, False) == pytest.approx(97.54, abs=0.01)


def test_move_accuracy_has_lichess_uncertainty_bonus():
    for loss in [0.0, 1e-6, 0.001, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 0.9, 0.95, 1.0]:
        assert judgement.move_accuracy(loss) == pytest.approx(ref_accuracy(100.0, 100.0 - 100 * loss), abs=1e-9)
    assert judgement.move_accuracy(0.2) == pytest.approx(
        103.1668100711649 * math.exp(-0.04354415386753951 * 20) - 3.166924740191411 + 1
    )


def test_judgements_follow_lichess_advice_around_mates():
    scores = [{"cp": c} for c in CPS] + [{"mate": m} for m in MATES]
    afters = scores + [{"mate": 0}]
    for white_moved in (True, False):
        for before in scores:
            for after in afters:
                got = judgement.judgement(before, after, white_moved)
                assert got == ref_judgement(before, after, white_moved), (before, after, white_moved)
    cases = [
        # A mate created against the mover: by how lost the mover already was.
        ({"cp": -1000}, {"mate": -3}, True, "inaccuracy"),
        ({"cp": -750}, {"mate": -3}, True, "mistake"),
        ({"cp": -700}, {"mate": -3}, True, "blunder"),
        ({"cp": 0}, {"mate": -1}, True, "blunder"),
        ({"cp": 1200}, {"mate": 2}, False, "inaccuracy"),  # Black was 12 pawns down
        ({"cp": -300}, {"mate": 2}, False, "blunder"),
        # A mate lost: by how much the mover still has after it.
        ({"mate": 2}, {"cp": 1200}, True, "inaccuracy"),
        ({"mate": 2}, {"cp": 800}, True, "mistake"),
        ({"mate": 2}, {"cp": 100}, True, "blunder"),
        ({"mate": 2}, {"mate": -1}, True, "blunder"),
        ({"mate": -2}, {"cp": -750}, False, "mistake"),
        # Mates delayed, kept, given, suffered: nothing to mark.
        ({"mate": 2}, {"mate": 3}, True, None),
        ({"mate": -2}, {"mate": -1}, True, None),
        ({"mate": 1}, {"mate": 0}, True, None),
        ({"mate": -1}, {"mate": 0}, False, None),
        ({"cp": 5}, {"mate": 0}, True, None),
        ({"cp": 50}, {"mate": 4}, True, None),
        # Centipawns as they are: lila's newest Advice does not ceil them at 1000.
        ({"cp": 2500}, {"cp": 700}, True, "inaccuracy"),
        ({"cp": 50}, {"cp": -300}, True, "blunder"),
    ]
    for before, after, white_moved, expected in cases:
        assert judgement.judgement(before, after, white_moved) == expected, (before, after, white_moved)
        assert ref_judgement(before, after, white_moved) == expected, (before, after, white_moved)


def random_scores(rng: random.Random, n: int) -> list[dict[str, int]]:
    out = []
    for _ in range(n):
        r = rng.random()
        if r < 0.08:
            out.append({"mate": rng.choice([-3, -1, 1, 2, 6])})
        else:
            out.append({"cp": int(rng.gauss(0, 400 if r < 0.5 else 1500))})
    return out


SEQUENCES = [
    (True, [{"cp": -80}]),
    (False, [{"cp": -80}]),
    (True, [{"cp": 40}, {"cp": 900}]),
    (False, [{"cp": 40}, {"mate": 1}]),
    (True, [{"cp": 40}, {"mate": 1}, {"mate": 0}]),
    (True, [{"cp": -13}, {"mate": -1}, {"mate": 0}]),
    (False, [{"cp": -20}, {"mate": 2}, {"mate": 1}, {"mate": 0}]),
    (True, [{"cp": 30}, {"cp": -250}, {"cp": 400}, {"mate": 3}, {"cp": 50}, {"mate": -2}, {"mate": -1}, {"mate": 0}]),
]


@pytest.mark.parametrize("white_first, scores", SEQUENCES + [(f, []) for f in (True, False)])
def test_game_accuracy_is_lichess_game_accuracy(white_first, scores):
    got = judgement.game_accuracy(scores, white_first)
    expected = ref_game_accuracy(scores, white_first)
    for g, e in zip(got, expected):
        assert (g is None) == (e is None), (got, expected)
        if e is not None:
            assert g == pytest.approx(e, abs=1e-9)


def test_game_accuracy_on_long_games_of_every_window_size():
    rng = random.Random(20240611)
    for n in (4, 9, 10, 19, 20, 21, 33, 45, 59, 80, 81, 99, 150):
        for white_first in (True, False):
            scores = random_scores(rng, n)
            got = judgement.game_accuracy(scores, white_first)
            expected = ref_game_accuracy(scores, white_first)
            assert got[0] == pytest.approx(expected[0], abs=1e-9) and got[1] == pytest.approx(expected[1], abs=1e-9)
    # Not a plain mean: one blunder among steady moves weighs by the game's volatility.
    scores = [{"cp": 20}] * 20 + [{"cp": -900}] + [{"cp": -900}] * 9
    white, _ = judgement.game_accuracy(scores, True)
    assert white is not None and white < 90


def test_bad_scores_are_value_errors():
    for bad in ({}, {"cp": "12"}, {"mate": 1.5}, {"cp": True}, {"cp": 1, "mate": 2}, None, {"cp": float("nan")}):
        with pytest.raises(ValueError):
            judgement.win_percent(bad, True)  # type: ignore[arg-type]
        with pytest.raises(ValueError):
            judgement.judgement({"cp": 0}, bad, True)  # type: ignore[arg-type]
        with pytest.raises(ValueError):
            judgement.game_accuracy([{"cp": 0}, bad], True)  # type: ignore[list-item]


# ---------------------------------------------------------------- real records

GAMES = r"""[Event "Fool's mate"]
[Result "0-1"]

1. f3 e5 2. g4 Qh4# 0-1

[Event "Mate missed"]
[Result "*"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. d3 Nxh5 *

[Event "Black to move"]
[SetUp "1"]
[FEN "3r2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 40"]
[Result "*"]

40... h6 41. h3 Rd2 *

[Event "One ply"]
[Result "*"]

1. e4 *

[Event "Two plies"]
[Result "*"]

1. d4 f6 *

[Event "Black mates from a position"]
[SetUp "1"]
[FEN "r5k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1"]
[Result "0-1"]

1. Kh1 Ra1# 0-1

[Event "Longer"]
[Result "*"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O
9. h3 Nb8 10. d4 Nbd7 11. c4 c6 12. cxb5 axb5 13. Nc3 Bb7 14. Bg5 b4 15. Nb1 h6 *
"""


@pytest.fixture(scope="module")
def analysed(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    path = tmp_path_factory.mktemp("lichess") / "g.pgn"
    path.write_text(GAMES)
    return list(kibitz.analyse_games(path, nodes=3000, workers=1))


def test_records_carry_lichess_figures(analysed):
    assert [r["status"] for r in analysed] == ["ok"] * 7
    mates = 0
    for rec in analysed:
        positions = rec["positions"]
        white_first = positions[0]["fen"].split()[1] == "w"
        for pos in positions:
            wtm = pos["fen"].split()[1] == "w"
            mates += "mate" in pos["score"]
            assert pos["win"] == pytest.approx(ref_win_percent(pos["score"], wtm) / 100, abs=5e-5 + 1e-12)
        for before, after in zip(positions, positions[1:]):
            white = before["fen"].split()[1] == "w"
            sign = 1 if white else -1
            wb = ref_win_percent(before["score"], white)
            wa = ref_win_percent(after["score"], not white)
            mover_b, mover_a = (wb, wa) if white else (100 - wb, 100 - wa)
            move = before["move"]
            assert move["win_loss"] == pytest.approx(max(0.0, sign * (wb - wa)) / 100, abs=5e-5 + 1e-12)
            assert move["accuracy"] == pytest.approx(ref_accuracy(mover_b, mover_a), abs=0.05 + 1e-9)
            assert move["judgement"] == ref_judgement(before["score"], after["score"], white), (rec["headers"], move)
        expected = ref_game_accuracy([p["score"] for p in positions[1:]], white_first)
        for side, value in zip(("white", "black"), expected):
            if value is None:
                assert rec[side]["accuracy"] is None and rec[side]["moves"] == 0
            else:
                assert rec[side]["accuracy"] == pytest.approx(value, abs=0.05 + 1e-9), (rec["headers"], side)
    assert mates >= 4  # the mates of the games were found and judged
    fools = analysed[0]
    assert fools["positions"][-1]["score"] == {"mate": 0} and fools["positions"][-1]["win"] == pytest.approx(0.0246)
    assert fools["positions"][2]["move"]["judgement"] == "blunder"  # 2. g4 lets Black mate
    missed = analysed[1]["positions"][6]
    assert missed["score"] == {"mate": 1} and missed["move"]["judgement"] == "blunder"  # 4. d3 misses Qxf7#
    assert analysed[3]["black"] == {
        "moves": 0,
        "acpl": None,
        "accuracy": None,
        "inaccuracies": 0,
        "mistakes": 0,
        "blunders": 0,
    }


# ---------------------------------------------------------------- the reader


def assert_reads_as_python_chess(text: str) -> list[kibitz.InputGame]:
    ours = list(kibitz.read_games(io.BytesIO(text.encode())))
    theirs = python_chess_games(text)
    assert len(ours) == len(theirs)
    for g, ref in zip(ours, theirs):
        assert not ref.errors
        assert g.error is None, (text, g.error)
        assert g.moves == [m.uci() for m in ref.mainline_moves()]
        assert {k: v for k, v in g.headers.items()} == {k: ref.headers[k] for k in g.headers}
        assert (g.result or "*") == ref.headers["Result"]
    return ours


class Trickle:
    """A binary stream that hands out one byte a read (chunk boundaries everywhere)."""

    def __init__(self, data: bytes) -> None:
        self.data, self.pos = data, 0

    def read(self, n: int = -1) -> bytes:
        out = self.data[self.pos : self.pos + 1]
        self.pos += len(out)
        return out


PASTED = [
    '[Event "x"]\n\n1. e4 e5 2. Nf3 ',
    '[Event "x"]\n\n1. e4 e5 2. Nf3',
    '[Event "x"]\n\n1. e4 e5 2. Nf3\n',
    '[Event "x"]\r\n\r\n1. e4 e5 2. Nf3\r\n',
    "1. e4 e5 2. Nf3 Nc6 3.",
    "1. e4 e5 2. Nf3 Nc6 3",
    "1. e4 e5 2. Nf3 $1",
    "1. e4 e5 2. Nf3 {a comment} ",
    "1. e4 e5 2. Nf3 (2. d4 exd4) ",
    "1. e4 e5 2. Nf3 Nc6!?",
    "1. e4 a6 2. e5 d5 3. exd6 e.p.",
    "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O",
    "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#",
    '[Event "a"]\n\n1. d4 d5 *\n\n[Event "b"]\n\n1. c4 e5 2. Nc3',
]


@pytest.mark.parametrize("text", PASTED)
def test_a_last_game_without_its_result_reads_as_in_python_chess(text):
    assert_reads_as_python_chess(text)
    # One byte a read changes nothing.
    assert [(g.moves, g.error) for g in kibitz.read_games(Trickle(text.encode()))] == [
        (g.moves, g.error) for g in kibitz.read_games(io.BytesIO(text.encode()))
    ]


@pytest.mark.parametrize(
    "text, why",
    [
        ("1. e4 e5 2. Nf3 {a comment", "the input ends inside a comment"),
        ("1. e4 e5 2. Nf3 (2. d4 exd4", "truncated: the input ends inside the variation"),
        ('1. e4 e5 *\n\n[Event "b', "broken tag on line 3"),
        ("1. e4 e5 2. Nf", "truncated"),  # a move cut short
        ("1. e4 e4", "truncated"),  # the last token is no move here: not read past
        ("1. e4 e5 2. Nf3 Nf3", "truncated"),
    ],
)
def test_a_file_ending_inside_a_comment_a_variation_a_tag_or_a_move_is_still_an_error(text, why):
    games = list(kibitz.read_games(io.BytesIO(text.encode())))
    assert why in (games[-1].error or ""), games[-1]


def test_a_cut_compressed_file_is_still_truncated(tmp_path):
    text = ('[Event "a"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n\n' * 4000).encode()
    packed = gzip.compress(text)
    path = tmp_path / "cut.pgn.gz"
    path.write_bytes(packed[: len(packed) // 2])
    games = list(kibitz.read_games(path))
    assert games[-1].error is not None and "truncated" in games[-1].error


EN_PASSANT = [
    "1. e4 a6 2. e5 d5 3. exd6 e.p. *",
    "1. e4 a6 2. e5 d5 3. exd6e.p. Nf6 1-0\n",
    '[Event "e.p."]\n[Annotator "x e.p. y"]\n\n1. e4 a6 2. e5 d5 3. exd6 e.p. { took e.p. } cxd6 *\n',
    "1. d4 Nf6 2. d5 e5 3. dxe6 e.p. fxe6 4. e4\r\r",
    "1. h4 a6 2. h5 g5 3. hxg6 e.p. a5 4. g7 a4 5. gxh8=Q a3 6. Qxg8 e.p. *",
]


@pytest.mark.parametrize("text", EN_PASSANT)
def test_the_old_en_passant_suffix_is_read_past_as_in_python_chess(text):
    ours = list(kibitz.read_games(io.BytesIO(text.encode())))
    theirs = python_chess_games(text)
    assert len(ours) == len(theirs)
    for g, ref in zip(ours, theirs):
        assert g.error is None, g.error
        assert g.moves == [m.uci() for m in ref.mainline_moves()]
        assert g.headers == {k: ref.headers[k] for k in g.headers}
    for source in (Trickle(text.encode()), io.StringIO(text)):
        assert [(g.headers, g.moves, g.error) for g in kibitz.read_games(source)] == [
            (g.headers, g.moves, g.error) for g in ours
        ]


def test_e_p_elsewhere_is_not_taken_for_the_suffix():
    # A tag's value keeps it; a token that only contains it is still no move.
    (g,) = kibitz.read_games(io.BytesIO(b'[Event "Caf e.p. 1"]\n\n1. e4 e.p. e5 *\n'))
    assert g.headers["Event"] == "Caf e.p. 1" and g.moves == ["e2e4", "e7e5"] and g.error is None
    (g,) = kibitz.read_games(io.BytesIO(b"1. e4 Ke.p. e5 *\n"))
    assert g.error is not None and "not a move" in g.error


# ---------------------------------------------------------------- the command


def run_cli(*args: str, **kw: Any) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kibitz", *args], capture_output=True, timeout=300, **kw)


def test_analyse_dash_reads_standard_input(tmp_path: Path):
    # Six games, then a pasted one: no result, no newline, the old en-passant suffix.
    text = GAMES.split('[Event "Longer"]')[0] + '[Event "Pasted"]\n\n1. e4 a6 2. e5 d5 3. exd6 e.p. Nf6'
    path = tmp_path / "g.pgn"
    path.write_text(text)
    by_path = run_cli("analyse", str(path), "--nodes", "300", "--workers", "1")
    assert by_path.returncode == 0, by_path.stderr
    with open(path, "rb") as f:
        by_stdin = run_cli("analyse", "-", "--nodes", "300", "--workers", "1", stdin=f)
    assert by_stdin.returncode == 0, by_stdin.stderr
    assert by_stdin.stdout == by_path.stdout
    records = [json.loads(line) for line in by_stdin.stdout.splitlines()]
    assert [r["status"] for r in records] == ["ok"] * 7
    assert records[-1]["positions"][-2]["move"]["san"] == "Nf6"
    # Through a pipe, compressed.
    piped = run_cli("analyse", "-", "--nodes", "300", "--workers", "1", input=gzip.compress(text.encode()))
    assert piped.returncode == 0, piped.stderr
    assert piped.stdout == by_path.stdout
    # The annotated PGN of the records reads back in python-chess as the input reads.
    out = tmp_path / "a.pgn"
    with open(path, "rb") as f:
        p = run_cli("analyse", "-", "--nodes", "300", "--workers", "1", "--pgn-out", str(out), "-o", "-", stdin=f)
    assert p.returncode == 0, p.stderr
    back = python_chess_games(out.read_text())
    ref = python_chess_games(text)
    assert [[m.uci() for m in g.mainline_moves()] for g in back] == [[m.uci() for m in g.mainline_moves()] for g in ref]
