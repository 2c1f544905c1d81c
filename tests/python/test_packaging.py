"""Packaging: one version everywhere, the licence, and the metadata pip and PyPI show.

The version lives only in Cargo.toml; maturin gives it to the wheel (pyproject declares it
dynamic), the extension exports it (``env!("CARGO_PKG_VERSION")``) and ``kibitz`` re-exports
that. These tests read each place independently and check they agree.
"""

from __future__ import annotations

import importlib.metadata
import re
import subprocess
import sys
from pathlib import Path

import kibitz
import kibitz._core

ROOT = Path(__file__).resolve().parents[2]


def toml_value(path: Path, table: str, key: str) -> str | None:
    """A string value from a TOML table, read without a TOML library (Python 3.9 has none)."""
    section = None
    for line in path.read_text(encoding="utf-8").splitlines():
        header = re.match(r"^\[([^\]]+)\]\s*$", line)
        if header:
            section = header.group(1).strip()
            continue
        if section == table:
            match = re.match(rf'^{re.escape(key)}\s*=\s*"([^"]*)"', line)
            if match:
                return match.group(1)
    return None


def cargo_version() -> str:
    version = toml_value(ROOT / "Cargo.toml", "package", "version")
    assert version is not None, "no version in Cargo.toml's [package]"
    return version


def test_version_is_single_sourced() -> None:
    version = cargo_version()
    assert re.fullmatch(r"\d+\.\d+\.\d+([a-z0-9.+-]*)", version), version
    # pyproject takes it from Cargo.toml rather than repeating it.
    assert toml_value(ROOT / "pyproject.toml", "project", "version") is None
    assert re.search(r'^dynamic\s*=\s*\[[^\]]*"version"', (ROOT / "pyproject.toml").read_text(), re.M)
    assert kibitz._core.__version__ == version
    assert kibitz.__version__ == version
    assert importlib.metadata.version("kibitz") == version


def test_uci_id_name_carries_the_version() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "kibitz"], input="uci\nquit\n", capture_output=True, text=True, timeout=60
    )
    names = [line for line in result.stdout.splitlines() if line.startswith("id name ")]
    assert names == [f"id name kibitz {cargo_version()}"], result.stdout


def test_licence() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    # The full GNU GPL version 3 (all 18 sections and the how-to-apply appendix), not a stub.
    assert text.lstrip().startswith("GNU GENERAL PUBLIC LICENSE")
    assert "Version 3, 29 June 2007" in text
    for section in ("0. Definitions.", "17. Interpretation of Sections 15 and 16.", "END OF TERMS AND CONDITIONS"):
        assert section in text, section
    assert len(text) > 30000
    assert toml_value(ROOT / "Cargo.toml", "package", "license") == "GPL-3.0-or-later"
    assert toml_value(ROOT / "pyproject.toml", "project", "license") == "GPL-3.0-or-later"


def test_installed_metadata() -> None:
    meta = importlib.metadata.metadata("kibitz")
    assert meta["Name"] == "kibitz"
    assert meta["License-Expression"] == "GPL-3.0-or-later"
    assert "LICENSE" in (meta.get_all("License-File") or [])
    assert meta["Requires-Python"] == ">=3.9"
    assert meta["Summary"] and "chess engine" in meta["Summary"]
    keywords = (meta["Keywords"] or "").split(",")
    assert "chess" in keywords and "uci" in keywords
    classifiers = meta.get_all("Classifier") or []
    assert "Typing :: Typed" in classifiers
    assert "Programming Language :: Python :: 3.9" in classifiers
    # The README is the long description (what PyPI shows).
    body = meta.get_payload()  # type: ignore[attr-defined]
    assert isinstance(body, str) and body.lstrip().startswith("# kibitz")
    assert (meta["Description-Content-Type"] or "").startswith("text/markdown")


def test_typed_package_files() -> None:
    package = Path(kibitz.__file__).parent
    assert (package / "py.typed").is_file()
    assert (package / "_core.pyi").is_file()
