"""``kibitz.svg`` against python-chess's ``chess.svg``, diagram by diagram, read back as XML.

Both pictures are parsed with xml.etree and reduced to what they mean (``structure``): the
``viewBox`` and size, each element outside ``<defs>`` in document order with its numbers
read as numbers (squares with their classes and fills, fill and check rectangles, frames,
pieces as ``<use>`` of a piece id at a place, X marks, arrows and circles, coordinate
labels by the character they show), the ``<defs>`` entries by id and class, and the
``<desc>`` and ``<style>`` text. Only the ink differs (kibitz draws its own pieces, X and
letters), so everything else must be equal, for random positions and random combinations
of every option, with kibitz's or python-chess's boards, moves, square sets and arrows.

Readers that do not lean on python-chess (``pieces_drawn``, ``arrows_drawn``,
``labels_drawn``) check the pictures against the position itself; python-chess's own SVG
tests (its ``SvgTestCase``) run here with kibitz in place of chess.
"""

from __future__ import annotations

import inspect
import re
import xml.etree.ElementTree as ET
from typing import Any, Callable

import chess
import chess.svg
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kibitz
import kibitz.pgn
import kibitz.svg as ksvg

SVG = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}"

FENS = [
    chess.STARTING_FEN,
    # Kiwipete: every piece kind, castling rights, pieces on both wings.
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    # Scholar's mate: Black's king in check.
    "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4",
    # Pieces in the corners and on the edges.
    "7k/P7/8/8/8/8/7p/K7 w - - 0 1",
    "8/8/8/4k3/8/8/8/4K3 w - - 0 1",
]

# Attributes whose value is made of numbers (read as numbers, so "393" equals "393.0").
NUMERIC = {"x", "y", "width", "height", "cx", "cy", "r", "x1", "y1", "x2", "y2", "stroke-width", "opacity"}
NUMBERS_IN = {"points", "transform", "viewBox"}
NUMBER = re.compile(r"-?\d+(?:\.\d*)?(?:[eE]-?\d+)?")


def _number(text: str) -> float:
    return round(float(text), 6) + 0.0  # + 0.0: -0.0 reads as 0.0


def _value(name: str, value: str) -> object:
    if name in NUMERIC:
        return _number(value)
    if name in NUMBERS_IN:  # "translate(5, 1) scale(0.75, 0.75)" -> words and numbers apart
        return (NUMBER.sub("#", value).replace(" ", ""), [_number(n) for n in NUMBER.findall(value)])
    return value


# python-chess's coordinate glyphs, by their outline, so its labels read as characters.
CHESS_GLYPHS = {ET.fromstring(path).get("d"): name for name, path in chess.svg.COORDS.items()}


def label_of(group: ET.Element) -> str | None:
    """The character a coordinate label shows: kibitz's ``<text>``, python-chess's path."""
    children = list(group)
    if len(children) != 1:
        return None
    child = children[0]
    if child.tag == SVG + "text":
        return child.text
    if child.tag == SVG + "path":
        return CHESS_GLYPHS.get(child.get("d"))
    return None


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg", root.tag
    return root


def structure(svg: str) -> dict[str, Any]:
    """What a diagram means, ink left out: see the module's opening lines."""
    root = parse(svg)
    out: dict[str, Any] = {
        "root": {k: _value(k, v) for k, v in root.attrib.items()},
        "defs": [],
        "desc": None,
        "style": None,
        "elements": [],
    }
    for child in root:
        tag = child.tag.replace(SVG, "")
        if tag == "defs":
            out["defs"] = [(entry.get("id"), entry.get("class")) for entry in child]
        elif tag == "desc":
            pre = child.find(SVG + "pre")
            out["desc"] = None if pre is None else pre.text
        elif tag == "style":
            out["style"] = child.text
        else:
            attrs = {k: _value(k, v) for k, v in child.attrib.items()}
            label = label_of(child) if tag == "g" else None
            if tag != "g":
                assert not list(child), f"<{tag}> has children"
            out["elements"].append((tag, attrs, label))
    return out


def assert_same_meaning(ours: str, theirs: str) -> None:
    mine, want = structure(ours), structure(theirs)
    for key in ("root", "defs", "desc", "style"):
        assert mine[key] == want[key], key
    assert len(mine["elements"]) == len(want["elements"])
    for index, (got, expected) in enumerate(zip(mine["elements"], want["elements"])):
        assert got == expected, f"element {index}"


# ---- Readers that know nothing of python-chess's drawing ----


def squares_drawn(root: ET.Element) -> dict[tuple[float, float], str]:
    """Top-left corner -> square name, from the square rectangles' classes."""
    out = {}
    for rect in root.iter(SVG + "rect"):
        classes = rect.get("class", "").split()
        if classes[:1] == ["square"]:
            out[(float(rect.get("x", "nan")), float(rect.get("y", "nan")))] = classes[-1]
    assert sorted(out.values()) == sorted(chess.SQUARE_NAMES)
    return out


def square_at(root: ET.Element, x: float, y: float) -> str:
    """The square whose rectangle holds the point (x, y)."""
    for (left, top), name in squares_drawn(root).items():
        if left <= x < left + ksvg.SQUARE_SIZE and top <= y < top + ksvg.SQUARE_SIZE:
            return name
    raise AssertionError(f"({x}, {y}) is on no square")


def translate(element: ET.Element) -> tuple[float, float]:
    numbers = [float(n) for n in NUMBER.findall(element.get("transform", ""))]
    assert element.get("transform", "").startswith("translate(") and len(numbers) == 2, element.attrib
    return numbers[0], numbers[1]


def href(element: ET.Element) -> str:
    plain, xlink = element.get("href"), element.get(XLINK + "href")
    assert plain == xlink, element.attrib
    return plain or ""


def pieces_drawn(root: ET.Element) -> dict[str, str]:
    """Square name -> FEN letter of the piece drawn there."""
    corners = squares_drawn(root)
    kinds = {
        f"#{chess.COLOR_NAMES[p.color]}-{chess.PIECE_NAMES[p.piece_type]}": p.symbol()
        for p in map(chess.Piece.from_symbol, "PNBRQKpnbrqk")
    }
    out: dict[str, str] = {}
    for use in root.iter(SVG + "use"):
        if href(use) == "#xx":
            continue
        square = corners[translate(use)]
        assert square not in out, f"two pieces on {square}"
        out[square] = kinds[href(use)]
    return out


def marks_drawn(root: ET.Element) -> set[str]:
    corners = squares_drawn(root)
    return {
        corners[(float(u.get("x", "nan")), float(u.get("y", "nan")))]
        for u in root.iter(SVG + "use")
        if href(u) == "#xx"
    }


def arrows_drawn(root: ET.Element) -> list[tuple[str, str, str]]:
    """(tail, head, colour) of each arrow (the line's start and the head's tip) and circle."""
    out = []
    elements = [e for e in root if e.get("class") in ("arrow", "circle")]
    index = 0
    while index < len(elements):
        element = elements[index]
        if element.get("class") == "circle":
            square = square_at(root, float(element.get("cx", "nan")), float(element.get("cy", "nan")))
            out.append((square, square, element.get("stroke", "")))
            index += 1
            continue
        line, head = element, elements[index + 1]
        assert line.tag == SVG + "line" and head.tag == SVG + "polygon"
        tip = [float(n) for n in head.get("points", "").replace(",", " ").split()[:2]]
        tail = square_at(root, float(line.get("x1", "nan")), float(line.get("y1", "nan")))
        assert line.get("stroke") == head.get("fill")
        out.append((tail, square_at(root, tip[0], tip[1]), line.get("stroke", "")))
        index += 2
    return out


def labels_drawn(root: ET.Element) -> tuple[str, str]:
    """The file letters along the top, left to right, and the rank digits down the left."""
    labels = [(label_of(g), translate_scaled(g)) for g in root if g.tag == SVG + "g"]
    files = sorted((x, name) for name, (x, y) in labels if name in chess.FILE_NAMES and y < 10)
    ranks = sorted((y, name) for name, (x, y) in labels if name in chess.RANK_NAMES and x < 10)
    return "".join(n for _, n in files), "".join(n for _, n in ranks)


def translate_scaled(element: ET.Element) -> tuple[float, float]:
    numbers = [float(n) for n in NUMBER.findall(element.get("transform", ""))]
    return numbers[0], numbers[1]


# ---- Random diagrams ----

COLOURS = ["#123", "#12345678", "#abcd", "#ffce9e80", "red", "#1234567g", "#12g4"]
ARROW_COLOURS = ["green", "red", "yellow", "blue", "pink", "#0000cccc"]
COLOR_KEYS = sorted(chess.svg.DEFAULT_COLORS) + ["arrow pink"]


@st.composite
def positions(draw: st.DrawFn) -> chess.Board:
    """A position reached by random legal moves from the start (its move stack kept)."""
    board = chess.Board()
    for pick in draw(st.lists(st.integers(0, 10**6), max_size=60)):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(moves[pick % len(moves)])
    return board


@st.composite
def options(draw: st.DrawFn, board: chess.Board) -> dict[str, Any]:
    """A random choice of every keyword of ``board()``, as python-chess objects."""
    square = st.integers(0, 63)
    kw: dict[str, Any] = {}
    if draw(st.booleans()):
        kw["orientation"] = draw(st.booleans())
    if draw(st.booleans()):
        kw["flipped"] = draw(st.booleans())
    choice = draw(st.sampled_from(["none", "last", "any"]))
    if choice == "last" and board.move_stack:
        kw["lastmove"] = board.peek()
    elif choice == "any":
        kw["lastmove"] = chess.Move(draw(square), draw(square))
    if draw(st.booleans()):
        king = board.king(board.turn)
        kw["check"] = king if king is not None and draw(st.booleans()) else draw(square)
    arrow = st.tuples(square, square, st.sampled_from(ARROW_COLOURS + [None]))
    kw["arrows"] = [chess.svg.Arrow(t, h, color=c) if c else (t, h) for t, h, c in draw(st.lists(arrow, max_size=5))]
    kw["fill"] = draw(st.dictionaries(square, st.sampled_from(COLOURS), max_size=6))
    kw["squares"] = draw(
        st.one_of(
            st.none(),
            st.lists(square, max_size=6),
            st.lists(square, max_size=6).map(chess.SquareSet),
            st.integers(0, 2**64 - 1),
        )
    )
    kw["size"] = draw(st.one_of(st.none(), st.integers(1, 800)))
    kw["coordinates"] = draw(st.booleans())
    kw["colors"] = draw(st.dictionaries(st.sampled_from(COLOR_KEYS), st.sampled_from(COLOURS), max_size=5))
    kw["borders"] = draw(st.booleans())
    kw["style"] = draw(st.sampled_from([None, "", ".square.light { fill: #eee; } /* a < b & c */"]))
    return kw


def as_kibitz(kw: dict[str, Any], pick: Callable[[], bool]) -> dict[str, Any]:
    """The same options with kibitz's objects where ``pick()`` says so (python-chess's else)."""
    out = dict(kw)
    if "lastmove" in kw and pick():
        out["lastmove"] = kibitz.Move(kw["lastmove"].from_square, kw["lastmove"].to_square)
    if isinstance(kw["squares"], chess.SquareSet) and pick():
        out["squares"] = kibitz.SquareSet(kw["squares"])
    out["arrows"] = [
        ksvg.Arrow(a.tail, a.head, color=a.color) if isinstance(a, chess.svg.Arrow) and pick() else a
        for a in kw["arrows"]
    ]
    return out


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_board_means_what_python_chess_draws(data: st.DataObject) -> None:
    theirs = data.draw(positions())
    kw = data.draw(options(theirs))
    pick = lambda: data.draw(st.booleans())  # noqa: E731
    base = data.draw(st.booleans())
    if base:  # a BaseBoard: pieces only
        ours_board: Any = kibitz.BaseBoard(theirs.board_fen()) if pick() else chess.BaseBoard(theirs.board_fen())
        theirs_board: Any = chess.BaseBoard(theirs.board_fen())
    else:
        ours_board = kibitz.Board(theirs.fen()) if pick() else theirs
        theirs_board = theirs
    ours = ksvg.board(ours_board, **as_kibitz(kw, pick))
    want = chess.svg.board(theirs_board, **kw)
    assert isinstance(ours, ksvg.SvgWrapper)
    assert_same_meaning(ours, want)
    # And read back without python-chess's help.
    root = parse(ours)
    assert pieces_drawn(root) == {chess.square_name(s): p.symbol() for s, p in theirs.piece_map().items()}
    squares = kw["squares"]
    assert marks_drawn(root) == {chess.square_name(s) for s in chess.SquareSet(squares if squares else 0)}


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_empty_board_means_what_python_chess_draws(data: st.DataObject) -> None:
    kw = data.draw(options(chess.Board()))
    ours = ksvg.board(None, **as_kibitz(kw, lambda: data.draw(st.booleans())))
    assert_same_meaning(ours, chess.svg.board(None, **kw))
    assert ksvg.board() == ksvg.board(None) and pieces_drawn(parse(ksvg.board())) == {}


@pytest.mark.parametrize("fen", FENS)
@pytest.mark.parametrize("orientation", [chess.WHITE, chess.BLACK])
def test_pieces_labels_and_corners_follow_the_orientation(fen: str, orientation: bool) -> None:
    board = kibitz.Board(fen)
    for kw in ({"orientation": orientation}, {"flipped": not orientation}):
        root = parse(ksvg.board(board, **kw))
        assert pieces_drawn(root) == {chess.square_name(s): p.symbol() for s, p in chess.Board(fen).piece_map().items()}
        corners = {name: xy for xy, name in squares_drawn(root).items()}
        xs = sorted({x for x, _ in corners.values()})
        ys = sorted({y for _, y in corners.values()})
        bottom_left, top_right = ("a1", "h8") if orientation else ("h8", "a1")
        assert corners[bottom_left] == (xs[0], ys[-1]) and corners[top_right] == (xs[-1], ys[0])
        files, ranks = labels_drawn(root)
        assert (files, ranks) == (("abcdefgh", "87654321") if orientation else ("hgfedcba", "12345678"))
        # Light and dark as on a real board: a1 dark, h1 light.
        for rect in root.iter(SVG + "rect"):
            classes = rect.get("class", "").split()
            if classes[:1] == ["square"]:
                light = bool(chess.BB_SQUARES[chess.parse_square(classes[-1])] & chess.BB_LIGHT_SQUARES)
                assert classes[1] == ("light" if light else "dark")


def test_arrows_are_drawn_from_tail_to_head_in_their_colours() -> None:
    arrows = [
        ksvg.Arrow(chess.E2, chess.E4),
        chess.svg.Arrow(chess.G1, chess.F3, color="red"),
        (chess.A1, chess.H8),
        ksvg.Arrow(chess.D4, chess.D4, color="blue"),
        ksvg.Arrow(chess.H1, chess.A8, color="#0000cccc"),
    ]
    for orientation in (chess.WHITE, chess.BLACK):
        root = parse(ksvg.board(kibitz.Board(), arrows=arrows, orientation=orientation, colors={"arrow red": "#f00"}))
        assert arrows_drawn(root) == [
            ("e2", "e4", "#15781B"),
            ("g1", "f3", "#f00"),
            ("a1", "h8", "#15781B"),
            ("d4", "d4", "#003088"),
            ("h1", "a8", "#0000cccc"),
        ]


def test_lastmove_check_fill_and_marks() -> None:
    board = kibitz.Board(FENS[2])
    svg = ksvg.board(
        board,
        lastmove=kibitz.Move(chess.H5, chess.F7),
        check=chess.E8,
        fill={chess.A1: "#ff000080"},
        squares=kibitz.SquareSet([chess.B2, chess.C3]),
    )
    root = parse(svg)
    corners = {name: xy for xy, name in squares_drawn(root).items()}
    tinted = [r.get("class", "").split()[-1] for r in root.iter(SVG + "rect") if "lastmove" in r.get("class", "")]
    assert sorted(tinted) == ["f7", "h5"]
    (check,) = [r for r in root.iter(SVG + "rect") if r.get("class") == "check"]
    assert (float(check.get("x", "nan")), float(check.get("y", "nan"))) == corners["e8"]
    assert check.get("fill") == "url(#check_gradient)"
    filled = [r for r in root.iter(SVG + "rect") if r.get("class") is None and r.get("fill") == "#ff0000"]
    assert len(filled) == 1 and float(filled[0].get("opacity", "nan")) == pytest.approx(128 / 255)
    assert marks_drawn(root) == {"b2", "c3"}
    # Highlights lie under the pieces: every rectangle comes before every piece.
    order = [e.tag for e in root]
    assert max(i for i, t in enumerate(order) if t == SVG + "rect") < order.index(SVG + "use")


# ---- python-chess's own SVG tests (test.py, SvgTestCase), kibitz in place of chess ----


def test_python_chess_svg_board() -> None:
    svg = kibitz.BaseBoard("4k3/8/8/8/8/8/8/4KB2")._repr_svg_()
    assert "white bishop" in svg
    assert "black queen" not in svg


def test_python_chess_svg_arrows() -> None:
    svg = ksvg.board(arrows=[(kibitz.A1, kibitz.A1)])
    assert "<circle" in svg
    assert "<line" not in svg

    svg = ksvg.board(arrows=[ksvg.Arrow(kibitz.A1, kibitz.H8)])
    assert "<circle" not in svg
    assert "<line" in svg


def test_python_chess_svg_piece() -> None:
    svg = ksvg.piece(kibitz.Piece.from_symbol("K"))
    assert 'id="white-king"' in svg


def test_reached_as_chess_svg_through_the_package() -> None:
    """``import kibitz as chess`` code: ``chess.svg.board(...)`` once kibitz.svg is imported."""
    import kibitz as chess_like

    assert chess_like.svg is ksvg
    ours = chess_like.svg.board(
        chess_like.Board(), size=350, arrows=[chess_like.svg.Arrow(chess_like.E2, chess_like.E4)]
    )
    assert_same_meaning(ours, chess.svg.board(chess.Board(), size=350, arrows=[chess.svg.Arrow(chess.E2, chess.E4)]))


# ---- piece(), Arrow, SvgWrapper and the module's names ----


@pytest.mark.parametrize("symbol", "PNBRQKpnbrqk")
@pytest.mark.parametrize("size", [None, 45, 200])
def test_piece_means_what_python_chess_draws(symbol: str, size: int | None) -> None:
    for piece in (kibitz.Piece.from_symbol(symbol), chess.Piece.from_symbol(symbol)):
        ours = ksvg.piece(piece, size)
        assert isinstance(ours, ksvg.SvgWrapper)
        mine, want = parse(ours), parse(chess.svg.piece(chess.Piece.from_symbol(symbol), size))
        assert mine.attrib == want.attrib
        assert [(g.get("id"), g.get("class")) for g in mine] == [(g.get("id"), g.get("class")) for g in want]
        assert len(list(mine.iter())) > 4, "the piece has a drawing"


def test_public_names_of_chess_svg() -> None:
    imported = {"annotations", "chess", "math", "ET", "Dict", "Iterable", "Optional", "Tuple", "Union"}
    theirs = {n for n in dir(chess.svg) if not n.startswith("_")} - imported
    missing = {n for n in theirs if not hasattr(ksvg, n)}
    assert not missing
    assert set(ksvg.__all__) >= theirs
    assert ksvg.SQUARE_SIZE == chess.svg.SQUARE_SIZE and ksvg.MARGIN == chess.svg.MARGIN
    assert ksvg.DEFAULT_COLORS == chess.svg.DEFAULT_COLORS
    assert set(ksvg.PIECES) == set(chess.svg.PIECES) and set(ksvg.COORDS) == set(chess.svg.COORDS)
    for symbol, drawing in ksvg.PIECES.items():
        mine, want = ET.fromstring(drawing), ET.fromstring(chess.svg.PIECES[symbol])
        assert (mine.get("id"), mine.get("class")) == (want.get("id"), want.get("class"))
    for name, label in ksvg.COORDS.items():
        assert label_of(ET.fromstring(f'<g xmlns="http://www.w3.org/2000/svg">{label}</g>')) == name
    assert ET.fromstring(ksvg.XX).get("id") == ET.fromstring(chess.svg.XX).get("id") == "xx"
    gradient = ET.fromstring(ksvg.CHECK_GRADIENT)
    assert gradient.tag == "radialGradient" and gradient.get("id") == "check_gradient"


@pytest.mark.parametrize("name", ["board", "piece"])
def test_signatures_are_python_chess_s(name: str) -> None:
    mine = inspect.signature(getattr(ksvg, name)).parameters
    want = inspect.signature(getattr(chess.svg, name)).parameters
    assert [(p.name, p.kind) for p in mine.values()] == [(p.name, p.kind) for p in want.values()]
    for p in want.values():
        # Defaults equal, or both empty collections (python-chess writes [] and {}).
        default = mine[p.name].default
        assert default == p.default or (not default and not p.default and default is not None), p.name


def test_svg_wrapper_shows_in_jupyter() -> None:
    svg = ksvg.board(kibitz.Board())
    assert isinstance(svg, str) and isinstance(svg, ksvg.SvgWrapper)
    assert svg._repr_svg_() is svg and svg._repr_html_() is svg


ARROW_TEXTS = st.text(alphabet="GRYBXgabh1289", max_size=6)


@settings(max_examples=300, deadline=None)
@given(text=ARROW_TEXTS)
def test_arrow_from_pgn_as_python_chess(text: str) -> None:
    try:
        want = chess.svg.Arrow.from_pgn(text)
    except ValueError:
        with pytest.raises(ValueError):
            ksvg.Arrow.from_pgn(text)
        return
    got = ksvg.Arrow.from_pgn(text)
    assert (got.tail, got.head, got.color) == (want.tail, want.head, want.color)
    assert (got.pgn(), str(got), repr(got)) == (want.pgn(), str(want), repr(want))


@given(tail=st.integers(0, 63), head=st.integers(0, 63), color=st.sampled_from(ARROW_COLOURS))
def test_arrow_pgn_repr_and_equality(tail: int, head: int, color: str) -> None:
    ours, theirs = ksvg.Arrow(tail, head, color=color), chess.svg.Arrow(tail, head, color=color)
    assert (ours.pgn(), str(ours), repr(ours)) == (theirs.pgn(), str(theirs), repr(theirs))
    back = ksvg.Arrow.from_pgn(ours.pgn())
    assert (back.tail, back.head, back.color) == (tail, head, color if color in ARROW_COLOURS[:4] else "green")
    # Equality and hashing by identity, as python-chess's (which defines neither).
    twin, their_twin = ksvg.Arrow(tail, head, color=color), chess.svg.Arrow(tail, head, color=color)
    assert (ours == twin, ours != twin, ours == ours) == (theirs == their_twin, theirs != their_twin, theirs == theirs)
    assert len({ours, twin}) == len({theirs, their_twin}) == 2
    assert ksvg.Arrow(tail, head).color == "green"


def test_pgn_arrows_are_svg_arrows() -> None:
    """``chess.pgn`` returns ``chess.svg.Arrow``: kibitz's PGN arrows are kibitz.svg's."""
    assert kibitz.pgn.Arrow is ksvg.Arrow
    game = kibitz.pgn.Game()
    game.set_arrows([(chess.A1, chess.A1), ksvg.Arrow(chess.A1, chess.H1, color="red")])
    arrows = game.arrows()
    assert all(isinstance(a, ksvg.Arrow) for a in arrows)
    assert arrows_drawn(parse(ksvg.board(arrows=arrows))) == [("a1", "a1", "#15781B"), ("a1", "h1", "#882020")]


def test_self_contained() -> None:
    """No external references: no images, links or scripts; every href names an id inside."""
    svg = ksvg.board(kibitz.Board(FENS[1]), check=chess.E1, squares=[chess.A1], style="rect {}")
    root = parse(svg)
    ids = {e.get("id") for e in root.iter()}
    for element in root.iter():
        assert element.tag not in (SVG + "image", SVG + "a", SVG + "script")
        for name, value in element.attrib.items():
            if name in ("href", XLINK + "href"):
                assert value[0] == "#" and value[1:] in ids, value
            assert "url(" not in value or value == "url(#check_gradient)"


# ---- render(): the older entry point, and Board._repr_svg_ ----


@pytest.mark.parametrize("fen", FENS)
@pytest.mark.parametrize("flipped", [False, True])
@pytest.mark.parametrize("coordinates", [False, True])
def test_render_is_board_of_the_fen(fen: str, flipped: bool, coordinates: bool) -> None:
    board = chess.Board(fen)
    check = board.king(board.turn) if board.is_check() else None
    ours = ksvg.render(
        fen, lastmove=(chess.E2, chess.E4), check=check, size=250, flipped=flipped, coordinates=coordinates
    )
    want = chess.svg.board(
        board, lastmove=chess.Move(chess.E2, chess.E4), check=check, size=250, flipped=flipped, coordinates=coordinates
    )
    assert_same_meaning(ours, want)
    assert parse(ksvg.render(fen)).get("width") == "400"


@pytest.mark.parametrize(
    "kwargs, needle",
    [
        ({"lastmove": (12, 64)}, "lastmove[1]"),
        ({"lastmove": (-1, 28)}, "lastmove[0]"),
        ({"lastmove": (12,)}, "pair"),
        ({"check": 99}, "check"),
        ({"check": "e1"}, "check"),
        ({"size": 0}, "size"),
        ({"size": 1.5}, "size"),
    ],
)
def test_render_bad_arguments(kwargs: dict[str, object], needle: str) -> None:
    with pytest.raises(ValueError, match=re.escape(needle)):
        ksvg.render(chess.STARTING_FEN, **kwargs)  # type: ignore[arg-type]


def test_render_bad_fen() -> None:
    with pytest.raises(kibitz.FenError):
        ksvg.render("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1")


@pytest.mark.parametrize(
    "fen, moves",
    [
        (chess.STARTING_FEN, ["e2e4", "f7f6", "d2d4", "g7g5", "d1h5"]),  # Black in check
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", ["e1g1"]),  # castling: king's two squares
        (chess.STARTING_FEN, []),  # no highlights at all
    ],
)
def test_board_repr_svg_draws_the_position_last_move_and_check(fen: str, moves: list[str]) -> None:
    """``Board._repr_svg_`` (what Jupyter shows) means what python-chess's board shows: the
    same last move and check, at its 390 pixels."""
    board, ref = kibitz.Board(fen), chess.Board(fen)
    for m in moves:
        board.push_uci(m)
        ref.push_uci(m)
    assert_same_meaning(board._repr_svg_(), ref._repr_svg_())


@pytest.mark.parametrize("symbol", list("PNBRQKpnbrqk"))
def test_a_piece_draws_itself_in_a_notebook_as_python_chess_does(symbol: str) -> None:
    # The ink is kibitz's own: the picture's frame and the piece's group are python-chess's.
    ours = parse(kibitz.Piece.from_symbol(symbol)._repr_svg_())
    theirs = parse(chess.Piece.from_symbol(symbol)._repr_svg_())
    assert ours.attrib == theirs.attrib
    assert [(g.get("id"), g.get("class")) for g in ours] == [(g.get("id"), g.get("class")) for g in theirs]
    assert len(list(ours.iter())) > 4, "the piece has a drawing"


@pytest.mark.parametrize("squares", [[], [0], [0, 9, 18, 63], list(range(64))])
def test_a_square_set_draws_itself_in_a_notebook_as_python_chess_does(squares: list[int]) -> None:
    ours = kibitz.SquareSet(squares)._repr_svg_()
    theirs = chess.SquareSet(squares)._repr_svg_()
    assert structure(ours) == structure(theirs)
    assert pieces_drawn(parse(ours)) == {}
