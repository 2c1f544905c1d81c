"""kibitz.openings: opening names by position (lichess's chess-openings data set)."""

from __future__ import annotations

import chess
import pytest

import kibitz
import kibitz.openings as openings


def _board(sans: str, fen: str | None = None) -> kibitz.Board:
    board = kibitz.Board(fen) if fen else kibitz.Board()
    for san in sans.split():
        board.push_san(san)
    return board


# Hand-checked against the ECO: (moves, eco, name). Move orders that transpose into a
# named position must get that position's name.
HAND_CHECKED = [
    ("e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6", "B90", "Sicilian Defense: Najdorf Variation"),
    ("d4 Nf6 c4 e6 Nc3 Bb4", "E20", "Nimzo-Indian Defense"),
    # The Nimzo-Indian reached from the English.
    ("c4 Nf6 Nc3 e6 d4 Bb4", "E20", "Nimzo-Indian Defense"),
    ("e4 c6 d4 d5 exd5 cxd5 c4", "B13", "Caro-Kann Defense: Panov Attack"),
    # The Panov Attack reached from the English (1. c4 c6 2. e4).
    ("c4 c6 e4 d5 exd5 cxd5 d4", "B13", "Caro-Kann Defense: Panov Attack"),
    ("e4 e5 Nf3 Nc6 Bb5 a6", "C70", "Ruy Lopez: Morphy Defense"),
    ("e4 e5 Nf3 Nc6 Bc4 Bc5", "C50", "Italian Game: Giuoco Piano"),
    ("d4 d5 c4 e6", "D30", "Queen's Gambit Declined"),
]


@pytest.mark.parametrize("moves,eco,name", HAND_CHECKED)
def test_hand_checked(moves: str, eco: str, name: str) -> None:
    found = openings.name(_board(moves))
    assert found is not None
    assert (found.eco, found.name) == (eco, name)


def test_deepest_named_position_wins() -> None:
    # Past the book: the last named position of the game names it.
    found = openings.name(_board("e4 e5 Nf3 Nc6 Bb5 a6 h3 h6 a3 a5"))
    assert found is not None and found.name == "Ruy Lopez: Morphy Defense"
    # Deeper than the Morphy Defense: the Closed Ruy Lopez lines get their own names.
    deeper = openings.name(_board("e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7"))
    assert deeper is not None and deeper.name.startswith("Ruy Lopez: Closed")


def test_fen_string_and_python_chess_board() -> None:
    board = chess.Board()
    for san in "d4 Nf6 c4 e6 Nc3 Bb4".split():
        board.push_san(san)
    assert openings.name(board) == openings.name(board.fen())
    found = openings.name(board)
    assert found is not None and found.eco == "E20"
    # A python-chess board past the book is walked back too.
    board.push_san("a3")
    board.push_san("h6")
    board.push_san("h3")
    found = openings.name(board)
    assert found is not None and found.eco.startswith("E2")


def test_unnamed() -> None:
    assert openings.name(kibitz.Board()) is None
    assert openings.lookup("8/8/8/4k3/8/8/8/4K3 w - - 0 1") is None
    assert openings.of_positions([]) is None
    assert openings.of_positions(["not a fen"]) is None


def test_en_passant_only_when_legal() -> None:
    # 1. e4 leaves no capturable pawn: the key has no en passant square, whatever the FEN says.
    with_ep = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    without = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    assert openings.epd(with_ep) == openings.epd(without)
    assert openings.lookup(with_ep) == openings.lookup(without) is not None


def test_every_line_of_the_data_set_is_named() -> None:
    """Each line's final position gets its own name, or that of a line reaching the same
    position; checked with python-chess (an independent move generator)."""
    entries = openings.entries()
    assert len(entries) > 3000
    keys: dict[str, list[openings.Opening]] = {}
    for entry in entries:
        board = chess.Board()
        for san in openings.line_moves(entry.pgn):
            board.push_san(san)
        keys.setdefault(board.epd(), []).append(entry)
    for entry in entries:
        board = chess.Board()
        for san in openings.line_moves(entry.pgn):
            board.push_san(san)
        found = openings.name(board)
        assert found is not None, entry
        assert found == entry or found in keys[board.epd()], (entry, found)
    for entry in entries:
        assert entry.eco[0] in "ABCDE" and len(entry.eco) == 3 and entry.name


def test_analyse_records_and_annotated_pgn_name_the_opening(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from kibitz.analysis.game import pgn_text

    pgn = tmp_path / "two.pgn"
    pgn.write_text(
        '[White "A"]\n[Black "B"]\n\n1. c4 Nf6 2. Nc3 e6 3. d4 Bb4 4. a3 Bxc3+ 5. bxc3 *\n\n'
        '[White "C"]\n[Black "D"]\n[ECO "X99"]\n[Opening "Own name"]\n\n1. e4 e5 *\n\n'
    )
    first, second = list(kibitz.analyse_games(str(pgn), nodes=200, workers=1))
    assert first["opening"] == {"eco": "E24", "name": "Nimzo-Indian Defense: Sämisch Variation"}
    text = pgn_text(first)
    assert '[ECO "E24"]' in text and '[Opening "Nimzo-Indian Defense: Sämisch Variation"]' in text
    # The game's own tags are kept as they are.
    assert second["opening"]["eco"] == "C20"
    text = pgn_text(second)
    assert '[ECO "X99"]' in text and '[Opening "Own name"]' in text and "C20" not in text
