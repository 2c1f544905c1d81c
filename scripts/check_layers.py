#!/usr/bin/env python3
"""Checks the layering of the source tree: no import cycles between files, in Rust or in
Python, and no layer importing one above it.

Rust: a file's imports are the module paths it names (``crate::a::b``, ``super::x``,
``super::{..}``, a glob of the parent ``use super::*``) and the paths that start at one of
its own child modules (``mod x; use x::y``); each is resolved to the file that defines the
module (paths inside inline modules start from them). The bindings (``rust/python/``) may
use the library only through what ``lib.rs`` re-exports. Python: ``import kibitz.x`` and
``from kibitz.x import y`` at any depth of the file (lazy imports inside functions count:
a circle through a lazy import is still a circle). A file over ``MAX_LINES`` lines holds
more than one idea and is reported too (``pgn.py`` follows python-chess's module class by
class and may be longer). Prints each cycle or violation and exits 1 when there is one, 0
otherwise.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Rust layers, bottom up: a file in a layer may import from its own layer and those below
# (the evaluation and the tablebases stand side by side, on the rules library).
RUST_LEVEL = {"chess": 0, "eval": 1, "tablebase": 1, "engine": 2, "python": 3}
# The variant generator stands alone: it imports nothing from the other layers.
RUST_ALONE = {"variant"}

# Python rooms, bottom up, by the first component under kibitz/ ("" = the top-level
# modules of the python-chess-shaped library). A room may import its own and lower ones.
PY_LAYERS = [
    {
        "",
        "_core",
        "_constants",
        "_outcome",
        "_bitboards",
        "svg",
        "pgn",
        "polyglot",
        "openings",
        "timeman",
        # python-chess's chess.variant boards (variant.boards) beside the table-driven
        # generator; pgn reads a Variant tag with them.
        "variant",
    },
    {"book", "perftdiff", "analysis", "testing", "report", "compat"},
    {"uci"},
    {"cli", "__main__"},
]


# Source files longer than this hold several ideas; split them by idea.
MAX_LINES = 1000
LONG_ALLOWED = {"python/kibitz/pgn.py"}


def long_files() -> list[str]:
    """Each Rust or Python source file (tests, benches and tools included) over MAX_LINES."""
    out = []
    for top in ("rust", "python", "tests", "benches", "scripts", "tools", "training", "examples"):
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix not in (".rs", ".py") or not path.is_file():
                continue
            rel = path.relative_to(ROOT).as_posix()
            n = len(path.read_text(encoding="utf-8").splitlines())
            if n > MAX_LINES and rel not in LONG_ALLOWED:
                out.append(f"{rel} has {n} lines (more than {MAX_LINES}): split it by idea")
    return out


def unknown_names() -> list[str]:
    """The layers and rooms above that name no module of the tree: a name left behind by a
    rename or a removal would otherwise hide that its new module has no place of its own."""
    out = []
    for name in sorted(set(RUST_LEVEL) | RUST_ALONE):
        if not (ROOT / "rust" / name).is_dir() and not (ROOT / "rust" / f"{name}.rs").is_file():
            out.append(f"rust: the layer {name!r} names no module under rust/")
    pkg = ROOT / "python" / "kibitz"
    for rooms in PY_LAYERS:
        for name in sorted(rooms - {""}):
            # _core is the extension: its stub stands for it in the tree.
            if not any((pkg / f).exists() for f in (name, f"{name}.py", f"{name}.pyi")):
                out.append(f"python: the room {name!r} names no module under python/kibitz/")
    return out


def rust_module_of(path: Path) -> tuple[str, ...]:
    rel = path.relative_to(ROOT / "rust").with_suffix("")
    parts = rel.parts
    if parts[-1] in ("mod", "lib"):
        parts = parts[:-1]
    return tuple(parts)


def rust_graph() -> dict[tuple[str, ...], set[tuple[str, ...]]]:
    files = {rust_module_of(p): p for p in (ROOT / "rust").rglob("*.rs")}
    graph: dict[tuple[str, ...], set[tuple[str, ...]]] = {m: set() for m in files}
    # Module paths: `crate::a::b::Item`, `super::x`, `super::{...}`, `self::x::*`.
    # (`pub(super)` and `pub(crate)` are visibilities, not paths: a path goes on with `::`.)
    path_re = re.compile(r"\b(crate|super|self)(?=::)((?:::[A-Za-z_][A-Za-z0-9_]*)*)(::\{|::\*)?")
    # A path that starts at one of the file's own child modules (`mod x;` then `use x::...`
    # or `x::f()`): the parent uses its child. A glob of the parent (`use super::*;`) uses
    # the parent module itself.
    child_re = re.compile(r"(?<![\w:])([a-z_][a-z0-9_]*)::(?:[A-Za-z_{*])")
    glob_re = re.compile(r"\buse\s+(super|crate)((?:::super)*)::\*\s*;")
    for mod, path in files.items():
        text = path.read_text()
        # Strip test modules: a test may use anything.
        text = text.split("#[cfg(test)]")[0]
        # Comments name modules without importing them.
        text = re.sub(r"//.*", "", text)
        # Inline modules (`mod avx2 { use super::*; ... }`): a path inside one starts from
        # it, so its `super` is the file's own module, not the file's parent.
        inline = inline_modules(text)

        def depth_at(pos: int) -> int:
            return sum(1 for start, end in inline if start <= pos < end)

        # `self` is the file's module and `super` its parent, whether the file is a
        # `mod.rs` or a leaf; `mod x;` declares the child `self::x`.
        children = {c for c in re.findall(r"\bmod\s+([a-z_][a-z0-9_]*)\s*;", text) if mod + (c,) in files}
        for m in glob_re.finditer(text):
            supers = (m.group(1) == "super") + m.group(2).count("super") - depth_at(m.start())
            if m.group(1) == "crate" or supers <= 0:
                continue
            target = mod[: len(mod) - supers]
            if target in files and target != ():
                graph[mod].add(target)
        for m in child_re.finditer(text):
            first = m.group(1)
            if first in children:
                graph[mod].add(mod + (first,))
        for m in path_re.finditer(text):
            base, rest = m.group(1), [s for s in m.group(2).split("::") if s]
            if base == "crate":
                target: tuple[str, ...] = ()
            elif base == "self":
                target = mod
            else:
                supers = 1
                while rest and rest[0] == "super":
                    supers += 1
                    rest = rest[1:]
                supers -= depth_at(m.start())
                if supers <= 0:
                    continue  # a path inside this file's inline modules
                target = mod[: len(mod) - supers]
            # The longest prefix that is a module file (the module itself for an item of it).
            best = None
            for i in range(len(rest), -1, -1):
                cand = target + tuple(rest[:i])
                if cand in files:
                    best = cand
                    break
            if best is not None and best != mod and best != ():
                graph[mod].add(best)
    return graph


def inline_modules(text: str) -> list[tuple[int, int]]:
    """The (start, end) offsets of each inline module's body (`mod name { ... }`), found by
    counting braces (comments are already stripped; braces in strings are rare enough in
    module bodies to ignore)."""
    spans = []
    for m in re.finditer(r"\bmod\s+[a-z_][a-z0-9_]*\s*\{", text):
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        spans.append((m.end(), i))
    return spans


def bindings_beyond_lib() -> list[str]:
    """The bindings (`rust/python/`) use the library only through what `lib.rs` exports
    (`crate::Board`, `crate::perft`): a path into a module (`crate::chess::fen::...`)
    reaches past that surface."""
    out = []
    inner = "|".join(sorted((set(RUST_LEVEL) | RUST_ALONE) - {"python"}))
    reach = re.compile(rf"\bcrate::({inner})::[A-Za-z_][A-Za-z0-9_:]*")
    for path in sorted((ROOT / "rust" / "python").rglob("*.rs")):
        text = re.sub(r"//.*", "", path.read_text().split("#[cfg(test)]")[0])
        for m in reach.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            out.append(f"rust: {path.relative_to(ROOT)}:{line} reaches past lib.rs's exports: {m.group(0)}")
    return out


def py_graph() -> dict[str, set[str]]:
    pkg = ROOT / "python" / "kibitz"
    mods: dict[str, Path] = {}
    for p in pkg.rglob("*.py"):
        rel = p.relative_to(pkg.parent).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        mods[".".join(parts)] = p
    graph: dict[str, set[str]] = {m: set() for m in mods}
    for mod, path in mods.items():
        tree = ast.parse(path.read_text())
        is_pkg = path.name == "__init__.py"
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = mod.split(".") if is_pkg else mod.split(".")[:-1]
                    base = base[: len(base) - node.level + 1]
                    prefix = ".".join(base + ([node.module] if node.module else []))
                else:
                    prefix = node.module or ""
                names = [prefix] + [f"{prefix}.{a.name}" for a in node.names]
            for name in names:
                if not name.startswith("kibitz"):
                    continue
                parts = name.split(".")
                for i in range(len(parts), 0, -1):
                    cand = ".".join(parts[:i])
                    if cand in mods:
                        if cand != mod and not mod.startswith(cand + "."):
                            # A package's own __init__ is imported by its submodules'
                            # imports implicitly; count only explicit imports of it.
                            graph[mod].add(cand)
                        break
    return graph


def cycles(graph: dict) -> list[list]:
    """Every strongly connected component with more than one member (Tarjan)."""
    index: dict = {}
    low: dict = {}
    stack: list = []
    on: set = set()
    out: list[list] = []
    counter = [0]

    def visit(v: object) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in list(graph):
        if v not in index:
            visit(v)
    return out


def main() -> int:
    problems: list[str] = unknown_names()
    rg = rust_graph()
    for comp in cycles(rg):
        problems.append("rust import cycle: " + " <-> ".join("::".join(m) for m in comp))
    for mod, deps in rg.items():
        if not mod:
            continue
        layer = mod[0]
        for dep in deps:
            dl = dep[0]
            if layer in RUST_ALONE or dl in RUST_ALONE:
                if dl != layer:
                    problems.append(f"rust: {'::'.join(mod)} uses {'::'.join(dep)} across the variant generator's wall")
                continue
            if layer in RUST_LEVEL and dl in RUST_LEVEL and dl != layer and RUST_LEVEL[dl] >= RUST_LEVEL[layer]:
                problems.append(f"rust: {'::'.join(mod)} ({layer}) reaches up or across to {'::'.join(dep)} ({dl})")
    problems.extend(bindings_beyond_lib())
    problems.extend(long_files())
    pg = py_graph()
    for comp in cycles(pg):
        problems.append("python import cycle: " + " <-> ".join(comp))

    def room(m: str) -> int:
        parts = m.split(".")
        first = parts[1] if len(parts) > 1 else ""
        for i, rooms in enumerate(PY_LAYERS):
            if first in rooms:
                return i
        return 0

    for mod, deps in pg.items():
        if mod == "kibitz":  # the package's face re-exports from every room
            continue
        for dep in deps:
            if room(dep) > room(mod):
                problems.append(f"python: {mod} reaches up to {dep}")
    for p in problems:
        print(p)
    n_r = sum(len(v) for v in rg.values())
    n_p = sum(len(v) for v in pg.values())
    print(
        f"checked {len(rg)} Rust files ({n_r} imports), {len(pg)} Python modules ({n_p} imports): "
        f"{len(problems)} problem(s)"
    )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
