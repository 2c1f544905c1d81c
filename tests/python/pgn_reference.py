"""Helpers for the kibitz.pgn tests: a generated PGN corpus written by python-chess's own
exporter, and comparisons of a kibitz game with python-chess's reading of the same text.

Nothing here compares kibitz with itself: every expectation comes from ``chess.pgn``.
"""

from __future__ import annotations

import io
import logging
import random
from typing import Any, Optional

import chess
import chess.engine
import chess.pgn

import kibitz.pgn

# Both libraries log every error they collect; the tests read the errors from game.errors.
logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)
logging.getLogger("kibitz.pgn").setLevel(logging.CRITICAL)

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
    if any(str(e).startswith("null move in check") for e in ours.errors):
        # Documented: python-chess plays a null move in check, kibitz reports it.
        return
    if kibitz_refuses_start(theirs):
        # Documented: a position python-chess takes but kibitz.Board refuses (too many
        # pieces, no king, ...) is reported and the movetext skipped.
        assert len(ours.errors) <= 1 and all(isinstance(e, ValueError) for e in ours.errors)
        assert not ours.variations
        return
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


def kibitz_refuses_start(game: chess.pgn.Game) -> bool:
    try:
        game.board()
    except ValueError:
        return False
    return kibitz_cannot_play(game.headers)


def kibitz_cannot_play(headers: Any) -> bool:
    """The game's start position is one kibitz.Board holds but its move generator cannot
    (no king, a pawn on a back rank, the side not to move in check...): kibitz reports the
    first move as an error (InvalidPositionError) where python-chess plays on."""
    try:
        board = kibitz.pgn.Headers(headers).board()
    except ValueError:
        return True
    return board._unplayable is not None


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
