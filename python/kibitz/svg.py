"""Board diagrams as SVG: python-chess's ``chess.svg`` API, drawn with kibitz's own pieces.

``board(...)``, ``piece(...)``, ``Arrow``, ``SvgWrapper`` and the constants (``SQUARE_SIZE``,
``MARGIN``, ``PIECES``, ``COORDS``, ``XX``, ``CHECK_GRADIENT``, ``DEFAULT_COLORS``) take the
same arguments and mean the same as python-chess 1.11's, so code written for ``chess.svg``
works unchanged with ``import kibitz.svg as svg`` (or ``chess.svg`` after
``import kibitz as chess; import kibitz.svg``). A diagram has python-chess's layout element
for element: the same ``viewBox``, the same squares with the same classes (``square light
lastmove e4``) and colours, pieces as ``<use href="#white-knight" transform="translate(x,
y)">`` of a ``<defs>`` entry, the same arrows, circles, X marks, check gradient, borders and
coordinate positions. What differs is only the ink:

* the pieces are this project's own simple vector drawings (``_PIECE_SHAPES``, drawn in a
  100 x 100 box and scaled to the 45-unit square);
* the coordinates are ``<text>`` in the viewer's sans-serif font (python-chess draws each
  letter as a path), placed in the same boxes;
* the X of ``squares`` is a shape of our own.

Boards may be kibitz's or python-chess's (anything with ``piece_at``), moves, pieces and
square sets either kind, squares plain ints (a1 = 0, b1 = 1, ..., h8 = 63).

``render(fen, ...)`` is the older entry point, kept for its callers: it checks its arguments
and draws ``board(Board(fen), ...)``.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Optional, Protocol, Tuple, Union

from kibitz._bitboards import IntoSquareSet
from kibitz._constants import FILE_NAMES, RANK_NAMES, SQUARE_NAMES, WHITE, Color, Square
from kibitz._core import Board, Move, SquareSet

if TYPE_CHECKING:
    from xml.etree.ElementTree import Element

__all__ = [
    "SQUARE_SIZE",
    "MARGIN",
    "PIECES",
    "COORDS",
    "XX",
    "CHECK_GRADIENT",
    "DEFAULT_COLORS",
    "Arrow",
    "SvgWrapper",
    "piece",
    "board",
    "render",
    # The type names chess.svg shows too (python-chess imports them there).
    "Color",
    "IntoSquareSet",
    "Square",
]

# One square is 45 units of the viewBox, python-chess's unit: its diagrams are 8 * 45 = 360
# units of board plus margins, and code that places things on a diagram counts in it.
SQUARE_SIZE = 45
# The height of the box a coordinate label is designed in (python-chess's value); the
# margin actually drawn is ``_COORD_MARGIN``, and labels are scaled by the ratio.
MARGIN = 20
# The coordinate margin drawn around the board when ``coordinates`` is on (python-chess's).
_COORD_MARGIN = 15
# Width of each border line when ``borders`` is on: one unit, as python-chess draws it.
_BORDER = 1

# Arrow geometry, as fractions of a square (python-chess's proportions, so arrows drawn over
# a diagram line up with the same arrows drawn by python-chess): the shaft's width, the
# head's length (also its width), the gap left between the tip and the head square's
# centre, and a circle's diameter and line width for an arrow from a square to itself.
_SHAFT_WIDTH = 0.2
_HEAD_SIZE = 0.75
_HEAD_GAP = 0.1
_CIRCLE_DIAMETER = 0.9
_CIRCLE_WIDTH = 0.1

# python-chess's default palette, key for key: a diagram drawn with the defaults has the
# colours a python-chess user expects. "#rrggbbaa" values carry their opacity.
DEFAULT_COLORS: dict[str, str] = {
    "square light": "#ffce9e",
    "square dark": "#d18b47",
    "square dark lastmove": "#aaa23b",
    "square light lastmove": "#cdd16a",
    "margin": "#212121",
    "inner border": "#111",
    "outer border": "#111",
    "coord": "#e5e5e5",
    "arrow green": "#15781B80",
    "arrow red": "#88202080",
    "arrow yellow": "#e68f00b3",
    "arrow blue": "#00308880",
}

# ---- The pieces ----

# Piece colours: white pieces filled light with a dark outline, black pieces filled dark
# with their inner detail lines light so they stay visible on the dark fill.
_FILL = {True: "#fbfbf8", False: "#2a2725"}
_OUTLINE = "#141210"
_DETAIL = {True: "#141210", False: "#e9e4da"}
# The shapes below are drawn in a 100 x 100 box with 3-unit lines; scale(0.45) fits them
# to a 45-unit square (lines then 1.35 units wide).
_SHAPE_BOX = 100
_SHAPE_STROKE = 3

_PIECE_NAMES = {"p": "pawn", "n": "knight", "b": "bishop", "r": "rook", "q": "queen", "k": "king"}

# The pieces, drawn for kibitz in a 100 x 100 box (origin top left, y downwards). Each is a
# list of (element, attributes, role): "body" is filled with the piece colour and outlined,
# "detail" is a line (fill="none") or a dot in the contrasting colour.
_Shape = Tuple[str, str, str]
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


def _piece_group(letter: str) -> str:
    """The ``<g id="white-knight" class="white knight">`` drawing of the piece ``letter``."""
    white = letter.isupper()
    kind = letter.lower()
    colour = "white" if white else "black"
    name = _PIECE_NAMES[kind]
    parts = []
    for tag, attrs, role in _PIECE_SHAPES[kind]:
        if role == "body":
            paint = f'fill="{_FILL[white]}" stroke="{_OUTLINE}"'
        elif 'fill="none"' in attrs:
            paint = f'stroke="{_DETAIL[white]}"'
        else:  # a detail dot (the knight's eye)
            paint = f'fill="{_DETAIL[white]}" stroke="none"'
        parts.append(f"<{tag} {attrs} {paint}/>")
    scale = SQUARE_SIZE / _SHAPE_BOX
    return (
        f'<g id="{colour}-{name}" class="{colour} {name}">'
        f'<g transform="scale({scale:g})" stroke-width="{_SHAPE_STROKE}" stroke-linejoin="round" '
        f'stroke-linecap="round">' + "".join(parts) + "</g></g>"
    )


# Each piece's ``<g>``, by FEN letter, with the id python-chess gives it ("white-pawn", ...):
# a diagram's ``<defs>`` holds those on its board and its ``<use>`` elements refer to them.
PIECES: dict[str, str] = {letter: _piece_group(letter) for letter in "PNBRQKpnbrqk"}

# Coordinate labels, each drawn in python-chess's label box: a file letter in a box one
# square wide and ``MARGIN`` high, a rank digit in one ``MARGIN`` wide and a square high;
# ``board`` scales the box to the margin. The font size and baselines put the text where
# python-chess's letter outlines sit in the same boxes.
COORDS: dict[str, str] = {
    **{
        name: f'<text x="22.5" y="14.5" font-family="sans-serif" font-size="16" text-anchor="middle" '
        f'stroke="none">{name}</text>'
        for name in FILE_NAMES
    },
    **{
        name: f'<text x="10" y="28.3" font-family="sans-serif" font-size="16" text-anchor="middle" '
        f'stroke="none">{name}</text>'
        for name in RANK_NAMES
    },
}

# The X that ``squares`` draws on a square: two crossed bars, 3.8 units wide, reaching to
# 10 units from the square's edges; filled black unless a style sheet says otherwise.
XX = (
    '<g id="xx"><path d="M12.7 10 22.5 19.8 32.3 10 35 12.7 25.2 22.5 35 32.3 32.3 35 22.5 25.2 '
    '12.7 35 10 32.3 19.8 22.5 10 12.7Z"/></g>'
)

# The red glow behind a king in check: strong at the centre, fading out at the edge.
CHECK_GRADIENT = (
    '<radialGradient id="check_gradient" r="0.5">'
    '<stop offset="0%" stop-color="#ff0000" stop-opacity="1.0"/>'
    '<stop offset="50%" stop-color="#e70000" stop-opacity="1.0"/>'
    '<stop offset="100%" stop-color="#9e0000" stop-opacity="0.0"/>'
    "</radialGradient>"
)

# ---- Arrows ----

# The colour letters of ``[%cal]``/``[%csl]`` PGN annotations.
_ARROW_LETTERS = {"red": "R", "yellow": "Y", "blue": "B"}
_LETTER_COLOURS = {"G": "green", "R": "red", "Y": "yellow", "B": "blue"}


def _parse_square(name: str) -> Square:
    try:
        return SQUARE_NAMES.index(name)
    except ValueError:
        raise ValueError(f"invalid square name: {name!r}") from None


class Arrow:
    """An arrow from ``tail`` to ``head`` (a circle when they are the same square), as
    ``board(arrows=...)`` draws it and ``[%cal]``/``[%csl]`` PGN annotations write it.
    As python-chess's, a plain object: arrows are compared (and hashed) by identity, so
    compare their fields, or their ``pgn()`` text, to compare what they draw."""

    tail: Square
    """The square the arrow starts on."""

    head: Square
    """The square the arrow points to."""

    color: str
    """"green", "red", "yellow", "blue" (the annotation colours) or any SVG colour."""

    def __init__(self, tail: Square, head: Square, *, color: str = "green") -> None:
        self.tail = tail
        self.head = head
        self.color = color

    def pgn(self) -> str:
        """``Ga1`` or ``Ya2h2``: the annotation form; colours other than red, yellow and blue
        are written as green."""
        letter = _ARROW_LETTERS.get(self.color, "G")
        if self.tail == self.head:
            return letter + SQUARE_NAMES[self.tail]
        return letter + SQUARE_NAMES[self.tail] + SQUARE_NAMES[self.head]

    @classmethod
    def from_pgn(cls, pgn: str) -> Arrow:
        """The arrow of an annotation such as ``Ga1`` or ``Ya2h2``; without a colour letter,
        green. Raises ``ValueError`` for anything else."""
        color = _LETTER_COLOURS.get(pgn[:1])
        if color is None:
            color = "green"
        else:
            pgn = pgn[1:]
        tail = _parse_square(pgn[:2])
        head = _parse_square(pgn[2:]) if len(pgn) > 2 else tail
        return cls(tail, head, color=color)

    def __str__(self) -> str:
        return self.pgn()

    def __repr__(self) -> str:
        return f"Arrow({SQUARE_NAMES[self.tail].upper()}, {SQUARE_NAMES[self.head].upper()}, color={self.color!r})"


class SvgWrapper(str):
    """An SVG picture as a ``str`` that Jupyter shows as a picture."""

    def _repr_svg_(self) -> SvgWrapper:
        return self

    def _repr_html_(self) -> SvgWrapper:
        return self


# ---- Drawing ----


class _PieceLike(Protocol):
    def symbol(self) -> str: ...


class _BoardLike(Protocol):
    def piece_at(self, square: Square) -> Optional[_PieceLike]: ...


class _MoveLike(Protocol):
    @property
    def from_square(self) -> Square: ...

    @property
    def to_square(self) -> Square: ...


class _ArrowFields(Protocol):
    """An arrow of either library: kibitz's or python-chess's ``Arrow``."""

    @property
    def tail(self) -> Square: ...

    @property
    def head(self) -> Square: ...

    @property
    def color(self) -> str: ...


_ArrowLike = Union[_ArrowFields, Tuple[Square, Square]]

_SVG_NS = "http://www.w3.org/2000/svg"
_XLINK_NS = "http://www.w3.org/1999/xlink"


def _color(value: str) -> tuple[str, float]:
    """``#rgba`` / ``#rrggbbaa`` split into the colour and its opacity; others opaque."""
    if value.startswith("#") and len(value) in (5, 9):
        digits = 1 if len(value) == 5 else 2
        try:
            alpha = int(value[-digits:], 16)
        except ValueError:  # not hexadecimal: left to the viewer, as written
            return value, 1.0
        return value[:-digits], alpha / (16**digits - 1)
    return value, 1.0


def _palette(colors: Mapping[str, str], key: str) -> tuple[str, float]:
    """The colour and opacity for a key of ``DEFAULT_COLORS``, from ``colors`` if it has it."""
    default = DEFAULT_COLORS[key]  # KeyError for a key without a default, as in python-chess
    return _color(colors.get(key, default))


def _opacity(opacity: float) -> Optional[float]:
    """The ``opacity`` attribute's value: left out for an opaque colour."""
    return opacity if opacity < 1.0 else None


def _add(parent: Optional[Element], tag: str, attrs: dict[str, object]) -> Element:
    """A new element (under ``parent``, if any) with those of ``attrs`` that are not None."""
    from xml.etree.ElementTree import Element, SubElement

    clean = {name: str(value) for name, value in attrs.items() if value is not None}
    return Element(tag, clean) if parent is None else SubElement(parent, tag, clean)


def _svg_root(units: int, size: Optional[int]) -> Element:
    """The ``<svg>`` element: ``units`` square in its own coordinates, ``size`` pixels."""
    viewbox = f"0 0 {units:d} {units:d}"
    return _add(
        None, "svg", {"xmlns": _SVG_NS, "xmlns:xlink": _XLINK_NS, "viewBox": viewbox, "width": size, "height": size}
    )


def _text(root: Element) -> SvgWrapper:
    from xml.etree.ElementTree import tostring

    return SvgWrapper(tostring(root).decode("utf-8"))


def piece(piece: _PieceLike, size: Optional[int] = None) -> SvgWrapper:
    """The piece ``piece`` (a kibitz or python-chess ``Piece``) alone, as an SVG picture
    ``size`` pixels wide and high (``None``: no size, the viewer decides)."""
    from xml.etree.ElementTree import fromstring

    root = _svg_root(SQUARE_SIZE, size)
    root.append(fromstring(PIECES[piece.symbol()]))
    return _text(root)


def board(
    board: Optional[_BoardLike] = None,
    *,
    orientation: Color = WHITE,
    lastmove: Optional[_MoveLike] = None,
    check: Optional[Square] = None,
    arrows: Iterable[_ArrowLike] = (),
    fill: Mapping[Square, str] = {},
    squares: Optional[IntoSquareSet] = None,
    size: Optional[int] = None,
    coordinates: bool = True,
    colors: Mapping[str, str] = {},
    flipped: bool = False,
    borders: bool = False,
    style: Optional[str] = None,
) -> SvgWrapper:
    """A chessboard as an SVG picture, with python-chess's ``chess.svg.board`` arguments.

    * ``board``: the position (anything with ``piece_at``: a kibitz or python-chess
      ``Board``/``BaseBoard``), or None for an empty board.
    * ``orientation``: the side at the bottom (``WHITE`` by default); ``flipped=True`` turns
      it round (python-chess's older spelling).
    * ``lastmove``: a move whose two squares are tinted (``square ... lastmove`` colours).
    * ``check``: a square to mark with a red glow (the king in check).
    * ``arrows``: ``Arrow`` objects or ``(tail, head)`` pairs (green); an arrow from a square
      to itself is a circle. The colours green, red, yellow and blue are taken from
      ``colors["arrow green"]`` etc. (or the defaults); any other colour is used as written.
    * ``fill``: square -> colour, painted over the square.
    * ``squares``: squares to mark with an X (a ``SquareSet``, a mask or an iterable).
    * ``size``: width and height in pixels, or None for none (the viewer scales it).
    * ``coordinates``: file letters and rank digits in a margin round the board.
    * ``colors``: overrides of ``DEFAULT_COLORS`` (``"#rrggbb"``, or ``"#rrggbbaa"`` with
      opacity).
    * ``borders``: a one-unit line round the board and, with coordinates, round the margin.
    * ``style``: a CSS style sheet put into the picture (``<style>``).
    """
    from xml.etree.ElementTree import fromstring

    white_at_bottom = bool(orientation) ^ bool(flipped)
    outer = _BORDER if borders else 0
    inner = _BORDER if borders and coordinates else 0
    margin = _COORD_MARGIN if coordinates else 0
    offset = outer + margin + inner  # from the picture's edge to the board's
    full = 2 * offset + 8 * SQUARE_SIZE

    def column(square: Square) -> int:
        return square % 8 if white_at_bottom else 7 - square % 8

    def row(square: Square) -> int:
        return 7 - square // 8 if white_at_bottom else square // 8

    def corner(square: Square) -> tuple[int, int]:
        """The top-left corner of a square on the picture."""
        return offset + column(square) * SQUARE_SIZE, offset + row(square) * SQUARE_SIZE

    def centre(square: Square) -> tuple[float, float]:
        return offset + (column(square) + 0.5) * SQUARE_SIZE, offset + (row(square) + 0.5) * SQUARE_SIZE

    root = _svg_root(full, size)
    if style:
        _add(root, "style", {}).text = style
    if board is not None:
        _add(_add(root, "desc", {}), "pre", {}).text = str(board)

    pieces: dict[Square, str] = {}
    if board is not None:
        for square in range(64):
            found = board.piece_at(square)
            if found:
                pieces[square] = found.symbol()
    marked = SquareSet(squares) if squares else SquareSet()
    defs = _add(root, "defs", {})
    for letter in "PNBRQKpnbrqk":
        if letter in pieces.values():
            defs.append(fromstring(PIECES[letter]))
    if marked:
        defs.append(fromstring(XX))
    if check is not None:
        defs.append(fromstring(CHECK_GRADIENT))

    # Frames, outside in: the outer border, the coordinate margin (a rectangle's thick
    # outline), the inner border; each as (colour key, distance in from the edge, width). A
    # line is centred on its path, so the path runs half a width further in.
    rings: list[tuple[str, int, int]] = []
    if outer:
        rings.append(("outer border", 0, outer))
    if margin:
        rings.append(("margin", outer, margin))
    if inner:
        rings.append(("inner border", outer + margin, inner))
    for key, start, width in rings:
        colour, opacity = _palette(colors, key)
        _add(
            root,
            "rect",
            {
                "x": start + width / 2,
                "y": start + width / 2,
                "width": full - 2 * start - width,
                "height": full - 2 * start - width,
                "fill": "none",
                "stroke": colour,
                "stroke-width": width,
                "opacity": _opacity(opacity),
            },
        )

    if coordinates:
        colour, opacity = _palette(colors, "coord")
        scale = margin / MARGIN
        pad = int(SQUARE_SIZE - scale * SQUARE_SIZE) // 2  # centres the scaled box on its square
        far = full - outer - margin  # where the bottom and right margins begin
        # File letters above and below (the top ones 1 unit down, clear of the picture's
        # edge), rank digits left and right.
        places: list[tuple[str, int, int]] = []
        for file, name in enumerate(FILE_NAMES):
            x = offset + column(file) * SQUARE_SIZE + pad
            places += [(name, x, 1), (name, x, far)]
        for rank, name in enumerate(RANK_NAMES):
            y = offset + row(8 * rank) * SQUARE_SIZE + pad
            places += [(name, 0, y), (name, far, y)]
        for name, x, y in places:
            label = _add(
                root,
                "g",
                {
                    "transform": f"translate({x}, {y}) scale({scale}, {scale})",
                    "fill": colour,
                    "stroke": colour,
                    "opacity": _opacity(opacity),
                },
            )
            label.append(fromstring(COORDS[name]))

    tinted = (lastmove.from_square, lastmove.to_square) if lastmove else ()
    for square in range(64):
        x, y = corner(square)
        light = (square % 8 + square // 8) % 2 == 1  # a1 is dark, h1 light
        kind = ["square", "light" if light else "dark"] + (["lastmove"] if square in tinted else [])
        colour, opacity = _palette(colors, " ".join(kind))
        _add(
            root,
            "rect",
            {
                "x": x,
                "y": y,
                "width": SQUARE_SIZE,
                "height": SQUARE_SIZE,
                "class": " ".join(kind + [SQUARE_NAMES[square]]),
                "stroke": "none",
                "fill": colour,
                "opacity": _opacity(opacity),
            },
        )
        try:
            paint = fill[square]
        except KeyError:
            continue
        colour, opacity = _color(paint)
        _add(
            root,
            "rect",
            {
                "x": x,
                "y": y,
                "width": SQUARE_SIZE,
                "height": SQUARE_SIZE,
                "stroke": "none",
                "fill": colour,
                "opacity": _opacity(opacity),
            },
        )

    if check is not None:
        x, y = corner(check)
        _add(
            root,
            "rect",
            {
                "x": x,
                "y": y,
                "width": SQUARE_SIZE,
                "height": SQUARE_SIZE,
                "class": "check",
                "fill": "url(#check_gradient)",
            },
        )

    # Pieces and X marks, square by square, so that an X lies over its square's piece.
    for square in range(64):
        x, y = corner(square)
        symbol = pieces.get(square)
        if symbol is not None:
            href = f"#{'white' if symbol.isupper() else 'black'}-{_PIECE_NAMES[symbol.lower()]}"
            _add(root, "use", {"href": href, "xlink:href": href, "transform": f"translate({x:d}, {y:d})"})
        if square in marked:
            _add(root, "use", {"href": "#xx", "xlink:href": "#xx", "x": x, "y": y})

    for arrow in arrows:
        item: Any = arrow
        try:
            tail, head, color = item.tail, item.head, item.color
        except AttributeError:  # a (tail, head) pair
            tail, head = item
            color = "green"
        opacity = 1.0
        if "arrow " + color in DEFAULT_COLORS:  # the four annotation colours; others as written
            color, opacity = _palette(colors, "arrow " + color)
        xtail, ytail = centre(tail)
        xhead, yhead = centre(head)
        if (xtail, ytail) == (xhead, yhead):
            _add(
                root,
                "circle",
                {
                    "cx": xhead,
                    "cy": yhead,
                    "r": SQUARE_SIZE * _CIRCLE_DIAMETER / 2,
                    "stroke-width": SQUARE_SIZE * _CIRCLE_WIDTH,
                    "stroke": color,
                    "opacity": _opacity(opacity),
                    "fill": "none",
                    "class": "circle",
                },
            )
            continue
        head_size = _HEAD_SIZE * SQUARE_SIZE
        gap = _HEAD_GAP * SQUARE_SIZE
        dx, dy = xhead - xtail, yhead - ytail
        length = math.hypot(dx, dy)
        # The shaft ends where the head begins; the tip stops short of the centre by the gap.
        shaft_x = xhead - dx * (head_size + gap) / length
        shaft_y = yhead - dy * (head_size + gap) / length
        tip_x = xhead - dx * gap / length
        tip_y = yhead - dy * gap / length
        _add(
            root,
            "line",
            {
                "x1": xtail,
                "y1": ytail,
                "x2": shaft_x,
                "y2": shaft_y,
                "stroke": color,
                "opacity": _opacity(opacity),
                "stroke-width": SQUARE_SIZE * _SHAFT_WIDTH,
                "stroke-linecap": "butt",
                "class": "arrow",
            },
        )
        # The head's back corners, half its size either side of the shaft's end.
        side_x, side_y = dy * 0.5 * head_size / length, dx * 0.5 * head_size / length
        points = [(tip_x, tip_y), (shaft_x + side_x, shaft_y - side_y), (shaft_x - side_x, shaft_y + side_y)]
        _add(
            root,
            "polygon",
            {
                "points": " ".join(f"{px},{py}" for px, py in points),
                "fill": color,
                "opacity": _opacity(opacity),
                "class": "arrow",
            },
        )

    return _text(root)


# ---- The older entry point ----


def _square_index(value: object, what: str) -> int:
    """``value`` as a square number 0..63, or a ValueError naming ``what`` was wrong."""
    try:
        square = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise ValueError(f"{what} must be a square number 0..63 (a1=0, h8=63), not {value!r}") from None
    if isinstance(value, bool) or not 0 <= square < 64:
        raise ValueError(f"{what} must be a square number 0..63 (a1=0, h8=63), not {value!r}")
    return square


def render(
    fen: str,
    *,
    lastmove: tuple[int, int] | None = None,
    check: int | None = None,
    size: int = 400,
    flipped: bool = False,
    coordinates: bool = True,
) -> str:
    """The position ``fen`` as an SVG picture: ``board(Board(fen), ...)`` with its arguments
    checked first.

    ``lastmove`` is a (from, to) pair of squares to tint, ``check`` the square of a king in
    check (drawn with a red glow); squares are 0..63 with a1 = 0 and h8 = 63, as in
    python-chess. ``size`` is the width and height in pixels (400, as python-chess draws a
    ``BaseBoard``), ``flipped`` puts Black at the bottom, ``coordinates`` draws the file
    letters and rank digits around the board.

    A malformed FEN raises ``kibitz.FenError``; a bad square or size raises ``ValueError``.
    """
    position = Board(fen)  # validated by the core: a bad FEN raises FenError here
    move = None
    if lastmove is not None:
        if not isinstance(lastmove, (tuple, list)) or len(lastmove) != 2:
            raise ValueError(f"lastmove must be a (from, to) pair of squares, not {lastmove!r}")
        move = Move(_square_index(lastmove[0], "lastmove[0]"), _square_index(lastmove[1], "lastmove[1]"))
    check_square = None if check is None else _square_index(check, "check")
    try:
        pixels = operator.index(size)
    except TypeError:
        raise ValueError(f"size must be a whole number of pixels, not {size!r}") from None
    if isinstance(size, bool) or pixels <= 0:
        raise ValueError(f"size must be a positive number of pixels, not {size!r}")
    return board(position, lastmove=move, check=check_square, size=pixels, flipped=flipped, coordinates=coordinates)
