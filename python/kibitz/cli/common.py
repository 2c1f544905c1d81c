"""What every ``kibitz`` subcommand shares: the exit statuses, argparse types for
bounded numbers, the progress bar, the DEPTH argument, and perft's output format."""

from __future__ import annotations

import math
import sys
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, Optional, TypeVar

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


def depth_from_args(args: argparse.Namespace) -> int | None:
    """DEPTH, also when it follows ``--moves`` (``--moves e2e4 e7e5 3``): argparse gives the
    trailing number to the move list, and UCI moves are never all digits, so take it back."""
    moves = args.moves or []
    if args.depth is None and moves and moves[-1].isdigit():
        args.depth = int(moves.pop())
        args.moves = moves
    depth: int | None = args.depth
    return depth


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
