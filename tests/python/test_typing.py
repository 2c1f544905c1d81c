"""The package is typed: every ```python example in the README passes ``mypy --strict``.

The examples are taken from the README as it stands (whatever blocks it has), each written
to a module of its own and checked against the installed ``kibitz`` (its ``py.typed`` and
``_core.pyi``), so an example that misuses the API, or a stub that disagrees with an
example, fails here.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# A fenced block opening with ```python (optionally indented, as in a list) up to its fence.
BLOCK = re.compile(r"^([ \t]*)```python[ \t]*\n(.*?)^\1```[ \t]*$", re.MULTILINE | re.DOTALL)


def readme_python_blocks() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = []
    for match in BLOCK.finditer(text):
        indent, body = match.group(1), match.group(2)
        lines = [line[len(indent) :] if line.startswith(indent) else line for line in body.splitlines()]
        blocks.append("\n".join(lines) + "\n")
    return blocks


def test_readme_has_python_examples() -> None:
    # The README keeps at least the Board/Engine example; if none were found the mypy check
    # below would pass vacuously.
    assert readme_python_blocks(), "no ```python blocks found in README.md"


def test_extractor_finds_indented_and_plain_blocks() -> None:
    text = "x\n```python\na = 1\n```\n* item\n\n  ```python\n  b = 2\n  ```\n```sh\nc\n```\n"
    found = [m.group(2) for m in BLOCK.finditer(text)]
    assert found == ["a = 1\n", "  b = 2\n"]


def test_readme_examples_pass_mypy_strict(tmp_path: Path) -> None:
    pytest.importorskip("mypy")
    files = []
    for i, code in enumerate(readme_python_blocks()):
        path = tmp_path / f"readme_example_{i}.py"
        path.write_text(code, encoding="utf-8")
        files.append(str(path))
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--cache-dir",
            str(tmp_path / ".mypy_cache"),
            *files,
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,  # not the repository: check the installed package, as a user would
        timeout=300,
    )
    report = result.stdout + result.stderr
    for i, name in enumerate(files):
        report = report.replace(Path(name).name, f"README python block {i + 1}")
    assert result.returncode == 0, report
    assert "Success" in result.stdout, report


def test_stubs_match_the_extension(tmp_path: Path) -> None:
    # mypy's stubtest imports kibitz._core and compares every name, signature and property
    # with _core.pyi: a method added in Rust without a stub (or the reverse) fails here.
    pytest.importorskip("mypy")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy.stubtest",
            "kibitz._core",
            "--allowlist",
            str(Path(__file__).with_name("stubtest_allowlist.txt")),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Success" in result.stdout, result.stdout
