"""kibitz: a fast, correct chess engine with a Rust core.

The public surface is ``__all__``: ``Board`` (positions, legal moves, perft) and the
exceptions raised on bad input, all subclasses of ``ValueError``.
"""

from kibitz._core import (
    AmbiguousMoveError,
    STARTING_FEN,
    Board,
    Engine,
    FenError,
    IllegalMoveError,
    InvalidMoveError,
    SearchResult,
)

__all__ = [
    "AmbiguousMoveError",
    "STARTING_FEN",
    "Board",
    "Engine",
    "FenError",
    "IllegalMoveError",
    "InvalidMoveError",
    "SearchResult",
]

from kibitz._core import __version__ as __version__  # Cargo.toml's version, the only one
