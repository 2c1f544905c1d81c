"""Analysing game collections (``kibitz analyse``, ``kibitz.analyse_games``) and reading PGN
fast (``kibitz.read_games``).

Modules: ``reader`` (PGN files to ``InputGame``s, in Rust), ``judgement`` (win probability,
marks, accuracy), ``game`` (one game's record, annotated PGN), ``backends`` (serial,
process pool, Ray), ``cli`` (the subcommand, its output files and ``--resume``).
"""

from __future__ import annotations

import numbers
from typing import Any, Iterator, Optional

from kibitz.analysis.game import Limits
from kibitz.analysis.reader import InputGame, Source, read_games


def analyse_games(
    source: Source,
    *,
    nodes: Optional[int] = None,
    depth: Optional[int] = None,
    movetime_ms: Optional[float] = None,
    multipv: int = 1,
    workers: Optional[int] = None,
    backend: str = "local",
    ray_address: Optional[str] = None,
    hash_mb: int = 16,
    syzygy: Optional[str] = None,
) -> Iterator[dict[str, Any]]:
    """Yields one record (a dict, as ``kibitz analyse`` writes per JSON line) per game of
    the PGN ``source`` (a path or binary file; plain, .gz or .zst), in input order.

    Each position is searched to ``nodes`` / ``depth`` / ``movetime_ms`` (default 100,000
    nodes). ``workers`` processes share the work (default: one per core); ``backend="ray"``
    sends it to a Ray cluster at ``ray_address`` (None: a local one). At a fixed ``nodes``
    or ``depth`` the records do not depend on ``workers`` or ``backend``. ``syzygy``
    (table directories, ':'-separated) lets the search probe the tablebases and marks the
    positions they decide (``"tb": {"wdl": ..., "dtz": ...}`` in the record)."""
    from kibitz.analysis import backends

    optional = {"nodes": nodes, "depth": depth, "workers": workers}
    for name, value in (*optional.items(), ("multipv", multipv), ("hash_mb", hash_mb)):
        if (value is not None or name not in optional) and (
            isinstance(value, bool) or not isinstance(value, numbers.Integral)
        ):
            raise TypeError(f"{name} must be an int, got {type(value).__name__} {value!r}")
    if movetime_ms is not None and (isinstance(movetime_ms, bool) or not isinstance(movetime_ms, numbers.Real)):
        raise TypeError(f"movetime_ms must be a number, got {type(movetime_ms).__name__} {movetime_ms!r}")
    for name, value in (("nodes", nodes), ("depth", depth)):
        if value is not None and value < 1:
            raise ValueError(f"{name} must be at least 1, got {value}")
    if movetime_ms is not None and not movetime_ms > 0:
        raise ValueError(f"movetime_ms must be positive, got {movetime_ms}")
    if multipv < 1:
        raise ValueError(f"multipv must be at least 1, got {multipv}")
    if backend not in ("local", "ray"):
        raise ValueError(f"backend must be 'local' or 'ray', got {backend!r}")
    limits = Limits(nodes=nodes, depth=depth, movetime_ms=movetime_ms, multipv=multipv, hash_mb=hash_mb, syzygy=syzygy)
    limits.check()
    if workers is not None and workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    games = read_games(source)
    if backend == "ray":
        return backends.ray_cluster(games, limits, ray_address)
    n = backends.default_workers() if workers is None else workers
    return backends.pool(games, limits, n)


__all__ = ["InputGame", "analyse_games", "read_games"]
