"""What every ``kibitz`` subcommand shares: the exit statuses, argparse types for
bounded numbers, the progress bar, the DEPTH argument, a position's faults in words, and
perft's output format."""

from __future__ import annotations

import math
import sys
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, Optional, TypeVar

if TYPE_CHECKING:
    import argparse

    from kibitz._core import Board

T = TypeVar("T")

# Exit statuses (the shell's conventions).
EXIT_USAGE = 2  # bad arguments (argparse's own status)
EXIT_INTERRUPTED = 130  # 128 + SIGINT
EXIT_CLOSED_PIPE = 141  # 128 + SIGPIPE
EXIT_SOFTWARE = 70  # an internal error, a bug in kibitz (sysexits.h's EX_SOFTWARE)

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


def int_at_least(lo: int, what: str) -> Callable[[str], int]:
    """An argparse type: an integer of at least ``lo``, else a usage error saying so in
    words ("depth must be a non-negative integer")."""
    kind = {0: "a non-negative integer", 1: "a positive integer"}.get(lo, f"an integer of at least {lo}")

    def parse(text: str) -> int:
        import argparse

        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer: {what} must be {kind}") from None
        if value < lo:
            raise argparse.ArgumentTypeError(f"{what} must be {kind} (at least {lo}), not {text}")
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


# What each of Board.status()'s flags means, in words (python-chess's Board.status()
# documents the flags; kibitz's Status has the same values).
_STATUS_WORDS = {
    "NO_WHITE_KING": "no white king",
    "NO_BLACK_KING": "no black king",
    "TOO_MANY_KINGS": "more than two kings",
    "TOO_MANY_WHITE_PAWNS": "more than 8 white pawns",
    "TOO_MANY_BLACK_PAWNS": "more than 8 black pawns",
    "PAWNS_ON_BACKRANK": "a pawn on the first or eighth rank",
    "TOO_MANY_WHITE_PIECES": "more than 16 white pieces",
    "TOO_MANY_BLACK_PIECES": "more than 16 black pieces",
    "BAD_CASTLING_RIGHTS": "castling rights whose king or rook is not on its square",
    "INVALID_EP_SQUARE": "an en-passant square no pawn can just have passed",
    "OPPOSITE_CHECK": "the side not to move is in check",
    "TOO_MANY_CHECKERS": "a king in check from more than two pieces",
    "IMPOSSIBLE_CHECK": "a check no last move could have given",
    "RACE_CHECK": "a king in check (racing kings)",
    "RACE_OVER": "the race is already over (racing kings)",
    "RACE_MATERIAL": "material racing kings does not allow",
}

# What a position needs, said after its faults: to be played (kibitz refuses the rest),
# and to be valid (what perft counts: python-chess would clean up the castling rights and
# the en-passant square of the rest, and so count another position than the one written).
PLAYABLE_NEEDS = "one king a side, no pawn on the first or eighth rank, the side not to move not in check"
VALID_NEEDS = PLAYABLE_NEEDS + ", castling rights and an en-passant square that fit the board"


def describe_status(status: int) -> str:
    """``Board.status()`` in words: "no white king, no black king; the board is empty"."""
    from kibitz._bitboards import Status

    faults = [
        _STATUS_WORDS.get(flag.name or "", (flag.name or "").lower().replace("_", " "))
        for flag in Status
        if flag and flag is not Status.EMPTY and status & flag
    ]
    text = ", ".join(faults)
    if status & Status.EMPTY:
        text += ("; " if text else "") + "the board is empty"
    return text or "valid"


def position_error(fen: str, status: int, needs: str, hint: str = "") -> str:
    """The one line that says why a position is refused: its FEN, its faults in words, what
    it needs (``needs``: "perft needs one king a side, ...") and a ``hint`` on how to fix it."""
    return f"{fen!r} is not a valid position: {describe_status(status)} ({needs}){hint}"


def checked_root(fen: str | None, chess960: bool, needs: str) -> Board:
    """The board of ``fen`` (the start position when None), or FenError saying in words what
    is wrong with it when it is not valid: a FEN python-chess would clean up (castling
    rights without their rook, an impossible en-passant square) or that kibitz cannot play.
    Counting the moves of another position than the one written would mislead. A check no
    last move could have given is counted (the position is the one written)."""
    from kibitz._bitboards import Status
    from kibitz._core import Board, FenError

    board = Board(fen, chess960=chess960) if fen is not None else Board(chess960=chess960)
    # A check no last move could have given (perft suites hold such positions) changes
    # nothing python-chess counts: counted, where kibitz can play the position.
    harmless = Status.IMPOSSIBLE_CHECK | Status.TOO_MANY_CHECKERS if board._unplayable is None else 0
    if fen is not None and board.status() & ~harmless:
        status = board.status()
        hint = "; Chess960 castling needs --chess960" if status & Status.BAD_CASTLING_RIGHTS and not chess960 else ""
        raise FenError(position_error(fen, status, f"{needs} {VALID_NEEDS}", hint))
    return board


def playable_board(fen: str | None, chess960: bool, needs: str) -> Board:
    """The board of ``fen``, or InvalidPositionError saying in words what is wrong with it
    when kibitz cannot play it (no king, a pawn on a back rank, the side not to move in
    check). Positions python-chess would clean up (castling rights without their rook)
    are played as cleaned, as python-chess plays them."""
    from kibitz._core import Board, InvalidPositionError

    board = Board(fen, chess960=chess960) if fen is not None else Board(chess960=chess960)
    # The board lists moves of any position, as python-chess does; the engine and the book
    # play only those its move generator holds.
    why = board._unplayable
    if why is not None:
        status = board.status()
        if not status:  # a fault status() does not name: the core's own words
            raise InvalidPositionError(f"{fen!r} is not a position kibitz can play: {why} ({needs} {PLAYABLE_NEEDS})")
        raise InvalidPositionError(position_error(str(fen), status, f"{needs} {PLAYABLE_NEEDS}"))
    return board


def printable(text: str) -> str:
    """``text`` with every character that is not printable (escape sequences, control
    characters, line breaks) written as its Python escape, so text taken from an input file
    cannot drive the terminal it is printed on, and a message stays one line."""
    return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in text)


def version_line() -> str:
    """``kibitz X.Y.Z``: the package version, the one the UCI ``id name`` shows too."""
    import kibitz

    return f"kibitz {kibitz.__version__}"
