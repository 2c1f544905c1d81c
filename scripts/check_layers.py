#!/usr/bin/env python3
"""Checks the layering of the source tree: no import cycles between files, in Rust or in
Python, and no layer importing one above it.

Rust: a file's imports are the module paths it names (``crate::a::b``, ``super::x``); each
is resolved to the file that defines the module. Python: ``import kibitz.x`` and
``from kibitz.x import y`` at any depth of the file (lazy imports inside functions count:
a circle through a lazy import is still a circle). Prints each cycle or violation and exits
1 when there is one, 0 otherwise.
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
        "_squareset",
        "_compat",
        "svg",
        "pgn",
        "polyglot",
        "openings",
    },
    {"book", "variant", "perftdiff", "analysis", "testing", "report"},
    {"uci"},
    {"cli", "__main__"},
]


def rust_module_of(path: Path) -> tuple[str, ...]:
    rel = path.relative_to(ROOT / "rust").with_suffix("")
    parts = rel.parts
    if parts[-1] in ("mod", "lib"):
        parts = parts[:-1]
    return tuple(parts)


def rust_graph() -> dict[tuple[str, ...], set[tuple[str, ...]]]:
    files = {rust_module_of(p): p for p in (ROOT / "rust").rglob("*.rs")}
    graph: dict[tuple[str, ...], set[tuple[str, ...]]] = {m: set() for m in files}
    path_re = re.compile(r"\b(crate|super)((?:::[a-z_][a-z0-9_]*)+)")
    for mod, path in files.items():
        text = path.read_text()
        # Strip test modules: a test may use anything.
        text = text.split("#[cfg(test)]")[0]
        # Comments name modules without importing them.
        text = re.sub(r"//.*", "", text)
        is_dir_module = path.stem in ("mod", "lib")
        for m in path_re.finditer(text):
            base, rest = m.group(1), [s for s in m.group(2).split("::") if s]
            if base == "crate":
                target: tuple[str, ...] = ()
            else:
                target = mod if is_dir_module else mod[:-1]
                while rest and rest[0] == "super":
                    target = target[:-1]
                    rest = rest[1:]
            # The longest prefix that is a module file.
            best = None
            for i in range(len(rest), 0, -1):
                cand = target + tuple(rest[:i])
                if cand in files:
                    best = cand
                    break
            if best is not None and best != mod and best != ():
                graph[mod].add(best)
    return graph


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
    problems: list[str] = []
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
