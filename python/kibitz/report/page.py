"""The report page: one self-contained HTML file (its style, script, piece drawings and data
inside; nothing fetched), built from a ``Summary`` and the compact game data.

Safety: every string from the games (tags, names, errors) reaches the page either escaped
as HTML text here (``html.escape``) or inside the embedded JSON, where ``<``, ``>`` and ``&``
are written as ``\\u003c`` / ``\\u003e`` / ``\\u0026`` so no ``</script>`` or ``<!--`` can end
or change the data block; the script puts them into the page as text only. The page's
Content-Security-Policy allows only its own script (by hash) and no network at all, so an
injected handler would not run even if escaping failed.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
from importlib import resources
from typing import Any, Optional

from kibitz import svg
from kibitz.report.data import Summary

# The opening tag of a piece's drawing in ``svg.PIECES`` (its id and class, which the page's
# symbols do not carry).
_PIECE_TAG = re.compile(r"^<g [^>]*>")


def _static(name: str) -> str:
    return resources.files("kibitz.report").joinpath("static").joinpath(name).read_text(encoding="utf-8")


def piece_symbols() -> str:
    """The twelve pieces of ``kibitz.svg`` as ``<symbol id="kp-wp">`` .. ``kp-bk``, one
    square (``svg.SQUARE_SIZE`` units) each, taken from ``svg.PIECES``."""
    box = f"0 0 {svg.SQUARE_SIZE} {svg.SQUARE_SIZE}"
    out = []
    for letter in "PNBRQKpnbrqk":
        key = ("w" if letter.isupper() else "b") + letter.lower()
        drawing = _PIECE_TAG.sub("<g>", svg.PIECES[letter], count=1)
        out.append(f'<symbol id="kp-{key}" viewBox="{box}">{drawing}</symbol>')
    return "".join(sorted(out))  # by id: kp-bb, kp-bk, ..., kp-wr


def embed_json(value: Any) -> str:
    """JSON safe inside a ``<script>`` element: ``<``, ``>``, ``&`` and the two line
    separators JavaScript once rejected are written as ``\\uXXXX`` escapes (they occur only
    inside strings, where the escape means the same character)."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    for char, escape in (
        ("<", "\\u003c"),
        (">", "\\u003e"),
        ("&", "\\u0026"),
        ("\u2028", "\\u2028"),
        ("\u2029", "\\u2029"),
    ):
        text = text.replace(char, escape)
    return text


def _e(value: Any) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def _num(value: Optional[float], digits: int) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def score_text(points: float, decided: int) -> str:
    """``2.5 / 3``: points out of the games with a result."""
    whole = f"{points:g}"
    return f"{whole} / {decided}"


def _players_table(summary: Summary) -> str:
    rows = []
    labels = {"all": "all", "white": "as White", "black": "as Black"}
    for name, figures in summary.player_rows():
        for colour in ("all", "white", "black"):
            f = figures[colour]
            if colour != "all" and not f["games"]:
                continue
            cls = "player-all" if colour == "all" else "player-colour"
            who = _e(name) if colour == "all" else ""
            rows.append(
                f'<tr class="{cls}" data-player="{_e(name)}" data-colour="{colour}">'
                f'<td class="player">{who}</td><td>{labels[colour]}</td>'
                f'<td class="num" data-k="games">{f["games"]}</td>'
                f'<td class="num" data-k="score">{score_text(f["points"], f["decided"])}</td>'
                f'<td class="num" data-k="accuracy">{_num(f["accuracy"], 1)}</td>'
                f'<td class="num" data-k="acpl">{_num(f["acpl"], 1)}</td>'
                f'<td class="num" data-k="blunders">{_num(f["blunders"], 2)}</td>'
                f'<td class="num" data-k="mistakes">{_num(f["mistakes"], 2)}</td>'
                f'<td class="num" data-k="inaccuracies">{_num(f["inaccuracies"], 2)}</td></tr>'
            )
    return (
        '<table id="players"><thead><tr><th>Player</th><th>Games as</th><th class="num">Games</th>'
        '<th class="num">Score</th><th class="num">Accuracy</th><th class="num">ACPL</th>'
        '<th class="num">Blunders / game</th><th class="num">Mistakes / game</th>'
        '<th class="num">Inaccuracies / game</th></tr></thead><tbody>' + "".join(rows) + "</tbody></table>"
    )


def _results(summary: Summary) -> str:
    counts = summary.results
    total = sum(counts.values()) or 1
    parts = [("1-0", "White wins", "bar-white"), ("1/2-1/2", "Draws", "bar-draw"), ("0-1", "Black wins", "bar-black")]
    known = {k for k, _, _ in parts}
    bars = []
    items = []
    for key, label, cls in parts:
        n = counts.get(key, 0)
        bars.append(f'<span class="{cls}" style="width:{100 * n / total:.2f}%" title="{label}: {n}"></span>')
        items.append(f'<li data-result="{_e(key)}">{label}: <b>{n}</b></li>')
    others = sorted((k, n) for k, n in counts.items() if k not in known)
    for key, n in others:
        bars.append(f'<span class="bar-other" style="width:{100 * n / total:.2f}%" title="{_e(key)}: {n}"></span>')
        label = "Unfinished" if key == "*" else key.capitalize() if key == "not analysed" else key
        items.append(f'<li data-result="{_e(key)}">{_e(label)}: <b>{n}</b></li>')
    return (
        f'<div class="bars" role="img" aria-label="results">{"".join(bars)}</div><ul id="results">{"".join(items)}</ul>'
    )


def _openings_table(summary: Summary) -> str:
    rows = []
    ordered = sorted(summary.openings.items(), key=lambda kv: (-kv[1][0], kv[0][0], kv[0][1]))
    for (eco, name), (games, white_points, decided) in ordered:
        share = f"{100 * white_points / decided:.0f}%" if decided else "–"
        rows.append(
            f'<tr><td>{_e(eco)}</td><td>{_e(name)}</td><td class="num">{int(games)}</td>'
            f'<td class="num">{share}</td></tr>'
        )
    if not rows:
        return '<p class="muted">No game reached a named opening position.</p>'
    return (
        '<table id="openings"><thead><tr><th>ECO</th><th>Opening</th><th class="num">Games</th>'
        '<th class="num">White\'s score</th></tr></thead><tbody>' + "".join(rows) + "</tbody></table>"
    )


def render(summary: Summary, games: list[dict[str, Any]], title: str) -> str:
    """The whole page."""
    script = _static("report.js")
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    csp = f"default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'sha256-{digest}'"
    players = len(summary.players)
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{csp}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_e(title)}</title><style>{_static('report.css')}</style></head>\n<body>"
        f"<h1>{_e(title)}</h1>"
        f'<p class="muted">{summary.games} games ({summary.analysed} analysed), {players} players. '
        "Figures by kibitz analyse: accuracy and judgements as lichess computes them. Click a game in the "
        "table to open it: the arrow keys then step through its moves. In a game, click the graph (hover "
        "over it for each move's evaluation), a move or a mistake.</p>"
        f"<h2>Results</h2>{_results(summary)}"
        f"<h2>Players</h2>{_players_table(summary)}"
        f"<h2>Openings</h2>{_openings_table(summary)}"
        '<h2>Games</h2><div class="controls"><label>Order: <select id="sort">'
        '<option value="number">game order</option>'
        '<option value="accuracy-asc">accuracy, lowest first</option>'
        '<option value="accuracy-desc">accuracy, highest first</option>'
        '<option value="blunder">largest blunder first</option></select></label></div>'
        '<table id="game-table"><thead><tr><th class="num">#</th><th>White</th><th>Black</th><th>Result</th>'
        '<th>Opening</th><th class="num">Accuracy W / B</th><th class="num">Mean</th>'
        '<th class="num">Largest loss</th></tr></thead><tbody id="game-rows"></tbody></table>'
        '<button id="more-games" type="button" hidden></button>'
        '<div id="games"></div>'
        f'<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0" style="position:absolute" aria-hidden="true">'
        f"<defs>{piece_symbols()}</defs></svg>\n"
        f'<script type="application/json" id="kibitz-data">{embed_json({"games": games})}</script>\n'
        f"<script>{script}</script>\n</body></html>\n"
    )
