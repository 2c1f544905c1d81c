"""Unchanged python-chess programs on kibitz: ``import chess`` gives kibitz.

``install()`` puts an import hook first on ``sys.meta_path`` so that ``chess`` is kibitz
(``chess.Board`` is ``kibitz.Board``, and so on for every name kibitz shares with
python-chess) and ``chess.pgn``, ``chess.polyglot``, ``chess.syzygy`` and ``chess.svg`` are
kibitz's modules of those names; ``chess.variant`` is ``kibitz.variant.boards``,
python-chess's variant boards on kibitz's board. python-chess's modules kibitz has no
counterpart for (``chess.engine``, ``chess.gaviota``) are loaded from python-chess when it is installed, on top of kibitz:
their own ``import chess`` gives kibitz, so their classes work with kibitz boards
(``chess.engine.SimpleEngine.play(board, ...)`` with a ``kibitz.Board``). Without
python-chess, importing one of them raises ``ImportError`` saying so.

``uninstall()`` takes the hook out and puts back the ``chess`` modules imported before
``install()`` (python-chess's, if a program had imported them): both are idempotent.
Call ``install()`` before the program imports ``chess``; a module that already holds
python-chess's ``chess`` keeps it.

``python -m kibitz.compat script.py ARGS`` runs a script as ``python script.py ARGS`` would
(``sys.argv``, ``__name__ == "__main__"``, the script's directory first on ``sys.path``),
with ``install()`` done first; ``python -m kibitz.compat -m module ARGS`` runs a module as
``python -m`` does.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import threading
import types
from typing import Any, Callable, Dict, Optional, Sequence

import kibitz

__all__ = ["ALIASES", "PYTHON_CHESS_VERSION", "install", "installed", "main", "uninstall"]

#: The python-chess release whose API kibitz follows (its tests compare kibitz with it):
#: ``chess.__version__`` under the hook.
PYTHON_CHESS_VERSION = "1.11.2"

#: python-chess's modules and the kibitz modules that stand in for them.
ALIASES = {
    "chess": "kibitz",
    "chess.pgn": "kibitz.pgn",
    "chess.polyglot": "kibitz.polyglot",
    "chess.syzygy": "kibitz.syzygy",
    "chess.svg": "kibitz.svg",
    "chess.variant": "kibitz.variant.boards",
}

_INSTALL_HINT = "pip install chess"


def _python_chess_dir() -> Optional[Sequence[str]]:
    """Where python-chess's package is installed (its search locations), found on
    ``sys.path`` without importing it; None when it is not installed."""
    spec = importlib.machinery.PathFinder.find_spec("chess")
    if spec is None or not spec.submodule_search_locations:
        return None
    return list(spec.submodule_search_locations)


class _ChessModule(types.ModuleType):
    """The module ``chess`` under the hook: kibitz's names (``chess.Board is
    kibitz.Board``), python-chess's submodules as attributes once imported."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        if f"chess.{name}" in ALIASES:
            return importlib.import_module(f"chess.{name}")
        value = getattr(kibitz, name, None)
        if value is None or isinstance(value, types.ModuleType):
            # kibitz's own subpackages (kibitz.variant is not chess.variant) stay out.
            raise AttributeError(f"module 'chess' has no attribute {name!r}")
        return value


def _chess_module() -> types.ModuleType:
    module = _ChessModule("chess", kibitz.__doc__)
    for name, value in vars(kibitz).items():
        if not name.startswith("__") and not isinstance(value, types.ModuleType):
            setattr(module, name, value)
    module.__file__ = kibitz.__file__
    module.__path__ = []  # a package: `import chess.pgn` asks the hook
    setattr(module, "__all__", list(kibitz.__all__))
    # python-chess's version whose API kibitz follows, for programs that test
    # `chess.__version__` before using a feature (kibitz's own is `kibitz.__version__`).
    setattr(module, "__version__", PYTHON_CHESS_VERSION)
    setattr(module, "__author__", "the kibitz developers")
    return module


class _Alias(importlib.abc.Loader):
    """Loads a name as an existing module: the import system creates a placeholder, which
    `exec_module` replaces in ``sys.modules`` (the module's own ``__spec__`` is left alone)."""

    def __init__(self, target: Callable[[], types.ModuleType]) -> None:
        self._target = target

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> Optional[types.ModuleType]:
        return None

    def exec_module(self, module: types.ModuleType) -> None:
        sys.modules[module.__name__] = self._target()


class _Finder(importlib.abc.MetaPathFinder):
    """The hook: ``chess`` and ``chess.*`` as the module's doc says."""

    def __init__(self) -> None:
        self._chess: Optional[types.ModuleType] = None

    def _chess_proxy(self) -> types.ModuleType:
        if self._chess is None:
            self._chess = _chess_module()
        return self._chess

    def find_spec(
        self, fullname: str, path: Optional[Sequence[str]] = None, target: Optional[types.ModuleType] = None
    ) -> Optional[importlib.machinery.ModuleSpec]:
        if fullname == "chess":
            return importlib.util.spec_from_loader(fullname, _Alias(self._chess_proxy), is_package=True)
        if not fullname.startswith("chess."):
            return None
        alias = ALIASES.get(fullname)
        if alias is not None:
            return importlib.util.spec_from_loader(fullname, _Alias(lambda: importlib.import_module(alias)))
        locations = _python_chess_dir()
        if locations is None:
            raise ModuleNotFoundError(
                f"{fullname} is python-chess's module, and python-chess is not installed: kibitz.compat gives "
                f"kibitz for chess, chess.pgn, chess.polyglot, chess.syzygy and chess.svg and loads the rest "
                f"from python-chess ({_INSTALL_HINT})",
                name=fullname,
            )
        # python-chess's own module, run under its own name: its `import chess` gives kibitz.
        return importlib.machinery.PathFinder.find_spec(fullname, locations)


_lock = threading.Lock()
_finder: Optional[_Finder] = None
_saved: Dict[str, types.ModuleType] = {}


def installed() -> bool:
    """Whether the hook is installed."""
    return _finder is not None and _finder in sys.meta_path


def _chess_names() -> list[str]:
    return [name for name in sys.modules if name == "chess" or name.startswith("chess.")]


def install() -> None:
    """Makes ``import chess`` (and ``chess.pgn``, ``chess.polyglot``, ``chess.syzygy``,
    ``chess.svg``) give kibitz, and loads python-chess's other modules on top of it (see
    the module's doc). Doing it twice changes nothing."""
    global _finder
    with _lock:
        if installed():
            return
        _saved.clear()
        for name in _chess_names():
            module = sys.modules.pop(name)
            if module is not None:
                _saved[name] = module
        _finder = _Finder()
        sys.meta_path.insert(0, _finder)


def uninstall() -> None:
    """Takes the hook out: ``chess`` is python-chess again (the modules imported before
    ``install()`` come back). Nothing happens when it is not installed."""
    global _finder
    with _lock:
        if _finder is None:
            return
        if _finder in sys.meta_path:
            sys.meta_path.remove(_finder)
        for name in _chess_names():
            del sys.modules[name]
        sys.modules.update(_saved)
        _saved.clear()
        _finder = None


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``python -m kibitz.compat``: see the module's doc."""
    from kibitz.compat.__main__ import run

    return run(list(sys.argv[1:] if argv is None else argv))
