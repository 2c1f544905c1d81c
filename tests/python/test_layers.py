"""scripts/check_layers.py itself: on the tree it finds nothing, and on small synthetic trees
it finds each kind of circle and reach it is meant to find (a parent using its child while
the child uses the parent, a glob of the parent, the bindings reaching past lib.rs, a
Python import circle), while a child extending its parent alone is no circle."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "check_layers.py"


def checker(root: Path) -> ModuleType:
    """The checker module, pointed at ``root`` instead of the repository."""
    spec = importlib.util.spec_from_file_location("check_layers_under_test", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.ROOT = root
    return module


def tree(tmp_path: Path, files: dict[str, str]) -> ModuleType:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    (tmp_path / "python" / "kibitz").mkdir(parents=True, exist_ok=True)
    (tmp_path / "python" / "kibitz" / "__init__.py").write_text("")
    return checker(tmp_path)


def test_the_tree_passes() -> None:
    result = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 problem(s)" in result.stdout


def cycles(module: ModuleType) -> list[list[tuple[str, ...]]]:
    return [sorted(c) for c in module.cycles(module.rust_graph())]


def test_a_parent_using_its_child_that_globs_the_parent_is_a_circle(tmp_path: Path) -> None:
    m = tree(
        tmp_path,
        {
            "rust/lib.rs": "mod chess;\n",
            "rust/chess/mod.rs": "mod board;\nuse board::EMPTY;\npub struct State;\n",
            "rust/chess/board.rs": "use super::*;\npub const EMPTY: u8 = 0;\n",
        },
    )
    assert cycles(m) == [[("chess",), ("chess", "board")]]


def test_braced_and_plain_parent_paths_are_imports(tmp_path: Path) -> None:
    m = tree(
        tmp_path,
        {
            "rust/lib.rs": "mod chess;\n",
            "rust/chess/mod.rs": "mod board;\nmod fen;\npub(crate) fn helper() {}\nfn f() { fen::read(); }\n",
            "rust/chess/fen.rs": "use super::{helper};\npub(crate) fn read() { helper() }\n",
            "rust/chess/board.rs": "pub(super) const X: u8 = 0;\n",
        },
    )
    assert cycles(m) == [[("chess",), ("chess", "fen")]]


def test_a_child_extending_its_parent_alone_is_no_circle(tmp_path: Path) -> None:
    m = tree(
        tmp_path,
        {
            "rust/lib.rs": "mod chess;\n",
            "rust/chess/mod.rs": "mod board;\npub(super) struct State;\npub(crate) fn f() {}\n",
            "rust/chess/board.rs": "use super::*;\nimpl State { pub(super) fn g(&self) { f() } }\n",
        },
    )
    assert cycles(m) == []


def test_inline_modules_start_their_own_paths(tmp_path: Path) -> None:
    m = tree(
        tmp_path,
        {
            "rust/lib.rs": "mod eval;\n",
            "rust/eval/mod.rs": "mod simd;\npub use simd::Lanes;\n",
            "rust/eval/simd.rs": "pub struct Lanes;\nmod avx2 {\n    use super::*;\n}\n",
        },
    )
    assert cycles(m) == []


def test_the_bindings_reach_the_library_only_through_lib_rs(tmp_path: Path) -> None:
    m = tree(
        tmp_path,
        {
            "rust/lib.rs": "mod chess;\nmod python;\npub use chess::fen::read;\n",
            "rust/chess/mod.rs": "pub(crate) mod fen;\n",
            "rust/chess/fen.rs": "pub fn read() {}\npub fn split() {}\n",
            "rust/python/mod.rs": "fn f() { crate::read(); crate::chess::fen::split(); }\n",
        },
    )
    problems = m.bindings_beyond_lib()
    assert len(problems) == 1 and "crate::chess::fen::split" in problems[0]


def test_a_python_import_circle(tmp_path: Path) -> None:
    m = tree(tmp_path, {"rust/lib.rs": ""})
    pkg = tmp_path / "python" / "kibitz"
    (pkg / "a.py").write_text("import kibitz.b\n")
    (pkg / "b.py").write_text("def f():\n    from kibitz import a\n")
    assert [sorted(c) for c in m.cycles(m.py_graph())] == [["kibitz.a", "kibitz.b"]]


@pytest.mark.parametrize("visibility", ["pub(super)", "pub(crate)", "pub(self)"])
def test_visibilities_are_not_paths(tmp_path: Path, visibility: str) -> None:
    m = tree(
        tmp_path,
        {
            "rust/lib.rs": "mod chess;\n",
            "rust/chess/mod.rs": "mod board;\n",
            "rust/chess/board.rs": f"{visibility} const X: u8 = 0;\n",
        },
    )
    assert m.rust_graph()[("chess", "board")] == set()


def test_a_room_that_names_no_module_is_reported(tmp_path: Path) -> None:
    m = tree(tmp_path, {"rust/lib.rs": "mod chess;\n", "rust/chess/mod.rs": ""})
    m.RUST_LEVEL = {"chess": 0, "gone": 1}
    m.RUST_ALONE = set()
    m.PY_LAYERS = [{"", "_core", "svg"}]
    pkg = tmp_path / "python" / "kibitz"
    (pkg / "_core.pyi").write_text("")
    assert m.unknown_names() == [
        "rust: the layer 'gone' names no module under rust/",
        "python: the room 'svg' names no module under python/kibitz/",
    ]


def test_a_file_over_the_line_limit_is_reported(tmp_path: Path) -> None:
    m = tree(tmp_path, {"rust/lib.rs": "mod chess;\n", "rust/chess/mod.rs": "\n" * 1001})
    (tmp_path / "python" / "kibitz" / "pgn.py").write_text("\n" * 1500)
    (tmp_path / "python" / "kibitz" / "fits.py").write_text("\n" * 1000)
    assert m.long_files() == ["rust/chess/mod.rs has 1001 lines (more than 1000): split it by idea"]
