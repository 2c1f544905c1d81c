"""kibitz.pgn against python-chess's chess.pgn, reading: the same names, and the same games,
headers, errors and PGN text for the data files, a generated corpus (written by python-chess's
exporter), the benchmarks' database and broken input; the core's plain-line reader against
python-chess's tokenizer.

The visitors are compared in test_pgn_visitors.py, the tree and building games in
test_pgn_tree.py. Hypothesis runs a modest number of examples by default; ``--runslow`` runs
ten times as many.
"""

from __future__ import annotations

import io
import random
from pathlib import Path
from typing import Optional

import chess
import chess.pgn
import pytest
from hypothesis import given
from hypothesis import strategies as st

import kibitz
import kibitz.pgn as kpgn
from kibitz._core import plain_tokens
from pgn_reference import (
    BROKEN,
    DATA_FILES,
    MUTATION_ALPHABET,
    assert_same_reading,
    corpus,
    database_text,
    error_key,
    examples,
    mutated_corpus,
    random_game,
    read_all,
)

# --- the API surface -----------------------------------------------------------------------


def test_public_names_of_chess_pgn_exist() -> None:
    names = [
        "read_game", "read_headers", "skip_game", "GameNode", "Game", "ChildNode", "Headers", "Mainline",
        "BaseVisitor", "GameBuilder", "HeadersBuilder", "BoardBuilder", "SkipVisitor", "StringExporterMixin",
        "StringExporter", "FileExporter", "SkipType", "SKIP", "LOGGER", "TAG_ROSTER", "TAG_REGEX",
        "TAG_NAME_REGEX", "MOVETEXT_REGEX", "SKIP_MOVETEXT_REGEX", "CLOCK_REGEX", "EMT_REGEX", "EVAL_REGEX",
        "ARROWS_REGEX", "TimeControl", "TimeControlPart", "TimeControlType", "parse_time_control",
    ]  # fmt: skip
    for name in names:
        assert hasattr(kpgn, name), name
    for name in dir(chess.pgn):
        if name.startswith("NAG_"):
            assert getattr(kpgn, name) == getattr(chess.pgn, name), name
    assert kpgn.TAG_ROSTER == chess.pgn.TAG_ROSTER
    assert kpgn.SKIP is kpgn.SkipType.SKIP


def test_submodule_reachable() -> None:
    import importlib

    assert importlib.import_module("kibitz.pgn") is kpgn


# --- reading: files, corpus ----------------------------------------------------------------


@pytest.mark.parametrize("path", DATA_FILES, ids=lambda p: p.name)
def test_data_files_read_the_same(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert assert_same_reading(text) > 0


@pytest.mark.parametrize("seed", range(4))
def test_generated_corpus_reads_the_same(seed: int) -> None:
    text = corpus(seed, 12)
    assert assert_same_reading(text) == 12


def test_generated_corpus_has_what_it_should() -> None:
    """The generator does produce the features the comparisons are meant to cover."""
    text = corpus(0, 12) + corpus(1, 12)
    for feature in ["[%clk", "[%eval", "(", "$", "{", "--", '[SetUp "1"]', "Chess960", "[%cal"]:
        assert feature in text, feature


@pytest.mark.parametrize("seed", range(3))
def test_read_headers_and_skip_game(seed: int) -> None:
    text = corpus(100 + seed, 10) + "\n\n   \n" + corpus(200 + seed, 3)
    a, b = io.StringIO(text), io.StringIO(text)
    while True:
        ha, hb = kpgn.read_headers(a), chess.pgn.read_headers(b)
        assert (ha is None) == (hb is None)
        assert a.tell() == b.tell()
        if ha is None or hb is None:
            break
        assert isinstance(ha, kpgn.Headers)
        assert list(ha.items()) == list(hb.items())
    a, b = io.StringIO(text), io.StringIO(text)
    while True:
        sa, sb = kpgn.skip_game(a), chess.pgn.skip_game(b)
        assert sa == sb
        assert a.tell() == b.tell()
        if not sa:
            break


def test_board_builder() -> None:
    text = corpus(7, 8)
    a, b = io.StringIO(text), io.StringIO(text)
    while True:
        ba = kpgn.read_game(a, Visitor=kpgn.BoardBuilder)
        bb = chess.pgn.read_game(b, Visitor=chess.pgn.BoardBuilder)
        assert (ba is None) == (bb is None)
        if ba is None or bb is None:
            break
        assert isinstance(ba, kibitz.Board)
        assert ba.fen() == bb.fen()
        assert [m.uci() for m in ba.move_stack] == [m.uci() for m in bb.move_stack]


# --- broken input --------------------------------------------------------------------------


@pytest.mark.parametrize("text", BROKEN, ids=range(len(BROKEN)))
def test_broken_input_reads_the_same(text: str) -> None:
    assert_same_reading(text)
    assert_same_reading(text.replace("\n", "\r\n"))
    assert_same_reading("\ufeff" + text)


def test_position_kibitz_cannot_play() -> None:
    """A FEN python-chess takes with no kings: read as python-chess reads it (one error for
    the move that cannot be played, the game written back as python-chess writes it), and
    the next game read normally."""
    text = '[FEN "8/8/8/8/8/8/8/8 w - - 0 1"]\n\n1. e4 { x } *\n\n1. d4 *\n'
    ours, theirs = io.StringIO(text), io.StringIO(text)
    game, reference = kpgn.read_game(ours), chess.pgn.read_game(theirs)
    assert game is not None and reference is not None
    assert len(game.errors) == len(reference.errors) == 1 and isinstance(game.errors[0], ValueError)
    assert not game.variations
    assert str(game) == str(reference)
    second = kpgn.read_game(ours)
    assert second is not None and str(second) == str(chess.pgn.read_game(theirs))


def test_variant_games_as_python_chess() -> None:
    """A Variant tag names the board, as in python-chess: an atomic game on an atomic board
    (its capture explodes), an unknown variant an error and the game read as standard chess."""
    text = '[Variant "Atomic"]\n\n1. e4 d5 2. exd5 Qxd5 *'
    game, reference = kpgn.read_game(io.StringIO(text)), chess.pgn.read_game(io.StringIO(text))
    assert game is not None and reference is not None and not game.errors
    assert type(game.board()).__name__ == type(reference.board()).__name__ == "AtomicBoard"
    assert game.end().board().fen() == reference.end().board().fen()
    assert str(game) == str(reference)
    text = '[Variant "Nosuch"]\n\n1. e4 e5 *'
    game, reference = kpgn.read_game(io.StringIO(text)), chess.pgn.read_game(io.StringIO(text))
    assert game is not None and reference is not None
    assert [str(e) for e in game.errors] == [str(e) for e in reference.errors] == ["unsupported variant: Nosuch"]
    assert [m.uci() for m in game.mainline_moves()] == ["e2e4", "e7e5"]
    with pytest.raises(ValueError):
        game.headers.variant()


def test_null_move_in_check() -> None:
    """python-chess plays a null move in check (the side that moved stays in check) and reads
    on: so does kibitz, the same moves, the same game written back."""
    text = "1. e4 e5 2. Qh5 Nc6 3. Qxf7+ -- ( 3... Kxf7 ) 4. Qxe8 *\n\n1. d4 *"
    ours, theirs = io.StringIO(text), io.StringIO(text)
    game, reference = kpgn.read_game(ours), chess.pgn.read_game(theirs)
    assert game is not None and reference is not None
    assert game.errors == [] and reference.errors == []
    assert [m.uci() for m in game.mainline_moves()] == [m.uci() for m in reference.mainline_moves()]
    assert [m.uci() for m in game.mainline_moves()][-2:] == ["0000", "f7e8"]
    assert str(game) == str(reference)
    second = kpgn.read_game(ours)
    assert second is not None and str(second) == str(chess.pgn.read_game(theirs))


def test_more_variations_ended_than_begun() -> None:
    """After an illegal move python-chess's reader may end a variation it never began; its
    GameBuilder then fails on an empty stack (IndexError). kibitz reads on, same moves."""
    text = "1. e4 Qxh7 ) 1... d5 *\n\n1. d4 *"
    with pytest.raises(IndexError):
        chess.pgn.read_game(io.StringIO(text))
    handle = io.StringIO(text)
    game = kpgn.read_game(handle)
    assert game is not None and [m.uci() for m in game.mainline_moves()] == ["e2e4", "d7d5"]
    assert [error_key(e) for e in game.errors] == [
        error_key(e)
        for e in chess.pgn.read_game(io.StringIO("1. e4 Qxh7 *")).errors  # type: ignore[union-attr]
    ]
    second = kpgn.read_game(handle)
    assert second is not None and str(second) == str(chess.pgn.read_game(io.StringIO("1. d4 *")))


def test_truncated_files() -> None:
    text = corpus(600, 4)
    rng = random.Random(600)
    for cut in sorted(rng.sample(range(len(text)), 40)):
        assert_same_reading(text[:cut])


def test_garbage_between_games() -> None:
    rng = random.Random(601)
    games = corpus(601, 6).split("\n\n\n")
    junk = ["%%%\n", "; x\n", "}}}\n", "garbage ((\n", "\n\n", '[X "y"]\n', "{ open\n", ")\n", "1-0\n"]
    for _ in range(8):
        parts = []
        for g in games:
            parts.append(g)
            parts.append("\n\n" + "".join(rng.choice(junk) for _ in range(rng.randint(0, 3))) + "\n")
        assert_same_reading("".join(parts))


def test_illegal_moves_inside_variations() -> None:
    rng = random.Random(602)
    for ours, theirs in read_all(corpus(602, 6))[:-1]:
        assert theirs is not None
        text = str(theirs)
        tokens = text.split(" ")
        for _ in range(5):
            i = rng.randrange(len(tokens))
            broken = " ".join(tokens[:i] + [rng.choice(["Qxh8", "Ke5", "a1=Q", "O-O-O", "Nf3", "xyz"])] + tokens[i:])
            assert_same_reading(broken)


def test_database_games_read_the_same() -> None:
    """The file the speed targets are set on: the same trees, headers, errors and text."""
    text = database_text(12, 8)
    assert "(" in text and "[%clk" in text and "[%eval" in text and "$" in text
    assert assert_same_reading(text) == 12


# --- hypothesis ----------------------------------------------------------------------------


@examples(15)
@given(st.integers(0, 2**32))
def test_hypothesis_generated_games(seed: int) -> None:
    game = random_game(random.Random(seed), max_plies=40)
    text = str(game)
    assert_same_reading(text)
    assert_same_reading(text + "\n\n" + text)


@examples(40)
@given(st.integers(0, 2**32), st.lists(st.tuples(st.floats(0, 1), st.integers(0, 3), st.sampled_from(MUTATION_ALPHABET)),
                                         min_size=1, max_size=8))  # fmt: skip
def test_hypothesis_mutated_text(seed: int, edits: list[tuple[float, int, str]]) -> None:
    assert_same_reading(mutated_corpus(seed, edits))


# --- the plain-line reader agrees with the general tokenizer -------------------------------

CHUNK_PREFIXES = ["", "", "1.", "12...", "3", "12", "1-0", ".", "{ c }", "}"]
CHUNK_TOKENS = ["e4", "exd5", "Nbd2", "R1e1", "e8=Q", "b1q", "O-O", "O-O-O", "0-0", "1-0", "0-1", "1/2-1/2", "*",
                "Z0", "--", "N@f3", "e4e5", "Kh8", "x", "h9", "Pe4", "$1", "$23", "!", "?!", "{ a b }", "{x}",
                "{}", "{ }", "{", "(", ")", ";"]  # fmt: skip
CHUNK_SUFFIXES = ["", "", "", "+", "#", "e4", "N", "=Q", ".", "!", "?!", "!!!", "$4", "1-0", "{ z }", "}"]
REALISTIC_CHUNK = st.tuples(
    st.sampled_from(CHUNK_PREFIXES), st.sampled_from(CHUNK_TOKENS), st.sampled_from(CHUNK_SUFFIXES)
).map("".join)
CHUNK = st.one_of(
    REALISTIC_CHUNK,
    REALISTIC_CHUNK,
    REALISTIC_CHUNK,
    st.sampled_from(["1.", "e4", "Nf3", "{ [%clk 0:03:00] }", "$1", "!?", "O-O"]),
    st.text(alphabet="0123456789.-=+#x/*abcdefghNBRQKO@${}!? ", min_size=1, max_size=7),
)
PLAIN_SEEN = [0, 0]


def reference_line_tokens(line: str) -> Optional[list[str]]:
    """python-chess's tokens for one line: a comment as "{" + its text; None when a comment
    runs on past the line."""
    out: list[str] = []
    while True:
        for match in kpgn.MOVETEXT_REGEX.finditer(line):
            token = match.group(0)
            if not token.startswith("{"):
                out.append(token)
                continue
            rest = token[2:] if token.startswith("{ ") else token[1:]
            close = rest.find("}")
            if close < 0:
                return None
            end = close - 1 if close > 0 and rest[close - 1] == " " else close
            out.append("{" + rest[:end])
            line = rest[close + 1 :]
            break
        else:
            return out


@examples(300)
@given(
    st.lists(CHUNK, max_size=5), st.sampled_from([" ", "  ", "\t", " \u00a0 ", ""]), st.sampled_from(["", "\n", "\r\n"])
)
def test_plain_line_tokens_match_the_tokenizer(chunks: list[str], sep: str, end: str) -> None:
    line = sep.join(chunks) + end
    plain = plain_tokens(line)
    PLAIN_SEEN[plain is None] += 1
    if plain is not None:
        assert plain == reference_line_tokens(line)


@pytest.mark.parametrize("line", ["12e4 e5\n", "1.e4 e5 2.Nf3", "e4e5 e8Q", "1-0e4", "1. e4 1/2-1/2 *", "2.0-0 O-O",
                                  "1. e4 { a } e5 {b} 2. Nf3!? $14 { c }", "e4{ x }e5", "e4 { a { b } c } d5",
                                  "e4 {} { } {  } e5", "e4!!! e5", "e4 } e5", "1. e4 { open"])  # fmt: skip
def test_plain_line_tricky_cases(line: str) -> None:
    plain = plain_tokens(line)
    if plain is not None:
        assert plain == reference_line_tokens(line)
