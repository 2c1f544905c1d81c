"""Training data from game collections: ``pgn_to_tensors`` turns the games of a PGN file
into chunks of board planes, move indexes and results (the layout and the move encoding
are ``kibitz.tensor``'s), read, replayed and filled in Rust by kibitz's PGN reader."""

from __future__ import annotations

import os
from typing import Any, Iterator, Union

from kibitz._core import PgnReader
from kibitz.analysis.reader import _Opened
from kibitz.tensor import PLANES, PgnChunk, _in_order, _numpy, _plane_dtype

__all__ = ["pgn_to_tensors"]


def pgn_to_tensors(
    source: Union[str, "os.PathLike[str]", Any],
    chunk: int = 4096,
    canonical: bool = False,
    dtype: Any = None,
) -> Iterator[PgnChunk]:
    """The games of a PGN file as training data, in chunks of about ``chunk`` positions
    (whole games; at least one game a chunk). Every game python-chess reads with a result
    is there (the result python-chess gives: the Result tag, else the result token): null
    moves, unescaped quotes in tags, FEN tags as ``Board(fen)`` reads them included. Games
    without a result (``*``) or with a problem that stops their replay (an illegal move, a
    null move in check...) are left out and counted in ``skipped``. Reading, replay and
    planes are in Rust; each array is a view of a buffer made for it (no copy). Bad
    arguments and a missing file raise here, not at the first chunk."""
    np = _numpy()
    dt = _plane_dtype(dtype)
    name = dt.newbyteorder("=").name
    if isinstance(chunk, bool) or not isinstance(chunk, int) or chunk < 1:
        raise ValueError(f"chunk must be a positive number of positions, not {chunk!r}")
    chunk = min(chunk, 1 << 40)  # any larger is the whole file anyway
    return _chunks(np, _Opened(source), chunk, canonical, name, dt)


def _chunks(np: Any, opened: Any, chunk: int, canonical: bool, name: str, dt: Any) -> Iterator[PgnChunk]:
    """The chunks of an opened source (closed when the chunks end or are dropped)."""
    try:
        reader = PgnReader(opened, lenient=True)
        while (part := reader.planes_chunk(chunk, canonical, name)) is not None:
            planes, moves, results, games, n, skipped = part
            yield PgnChunk(
                _in_order(np.frombuffer(planes, name).reshape(n, PLANES, 8, 8), dt),
                np.frombuffer(moves, np.int32),
                np.frombuffer(results, np.int8),
                np.frombuffer(games, np.int64),
                skipped,
            )
    finally:
        opened.close()
