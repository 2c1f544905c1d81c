"""Type stubs for the Rust extension ``kibitz._core`` (checked by ``mypy.stubtest``)."""

from typing import Any, Callable, final

__all__ = [
    "AmbiguousMoveError",
    "Board",
    "Engine",
    "FenError",
    "IllegalMoveError",
    "InvalidMoveError",
    "STARTING_FEN",
    "SearchResult",
    "__version__",
    "VariantBoard",
    "VariantError",
]

STARTING_FEN: str
"""The FEN of the standard starting position."""
__version__: str
"""kibitz's version (Cargo.toml's, the only place it is written)."""

class FenError(ValueError):
    """A FEN string that is malformed or describes an impossible position."""

class InvalidMoveError(ValueError):
    """Move text that is not a move at all (neither UCI nor SAN syntax)."""

class IllegalMoveError(ValueError):
    """A well-formed move that is not legal in the position."""

class AmbiguousMoveError(ValueError):
    """A SAN move that fits more than one legal move."""

@final
class Board:
    def __new__(cls, fen: str | None = None, *, chess960: bool = False) -> Board: ...
    @classmethod
    def from_chess(cls, board: Any) -> Board: ...
    def to_chess(self) -> Any: ...
    def fen(self) -> str: ...
    @property
    def turn(self) -> bool: ...
    @property
    def chess960(self) -> bool: ...
    @property
    def halfmove_clock(self) -> int: ...
    @property
    def fullmove_number(self) -> int: ...
    @property
    def move_stack(self) -> list[str]: ...
    def legal_moves(self) -> list[str]: ...
    def push_uci(self, move: str) -> None: ...
    def san(self, move: str) -> str: ...
    def parse_san(self, san: str) -> str: ...
    def push_san(self, san: str) -> str: ...
    def pop(self) -> str: ...
    def peek(self) -> str: ...
    def perft(self, depth: int) -> int: ...
    def divide(self, depth: int) -> dict[str, int]: ...
    def is_check(self) -> bool: ...
    def is_checkmate(self) -> bool: ...
    def is_stalemate(self) -> bool: ...
    def polyglot_key(self) -> int: ...
    def copy(self) -> Board: ...
    def __copy__(self) -> Board: ...
    def __deepcopy__(self, memo: Any) -> Board: ...
    def __eq__(self, value: object, /) -> bool: ...
    # Game-end rules (python-chess semantics).
    def is_repetition(self, count: int = 3) -> bool: ...
    def is_insufficient_material(self) -> bool: ...
    def is_fifty_moves(self) -> bool: ...
    def is_game_over(self, *, claim_draw: bool = False) -> bool: ...
    def result(self, *, claim_draw: bool = False) -> str: ...

@final
class SearchResult:
    """A search result, or (passed to ``on_info``) one line of an iteration.

    ``mate`` > 0: the side to move mates in that many moves; < 0: it is mated; a checkmated
    root gives ``mate == 0`` with ``checkmate`` set, a stalemated one ``score_cp == 0``
    with ``stalemate`` set, both with ``best_move`` None.
    """

    @property
    def best_move(self) -> str | None:
        """The move to play (UCI), None when the root has no legal move."""
    @property
    def ponder(self) -> str | None:
        """The expected reply (the pv's second move), if any."""
    @property
    def score_cp(self) -> int | None:
        """Score in centipawns from the side to move's view; None when ``mate`` is set."""
    @property
    def mate(self) -> int | None:
        """Moves to mate: > 0 the side to move mates, < 0 it is mated; None otherwise."""
    @property
    def depth(self) -> int:
        """Depth of the last finished iteration."""
    @property
    def seldepth(self) -> int:
        """Deepest ply reached (quiescence included)."""
    @property
    def nodes(self) -> int:
        """Nodes searched."""
    @property
    def time_ms(self) -> int:
        """Time taken, in milliseconds."""
    @property
    def nps(self) -> int:
        """Nodes per second."""
    @property
    def hashfull(self) -> int:
        """Permille of the transposition table in use (sampled)."""
    @property
    def pv(self) -> list[str]:
        """The principal variation, UCI moves from the root."""
    @property
    def bound(self) -> str:
        """Whether the score is "exact", a "lower" bound or an "upper" bound."""
    @property
    def lines(self) -> list[SearchResult]:
        """One result per MultiPV line (line 1 first); empty in the objects given to ``on_info``."""
    @property
    def checkmate(self) -> bool:
        """The root position is checkmate (then ``mate == 0`` and ``best_move`` is None)."""
    @property
    def stalemate(self) -> bool:
        """The root position is stalemate (then ``score_cp == 0`` and ``best_move`` is None)."""
    @property
    def multipv(self) -> int:
        """Which MultiPV line this is (1 = best)."""

@final
class Engine:
    """The chess engine: alpha-beta search with a transposition table of ``hash_mb`` MB.

    ``search`` releases the GIL; ``stop()`` may be called from another thread and makes the
    running search return its best move so far.
    """

    def __new__(cls, hash_mb: int = 16) -> Engine: ...
    def search(
        self,
        board: Board,
        *,
        depth: int | None = None,
        nodes: int | None = None,
        movetime_ms: float | None = None,
        soft_ms: float | None = None,
        hard_ms: float | None = None,
        multipv: int = 1,
        searchmoves: list[str] | None = None,
        on_info: Callable[[SearchResult], object] | None = None,
    ) -> SearchResult:
        """Searches ``board`` and returns the result.

        Limits combine: the search ends at the first one reached (none = until ``stop()``).
        ``movetime_ms`` is an exact hard limit; ``soft_ms`` / ``hard_ms`` are a time
        manager's target and cap. ``searchmoves`` restricts the root moves (UCI).
        ``on_info(info)`` is called after each finished iteration, once per MultiPV line.
        Bad limits raise ``ValueError``.
        """
    def stop(self) -> None:
        """Makes a running search return within a few milliseconds with its best move so far.

        Safe to call from any thread; a no-op when no search runs."""
    def clear(self) -> None:
        """Forgets the transposition table and the move-ordering histories (a new game)."""
    def resize(self, hash_mb: int) -> None:
        """Replaces the transposition table by an empty one of ``hash_mb`` megabytes."""
    @property
    def hash_mb(self) -> int:
        """The table size in megabytes."""
    def hashfull(self) -> int:
        """Permille of the table used by the last search (sampled)."""

# -- chess variants (kibitz.variant wraps these) ----------------------------------------------

class VariantError(ValueError):
    """A variant definition that cannot be used; the message names the file and line."""

@final
class VariantBoard:
    """A position of a chess variant, with its move history (``kibitz.variant.Board`` wraps it).

    ``sources`` are (file name, text) pairs of definition texts (the built-ins first),
    ``name`` the variant to play and ``fen`` its position (default: the variant's start).
    """

    def __new__(cls, sources: list[tuple[str, str]], name: str, fen: str | None = None) -> VariantBoard: ...
    @staticmethod
    def sections(sources: list[tuple[str, str]], source: str) -> list[str]:
        """Names of the sections defined in source ``source`` of ``sources``, in file order."""
    @property
    def variant(self) -> str:
        """The variant's name."""
    @property
    def files(self) -> int:
        """Number of files (columns) of the board."""
    @property
    def ranks(self) -> int:
        """Number of ranks (rows) of the board."""
    @property
    def starting_fen(self) -> str:
        """The variant's starting position."""
    @property
    def turn(self) -> bool:
        """True when White is to move."""
    def pieces(self) -> list[tuple[str, str, str]]:
        """The piece types: (letter, defining key, Betza notation)."""
    def fen(self) -> str:
        """The position as a FEN in the variant's own dimensions."""
    def legal_moves(self) -> list[str]:
        """The legal moves in UCI notation as Fairy-Stockfish writes them (``a9a10c``)."""
    def is_legal(self, text: str) -> bool:
        """Whether ``text`` is a legal move here (InvalidMoveError if it is not a move at all)."""
    def push(self, text: str) -> None:
        """Plays a legal move; raises InvalidMoveError or IllegalMoveError and changes nothing otherwise."""
    def pop(self) -> str:
        """Takes back the last move and returns it (IndexError if there is none)."""
    def is_check(self) -> bool:
        """Whether the side to move is in check."""
    def outcome(self) -> tuple[str, str] | None:
        """None while the game goes on; else (result for the side to move: "win", "loss" or
        "draw"; the rule: "checkmate", "stalemate", "extinction" or "n-move rule")."""
    def perft(self, depth: int) -> int:
        """Leaf nodes at ``depth``. Releases the GIL; Ctrl-C raises KeyboardInterrupt."""
    def divide(self, depth: int) -> dict[str, int]:
        """Leaf counts at ``depth`` (>= 1) below each legal move, as ``{move: count}``."""
    def copy(self) -> VariantBoard:
        """An independent copy, history included."""
