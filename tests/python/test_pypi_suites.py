"""Test suites of PyPI packages written for python-chess pass on kibitz wherever they pass
on python-chess (tools/pypi_suites.py: each package's pinned source distribution from PyPI,
its tests run once on python-chess and once under ``python -m kibitz.compat``). Needs PyPI
and python-chess; behind the ``pypi`` marker (``--runpypi``), which CI runs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytest.importorskip("chess")


@pytest.mark.pypi
def test_package_suites_pass_on_kibitz_where_they_pass_on_python_chess() -> None:
    p = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "pypi_suites.py")], capture_output=True, text=True, timeout=3600
    )
    assert p.returncode == 0, p.stdout + p.stderr
    rows = [line.split() for line in p.stdout.splitlines()[1:] if line and not line.startswith(" ")]
    assert rows and all(int(r[-2]) > 0 and r[-1] == r[-2] for r in rows), p.stdout
