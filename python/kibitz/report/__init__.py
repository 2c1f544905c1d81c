"""HTML reports of analysed game collections (``kibitz report``, ``kibitz analyse --report``).

``build_report(records)`` turns ``kibitz analyse`` records (dicts, one per game) into one
self-contained HTML page: results, a table per player (games, score, accuracy, ACPL,
blunders / mistakes / inaccuracies per game, all and by colour), the openings played (by
position, ``kibitz.openings``), a sortable table of the games, and per game the
evaluation graph, a board that follows the graph, the move list and the arrow keys, and
each marked move with the position before it, the best move and its line. See
docs/report.md.

Modules: ``data`` (records to figures and compact game data), ``page`` (the HTML, its
escaping), ``static/`` (the page's script and style).
"""

from __future__ import annotations

import json
import math
import os
import stat
from typing import Any, Iterable, Iterator, Optional

from kibitz._atomic import write_atomically
from kibitz.report.data import Summary, game_data
from kibitz.report.page import render

__all__ = ["MAX_RECORD_BYTES", "ReportBuilder", "build_report", "write_report", "read_records", "RecordError"]

DEFAULT_TITLE = "kibitz analysis report"
# The longest line read as a record (bytes). A record takes about 1 KB a position at
# --multipv 10 (measured at 20,000 nodes; deeper searches' longer lines a few KB), so the
# longest tournament game on record (269 moves, 539 positions) stays under 3 MB; a longer
# line is not a record, and a stream without line breaks is refused after this much
# instead of read without end.
MAX_RECORD_BYTES = 64 << 20


class RecordError(ValueError):
    """A JSON-lines file holds something that is not a ``kibitz analyse`` record."""


def _check_fields(record: dict[str, Any]) -> None:
    """TypeError unless the fields every page reads have the types ``kibitz analyse``
    writes: ``game`` a number, ``status`` "ok" or "error", and an analysed game's
    ``positions`` a list of objects."""
    game = record.get("game")
    if not isinstance(game, int) or isinstance(game, bool):
        raise TypeError(f"'game' is a game number, not {game!r}"[:200])
    status = record.get("status")
    if status not in ("ok", "error"):
        raise TypeError(f'\'status\' is "ok" or "error", not {status!r}'[:200])
    positions = record.get("positions")
    if status == "ok" and (not isinstance(positions, list) or not all(isinstance(p, dict) for p in positions)):
        raise TypeError("'positions' of an analysed game is a list of objects")


class ReportBuilder:
    """Takes records one at a time (as ``kibitz analyse`` produces them) and keeps only what
    the page needs: the figures and each game's compact data, not the records."""

    def __init__(self, title: Optional[str] = None) -> None:
        self.title = title or DEFAULT_TITLE
        self.summary = Summary()
        self.games: list[dict[str, Any]] = []

    def add(self, record: dict[str, Any]) -> None:
        """Adds one record; RecordError (and nothing added) when it is not a dict with the
        fields and types of a ``kibitz analyse`` record."""
        try:
            if not isinstance(record, dict):
                raise TypeError(f"a record is a JSON object, not {type(record).__name__}")
            _check_fields(record)
            data = game_data(record)
            self.summary.add(record, data.get("o"))
        except (TypeError, ValueError, KeyError, AttributeError, IndexError, OverflowError) as e:
            if isinstance(e, RecordError):
                raise
            game = record.get("game") if isinstance(record, dict) else None
            which = f"the record of game {game}" if isinstance(game, int) else "a record"
            reason = " ".join(str(e).split()) or type(e).__name__
            raise RecordError(f"{which} is not one kibitz analyse writes ({reason})") from None
        self.games.append(data)

    def read(self, path: str) -> int:
        """Adds every record of a ``kibitz analyse`` JSON-lines file, read as ``read_records``
        reads it; returns how many. RecordError names the line of one that cannot be used."""
        count = 0
        for number, record in _numbered_records(path):
            try:
                self.add(record)
            except RecordError as e:
                raise RecordError(f"{path}: line {number}: {e}") from None
            count += 1
        return count

    def html(self) -> str:
        return render(self.summary, self.games, self.title)

    def write(self, path: str) -> int:
        """Writes the page to ``path`` (whole or not at all: a temporary file beside it is
        renamed into place); returns the number of games."""
        write_atomically(path, self.html().encode("utf-8"))
        return len(self.games)


def build_report(records: Iterable[dict[str, Any]], title: Optional[str] = None) -> str:
    """The report page (HTML text) of ``records``, in their order."""
    builder = ReportBuilder(title)
    for record in records:
        builder.add(record)
    return builder.html()


def write_report(records: Iterable[dict[str, Any]], path: str, title: Optional[str] = None) -> int:
    """Writes the report of ``records`` to ``path`` (atomically); returns the number of games."""
    builder = ReportBuilder(title)
    for record in records:
        builder.add(record)
    return builder.write(path)


def read_records(path: str) -> Iterator[dict[str, Any]]:
    """The records of a ``kibitz analyse`` JSON-lines file. Blank lines are skipped, and so
    is a last line cut short (the start of a JSON object without its end and its newline:
    a run still writing, or killed); any other line that is not a JSON object of finite
    numbers and well-formed text, a line longer than ``MAX_RECORD_BYTES``, and a path that
    is not a regular file or a pipe (a device) raise ``RecordError`` naming it."""
    for _, record in _numbered_records(path):
        yield record


class _NotFinite(ValueError):
    pass


def _not_finite(text: str) -> Any:
    raise _NotFinite(text)


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e999 reads as infinity
        raise _NotFinite(text)
    return value


def _numbered_records(path: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, record) for each record of ``path``, as ``read_records`` reads them."""
    with open(path, "rb") as f:
        mode = os.fstat(f.fileno()).st_mode
        if not (stat.S_ISREG(mode) or stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)):
            # A device (/dev/zero, a terminal) is endless or interactive: not a file of records.
            raise RecordError(f"{path} is not a regular file or a pipe")
        number = 0
        while True:
            raw = f.readline(MAX_RECORD_BYTES + 1)
            if not raw:
                return
            number += 1
            if len(raw) > MAX_RECORD_BYTES:
                raise RecordError(
                    f"{path}: line {number} is longer than {MAX_RECORD_BYTES >> 20} MiB, far more than any record"
                )
            if not raw.strip():
                continue
            try:
                record = json.loads(raw, parse_constant=_not_finite, parse_float=_finite_float)
            except _NotFinite as e:
                raise RecordError(f"{path}: line {number} holds the number {e}, which is not finite") from None
            except ValueError as e:
                if not raw.endswith(b"\n") and raw.lstrip().startswith(b"{"):
                    return  # a torn last line
                raise RecordError(f"{path}: line {number} is not JSON ({e})") from None
            if not isinstance(record, dict):
                raise RecordError(f"{path}: line {number} is not a record (a JSON object)")
            if (b"\\ud" in raw or b"\\uD" in raw) and not _encodable(record):
                raise RecordError(f"{path}: line {number} holds a lone surrogate escape (\\ud800-\\udfff), not text")
            yield number, record


def _encodable(record: dict[str, Any]) -> bool:
    """Whether every string of ``record`` is text that UTF-8 can write (no lone surrogate)."""
    try:
        json.dumps(record, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
