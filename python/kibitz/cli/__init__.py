"""The ``kibitz`` command line.

``kibitz perft [--fen FEN] [--moves M ...] DEPTH [--divide]`` counts the legal move tree.

It behaves as a Unix tool: ``--version``; errors are one line on stderr with
status 2 (argparse's usage status); a closed pipe (``kibitz perft 6 | head -1``) ends
quietly with status 141 (128 + SIGPIPE, what a shell reports for a tool a closed pipe
ended); Ctrl-C ends any subcommand without a traceback, status 130 (128 + SIGINT); long
work shows progress (tqdm) on stderr only when stderr is a terminal. Bare ``kibitz`` is
the UCI engine and is started without building the argument parser or importing the
other subcommands, so GUIs get ``uciok`` fast (benches/startup.py measures it).
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Sequence

from kibitz.cli.common import EXIT_CLOSED_PIPE, EXIT_INTERRUPTED, EXIT_USAGE, version_line

if TYPE_CHECKING:
    import argparse

__all__ = ["EXIT_CLOSED_PIPE", "EXIT_INTERRUPTED", "EXIT_USAGE", "build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    import argparse

    parser = argparse.ArgumentParser(
        prog="kibitz",
        description="kibitz: a fast, correct chess engine (Rust core, Python package).",
    )
    parser.add_argument("--version", action="version", version=version_line())
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    # Other subcommands register themselves from their own modules: each module has an
    # ``add_parser(sub)`` that adds its parser and sets ``func``.
    for register in _subcommand_registrars():
        register(sub)
    return parser


def _subcommand_registrars() -> list:  # type: ignore[type-arg]
    """The ``add_parser`` functions of the modules that provide further subcommands."""
    registrars = []
    for name in SUBCOMMAND_MODULES:
        module = __import__(f"kibitz.cli.{name}", fromlist=["add_parser"])
        registrars.append(module.add_parser)
    return registrars


# The subcommands, one module each under kibitz/cli/ (each defines add_parser(sub)).
SUBCOMMAND_MODULES: list[str] = ["perft", "perftdiff", "uci", "book", "play", "analyse", "report"]


def _run(argv: Sequence[str] | None) -> int:
    args_list = sys.argv[1:] if argv is None else list(argv)
    if not args_list:
        # Bare `kibitz` is the UCI engine (what GUIs and bots run): straight there, without
        # the parser and the other subcommands' imports (startup time to uciok).
        from kibitz.uci.protocol import run_uci

        return run_uci()
    parser = build_parser()
    args = parser.parse_args(args_list)
    if args.command is None:
        from kibitz.uci.protocol import run_uci

        return run_uci()
    if getattr(args, "depth", None) is not None and args.depth < 0:
        parser.error("DEPTH must be >= 0")
    result: int = args.func(args)
    return result


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so that the interpreter's final flush of a closed pipe
    does not print "Exception ignored ... BrokenPipeError" (the Python documentation's
    recipe for SIGPIPE)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """The ``kibitz`` command: the exit status of the subcommand, or 141 when stdout was
    closed, 130 after Ctrl-C; never a traceback for either."""
    try:
        status = _run(argv)
        sys.stdout.flush()
    except KeyboardInterrupt:
        try:
            sys.stdout.flush()
        except (OSError, ValueError):
            _silence_stdout()
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_CLOSED_PIPE
    if status == EXIT_CLOSED_PIPE:
        _silence_stdout()
    return status


if __name__ == "__main__":
    sys.exit(main())
