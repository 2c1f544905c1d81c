"""python-chess's own test suite with kibitz in place: how much of what python-chess passes
kibitz passes, test class by test class.

    python tools/python_chess_suite.py [--version 1.11.2] [--keep DIR] [--variants]

It downloads python-chess's source distribution from PyPI (its ``test.py`` and ``data/``),
runs ``test.py`` with pytest twice in this Python: once on python-chess itself (installed
here: ``pip install chess==VERSION``), once under ``python -m kibitz.compat`` (``import
chess`` gives kibitz). The test classes of python-chess's variant boards (Suicide, Atomic,
RacingKings, Horde, ThreeCheck, Crazyhouse, Giveaway) are left out of both unless
``--variants`` is given (``chess.variant`` is then ``kibitz.variant.boards``). It prints, for each test class, the tests python-chess passes
and how many of those kibitz passes, then the tests kibitz fails with their first line.
Tests that skip (an engine or a library not installed) skip on both.
"""

from __future__ import annotations

import argparse
import collections
import re
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Dict, List, Optional, Tuple

VARIANT_CLASSES = ["Suicide", "Atomic", "RacingKings", "Horde", "ThreeCheck", "Crazyhouse", "Giveaway"]
# A test's line in pytest's -rA summary: outcome, test id, first line of the failure.
LINE = re.compile(r"^(PASSED|FAILED|ERROR) (\S+?)(?: - (.*))?$")


def pytest_outcomes(
    directory: Path, args: List[str], compat: bool, env: Optional[Dict[str, str]] = None
) -> Tuple[Dict[str, str], Dict[str, str]]:
    """Outcome and failure line of each test by its id, as pytest's -rA summary gives them,
    for ``pytest ARGS`` in ``directory``: as it is (python-chess), or under ``python -m
    kibitz.compat`` (``import chess`` gives kibitz). tools/pypi_suites.py runs it too."""
    head = [sys.executable, "-m", "kibitz.compat", "-m", "pytest"] if compat else [sys.executable, "-m", "pytest"]
    p = subprocess.run(
        head + args + ["-q", "-rA", "-p", "no:cacheprovider"],
        cwd=directory,
        capture_output=True,
        text=True,
        env=env,
        timeout=1800,
    )
    outcomes, reasons = {}, {}
    for line in p.stdout.splitlines():
        m = LINE.match(line)
        if m:
            outcomes[m.group(2)] = m.group(1)
            reasons[m.group(2)] = m.group(3) or ""
    if not outcomes:
        raise SystemExit(
            f"no test results from {'kibitz' if compat else 'python-chess'} in {directory}:\n"
            f"{p.stdout[-2000:]}{p.stderr[-2000:]}"
        )
    return outcomes, reasons


def run(
    directory: Path, compat: bool, variants: bool = False
) -> Tuple[Dict[Tuple[str, str], str], Dict[Tuple[str, str], str]]:
    """Outcome and failure line of each test of python-chess's test.py by (class, name); the
    variant boards' test classes only when ``variants``."""
    selection = [] if variants else ["-k", " and ".join(f"not {name}" for name in VARIANT_CLASSES)]
    outcomes, reasons = pytest_outcomes(directory, ["test.py", *selection], compat)
    key = {t: tuple(t.split("::")[1:3]) for t in outcomes if t.startswith("test.py::") and t.count("::") == 2}
    return {key[t]: o for t, o in outcomes.items() if t in key}, {key[t]: r for t, r in reasons.items() if t in key}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--version", default="1.11.2")
    ap.add_argument("--keep", type=Path, help="unpack the sources here (kept) instead of a temporary directory")
    ap.add_argument("--variants", action="store_true", help="run the variant boards' test classes too")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        where = args.keep or Path(tmp)
        where.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "-q",
                "--no-deps",
                "--no-binary",
                ":all:",
                "-d",
                str(where),
                f"chess=={args.version}",
            ],
            check=True,
        )
        with tarfile.open(where / f"chess-{args.version}.tar.gz") as tar:
            tar.extractall(where, filter="data")
        source = where / f"chess-{args.version}"
        theirs, _ = run(source, compat=False, variants=args.variants)
        ours, why = run(source, compat=True, variants=args.variants)
    passed = [k for k, v in theirs.items() if v == "PASSED"]
    table: Dict[str, list[int]] = collections.defaultdict(lambda: [0, 0])
    for key in passed:
        table[key[0]][0] += 1
        table[key[0]][1] += ours.get(key) == "PASSED"
    print(
        f"python-chess {args.version} test.py, variant classes {'in' if args.variants else 'left out'}: kibitz passes "
        f"{sum(v[1] for v in table.values())} of the {len(passed)} tests python-chess passes"
    )
    print(f"{'test class':28} {'python-chess':>12} {'kibitz':>7}")
    for name, (a, b) in sorted(table.items()):
        print(f"{name:28} {a:>12} {b:>7}")
    failed = sorted(k for k in passed if ours.get(k) != "PASSED")
    if failed:
        print("failing on kibitz:")
        for key in failed:
            print(f"  {key[0]}::{key[1]}: {why.get(key, ours.get(key, 'not run'))}")


if __name__ == "__main__":
    main()
