"""Polyglot books (kibitz.book) against python-chess's chess.polyglot reader."""

from __future__ import annotations

import collections
import io
import random
import shlex
import struct
import subprocess
import sys
from pathlib import Path

import chess
import chess.pgn
import chess.polyglot
import pytest

import kibitz
from kibitz import book as kbook
from kibitz.book import Book, add_line, build_repertoire, decode_move, encode_move

DATA = Path(__file__).resolve().parents[1] / "data"
GAMES = DATA / "book_games.pgn"


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kibitz", *args], capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def built_book(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("book") / "games.bin"
    r = run_cli("book", "build", str(GAMES), "-o", str(out), "--max-plies", "16")
    assert r.returncode == 0, r.stderr
    assert "entries" in r.stdout
    return out


def reference_weights(pgn_path: Path, max_plies: int, min_games: int = 1) -> dict:
    """{(zobrist key, uci): weight} computed independently with python-chess."""
    counts: dict = collections.defaultdict(lambda: [0, 0])
    with open(pgn_path) as f:
        while (game := chess.pgn.read_game(f)) is not None:
            board = game.board()
            result = game.headers.get("Result", "*")
            for ply, move in enumerate(game.mainline_moves()):
                if ply >= max_plies:
                    break
                key = chess.polyglot.zobrist_hash(board)
                mover_white = board.turn == chess.WHITE
                w = 1 if result == "1/2-1/2" else 2 if result == ("1-0" if mover_white else "0-1") else 0
                c = counts[(key, move.uci())]
                c[0] += 1
                c[1] += w
                board.push(move)
    return {k: w for k, (n, w) in counts.items() if n >= min_games and w > 0}


def all_reference_positions(pgn_path: Path, max_plies: int):
    with open(pgn_path) as f:
        while (game := chess.pgn.read_game(f)) is not None:
            board = game.board()
            for ply, move in enumerate(game.mainline_moves()):
                if ply > max_plies:
                    break
                yield board.copy()
                board.push(move)
            yield board.copy()


def test_book_weights_match_independent_count(built_book):
    expected = reference_weights(GAMES, 16)
    got = {}
    with chess.polyglot.open_reader(built_book) as reader:
        for e in reader:
            board_key = e.key
            got[(board_key, e.raw_move)] = e.weight
        # every expected (key, move) is in the book with its weight, read by python-chess
        for board in all_reference_positions(GAMES, 16):
            key = chess.polyglot.zobrist_hash(board)
            listed = {e.move.uci(): e.weight for e in reader.find_all(board)}
            for (k, uci), w in expected.items():
                if k == key:
                    assert listed.get(uci) == w, (board.fen(), uci)
            assert len(listed) == sum(1 for (k, _u) in expected if k == key)
    assert len(got) == len(expected)


def test_reader_matches_python_chess(built_book):
    ours = Book.open(built_book)
    positions = 0
    with chess.polyglot.open_reader(built_book) as reader:
        for board in all_reference_positions(GAMES, 17):
            kb = kibitz.Board(board.fen())
            assert kb.polyglot_key() == chess.polyglot.zobrist_hash(board)
            theirs = [(e.move.uci(), e.weight, e.learn) for e in reader.find_all(board)]
            mine = [(e.move, e.weight, e.learn) for e in ours.entries(kb)]
            assert mine == theirs, board.fen()
            positions += 1
    assert positions > 1000


def test_castling_read_as_king_takes_rook(built_book):
    # The FEN game in book_games.pgn starts with 1. O-O-O O-O-O.
    fen = "r3k2r/pppqbppp/2np1n2/4p3/4P3/2NP1N2/PPPQBPPP/R3K2R w KQkq - 0 1"
    with open(built_book, "rb") as f:
        data = f.read()
    b = kibitz.Board(fen)
    raws = [raw for _, raw, _, _ in Book(data).raw_entries(b.polyglot_key())]
    assert raws == [encode_move(b, "e1c1")]
    assert decode_move(None, raws[0]) == "e1a1"  # the file holds king-takes-rook
    assert [e.move for e in Book(data).entries(b)] == ["e1c1"]
    # In Chess960 mode the same entry is the king-takes-rook move.
    b960 = kibitz.Board(fen, chess960=True)
    assert [e.move for e in Book(data).entries(b960)] == ["e1a1"]
    # python-chess agrees
    with chess.polyglot.open_reader(built_book) as reader:
        assert [e.move.uci() for e in reader.find_all(chess.Board(fen))] == ["e1c1"]


def write_raw(path: Path, rows) -> None:
    rows = sorted(rows)
    path.write_bytes(b"".join(struct.pack(">QHHI", *r) for r in rows))


def test_illegal_and_zero_weight_entries_skipped(tmp_path):
    start = kibitz.Board()
    key = start.polyglot_key()
    e2e4 = encode_move(start, "e2e4")
    e2e5 = encode_move(start, "e2e5")  # illegal
    d2d4 = encode_move(start, "d2d4")
    e1h1 = encode_move(start, "e1g1")  # castling, not legal in the start position
    other_key = kibitz.Board("8/8/8/8/8/8/8/K1k5 w - - 0 1").polyglot_key()
    rows = [(key, e2e4, 5, 0), (key, e2e5, 7, 0), (key, d2d4, 0, 0), (key, e1h1, 3, 0), (other_key, e2e4, 1, 0)]
    p = tmp_path / "raw.bin"
    write_raw(p, rows)
    ours = Book.open(p)
    assert [(e.move, e.weight) for e in ours.entries(start)] == [("e2e4", 5)]
    assert [(e.move, e.weight) for e in ours.entries(start, minimum_weight=0)] == [("e2e4", 5), ("d2d4", 0)] or sorted(
        (e.move, e.weight) for e in ours.entries(start, minimum_weight=0)
    ) == [("d2d4", 0), ("e2e4", 5)]
    with chess.polyglot.open_reader(p) as reader:
        theirs = [(e.move.uci(), e.weight) for e in reader.find_all(chess.Board())]
        assert theirs == [(e.move, e.weight) for e in ours.entries(start)]
        theirs0 = [(e.move.uci(), e.weight) for e in reader.find_all(chess.Board(), minimum_weight=0)]
        assert theirs0 == [(e.move, e.weight) for e in ours.entries(start, minimum_weight=0)]


def test_promotion_encoding_round_trip(tmp_path):
    fen = "8/1P6/8/8/8/8/6k1/K7 w - - 0 1"
    b = kibitz.Board(fen)
    table = {
        b.polyglot_key(): {encode_move(b, m): (i + 1, 0) for i, m in enumerate(["b7b8q", "b7b8n", "b7b8r", "b7b8b"])}
    }
    p = tmp_path / "promo.bin"
    p.write_bytes(kbook.write_book(table))
    with chess.polyglot.open_reader(p) as reader:
        theirs = sorted((e.move.uci(), e.weight) for e in reader.find_all(chess.Board(fen)))
    mine = sorted((e.move, e.weight) for e in Book.open(p).entries(b))
    assert mine == theirs == [("b7b8b", 4), ("b7b8n", 2), ("b7b8q", 1), ("b7b8r", 3)]


def test_bad_book_file(tmp_path):
    p = tmp_path / "bad.bin"
    p.write_bytes(b"12345")
    with pytest.raises(kbook.BookError, match="not a Polyglot book"):
        Book.open(p)
    with pytest.raises(kbook.BookError, match="cannot read"):
        Book.open(tmp_path / "missing.bin")


def test_weighted_choice_is_seedable_and_follows_weights():
    b = Book.default()
    start = kibitz.Board()
    seq1 = [b.pick(start, rng=random.Random(7)) for _ in range(5)]
    seq2 = [b.pick(start, rng=random.Random(7)) for _ in range(5)]
    assert seq1 == seq2
    rng = random.Random(11)
    n = 4000
    counts = collections.Counter(b.weighted_choice(start, rng).move for _ in range(n))
    entries = b.entries(start)
    total = sum(e.weight for e in entries)
    for e in entries:
        expected = n * e.weight / total
        # 5 standard deviations of a binomial count: fails by chance about once in 10^6 runs
        sd = (n * (e.weight / total) * (1 - e.weight / total)) ** 0.5
        assert abs(counts[e.move] - expected) <= 5 * sd + 1, (e.move, counts[e.move], expected)
    assert b.pick(start, best=True) == max(entries, key=lambda e: e.weight).move


def test_default_book_rebuilds_to_the_same_bytes():
    assert build_repertoire(kbook.DEFAULT_REPERTOIRE) == kbook.DEFAULT_BOOK.read_bytes()


def test_default_book_is_read_by_python_chess_and_deep_enough():
    """Walk the whole built-in book with python-chess: every entry legal, lines reach
    at least 10 plies, and both readers agree everywhere."""
    ours = Book.default()
    seen = set()
    max_ply = 0
    with chess.polyglot.open_reader(kbook.DEFAULT_BOOK) as reader:
        assert len(reader) == len(ours)
        stack = [chess.Board()]
        while stack:
            cb = stack.pop()
            key = chess.polyglot.zobrist_hash(cb)
            if key in seen:
                continue
            seen.add(key)
            max_ply = max(max_ply, cb.ply())
            theirs = [(e.move.uci(), e.weight) for e in reader.find_all(cb)]
            assert theirs == [(e.move, e.weight) for e in ours.entries(kibitz.Board(cb.fen()))]
            for uci, _ in theirs:
                nb = cb.copy()
                nb.push_uci(uci)
                stack.append(nb)
        # every entry of the file is reachable from the start position
        all_keys = {e.key for e in reader}
    assert all_keys <= seen
    assert max_ply >= 16
    assert len(seen) > 500


def test_pgn_games_read_for_a_book_match_python_chess():
    ours = list(kbook.read_pgn_file(GAMES))
    f = io.StringIO(GAMES.read_text())
    theirs = []
    while (g := chess.pgn.read_game(f)) is not None:
        b = g.board()
        moves = []
        for m in g.mainline_moves():
            moves.append(b.uci(m))
            b.push(m)
        theirs.append((dict(g.headers).get("Result"), moves))
    assert len(ours) == len(theirs) > 100
    for g, (res, moves) in zip(ours, theirs):
        assert g.result == res
        assert g.moves == moves
        assert g.error is None


def test_min_games_and_max_plies(tmp_path):
    out = tmp_path / "min.bin"
    r = run_cli("book", "build", str(GAMES), "-o", str(out), "--max-plies", "4", "--min-games", "5")
    assert r.returncode == 0, r.stderr
    expected = reference_weights(GAMES, 4, min_games=5)
    with chess.polyglot.open_reader(out) as reader:
        assert len(reader) == len(expected)
        for board in all_reference_positions(GAMES, 4):
            key = chess.polyglot.zobrist_hash(board)
            listed = {e.move.uci(): e.weight for e in reader.find_all(board)}
            assert listed == {u: w for (k, u), w in expected.items() if k == key}


def test_book_add_and_show(tmp_path):
    p = tmp_path / "mine.bin"
    r = run_cli("book", "add", str(p), "e4", "c5", "Nf3", "d6", "--weight", "3")
    assert r.returncode == 0, r.stderr
    r = run_cli("book", "add", str(p), "e2e4", "e7e5", "g1f3")
    assert r.returncode == 0, r.stderr
    with chess.polyglot.open_reader(p) as reader:
        b = chess.Board()
        assert [(e.move.uci(), e.weight) for e in reader.find_all(b)] == [("e2e4", 4)]
        b.push_uci("e2e4")
        assert sorted((e.move.uci(), e.weight) for e in reader.find_all(b)) == [("c7c5", 3), ("e7e5", 1)]
    r = run_cli("book", "show", "--book", str(p), "--moves", "e4")
    assert r.returncode == 0, r.stderr
    assert "c5" in r.stdout and "c7c5" in r.stdout and "weight     3" in r.stdout
    r = run_cli("book", "add", str(p), "e4", "e4")
    assert r.returncode == 2 and "illegal" in r.stderr.lower()
    # the failed add left the book as it was
    with chess.polyglot.open_reader(p) as reader:
        assert len(reader) == 6


def test_book_show_default_and_fen():
    r = run_cli("book", "show")
    assert r.returncode == 0
    assert "e2e4" in r.stdout and "d2d4" in r.stdout
    r = run_cli("book", "show", "8/8/8/8/8/8/8/K1k5", "w", "-", "-", "0", "1")
    assert r.returncode == 0 and "no book moves" in r.stdout
    r = run_cli("book", "show", "not", "a", "fen")
    assert r.returncode == 2 and "kibitz book show" in r.stderr


def test_add_line_chess960_castling():
    fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    data = add_line(b"", ["e1h1"], fen=fen, chess960=True)
    b = kibitz.Board(fen)
    assert [e.move for e in Book(data).entries(b)] == ["e1g1"]
    data2 = add_line(b"", ["O-O"], fen=fen)
    assert data == data2


def test_book_build_prints_text_from_the_pgn_escaped(tmp_path):
    """A move token holding a terminal escape (ESC c resets a terminal) is printed as its
    escape, never raw."""
    src = tmp_path / "evil.pgn"
    src.write_bytes(b'[Event "x"]\n\n1. e4 \x1bc\x07 *\n')
    p = subprocess.run(
        [sys.executable, "-m", "kibitz", "book", "build", str(src), "-o", str(tmp_path / "b.bin")],
        capture_output=True,
        timeout=120,
    )
    err = p.stderr.decode()
    # The game has no result, so no move weighs anything: no book (exit 1), said so.
    assert p.returncode == 1 and "no book entries" in err and "--no-results" in err, err
    assert not (tmp_path / "b.bin").exists()
    assert "\x1b" not in err and "\x07" not in err
    assert "\\u{1b}c\\u{7}" in err  # the PGN reader's escape of the token


def test_book_build_reads_lone_cr_and_windows_1252_files_as_python_chess_does(tmp_path):
    text = (DATA / "book_games.pgn").read_bytes().replace(b"\n", b"\r")
    text = text.replace(b'[Event "test 1"]', b'[Event "M\xfcller"]')
    games = list(kbook.read_pgn_file(_write(tmp_path / "cr.pgn", text)))
    handle = io.TextIOWrapper(io.BytesIO(text), encoding="cp1252", newline=None)
    ref = []
    while (g := chess.pgn.read_game(handle)) is not None:
        ref.append(g)
    assert len(games) == len(ref) > 100
    assert [len(g.moves) for g in games] == [len(list(r.mainline_moves())) for r in ref]
    assert games[0].headers["Event"] == "Müller"


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


# Chess960 position 192 (Scharnagl numbering): the king on f1 with only a knight between it
# and the h-file rook, so both sides can castle short on move 2.
CHESS960_192 = "bbqnrknr/pppppppp/8/8/8/8/PPPPPPPP/BBQNRKNR w HEhe - 0 1"
CHESS960_LINE = ["Nf3", "Nf6", "O-O", "O-O", "d4", "d5"]


@pytest.mark.parametrize(
    "variant",
    ["Chess960", "chess 960", "Fischerandom", "FischerRandom", "Fischer Random", "Fischer Random Chess", "Chess-960"],
)
def test_book_build_reads_every_name_of_chess960(tmp_path, variant):
    """Every Variant tag the PGN reader (and ``kibitz analyse``) takes as Chess960 builds a
    Chess960 book: castling kept, the line not cut; compared with python-chess's replay."""
    movetext = " ".join(f"{i // 2 + 1}. {san}" if i % 2 == 0 else san for i, san in enumerate(CHESS960_LINE))
    pgn = tmp_path / "games.pgn"
    pgn.write_text(
        f'[Event "?"]\n[Variant "{variant}"]\n[SetUp "1"]\n[FEN "{CHESS960_192}"]\n'
        f'[Result "1/2-1/2"]\n\n{movetext} 1/2-1/2\n'
    )
    out = tmp_path / "book.bin"
    r = run_cli("book", "build", str(pgn), "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""  # no move refused, no game cut
    board = chess.Board(CHESS960_192, chess960=True)
    expected = set()
    for san in CHESS960_LINE:
        move = board.parse_san(san)
        expected.add((chess.polyglot.zobrist_hash(board), board.uci(move)))  # castling: king takes rook
        board.push(move)
    with chess.polyglot.open_reader(out) as reader:
        assert {(e.key, e.move.uci()) for e in reader} == expected
    assert ("O-O" in CHESS960_LINE) and any(uci in ("f1h1", "f8h8") for _, uci in expected)


def documented_command(marker: str) -> list[str]:
    """The ``kibitz ...`` command of docs/cli.md's console line that contains ``marker``."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "cli.md").read_text()
    lines = [line for line in doc.splitlines() if line.startswith("$ kibitz ") and marker in line]
    assert len(lines) == 1, lines
    return shlex.split(lines[0][2:].split("#")[0])[1:]


def test_the_documented_book_rebuild_gives_the_shipped_book(tmp_path):
    """docs/cli.md's command rebuilds the shipped book byte for byte, and writes outside the
    package (a relative output path, here in a temporary directory)."""
    root = Path(__file__).resolve().parents[2]
    args = documented_command("repertoire.txt")
    source = args[args.index("build") + 1]
    output = args[args.index("-o") + 1]
    assert not Path(output).is_absolute() and "python/kibitz" not in output, output
    # The documented source is the repertoire the package ships (installed editable or not).
    assert (root / source).read_bytes() == kbook.DEFAULT_REPERTOIRE.read_bytes()
    args[args.index("build") + 1] = str(root / source)
    r = subprocess.run(
        [sys.executable, "-m", "kibitz", *args], capture_output=True, text=True, timeout=120, cwd=tmp_path
    )
    assert r.returncode == 0, r.stderr
    built = (tmp_path / output).read_bytes()
    shipped = kbook.DEFAULT_BOOK.read_bytes()
    assert len(built) // 16 == len(shipped) // 16
    assert built == shipped


def test_book_build_with_no_entries_writes_nothing_and_says_why(tmp_path):
    bad = tmp_path / "bad.pgn"
    bad.write_text('[FEN "not a fen"]\n[Result "1-0"]\n\n1. e4 1-0\n')
    out = tmp_path / "b.bin"
    p = subprocess.run(
        [sys.executable, "-m", "kibitz", "book", "build", str(bad), "-o", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert p.returncode == 1 and "no game could be read" in p.stderr, p.stderr
    assert not out.exists()
