"""The report page in a real browser (Selenium driving headless Chromium): it loads from disk
without console errors, draws one graph per analysed game, the board follows clicks on the
graph and on the moves and the arrow keys (read back from the board's ``data-fen``), the
player table shows the records' figures, the games table sorts, and a PGN's markup runs
nothing.

Skipped, saying why, where Selenium, Chromium or chromedriver is missing (Debian:
``apt-get install chromium chromium-driver``; ``pip install selenium``).
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from kibitz.report import write_report
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
    graph = sec.find_element(By.CSS_SELECTOR, "svg.graph")
    width = graph.size["width"]
    for fraction in (0.5, 0.27, 1.0, 0.0):
        # Selenium's offsets are from the element's centre; stay a pixel inside its edges.
        x = min(width - 1.0, max(1.0, fraction * width))
        ActionChains(driver).move_to_element_with_offset(graph, int(round(x - width / 2)), 0).click().perform()
        ply, fen = board_state(sec)
        assert abs(ply - fraction * n) <= 0.5 + n / width * 2, (fraction, ply)
        assert fen == fens[ply]
    ActionChains(driver).move_to_element_with_offset(graph, 0, 0).click().perform()
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
