"""Board diagrams as SVG, for Jupyter notebooks and web pages.

``render(fen)`` returns one self-contained ``<svg>`` element (no external fonts, images or
style sheets). ``Board._repr_svg_`` calls it, so a ``kibitz.Board`` shows as a picture in
Jupyter the way a python-chess board does. The piece shapes are this project's own simple
vector drawings (see ``_PIECE_SHAPES``).

Squares are numbered as in python-chess: a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63.
Every drawn element that stands for something on the board carries ``data-square`` (the
square's name) and pieces also ``data-piece`` (the FEN letter), so programs and tests can
read a diagram back.
"""

from __future__ import annotations

import operator
from typing import Tuple
from xml.sax.saxutils import escape

from kibitz._core import Board

__all__ = ["render"]

# The drawing is laid out in "units": one square is 100 units, so the piece shapes below
# are written in a 100 x 100 box; ``size`` only sets the width/height the viewer scales to.
_SQUARE = 100
# Room for the file letters and rank digits around the board when ``coordinates`` is set.
_MARGIN = 30

_LIGHT = "#ecd9b9"
_DARK = "#ae8a68"
# Last move: both squares tinted yellow-green, translucent so light/dark stays visible.
_LASTMOVE = "#c8cf3a"
_LASTMOVE_OPACITY = "0.55"
_BORDER = "#4a3b2d"
_COORD_TEXT = "#ecd9b9"

# Piece colours: white pieces are filled light with a dark outline; black pieces filled dark,
# their inner detail lines drawn light so they stay visible on the dark fill.
_FILL = {True: "#fbfbf8", False: "#2a2725"}
_OUTLINE = "#141210"
_DETAIL = {True: "#141210", False: "#e9e4da"}

_PIECE_NAMES = {"p": "pawn", "n": "knight", "b": "bishop", "r": "rook", "q": "queen", "k": "king"}

# The pieces, drawn for kibitz in a 100 x 100 box (origin top left, y downwards). Each is a
# list of (tag, attributes) with two pseudo colours: "body" (filled with the piece colour,
# dark outline) and "detail" (a line or dot in the contrasting colour).
_Shape = Tuple[str, str, str]  # (element, attributes, "body" | "detail")
_PIECE_SHAPES: dict[str, list[_Shape]] = {
    "p": [
        ("rect", 'x="28" y="78" width="44" height="10" rx="3"', "body"),
        ("path", 'd="M36 78 Q38 60 44 52 L56 52 Q62 60 64 78 Z"', "body"),
        ("ellipse", 'cx="50" cy="52" rx="13" ry="4"', "body"),
        ("circle", 'cx="50" cy="37" r="12"', "body"),
    ],
    "n": [
        ("rect", 'x="26" y="80" width="50" height="9" rx="3"', "body"),
        (
            "path",
            'd="M31 80 C36 70 46 62 50 52 Q46 56 40 56 L30 64 Q24 66 22 60 L24 52 '
            'C28 40 36 26 46 22 L50 22 L56 13 L58 24 C72 36 74 60 70 80 Z"',
            "body",
        ),
        ("circle", 'cx="45" cy="33" r="3"', "detail"),
        ("circle", 'cx="27" cy="58" r="1.8"', "detail"),
        ("path", 'd="M60 30 C66 42 67 60 64 76" fill="none"', "detail"),
    ],
    "b": [
        ("rect", 'x="26" y="80" width="48" height="9" rx="3"', "body"),
        ("path", 'd="M36 80 Q34 68 42 62 L58 62 Q66 68 64 80 Z"', "body"),
        ("ellipse", 'cx="50" cy="62" rx="14" ry="4"', "body"),
        ("path", 'd="M50 19 C36 30 34 45 40 57 L60 57 C66 45 64 30 50 19 Z"', "body"),
        ("circle", 'cx="50" cy="15" r="5"', "body"),
        ("path", 'd="M55 30 L46 43" fill="none"', "detail"),
    ],
    "r": [
        ("rect", 'x="24" y="80" width="52" height="9" rx="2"', "body"),
        ("rect", 'x="29" y="71" width="42" height="9"', "body"),
        ("path", 'd="M34 71 L36 40 L64 40 L66 71 Z"', "body"),
        (
            "path",
            'd="M30 40 L30 21 L38 21 L38 28 L46 28 L46 21 L54 21 L54 28 L62 28 L62 21 L70 21 L70 40 Z"',
            "body",
        ),
        ("path", 'd="M37 48 L63 48" fill="none"', "detail"),
    ],
    "q": [
        ("rect", 'x="24" y="80" width="52" height="9" rx="3"', "body"),
        (
            "path",
            'd="M30 80 L20 36 L35 58 L36 30 L46 56 L50 26 L54 56 L64 30 L65 58 L80 36 L70 80 Z"',
            "body",
        ),
        ("circle", 'cx="20" cy="34" r="4.5"', "body"),
        ("circle", 'cx="36" cy="28" r="4.5"', "body"),
        ("circle", 'cx="50" cy="23" r="4.5"', "body"),
        ("circle", 'cx="64" cy="28" r="4.5"', "body"),
        ("circle", 'cx="80" cy="34" r="4.5"', "body"),
        ("path", 'd="M32 71 L68 71" fill="none"', "detail"),
    ],
    "k": [
        ("rect", 'x="24" y="80" width="52" height="9" rx="3"', "body"),
        (
            "path",
            'd="M30 80 C18 62 22 44 37 46 C42 46 46 50 50 57 C54 50 58 46 63 46 C78 44 82 62 70 80 Z"',
            "body",
        ),
        ("path", 'd="M47 17 h6 v7 h7 v6 h-7 v20 h-6 v-20 h-7 v-6 h7 Z"', "body"),
        ("path", 'd="M32 71 L68 71" fill="none"', "detail"),
    ],
}

_FILES = "abcdefgh"


def _square_index(value: object, what: str) -> int:
    """``value`` as a square number 0..63, or a ValueError naming ``what`` was wrong."""
    try:
        square = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise ValueError(f"{what} must be a square number 0..63 (a1=0, h8=63), not {value!r}") from None
    if isinstance(value, bool) or not 0 <= square < 64:
        raise ValueError(f"{what} must be a square number 0..63 (a1=0, h8=63), not {value!r}")
    return square


def _square_name(square: int) -> str:
    return _FILES[square % 8] + str(square // 8 + 1)


def _piece_svg(letter: str, x: int, y: int, square: int) -> str:
    """One piece, as a ``<g>`` placed at (x, y) and labelled with its letter and square."""
    white = letter.isupper()
    kind = letter.lower()
    body = f'fill="{_FILL[white]}" stroke="{_OUTLINE}"'
    detail = f'stroke="{_DETAIL[white]}"'
    parts = []
    for tag, attrs, role in _PIECE_SHAPES[kind]:
        if role == "body":
            paint = body
        elif 'fill="none"' in attrs:
            paint = detail
        else:  # a detail dot (the knight's eye)
            paint = f'fill="{_DETAIL[white]}" stroke="none"'
        parts.append(f"<{tag} {attrs} {paint}/>")
    colour = "white" if white else "black"
    return (
        f'<g class="piece {colour} {_PIECE_NAMES[kind]}" data-piece="{letter}" '
        f'data-square="{_square_name(square)}" transform="translate({x},{y})" '
        f'stroke-width="3" stroke-linejoin="round" stroke-linecap="round">' + "".join(parts) + "</g>"
    )


def render(
    fen: str,
    *,
    lastmove: tuple[int, int] | None = None,
    check: int | None = None,
    size: int = 400,
    flipped: bool = False,
    coordinates: bool = True,
) -> str:
    """The position ``fen`` as a self-contained SVG picture (one ``<svg>`` element).

    ``lastmove`` is a (from, to) pair of squares to tint, ``check`` the square of a king in
    check (drawn with a red glow); squares are 0..63 with a1 = 0 and h8 = 63, as in
    python-chess. ``size`` is the width and height in pixels, ``flipped`` puts Black at the
    bottom, ``coordinates`` draws the file letters and rank digits around the board.

    A malformed FEN raises ``kibitz.FenError``; a bad square or size raises ``ValueError``.
    """
    normalised = Board(fen).fen()  # validated by the core: a bad FEN raises FenError here
    placement = normalised.split(" ", 1)[0]
    highlights = []
    if lastmove is not None:
        if not isinstance(lastmove, (tuple, list)) or len(lastmove) != 2:
            raise ValueError(f"lastmove must be a (from, to) pair of squares, not {lastmove!r}")
        highlights = [_square_index(lastmove[0], "lastmove[0]"), _square_index(lastmove[1], "lastmove[1]")]
    check_square = None if check is None else _square_index(check, "check")
    try:
        pixels = operator.index(size)
    except TypeError:
        raise ValueError(f"size must be a whole number of pixels, not {size!r}") from None
    if isinstance(size, bool) or pixels <= 0:
        raise ValueError(f"size must be a positive number of pixels, not {size!r}")

    margin = _MARGIN if coordinates else 0
    full = 8 * _SQUARE + 2 * margin

    def corner(square: int) -> tuple[int, int]:
        """Top-left corner of a square, in units, for the chosen orientation."""
        file, rank = square % 8, square // 8
        column = 7 - file if flipped else file
        row = rank if flipped else 7 - rank
        return margin + column * _SQUARE, margin + row * _SQUARE

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" class="kibitz-board" '
        f'width="{pixels}" height="{pixels}" viewBox="0 0 {full} {full}">',
        f"<desc>{escape(normalised)}</desc>",
        # A red glow behind a king in check: strong at the centre, fading out at the edge.
        '<defs><radialGradient id="kibitz-check-gradient">'
        '<stop offset="0%" stop-color="#ff0000" stop-opacity="1"/>'
        '<stop offset="50%" stop-color="#e70000" stop-opacity="1"/>'
        '<stop offset="100%" stop-color="#9e0000" stop-opacity="0"/>'
        "</radialGradient></defs>",
    ]
    if coordinates:
        out.append(f'<rect class="border" x="0" y="0" width="{full}" height="{full}" fill="{_BORDER}"/>')
    for square in range(64):
        x, y = corner(square)
        light = (square % 8 + square // 8) % 2 == 1  # a1 is dark, h1 light
        out.append(
            f'<rect class="square {"light" if light else "dark"}" data-square="{_square_name(square)}" '
            f'x="{x}" y="{y}" width="{_SQUARE}" height="{_SQUARE}" fill="{_LIGHT if light else _DARK}" '
            f'stroke="none"/>'
        )
    for square in highlights:
        x, y = corner(square)
        out.append(
            f'<rect class="lastmove" data-square="{_square_name(square)}" x="{x}" y="{y}" '
            f'width="{_SQUARE}" height="{_SQUARE}" fill="{_LASTMOVE}" fill-opacity="{_LASTMOVE_OPACITY}"/>'
        )
    if check_square is not None:
        x, y = corner(check_square)
        out.append(
            f'<rect class="check" data-square="{_square_name(check_square)}" x="{x}" y="{y}" '
            f'width="{_SQUARE}" height="{_SQUARE}" fill="url(#kibitz-check-gradient)"/>'
        )
    for rank_index, row_text in enumerate(placement.split("/")):
        rank = 7 - rank_index
        file = 0
        for char in row_text:
            if char.isdigit():
                file += int(char)
                continue
            square = rank * 8 + file
            x, y = corner(square)
            out.append(_piece_svg(char, x, y, square))
            file += 1
    if coordinates:
        # Font size and offsets: the labels sit centred in the 30-unit margin.
        style = f'font-family="sans-serif" font-size="22" fill="{_COORD_TEXT}" text-anchor="middle"'
        for file in range(8):
            x = margin + (7 - file if flipped else file) * _SQUARE + _SQUARE // 2
            for y in (margin - 8, full - 8):
                out.append(f'<text class="coord" x="{x}" y="{y}" {style}>{_FILES[file]}</text>')
        for rank in range(8):
            y = margin + (rank if flipped else 7 - rank) * _SQUARE + _SQUARE // 2 + 8
            for x in (margin // 2, full - margin // 2):
                out.append(f'<text class="coord" x="{x}" y="{y}" {style}>{rank + 1}</text>')
    out.append("</svg>")
    return "".join(out)
