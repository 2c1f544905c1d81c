"""Helpers for the kibitz.pgn tests: a generated PGN corpus written by python-chess's own
exporter, broken and mutated PGN text, the benchmarks' annotated database, and comparisons
of a kibitz game with python-chess's reading of the same text.

Nothing here compares kibitz with itself: every expectation comes from ``chess.pgn``.
"""

from __future__ import annotations

import io
import logging
import random
import sys
from pathlib import Path
from typing import Any, Optional

import chess
import chess.engine
import chess.pgn
from hypothesis import HealthCheck, settings

import kibitz.pgn

# Both libraries log every error they collect; the tests read the errors from game.errors.
logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)
logging.getLogger("kibitz.pgn").setLevel(logging.CRITICAL)

ROOT = Path(__file__).resolve().parents[2]
# The PGN files of the test data, each read by both libraries.
DATA_FILES = sorted((ROOT / "tests" / "data").glob("*.pgn"))
SLOW = "--runslow" in sys.argv


def examples(n: int) -> settings:
    """Hypothesis settings for n examples (ten times as many with ``--runslow``)."""
    return settings(
        max_examples=n * 10 if SLOW else n,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


WORDS = ["good", "bad", "idea", "only move", "{nested?", "tricky;", "(paren", "line\nbreak", "end", "%", "$5", "e4"]


def random_comment(rng: random.Random) -> str:
    text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 4)))
    if rng.random() < 0.15:
        text = "  " + text + " "
    return text


def annotate(node: chess.pgn.ChildNode, rng: random.Random) -> None:
    """Random comments, NAGs and [%clk]/[%eval]/[%emt]/[%cal] annotations on a node."""
    r = rng.random()
    if r < 0.25:
        node.comment = random_comment(rng)
    if rng.random() < 0.15:
        node.set_clock(rng.choice([0, 1.5, 59.9, 61, 3600 * 2 + 5.25, rng.uniform(0, 10000)]))
    if rng.random() < 0.1:
        score = rng.choice([chess.engine.Cp(rng.randint(-900, 900)), chess.engine.Mate(rng.randint(-5, 5))])
        node.set_eval(chess.engine.PovScore(score, chess.WHITE), rng.choice([None, rng.randint(0, 30)]))
    if rng.random() < 0.05:
        node.set_emt(rng.uniform(0, 300))
    if rng.random() < 0.05:
        node.set_arrows([(rng.randrange(64), rng.randrange(64)) for _ in range(rng.randint(1, 3))])
    if rng.random() < 0.15:
        node.nags.update(rng.sample([1, 2, 3, 4, 5, 6, 10, 14, 18, 146, 255], rng.randint(1, 2)))


def random_start(rng: random.Random) -> chess.Board:
    r = rng.random()
    if r < 0.15:
        return chess.Board.from_chess960_pos(rng.randrange(960))
    board = chess.Board()
    if r < 0.3:
        # A set-up position: a few random moves in, played out of the record.
        for _ in range(rng.randint(1, 12)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        return chess.Board(board.fen())
    return board


def grow(node: chess.pgn.GameNode, board: chess.Board, rng: random.Random, plies: int, depth: int) -> None:
    """A random line of ``plies`` moves from node, with nested variations and null moves."""
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            return
        if depth < 3 and rng.random() < 0.12 and len(moves) > 1:
            alts = rng.sample(moves, min(len(moves), rng.randint(2, 3)))
        else:
            alts = [rng.choice(moves)]
        if rng.random() < 0.02 and not board.is_check():
            alts = [chess.Move.null()]
        main = node.add_variation(alts[0])
        annotate(main, rng)
        for alt in alts[1:]:
            side = node.add_variation(alt)
            if rng.random() < 0.2:
                side.starting_comment = random_comment(rng)
            annotate(side, rng)
            side_board = board.copy()
            side_board.push(alt)
            grow(side, side_board, rng, rng.randint(0, 6), depth + 1)
        board.push(alts[0])
        node = main


def random_game(rng: random.Random, max_plies: int = 60) -> chess.pgn.Game:
    start = random_start(rng)
    game = chess.pgn.Game()
    game.setup(start)
    game.headers["Event"] = rng.choice(["?", "Test", "Club \\ match", "Open 2024"])
    game.headers["White"] = rng.choice(["?", "Alice", "Bob, Jr."])
    if rng.random() < 0.3:
        game.headers["WhiteElo"] = str(rng.randint(1000, 2800))
    if rng.random() < 0.2:
        game.comment = random_comment(rng)
    grow(game, start.copy(), rng, rng.randint(0, max_plies), 0)
    end = game.end().board()
    game.headers["Result"] = rng.choice([end.result(), "*", "1-0", "0-1", "1/2-1/2"])
    return game


def corpus(seed: int, n: int) -> str:
    """n random games, written by python-chess, as one PGN file."""
    rng = random.Random(seed)
    out = io.StringIO()
    for _ in range(n):
        exporter = chess.pgn.FileExporter(out, columns=rng.choice([80, 80, 40, None]))
        random_game(rng).accept(exporter)
    return out.getvalue()


# --- comparisons ---------------------------------------------------------------------------


def error_key(error: Exception) -> tuple[str, str]:
    """Move errors compare by class and message; other errors (bad FENs) by being ValueErrors."""
    name = type(error).__name__
    if name in ("IllegalMoveError", "AmbiguousMoveError", "InvalidMoveError"):
        return name, str(error)
    if str(error).startswith("unsupported variant"):
        return "variant", ""
    return "ValueError" if isinstance(error, ValueError) else name, ""


def tree(node: Any) -> list[Any]:
    """The subtree below a node (either library) as nested lists of plain values."""
    out = []
    stack = [(node, out)]
    while stack:
        parent, sink = stack.pop()
        for child in parent.variations:
            entry: list[Any] = [child.move.uci(), child.comment, child.starting_comment, sorted(child.nags), []]
            sink.append(entry)
            stack.append((child, entry[4]))
    return out


def assert_same_game(ours: Optional[kibitz.pgn.Game], theirs: Optional[chess.pgn.Game]) -> None:
    if theirs is None:
        assert ours is None
        return
    assert ours is not None
    assert list(ours.headers.items()) == list(theirs.headers.items())
    assert [error_key(e) for e in ours.errors] == [error_key(e) for e in theirs.errors]
    assert ours.comment == theirs.comment
    assert [m.uci() for m in ours.mainline_moves()] == [m.uci() for m in theirs.mainline_moves()]
    assert tree(ours) == tree(theirs)
    if not consistent(theirs):
        # python-chess's reader put moves under the wrong node (after an illegal move in a
        # variation); python-chess writes SAN for the illegal moves, kibitz refuses to.
        assert outcome(lambda: str(ours))[0] == "failed"
        return
    assert outcome(lambda: str(ours)) == outcome(lambda: str(theirs))
    assert outcome(lambda: ours.accept(kibitz.pgn.StringExporter())) == outcome(
        lambda: theirs.accept(chess.pgn.StringExporter())
    )


def consistent(game: chess.pgn.Game) -> bool:
    """Every move of the tree is legal (or null) where it stands."""
    try:
        start = game.board()
    except ValueError:
        return True
    stack = [(game, start)]
    while stack:
        node, board = stack.pop()
        for child in node.variations:
            if child.move and not board.is_legal(child.move):
                return False
            after = board.copy(stack=False)
            after.push(child.move)
            stack.append((child, after))
    return True


def outcome(f: Any) -> tuple[str, Any]:
    """f's value, or that it failed. A game whose FEN tag is bad cannot be written (ValueError);
    nor can one where python-chess's reader attached moves to the wrong node after an illegal
    move in a variation (python-chess: AssertionError; kibitz: ValueError)."""
    try:
        return "value", f()
    except (ValueError, AssertionError):
        return "failed", None


def python_chess_games(text: str) -> list[chess.pgn.Game]:
    """Every game of the text as python-chess's ``read_game`` reads them."""
    f = io.StringIO(text)
    games = []
    while (g := chess.pgn.read_game(f)) is not None:
        games.append(g)
    return games


def read_all(text: str) -> list[tuple[Optional[kibitz.pgn.Game], Optional[chess.pgn.Game]]]:
    """Every game of the text read by both libraries, side by side (a None pair ends it)."""
    ours, theirs = io.StringIO(text), io.StringIO(text)
    pairs = []
    for _ in range(10_000):
        a = kibitz.pgn.read_game(ours)
        try:
            b = chess.pgn.read_game(theirs)
        except IndexError:
            # python-chess's GameBuilder ran out of nodes (more variations ended than begun,
            # after an illegal move); kibitz reads on. Nothing further to compare.
            break
        pairs.append((a, b))
        if a is None or b is None:
            break
        assert ours.tell() == theirs.tell()
    return pairs


def assert_same_reading(text: str) -> int:
    """Both libraries read the same games from the text; returns the number of games."""
    pairs = read_all(text)
    for ours, theirs in pairs:
        assert_same_game(ours, theirs)
    return len(pairs) - 1


# Broken input (tags, comments and variations left open or closed twice, illegal and odd
# moves, positions and variants kibitz cannot play, junk between games): read by both
# libraries, by whole games and by visitors that look only at moves.
BROKEN = [
    "",
    "\n\n\n",
    "1. e4 e5 2. Nf3",
    '[Event "x"]',
    '[Event "x"]\n[Site "y"\n1. e4 *',
    '[Event "unterminated\n1. e4 *\n',
    '1. e4 { unterminated comment\n2. d4 *\n\n[Event "next"]\n\n1. d4 *',
    "1. e4 e5 ( 1... Qh4 2. Qh5 ( 2. Kxe8 3. d4 ) 2... Ke7 ) 2. Nf3 *",
    "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O-O *",
    "1. e4 e5 2. Ke2 Ke7 3. Ke1 Ke8 4. O-O *",
    "1. e4 ) ) ( 1. d4 ( ( e5 *",
    "( 1. e4 ) 1. d4 *",
    "1. e4 e5 )( 2. Nf3 *",
    'garbage here\n1. e4 *\n\nmore garbage %$#\n\n[Event "ok"]\n1. d4 d5 *\n',
    '%escaped line\n; comment line\n[Event "a"]\n%x\n1. e4 ; rest\n2. d4 *',
    '\ufeff[Event "bom"]\n\n1. e4 e5 *\n',
    '[Event "crlf"]\r\n[Site "s"]\r\n\r\n1. e4 { a\r\ncomment } e5 *\r\n\r\n1. d4 *\r\n',
    '[FEN "not a fen"]\n\n1. e4 *\n\n1. d4 *',
    '[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]\n[SetUp "1"]\n\n1. e4 *',
    '[Variant "NoSuchVariant"]\n\n1. e4 *',
    '[Variant "Chess960"]\n[FEN "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"]\n\n'
    "9. g3 O-O 10. O-O *",
    '[Variant "wild/0"]\n\n1. e4 *',
    "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O f6 6. d4 exd4 7. Nxd4 c5 8. Nb3 Qxd1 9. Rxd1 *",
    "1. e4 $1 $2 !? ?! !! ?? ! ? $300 e5 *",
    "1. -- e5 2. Z0 d5 3. 0000 Nc6 4. @@@@ *",
    "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0 2. d4",
    "1. e4 1-0 e5 0-1 *",
    "1. e4 e5 ( 1-0 ) *",
    "1. e4 e5 ( * e6 ) 2. d4 *",
    "1. e2e4 e7e5 2. Ng1f3 Nb8-c6 3. f1c4 *",
    "1. e4 d5 2. exd5 3. xd5 *",
    "1. e4 d5 2. d5 exd5 *",
    '[FEN "6Q1/8/1k6/1Bp5/2Pn1N2/P1P5/5K2/8 w - - 1 60"]\n\n60. d4 cxd4 61. cxd4 *',
    '[FEN "8/4P3/8/8/8/k7/8/K7 w - - 0 1"]\n\n1. e8 ( 1. e8q ) ( 1. e7e8 ) ( 1. e7e8q ) ( 1. e8=K ) 1. e8Q *',
    '[FEN "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"]\n\n1. e1h1 ( 1. e1c1 ) ( 1. Ke1g1 ) ( 1. e1f1 ) 1... O-O-O *',
    "1. e4 e5 2. d4 exd4 3. c3 dxc3 4. b3 cxb2 5. Bc4 bxa1=Q 6. Qh5 *",
    "1. e4 e5 2. d4 exd4 3. c3 dxc3 4. b3 cxb2 5. Bc4 bxa1Q 6. Qh5 *",
    "1. e4 e5 2. d4 exd4 3. c3 dxc3 4. b3 cxb2 5. Bc4 b2a1 *",
    "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. e1g1 *",
    "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. Ke1g1 *",
    "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. Ke1h1 *",
    "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. Kg1 *",
    "1. Nc3 d5 2. Nf3 d4 3. Ne4 e5 4. Ng5 Nd7 5. Nd2 *",
    "1. e4 e5 2. N@f3 *",
    "1. e4 e5 2. e8=K *",
    "1. e4 {}{}{ } { x }} e5 *",
    "{ before } { more } 1. e4 *",
    "1. e4 e5 ( { start } 1... d5 { after } ) ( { only a comment } ) *",
    '[Event "a"]\n\n\n[Site "b"]\n1. e4 *',
    '[Event "a"]\n\n[Site "b"]\n\n1. e4 *',
    '[Result "1-0"]\n\n1. e4 0-1',
    '[White "x" ]  \n[Black\t"y"]\n[bad tag]\n[Bad.Tag "z"]\n\n1. e4 *',
    "1. e4\n\n1. d4\n\n\n\n1. c4",
    "1. e4 e5 2. Nf3 ( 2. Nc3 ( 2. Bc4 ( 2. d4 ) ) ) 2... Nc6 *",
    "1. e4 e5 2. Nf3 Nc6 ( 2... d6 3. d4 ( 3. Bc4 Be7 ( 3... Nf6 ) ) ) 3. Bb5 *",
    "1. f3 e5 2. g4 Qh4# 3. a3 *",
    "1. e4 e5 ( 1... c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 6. Bg5 e6 7. f4 Qb6 8. Qd2 Qxb2 9. Rb1 Qa3 ) *",
]


def mutated_corpus(seed: int, edits: list[tuple[float, int, str]]) -> str:
    """A corpus of one or two games with the edits applied: (where, kind, char), kind 0
    deletes the character there, 1 inserts `char`, 2 replaces with it, 3 truncates."""
    rng = random.Random(seed)
    text = corpus(seed, rng.randint(1, 2))
    for where, kind, char in edits:
        i = int(where * len(text))
        if kind == 0:
            text = text[:i] + text[i + 1 :]
        elif kind == 1:
            text = text[:i] + char + text[i:]
        elif kind == 2:
            text = text[:i] + char + text[i + 1 :]
        else:
            text = text[:i]
    return text


MUTATION_ALPHABET = list('{}()[]";%$!?*-+#=/\n\r\t 0123456789abcdefghNBRQKOxZ@\ufeff')


def database_text(n: int, seed: int) -> str:
    """n games of the benchmarks' annotated database (benches/annotated_games.py)."""
    sys.path.insert(0, str(ROOT / "benches"))
    from annotated_games import games

    out = io.StringIO()
    exporter = chess.pgn.FileExporter(out)
    for game in games(n, seed=seed):
        game.accept(exporter)
    return out.getvalue()
