"""The ``kibitz`` command line.

``kibitz perft [--fen FEN] [--moves M ...] DEPTH [--divide]`` counts the legal move tree.

It behaves as a Unix tool (issue 11): ``--version``; errors are one line on stderr with
status 2 (argparse's usage status); a closed pipe (``kibitz perft 6 | head -1``) ends
quietly with status 141 (128 + SIGPIPE, what a shell reports for a tool a closed pipe
ended); Ctrl-C ends any subcommand without a traceback, status 130 (128 + SIGINT); long
work shows progress (tqdm) on stderr only when stderr is a terminal. Bare ``kibitz`` is
the UCI engine and is started without building the argument parser or importing the
other subcommands, so GUIs get ``uciok`` fast (benches/startup.py measures it).
"""

from __future__ import annotations

import math
import os
import sys
import time
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, Optional, Sequence, TypeVar

from kibitz._core import Board, FenError, IllegalMoveError, InvalidMoveError

if TYPE_CHECKING:
    import argparse

T = TypeVar("T")

# Exit statuses (the shell's conventions).
EXIT_USAGE = 2  # bad arguments (argparse's own status)
EXIT_INTERRUPTED = 130  # 128 + SIGINT
EXIT_CLOSED_PIPE = 141  # 128 + SIGPIPE

# perft at this depth and deeper shows progress (start position depth 7: ~3.2e9 leaves,
# tens of seconds); shallower ones end before a bar would be useful.
PROGRESS_DEPTH = 7


def int_in(lo: int, hi: int) -> Callable[[str], int]:
    """An argparse type: an integer within lo..hi, else a usage error naming the range."""

    def parse(text: str) -> int:
        import argparse

        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"{text} is not within {lo}..{hi}")
        return value

    parse.__name__ = "integer"
    return parse


def float_in(lo: float, hi: float, *, lo_open: bool = False) -> Callable[[str], float]:
    """An argparse type: a finite number within lo..hi (above lo when lo_open), else a usage
    error; nan and inf are refused."""

    def parse(text: str) -> float:
        import argparse

        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if not math.isfinite(value) or value > hi or value < lo or (lo_open and value == lo):
            low = f"more than {lo:g}" if lo_open else f"at least {lo:g}"
            raise argparse.ArgumentTypeError(f"{text} is not a finite number {low} and at most {hi:g}")
        return value

    parse.__name__ = "number"
    return parse


def progress(items: Iterable[T], *, total: Optional[int] = None, unit: str = "it", desc: str = "") -> Iterator[T]:
    """``items``, with a tqdm progress bar on stderr when stderr is a terminal (silent when
    it is a file or a pipe, so scripts and logs get no bar)."""
    try:
        tty = sys.stderr.isatty()
    except (AttributeError, ValueError):
        tty = False
    if not tty:
        yield from items
        return
    from tqdm import tqdm

    yield from tqdm(items, total=total, unit=unit, desc=desc, file=sys.stderr, leave=False, dynamic_ncols=True)


def _board_from_args(fen: str | None, moves: Sequence[str], chess960: bool = False) -> Board:
    board = Board(fen, chess960=chess960)
    for m in moves:
        board.push_uci(m)
    return board


def depth_from_args(args: argparse.Namespace) -> int | None:
    """DEPTH, also when it follows ``--moves`` (``--moves e2e4 e7e5 3``): argparse gives the
    trailing number to the move list, and UCI moves are never all digits, so take it back."""
    moves = args.moves or []
    if args.depth is None and moves and moves[-1].isdigit():
        args.depth = int(moves.pop())
        args.moves = moves
    depth: int | None = args.depth
    return depth


# The core's perft recursion limit (kibitz._core checks 0..=64); deeper is never useful.
MAX_DEPTH = 64


def cmd_perft(args: argparse.Namespace) -> int:
    """``kibitz perft``: the leaf count (and the divide) of a position to a depth."""
    depth = depth_from_args(args)
    if depth is None or not 0 <= depth <= MAX_DEPTH:
        print(f"kibitz perft: DEPTH between 0 and {MAX_DEPTH} is required", file=sys.stderr)
        return 2
    if args.variant is not None:  # the table-driven generator for chess variants
        from kibitz.variant.perft import cmd_perft as variant_perft

        return variant_perft(args, depth)
    try:
        board = _board_from_args(args.fen, args.moves or [], args.chess960)
    except (FenError, IllegalMoveError, InvalidMoveError) as e:
        print(f"kibitz perft: {e}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    if depth >= PROGRESS_DEPTH and sys.stderr.isatty():
        # One perft per root move, so the bar can move; the counts are the divide's.
        counts = {}
        for move in progress(sorted(board.divide(1)), unit="move", desc=f"perft {depth}"):
            child = board.copy()
            child.push_uci(move)
            counts[move] = child.perft(depth - 1)
    elif args.divide and depth > 0:
        counts = board.divide(depth)
    else:
        counts = None
    nodes = sum(counts.values()) if counts is not None else board.perft(depth)
    print_perft(nodes, time.perf_counter() - start, counts if args.divide else None)
    return 0


def print_perft(nodes: int, secs: float, divide: Optional[dict[str, int]] = None) -> None:
    """What ``kibitz perft`` prints, in the format of Stockfish's ``go perft``: the divide's
    ``move: count`` lines sorted and a blank line (when given), then the total and the time."""
    if divide is not None:
        for move in sorted(divide):
            print(f"{move}: {divide[move]}")
        print()
    nps = nodes / secs if secs > 0 else float("inf")
    print(f"Nodes searched: {nodes}")
    print(f"Time: {secs:.3f} s ({nps:,.0f} nodes/s)")


def version_line() -> str:
    """``kibitz X.Y.Z``: the package version, the one the UCI ``id name`` shows too."""
    import kibitz

    return f"kibitz {kibitz.__version__}"


def build_parser() -> argparse.ArgumentParser:
    import argparse

    parser = argparse.ArgumentParser(
        prog="kibitz",
        description="kibitz: a fast, correct chess engine (Rust core, Python package).",
    )
    parser.add_argument("--version", action="version", version=version_line())
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("perft", help="count the legal move tree of a position (perft / divide)")
    p.add_argument("depth", type=int, nargs="?", metavar="DEPTH", help="plies to count")
    p.add_argument("--fen", default=None, help="position (default: the start position)")
    p.add_argument("--moves", nargs="*", metavar="M", help="UCI moves to play from the position first")
    p.add_argument("--divide", action="store_true", help="print the count below each legal move")
    p.add_argument("--chess960", action="store_true", help="read the FEN as Chess960 (Shredder/X-FEN castling)")
    p.add_argument("--variant", metavar="NAME|FILE", help="a chess variant: built-in name or definition file (kibitz.variant)")
    p.set_defaults(func=cmd_perft)

    # Other subcommands register themselves from their own modules: each module has an
    # ``add_parser(sub)`` that adds its parser and sets ``func``.
    for register in _subcommand_registrars():
        register(sub)
    return parser


def _subcommand_registrars() -> list:  # type: ignore[type-arg]
    """The ``add_parser`` functions of the modules that provide further subcommands."""
    registrars = []
    for name in SUBCOMMAND_MODULES:
        module = __import__(f"kibitz.{name}", fromlist=["add_parser"])
        registrars.append(module.add_parser)
    return registrars


# Modules under kibitz/ that contribute subcommands (each defines add_parser(sub)).
SUBCOMMAND_MODULES: list[str] = ["perftdiff", "uci", "book", "play", "analysis.cli"]


def _run(argv: Sequence[str] | None) -> int:
    args_list = sys.argv[1:] if argv is None else list(argv)
    if not args_list:
        # Bare `kibitz` is the UCI engine (what GUIs and bots run): straight there, without
        # the parser and the other subcommands' imports (startup time to uciok).
        from kibitz.uci import run_uci

        return run_uci()
    parser = build_parser()
    args = parser.parse_args(args_list)
    if args.command is None:
        from kibitz.uci import run_uci

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
