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
import os
import tempfile
from typing import Any, Iterable, Iterator, Optional

from kibitz.report.data import Summary, game_data
from kibitz.report.page import render

__all__ = ["ReportBuilder", "build_report", "write_report", "read_records", "RecordError"]

DEFAULT_TITLE = "kibitz analysis report"


class RecordError(ValueError):
    """A JSON-lines file holds something that is not a ``kibitz analyse`` record."""


class ReportBuilder:
    """Takes records one at a time (as ``kibitz analyse`` produces them) and keeps only what
    the page needs: the figures and each game's compact data, not the records."""

    def __init__(self, title: Optional[str] = None) -> None:
        self.title = title or DEFAULT_TITLE
        self.summary = Summary()
        self.games: list[dict[str, Any]] = []

    def add(self, record: dict[str, Any]) -> None:
        data = game_data(record)
        self.summary.add(record, data.get("o"))
        self.games.append(data)

    def html(self) -> str:
        return render(self.summary, self.games, self.title)

    def write(self, path: str) -> int:
        """Writes the page to ``path`` (whole or not at all: a temporary file beside it is
        renamed into place); returns the number of games."""
        _write_atomically(path, self.html())
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


def _write_atomically(path: str, text: str) -> None:
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".report-", suffix=".html.tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        try:
            mode = os.stat(path).st_mode & 0o7777  # a page written again keeps its mode
        except OSError:
            mode = 0o644
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def read_records(path: str) -> Iterator[dict[str, Any]]:
    """The records of a ``kibitz analyse`` JSON-lines file. Blank lines are skipped, and so
    is a last line cut short (a run still writing or killed); any other line that is not a
    JSON object raises ``RecordError`` naming it."""
    with open(path, "rb") as f:
        for number, raw in enumerate(f, 1):
            if not raw.strip():
                continue
            try:
                record = json.loads(raw)
            except ValueError as e:
                if not raw.endswith(b"\n"):
                    return  # a torn last line
                raise RecordError(f"{path}: line {number} is not JSON ({e})") from e
            if not isinstance(record, dict):
                raise RecordError(f"{path}: line {number} is not a record (a JSON object)")
            yield record
