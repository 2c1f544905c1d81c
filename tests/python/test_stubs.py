"""The typed stub of the Rust extension: stubtest agrees with the runtime, and every public
name in it carries a one-line docstring."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import kibitz
import kibitz._core

STUB = Path(kibitz.__file__).with_name("_core.pyi")


def test_stubtest_agrees_with_the_extension(tmp_path: Path) -> None:
    # Run from an empty directory so the installed package, not the source tree, is checked.
    allowlist = Path(__file__).with_name("stubtest_allowlist.txt")
    r = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "kibitz._core", "--allowlist", str(allowlist)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**os.environ, "MYPY_CACHE_DIR": str(tmp_path / "cache")},
    )
    assert r.returncode == 0, r.stdout + r.stderr


def test_every_public_name_of_the_stub_has_a_docstring() -> None:
    tree = ast.parse(STUB.read_text(encoding="utf-8"))
    missing = []
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            if ast.get_docstring(node) is None:
                missing.append(node.name)
            for item in node.body:
                if (
                    isinstance(item, ast.FunctionDef)
                    and not item.name.startswith("_")
                    and ast.get_docstring(item) is None
                ):
                    missing.append(f"{node.name}.{item.name}")
    assert not missing, f"no docstring: {missing}"


def test_all_names_exist() -> None:
    for name in kibitz.__all__:
        assert hasattr(kibitz, name), name
    # Everything kibitz re-exports from the extension is in the stub's __all__.
    tree = ast.parse(STUB.read_text(encoding="utf-8"))
    stub_all = next(n.value for n in tree.body if isinstance(n, ast.Assign) and n.targets[0].id == "__all__")  # type: ignore[attr-defined]
    in_stub = {elt.value for elt in stub_all.elts}  # type: ignore[attr-defined]
    for name in kibitz.__all__:
        if getattr(getattr(kibitz, name), "__module__", None) == "kibitz" and name in dir(kibitz._core):
            assert name in in_stub, name
