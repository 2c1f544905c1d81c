"""The test suites of PyPI packages written for python-chess, run on python-chess and on
kibitz: every test that passes on python-chess must pass with kibitz in its place.

    python tools/pypi_suites.py [--keep DIR]

Each package (pinned below) is downloaded as its source distribution from PyPI, installed
with its other dependencies into a directory of its own (``pip install --target``; python-chess
and kibitz come from this Python), and its tests run with pytest twice: once as they are
(python-chess), once under ``python -m kibitz.compat`` (``import chess`` gives kibitz, nothing
else changed). It prints, per package, the tests python-chess passes and how many of those
kibitz passes, then each test kibitz fails with its first line; the exit status is 1 when
kibitz fails any test python-chess passes (tests/python/test_pypi_suites.py runs it).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import List, NamedTuple, Tuple

from python_chess_suite import pytest_outcomes


class Package(NamedTuple):
    name: str
    version: str
    # Its dependencies other than python-chess, as pip takes them.
    deps: List[str]
    # Where its tests are in the source distribution.
    tests: str
    # pytest plugins its tests need (installed without their own dependencies, so that the
    # package's directory does not get a pytest of its own in front of this Python's).
    plugins: Tuple[str, ...] = ()


PACKAGES = [
    # A puzzle finder and tagger (a refactor of lichess's puzzler): tactics, mates, endgames
    # tagged from real puzzles' moves.
    Package("chess-puzzler", "0.1.1", ["tqdm", "click"], "tests"),
    # Feature encoders for learning: board transforms, neighbourhoods, engine features.
    Package("chess-features", "0.5.0", [], "test"),
    # Opening trees from PGN games: chess.pgn games and variations, SAN, chess.svg, engine scores.
    Package("chesstree", "2026.1", [], "tests"),
    # A terminal client for lichess: board, move list and material models over python-chess.
    Package(
        "cli-chess",
        "1.8.0",
        ["berserk>=0.14.0,<0.15.0", "prompt-toolkit==3.0.53"],
        "src/cli_chess/tests",
        plugins=("pytest-socket>=0.8.0,<1.0.0",),
    ),
    # A terminal game: boards, pieces, push_san, results.
    Package("chess-term", "0.1.0", ["click"], "tests", plugins=("pytest-mock",)),
    # A game server with a minimax player: legal_moves, push/pop, san, gives_check, outcome.
    # (Its other test files need the mcp package and start server processes.)
    Package("chess-mcp-server", "0.1.17", [], "tests/test_chess_server.py", plugins=("pytest-asyncio",)),
    # Game review: move classification, accuracy, chess.com's move encoding, PGN.
    Package("chess-game-analyzer", "0.1.2", ["requests"], "tests"),
]


def prepare(package: Package, work: Path) -> Tuple[Path, Path]:
    """The package's unpacked source and the directory its installation went into."""
    pin = f"{package.name}=={package.version}"
    dist = work / "dist"
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:", pin, "-d", str(dist)],
        check=True,
    )
    (archive,) = list(dist.glob("*.tar.gz"))
    with tarfile.open(archive) as tar:
        tar.extractall(work, filter="data")
    source = next(p for p in work.iterdir() if p.is_dir() and p.name != "dist")
    site = work / "site"
    pip = [sys.executable, "-m", "pip", "install", "-q", "--target", str(site)]
    subprocess.run(pip + ["--no-deps", str(source)], check=True)
    if package.deps:
        subprocess.run(pip + package.deps, check=True)
    if package.plugins:
        subprocess.run(pip + ["--no-deps", *package.plugins], check=True)
    return source, site


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--keep", type=Path, help="work in this directory and keep it")
    args = ap.parse_args()
    failures: List[str] = []
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        root = args.keep or Path(tmp)
        for package in PACKAGES:
            work = root / package.name
            work.mkdir(parents=True, exist_ok=True)
            source, site = prepare(package, work)
            # Wide lines: pytest's -rA summary keeps each failure's message beside a long test id.
            env = dict(os.environ, PYTHONPATH=str(site), COLUMNS="250")
            args = [package.tests]
            theirs, _ = pytest_outcomes(source, args, compat=False, env=env)
            ours, why = pytest_outcomes(source, args, compat=True, env=env)
            passing = [t for t, o in theirs.items() if o == "PASSED"]
            kept = [t for t in passing if ours.get(t) == "PASSED"]
            rows.append((f"{package.name} {package.version}", len(passing), len(kept)))
            failures += [
                f"  {package.name}: {t}: {why.get(t, ours.get(t, 'not run'))[:100]}" for t in passing if t not in kept
            ]
    print("package                      python-chess  kibitz")
    for name, total, kept_n in rows:
        print(f"{name:<28} {total:>12} {kept_n:>7}")
    if failures:
        print("failing on kibitz:")
        print("\n".join(failures))
    return 1 if failures or any(total == 0 for _, total, _ in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
