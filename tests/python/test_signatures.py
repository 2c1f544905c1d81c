"""python-chess's modules name for name: every public function, class and method python-chess
defines in chess, chess.pgn, chess.polyglot, chess.syzygy, chess.svg and chess.variant exists
in kibitz's module of the same name (kibitz.variant.boards for chess.variant) and takes its parameters by the same names, so that calls written
for python-chess, keyword calls included, work unchanged. kibitz may add keyword-only
parameters with defaults after python-chess's."""

from __future__ import annotations

import importlib
import inspect
from typing import Any, List, Optional

import pytest

MODULES = ["chess", "chess.pgn", "chess.polyglot", "chess.syzygy", "chess.svg", "chess.variant"]
# kibitz's module for each (the same name under kibitz, but for these).
OURS = {"chess.variant": "kibitz.variant.boards"}

# The table classes' own decoding steps in python-chess's Syzygy reader (called by its
# constructors only); kibitz's reader decodes the tables its own way.
NOT_PROVIDED = {
    ("chess.syzygy", "Table", name)
    for name in (
        "setup_pairs",
        "set_norm_piece",
        "calc_factors_piece",
        "calc_factors_pawn",
        "set_norm_pawn",
        "calc_symlen",
    )
} | {
    ("chess.syzygy", "WdlTable", "setup_pieces_pawn"),
    ("chess.syzygy", "WdlTable", "setup_pieces_piece"),
    ("chess.syzygy", "DtzTable", "setup_pieces_piece_dtz"),
    ("chess.syzygy", "DtzTable", "setup_pieces_pawn_dtz"),
}


def parameters(f: Any) -> Optional[List[inspect.Parameter]]:
    """The parameters after self / cls, or None when there is nothing to compare (no
    signature to read, or a catch-all ``*args, **kwargs``)."""
    try:
        found = [p for p in inspect.signature(f).parameters.values() if p.name not in ("self", "cls")]
    except (TypeError, ValueError):
        return None
    if [p.kind for p in found] == [inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD]:
        return None
    return found


def same_parameters(label: str, theirs: Any, ours: Any) -> bool:
    """Asserts python-chess's parameter names lead kibitz's; whether anything was compared."""
    t, o = parameters(theirs), parameters(ours)
    if t is None or o is None:
        return False
    names = [p.name for p in t]
    assert [p.name for p in o][: len(names)] == names, (label, [p.name for p in o], names)
    extra = [p for p in o[len(names) :] if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    takes_any = any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in t)
    assert takes_any or all(p.kind == p.KEYWORD_ONLY and p.default is not p.empty for p in extra), (label, extra)
    return True


@pytest.mark.parametrize("module", MODULES)
def test_every_public_name_of_python_chess_s_module_takes_the_same_parameters(module: str) -> None:
    theirs = importlib.import_module(module)
    ours = importlib.import_module(OURS.get(module, module.replace("chess", "kibitz", 1)))
    compared = 0
    for name, value in vars(theirs).items():
        if name.startswith("_") or getattr(value, "__module__", None) != module:
            continue
        assert hasattr(ours, name), f"kibitz has no {module}.{name}"
        mine = getattr(ours, name)
        if not inspect.isclass(value):
            if callable(value):
                compared += same_parameters(f"{module}.{name}", value, mine)
            continue
        for member, theirs_member in vars(value).items():
            if member.startswith("_") and member != "__init__":
                continue
            if not callable(getattr(value, member, None)) or inspect.isclass(theirs_member):
                continue
            if (module, name, member) in NOT_PROVIDED:
                continue
            assert hasattr(mine, member), f"kibitz has no {module}.{name}.{member}"
            compared += same_parameters(f"{module}.{name}.{member}", getattr(value, member), getattr(mine, member))
    assert compared >= 5, compared
