"""Opening names (ECO code and English name) of chess positions and games.

The names are lichess's chess-openings data set (https://github.com/lichess-org/chess-openings,
CC0 / public domain), shipped as ``data/openings.tsv.gz``: its five volumes ``a.tsv`` ..
``e.tsv`` concatenated under one header, unchanged otherwise (columns ``eco``, ``name``,
``pgn``; about 3,800 lines, 52 KB compressed), taken at the data set's commit 51b8862
(July 2026).

Positions, not move orders, are matched: each line of the data set is replayed once (on
first use) and its final position is keyed by its EPD (the FEN without the two move
counters, the en passant square only when an en passant capture is legal). So a game that
reaches a named position by another move order (a transposition) gets that name. For a
game, the deepest named position wins: the moves are played backwards from the end until a
named position is found, which is the classification the data set's README recommends.

API::

    import kibitz, kibitz.openings
    board = kibitz.Board()
    for san in ["e4", "c5", "Nf3", "d6", "d4", "cxd4", "Nxd4", "Nf6", "Nc3", "a6"]:
        board.push_san(san)
    kibitz.openings.name(board)
    # Opening(eco='B90', name='Sicilian Defense: Najdorf Variation', pgn='1. e4 c5 2. Nf3 ...')

``name(board)`` takes a ``kibitz.Board``, a python-chess ``chess.Board`` (anything with
``fen()`` and, for the walk back, ``move_stack`` / ``root()``) or a FEN string; it returns an
``Opening`` (a named tuple: ``eco``, ``name``, ``pgn``; the ``pgn`` is the data set's line)
or None when no position of the game is named. ``lookup(fen)`` is the exact lookup of one
position; ``of_positions(fens)`` classifies a game given as the FENs of its positions (what
``kibitz analyse`` records hold).

When several lines of the data set reach the same position (the data set lists some
transpositions on purpose), the first in file order names it.
"""

from __future__ import annotations

import functools
import gzip
import threading
from pathlib import Path
from typing import Any, Iterable, NamedTuple, Optional

from kibitz._core import Board, FenError

__all__ = ["Opening", "DATA_FILE", "epd", "lookup", "name", "of_positions", "entries", "line_moves", "max_plies"]

DATA_FILE = Path(__file__).resolve().parent / "data" / "openings.tsv.gz"


class Opening(NamedTuple):
    """A named opening: ECO code (``"B90"``), name (``"Sicilian Defense: Najdorf Variation"``)
    and the data set's move sequence reaching it (SAN movetext)."""

    eco: str
    name: str
    pgn: str


_lock = threading.Lock()
_index: Optional[dict[str, Opening]] = None
_entries: Optional[list[Opening]] = None


def entries() -> list[Opening]:
    """Every line of the data set, in file order."""
    global _entries
    if _entries is None:
        rows: list[Opening] = []
        with gzip.open(DATA_FILE, "rt", encoding="utf-8") as f:
            header = f.readline().rstrip("\n").split("\t")
            if header[:3] != ["eco", "name", "pgn"]:
                raise ValueError(f"{DATA_FILE}: unexpected header {header}")
            for line in f:
                line = line.rstrip("\n")
                if not line:
                    continue
                eco, title, pgn = line.split("\t")[:3]
                rows.append(Opening(eco, title, pgn))
        _entries = rows
    return _entries


def line_moves(pgn: str) -> list[str]:
    """The SAN moves of a movetext like ``1. e4 c5 2. Nf3``: move numbers dropped."""
    return [t for t in pgn.split() if not t[0].isdigit()]


def _board_epd(board: Board) -> str:
    fields = board.fen().split()
    ep = fields[3] if fields[3] != "-" and board.has_legal_en_passant() else "-"
    return " ".join([fields[0], fields[1], fields[2], ep])


def epd(position: Any) -> str:
    """The key of a position: ``placement side castling ep`` with the en passant square only
    when a capture there is legal. ``position``: a FEN string, a ``kibitz.Board`` or anything
    with ``fen()``."""
    fen = position if isinstance(position, str) else position.fen()
    return _board_epd(Board(fen))


def _build() -> dict[str, Opening]:
    index: dict[str, Opening] = {}
    for entry in entries():
        board = Board()
        for san in line_moves(entry.pgn):
            board.push_san(san)
        index.setdefault(_board_epd(board), entry)
    return index


def _get_index() -> dict[str, Opening]:
    global _index
    if _index is None:
        with _lock:
            if _index is None:
                _index = _build()
    return _index


def lookup(position: Any) -> Optional[Opening]:
    """The opening named by exactly this position, or None. ``position`` as for ``epd``;
    a malformed FEN raises ``kibitz.FenError``."""
    return _get_index().get(epd(position))


@functools.lru_cache(maxsize=None)
def max_plies() -> int:
    """The length in plies of the data set's longest line: no later position of a game
    started from the usual position can be named."""
    return max(len(line_moves(e.pgn)) for e in entries())


def of_positions(fens: Iterable[str]) -> Optional[Opening]:
    """The opening of a game given as the FENs of its positions in order (start first):
    the last named one, or None. Malformed FENs are skipped."""
    index = _get_index()
    found: Optional[Opening] = None
    for fen in fens:
        try:
            key = epd(fen)
        except (FenError, ValueError, IndexError):
            continue
        hit = index.get(key)
        if hit is not None:
            found = hit
    return found


def name(board: Any) -> Optional[Opening]:
    """The opening of ``board``: its own position's name, else (playing its moves backwards)
    the deepest named position of its game; None when none is named.

    ``board``: a ``kibitz.Board``, a python-chess ``chess.Board`` or a FEN string (then only
    that position is looked at)."""
    if isinstance(board, str):
        return lookup(board)
    hit = lookup(board)
    if hit is not None:
        return hit
    stack = list(getattr(board, "move_stack", []) or [])
    if not stack:
        return None
    try:
        replay = Board(board.root().fen())
    except (AttributeError, FenError, ValueError):
        return None
    fens = [replay.fen()]
    for move in stack:
        replay.push_uci(move.uci())
        fens.append(replay.fen())
    return of_positions(fens)
