"""kibitz.report and ``kibitz report`` / ``kibitz analyse --report``: the page's data, its
escaping, the player figures and the command line. The browser tests are in
test_report_browser.py (they share ``analysed`` below)."""

from __future__ import annotations

import json
import os
import math
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from kibitz.cli import main
from kibitz.report import ReportBuilder, build_report, read_records, write_report
from kibitz.report.data import compact_score, game_data
from kibitz.report.page import embed_json

# Strings a PGN can carry that must reach the page as text and run nothing.
XSS_WHITE = "<img src=x onerror=alert(1)>"
XSS_BLACK = "</script><script>window.pwned=1</script>"
XSS_EVENT = "<!-- <script>window.pwned=2</script>"

GAMES_PGN = f"""[Event "{XSS_EVENT}"]
[White "{XSS_WHITE}"]
[Black "{XSS_BLACK}"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 {{ <b>hmm</b> }} 4. Qxf7# 1-0

[Event "Club"]
[White "Alice"]
[Black "Bob"]
[Result "1/2-1/2"]

1. c4 Nf6 2. Nc3 e6 3. d4 Bb4 4. e3 O-O 5. Bd3 d5 6. Nf3 c5 7. O-O Nc6 1/2-1/2

[Event "Club"]
[White "Bob"]
[Black "Alice"]
[Result "0-1"]

1. e4 d5 2. e5 f5 3. exf6 e6 4. fxg7 Bd6 5. gxh8=Q Qh4 6. Qxg8+ Ke7 7. Qxh7+ Kd8 0-1

[Event "Club"]
[White "Dan"]
[Black "Erin"]
[Result "*"]

*

[Event "Club: an ending"]
[White "Erin"]
[Black "Dan"]
[Result "*"]
[SetUp "1"]
[FEN "r3k2r/8/8/8/3p4/8/4P3/R3K2R w KQkq - 0 30"]

30. e4 dxe3 31. O-O O-O-O 32. Ra7 Rh2 33. Rf8 Rxf8 *

[Event "Club"]
[White "Alice"]
[Black "Carol"]
[Result "1-0"]

1. e4 e5 2. Qxe7 1-0
"""


def analyse_collection(tmp: Path) -> tuple[Path, list[dict[str, Any]]]:
    """The test collection analysed (tiny node budget): the JSON-lines path and records."""
    pgn = tmp / "club.pgn"
    pgn.write_text(GAMES_PGN, encoding="utf-8")
    out = tmp / "club.jsonl"
    status = main(["analyse", str(pgn), "-o", str(out), "--nodes", "300", "--workers", "1"])
    assert status == 1  # the last game is malformed
    records = list(read_records(str(out)))
    assert [r["status"] for r in records] == ["ok", "ok", "ok", "ok", "ok", "error"]
    return out, records


@pytest.fixture(scope="module")
def analysed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, Any]]]:
    return analyse_collection(tmp_path_factory.mktemp("report"))


def expected_player_figures(records: list[dict[str, Any]]) -> dict[tuple[str, str], dict[str, Any]]:
    """The player table computed straight from the records, independently of kibitz.report:
    (player, "all" / "white" / "black") -> figures."""
    points = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5)}
    acc: dict[tuple[str, str], dict[str, Any]] = {}
    for r in records:
        if r["status"] != "ok":
            continue
        for i, (colour, tag) in enumerate((("white", "White"), ("black", "Black"))):
            name = r["headers"].get(tag, "?")
            for key in ((name, "all"), (name, colour)):
                f = acc.setdefault(
                    key,
                    {
                        "games": 0,
                        "points": 0.0,
                        "decided": 0,
                        "acc": [],
                        "acpl": [],
                        "blunders": 0,
                        "mistakes": 0,
                        "inaccuracies": 0,
                    },
                )
                f["games"] += 1
                if r["result"] in points:
                    f["points"] += points[r["result"]][i]
                    f["decided"] += 1
                side = r[colour]
                if side["accuracy"] is not None:
                    f["acc"].append(side["accuracy"])
                if side["acpl"] is not None:
                    f["acpl"].append(side["acpl"])
                for k in ("blunders", "mistakes", "inaccuracies"):
                    f[k] += side[k]
    out = {}
    for key, f in acc.items():
        out[key] = {
            "games": f["games"],
            "score": (f["points"], f["decided"]),
            "accuracy": round(sum(f["acc"]) / len(f["acc"]), 1) if f["acc"] else None,
            "acpl": round(sum(f["acpl"]) / len(f["acpl"]), 1) if f["acpl"] else None,
            "blunders": round(f["blunders"] / f["games"], 2),
            "mistakes": round(f["mistakes"] / f["games"], 2),
            "inaccuracies": round(f["inaccuracies"] / f["games"], 2),
        }
    return out


def test_records_name_their_openings(analysed: tuple[Path, list[dict[str, Any]]]) -> None:
    _, records = analysed
    assert records[1]["opening"]["eco"] == "E56"  # reached from the English
    assert records[1]["opening"]["name"].startswith("Nimzo-Indian Defense")


def test_page_is_self_contained_and_escapes_everything(analysed: tuple[Path, list[dict[str, Any]]]) -> None:
    _, records = analysed
    page = build_report(records, title="<b>Club</b>")
    assert page.count("<script") == 2  # the data block and the page's own script
    assert page.count("</script>") == 2
    for raw in (XSS_WHITE, XSS_BLACK, XSS_EVENT, "<b>Club</b>", "<b>hmm</b>"):
        assert raw not in page
    assert "<!--" not in page
    assert html_escaped(XSS_WHITE) in page  # the player table, as text
    assert "<title>&lt;b&gt;Club&lt;/b&gt;</title>" in page
    # Nothing is fetched: no URL other than the SVG namespace, no src attributes.
    urls = set(re.findall(r"https?://[^\s\"'<>)]+", page))
    assert urls == {"http://www.w3.org/2000/svg"}
    tags = start_tags(page)
    assert not [t for t in tags if t[0] in ("img", "iframe", "object", "embed", "link")]
    assert not [t for t in tags if any(name == "src" or name.startswith("on") for name, _ in t[1])]
    assert [t[0] for t in tags].count("script") == 2
    # The embedded data decodes to the strings of the game.
    data = json.loads(
        re.search(r'<script type="application/json" id="kibitz-data">(.*?)</script>', page, re.S).group(1)
    )  # type: ignore[union-attr]
    first = data["games"][0]
    assert first["h"]["White"] == XSS_WHITE and first["h"]["Black"] == XSS_BLACK
    assert first["h"]["Event"] == XSS_EVENT


def start_tags(page: str) -> list[tuple[str, list[tuple[str, Any]]]]:
    """Every start tag of the page as an HTML parser sees it: (name, attributes)."""
    from html.parser import HTMLParser

    found: list[tuple[str, list[tuple[str, Any]]]] = []

    class Collect(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, Any]]) -> None:
            found.append((tag, attrs))

    Collect().feed(page)
    return found


def html_escaped(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def test_embed_json_cannot_close_the_script() -> None:
    text = embed_json({"a": "</script><!--<script>", "b": "\u2028&"})
    assert "<" not in text and ">" not in text and "&" not in text and "\u2028" not in text
    assert json.loads(text) == {"a": "</script><!--<script>", "b": "\u2028&"}


def test_compact_game_data(analysed: tuple[Path, list[dict[str, Any]]]) -> None:
    _, records = analysed
    mate = game_data(records[0])
    assert mate["s"].split() == ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]
    assert len(mate["e"]) == 8 and mate["e"][-1] == "#+0"  # Black is mated
    assert "f" not in mate  # the usual start position
    assert mate["j"][5] == "b"  # 3... Nf6?? allows mate
    blunder = [x for x in mate["x"] if x[0] == 5][0]
    assert blunder[3] and blunder[4].startswith(blunder[3])  # best move, first of its line
    assert mate["m"][1] == 5 and mate["m"][0] == max(x[1] for x in mate["x"])
    assert game_data(records[-1])["err"]
    ending = game_data(records[4])
    assert ending["f"] == records[4]["start_fen"] and ending["s"].split()[:2] == ["e4", "dxe3"]
    empty = game_data(records[3])
    assert empty["s"] == "" and len(empty["e"]) == 1 and empty["m"] == [0.0, -1]
    assert compact_score({"cp": -37}, "8/8/8/8/8/8/8/K1k5 w - - 0 1") == -37
    assert compact_score({"mate": -3}, "8/8/8/8/8/8/8/K1k5 w - - 0 1") == "#-3"
    assert compact_score({"mate": 0}, "8/8/8/8/8/8/8/K1k5 w - - 0 1") == "#-0"


def test_player_figures(analysed: tuple[Path, list[dict[str, Any]]]) -> None:
    _, records = analysed
    builder = ReportBuilder()
    for r in records:
        builder.add(r)
    expected = expected_player_figures(records)
    seen = set()
    for name, figures in builder.summary.player_rows():
        for colour, f in figures.items():
            if not f["games"]:
                assert (name, colour) not in expected
                continue
            e = expected[(name, colour)]
            seen.add((name, colour))
            assert f["games"] == e["games"]
            assert (f["points"], f["decided"]) == e["score"]
            for k in ("accuracy", "acpl", "blunders", "mistakes", "inaccuracies"):
                assert f[k] == e[k] or math.isclose(f[k], e[k], abs_tol=1e-9), (name, colour, k)
    assert seen == set(expected)
    # Carol's only game was not analysed: she is not in the table.
    assert "Carol" not in {name for name, _ in builder.summary.player_rows()}
    assert builder.summary.results == {"1-0": 1, "1/2-1/2": 1, "0-1": 1, "*": 2, "not analysed": 1}


def test_cli_report_equals_analyse_report(analysed: tuple[Path, list[dict[str, Any]]], tmp_path: Path) -> None:
    jsonl, _ = analysed
    pgn = jsonl.parent / "club.pgn"
    direct = tmp_path / "direct.html"
    assert main(["analyse", str(pgn), "--report", str(direct), "--nodes", "300", "--workers", "1"]) == 1
    again = tmp_path / "again.html"
    assert main(["report", str(jsonl), "-o", str(again)]) == 0
    assert direct.read_text(encoding="utf-8") == again.read_text(encoding="utf-8")
    # The default output name sits beside the records.
    assert "<title>club</title>" in again.read_text(encoding="utf-8")  # the collection's name
    copy = tmp_path / "copy.jsonl"
    copy.write_bytes(jsonl.read_bytes())
    assert main(["report", str(copy), "--title", "club"]) == 0
    assert (tmp_path / "copy.html").read_text(encoding="utf-8") == again.read_text(encoding="utf-8")


def test_cli_report_to_standard_output(analysed: tuple[Path, list[dict[str, Any]]], tmp_path: Path) -> None:
    jsonl, _ = analysed
    page = tmp_path / "page.html"
    assert main(["report", str(jsonl), "-o", str(page)]) == 0
    proc = run_report(str(jsonl), "-o", "-")
    assert proc.returncode == 0 and "-> standard output" in proc.stderr, proc.stderr
    assert proc.stdout == page.read_text(encoding="utf-8")
    assert not (Path.cwd() / "-").exists()


def test_analyse_report_alone_writes_no_records(analysed: tuple[Path, list[dict[str, Any]]], tmp_path: Path) -> None:
    pgn = analysed[0].parent / "club.pgn"
    page = tmp_path / "only.html"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "kibitz",
            "analyse",
            str(pgn),
            "--report",
            str(page),
            "--nodes",
            "200",
            "--workers",
            "1",
        ],
        capture_output=True,
    )
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout == b""
    assert page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_cli_report_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", str(tmp_path / "missing.jsonl"), "-o", str(tmp_path / "x.html")]) == 2
    assert "cannot read" in capsys.readouterr().err
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"game": 1, "status": "error", "error": "x"}\nnot json\n{}\n')
    assert main(["report", str(bad), "-o", str(tmp_path / "x.html")]) == 2
    assert "line 2" in capsys.readouterr().err
    assert not (tmp_path / "x.html").exists()
    same = tmp_path / "same.html"
    same.write_text("{}\n")
    assert main(["report", str(same), "-o", str(same)]) == 2


def test_torn_last_line_is_skipped(analysed: tuple[Path, list[dict[str, Any]]], tmp_path: Path) -> None:
    jsonl, records = analysed
    torn = tmp_path / "torn.jsonl"
    data = jsonl.read_bytes()
    torn.write_bytes(data + data.splitlines(keepends=True)[0][:40])
    assert len(list(read_records(str(torn)))) == len(records)
    out = tmp_path / "torn.html"
    assert write_report(read_records(str(torn)), str(out)) == len(records)


@pytest.mark.parametrize("output", ["/nonexistent-dir/x.html", "/tmp"])
def test_cli_report_write_errors_are_one_line(analysed: tuple[Path, list[dict[str, Any]]], output: str) -> None:
    jsonl, _ = analysed
    proc = subprocess.run(
        [sys.executable, "-m", "kibitz", "report", str(jsonl), "-o", output], capture_output=True, text=True
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and "cannot write" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_report_written_again_keeps_its_mode(analysed: tuple[Path, list[dict[str, Any]]], tmp_path: Path) -> None:
    jsonl, records = analysed
    page = tmp_path / "page.html"
    page.write_text("old")
    page.chmod(0o600)
    assert main(["report", str(jsonl), "-o", str(page)]) == 0
    assert page.stat().st_mode & 0o777 == 0o600
    assert page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert [p.name for p in tmp_path.iterdir()] == ["page.html"]  # no temporary file left


def test_analyse_resume_report_equals_an_uninterrupted_one(
    analysed: tuple[Path, list[dict[str, Any]]], tmp_path: Path
) -> None:
    jsonl, _ = analysed
    pgn = jsonl.parent / "club.pgn"
    whole = tmp_path / "whole.html"
    out = tmp_path / "out.jsonl"
    assert main(["analyse", str(pgn), "-o", str(out), "--report", str(whole), "--nodes", "300", "--workers", "1"]) == 1
    lines = out.read_bytes().splitlines(keepends=True)
    out.write_bytes(b"".join(lines[:2]) + lines[2][:50])  # two games kept, a torn third
    resumed = tmp_path / "resumed.html"
    assert (
        main(
            [
                "analyse",
                str(pgn),
                "-o",
                str(out),
                "--report",
                str(resumed),
                "--resume",
                "--nodes",
                "300",
                "--workers",
                "1",
            ]
        )
        == 1
    )
    assert resumed.read_text(encoding="utf-8") == whole.read_text(encoding="utf-8")


def test_only_shown_tags_reach_the_page(analysed: tuple[Path, list[dict[str, Any]]]) -> None:
    _, records = analysed
    record = dict(records[1], headers=dict(records[1]["headers"], WhiteClock="0:03:00", Annotator="x", WhiteElo="1850"))
    data = game_data(record)
    assert data["h"]["WhiteElo"] == "1850" and "WhiteClock" not in data["h"] and "Annotator" not in data["h"]


# Every spelling of Chess960's Variant tag that python-chess or kibitz's PGN reader takes.
CHESS960_TAGS = ["Chess960", "chess 960", "fischerandom", "FischerRandom", "Fischer Random", "Fischer Random Chess"]


@pytest.mark.parametrize("variant", CHESS960_TAGS)
def test_a_chess960_mistake_gets_its_best_line_whatever_the_tag_says(variant: str) -> None:
    chess = pytest.importorskip("chess")
    fen = "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1"
    pv = ["b1a1", "b8h8", "d2d4"]  # both sides castle (Chess960 UCI: the king takes its rook)
    record = {
        "game": 1,
        "status": "ok",
        "headers": {"Variant": variant, "FEN": fen, "SetUp": "1"},
        "start_fen": fen,
        "result": "*",
        "positions": [
            {
                "fen": fen,
                "score": {"cp": 0},
                "best": pv[0],
                "pv": pv,
                "move": {"uci": "h2h4", "san": "h4", "win_loss": 0.2, "cp_loss": 90, "judgement": "blunder"},
            },
            {"fen": "rk5r/pppppppp/8/8/7P/8/PPPPPPP1/RK5R b HAha - 0 1", "score": {"cp": -90}},
        ],
    }
    reference = chess.Board(fen, chess960=True)
    expected = reference.variation_san([chess.Move.from_uci(u) for u in pv])  # "1. O-O-O O-O 2. d4"
    line = game_data(record)["x"][0][4]
    assert line and line == " ".join(t for t in expected.split() if not t[0].isdigit())


@pytest.mark.parametrize("variant", CHESS960_TAGS + ["Chess-960", "Standard", "Atomic", ""])
def test_chess960_tag_names_agree_with_python_chess_and_the_pgn_reader(variant: str) -> None:
    chess_pgn = pytest.importorskip("chess.pgn")
    import io

    import kibitz
    from kibitz._variant_tag import is_chess960

    text = f'[Variant "{variant}"]\n[FEN "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1"]\n\n1. d4 *\n'
    game = next(kibitz.read_games(io.BytesIO(text.encode())))
    if chess_pgn.Headers({"Variant": variant}).is_chess960() or game.chess960:
        assert is_chess960(variant)
    if variant in ("Standard", "Atomic", ""):
        assert not is_chess960(variant)
    assert is_chess960(variant.upper()) == is_chess960(variant)


def test_cli_report_may_not_replace_its_records_by_any_path(
    analysed: tuple[Path, list[dict[str, Any]]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    jsonl, _ = analysed
    records = tmp_path / "records" / "R.jsonl"
    records.parent.mkdir()
    records.write_bytes(jsonl.read_bytes())
    linked = tmp_path / "linked"
    linked.symlink_to(records.parent)
    hard = tmp_path / "hard.html"
    os.link(records, hard)
    for output in (linked / "R.jsonl", tmp_path / "records" / "." / "R.jsonl", hard):
        assert main(["report", str(records), "-o", str(output)]) == 2
        err = capsys.readouterr().err
        assert "refusing" in err and len(err.strip().splitlines()) == 1
        assert records.read_bytes() == jsonl.read_bytes()


def run_report(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kibitz", "report", *args], capture_output=True, text=True, timeout=timeout
    )


def assert_one_line_error(proc: subprocess.CompletedProcess[str], *words: str) -> str:
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    for word in words:
        assert word in proc.stderr, proc.stderr
    return proc.stderr


def test_cli_report_refuses_a_device(tmp_path: Path) -> None:
    assert_one_line_error(run_report("/dev/zero", "-o", str(tmp_path / "x.html")), "not a regular file")
    assert not (tmp_path / "x.html").exists()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes")
def test_cli_report_refuses_an_endless_line_from_a_pipe(tmp_path: Path) -> None:
    from kibitz.report import MAX_RECORD_BYTES

    fifo = tmp_path / "records.jsonl"
    os.mkfifo(fifo)
    proc = subprocess.Popen(
        [sys.executable, "-m", "kibitz", "report", str(fifo), "-o", str(tmp_path / "x.html")],
        stderr=subprocess.PIPE,
        text=True,
    )
    chunk = b"0" * (1 << 20)
    written = 0
    try:
        with open(fifo, "wb") as pipe:
            # Twice the limit without a line break, unless the reader gives up first.
            while written < 2 * MAX_RECORD_BYTES:
                pipe.write(chunk)
                written += len(chunk)
    except BrokenPipeError:
        pass
    err = proc.communicate(timeout=60)[1]
    assert written < 2 * MAX_RECORD_BYTES  # it stopped reading
    assert_one_line_error(subprocess.CompletedProcess(proc.args, proc.returncode, "", err), "line 1", "longer than")
    assert not (tmp_path / "x.html").exists()


NOT_KIBITZ_RECORDS = {
    "NaN": '{"game": 1, "status": "ok", "white": {"accuracy": NaN}}',
    "infinity": '{"game": 1, "status": "ok", "positions": [{"fen": "x", "move": {"win_loss": 1e999}}]}',
    "positions not a list": '{"game": 1, "status": "ok", "positions": 5}',
    "headers not an object": '{"game": 1, "status": "ok", "headers": ["White"]}',
    "a side's figure a string": '{"game": 1, "status": "ok", "white": {"accuracy": "high"}}',
    "a side not an object": '{"game": 1, "status": "ok", "black": [1, 2]}',
    "a score not a number": '{"game": 1, "status": "ok", "positions": [{"fen": "x", "score": {"cp": "ten"}}]}',
    "a lone surrogate": '{"game": 1, "status": "ok", "headers": {"White": "\\udc80"}}',
    "positions a string": '{"game": 1, "status": "ok", "positions": "oops"}',
    "positions missing": '{"game": 1, "status": "ok"}',
    "a position not an object": '{"game": 1, "status": "ok", "positions": [3]}',
    "game not a number": '{"game": "x", "status": "error", "error": "e"}',
    "game true": '{"game": true, "status": "error", "error": "e"}',
    "status unknown": '{"game": 1, "status": "maybe"}',
}


@pytest.mark.parametrize("line", NOT_KIBITZ_RECORDS.values(), ids=NOT_KIBITZ_RECORDS.keys())
def test_cli_report_on_json_that_is_not_a_record_is_a_one_line_error(tmp_path: Path, line: str) -> None:
    records = tmp_path / "r.jsonl"
    good = '{"game": 1, "status": "error", "error": "x", "headers": {}}'
    records.write_text(good + "\n" + line.replace('"game": 1', '"game": 2') + "\n", encoding="utf-8")
    err = assert_one_line_error(run_report(str(records), "-o", str(tmp_path / "x.html")), "kibitz analyse")
    assert "line 2" in err
    assert not (tmp_path / "x.html").exists()


def test_cli_report_on_one_line_that_is_not_json_fails(tmp_path: Path) -> None:
    records = tmp_path / "r.jsonl"
    records.write_text("this is not a record")  # no final newline: not a torn record either
    assert_one_line_error(run_report(str(records), "-o", str(tmp_path / "x.html")), "line 1", "not JSON")
    assert not (tmp_path / "x.html").exists()


def test_cli_report_on_a_pgn_says_to_analyse_it_first(tmp_path: Path) -> None:
    pgn = tmp_path / "club.pgn"
    pgn.write_text(GAMES_PGN, encoding="utf-8")
    err = assert_one_line_error(run_report(str(pgn)))
    assert f"run `kibitz analyse {pgn} -o {tmp_path / 'club.jsonl'}` first" in err
    assert not (tmp_path / "club.html").exists()


def test_records_of_older_versions_without_limits_make_the_same_page(
    analysed: tuple[Path, list[dict[str, Any]]],
) -> None:
    _, records = analysed
    assert all("limits" in r for r in records)
    older = [{k: v for k, v in r.items() if k != "limits"} for r in records]
    assert build_report(older, title="t") == build_report(records, title="t")
