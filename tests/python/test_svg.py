"""The SVG board diagrams (``kibitz.svg.render``), read back with xml.etree.

Each diagram is parsed as XML; the pieces it draws (``data-piece`` at ``data-square``) are
compared with python-chess's reading of the same FEN, and every piece, highlight and
square is checked to be drawn where that square lies on the picture, for both orientations.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import chess
import pytest

import kibitz
from kibitz.svg import render

SVG = "{http://www.w3.org/2000/svg}"

FENS = [
    chess.STARTING_FEN,
    # Kiwipete: every piece kind, castling rights, pieces on both wings.
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    # Scholar's mate: Black's king in check.
    "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4",
    # Bare kings plus promotion-rank pawns' neighbours: corners and edges.
    "7k/P7/8/8/8/8/7p/K7 w - - 0 1",
    "8/8/8/4k3/8/8/8/4K3 w - - 0 1",
]


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg", root.tag
    return root


def translate(element: ET.Element) -> tuple[float, float]:
    """The (x, y) of a ``transform="translate(x,y)"``."""
    transform = element.get("transform", "")
    assert transform.startswith("translate(") and transform.endswith(")"), transform
    x, y = transform[len("translate(") : -1].split(",")
    return float(x), float(y)


def squares_drawn(root: ET.Element) -> dict[str, tuple[float, float]]:
    """Square name -> top-left corner of its drawn rectangle."""
    out = {}
    for rect in root.iter(SVG + "rect"):
        if "square" in rect.get("class", "").split():
            out[rect.get("data-square", "")] = (float(rect.get("x", "nan")), float(rect.get("y", "nan")))
    return out


def pieces_drawn(root: ET.Element) -> dict[str, str]:
    """Square name -> FEN letter of the piece drawn there, checking each sits on its square."""
    corners = squares_drawn(root)
    out: dict[str, str] = {}
    for g in root.iter(SVG + "g"):
        if "piece" not in g.get("class", "").split():
            continue
        square, letter = g.get("data-square", ""), g.get("data-piece", "")
        assert square not in out, f"two pieces on {square}"
        assert translate(g) == corners[square], f"{letter} labelled {square} is drawn elsewhere"
        assert len(list(g)) >= 3, f"{letter} on {square} has no drawing"
        out[square] = letter
    return out


@pytest.mark.parametrize("fen", FENS)
@pytest.mark.parametrize("flipped", [False, True])
def test_pieces_on_their_squares(fen: str, flipped: bool) -> None:
    root = parse(render(fen, flipped=flipped))
    expected = {chess.square_name(sq): p.symbol() for sq, p in chess.Board(fen).piece_map().items()}
    assert pieces_drawn(root) == expected


@pytest.mark.parametrize("coordinates", [False, True])
def test_orientation_and_square_colours(coordinates: bool) -> None:
    for flipped in (False, True):
        root = parse(render(chess.STARTING_FEN, flipped=flipped, coordinates=coordinates))
        corners = squares_drawn(root)
        assert sorted(corners) == sorted(chess.SQUARE_NAMES)
        xs = sorted({x for x, _ in corners.values()})
        ys = sorted({y for _, y in corners.values()})
        assert len(xs) == len(ys) == 8
        # White at the bottom: a1 bottom left, h8 top right; flipped: the other way round.
        bottom_left, top_right = ("h8", "a1") if flipped else ("a1", "h8")
        assert corners[bottom_left] == (xs[0], ys[-1])
        assert corners[top_right] == (xs[-1], ys[0])
        assert corners["h1" if not flipped else "a8"] == (xs[-1], ys[-1])
        # a1 and h8 are dark, h1 and a8 light; neighbours differ.
        kinds = {
            r.get("data-square"): r.get("class", "").split()[1]
            for r in root.iter(SVG + "rect")
            if "square" in r.get("class", "").split()
        }
        assert kinds["a1"] == kinds["h8"] == "dark" and kinds["h1"] == kinds["a8"] == "light"
        for sq in range(64):
            name = chess.square_name(sq)
            assert kinds[name] == ("light" if chess.BB_SQUARES[sq] & chess.BB_LIGHT_SQUARES else "dark")
        labels = [t.text or "" for t in root.iter(SVG + "text")]
        assert sorted(set(labels)) == (sorted("abcdefgh12345678") if coordinates else [])


def test_size_and_viewbox() -> None:
    root = parse(render(chess.STARTING_FEN, size=250))
    assert root.get("width") == root.get("height") == "250"
    assert root.get("viewBox", "").startswith("0 0 ")


@pytest.mark.parametrize("flipped", [False, True])
def test_lastmove_and_check_highlights(flipped: bool) -> None:
    fen = "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4"
    board = chess.Board(fen)
    king = board.king(chess.BLACK)
    assert king is not None and board.is_check()
    root = parse(render(fen, lastmove=(chess.H5, chess.F7), check=king, flipped=flipped))
    corners = squares_drawn(root)
    marks: dict[str, list[str]] = {"lastmove": [], "check": []}
    for rect in root.iter(SVG + "rect"):
        kind = rect.get("class")
        if kind in marks:
            square = rect.get("data-square", "")
            assert (float(rect.get("x", "nan")), float(rect.get("y", "nan"))) == corners[square]
            marks[kind].append(square)
    assert sorted(marks["lastmove"]) == ["f7", "h5"]
    assert marks["check"] == ["e8"]
    # Highlights lie under the pieces: drawn before them in document order.
    order = [e.get("class", "") for e in root.iter() if e.get("data-square") == "f7"]
    assert order.index("lastmove") < next(i for i, c in enumerate(order) if c.startswith("piece"))


def test_no_highlights_by_default() -> None:
    root = parse(render(chess.STARTING_FEN))
    assert not [r for r in root.iter(SVG + "rect") if r.get("class") in ("lastmove", "check")]


def test_self_contained() -> None:
    svg = render(FENS[1])
    # No external references: no images, no links, no style sheets; only the in-file gradient.
    for element in parse(svg).iter():
        assert element.tag not in (SVG + "image", SVG + "a", SVG + "style", SVG + "script")
        for name, value in element.attrib.items():
            assert "href" not in name, (element.tag, name)
            assert "url(" not in value or value == "url(#kibitz-check-gradient)"


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
def test_bad_arguments(kwargs: dict[str, object], needle: str) -> None:
    with pytest.raises(ValueError, match=needle.replace("[", r"\[").replace("]", r"\]")):
        render(chess.STARTING_FEN, **kwargs)  # type: ignore[arg-type]


def test_bad_fen() -> None:
    with pytest.raises(kibitz.FenError):
        render("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1")


def test_board_repr_svg_draws_the_position_last_move_and_check() -> None:
    """``Board._repr_svg_`` (what Jupyter shows): the pieces python-chess sees, the last move's
    two squares and the checked king's square highlighted."""
    moves = ["e2e4", "f7f6", "d2d4", "g7g5", "d1h5"]  # the fool's mate pattern: Black in check
    board = kibitz.Board()
    ref = chess.Board()
    for m in moves:
        board.push_uci(m)
        ref.push_uci(m)
    root = parse(board._repr_svg_())
    want = {chess.square_name(sq): p.symbol() for sq, p in ref.piece_map().items()}
    assert pieces_drawn(root) == want
    last = {r.get("data-square") for r in root.iter(SVG + "rect") if r.get("class") == "lastmove"}
    assert last == {"d1", "h5"}
    checked = [r.get("data-square") for r in root.iter(SVG + "rect") if r.get("class") == "check"]
    assert checked == [chess.square_name(ref.king(chess.BLACK))]
    # A fresh board: no highlights at all.
    root = parse(kibitz.Board()._repr_svg_())
    assert not [r for r in root.iter(SVG + "rect") if r.get("class") in ("lastmove", "check")]
