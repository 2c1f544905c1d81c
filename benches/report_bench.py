"""Size and opening time of ``kibitz report`` pages for large collections.

A few real games (benches/data/selfplay.pgn.gz) are analysed once; their records are then
replicated and perturbed (players from a pool, dates, scores shifted by noise, judgements
kept) up to each collection size, so the page holds realistic data without hours of
analysis. For each size the script writes the page, then opens it from disk in headless
Chromium (Selenium) and measures, as medians of ``--repeat`` fresh loads:

- ready: from navigation start until the page's script has run (``data-ready``), as
  ``performance.now()`` reads it;
- open game: in the page, a click on the last row of the games table (sorted by largest
  blunder) until the frame after that game's section is drawn and scrolled to.

    python benches/report_bench.py [--sizes 1000 10000] [--seed-games 8] [--nodes 1000] [--repeat 3]
    python benches/report_bench.py --screenshots docs   # docs/report-overview.png, docs/report-game.png
"""

from __future__ import annotations

import argparse
import copy
import gzip
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import kibitz
from kibitz.report import ReportBuilder

HERE = Path(__file__).resolve().parent
GAMES = HERE / "data" / "selfplay.pgn.gz"
NAMES = [
    f"{first} {last}"
    for first in ("Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana")
    for last in ("Kovacs", "Larsen", "Moreau", "Novak", "Ortiz", "Park", "Quinn", "Rossi")
]


def seed_records(n: int, nodes: int) -> list[dict[str, Any]]:
    text = gzip.decompress(GAMES.read_bytes()).decode()
    games = "\n\n[Event ".join(text.split("\n\n[Event ")[:n]) + "\n\n"
    with tempfile.NamedTemporaryFile("w", suffix=".pgn", delete=False) as f:
        f.write(games)
        path = f.name
    try:
        return list(kibitz.analyse_games(path, nodes=nodes, workers=1))
    finally:
        Path(path).unlink()


def synthesize(seeds: list[dict[str, Any]], size: int, rng: random.Random) -> list[dict[str, Any]]:
    out = []
    for i in range(size):
        r = copy.deepcopy(seeds[i % len(seeds)])
        r["game"] = i + 1
        white, black = rng.sample(NAMES, 2)
        r["headers"] = dict(
            r.get("headers") or {},
            White=white,
            Black=black,
            Event="Club championship",
            Date=f"2026.{1 + i % 12:02d}.{1 + i % 28:02d}",
            Round=str(1 + i // 64),
        )
        for p in r.get("positions", []):
            if "cp" in p["score"]:
                p["score"] = {"cp": p["score"]["cp"] + rng.randint(-25, 25)}
        for side in ("white", "black"):
            if r[side].get("accuracy") is not None:
                r[side]["accuracy"] = round(min(100.0, max(0.0, r[side]["accuracy"] + rng.uniform(-8, 8))), 1)
        out.append(r)
    return out


def chromium() -> Any:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    browser = next(
        (shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)), None
    )
    driver = shutil.which("chromedriver")
    if browser is None or driver is None:
        sys.exit("needs chromium and chromedriver (Debian: apt-get install chromium chromium-driver)")
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1200,1000"):
        options.add_argument(arg)
    return webdriver.Chrome(options=options, service=Service(executable_path=driver))


def measure(page: Path, repeat: int) -> tuple[float, float, float]:
    ready, wall, open_game = [], [], []
    for _ in range(repeat):
        d = chromium()
        try:
            t = time.perf_counter()
            d.get(page.resolve().as_uri())
            while d.execute_script("return document.body && document.body.getAttribute('data-ready')") != "1":
                time.sleep(0.01)
            wall.append(time.perf_counter() - t)
            ready.append(d.execute_script("return performance.now()") / 1000)
            n = d.execute_script("return window.kibitzReport.games")
            # In the page: sort by largest blunder, click the last row shown, and wait for
            # the next frame after the game is drawn and scrolled to (what a user waits for).
            open_game.append(
                d.execute_async_script("""
                var done = arguments[arguments.length - 1];
                var sel = document.getElementById('sort');
                sel.value = 'blunder'; sel.dispatchEvent(new Event('change'));
                var rows = document.querySelectorAll('#game-rows tr');
                var t0 = performance.now();
                rows[rows.length - 1].click();
                document.body.offsetHeight;
                requestAnimationFrame(function () { setTimeout(function () {
                    done((performance.now() - t0) / 1000); }, 0); });
            """)
            )
            assert n > 0
        finally:
            d.quit()
    return statistics.median(ready), statistics.median(wall), statistics.median(open_game)


def screenshots(out: Path) -> None:
    """The pictures of docs/report.md: a 24-game page (6 real analyses at 4000 nodes under
    made-up names), its top, and the game with the largest blunder opened from the table."""
    seeds = [r for r in seed_records(6, 4000) if r["status"] == "ok"]
    records = synthesize(seeds, 24, random.Random(3))
    for r, seed in zip(records, seeds * 4):  # the real evaluations, unperturbed
        r["positions"], r["white"], r["black"] = seed["positions"], seed["white"], seed["black"]
    builder = ReportBuilder("Club championship 2026")
    for r in records:
        builder.add(r)
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "report.html"
        builder.write(str(page))
        d = chromium()
        try:
            d.set_window_size(1200, 1400)
            d.get(page.resolve().as_uri())
            time.sleep(1)
            d.save_screenshot(str(out / "report-overview.png"))
            d.execute_script(
                "var s = document.getElementById('sort'); s.value = 'blunder';"
                "s.dispatchEvent(new Event('change'));"
                "document.querySelector('#game-rows tr').click(); window.scrollBy(0, -10)"
            )
            time.sleep(0.5)
            # The pointer on the graph, a third of the way in: its tooltip shows.
            from selenium.webdriver.common.action_chains import ActionChains
            from selenium.webdriver.common.by import By

            number = d.find_element(By.CSS_SELECTOR, "#game-rows tr td").text
            plot = d.find_element(By.CSS_SELECTOR, f"#game-{number} svg.graph .graph-bg")
            ActionChains(d).move_to_element_with_offset(plot, -plot.size["width"] // 6, 0).perform()
            time.sleep(0.2)
            d.save_screenshot(str(out / "report-game.png"))
        finally:
            d.quit()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    ap.add_argument("--seed-games", type=int, default=8)
    ap.add_argument("--nodes", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--keep", metavar="DIR", default=None, help="keep the pages in DIR")
    ap.add_argument("--screenshots", metavar="DIR", default=None, help="only take the pictures of docs/report.md")
    args = ap.parse_args()
    if args.screenshots:
        screenshots(Path(args.screenshots))
        return 0
    t = time.perf_counter()
    seeds = [r for r in seed_records(args.seed_games, args.nodes) if r["status"] == "ok"]
    plies = sum(len(r["positions"]) - 1 for r in seeds) / len(seeds)
    print(
        f"{len(seeds)} seed games analysed at {args.nodes} nodes ({plies:.0f} plies on average) "
        f"in {time.perf_counter() - t:.1f} s"
    )
    rng = random.Random(1)
    out_dir = Path(args.keep or tempfile.mkdtemp(prefix="report-bench-"))
    out_dir.mkdir(parents=True, exist_ok=True)
    print(f"{'games':>7} {'build s':>8} {'size MB':>8} {'ready s':>8} {'load+ready s':>13} {'open game s':>12}")
    for size in args.sizes:
        records = synthesize(seeds, size, rng)
        t = time.perf_counter()
        builder = ReportBuilder(f"Synthetic collection of {size} games")
        for r in records:
            builder.add(r)
        page = out_dir / f"report-{size}.html"
        builder.write(str(page))
        build = time.perf_counter() - t
        mb = page.stat().st_size / 1e6
        ready, wall, open_game = measure(page, args.repeat)
        print(f"{size:>7} {build:>8.2f} {mb:>8.2f} {ready:>8.2f} {wall:>13.2f} {open_game:>12.3f}", flush=True)
    if args.keep is None:
        shutil.rmtree(out_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
