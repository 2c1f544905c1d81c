"""The ``kibitz`` command line.

``kibitz perft [--fen FEN] [--moves M ...] DEPTH [--divide]`` counts the legal move tree.

It behaves as a Unix tool: ``--version``; errors are one line on stderr with
status 2 (argparse's usage status); a closed pipe (``kibitz perft 6 | head -1``) ends
quietly with status 141 (128 + SIGPIPE, what a shell reports for a tool a closed pipe
ended); Ctrl-C ends any subcommand without a traceback, status 130 (128 + SIGINT); long
work shows progress (tqdm) on stderr only when stderr is a terminal. Bare ``kibitz`` is
the UCI engine and is started without building the argument parser or importing the
other subcommands, so GUIs get ``uciok`` fast (benches/startup.py measures it).

Every subcommand runs inside one error path (``_guarded``), which sorts what escapes it:

* expected errors, the input's fault: kibitz's own exceptions about bad input (the
  ``ValueError`` subclasses that kibitz defines: FenError, InvalidPositionError,
  IllegalMoveError, BookError, ...), the perft-diff engine's failures (EngineError), and
  the system's (OSError: a missing file, a full disk): one line ``kibitz COMMAND: what is
  wrong`` on stderr, status 2;
* a console that cannot show what kibitz prints (UnicodeEncodeError on a cp1252 or cp437
  console): one line saying to set ``PYTHONIOENCODING=utf-8``, status 2;
* anything else is a bug in kibitz: one line ``kibitz COMMAND: internal error: TYPE:
  message`` asking for a bug report, status 70 (EX_SOFTWARE of sysexits.h, "internal
  software error"). With the environment variable ``KIBITZ_DEBUG=1`` the exception is
  raised instead, so its traceback is printed (an environment variable, not an option, so
  that it reaches every subcommand and bare ``kibitz`` alike).
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any, Callable, Sequence

from kibitz.cli.common import (
    EXIT_CLOSED_PIPE,
    EXIT_INTERRUPTED,
    EXIT_SOFTWARE,
    EXIT_USAGE,
    printable,
    version_line,
)

if TYPE_CHECKING:
    import argparse

__all__ = ["EXIT_CLOSED_PIPE", "EXIT_INTERRUPTED", "EXIT_SOFTWARE", "EXIT_USAGE", "build_parser", "main"]


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
SUBCOMMAND_MODULES: list[str] = ["perft", "perftdiff", "bench", "uci", "book", "play", "analyse", "report"]


def _run_uci(args: object = None) -> int:
    from kibitz.uci.protocol import run_uci

    return run_uci()


def _run(argv: Sequence[str] | None) -> int:
    args_list = sys.argv[1:] if argv is None else list(argv)
    if not args_list:
        # Bare `kibitz` is the UCI engine (what GUIs and bots run): straight there, without
        # the parser and the other subcommands' imports (startup time to uciok).
        return _guarded("kibitz", _run_uci, None)
    parser = build_parser()
    args = parser.parse_args(args_list)
    if args.command is None:
        return _guarded("kibitz", _run_uci, None)
    prog = " ".join(["kibitz", args.command] + ([args.book_command] if getattr(args, "book_command", None) else []))
    return _guarded(prog, args.func, args)


def _is_expected(error: BaseException) -> bool:
    """Whether ``error`` is the input's fault rather than a bug (see the module notes)."""
    if isinstance(error, OSError):
        return True
    if isinstance(error, ValueError):
        return type(error).__module__.split(".")[0] == "kibitz"  # kibitz's own input errors
    from kibitz.perftdiff import EngineError

    return isinstance(error, EngineError)


def _guarded(prog: str, func: Callable[[Any], int], args: Any) -> int:
    """``func(args)``, with every exception but Ctrl-C and a closed pipe (which ``main``
    handles) turned into one line on stderr and an exit status (the module notes)."""
    try:
        result: int = func(args)
        return result
    except (KeyboardInterrupt, BrokenPipeError):
        raise
    except UnicodeEncodeError as e:
        shown = e.object[e.start : e.end] if isinstance(e.object, str) else "?"
        _say(
            f"{prog}: this console's encoding ({e.encoding}) cannot show {shown!r}: "
            "set PYTHONIOENCODING=utf-8 (or use a UTF-8 terminal) and run it again"
        )
        return EXIT_USAGE
    except Exception as e:
        if _is_expected(e):
            if isinstance(e, OSError) and e.strerror:
                _say(f"{prog}: {e.filename!r}: {e.strerror}" if e.filename else f"{prog}: {e.strerror}")
            else:
                _say(f"{prog}: {e}")
            return EXIT_USAGE
        if os.environ.get("KIBITZ_DEBUG", "") not in ("", "0"):
            raise
        _say(
            f"{prog}: internal error: {type(e).__name__}: {e} (a bug in kibitz: please report it with "
            "the command that gave it; KIBITZ_DEBUG=1 shows the traceback)"
        )
        return EXIT_SOFTWARE


def _say(line: str) -> None:
    """One line on stderr: the message's line breaks and control characters escaped."""
    print(printable(line), file=sys.stderr)


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
    # Started with a standard stream closed (`kibitz perft 3 >&-`), Python has None there:
    # read end of file from a closed stdin, and write nowhere to a closed stdout or stderr.
    for name, mode in (("stdin", "r"), ("stdout", "w"), ("stderr", "w")):
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, mode, encoding="utf-8"))
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
