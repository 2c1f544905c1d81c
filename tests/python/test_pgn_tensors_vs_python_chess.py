"""Training data (``kibitz.pgn_to_tensors``) against python-chess on generated files in the
shapes real game collections have, mutated the ways real files are broken: every game
python-chess reads with a result must be there, with as many positions and the same moves,
move indexes, result labels and planes; every other game is counted skipped.

The shapes: lichess (clocks in comments, the whole movetext on one line), chess.com (clock
comments, wrapped lines), ChessBase (NAGs, glyphs, variations, comments, wrapped at 80
columns, Windows paths in tags) and TCEC (a long engine comment after every move). The
mutations: quotes left unescaped in tag values, result tokens missing or contradicting the
Result tag, Result tags missing or ``*``, null moves (``--``, ``Z0``, ``0000``, ``@@@@``),
FEN set-ups (castling rights without their rook, en-passant squares no pawn crossed, an
empty board without moves), CR LF or lone CR line ends, a byte-order mark, a last game the
file ends in without its result token.

Every expectation comes from ``chess.pgn.read_game``; nothing compares kibitz with itself.
What kibitz documents it does otherwise (docs/python-chess.md, docs/pgn.md) is not made: a
null move in check, an en-passant square no pawn crossed where python-chess would capture.
"""

from __future__ import annotations

import io
import logging
import random
from dataclasses import dataclass, field
from typing import Optional

import chess
import chess.pgn
import numpy as np
from fuzzing import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from planes_reference import canonical_reference, reference_planes

from kibitz import pgn_to_tensors
from kibitz._core import PgnReader
from kibitz.tensor import move_index

logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)  # python-chess logs every error it collects

RESULTS = {"1-0": 1, "0-1": -1, "1/2-1/2": 0}
NULL_TOKENS = ["--", "Z0", "0000", "@@@@"]
NAMES = ["Carlsen, Magnus", "Nakamura, Hikaru", "DrNykterstein", "penguingim1", "Stockfish 16", "Lc0 v0.30"]
# Tag values with a quote nobody escaped, as real files have them (python-chess reads them).
UNESCAPED = ['Say "hi" there', 'O"Kelly, Conel', '"Bullet" Arena', 'Open "A"', 'The "Immortal" game']


@dataclass
class Shape:
    """One game as written: its tags, its movetext tokens, where the tokens are wrapped."""

    tags: list[tuple[str, str]]
    tokens: list[str] = field(default_factory=list)
    columns: Optional[int] = None  # None: the whole movetext on one line

    def text(self) -> str:
        lines = [f'[{name} "{value}"]' for name, value in self.tags]
        head = "\n".join(lines) + ("\n\n" if lines else "")
        if self.columns is None:
            return head + " ".join(self.tokens) + "\n"
        out, line = [], ""
        for token in self.tokens:
            if line and len(line) + 1 + len(token) > self.columns:
                out.append(line)
                line = token
            else:
                line = f"{line} {token}" if line else token
        out.append(line)
        return head + "\n".join(out) + "\n"


def clock(rng: random.Random) -> str:
    seconds = rng.uniform(0, 600)
    return f"{int(seconds // 3600)}:{int(seconds // 60 % 60):02d}:{seconds % 60:04.1f}"


def start_fen(rng: random.Random) -> Optional[str]:
    """A set-up's FEN as written: a position some moves in, perhaps with castling rights
    without their rook or an en-passant square no pawn crossed; or None (the start)."""
    if rng.random() < 0.8:
        return None
    board = chess.Board()
    for _ in range(rng.randint(1, 30)):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    if board.is_game_over():
        return None
    fields = board.fen().split()
    if rng.random() < 0.4:
        fields[2] = "KQkq"  # rights the position may not have: python-chess drops those
    if rng.random() < 0.2:
        # No pawn crossed it. Where python-chess would offer a capture there anyway kibitz
        # refuses it (docs/python-chess.md): such squares are not made.
        odd = fields[:3] + [rng.choice(["e3", "d6", "a3", "h6"])] + fields[4:]
        if not chess.Board(" ".join(odd)).has_pseudo_legal_en_passant():
            fields = odd
    if rng.random() < 0.2:
        fields = fields[:4]  # no clocks
    return " ".join(fields)


def play(rng: random.Random, board: chess.Board, plies: int, nulls: bool) -> list[Optional[chess.Move]]:
    """Random legal moves (None for a null move, made never in check)."""
    line: list[Optional[chess.Move]] = []
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        if nulls and rng.random() < 0.05 and not board.is_check():
            board.push(chess.Move.null())
            line.append(None)
            continue
        move = rng.choice(moves)
        board.push(move)
        line.append(move)
    return line


def movetext(rng: random.Random, style: str, board: chess.Board, line: list[Optional[chess.Move]]) -> list[str]:
    """The tokens of a main line in a style, with the style's annotations."""
    tokens: list[str] = []
    for i, move in enumerate(line):
        number = board.fullmove_number
        if board.turn == chess.WHITE:
            tokens.append(f"{number}.")
        elif i == 0 or style in ("lichess", "chesscom") or tokens[-1].endswith((")", "}")):
            tokens.append(f"{number}...")
        if move is None:
            tokens.append(rng.choice(NULL_TOKENS))
            board.push(chess.Move.null())
            continue
        san = board.san(move)
        before = board.copy(stack=False)
        board.push(move)
        if style == "chessbase" and rng.random() < 0.15:
            san += rng.choice(["!", "?", "!?", "?!", "!!"])
        if style == "chessbase" and board.turn == chess.BLACK and rng.random() < 0.3:
            tokens[-1] += san  # "12.Nf3", as some exporters write it
        else:
            tokens.append(san)
        if style == "lichess":
            tokens.append(f"{{ [%clk {clock(rng)}] }}")
        elif style == "chesscom":
            tokens.append(f"{{[%clk {clock(rng)}]}}")
        elif style == "tcec":
            tokens.append(
                f"{{d={rng.randint(1, 60)}, sd={rng.randint(1, 90)}, mt={rng.randint(0, 99999)}, "
                f"tl={rng.randint(0, 9999999)}, s={rng.randint(1, 99999)} kN/s, n={rng.randint(1, 10**9)}, "
                f"pv={before.san(move)}, tb=null, h={rng.uniform(0, 100):.1f}, ph=0.0, "
                f"wv={rng.uniform(-5, 5):.2f}, R50={rng.randint(0, 50)}, Rd=-11, Rr=-1000, mb=+0+0+0+0+0,}}"
            )
        elif style == "chessbase":
            if rng.random() < 0.15:
                tokens.append(f"${rng.choice([1, 2, 3, 6, 14, 15, 16, 18, 19, 36, 146])}")
            if rng.random() < 0.1:
                tokens.append("{" + rng.choice(["A novelty.", "Best (was 12.Nf3)", "with the idea Qh5+", "!?"]) + "}")
            alternatives = [m for m in before.legal_moves if m != move]
            if alternatives and rng.random() < 0.12:
                tokens.extend(variation(rng, before, rng.choice(alternatives)))
    return tokens


def variation(rng: random.Random, board: chess.Board, first: chess.Move) -> list[str]:
    """A side line from ``board`` starting with ``first``, in parentheses."""
    side = board.copy(stack=False)
    dots = "." if side.turn == chess.WHITE else "..."
    tokens = ["(" + f"{side.fullmove_number}{dots}", side.san(first)]
    side.push(first)
    for move in play(rng, side.copy(stack=False), rng.randint(0, 4), nulls=False):
        assert move is not None
        if side.turn == chess.WHITE:
            tokens.append(f"{side.fullmove_number}.")
        tokens.append(side.san(move))
        side.push(move)
    tokens[-1] += ")"
    return tokens


def tags_of(rng: random.Random, style: str, result: str) -> list[tuple[str, str]]:
    white, black = rng.sample(NAMES, 2)
    date = f"20{rng.randint(10, 24)}.{rng.randint(1, 12):02d}.{rng.randint(1, 28):02d}"
    if style == "lichess":
        return [
            ("Event", rng.choice(["Rated Blitz game", "Rated Bullet game", "Casual Rapid game"])),
            ("Site", f"https://lichess.org/{rng.randrange(36**8):08x}"),
            ("Date", date),
            ("Round", "-"),
            ("White", white),
            ("Black", black),
            ("Result", result),
            ("UTCDate", date),
            ("UTCTime", f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:00"),
            ("WhiteElo", str(rng.randint(800, 3200))),
            ("BlackElo", str(rng.randint(800, 3200))),
            ("WhiteRatingDiff", f"+{rng.randint(0, 9)}"),
            ("BlackRatingDiff", f"-{rng.randint(0, 9)}"),
            ("Variant", "Standard"),
            ("TimeControl", rng.choice(["60+0", "180+2", "300+0"])),
            ("ECO", f"{rng.choice('ABCDE')}{rng.randint(0, 99):02d}"),
            ("Termination", rng.choice(["Normal", "Time forfeit"])),
        ]
    if style == "chesscom":
        return [
            ("Event", "Live Chess"),
            ("Site", "Chess.com"),
            ("Date", date),
            ("Round", "-"),
            ("White", white),
            ("Black", black),
            ("Result", result),
            ("Timezone", "UTC"),
            ("ECO", f"{rng.choice('ABCDE')}{rng.randint(0, 99):02d}"),
            ("TimeControl", "600"),
            ("Link", f"https://www.chess.com/game/live/{rng.randint(10**9, 10**10)}"),
        ]
    if style == "chessbase":
        return [
            ("Event", rng.choice(["Tata Steel Masters", "Bundesliga 2023-24", "Olympiad"])),
            ("Site", rng.choice(["Wijk aan Zee NED", "C:\\Games\\", "?"])),
            ("Date", date),
            ("Round", f"{rng.randint(1, 13)}.{rng.randint(1, 8)}"),
            ("White", white),
            ("Black", black),
            ("Result", result),
            ("ECO", f"{rng.choice('ABCDE')}{rng.randint(0, 99):02d}"),
            ("WhiteElo", str(rng.randint(2200, 2850))),
            ("Annotator", rng.choice(["Huzman,A", "ChessBase"])),
            ("EventDate", date),
        ]
    return [
        ("Event", f"TCEC Season {rng.randint(20, 27)} - Superfinal"),
        ("Site", "https://tcec-chess.com"),
        ("Date", date),
        ("Round", f"{rng.randint(1, 100)}.1"),
        ("White", white),
        ("Black", black),
        ("Result", result),
        ("TimeControl", "7200+5"),
        ("Termination", "adjudication"),
    ]


def game_text(rng: random.Random, last: bool) -> str:
    """One game in a random real-world shape, perhaps mutated."""
    style = rng.choice(["lichess", "chesscom", "chessbase", "tcec"])
    fen = start_fen(rng)
    empty = rng.random() < 0.04
    if empty:
        fen = "8/8/8/8/8/8/8/8 w - - 0 1"
    board = chess.Board(fen) if fen else chess.Board()
    line = [] if empty else play(rng, board.copy(), rng.randint(0, 90), nulls=rng.random() < 0.3)
    end = board.copy()
    for move in line:
        end.push(move or chess.Move.null())
    real = end.result(claim_draw=False) if end.is_game_over() else rng.choice(["1-0", "0-1", "1/2-1/2"])
    tag, token = real, real
    r = rng.random()
    if r < 0.12:
        token = "*"  # the file says the game is unfinished, its tag says otherwise
    elif r < 0.22:
        token = ""  # no result token at all
    elif r < 0.3:
        token = rng.choice([t for t in RESULTS if t != real])  # a token contradicting the tag
    elif r < 0.38:
        tag = "*"  # the tag unfinished, the token says how it ended
    elif r < 0.42:
        tag, token = "*", "*"  # unfinished: no result for python-chess either
    shape = Shape(tags_of(rng, style, tag))
    if rng.random() < 0.1:
        shape.tags = [(n, v) for n, v in shape.tags if n != "Result"]
    if rng.random() < 0.25:
        names = [i for i, (n, _) in enumerate(shape.tags) if n in ("Event", "White", "Black")]
        i = rng.choice(names)
        shape.tags[i] = (shape.tags[i][0], rng.choice(UNESCAPED))
    if fen is not None:
        shape.tags += [("SetUp", "1"), ("FEN", fen)]
    shape.tokens = movetext(rng, style, board.copy(), line)
    if token and not (last and rng.random() < 0.3):
        shape.tokens.append(token)
    shape.columns = {"lichess": None, "chesscom": rng.choice([None, 80]), "chessbase": 80, "tcec": 120}[style]
    return shape.text()


def pgn_file(rng: random.Random, games: int) -> bytes:
    texts = [game_text(rng, last=i == games - 1) for i in range(games)]
    text = "\n".join(texts)
    data = text.encode()
    ending = rng.choice([b"\n", b"\n", b"\r\n", b"\r"])
    data = data.replace(b"\n", ending)
    if rng.random() < 0.2:
        data = b"\xef\xbb\xbf" + data
    return data


@dataclass
class Reading:
    """What a file holds for training: per game read with positions, their move indexes,
    results and planes; the number of games in the file and of those skipped."""

    games: dict[int, tuple[list[int], list[int]]]
    planes: dict[int, np.ndarray]
    total: int
    skipped: int


def python_chess_reading(data: bytes, canonical: bool) -> Reading:
    handle = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", newline=None)
    games: dict[int, tuple[list[int], list[int]]] = {}
    planes: dict[int, np.ndarray] = {}
    number = skipped = 0
    while (game := chess.pgn.read_game(handle)) is not None:
        number += 1
        result = RESULTS.get(game.headers.get("Result", "*"))
        if result is None or game.errors:
            skipped += 1
            continue
        board = game.board()
        moves, results, boards = [], [], []
        for move in game.mainline_moves():
            flip = canonical and board.turn == chess.BLACK
            boards.append(canonical_reference(board) if canonical else reference_planes(board))
            moves.append(move_index(board, move, canonical))
            results.append(-result if flip else result)
            board.push(move)
        if moves:
            games[number] = (moves, results)
            planes[number] = np.array(boards, dtype=np.float32).reshape(-1, 18, 8, 8)
    return Reading(games, planes, number, skipped)


def kibitz_reading(data: bytes, canonical: bool, chunk: int) -> Reading:
    games: dict[int, tuple[list[int], list[int]]] = {}
    planes: dict[int, list[np.ndarray]] = {}
    skipped = 0
    for part in pgn_to_tensors(io.BytesIO(data), chunk=chunk, canonical=canonical):
        skipped += part.skipped
        for i, number in enumerate(part.games.tolist()):
            moves, results = games.setdefault(number, ([], []))
            moves.append(int(part.moves[i]))
            results.append(int(part.results[i]))
            planes.setdefault(number, []).append(part.planes[i])
    # The games of the file as the same reader splits them (the chunks count only those
    # left out and those with positions).
    total = sum(1 for _ in PgnReader(io.BytesIO(data), lenient=True))
    stacked = {n: np.array(p, dtype=np.float32).reshape(-1, 18, 8, 8) for n, p in planes.items()}
    return Reading(games, stacked, total, skipped)


def assert_same_training_data(data: bytes, canonical: bool, chunk: int) -> Reading:
    """Both readers find as many games in ``data``, leave out as many, and give the games
    read the same positions (the games read without moves are the rest)."""
    theirs = python_chess_reading(data, canonical)
    ours = kibitz_reading(data, canonical, chunk)
    assert (ours.total, ours.skipped) == (theirs.total, theirs.skipped), data
    assert sorted(ours.games) == sorted(theirs.games), data
    for number, (moves, results) in theirs.games.items():
        assert ours.games[number] == (moves, results), (number, data)
        np.testing.assert_array_equal(ours.planes[number], theirs.planes[number], err_msg=f"game {number}")
    return theirs


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**64 - 1), st.booleans(), st.sampled_from([1, 50, 4096]))
def test_every_game_python_chess_reads_is_training_data(seed: int, canonical: bool, chunk: int) -> None:
    rng = random.Random(seed)
    assert_same_training_data(pgn_file(rng, rng.randint(1, 12)), canonical, chunk)


def test_the_generated_files_hold_every_mutation() -> None:
    """The generator makes what the module's text says, and both readers agree on a large
    file of it (the figures: games, games read, positions)."""
    rng = random.Random(20240611)
    data = pgn_file(rng, 400)
    text = data.decode("utf-8-sig").replace("\r\n", "\n").replace("\r", "\n")
    for needle in ['"Say "hi" there"', " -- ", " Z0 ", " 0000 ", " @@@@ ", "[%clk", "$14", "(", "sd=", " KQkq "]:
        assert needle in text, needle
    assert '[FEN "8/8/8/8/8/8/8/8 w - - 0 1"]' in text
    theirs = assert_same_training_data(data, canonical=False, chunk=4096)
    positions = sum(len(moves) for moves, _ in theirs.games.values())
    read_without_moves = theirs.total - theirs.skipped - len(theirs.games)
    assert theirs.total == 400 and len(theirs.games) > 250 and positions > 10_000
    assert theirs.skipped > 0 and read_without_moves > 0
