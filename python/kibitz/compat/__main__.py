"""``python -m kibitz.compat script.py ARGS`` (or ``-m module ARGS``, ``-c code ARGS``): runs
a python-chess program as ``python`` would, with ``kibitz.compat.install()`` done first."""

from __future__ import annotations

import os
import runpy
import sys
import types
from typing import List

USAGE = """\
usage: python -m kibitz.compat script.py [ARGS...]
       python -m kibitz.compat -m module [ARGS...]
       python -m kibitz.compat -c code [ARGS...]

Runs a python-chess program on kibitz: `import chess` gives kibitz, chess.pgn, chess.polyglot,
chess.syzygy and chess.svg are kibitz's, and chess.engine and chess.gaviota come from
python-chess, on top of kibitz."""

# The exit status Python gives for a script it cannot open or an option it lacks.
_USAGE_ERROR = 2


def run(args: List[str]) -> int:
    """Runs what `args` name (see USAGE); returns the exit status when the program ends
    without raising SystemExit."""
    from kibitz.compat import install

    if not args or args[0] in ("-h", "--help"):
        print(USAGE, file=sys.stdout if args else sys.stderr)
        return 0 if args else _USAGE_ERROR
    if args[0] in ("-m", "-c") and len(args) < 2:
        print(f"kibitz.compat: argument expected for the {args[0]} option\n\n{USAGE}", file=sys.stderr)
        return _USAGE_ERROR
    install()
    if args[0] == "-m":
        # As `python -m`: sys.argv[0] becomes the module's file, the current directory leads sys.path.
        sys.argv = [args[1], *args[2:]]
        sys.path[0] = os.getcwd()
        runpy.run_module(args[1], run_name="__main__", alter_sys=True)
    elif args[0] == "-c":
        sys.argv = ["-c", *args[2:]]
        sys.path[0] = ""
        main = types.ModuleType("__main__")
        sys.modules["__main__"] = main
        exec(compile(args[1], "<string>", "exec"), main.__dict__)
    else:
        path = args[0]
        if not os.path.exists(path):
            print(f"kibitz.compat: can't open file {os.path.abspath(path)!r}: no such file", file=sys.stderr)
            return _USAGE_ERROR
        sys.argv = list(args)
        # As `python script.py`: the script's directory leads sys.path (a directory or zip
        # archive with a __main__.py: runpy puts it there itself).
        sys.path[0] = os.path.dirname(os.path.abspath(path)) if os.path.isfile(path) else sys.path[0]
        runpy.run_path(path, run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
