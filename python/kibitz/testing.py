"""Hypothesis strategies for testing move generators (kibitz's own, or yours against kibitz).

This module needs `hypothesis <https://hypothesis.readthedocs.io>`_ (``pip install
hypothesis``); the rest of kibitz does not import it.

Strategies (each draws a :class:`kibitz.Board` that carries its game history, so
``board.move_stack`` replays it from ``board`` 's root position):

* :func:`games` -- legal positions reached by random play from the start position,
  a random Chess960 start, or a FEN of your choice.
* :func:`move_sequences` -- lists of UCI moves legal in turn from a position.
* :func:`rare_rule_positions` -- positions rich in the rules generators get wrong: random
  play from seed positions built around en passant, castling, promotion and check, that
  prefers moves of those kinds and double pushes that allow an en-passant reply.
* :func:`chess960_start_fens` -- the 960 Chess960 start positions.

Checks that give readable failures:

* :func:`assert_same_moves` -- your legal moves for a position equal kibitz's.
* :func:`assert_same_divide` -- your perft divide equals kibitz's; on failure the message
  names the first position where the move lists differ (see :mod:`kibitz.perftdiff`).

A recipe (your generator takes a FEN and returns UCI moves)::

    from hypothesis import given
    from kibitz.testing import assert_same_moves, rare_rule_positions

    @given(rare_rule_positions())
    def test_my_generator(board):
        assert_same_moves(my_legal_moves, board)
"""

from __future__ import annotations

from typing import Callable, Iterable, List, Mapping, Optional, Sequence

try:
    from hypothesis import strategies as st
except ImportError as e:  # pragma: no cover - exercised only without hypothesis
    raise ImportError(
        "kibitz.testing needs hypothesis, which kibitz itself does not require: pip install hypothesis"
    ) from e

from kibitz._core import STARTING_FEN, Board
from kibitz.perftdiff import find_difference, format_difference

__all__ = [
    "RARE_RULE_SEEDS",
    "assert_same_divide",
    "assert_same_moves",
    "chess960_fen",
    "chess960_start_fens",
    "games",
    "move_kinds",
    "move_sequences",
    "rare_rule_positions",
]

# -- Chess960 start positions ------------------------------------------------------------

# Scharnagl's numbering (https://www.chessprogramming.org/Reinhard_Scharnagl): the number
# n = 0..959 places, in turn, the light-squared bishop (n % 4), the dark-squared bishop
# (n // 4 % 4), the queen (n // 16 % 6 among the six empty files), the two knights
# (n // 96, one of ten pairs among the five empty files, in this order) and finally
# R, K, R on the three files left. Number 518 is the standard start position.
_KNIGHT_PAIRS = [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)]


def chess960_fen(number: int) -> str:
    """The FEN of Chess960 start position ``number`` (0..959, Scharnagl's numbering)."""
    if not 0 <= number <= 959:
        raise ValueError(f"Chess960 positions are numbered 0..959, got {number}")
    rank: List[Optional[str]] = [None] * 8
    n, light = divmod(number, 4)
    rank[2 * light + 1] = "B"
    n, dark = divmod(n, 4)
    rank[2 * dark] = "B"
    n, queen = divmod(n, 6)
    empty = [f for f in range(8) if rank[f] is None]
    rank[empty[queen]] = "Q"
    empty = [f for f in range(8) if rank[f] is None]
    for i in _KNIGHT_PAIRS[n]:
        rank[empty[i]] = "N"
    for f, piece in zip([f for f in range(8) if rank[f] is None], "RKR"):
        rank[f] = piece
    white = "".join(p for p in rank if p is not None)
    return f"{white.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{white} w KQkq - 0 1"


def chess960_start_fens() -> st.SearchStrategy[str]:
    """FENs of the 960 Chess960 start positions (castling field ``KQkq``, X-FEN)."""
    return st.integers(0, 959).map(chess960_fen)


# -- random play ---------------------------------------------------------------------------


def _root_fen(draw: Callable, fen: Optional[str], chess960: bool) -> str:  # type: ignore[type-arg]
    if fen is not None:
        return fen
    return draw(chess960_start_fens()) if chess960 else STARTING_FEN


@st.composite
def games(
    draw: Callable,  # type: ignore[type-arg]
    min_plies: int = 0,
    max_plies: int = 80,
    *,
    fen: Optional[str] = None,
    chess960: bool = False,
) -> Board:
    """A Board reached by ``min_plies``..``max_plies`` random legal moves (fewer when the
    game ends in mate or stalemate) from ``fen``, by default the start position, or with
    ``chess960=True`` a random Chess960 start. Shrinks towards fewer and earlier moves."""
    board = Board(_root_fen(draw, fen, chess960), chess960=chess960)
    plies = draw(st.integers(min_plies, max_plies))
    for _ in range(plies):
        moves = sorted(board.legal_moves_uci())
        if not moves:
            break
        board.push_uci(draw(st.sampled_from(moves)))
    return board


def move_sequences(
    min_size: int = 0,
    max_size: int = 40,
    *,
    fen: Optional[str] = None,
    chess960: bool = False,
) -> st.SearchStrategy[List[str]]:
    """Lists of UCI moves, each legal after the ones before, played from ``fen`` (default:
    the start position). Feed them to your own board's push and compare with kibitz."""
    if chess960 and fen is None:
        raise ValueError("move_sequences(chess960=True) needs the fen the moves start from")
    return games(min_size, max_size, fen=fen, chess960=chess960).map(lambda b: [m.uci() for m in b.move_stack])


# Positions built around the rare rules, each with the reason it is here. The first four
# are the well-known perft test positions of https://www.chessprogramming.org/Perft_Results.
RARE_RULE_SEEDS: List[str] = [
    # "Kiwipete": both sides may castle both ways, en passant after b/g pawn pushes, pins.
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    # Position 3: en passant that would expose the king along the rank, discovered checks.
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    # Position 4: promotions (with capture) on both sides, castling rights, checks.
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    # Position 5: promotion by capture that gives check, White may castle.
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    # Under-promotions for both sides with knights guarding the promotion squares.
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    # En passant available now (d5 just advanced), another double push ready for Black.
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    # En passant is illegal: taking d6 would open the fifth rank to the rook on h5.
    "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1",
    # Castling through and into attacked squares: bishops and a queen watch f1/d1, f8/c8.
    "r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1",
    # Castling both ways with each rook attacked (allowed) and b1/b8 attacked (allowed too).
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    # Check evasions: double check after the discovered attack, pawn checks, king walks.
    "4k3/8/8/8/1b6/8/3PPP2/r3K2R w K - 0 1",
]


def move_kinds(board: Board, move: str) -> set:  # type: ignore[type-arg]
    """Which rare rules ``move`` (legal in ``board``) touches: a subset of ``{"castling",
    "en_passant", "promotion", "check", "allows_en_passant"}``. Uses only kibitz, via the FEN."""
    fields = board.fen().split()
    cells = _placement(fields[0])
    frm, to = move[:2], move[2:4]
    piece = cells.get(frm, "")
    kinds = set()
    if len(move) == 5:
        kinds.add("promotion")
    if piece in "Kk" and (abs(ord(frm[0]) - ord(to[0])) > 1 or cells.get(to, "") == ("R" if piece == "K" else "r")):
        kinds.add("castling")
    if piece in "Pp" and frm[0] != to[0] and to == fields[3]:
        kinds.add("en_passant")
    board.push_uci(move)
    if board.is_check():
        kinds.add("check")
    if board.fen().split()[3] != "-":  # kibitz writes the square only when the capture is legal
        kinds.add("allows_en_passant")
    board.pop()
    return kinds


def _placement(field: str) -> dict:  # type: ignore[type-arg]
    cells = {}
    for r, row in enumerate(field.split("/")):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                cells[f"{'abcdefgh'[f]}{8 - r}"] = ch
                f += 1
    return cells


_OFFERED = {"castling", "en_passant", "promotion"}


@st.composite
def rare_rule_positions(
    draw: Callable,  # type: ignore[type-arg]
    max_plies: int = 12,
    *,
    chess960: bool = False,
) -> Board:
    """A Board rich in en passant, castling, promotion and check: up to ``max_plies``
    random moves from one of :data:`RARE_RULE_SEEDS` (from a random Chess960 start with
    ``chess960=True``), choosing, three times in four when there is one, a move that
    castles, captures en passant, promotes, gives check or allows an en-passant reply
    (first the kind, then a move of that kind)."""
    if chess960:
        board = Board(draw(chess960_start_fens()), chess960=True)
        max_plies *= 3  # a 960 start needs some moves before castling and checks appear
    else:
        board = Board(draw(st.sampled_from(RARE_RULE_SEEDS)))
    plies = draw(st.integers(0, max_plies))
    for _ in range(plies):
        moves = sorted(board.legal_moves_uci())
        if not moves:
            break
        kinds = {m: move_kinds(board, m) for m in moves}
        available = sorted(set().union(*kinds.values()))
        # Playing a rare move uses it up (a king castles once): stop here half the time when
        # this position offers one, so that the positions drawn offer them, not only follow them.
        if _OFFERED & set(available) and draw(st.integers(0, 1)) == 0:
            break
        # Pick a kind first, so that a rare kind (an en-passant chance) is not drowned by a
        # common one (checks). 0 shrinks to "take a rare move", keeping positions interesting.
        if available and draw(st.integers(0, 3)) != 3:
            kind = draw(st.sampled_from(available))
            moves = [m for m in moves if kind in kinds[m]]
        board.push_uci(draw(st.sampled_from(moves)))
    return board


# -- checks with readable failures ---------------------------------------------------------


def assert_same_moves(legal_moves: Callable[[str], Iterable[str]], board: Board) -> None:
    """Asserts that ``legal_moves(fen)`` (your generator: a FEN in, UCI moves out) lists the
    same moves as kibitz for ``board``; the message names the missing and illegal moves."""
    fen = board.fen()
    theirs = [str(m) for m in legal_moves(fen)]
    ours = set(board.legal_moves_uci())
    missing = sorted(ours - set(theirs))
    extra = sorted(set(theirs) - ours)
    repeated = sorted({m for m in theirs if theirs.count(m) > 1})
    if missing or extra or repeated:
        lines = [f"move lists differ in {fen}"]
        if board.move_stack:
            lines.append(f"  reached by: {' '.join(m.uci() for m in board.move_stack)}")
        if missing:
            lines.append(f"  legal moves it misses: {' '.join(missing)}")
        if extra:
            lines.append(f"  moves it has that are not legal: {' '.join(extra)}")
        if repeated:
            lines.append(f"  moves it lists twice: {' '.join(repeated)}")
        raise AssertionError("\n".join(lines))


def assert_same_divide(divide: Callable[[str, int], Mapping[str, int]], board: Board, depth: int) -> None:
    """Asserts that ``divide(fen, depth)`` (your perft divide: ``{uci_move: count}``) equals
    kibitz's for ``board``; on a difference it descends to the first position whose move
    lists differ and names it (FEN, moves from ``board``, missing and illegal moves)."""
    root = board.fen()
    chess960 = board.chess960

    def their_divide(fen: Optional[str], moves: Sequence[str], d: int) -> Mapping[str, int]:
        b = Board(fen, chess960=chess960) if fen is not None else Board(chess960=chess960)
        for m in moves:
            b.push_uci(m)
        return divide(b.fen(), d)

    diff = find_difference(their_divide, depth, root, chess960=chess960)
    if diff is not None:
        raise AssertionError(format_difference(diff, "your generator", given_fen=root))
