"""`kibitz analyse` and `kibitz.read_games` / `kibitz.analyse_games`.

References: python-chess reads the same PGN (headers, moves) and reads back the annotated
PGN (moves, [%eval], NAGs); lichess's published formulas, written out here independently,
check the judgement thresholds; the resumed output is compared byte for byte with an
uninterrupted run. Node budgets are small so the whole file runs in well under a minute.
"""

from __future__ import annotations

import gzip
import io
import json
import math
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import chess
import chess.pgn
import pytest

import kibitz
from pgn_reference import python_chess_games
from kibitz.analysis import judgement

DATA = Path(__file__).resolve().parents[1] / "data"

# Good games: a mate (Black mates), a game with comments / NAGs / a variation / escapes in a
# tag, a game from a FEN with Black to move, a Chess960 game with castling, a short draw.
GOOD = r"""[Event "Fool's mate"]
[White "A"]
[Black "B"]
[Result "0-1"]

1. f3 e5 2. g4 Qh4# 0-1

[Event "Annotated \"quoted\" event"]
[Site "C:\\games"]
[White "Carol"]
[Black "Dave"]
[Result "1-0"]

1. e4 {best by test} e5 2. Nf3 $1 Nc6 (2... d6 3. d4) 3. Bb5!? a6 ; a comment to the end of the line
4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 1-0

[Event "From a position"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/4P3/4K2R b K - 0 30"]
[Result "*"]

30... Kd7 31. O-O Ke6 32. e4 *

[Event "Chess960"]
[Variant "Chess960"]
[FEN "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1"]
[Result "*"]

1. O-O-O O-O 2. d4 d5 *

[Event "Short"]
[White "E"]
[Black "F"]
[Result "1/2-1/2"]

1. d4 d5 2. c4 c6 1/2-1/2

"""

BAD = """[Event "Illegal"]
[Result "*"]

1. e4 e5 2. Ke3 *

[Event "Bad SAN"]
[Result "*"]

1. e4 Zz9 *

[Event "Broken tag
[Result "*"]

1. d4 d5 *

[Event "Good after bad"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0

[Event "Truncated"]
[Result "*"]

1. e4 c5 2. Nf3 d6 3. d4 cx"""

NODES = "400"


def run_cli(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kibitz", *args], capture_output=True, timeout=timeout)


def unescape(value: str) -> str:
    """A tag value with the PGN standard's escapes (backslash-quote, backslash-backslash)
    undone: python-chess 1.11 keeps them as written; kibitz undoes them as the standard says."""
    return value.replace("\\\\", "\x00").replace('\\"', '"').replace("\x00", "\\")


def ref_headers(game: chess.pgn.Game, keys) -> dict:
    return {k: unescape(game.headers[k]) for k in keys}


def records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


# ---------------------------------------------------------------- reading


def test_read_games_matches_python_chess(tmp_path):
    text = GOOD + (DATA / "book_games.pgn").read_text()
    path = tmp_path / "g.pgn"
    path.write_text(text)
    ours = list(kibitz.read_games(path))
    ref = python_chess_games(text)
    assert len(ours) == len(ref) > 200
    for g, r in zip(ours, ref):
        assert g.error is None, g.error
        assert g.headers == ref_headers(r, g.headers)
        # python-chess fills in the Seven Tag Roster's missing tags; all others agree.
        assert set(r.headers) - set(g.headers) <= set(chess.pgn.TAG_ROSTER)
        assert g.moves == [m.uci() for m in r.mainline_moves()]
        assert g.start_fen.split()[:4] == r.board().fen().split()[:4]


def test_tags_on_one_line_and_moves_without_spaces(tmp_path):
    # python-chess wants one tag per line; the PGN standard does not, and neither does kibitz.
    path = tmp_path / "g.pgn"
    path.write_text('[Event "x"] [White "E \\\\ \\"F\\""]\n1.e4 e5 2.Nf3{c}Nc6(2...d6)3.Bb5 1-0\n')
    (g,) = kibitz.read_games(path)
    assert g.error is None
    assert g.headers == {"Event": "x", "White": 'E \\ "F"'}
    assert g.moves == ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"] and g.result == "1-0"


def test_compressed_inputs_read_the_same(tmp_path):
    text = GOOD.encode()
    plain = tmp_path / "g.pgn"
    plain.write_bytes(text)
    gz = tmp_path / "g.pgn.gz"
    gz.write_bytes(gzip.compress(text))
    expected = [(g.headers, g.moves) for g in kibitz.read_games(plain)]
    assert [(g.headers, g.moves) for g in kibitz.read_games(gz)] == expected
    zstandard = pytest.importorskip("zstandard")
    zst = tmp_path / "g.pgn.zst"
    zst.write_bytes(zstandard.ZstdCompressor().compress(text))
    assert [(g.headers, g.moves) for g in kibitz.read_games(zst)] == expected
    # Two frames back to back (as `cat a.zst b.zst` makes) are one stream.
    half = text.index(b'[Event "Chess960')
    zst.write_bytes(zstandard.ZstdCompressor().compress(text[:half]) + zstandard.ZstdCompressor().compress(text[half:]))
    assert [(g.headers, g.moves) for g in kibitz.read_games(zst)] == expected
    # A compressed file cut short: the games before the cut, then one that says truncated.
    # (Decoders lose the block they were on, so the text spans many: the benchmark's games.)
    long_text = gzip.decompress((DATA.parent.parent / "benches" / "data" / "selfplay.pgn.gz").read_bytes())
    whole = [(g.headers, g.moves) for g in kibitz.read_games(io.BytesIO(long_text))]
    for name, packed in (
        ("cut.pgn.gz", gzip.compress(long_text)),
        ("cut.pgn.zst", zstandard.ZstdCompressor().compress(long_text)),
    ):
        path = tmp_path / name
        path.write_bytes(packed[: len(packed) // 2])
        games = list(kibitz.read_games(path))
        good = [(g.headers, g.moves) for g in games if g.error is None]
        assert len(good) > 100 and good == whole[: len(good)] and len(games) <= len(good) + 1
        assert "truncated" in (games[-1].error or ""), (name, games[-1])

    # A file object works too, and 1-byte reads change nothing (chunk boundaries anywhere).
    class Trickle:
        """A binary stream that hands out one byte per read."""

        def __init__(self, data: bytes) -> None:
            self.data, self.pos = data, 0

        def peek(self, n: int) -> bytes:
            return self.data[self.pos : self.pos + n]

        def read(self, n: int = -1) -> bytes:
            out = self.data[self.pos : self.pos + 1]
            self.pos += len(out)
            return out

    assert [(g.headers, g.moves) for g in kibitz.read_games(Trickle(text))] == expected


def test_bad_games_are_reported_and_reading_goes_on(tmp_path):
    path = tmp_path / "bad.pgn"
    path.write_text(BAD)
    games = list(kibitz.read_games(path))
    assert [g.index for g in games] == [1, 2, 3, 4, 5]
    errors = [g.error for g in games]
    assert "illegal move Ke3" in errors[0] and "2." in errors[0]
    assert "not a move in SAN" in errors[1] and "Zz9" in errors[1]
    assert "broken tag on line 11" in errors[2]
    assert errors[3] is None and games[3].moves[-1] == "h5f7"
    assert "truncated" in errors[4]
    # The moves before the bad one are kept (python-chess agrees on them).
    assert games[0].moves == ["e2e4", "e7e5"]


# ---------------------------------------------------------------- judgements


def lichess_win_percent(cp: int) -> float:
    # https://lichess.org/page/accuracy: Win% = 50 + 50 * (2 / (1 + exp(-0.00368208 * cp)) - 1)
    return 50 + 50 * (2 / (1 + math.exp(-0.00368208 * cp)) - 1)


def test_win_probability_is_lichess_win_percent():
    for cp in (-2000, -1000, -350, -1, 0, 1, 120, 999, 1000, 5000):
        capped = max(-1000, min(1000, cp))
        assert judgement.win_probability({"cp": cp}, True) == pytest.approx(lichess_win_percent(capped) / 100)
    # A mate counts as 1000 centipawns for the side that mates (lichess's Win% of a mate).
    assert judgement.win_probability({"mate": 3}, False) == pytest.approx(lichess_win_percent(1000) / 100)
    assert judgement.win_probability({"mate": -1}, True) == pytest.approx(lichess_win_percent(-1000) / 100)
    # The side to move mated (White here, then Black).
    assert judgement.win_probability({"mate": 0}, True) == pytest.approx(lichess_win_percent(-1000) / 100)
    assert judgement.win_probability({"mate": 0}, False) == pytest.approx(lichess_win_percent(1000) / 100)


def test_judgement_thresholds():
    # lichess: winning-chance drops (on -1..1) of 0.3 / 0.2 / 0.1 are blunder / mistake /
    # inaccuracy; on the 0..1 scale used here that is 0.15 / 0.10 / 0.05.
    cases = [
        (0.0, None),
        (0.0499, None),
        (0.05, "inaccuracy"),
        (0.0999, "inaccuracy"),
        (0.10, "mistake"),
        (0.1499, "mistake"),
        (0.15, "blunder"),
        (0.9, "blunder"),
    ]
    for loss, expected in cases:
        assert judgement.judge(loss) == expected, loss
    # A move from +0.5 pawn to -3 pawns for White: lichess calls that a blunder.
    drop = (lichess_win_percent(50) - lichess_win_percent(-300)) / 100
    assert drop > 0.15 and judgement.judge(drop) == "blunder"
    # Accuracy: lichess's curve plus its point of bonus, 100 at no loss, falling with the loss.
    assert judgement.move_accuracy(0.0) == 100.0
    assert judgement.move_accuracy(0.2) == pytest.approx(
        103.1668100711649 * math.exp(-0.04354415386753951 * 20) - 3.166924740191411 + 1
    )
    assert judgement.move_accuracy(1.0) == 0.0


# ---------------------------------------------------------------- the command


@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    """The mixed good/bad file analysed once with 1 worker and once with 2."""
    d = tmp_path_factory.mktemp("mixed")
    src = d / "mixed.pgn"
    src.write_text(GOOD + BAD)
    out1, out2, pgn1 = d / "w1.jsonl", d / "w2.jsonl", d / "w1.pgn"
    r1 = run_cli("analyse", str(src), "-o", str(out1), "--pgn-out", str(pgn1), "--nodes", NODES, "--workers", "1")
    r2 = run_cli("analyse", str(src), "-o", str(out2), "--nodes", NODES, "--workers", "2")
    return src, (r1, out1, pgn1), (r2, out2)


def test_mixed_file_records_and_exit_status(mixed):
    src, (r1, out1, _), _ = mixed
    assert r1.returncode == 1, r1.stderr
    recs = records(out1)
    # No progress when stderr is not a terminal: one line per bad game, then their count.
    bad = [r for r in recs if r["status"] != "ok"]
    lines = r1.stderr.decode().splitlines()
    assert lines == [f"kibitz analyse: skipped {r['error']}" for r in bad] + [
        f"kibitz analyse: {len(bad)} of {len(recs)} games could not be read or analysed;"
        " their records (status error) say why"
    ]
    ref = python_chess_games(src.read_text())
    assert [r["game"] for r in recs] == list(range(1, 11))
    status = [r["status"] for r in recs]
    assert status == ["ok"] * 5 + ["error", "error", "error", "ok", "error"]
    for r in recs:
        if r["status"] == "error":
            assert r["error"].startswith(f"game {r['game']} (")
    assert "illegal move" in recs[5]["error"] and "Zz9" in recs[6]["error"]
    assert "broken tag" in recs[7]["error"] and "truncated" in recs[9]["error"]
    for rec, game in zip(recs, ref):
        if rec["status"] != "ok":
            continue
        assert rec["headers"] == ref_headers(game, rec["headers"])
        board = game.board()
        moves = list(game.mainline_moves())
        assert len(rec["positions"]) == len(moves) + 1
        for pos, move in zip(rec["positions"], moves + [None]):
            assert pos["fen"].split()[:4] == board.fen().split()[:4]
            legal = {m.uci() for m in board.legal_moves}
            if pos["best"] is not None:
                assert pos["best"] in legal
                b = board.copy()
                for u in pos["pv"]:  # the PV is a legal line
                    b.push_uci(u)
            else:
                assert not legal
            if move is None:
                break
            assert pos["move"]["uci"] == move.uci()
            assert pos["move"]["san"] == board.san(move)
            board.push(move)
        if board.is_checkmate():
            assert rec["positions"][-1]["terminal"] == "checkmate"
    # Fool's mate: the last position is mate for Black, whatever the search budget.
    assert recs[0]["positions"][-1]["score"] == {"mate": 0}
    assert recs[0]["positions"][-1]["win"] == round(lichess_win_percent(-1000) / 100, 4)


def test_losses_and_judgements_follow_from_the_scores(mixed):
    _, (_, out1, _), _ = mixed
    seen = set()
    for rec in records(out1):
        if rec["status"] != "ok":
            continue
        for side in ("white", "black"):
            moves = [p["move"] for p in rec["positions"][:-1] if (p["fen"].split()[1] == "w") == (side == "white")]
            assert rec[side]["moves"] == len(moves)
            if moves:
                assert rec[side]["acpl"] == pytest.approx(sum(m["cp_loss"] for m in moves) / len(moves), abs=0.051)
            for kind, key in (("inaccuracy", "inaccuracies"), ("mistake", "mistakes"), ("blunder", "blunders")):
                assert rec[side][key] == sum(m["judgement"] == kind for m in moves)
        for before, after in zip(rec["positions"], rec["positions"][1:]):
            white = before["fen"].split()[1] == "w"
            win_b, win_a = before["win"], after["win"]
            loss = max(0.0, (win_b - win_a) if white else (win_a - win_b))
            assert before["move"]["win_loss"] == pytest.approx(loss, abs=2e-4)
            seen.add(before["move"]["judgement"])
    assert "blunder" in seen  # Fool's mate's 2. g4 loses at once


def test_annotated_pgn_reads_back_in_python_chess(mixed):
    src, (_, out1, pgn1), _ = mixed
    recs = records(out1)
    back = python_chess_games(pgn1.read_text())
    assert len(back) == len(recs)
    nag = {
        None: set(),
        "inaccuracy": {chess.pgn.NAG_DUBIOUS_MOVE},
        "mistake": {chess.pgn.NAG_MISTAKE},
        "blunder": {chess.pgn.NAG_BLUNDER},
    }
    for rec, game in zip(recs, back):
        assert not game.errors
        assert ref_headers(game, rec["headers"]) == rec["headers"]
        if rec["status"] != "ok":
            assert "not analysed" in game.comment and not list(game.mainline_moves())
            continue
        nodes = list(game.mainline())
        assert [n.move.uci() for n in nodes] == [p["move"]["uci"] for p in rec["positions"][:-1]]
        for node, pos, after in zip(nodes, rec["positions"], rec["positions"][1:]):
            assert node.nags == nag[pos["move"]["judgement"]]
            ev = node.eval()
            if after.get("terminal") == "checkmate":
                assert ev is None
                continue
            s = after["score"]
            expected = chess.engine.Mate(s["mate"]) if "mate" in s else chess.engine.Cp(s["cp"])
            assert ev is not None and ev.white() == expected


def test_records_do_not_depend_on_workers(mixed):
    _, (r1, out1, _), (r2, out2) = mixed
    assert r2.returncode == 1
    assert out1.read_bytes() == out2.read_bytes()


def test_python_api_yields_the_same_records(mixed):
    src, (_, out1, _), _ = mixed
    recs = list(kibitz.analyse_games(src, nodes=int(NODES), workers=2))
    assert recs == records(out1)


def test_all_good_file_exits_zero(tmp_path):
    src = tmp_path / "good.pgn"
    src.write_text(GOOD.split('[Event "Annotated')[0])
    r = run_cli("analyse", str(src), "--nodes", "200", "--workers", "1")
    assert r.returncode == 0, r.stderr
    rec = json.loads(r.stdout)  # to standard output without -o
    assert rec["status"] == "ok" and rec["black"]["blunders"] == 0 and rec["white"]["blunders"] >= 1


def test_kill_then_resume_gives_the_uninterrupted_output(tmp_path):
    src = tmp_path / "games.pgn"
    text = (DATA / "book_games.pgn").read_text()
    src.write_text(GOOD + text[: len(text) // 6].rsplit("[Event", 1)[0])
    n_games = len(list(kibitz.read_games(src)))
    args = ["analyse", str(src), "--nodes", "1500", "--workers", "2"]
    full, full_pgn = tmp_path / "full.jsonl", tmp_path / "full.pgn"
    assert run_cli(*args, "-o", str(full), "--pgn-out", str(full_pgn)).returncode == 0
    part, part_pgn = tmp_path / "part.jsonl", tmp_path / "part.pgn"
    cmd = [sys.executable, "-m", "kibitz", *args, "-o", str(part), "--pgn-out", str(part_pgn)]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (not part.exists() or part.read_bytes().count(b"\n") < 5):
        time.sleep(0.005)
    os.killpg(proc.pid, signal.SIGKILL)  # the whole group: parent and workers, no cleanup
    proc.wait()
    done = part.read_bytes().count(b"\n")
    assert 5 <= done < n_games, "the run was not interrupted mid-way"
    # A torn last line, as a crash mid-write would leave it, must be dropped.
    with open(part, "ab") as f:
        f.write(b'{"game":' + str(done + 1).encode() + b',"line":1,"sta')
    r = run_cli(*args, "-o", str(part), "--pgn-out", str(part_pgn), "--resume")
    assert r.returncode == 0, r.stderr
    assert part.read_bytes() == full.read_bytes()
    assert part_pgn.read_bytes() == full_pgn.read_bytes()
    # Resuming a finished run analyses nothing and changes nothing.
    assert run_cli(*args, "-o", str(part), "--resume").returncode == 0
    assert part.read_bytes() == full.read_bytes()
    # Resuming with another input is refused and leaves the output alone.
    other = tmp_path / "other.pgn"
    other.write_text(BAD)
    r = run_cli("analyse", str(other), "--nodes", "1500", "-o", str(part), "--resume")
    assert r.returncode == 2 and b"does not continue" in r.stderr
    assert part.read_bytes() == full.read_bytes()


def test_progress_on_a_terminal(tmp_path):
    pty = pytest.importorskip("pty")
    import fcntl
    import struct
    import termios

    src = tmp_path / "g.pgn"
    src.write_text(GOOD)
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 160, 0, 0))  # tqdm needs a width
    p = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "kibitz",
            "analyse",
            str(src),
            "--nodes",
            "200",
            "--workers",
            "1",
            "-o",
            str(tmp_path / "o.jsonl"),
        ],
        stderr=slave,
        stdout=subprocess.DEVNULL,
    )
    os.close(slave)
    seen = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    p.wait(timeout=60)
    os.close(master)
    positions = sum(len(list(g.mainline_moves())) + 1 for g in python_chess_games(GOOD))
    # The bar's last frame: every position, every game.
    assert f"{positions}/{positions} [".encode() in seen and b"games 5/5, 0 bad" in seen


def test_ray_backend_matches_local(mixed):
    ray = pytest.importorskip("ray")
    src, (_, out1, _), _ = mixed
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        recs = list(kibitz.analyse_games(src, nodes=int(NODES), backend="ray"))
    finally:
        ray.shutdown()
    assert recs == records(out1)


def test_ctrl_c_stops_at_once(tmp_path):
    src = tmp_path / "g.pgn"
    src.write_text((DATA / "book_games.pgn").read_text())
    out = tmp_path / "o.jsonl"
    # A budget large enough that no game finishes before the signal.
    p = subprocess.Popen(
        [sys.executable, "-m", "kibitz", "analyse", str(src), "--nodes", "5000000", "--workers", "2", "-o", str(out)],
        stderr=subprocess.PIPE,
    )
    time.sleep(2)
    p.send_signal(signal.SIGINT)
    t = time.monotonic()
    err = p.communicate(timeout=60)[1].decode()
    assert time.monotonic() - t < 10  # the workers are ended, not waited for
    assert p.returncode == 130 and "--resume" in err


def test_ctrl_c_while_the_workers_start_ends_the_run_cleanly(tmp_path):
    """Ctrl-C (to the whole process group, as a terminal sends it) while the pool forks its
    workers: it used to be lost (the run went on), end in an internal error, or print a
    worker's traceback. Each try must end with 130 and no traceback, in a few seconds."""
    for i, delay in enumerate((0.0, 0.02, 0.05, 0.1, 0.2, 0.3)):
        out = tmp_path / f"o{i}.jsonl"
        p = subprocess.Popen(
            [sys.executable, "-m", "kibitz", "analyse", str(DATA / "book_games.pgn"), "--nodes", "2000"]
            + ["--workers", "8", "-o", str(out)],
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        # From the moment the run has opened its output (Python's start-up is over), the
        # pool is about to fork or forking.
        deadline = time.monotonic() + 30
        while not out.exists() and time.monotonic() < deadline and p.poll() is None:
            time.sleep(0.002)
        time.sleep(delay)
        os.killpg(p.pid, signal.SIGINT)
        try:
            err = p.communicate(timeout=60)[1].decode()
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            raise AssertionError(f"try {i}: the run hung after Ctrl-C") from None
        assert p.returncode == 130, (i, p.returncode, err)
        assert "Traceback" not in err and "internal error" not in err, (i, err)


def test_more_workers_than_the_machine_can_use_are_capped_with_a_note(tmp_path):
    src = tmp_path / "g.pgn"
    src.write_text(GOOD.split('[Event "From a position')[0])
    out = tmp_path / "o.jsonl"
    p = subprocess.run(
        [sys.executable, "-m", "kibitz", "analyse", str(src), "--nodes", "500", "--workers", "100000", "-o", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert p.returncode == 0, p.stderr
    assert "--workers 100000:" in p.stderr and "a core)" in p.stderr
    assert len(out.read_text().splitlines()) == len(python_chess_games(src.read_text()))


def test_multipv_and_depth_limits(tmp_path):
    src = tmp_path / "g.pgn"
    src.write_text(GOOD.split('[Event "From a position')[0])
    recs = list(kibitz.analyse_games(src, depth=3, multipv=3, workers=1))
    ref = python_chess_games(src.read_text())
    for rec, game in zip(recs, ref):
        board = game.board()
        for pos, move in zip(rec["positions"], list(game.mainline_moves()) + [None]):
            if pos.get("terminal"):
                assert pos["lines"] == [] and move is None
                break
            assert pos["depth"] == 3
            legal = {m.uci() for m in board.legal_moves}
            firsts = [line["pv"][0] for line in pos["lines"]]
            assert len(firsts) == min(3, len(legal)) and len(set(firsts)) == len(firsts) and set(firsts) <= legal
            assert firsts[0] == pos["best"] and pos["lines"][0]["score"] == pos["score"]
            if move is not None:
                board.push(move)


def test_ray_backend_from_the_command_line(mixed, tmp_path):
    pytest.importorskip("ray")
    src, (_, out1, pgn1), _ = mixed
    out, pgn = tmp_path / "ray.jsonl", tmp_path / "ray.pgn"
    # No --ray-address: the command starts a local Ray instance and stops it at exit.
    r = run_cli("analyse", str(src), "-o", str(out), "--pgn-out", str(pgn), "--nodes", NODES, "--backend", "ray")
    assert r.returncode == 1, r.stderr
    assert out.read_bytes() == out1.read_bytes() and pgn.read_bytes() == pgn1.read_bytes()


@pytest.mark.parametrize(
    "kwargs, kind",
    [
        ({"nodes": "100"}, TypeError),
        ({"nodes": True}, TypeError),
        ({"depth": 2.5}, TypeError),
        ({"workers": "2"}, TypeError),
        ({"workers": 2.5}, TypeError),
        ({"multipv": None}, TypeError),
        ({"movetime_ms": "5"}, TypeError),
        ({"nodes": 0}, ValueError),
        ({"workers": 0}, ValueError),
    ],
)
def test_analyse_games_names_a_bad_argument_before_reading(tmp_path, kwargs, kind):
    # Said when called (the file is not even read), naming the argument and its type.
    with pytest.raises(kind, match=next(iter(kwargs))):
        kibitz.analysis.analyse_games(tmp_path / "no such file.pgn", **kwargs)
