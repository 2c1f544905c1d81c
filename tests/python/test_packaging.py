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

import pytest

import kibitz
import kibitz._core

ROOT = Path(__file__).resolve().parents[2]


def toml_value(path: Path, table: str, key: str) -> str | None:
    """A string value from a TOML table, read without a TOML library (Python 3.10 has none)."""
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


def test_cli_version_is_the_package_version() -> None:
    result = subprocess.run([sys.executable, "-m", "kibitz", "--version"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"kibitz {cargo_version()}"


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
    assert meta["Requires-Python"] == ">=3.10"
    assert meta["Summary"] and "chess engine" in meta["Summary"]
    keywords = (meta["Keywords"] or "").split(",")
    assert "chess" in keywords and "uci" in keywords
    classifiers = meta.get_all("Classifier") or []
    assert "Typing :: Typed" in classifiers
    assert "Programming Language :: Python :: 3.10" in classifiers
    # The README is the long description (what PyPI shows).
    body = meta.get_payload()  # type: ignore[attr-defined]
    assert isinstance(body, str) and body.lstrip().startswith("# kibitz")
    assert (meta["Description-Content-Type"] or "").startswith("text/markdown")


def test_typed_package_files() -> None:
    package = Path(kibitz.__file__).parent
    assert (package / "py.typed").is_file()
    assert (package / "_core.pyi").is_file()


def test_no_native_cpu_tuning_in_the_build() -> None:
    # The wheel must run on any x86-64 CPU: nothing in the build may ask rustc for the
    # build machine's CPU. The places a build takes rustc flags from:
    places = [ROOT / "Cargo.toml", ROOT / "pyproject.toml", *sorted((ROOT / "scripts").iterdir())]
    places += [p for p in (ROOT / ".cargo" / "config.toml", ROOT / ".cargo" / "config") if p.exists()]
    for path in places:
        text = path.read_text(encoding="utf-8")
        for line in text.splitlines():
            if line.lstrip().startswith("#"):
                continue  # comments may say why it is absent
            assert "target-cpu" not in line, f"{path.relative_to(ROOT)}: {line.strip()}"


@pytest.mark.slow
def test_build_wheels_script() -> None:
    # The whole release build and its own checks (tags, auditwheel, installs without Rust);
    # minutes of compiling, so behind --runslow. The sdist compile is left to the script's
    # own full run.
    result = subprocess.run(
        [str(ROOT / "scripts" / "build-wheels"), "--no-sdist-install"],
        capture_output=True,
        text=True,
        timeout=1800,
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert f"dist/kibitz-{cargo_version()}-cp310-abi3-manylinux2014_x86_64.manylinux_2_17_x86_64.whl" in result.stdout
    assert "ok: auditwheel: consistent with manylinux_2_17_x86_64" in result.stdout
    assert result.stdout.count("ok: kibitz perft 5: 4865609 nodes") >= 1
