"""kibitz: a fast, correct chess engine with a Rust core, and a python-chess-shaped API.

The public surface is ``__all__``: ``Board`` (positions, legal moves, perft, game end),
``Move``, ``Piece``, ``SquareSet``, ``Outcome``/``Termination``, the constants and square
helpers of python-chess (same names, same numbering), ``Engine`` (search), and the exceptions
raised on bad input, all subclasses of ``ValueError``.
"""

from kibitz._constants import (
    WHITE,
    BLACK,
    COLORS,
    COLOR_NAMES,
    PAWN,
    KNIGHT,
    BISHOP,
    ROOK,
    QUEEN,
    KING,
    PIECE_TYPES,
    PIECE_SYMBOLS,
    PIECE_NAMES,
    FILE_NAMES,
    RANK_NAMES,
    SQUARES,
    SQUARE_NAMES,
    square,
    square_file,
    square_rank,
    square_name,
    parse_square,
    Color,
    PieceType,
    Square,
    A1,
    B1,
    C1,
    D1,
    E1,
    F1,
    G1,
    H1,
    A2,
    B2,
    C2,
    D2,
    E2,
    F2,
    G2,
    H2,
    A3,
    B3,
    C3,
    D3,
    E3,
    F3,
    G3,
    H3,
    A4,
    B4,
    C4,
    D4,
    E4,
    F4,
    G4,
    H4,
    A5,
    B5,
    C5,
    D5,
    E5,
    F5,
    G5,
    H5,
    A6,
    B6,
    C6,
    D6,
    E6,
    F6,
    G6,
    H6,
    A7,
    B7,
    C7,
    D7,
    E7,
    F7,
    G7,
    H7,
    A8,
    B8,
    C8,
    D8,
    E8,
    F8,
    G8,
    H8,
)
from kibitz._core import (
    AmbiguousMoveError,
    Board,
    Engine,
    FenError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    LegalMoveGenerator,
    Move,
    NetError,
    Piece,
    PseudoLegalMoveGenerator,
    STARTING_FEN,
    SearchResult,
    SquareSet,
)
from kibitz._outcome import Outcome, Termination
from kibitz._baseboard import BaseBoard
from kibitz._bitboards import *  # noqa: F403 (the BB_* masks, bit helpers, Status: python-chess's names)
from kibitz import _bitboards
from kibitz import _board_ext  # noqa: F401 (sets python-chess's methods written in Python on Board)

__all__ = [
    "AmbiguousMoveError",
    "BaseBoard",
    "Board",
    "Engine",
    "FenError",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidPositionError",
    "LegalMoveGenerator",
    "Move",
    "NetError",
    "Piece",
    "PseudoLegalMoveGenerator",
    "STARTING_FEN",
    "SearchResult",
    "SquareSet",
    "Outcome",
    "Termination",
    "WHITE",
    "BLACK",
    "COLORS",
    "COLOR_NAMES",
    "PAWN",
    "KNIGHT",
    "BISHOP",
    "ROOK",
    "QUEEN",
    "KING",
    "PIECE_TYPES",
    "PIECE_SYMBOLS",
    "PIECE_NAMES",
    "FILE_NAMES",
    "RANK_NAMES",
    "SQUARES",
    "SQUARE_NAMES",
    "square",
    "square_file",
    "square_rank",
    "square_name",
    "parse_square",
    "Color",
    "PieceType",
    "Square",
    "A1",
    "B1",
    "C1",
    "D1",
    "E1",
    "F1",
    "G1",
    "H1",
    "A2",
    "B2",
    "C2",
    "D2",
    "E2",
    "F2",
    "G2",
    "H2",
    "A3",
    "B3",
    "C3",
    "D3",
    "E3",
    "F3",
    "G3",
    "H3",
    "A4",
    "B4",
    "C4",
    "D4",
    "E4",
    "F4",
    "G4",
    "H4",
    "A5",
    "B5",
    "C5",
    "D5",
    "E5",
    "F5",
    "G5",
    "H5",
    "A6",
    "B6",
    "C6",
    "D6",
    "E6",
    "F6",
    "G6",
    "H6",
    "A7",
    "B7",
    "C7",
    "D7",
    "E7",
    "F7",
    "G7",
    "H7",
    "A8",
    "B8",
    "C8",
    "D8",
    "E8",
    "F8",
    "G8",
    "H8",
    "analyse_games",
    "read_games",
]

from kibitz._core import __version__ as __version__  # Cargo.toml's version, the only one


from typing import TYPE_CHECKING

if TYPE_CHECKING:  # for type checkers; at run time __getattr__ below loads them on first use
    from kibitz.analysis import analyse_games as analyse_games, read_games as read_games
    from kibitz.analysis.shards import pgn_to_tensors_parallel as pgn_to_tensors_parallel
    from kibitz.analysis.training import pgn_to_tensors as pgn_to_tensors
    from kibitz.tensor import to_tensors as to_tensors


# Submodules python-chess code reaches as attributes of the package (``chess.polyglot``).
_SUBMODULES = ("pgn", "polyglot", "svg", "syzygy", "tensor")


def __getattr__(name: str) -> object:
    # analyse_games / read_games load kibitz.analysis (dataclasses, compression readers) on
    # first use, so that `import kibitz` and the UCI engine's start stay fast.
    if name in ("analyse_games", "read_games"):
        from kibitz import analysis

        return getattr(analysis, name)
    if name in _bitboards._LAZY_TABLES:  # python-chess's sliding-attack tables, built on first use
        return _bitboards.lazy_table(name)
    if name == "to_tensors":  # board planes for a batch (NumPy is imported only then)
        from kibitz.tensor import to_tensors

        return to_tensors
    if name == "pgn_to_tensors":  # training chunks from a PGN file
        from kibitz.analysis.training import pgn_to_tensors

        return pgn_to_tensors
    if name == "pgn_to_tensors_parallel":  # the same over many files or shards, on all cores or Ray
        from kibitz.analysis.shards import pgn_to_tensors_parallel

        return pgn_to_tensors_parallel
    if name in _SUBMODULES:  # `import kibitz as chess; chess.polyglot...`, as python-chess allows
        import importlib

        return importlib.import_module(f"kibitz.{name}")
    raise AttributeError(f"module 'kibitz' has no attribute {name!r}")


__all__ += _bitboards.__all__
