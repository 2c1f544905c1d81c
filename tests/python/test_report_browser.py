"""The report page in a real browser (Selenium driving headless Chromium): it loads from disk
without console errors, draws one graph per analysed game, the board follows clicks on the
graph and on the moves and the arrow keys (read back from the board's ``data-fen``), the
player table shows the records' figures, the games table sorts, and a PGN's markup runs
nothing. What a player reads: the arrows of the move played and the best move on each
mistake's board, coordinates and whose view each board is, the graph's axes, whole dots and
tooltip, the evaluation bar, the keys working on a game just opened from the table, the best
move named once before its line, and each side's figures on a row of their own.

Skipped, saying why, where Selenium, Chromium or chromedriver is missing (Debian:
``apt-get install chromium chromium-driver``; ``pip install selenium``).
"""

from __future__ import annotations

import math
import shutil
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

import kibitz
from kibitz.report import write_report
from kibitz.report.data import compact_score, game_data
from test_report import (
    XSS_BLACK,
    XSS_EVENT,
    XSS_WHITE,
    analyse_collection,
    expected_player_figures,
)

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")
DRIVER_NAMES = ("chromedriver", "chromium-driver")


def _find(names: tuple[str, ...]) -> str | None:
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    for path in ("/usr/lib/chromium/chromedriver", "/usr/lib/chromium-browser/chromedriver"):
        if names is DRIVER_NAMES and Path(path).exists():
            return path
    return None


def new_driver() -> Any:
    """A headless Chromium under Selenium, or a pytest skip saying what is missing."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        pytest.skip("browser tests need Selenium (pip install selenium)")
    browser = _find(CHROMIUM_NAMES)
    driver_path = _find(DRIVER_NAMES)
    if browser is None or driver_path is None:
        pytest.skip("browser tests need Chromium and chromedriver (Debian: apt-get install chromium chromium-driver)")
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--window-size=1200,1000",
        "--allow-file-access-from-files",
    ):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # An explicit driver path: Selenium then does not try to download one.
    return webdriver.Chrome(options=options, service=Service(executable_path=driver_path))


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    d = new_driver()
    try:
        yield d
    finally:
        d.quit()


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, Any]]]:
    tmp = tmp_path_factory.mktemp("report-browser")
    _, records = analyse_collection(tmp)
    page = tmp / "club.html"
    write_report(records, str(page), title="Club <script>window.pwned=3</script>")
    return page, records


def load(driver: Any, page: Path) -> None:
    driver.get(page.resolve().as_uri())
    deadline = time.monotonic() + 20
    while driver.execute_script("return document.body && document.body.getAttribute('data-ready')") != "1":
        if time.monotonic() > deadline:
            raise AssertionError(f"the page never got ready; console: {driver.get_log('browser')}")
        time.sleep(0.05)


def wait_for(predicate: Any, what: str, timeout: float = 10.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def section(driver: Any, number: int) -> Any:
    """Game ``number``'s section, scrolled to (which draws it) and drawn."""
    from selenium.webdriver.common.by import By

    el = driver.find_element(By.ID, f"game-{number}")
    driver.execute_script("arguments[0].scrollIntoView({block: 'start'})", el)
    wait_for(lambda: "pending" not in (el.get_attribute("class") or ""), f"game {number} to be drawn")
    return el


def board_state(sec: Any) -> tuple[int, str]:
    from selenium.webdriver.common.by import By

    board = sec.find_element(By.CSS_SELECTOR, ".board")
    return int(board.get_attribute("data-ply")), board.get_attribute("data-fen")


def test_loads_without_errors_and_draws_a_graph_per_game(
    driver: Any, report: tuple[Path, list[dict[str, Any]]]
) -> None:
    from selenium.webdriver.common.by import By

    page, records = report
    load(driver, page)
    for r in records:
        sec = section(driver, r["game"])
        graphs = sec.find_elements(By.CSS_SELECTOR, "svg.graph")
        if r["status"] == "ok":
            assert len(graphs) == 1
            # Every position the page computes is the record's (castling, en passant, promotion).
            fens = driver.execute_script(f"return window.kibitzReport.fens({r['game'] - 1})")
            assert fens == [p["fen"] for p in r["positions"]]
            # One dot per marked move.
            dots = sec.find_elements(By.CSS_SELECTOR, "svg.graph circle.dot")
            marked = [p for p in r["positions"] if p.get("move", {}).get("judgement")]
            assert len(dots) == len(marked)
        else:
            assert graphs == []
            assert "Not analysed" in sec.text
    assert len(driver.find_elements(By.CSS_SELECTOR, "svg.graph")) == sum(r["status"] == "ok" for r in records)
    errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == []


def test_graph_click_moves_and_arrow_keys_follow(driver: Any, report: tuple[Path, list[dict[str, Any]]]) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    page, records = report
    load(driver, page)
    record = records[2]  # en passant square, promotion, checks
    fens = [p["fen"] for p in record["positions"]]
    n = len(fens) - 1
    sec = section(driver, record["game"])
    assert board_state(sec) == (0, fens[0])
    plot = sec.find_element(By.CSS_SELECTOR, "svg.graph .graph-bg")
    width = plot.size["width"]
    for fraction in (0.5, 0.27, 1.0, 0.0):
        # Selenium's offsets are from the element's centre; stay a pixel inside its edges.
        x = min(width - 1.0, max(1.0, fraction * width))
        ActionChains(driver).move_to_element_with_offset(plot, int(round(x - width / 2)), 0).click().perform()
        ply, fen = board_state(sec)
        assert abs(ply - fraction * n) <= 0.5 + n / width * 2, (fraction, ply)
        assert fen == fens[ply]
    ActionChains(driver).move_to_element_with_offset(plot, 0, 0).click().perform()
    start, _ = board_state(sec)
    ActionChains(driver).send_keys(Keys.ARROW_RIGHT).perform()
    assert board_state(sec) == (start + 1, fens[start + 1])
    ActionChains(driver).send_keys(Keys.ARROW_LEFT).send_keys(Keys.ARROW_LEFT).perform()
    assert board_state(sec) == (start - 1, fens[start - 1])
    ActionChains(driver).send_keys(Keys.END).perform()
    assert board_state(sec) == (n, fens[n])
    # A click on a move of the list: the position after it.
    move = sec.find_element(By.CSS_SELECTOR, '.moves .move[data-ply="9"]')
    assert move.text.startswith("gxh8=Q")
    move.click()
    assert board_state(sec) == (9, fens[9])
    assert "current" in move.get_attribute("class")
    # The board draws the pieces of that position: the promoted queen on h8.
    pieces = {
        u.get_attribute("data-square"): u.get_attribute("data-piece")
        for u in sec.find_elements(By.CSS_SELECTOR, ".board use")
    }
    assert pieces["h8"] == "Q"
    # Flipped, the same position with Black at the bottom: h8's queen drawn at the bottom left.

    def queen_at() -> tuple[float, float]:
        use = sec.find_element(By.CSS_SELECTOR, '.board use[data-square="h8"]')
        return float(use.get_attribute("y")), float(use.get_attribute("x"))

    assert queen_at() == (0.0, 700.0)
    sec.find_element(By.CSS_SELECTOR, "button.flip").click()
    assert board_state(sec) == (9, fens[9])
    assert queen_at() == (700.0, 0.0)
    sec.find_element(By.CSS_SELECTOR, "button.flip").click()
    assert queen_at() == (0.0, 700.0)


def test_mistakes_listed_with_position_best_move_and_loss(
    driver: Any, report: tuple[Path, list[dict[str, Any]]]
) -> None:
    from selenium.webdriver.common.by import By

    page, records = report
    load(driver, page)
    record = records[0]
    sec = section(driver, record["game"])
    items = sec.find_elements(By.CSS_SELECTOR, ".mistakes .mistake-card")
    marked = [p for p in record["positions"] if p.get("move", {}).get("judgement")]
    assert len(items) == len(marked)
    for item, pos in zip(items, marked):
        text = item.text
        assert pos["move"]["san"] in text
        assert f"{pos['move']['win_loss'] * 100:.1f} points" in text
        assert f"{pos['move']['cp_loss']} centipawns" in text
        assert "Best:" in text
        assert len(item.find_elements(By.CSS_SELECTOR, "svg use")) == len(
            [c for c in pos["fen"].split()[0] if c.isalpha()]
        )
        item.click()
        ply, fen = board_state(sec)
        assert ply == pos["ply"] + 1 and fen == record["positions"][ply]["fen"]


def test_player_table_equals_the_records(driver: Any, report: tuple[Path, list[dict[str, Any]]]) -> None:
    from selenium.webdriver.common.by import By

    page, records = report
    load(driver, page)
    expected = expected_player_figures(records)
    rows = driver.find_elements(By.CSS_SELECTOR, "#players tbody tr")
    seen = set()
    for row in rows:
        key = (row.get_attribute("data-player"), row.get_attribute("data-colour"))
        e = expected[key]
        seen.add(key)
        cell = {td.get_attribute("data-k"): td.text for td in row.find_elements(By.CSS_SELECTOR, "td[data-k]")}
        assert int(cell["games"]) == e["games"]
        points, decided = cell["score"].split("/")
        assert (float(points), int(decided)) == e["score"]
        for k, digits in (("accuracy", 1), ("acpl", 1), ("blunders", 2), ("mistakes", 2), ("inaccuracies", 2)):
            assert cell[k] == ("–" if e[k] is None else f"{e[k]:.{digits}f}"), (key, k)
    assert seen == set(expected)


def test_games_table_sorts_by_largest_blunder_and_accuracy(
    driver: Any, report: tuple[Path, list[dict[str, Any]]]
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    page, records = report
    load(driver, page)
    ok = [r for r in records if r["status"] == "ok"]

    def largest(r: dict[str, Any]) -> float:
        return max((p["move"]["win_loss"] for p in r["positions"] if "move" in p), default=0.0)

    def numbers() -> list[int]:
        return [
            int(tr.find_element(By.CSS_SELECTOR, "td").text)
            for tr in driver.find_elements(By.CSS_SELECTOR, "#game-rows tr")
        ]

    assert numbers() == [r["game"] for r in records]
    Select(driver.find_element(By.ID, "sort")).select_by_value("blunder")
    by_blunder = numbers()
    assert by_blunder[: len(ok)] == [r["game"] for r in sorted(ok, key=lambda r: (-largest(r), r["game"]))]
    Select(driver.find_element(By.ID, "sort")).select_by_value("accuracy-asc")

    def mean(r: dict[str, Any]) -> float:
        values = [r[c]["accuracy"] for c in ("white", "black") if r[c]["accuracy"] is not None]
        return sum(values) / len(values) if values else float("inf")  # a game without moves: last

    assert numbers()[: len(ok)] == [r["game"] for r in sorted(ok, key=lambda r: (mean(r), r["game"]))]
    # A click on a row opens its game.
    driver.find_elements(By.CSS_SELECTOR, "#game-rows tr")[0].click()
    first = numbers()[0]
    wait_for(
        lambda: "pending" not in driver.find_element(By.ID, f"game-{first}").get_attribute("class"), "the game to open"
    )


def test_markup_from_the_pgn_runs_nothing(driver: Any, report: tuple[Path, list[dict[str, Any]]]) -> None:
    from selenium.common.exceptions import NoAlertPresentException
    from selenium.webdriver.common.by import By

    page, records = report
    load(driver, page)
    section(driver, 1)
    time.sleep(0.3)  # time for an injected image to fail and its handler to run
    with pytest.raises(NoAlertPresentException):
        driver.switch_to.alert.text
    assert driver.execute_script("return typeof window.pwned") == "undefined"
    assert driver.find_elements(By.CSS_SELECTOR, "img") == []
    assert len(driver.find_elements(By.CSS_SELECTOR, "script")) == 2
    body = driver.find_element(By.TAG_NAME, "body").text
    for text in (XSS_WHITE, XSS_BLACK, XSS_EVENT):
        assert text in body  # shown as text
    assert driver.title == "Club <script>window.pwned=3</script>"
    errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == []


# ---------------------------------------------------------------------- what a player reads


def score_text(score: dict[str, Any], fen: str) -> str:
    """The page's text for a record's score: "+0.43", "-1.20", "#3", "#-2", or "mate"."""
    s = compact_score(score, fen)
    if isinstance(s, str):
        return "mate" if s[2:] == "0" else "#" + ("-" if s[1] == "-" else "") + s[2:]
    return ("+" if s > 0 else "") + f"{s / 100:.2f}"


def lichess_curve(cp: float) -> float:
    """lichess's win chance in percent of a score in centipawns (lila's winningChances)."""
    return 50 + 50 * (2 / (1 + math.exp(-0.00368208 * cp)) - 1)


def win_chance(score: dict[str, Any], fen: str) -> float:
    """White's win chance in percent as lichess's evaluation graph plots it (lila's acpl
    chart): a mate, or the checkmate, as an infinite score, clamped to +-1000 like any."""
    s = compact_score(score, fen)
    if isinstance(s, str):
        return lichess_curve(-1000 if s[1] == "-" else 1000)
    return lichess_curve(max(-1000, min(1000, s)))


def gauge_chance(score: dict[str, Any], fen: str) -> float:
    """White's win chance in percent as lichess's evaluation gauge fills (lila's
    povChances): a mate in n as (21 - min(10, n)) * 100 centipawns, unclamped."""
    s = compact_score(score, fen)
    if isinstance(s, str):
        cp = (21 - min(10, int(s[2:]))) * 100
        return lichess_curve(-cp if s[1] == "-" else cp)
    return win_chance(score, fen)


def numbered(fen: str, san: str) -> str:
    """``12. Nf3`` or ``12… Nf6``: a move of the position ``fen``, numbered."""
    fields = fen.split()
    return f"{fields[5]}{'. ' if fields[1] == 'w' else '… '}{san}"


def line_text(fen: str, sans: list[str]) -> str:
    """A line from ``fen`` numbered as on a score sheet: ``2… Nc6 3. Nc3 Nf6``."""
    fields = fen.split()
    white, number, out = fields[1] == "w", int(fields[5]), []
    for i, san in enumerate(sans):
        if white:
            out.append(f"{number}. {san}")
        else:
            out.append(f"{number}… {san}" if i == 0 else san)
            number += 1
        white = not white
    return " ".join(out)


def marked(record: dict[str, Any]) -> list[int]:
    """Plies (of the position before the move) of the record's inaccuracies, mistakes, blunders."""
    return [i for i, p in enumerate(record["positions"]) if p.get("move", {}).get("judgement")]


def arrow_squares(board: Any, cls: str) -> list[tuple[str, str]]:
    from selenium.webdriver.common.by import By

    return [
        (a.get_attribute("data-from"), a.get_attribute("data-to"))
        for a in board.find_elements(By.CSS_SELECTOR, f"polygon.arrow.{cls}")
    ]


def test_mistake_boards_draw_the_move_played_and_the_best_move_as_arrows(
    driver: Any, report: tuple[Path, list[dict[str, Any]]]
) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    page, records = report
    load(driver, page)
    checked = 0
    for record in records:
        if record["status"] != "ok":
            continue
        sec = section(driver, record["game"])
        cards = sec.find_elements(By.CSS_SELECTOR, ".mistakes .mistake-card")
        assert len(cards) == len(marked(record))
        for card, ply in zip(cards, marked(record)):
            pos = record["positions"][ply]
            best, played = pos["best"], pos["move"]["uci"]
            assert arrow_squares(card, "best") == [(best[:2], best[2:4])], (record["game"], ply)
            assert arrow_squares(card, "played") == [(played[:2], played[2:4])]
            # The played arrow has the judgement's colour class.
            played_class = card.find_element(By.CSS_SELECTOR, "polygon.played").get_attribute("class")
            assert pos["move"]["judgement"] in played_class
            # The game's board draws the best move when it shows the position before the mistake.
            card.click()
            ActionChains(driver).send_keys(Keys.ARROW_LEFT).perform()
            assert board_state(sec)[0] == ply
            assert arrow_squares(sec.find_element(By.CSS_SELECTOR, ".board"), "best") == [(best[:2], best[2:4])]
            checked += 1
    assert checked >= 10
    # The known blunder: 3... Nf6?? (Qxf7# follows); the engine's move is g6, from g7.
    sec = section(driver, 1)
    card = sec.find_element(By.CSS_SELECTOR, '.mistake-card[data-ply="6"]')
    assert arrow_squares(card, "played") == [("g8", "f6")]
    assert arrow_squares(card, "best") == [("g7", "g6")]


def test_san_squares_of_every_legal_move_of_random_games(
    driver: Any, report: tuple[Path, list[dict[str, Any]]]
) -> None:
    """The arrows come from the best move's SAN: the page finds its squares for every legal
    move (captures, promotions, castling, en passant, disambiguation, pinned pieces) of
    positions of random games, as kibitz.Board names them."""
    import random

    page, _ = report
    load(driver, page)
    rng = random.Random(20261201)
    cases = []
    for _ in range(40):
        board = kibitz.Board()
        for _ in range(rng.randint(20, 140)):
            moves = list(board.legal_moves)
            if not moves:
                break
            cases += [[board.fen(), board.san(m), m.uci()[:4]] for m in moves]
            board.push(rng.choice(moves))
    wrong = driver.execute_script(
        "return arguments[0].filter(function (c) {"
        " var sq = window.kibitzReport.squares(c[0], c[1]);"
        " return !sq || sq[0] + sq[1] !== c[2]; }).slice(0, 5)",
        cases,
    )
    assert len(cases) > 20000
    assert wrong == []


def test_boards_have_coordinates_and_say_whose_view(driver: Any, report: tuple[Path, list[dict[str, Any]]]) -> None:
    from selenium.webdriver.common.by import By

    page, records = report
    load(driver, page)
    record = records[2]
    sec = section(driver, record["game"])

    def labels(board: Any) -> tuple[str, str]:
        """The files left to right and the ranks top to bottom, as drawn."""
        files = sorted(
            (float(t.get_attribute("x")), t.text) for t in board.find_elements(By.CSS_SELECTOR, "text.coord[data-file]")
        )
        ranks = sorted(
            (float(t.get_attribute("y")), t.text) for t in board.find_elements(By.CSS_SELECTOR, "text.coord[data-rank]")
        )
        return "".join(t for _, t in files), "".join(t for _, t in ranks)

    board = sec.find_element(By.CSS_SELECTOR, ".board")
    assert labels(board) == ("abcdefgh", "87654321")
    assert sec.find_element(By.CSS_SELECTOR, ".orientation").text == "White's view"
    sec.find_element(By.CSS_SELECTOR, "button.flip").click()
    assert labels(board) == ("hgfedcba", "12345678")
    assert sec.find_element(By.CSS_SELECTOR, ".orientation").text == "Black's view"
    sec.find_element(By.CSS_SELECTOR, "button.flip").click()
    # Each mistake is seen from the side that made it, and its caption says which.
    cards = sec.find_elements(By.CSS_SELECTOR, ".mistake-card")
    sides = {record["positions"][ply]["fen"].split()[1] for ply in marked(record)}
    assert sides == {"w", "b"}
    for card, ply in zip(cards, marked(record)):
        black = record["positions"][ply]["fen"].split()[1] == "b"
        small = card.find_element(By.CSS_SELECTOR, "svg.board-svg")
        assert labels(small) == (("hgfedcba", "12345678") if black else ("abcdefgh", "87654321"))
        caption = card.find_element(By.CSS_SELECTOR, ".board-caption").text
        assert caption == ("Black's view" if black else "White's view")
        # Legible: the coordinates are drawn at least 9 pixels high.
        assert card.find_element(By.CSS_SELECTOR, "text.coord").size["height"] >= 9


def test_graph_has_axes_whole_dots_and_a_tooltip(driver: Any, report: tuple[Path, list[dict[str, Any]]]) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    page, records = report
    load(driver, page)
    for record in records:
        if record["status"] != "ok" or len(record["positions"]) < 2:
            continue
        sec = section(driver, record["game"])
        graph = sec.find_element(By.CSS_SELECTOR, "svg.graph")
        ys = [t.text for t in graph.find_elements(By.CSS_SELECTOR, "text.axis-y")]
        assert ys == ["0%", "25%", "50%", "75%", "100%"]
        # Move numbers, each under the ply of White's move of that number.
        xs = graph.find_elements(By.CSS_SELECTOR, "text.axis-x")
        assert xs
        for t in xs:
            fen = record["positions"][int(t.get_attribute("data-ply")) - 1]["fen"]
            assert fen.split()[1] == "w" and fen.split()[5] == t.text
        # Every dot drawn whole (a dot at 100 % or on the last move included).
        cut = driver.execute_script(
            "var g = arguments[0].getBoundingClientRect();"
            "return Array.from(arguments[0].querySelectorAll('circle.dot')).filter(function (c) {"
            " var r = c.getBoundingClientRect();"
            " return r.top < g.top || r.bottom > g.bottom || r.left < g.left || r.right > g.right; }).length",
            graph,
        )
        assert cut == 0
    # 3... Nf6?? leaves White mating at once: its dot sits where lichess's chart puts a mate,
    # White's +1000 (97.5 %), measured on the value axis.
    sec = section(driver, 1)
    axis = {
        t.get_attribute("data-value"): float(t.get_attribute("y"))
        for t in sec.find_elements(By.CSS_SELECTOR, "svg.graph text.axis-y")
    }
    mated = records[0]["positions"][6]
    expected = axis["100"] + (1 - win_chance(mated["score"], mated["fen"]) / 100) * (axis["0"] - axis["100"])
    assert abs(win_chance(mated["score"], mated["fen"]) - 97.5) < 0.1
    cy = float(sec.find_element(By.CSS_SELECTOR, 'circle.dot[data-ply="6"]').get_attribute("cy"))
    assert abs(cy - expected) < 0.06, (cy, expected)
    # The tooltip: move number, move, evaluation and win chance of the position under the pointer.
    record = records[2]
    sec = section(driver, record["game"])
    plot = sec.find_element(By.CSS_SELECTOR, "svg.graph .graph-bg")
    tip = sec.find_element(By.CSS_SELECTOR, ".graph-tip")
    assert not tip.is_displayed()
    n = len(record["positions"]) - 1
    width = plot.size["width"]
    for ply in (0, 3, 8, n):
        ActionChains(driver).move_to_element_with_offset(plot, int(round((ply / n - 0.5) * width)), 0).perform()
        wait_for(lambda: tip.is_displayed(), "the tooltip")
        assert int(tip.get_attribute("data-ply")) == ply
        pos = record["positions"][ply]
        if ply == 0:
            head = "Start"
        else:
            before = record["positions"][ply - 1]
            mark = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}.get(before["move"].get("judgement"), "")
            head = numbered(before["fen"], before["move"]["san"] + mark)
        text = tip.text
        assert text.startswith(head + " · " + score_text(pos["score"], pos["fen"]) + " · "), (ply, text)
        assert text.endswith(f"White's win chance {win_chance(pos['score'], pos['fen']):.0f}%")
    ActionChains(driver).move_to_element(sec.find_element(By.CSS_SELECTOR, "h3")).perform()
    wait_for(lambda: not tip.is_displayed(), "the tooltip to go")


def test_eval_bar_follows_the_board(driver: Any, report: tuple[Path, list[dict[str, Any]]]) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    page, records = report
    load(driver, page)
    record = records[2]  # White better, then Black, then White winning
    sec = section(driver, record["game"])
    bar = sec.find_element(By.CSS_SELECTOR, ".evalbar")
    fill = bar.find_element(By.CSS_SELECTOR, ".evalbar-white")
    board = sec.find_element(By.CSS_SELECTOR, ".board svg")
    # Beside the board, as tall as its squares (the coordinates are below them).
    assert bar.location["x"] + bar.size["width"] <= board.location["x"]
    assert abs(bar.location["y"] - board.location["y"]) <= 1
    assert board.size["height"] * 0.9 < bar.size["height"] < board.size["height"]
    signs = set()
    sec.find_element(By.CSS_SELECTOR, ".board").click()
    for ply, pos in enumerate(record["positions"]):
        assert board_state(sec)[0] == ply
        win = gauge_chance(pos["score"], pos["fen"])
        share = fill.size["height"] / bar.size["height"]
        assert abs(share - win / 100) < 0.02, (ply, share, win)
        assert abs(float(bar.get_attribute("data-white")) - win) <= 0.0501, (ply, win)
        assert bar.get_attribute("data-score") == score_text(pos["score"], pos["fen"])
        cp = compact_score(pos["score"], pos["fen"])
        # The side ahead has the larger share, where that is a visible difference (a score
        # of a few centipawns is a win chance within a pixel or two of half).
        if isinstance(cp, int) and abs(win - 50) >= 1:
            assert (share > 0.5) == (cp > 0), (ply, share, cp)
            signs.add(cp > 0)
        # White's share grows from White's side of the board: the bottom.
        assert abs((fill.location["y"] + fill.size["height"]) - (bar.location["y"] + bar.size["height"])) <= 2
        # The score is written at the end of the side ahead.
        label = bar.find_element(By.CSS_SELECTOR, ".evalbar-text")
        assert label.text == score_text(pos["score"], pos["fen"])
        middle = label.location["y"] + label.size["height"] / 2 - bar.location["y"]
        assert (middle > bar.size["height"] / 2) == (win >= 50)
        ActionChains(driver).send_keys(Keys.ARROW_RIGHT).perform()
    assert signs == {True, False}
    # Flipped, White's side is the top.
    sec.find_element(By.CSS_SELECTOR, "button.flip").click()
    assert abs(fill.location["y"] - bar.location["y"]) <= 2
    sec.find_element(By.CSS_SELECTOR, "button.flip").click()
    # Mates fill the bar as lichess's gauge does: game 1's mate in one and its checkmate.
    first = records[0]
    sec = section(driver, first["game"])
    sec.find_element(By.CSS_SELECTOR, ".board").click()
    bar = sec.find_element(By.CSS_SELECTOR, ".evalbar")
    mates = 0
    for ply, pos in enumerate(first["positions"]):
        assert board_state(sec)[0] == ply
        if isinstance(compact_score(pos["score"], pos["fen"]), str):
            mates += 1
            win = gauge_chance(pos["score"], pos["fen"])
            assert 98 < win < 100
            assert abs(float(bar.get_attribute("data-white")) - win) <= 0.0501, (ply, win)
        ActionChains(driver).send_keys(Keys.ARROW_RIGHT).perform()
    assert mates >= 2


def test_arrow_keys_move_a_game_opened_from_the_table_at_once(
    driver: Any, report: tuple[Path, list[dict[str, Any]]]
) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    page, records = report
    load(driver, page)
    record = records[2]
    fens = [p["fen"] for p in record["positions"]]
    row = driver.find_element(By.CSS_SELECTOR, f'#game-rows tr[data-index="{record["game"] - 1}"]')
    row.click()
    sec = driver.find_element(By.ID, f"game-{record['game']}")
    wait_for(lambda: "pending" not in sec.get_attribute("class"), "the game to open")
    assert driver.switch_to.active_element == sec.find_element(By.CSS_SELECTOR, ".board")
    ActionChains(driver).send_keys(Keys.ARROW_RIGHT).send_keys(Keys.ARROW_RIGHT).perform()
    assert board_state(sec) == (2, fens[2])
    # Sorted by the largest loss, a game opens at that move and the keys go on from there.
    Select(driver.find_element(By.ID, "sort")).select_by_value("blunder")
    first = driver.find_element(By.CSS_SELECTOR, "#game-rows tr")
    number = int(first.find_element(By.CSS_SELECTOR, "td").text)
    first.click()
    other = driver.find_element(By.ID, f"game-{number}")
    wait_for(lambda: "pending" not in other.get_attribute("class"), "the game to open")
    ply, _ = board_state(other)
    ActionChains(driver).send_keys(Keys.ARROW_LEFT).perform()
    target = next(r for r in records if r["game"] == number)
    assert board_state(other) == (ply - 1, target["positions"][ply - 1]["fen"])
    assert board_state(sec)[0] == 2  # the game opened before stays where it was


def test_best_move_is_named_once_before_its_line(driver: Any, report: tuple[Path, list[dict[str, Any]]]) -> None:
    from selenium.webdriver.common.by import By

    page, records = report
    load(driver, page)
    seen_lines = 0
    for record in records:
        if record["status"] != "ok":
            continue
        data = game_data(record)
        sec = section(driver, record["game"])
        cards = sec.find_elements(By.CSS_SELECTOR, ".mistake-card")
        for card, x in zip(cards, data["x"]):
            fen = record["positions"][x[0]]["fen"]
            best, line = x[3], x[4].split()
            assert line[0] == best  # the data's line starts with the best move ...
            text = card.find_element(By.CSS_SELECTOR, "p.best").text
            expected = "Best: " + numbered(fen, best)
            if len(line) > 1:  # ... which the page shows once, then the rest, numbered
                after = kibitz.Board(fen)
                after.push_san(best)
                expected += ", then " + line_text(after.fen(), line[1:])
                seen_lines += 1
            assert text == expected
    assert seen_lines >= 10
    # 3... Nf6?? of the first game, as the page writes it.
    card = section(driver, 1).find_element(By.CSS_SELECTOR, '.mistake-card[data-ply="6"] p.best')
    assert card.text.startswith("Best: 3… g6, then 4. ")


def test_each_sides_figures_on_a_row_of_their_own(driver: Any, report: tuple[Path, list[dict[str, Any]]]) -> None:
    from selenium.webdriver.common.by import By

    page, records = report
    load(driver, page)
    for record in records:
        if record["status"] != "ok":
            continue
        sec = section(driver, record["game"])
        table = sec.find_element(By.CSS_SELECTOR, "table.figures")
        head = [th.text for th in table.find_elements(By.CSS_SELECTOR, "thead th")]
        assert head == ["", "Accuracy", "ACPL", "Inaccuracies", "Mistakes", "Blunders"]
        for colour in ("white", "black"):
            side = record[colour]
            row = table.find_element(By.CSS_SELECTOR, f'tr[data-side="{colour}"]')
            cells = [c.text for c in row.find_elements(By.CSS_SELECTOR, "th, td")]

            def figure(v: Any) -> str:
                return "–" if v is None else f"{v:.1f}"

            assert cells == [
                colour.capitalize(),
                figure(side["accuracy"]),
                figure(side["acpl"]),
                str(side["inaccuracies"]),
                str(side["mistakes"]),
                str(side["blunders"]),
            ]
