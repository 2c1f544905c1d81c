"""Type stubs for the Rust extension ``kibitz._core`` (checked by ``mypy.stubtest``)."""

import os
from typing import Any, Callable, ClassVar, Iterable, Iterator, Literal, TypeVar, Union, final

from typing_extensions import Self, disjoint_base

from kibitz._outcome import Outcome
from kibitz.timeman import TimeManagerLike

__all__ = [
    "AmbiguousMoveError",
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
    "MAX_DEPTH",
    "MAX_THREADS",
    "MAX_MULTIPV",
    "MAX_HASH_MB",
    "MAX_TIME_MS",
    "SearchResult",
    "SquareSet",
    "PgnReader",
    "__version__",
    "VariantBoard",
    "VariantError",
    "san_line",
    "plain_tokens",
    "GameScanner",
    "read_plain_movetext",
    "MissingTableError",
    "POLYGLOT_RANDOM_ARRAY",
    "Tablebase",
    "VariantTablebase",
    "PLANE_VALUES",
    "board_planes",
    "fill_planes_at",
    "BENCH_POSITIONS",
    "BENCH_DEPTH",
    "BENCH_HASH_MB",
    "bench",
]

STARTING_FEN: str
"""The FEN of the standard start position."""
MAX_DEPTH: int
"""The deepest ``Engine.search(depth=...)`` accepts (the search's MAX_PLY 128 less 8)."""
MAX_THREADS: int
"""The most search threads ``Engine`` accepts (the UCI ``Threads`` maximum)."""
MAX_MULTIPV: int
"""The most lines ``Engine.search(multipv=...)`` reports (the UCI ``MultiPV`` maximum)."""
MAX_HASH_MB: int
"""The largest table ``Engine`` accepts, in MB (smaller sizes the system refuses raise MemoryError)."""
MAX_TIME_MS: int
"""Time limits beyond this many milliseconds (about 35 years) are read as it."""
POLYGLOT_RANDOM_ARRAY: list[int]
"""Polyglot's 781 random numbers (piece-square, castling, en-passant file, side to move)."""
__version__: str
BENCH_POSITIONS: list[str]
"""The bench's 40 positions (FENs): middlegames, Bratko-Kopec positions, endgames."""
BENCH_DEPTH: int
"""The depth of the bench's signature (``kibitz bench`` without a depth)."""
BENCH_HASH_MB: int
"""The table of each bench position's fresh engine, in MB."""

def bench(
    depth: int | None = None, on_position: Callable[[tuple[str, int, float, str]], object] | None = None
) -> list[tuple[str, int, float, str]]:
    """Searches each bench position alone to ``depth`` (default ``BENCH_DEPTH``) with a fresh
    engine (``BENCH_HASH_MB``, one thread, the embedded net): ``(fen, nodes, seconds,
    best_move)`` a position, ``best_move`` as UCI text. The nodes' total is the search's
    signature. ``on_position(row)`` is called after each position; an exception it raises
    ends the bench and is raised here. Releases the GIL; Ctrl-C ends it."""

"""kibitz's version (Cargo.toml's, the only place it is written)."""

class FenError(ValueError):
    """A FEN string that is malformed or describes an impossible position."""

class InvalidMoveError(ValueError):
    """Move text that is not a move at all."""

class IllegalMoveError(ValueError):
    """A well-formed move that is not legal in the position."""

class InvalidPositionError(ValueError):
    """A move operation on a position kibitz cannot play (no king or several kings of a
    colour, a pawn on a back rank, more than 16 pieces of a colour, the side not to move in
    check)."""

class AmbiguousMoveError(ValueError):
    """A SAN move that fits more than one legal move."""

class NetError(ValueError):
    """A file that is not a valid kibitz net (wrong header, truncated, corrupt)."""

_MoveLike = Union["Move", Any, str]
"""A kibitz Move, a python-chess Move (same fields) or UCI text."""

@final
class Move:
    """A move from a square to a square, possibly a promotion; equal to a chess.Move with the same fields."""

    __match_args__ = ("from_square", "to_square", "promotion", "drop")

    def __new__(
        cls, from_square: int, to_square: int, promotion: int | None = None, drop: int | None = None
    ) -> Move: ...
    @property
    def from_square(self) -> int:
        """The square the piece moves from (0..63)."""
    @property
    def to_square(self) -> int:
        """The square it moves to (in Chess960 castling, the rook's square)."""
    @property
    def promotion(self) -> int | None:
        """The promotion piece type (PAWN..KING; only KNIGHT..QUEEN can be legal) or None."""
    @property
    def drop(self) -> int | None:
        """The dropped piece type of a drop (never legal in standard chess) or None."""
    def uci(self) -> str:
        """The UCI text, e.g. "e2e4", "e7e8q", "P@e4", "0000"."""
    def xboard(self) -> str:
        """The XBoard text: the UCI text, "@@@@" for the null move."""
    @classmethod
    def from_uci(cls, uci: str) -> Move:
        """Parses UCI text (InvalidMoveError when malformed)."""
    @classmethod
    def null(cls) -> Move:
        """The null move (0000)."""
    def __bool__(self) -> bool:
        """False for the null move."""
    def __hash__(self) -> int:
        """python-chess's hash of the same move."""
    def __eq__(self, other: object, /) -> bool:
        """Equal to any move with the same from, to, promotion and drop."""
    def __reduce__(self) -> tuple[type[Move], tuple[int, int, int | None, int | None]]:
        """Pickles by fields."""
    def __copy__(self) -> Move:
        """Itself (immutable)."""
    def __deepcopy__(self, memo: Any, /) -> Move:
        """Itself (immutable)."""

@final
class Piece:
    """A piece type and colour; equal to a chess.Piece with the same fields."""

    __match_args__ = ("piece_type", "color")

    def __new__(cls, piece_type: int, color: bool | None) -> Piece: ...
    @property
    def piece_type(self) -> int:
        """PAWN..KING (1..6)."""
    @property
    def color(self) -> bool:
        """WHITE (True) or BLACK (False)."""
    def symbol(self) -> str:
        """ "P", "N", ... for White, "p", "n", ... for Black."""
    def unicode_symbol(self, *, invert_color: bool = False) -> str:
        """The Unicode chess symbol."""
    @classmethod
    def from_symbol(cls, symbol: str) -> Piece:
        """The Piece of "P", "n", ... (ValueError otherwise)."""
    def __hash__(self) -> int:
        """python-chess's hash of the same piece."""
    def __eq__(self, other: object, /) -> bool:
        """Equal to any piece with the same type and colour."""
    def _repr_svg_(self) -> str:
        """The piece as SVG, for Jupyter (set by kibitz._board_ext)."""
    def __reduce__(self) -> tuple[type[Piece], tuple[int, bool]]:
        """Pickles by fields."""

@final
class SquareSet:
    """A mutable set of squares over a 64-bit mask (a1 = bit 0): python-chess's SquareSet,
    with its API and semantics (built from an int masked to 64 bits or from squares)."""

    def __new__(cls, squares: Any = None) -> SquareSet: ...
    def _repr_svg_(self) -> str:
        """The squares marked on an empty board as SVG, for Jupyter (set by kibitz._board_ext)."""
    @property
    def mask(self) -> int:
        """The mask as an int."""
    @mask.setter
    def mask(self, value: int) -> None:
        """Sets the mask (masked to 64 bits)."""
    def __iter__(self) -> Iterator[int]:
        """The squares in ascending order."""
    def __reversed__(self) -> Iterator[int]:
        """The squares in descending order."""
    def __len__(self) -> int:
        """The number of squares."""
    def __bool__(self) -> bool:
        """True when not empty."""
    def __contains__(self, square: object, /) -> bool:
        """True when the square is in the set."""
    def __int__(self) -> int:
        """The mask."""
    def __index__(self) -> int:
        """The mask."""
    __hash__: ClassVar[None]  # type: ignore[assignment]
    def __eq__(self, other: object, /) -> bool:
        """Equal to a SquareSet, an int mask or squares with the same squares."""
    def __ne__(self, other: object, /) -> bool:
        """Not equal."""
    def add(self, square: int) -> None:
        """Adds a square."""
    def discard(self, square: int) -> None:
        """Removes a square if present."""
    def remove(self, square: int) -> None:
        """Removes a square; KeyError when absent."""
    def pop(self) -> int:
        """Removes and returns the lowest square; KeyError when empty."""
    def clear(self) -> None:
        """Empties the set."""
    def copy(self) -> SquareSet:
        """A copy."""
    def isdisjoint(self, other: Any) -> bool:
        """No square in common."""
    def issubset(self, other: Any) -> bool:
        """Every square is in other."""
    def issuperset(self, other: Any) -> bool:
        """Every square of other is here."""
    def union(self, other: Any) -> SquareSet:
        """Union."""
    def intersection(self, other: Any) -> SquareSet:
        """Intersection."""
    def difference(self, other: Any) -> SquareSet:
        """Difference."""
    def symmetric_difference(self, other: Any) -> SquareSet:
        """Symmetric difference."""
    def update(self, *others: Any) -> None:
        """Adds the squares of every argument."""
    def intersection_update(self, *others: Any) -> None:
        """Keeps the squares in every argument."""
    def difference_update(self, other: Any) -> None:
        """Removes other's squares."""
    def symmetric_difference_update(self, other: Any) -> None:
        """Toggles other's squares."""
    def __or__(self, other: Any, /) -> SquareSet:
        """Union."""
    def __and__(self, other: Any, /) -> SquareSet:
        """Intersection."""
    def __sub__(self, other: Any, /) -> SquareSet:
        """Difference."""
    def __xor__(self, other: Any, /) -> SquareSet:
        """Symmetric difference."""
    def __ior__(self, other: Any, /) -> SquareSet:
        """In-place union."""
    def __iand__(self, other: Any, /) -> SquareSet:
        """In-place intersection."""
    def __isub__(self, other: Any, /) -> SquareSet:
        """In-place difference."""
    def __ixor__(self, other: Any, /) -> SquareSet:
        """In-place symmetric difference."""
    def __lshift__(self, shift: int, /) -> SquareSet:
        """Every square shifted up by `shift` bits (off the board is lost)."""
    def __rshift__(self, shift: int, /) -> SquareSet:
        """Every square shifted down by `shift` bits."""
    def __ilshift__(self, shift: int, /) -> SquareSet:
        """In-place left shift."""
    def __irshift__(self, shift: int, /) -> SquareSet:
        """In-place right shift."""
    def __invert__(self) -> SquareSet:
        """The other squares."""
    def carry_rippler(self) -> Iterator[int]:
        """Every subset's mask, the empty one first."""
    def mirror(self) -> SquareSet:
        """Ranks reversed."""
    def tolist(self) -> list[bool]:
        """64 booleans, one per square."""
    @classmethod
    def ray(cls, a: int, b: int) -> SquareSet:
        """The line through two squares, edge to edge (empty when not aligned)."""
    @classmethod
    def between(cls, a: int, b: int) -> SquareSet:
        """The squares strictly between two aligned squares."""
    @classmethod
    def from_square(cls, square: int) -> SquareSet:
        """The set of one square."""
    def __reduce__(self) -> tuple[type[SquareSet], tuple[int]]:
        """Pickles by mask."""

@final
class LegalMoveGenerator:
    """A live view of a board's legal moves: iterate for Moves, len, in, count(), any()."""

    def __new__(cls, board: Board) -> LegalMoveGenerator:
        """The view of ``board``'s legal moves (as ``board.legal_moves``)."""

    def __iter__(self) -> Iterator[Move]:
        """The legal moves of the board as it is now."""
    def __len__(self) -> int:
        """The number of legal moves."""
    def __bool__(self) -> bool:
        """True when there is a legal move."""
    def __contains__(self, move: object, /) -> bool:
        """True for a legal move (kibitz or python-chess Move, or UCI text)."""
    def count(self) -> int:
        """The number of legal moves."""
    def any(self) -> bool:
        """True when there is a legal move."""

@final
class PseudoLegalMoveGenerator:
    """A live view of the pseudo-legal moves (legal ones and those leaving the own king attacked)."""

    def __new__(cls, board: Board) -> PseudoLegalMoveGenerator:
        """The view of ``board``'s pseudo-legal moves (as ``board.pseudo_legal_moves``)."""

    def __iter__(self) -> Iterator[Move]:
        """The pseudo-legal moves of the board as it is now."""
    def __len__(self) -> int:
        """The number of pseudo-legal moves."""
    def __bool__(self) -> bool:
        """True when there is one."""
    def __contains__(self, move: object, /) -> bool:
        """True for a pseudo-legal move."""
    def count(self) -> int:
        """The number of pseudo-legal moves."""
    def any(self) -> bool:
        """True when there is one."""

@disjoint_base
class Board:  # not final: python-chess's Board is subclassed, and so is this one
    """A chess position with its move history, shaped like python-chess's chess.Board."""

    def __new__(cls, fen: str | None = ..., *, chess960: bool = False) -> Self: ...
    def __init__(self, fen: str | None = ..., *, chess960: bool = False) -> None:
        """Sets the position of a subclass's board (what its ``super().__init__`` reaches)."""
    @classmethod
    def empty(cls, *, chess960: bool = False) -> Self:
        """A board with no pieces (the same as Board(None))."""
    @classmethod
    def from_chess960_pos(cls, scharnagl: int) -> Self:
        """The Chess960 start position of an index 0..959."""
    @classmethod
    def from_epd(cls, epd: str, *, chess960: bool = False) -> tuple[Self, dict[str, Any]]:
        """A board from an EPD, and its operations (python-chess's ``Board.from_epd``)."""
    @property
    def _unplayable(self) -> str | None:
        """Why kibitz cannot play the position, or None."""
    @property
    def _clean_castling(self) -> int:
        """The usable castling rights, as a mask."""
    def _clean_castling_as_chess960(self) -> int:
        """The usable castling rights as a Chess960 board would have them."""
    def __dir__(self) -> list[str]: ...
    @classmethod
    def from_chess(cls, board: Any) -> Board:
        """A Board from a chess.Board, history included."""
    @classmethod
    def _from_moves(
        cls,
        fen: str,
        chess960: bool,
        moves: list[str],
        castling: int | None = None,
        promoted: int = 0,
        below: Board | None = None,
        via: tuple[int, int, int] | None = None,
    ) -> Board:
        """A board from a root FEN and UCI moves (what pickling stores); ``below``: the board
        before the last attribute assignment, ``via``: the move from it the core could not play."""
    def to_chess(self) -> Any:
        """The same game as a chess.Board (python-chess must be installed)."""
    def fen(self, *, shredder: bool = False, en_passant: str | None = None, promoted: bool | None = None) -> str:
        """The FEN (en-passant square only when the capture is legal; python-chess's
        ``shredder`` and ``en_passant`` options)."""
    def board_fen(self, *, promoted: bool | None = False) -> str:
        """The piece-placement field of the FEN (``~`` after promoted pieces with ``promoted``)."""
    @property
    def turn(self) -> bool:
        """WHITE (True) when White is to move."""
    @turn.setter
    def turn(self, value: bool) -> None:
        """Assigns it as python-chess does: the move stack stays."""
    @property
    def chess960(self) -> bool:
        """True for a Chess960 board."""
    @chess960.setter
    def chess960(self, value: bool) -> None:
        """Assigns it as python-chess does: the move stack stays."""
    @property
    def halfmove_clock(self) -> int:
        """Half-moves since the last capture or pawn move."""
    @halfmove_clock.setter
    def halfmove_clock(self, value: int) -> None:
        """Assigns it as python-chess does: the move stack stays."""
    @property
    def fullmove_number(self) -> int:
        """The move number (starts at 1, incremented after Black's move)."""
    @fullmove_number.setter
    def fullmove_number(self, value: int) -> None:
        """Assigns it as python-chess does: the move stack stays."""
    @property
    def castling_rights(self) -> int:
        """The rook squares with castling rights, as a mask."""
    @castling_rights.setter
    def castling_rights(self, value: int) -> None:
        """Assigns it as python-chess does: the move stack stays."""
    @property
    def ep_square(self) -> int | None:
        """The square behind a pawn that just advanced two squares, else None."""
    @ep_square.setter
    def ep_square(self, value: int | None) -> None:
        """Assigns it as python-chess does: the move stack stays."""
    @property
    def move_stack(self) -> list[Move]:
        """The moves played since set-up, oldest first."""
    @property
    def legal_moves(self) -> LegalMoveGenerator:
        """The legal moves: a live view."""
    @property
    def pseudo_legal_moves(self) -> PseudoLegalMoveGenerator:
        """The pseudo-legal moves: a live view."""
    def ply(self) -> int:
        """Half-moves since the game's start, from fullmove number and side to move."""
    def legal_moves_uci(self) -> list[str]:
        """The legal moves as UCI text."""
    def generate_legal_moves(self, from_mask: int = ..., to_mask: int = ...) -> Iterator[Move]:
        """The legal moves from and to the masked squares."""
    def generate_legal_captures(self, from_mask: int = ..., to_mask: int = ...) -> Iterator[Move]:
        """The legal captures (en passant included)."""
    def generate_pseudo_legal_moves(self, from_mask: int = ..., to_mask: int = ...) -> Iterator[Move]:
        """The pseudo-legal moves from and to the masked squares (castling on its rook's square)."""
    def generate_pseudo_legal_captures(self, from_mask: int = ..., to_mask: int = ...) -> Iterator[Move]:
        """The pseudo-legal captures (en passant included)."""
    def push(self, move: _MoveLike, /) -> None:
        """Plays a legal or pseudo-legal move, as python-chess (IllegalMoveError, board unchanged, otherwise)."""
    def pop(self) -> Move:
        """Takes back the last move and returns it (IndexError when none)."""
    def peek(self) -> Move:
        """The last move played (IndexError when none)."""
    def parse_uci(self, uci: str) -> Move:
        """The legal Move UCI text names."""
    def push_uci(self, uci: str) -> Move:
        """Plays a move given as UCI text and returns it."""
    def parse_san(self, san: str) -> Move:
        """The legal Move a SAN text names (AmbiguousMoveError when several)."""
    def push_san(self, san: str) -> Move:
        """Plays a move given in SAN and returns it."""
    def san(self, move: _MoveLike) -> str:
        """The SAN of a legal move."""
    def lan(self, move: _MoveLike) -> str:
        """The long algebraic notation of a legal move."""
    def variation_san(self, variation: Iterable[_MoveLike]) -> str:
        """A line of legal moves in SAN with move numbers."""
    def is_legal(self, move: _MoveLike) -> bool:
        """True when the move is legal here."""
    def is_pseudo_legal(self, move: _MoveLike) -> bool:
        """True when the move is pseudo-legal here."""
    def piece_at(self, square: int) -> Piece | None:
        """The Piece on a square, or None."""
    def piece_type_at(self, square: int) -> int | None:
        """The piece type on a square, or None."""
    def color_at(self, square: int) -> bool | None:
        """The colour of the piece on a square, or None."""
    def piece_map(self, *, mask: int = ...) -> dict[int, Piece]:
        """Square -> Piece for the occupied squares in the mask."""
    def pieces(self, piece_type: int, color: bool) -> SquareSet:
        """The squares of the pieces of a type and colour."""
    def king(self, color: bool) -> int | None:
        """The king's square."""
    def attackers(self, color: bool, square: int, occupied: int | SquareSet | Iterable[int] | None = None) -> SquareSet:
        """The pieces of a colour attacking a square (sliders blocked by ``occupied`` when
        given, python-chess's)."""
    def is_attacked_by(self, color: bool, square: int, occupied: int | SquareSet | Iterable[int] | None = None) -> bool:
        """True when a piece of the colour attacks the square (through ``occupied``)."""
    def attacks(self, square: int) -> SquareSet:
        """The squares the piece on a square attacks."""
    def is_pinned(self, color: bool, square: int) -> bool:
        """True when the square is pinned to the king of the colour."""
    def pin(self, color: bool, square: int) -> SquareSet:
        """The pin line through the square, or all squares when not pinned."""
    def is_check(self) -> bool:
        """True when the side to move is in check."""
    def checkers(self) -> SquareSet:
        """The pieces giving check."""
    def gives_check(self, move: _MoveLike) -> bool:
        """True when the legal move gives check."""
    def is_capture(self, move: _MoveLike) -> bool:
        """True when the move captures."""
    def is_en_passant(self, move: _MoveLike) -> bool:
        """True when the move captures en passant."""
    def is_castling(self, move: _MoveLike) -> bool:
        """True when the move castles."""
    def is_zeroing(self, move: _MoveLike) -> bool:
        """True when the move captures or moves a pawn."""
    def has_castling_rights(self, color: bool) -> bool:
        """True when the colour may still castle."""
    def has_kingside_castling_rights(self, color: bool) -> bool:
        """True when the colour may still castle king side."""
    def has_queenside_castling_rights(self, color: bool) -> bool:
        """True when the colour may still castle queen side."""
    def has_legal_en_passant(self) -> bool:
        """True when an en-passant capture is legal now."""
    def perft(self, depth: int) -> int:
        """Leaf count of the legal move tree to depth 0..64 (Ctrl-C aborts)."""
    def divide(self, depth: int) -> dict[str, int]:
        """Leaf counts below each legal move at depth 1..64 (Ctrl-C aborts)."""
    def is_checkmate(self) -> bool:
        """True when the side to move is checkmated."""
    def is_stalemate(self) -> bool:
        """True when the side to move is stalemated."""
    def is_insufficient_material(self) -> bool:
        """True when neither side can checkmate."""
    def has_insufficient_material(self, color: bool) -> bool:
        """True when the colour cannot checkmate."""
    def is_seventyfive_moves(self) -> bool:
        """True after 150 half-moves without capture or pawn move."""
    def is_fivefold_repetition(self) -> bool:
        """True when the position occurred five times."""
    def is_repetition(self, count: int = 3) -> bool:
        """True when the position occurred at least count times."""
    def is_fifty_moves(self) -> bool:
        """True when the fifty-move rule can be claimed now."""
    def can_claim_fifty_moves(self) -> bool:
        """True when a fifty-move draw can be claimed now or with the next move."""
    def can_claim_threefold_repetition(self) -> bool:
        """True when threefold repetition can be claimed now or with the next move."""
    def can_claim_draw(self) -> bool:
        """True when a draw can be claimed."""
    def outcome(self, *, claim_draw: bool = False) -> Outcome | None:
        """How the game ended, or None while it goes on."""
    def is_game_over(self, *, claim_draw: bool = False) -> bool:
        """True when the game is over."""
    def result(self, *, claim_draw: bool = False) -> str:
        """ "1-0", "0-1", "1/2-1/2" or "*"."""
    def zobrist_hash(self) -> int:
        """The Polyglot key."""
    def polyglot_key(self) -> int:
        """The Polyglot key (same as zobrist_hash)."""
    # python-chess's class attributes of the standard Board.
    uci_variant: ClassVar[str]
    xboard_variant: ClassVar[str]
    starting_fen: ClassVar[str]
    aliases: ClassVar[list[str]]
    tbw_suffix: ClassVar[str | None]
    tbz_suffix: ClassVar[str | None]
    tbw_magic: ClassVar[bytes | None]
    tbz_magic: ClassVar[bytes | None]
    pawnless_tbw_suffix: ClassVar[str | None]
    pawnless_tbz_suffix: ClassVar[str | None]
    pawnless_tbw_magic: ClassVar[bytes | None]
    pawnless_tbz_magic: ClassVar[bytes | None]
    connected_kings: ClassVar[bool]
    one_king: ClassVar[bool]
    captures_compulsory: ClassVar[bool]
    @property
    def occupied(self) -> int:
        """Occupied squares as an int mask."""
    @property
    def occupied_co(self) -> list[int]:
        """Squares of each colour, indexed by colour: [black, white]."""
    @property
    def pawns(self) -> int:
        """Pawns of both colours as a mask."""
    @property
    def knights(self) -> int:
        """Knights of both colours as a mask."""
    @property
    def bishops(self) -> int:
        """Bishops of both colours as a mask."""
    @property
    def rooks(self) -> int:
        """Rooks of both colours as a mask."""
    @property
    def queens(self) -> int:
        """Queens of both colours as a mask."""
    @property
    def kings(self) -> int:
        """Kings of both colours as a mask."""
    @property
    def promoted(self) -> int:
        """The pieces that came from a promotion, as a mask (python-chess's ``promoted``)."""
    @promoted.setter
    def promoted(self, mask: int) -> None:
        """Sets the mask, as python-chess's attribute (the move stack stays)."""
    def pieces_mask(self, piece_type: int, color: bool) -> int:
        """Squares of a colour's pieces of a type, as a mask."""
    def attackers_mask(self, color: bool, square: int, occupied: int | None = None) -> int:
        """Squares of a colour's pieces attacking a square, as a mask (through the mask
        ``occupied`` when given)."""
    def attacks_mask(self, square: int) -> int:
        """Squares the piece on a square attacks, as a mask."""
    def checkers_mask(self) -> int:
        """The pieces giving check, as a mask."""
    def pin_mask(self, color: bool, square: int) -> int:
        """The pin ray of a piece (all squares when not pinned), as a mask."""
    def _plain_line(self, line: str) -> list[Move | str] | None:
        """A plain movetext line read ahead on a copy: SAN as Moves, other tokens as text."""
    def _push_all(self, moves: Iterable[Move]) -> None:
        """Plays each move in turn, as push does (the ones before an illegal move stay played)."""
    def _assign(self, other: Board) -> None:
        """Makes this board a copy of another (position, history, root)."""
    def _push_as(self, move: Move, after: Board) -> None:
        """Plays a move with another board's position as its result (variant boards)."""
    def _stack_len(self) -> int:
        """``len(move_stack)``, without making the moves."""
    def _to_chess960(self, move: Move) -> Move:
        """A standard castling move as king takes rook (other moves unchanged)."""
    def _from_chess960(
        self, chess960: bool, from_square: int, to_square: int, promotion: int | None = None, drop: int | None = None
    ) -> Move:
        """A move in Chess960 notation (king takes rook) in the board's notation."""
    # Written in Python (kibitz._board_ext), set on the class when kibitz is imported.
    def set_fen(self, fen: str) -> None:
        """Sets the position from a FEN and clears the move stack."""
    def set_epd(self, epd: str) -> dict[str, Any]:
        """Sets the position from an EPD and returns its operations (``hmvc``/``fmvn`` set the clocks)."""
    def reset(self) -> None:
        """The start position, without history."""
    def clear_stack(self) -> None:
        """Forgets the move stack."""
    def clean_castling_rights(self) -> int:
        """The usable castling rights as a mask of rook squares."""
    def reset_board(self) -> None:
        """The start placement (turn, rights and clocks kept), without history."""
    def clear(self) -> None:
        """No pieces, White to move, no rights, clocks 0 and 1."""
    def clear_board(self) -> None:
        """No pieces (turn, rights and clocks kept), without history."""
    def set_piece_at(self, square: int, piece: Piece | None, promoted: bool = False) -> None:
        """Puts a piece on a square (None empties it)."""
    def remove_piece_at(self, square: int) -> Piece | None:
        """Takes the piece off a square and returns it."""
    def set_piece_map(self, pieces: Any) -> None:
        """Sets the placement from a {square: Piece} mapping."""
    def set_board_fen(self, fen: str) -> None:
        """Sets the placement from a FEN board part."""
    def set_castling_fen(self, castling_fen: str) -> None:
        """Sets the castling rights from a FEN castling field."""
    def has_chess960_castling_rights(self) -> bool:
        """Whether a usable castling right is not a standard one."""
    def chess960_pos(
        self, *, ignore_turn: bool = False, ignore_castling: bool = False, ignore_counters: bool = True
    ) -> int | None:
        """The index of the position as a Chess960 start position, or None."""
    def set_chess960_pos(self, scharnagl: int) -> None:
        """Sets up the Chess960 start position of an index 0..959."""
    def generate_pseudo_legal_ep(self, from_mask: int = ..., to_mask: int = ...) -> Iterator[Move]:
        """Pseudo-legal en-passant captures."""
    def shredder_fen(self, *, en_passant: str = "legal", promoted: bool | None = None) -> str:
        """The FEN with Shredder-FEN castling."""
    def castling_shredder_fen(self) -> str:
        """The castling field as Shredder-FEN."""
    def castling_xfen(self) -> str:
        """The castling field as X-FEN."""
    def epd(
        self, *, shredder: bool = False, en_passant: str = "legal", promoted: bool | None = None, **operations: Any
    ) -> str:
        """The EPD with operations."""
    def mirror(self) -> Self:
        """The position seen from the other side (colours swapped), without history."""
    def apply_mirror(self) -> None:
        """mirror() in place."""
    def transform(self, f: Callable[[int], int]) -> Self:
        """The position with squares mapped by a bitboard transformation."""
    def apply_transform(self, f: Callable[[int], int]) -> None:
        """transform(f) in place."""
    def uci(self, move: Any, *, chess960: bool | None = None) -> str:
        """The move in UCI (king takes rook when chess960)."""
    def xboard(self, move: Any, chess960: bool | None = None) -> str:
        """The move in XBoard notation."""
    def parse_xboard(self, xboard: str) -> Move:
        """A move in XBoard notation."""
    def push_xboard(self, san: str) -> Move:
        """Parses and plays a move in XBoard notation."""
    def san_and_push(self, move: Any) -> str:
        """The move's SAN, then the move played."""
    def find_move(self, from_square: int, to_square: int, promotion: int | None = None) -> Move:
        """The legal move between two squares; IllegalMoveError when none."""
    def generate_castling_moves(self, from_mask: int = ..., to_mask: int = ...) -> Iterator[Move]:
        """Legal castling moves (to_mask matched on the rook's square)."""
    def generate_legal_ep(self, from_mask: int = ..., to_mask: int = ...) -> Iterator[Move]:
        """Legal en-passant captures from and to the masks."""
    def has_pseudo_legal_en_passant(self) -> bool:
        """Whether a pawn can take en passant, legal or not."""
    def is_kingside_castling(self, move: Any) -> bool:
        """Whether the move castles king side."""
    def is_queenside_castling(self, move: Any) -> bool:
        """Whether the move castles queen side."""
    def is_irreversible(self, move: Any) -> bool:
        """Whether the move can never be taken back."""
    def is_into_check(self, move: Any) -> bool:
        """Whether a pseudo-legal move leaves the mover's king in check."""
    def was_into_check(self) -> bool:
        """Whether the side that just moved is in check."""
    def is_variant_end(self) -> bool:
        """Always False in standard chess."""
    def is_variant_win(self) -> bool:
        """Always False in standard chess."""
    def is_variant_loss(self) -> bool:
        """Always False in standard chess."""
    def is_variant_draw(self) -> bool:
        """Always False in standard chess."""
    def status(self) -> Any:
        """python-chess's Status flags for the position."""
    def is_valid(self) -> bool:
        """Whether status() is VALID."""
    def to_tensor(self, canonical: bool = False, dtype: Any = None) -> Any:
        """The position as 18 planes of 8x8 for neural networks: a NumPy array of shape
        (18, 8, 8), float32 or uint8 (kibitz.tensor documents the layout)."""
    def copy(self, *, stack: bool | int | None = None) -> Self:
        """A copy with all, none (False) or the last n moves of the history."""
    def root(self) -> Self:
        """The position the history starts from, without history."""
    def __copy__(self) -> Board:
        """A copy with the history."""
    def __deepcopy__(self, memo: Any, /) -> Board:
        """A copy with the history."""
    def __reduce__(self) -> tuple[Any, ...]:
        """Pickles as root FEN and moves."""
    def __eq__(self, other: object, /) -> bool:
        """The same position and move counters, as python-chess (not the history)."""
    __hash__: ClassVar[None]  # type: ignore[assignment]
    def unicode(
        self, *, invert_color: bool = False, borders: bool = False, empty_square: str = "⭘", orientation: bool = True
    ) -> str:
        """The board with Unicode pieces."""
    def _repr_svg_(self) -> str | None:
        """An SVG picture for Jupyter (via kibitz.svg.render)."""

@final
class SearchResult:
    """A search result, or (passed to ``on_info``) one line of an iteration.

    ``mate`` > 0: the side to move mates in that many moves; < 0: it is mated; a checkmated
    root gives ``mate == 0`` with ``checkmate`` set, a stalemated one ``score_cp == 0``
    with ``stalemate`` set, both with ``best_move`` None.
    """

    @property
    def best_move(self) -> str | None:
        """The best move as UCI text, None at a mate or stalemate root."""
    @property
    def ponder(self) -> str | None:
        """The expected reply as UCI text, or None."""
    @property
    def score_cp(self) -> int | None:
        """The score in centipawns for the side to move, None for a mate score."""
    @property
    def mate(self) -> int | None:
        """Moves to mate (> 0 mates, < 0 is mated), or None."""
    @property
    def depth(self) -> int:
        """The completed depth in plies."""
    @property
    def seldepth(self) -> int:
        """The deepest ply reached."""
    @property
    def nodes(self) -> int:
        """Nodes searched."""
    @property
    def time_ms(self) -> int:
        """Milliseconds spent."""
    @property
    def nps(self) -> int:
        """Nodes per second."""
    @property
    def hashfull(self) -> int:
        """Hash table use in permille."""
    @property
    def wdl(self) -> tuple[int, int, int]:
        """Win, draw and loss chances per mille for the side to move (UCI_ShowWDL's model)."""
    @property
    def tbhits(self) -> int:
        """Tablebase probes that answered."""
    @property
    def pv(self) -> list[str]:
        """The principal variation as UCI text."""
    @property
    def bound(self) -> str:
        """ "exact", or "lower" / "upper" when the score is only a bound: a search stopped
        inside an iteration reports that iteration's line (as Stockfish does); a move that
        had just failed high or low there has a bound, not a score."""
    @property
    def lines(self) -> list[SearchResult]:
        """All MultiPV lines, best first."""
    @property
    def checkmate(self) -> bool:
        """True when the root is checkmated."""
    @property
    def stalemate(self) -> bool:
        """True when the root is stalemated."""
    @property
    def multipv(self) -> int:
        """This line's MultiPV index, from 1."""

@final
class Engine:
    """The search: alpha-beta with a hash table; one search at a time."""

    def __new__(
        cls,
        hash_mb: int = 16,
        threads: int = 1,
        *,
        eval_file: str | os.PathLike[str] | None = None,
        nnue: bool = True,
        features: dict[str, bool] | None = None,
        syzygy_path: str | os.PathLike[str] | None = None,
    ) -> Engine: ...
    def set_syzygy(
        self, path: str | os.PathLike[str] | None, probe_depth: int = 1, probe_limit: int = 7, rule50: bool = True
    ) -> int:
        """Sets the Syzygy tables the search probes (':'-separated directories; None removes
        them); returns the number of table files."""
    @property
    def syzygy_files(self) -> int:
        """The number of tablebase files the search probes (0: none)."""
    @staticmethod
    def feature_names() -> list[str]:
        """The names of the search features ``features`` can switch."""
    @property
    def features(self) -> dict[str, bool]:
        """Every search feature and whether it is on."""
    def set_features(self, features: dict[str, bool]) -> None:
        """Sets the search features: the defaults with ``{name: bool}`` applied."""
    def load_eval_file(self, path: str | os.PathLike[str]) -> None:
        """Evaluates with the net in this file (NetError / OSError keep the current one)."""
    def use_embedded_net(self) -> None:
        """Goes back to the net embedded in kibitz."""
    @property
    def eval_file(self) -> str | None:
        """The loaded net file, or None for the embedded net."""
    @property
    def nnue(self) -> bool:
        """Whether the search evaluates with the net (else the hand-written evaluation)."""
    @nnue.setter
    def nnue(self, on: bool) -> None:
        """True: the net; False: the hand-written evaluation (clears the table)."""
    def evaluate(self, board: Any) -> int:
        """Static evaluation in centipawns, side to move's view (no search)."""
    def search(
        self,
        board: Any,
        *,
        depth: int | None = None,
        nodes: int | None = None,
        movetime_ms: float | None = None,
        wtime_ms: float | None = None,
        btime_ms: float | None = None,
        winc_ms: float | None = None,
        binc_ms: float | None = None,
        movestogo: int | None = None,
        overhead_ms: float | None = None,
        soft_ms: float | None = None,
        hard_ms: float | None = None,
        ponder: bool = False,
        multipv: int = 1,
        searchmoves: Iterable[Any] | None = None,
        on_info: Callable[[SearchResult], object] | None = None,
        time_manager: TimeManagerLike | None = None,
    ) -> SearchResult:
        """Searches the board within the limits and returns the result (UCI moves).

        Time is decided by ``time_manager`` (``kibitz.timeman.TimeManagerLike``) or, by
        default, by ``kibitz.timeman.TimeManager`` made from the clock (the side to move's
        ``wtime_ms``/``btime_ms``, increments, ``movestogo``), which keeps ``overhead_ms``
        (default 30) for latency; ``movetime_ms`` is exact unless ``overhead_ms`` is given; ``soft_ms`` and
        ``hard_ms`` are an explicit target and cap. ``ponder=True``: the time limits wait
        for :meth:`ponderhit`."""
    def stop(self) -> None:
        """Asks a running search to stop (from another thread)."""
    def ponderhit(self) -> None:
        """Starts the clock of a ponder search (from another thread)."""
    def clear(self) -> None:
        """Clears the hash table and history."""
    def resize(self, hash_mb: int) -> None:
        """Resizes the hash table to hash_mb megabytes."""
    @property
    def hash_mb(self) -> int:
        """The hash table size in megabytes."""
    @property
    def threads(self) -> int:
        """Search threads (Lazy SMP; 1 is deterministic)."""
    def set_threads(self, threads: int) -> None:
        """Sets the number of search threads (1..1024) for the next search; at most
        ``thread_limit`` of them search."""
    @property
    def effective_threads(self) -> int:
        """The threads that actually search: ``threads``, but at most ``thread_limit``."""
    @property
    def thread_limit(self) -> int:
        """The most threads that search at once (by default the machine's cores)."""
    def set_thread_limit(self, limit: int) -> None:
        """Sets ``thread_limit`` (1..1024)."""
    def hashfull(self) -> int:
        """Hash table use in permille."""

# -- chess variants (kibitz.variant wraps these) ----------------------------------------------

class VariantError(ValueError):
    """A variant definition, FEN or move that kibitz cannot use."""

@final
class VariantBoard:
    """A position of a chess variant defined in Fairy-Stockfish's variants.ini format."""

    def __new__(cls, sources: list[tuple[str, str]], name: str, fen: str | None = None) -> VariantBoard: ...
    @staticmethod
    def sections(sources: list[tuple[str, str]], source: str) -> list[str]:
        """The variant names (sections) defined in a source."""
    @property
    def variant(self) -> str:
        """The variant's name."""
    @property
    def files(self) -> int:
        """The number of files."""
    @property
    def ranks(self) -> int:
        """The number of ranks."""
    @property
    def starting_fen(self) -> str:
        """The variant's start position."""
    @property
    def turn(self) -> bool:
        """True when White (the first player) is to move."""
    def pieces(self) -> list[tuple[str, str, str]]:
        """The variant's pieces."""
    def fen(self) -> str:
        """The FEN of the position."""
    def legal_moves(self) -> list[str]:
        """The legal moves as move text."""
    def is_legal(self, text: str) -> bool:
        """True when the move text is legal here."""
    def push(self, text: str) -> None:
        """Plays a legal move given as text."""
    def pop(self) -> str:
        """Takes back the last move and returns its text."""
    def is_check(self) -> bool:
        """True when the side to move is in check."""
    def outcome(self) -> tuple[str, str] | None:
        """The game's end (result, reason), or None while it goes on."""
    def perft(self, depth: int) -> int:
        """Leaf count of the legal move tree to depth."""
    def divide(self, depth: int) -> dict[str, int]:
        """Leaf counts below each legal move at depth."""
    def copy(self) -> VariantBoard:
        """A copy with the history."""

# PGN reading (rust/python/pgn.rs), used by kibitz.read_games / kibitz.analyse_games.
@final
class PgnReader:
    """A streaming PGN reader over a file object (binary, or text taken as UTF-8): yields one
    game at a time (replayed in Rust). ``lenient`` (training data) reads null moves and FEN
    tags as ``Board(fen)`` reads them, as python-chess does."""

    def __new__(cls, file: Any, *, lenient: bool = False) -> PgnReader: ...
    def __iter__(self) -> PgnReader: ...
    def __next__(
        self,
    ) -> tuple[int, int, dict[str, str], str, bool, list[str], str | None, str | None]:
        """The next game: (number, line, headers, start FEN, Chess960, UCI moves, result, error)."""
    def planes_chunk(
        self, max_positions: int, canonical: bool, dtype: str
    ) -> tuple[bytearray, bytearray, bytearray, bytearray, int, int] | None:
        """The next chunk of training positions of the games python-chess reads with a
        result: (planes, move indexes, results, game numbers, n, games skipped), or None at
        the end."""
    @property
    def games_read(self) -> int:
        """The games read so far, those left out included (the number of the last one)."""

def plain_tokens(line: str) -> list[str] | None:
    """The tokens of a plain PGN movetext line (moves, numbers, results, NAGs, glyphs and
    comments closed on the line; a comment as "{" and its text), or None."""

_H = TypeVar("_H")

@final
class GameScanner:
    """Text read from a file, scanned a game at a time as python-chess's read_headers reads:
    following a file (next_game), or fed by the caller (feed, scan)."""

    def __new__(
        cls, file: Any = None, start: int = 0, utf8: bool = True, chunk: int = 65536, pread: bool = False
    ) -> GameScanner:
        """``pread``: the file's binary buffer is a plain file's (io.BufferedReader over
        io.FileIO), read at offsets through its descriptor."""
    def feed(self, text: str) -> int:
        """Appends text read from the file; returns its length in UTF-8 bytes."""
    def scan(self, at_eof: bool) -> tuple[bool, dict[str, str], dict[str, str], int, int] | Literal[False] | None:
        """The next game: (whether there was one, the roster tags, the other tags, its length in
        UTF-8 bytes and in characters), scanning on past it; None when the text stops before
        the game does; False when the game's text has a carriage return."""
    def follows(self, file: Any) -> bool:
        """True when file is the file followed, where the last game left it."""
    def next_game_if_following(
        self, file: Any, headers: bool = True
    ) -> tuple[bool, dict[str, str], dict[str, str]] | Literal["translated", False] | None:
        """``next_game(file, headers)`` when ``follows(file)``, else False (nothing read)."""
    def next_game(
        self, file: Any, headers: bool = True
    ) -> tuple[bool, dict[str, str], dict[str, str]] | Literal["translated"] | None:
        """The followed file's next game (found, roster tags, other tags; the two dicts empty
        without ``headers``), the file set after it; None: read it line by line;
        "translated": the file translates newlines (the file back at the game's start either
        way)."""
    def next_headers_if_following(self, file: Any, headers_type: type[_H]) -> _H | Literal["translated"] | bool | None:
        """read_headers in one call, when ``follows(file)``: the next game's headers as a
        ``headers_type`` object (its ``_tag_roster`` and ``_others`` set), True at the end of
        the file; else as ``next_game_if_following`` (False, None, "translated")."""
    def skip_if_following(self, file: Any) -> int | Literal["translated", False] | None:
        """skip_game in one call, when ``follows(file)``: 1 when a game was skipped, 0 at the
        end of the file; else as ``next_game_if_following`` (False, None, "translated")."""

def read_plain_movetext(
    line: str,
    readline: Callable[[], str],
    boards: list[Board],
    depths: list[int],
    skip_depth: int,
    visit_move: Callable[[Board, Move], object] | None,
    san_fallback: Callable[[Board, str], Any],
    builder: Any = None,
    child_node: type | None = None,
) -> tuple[str, int, bool]:
    """kibitz.pgn's movetext loop in Rust for visitors that look only at moves, or growing a
    GameBuilder's tree: reads plain lines (variations included) until one it cannot read or
    the end of the game; returns (that line, the skip depth, whether the movetext ended)."""

def san_line(fen: str, moves: list[str], *, chess960: bool = False) -> list[str]:
    """The SAN of a line of UCI moves played from the FEN."""

# Syzygy tablebases (rust/python/syzygy.rs), wrapped by kibitz.syzygy.
class MissingTableError(KeyError):
    """No table of the position's material is loaded."""

@final
class Tablebase:
    """A set of Syzygy tables, probed without the GIL."""

    def __new__(cls, open_files: int | None = 128) -> Tablebase:
        """At most ``open_files`` table files are open at once (None: no limit)."""
    def add_directory(self, path: str) -> tuple[int, list[tuple[str, str]]]:
        """Adds a directory's tables: (files added, [(file, why it was skipped)])."""
    def add_file(self, path: str) -> None:
        """Adds one table file; OSError when it is not a usable table."""
    @property
    def max_pieces(self) -> int:
        """The most pieces of any loaded table (0 when none is loaded)."""
    @property
    def files(self) -> int:
        """The number of table files loaded."""
    def probe_wdl(self, board: Board) -> int:
        """WDL (-2..2) for the side to move."""
    def probe_dtz(self, board: Board) -> int:
        """DTZ in plies for the side to move."""
    def set_open_files(self, limit: int) -> None:
        """A new limit of open table files (at least one), kept at once."""
    def clear(self) -> None:
        """Forgets every table."""

@final
class VariantTablebase:
    """The Syzygy tables of Atomic, or of Antichess and Giveaway, probed by FEN without the GIL."""

    def __new__(cls, uci_variant: str, open_files: int | None = 128) -> VariantTablebase:
        """At most ``open_files`` table files are open at once (None: no limit)."""
    @property
    def variant(self) -> str:
        """The variant, as given."""
    def add_file(self, path: str) -> None:
        """Adds one table file; OSError when it is not a usable table."""
    def probe_wdl(self, fen: str) -> int:
        """WDL (-2..2) for the side to move."""
    def probe_dtz(self, fen: str) -> int:
        """DTZ in plies for the side to move."""
    def set_open_files(self, limit: int) -> None:
        """A new limit of open table files (at least one), kept at once."""
    def clear(self) -> None:
        """Forgets every table."""

# Board planes for neural networks (rust/python/tensor.rs), wrapped by kibitz.tensor.
PLANE_VALUES: int
"""Values per position: 18 planes of 64 squares."""

def board_planes(board: Board, canonical: bool = False, dtype: str = "float32") -> bytearray:
    """One position's planes as a new bytearray of float32 or uint8 values."""

def fill_planes_at(
    items: Any, address: int, nbytes: int, canonical: bool = False, dtype: str = "float32", chess960: bool = False
) -> int:
    """Fills the planes of Boards or FENs into memory the caller owns; returns the count."""
