"""Polyglot opening books: read, choose, build and edit (``kibitz book`` is the command).

A Polyglot ``.bin`` book is a sorted array of 16-byte big-endian entries
``(key u64, move u16, weight u16, learn u32)``; ``key`` is the Polyglot Zobrist key of the
position (``Board.polyglot_key()``), ``move`` packs ``to file | to row << 3 | from file << 6 |
from row << 9 | promotion << 12`` (promotion 1..4 = knight, bishop, rook, queen) and
castling is written as the king taking its own rook (e1h1, e1a1, e8h8, e8a8). Format:
the Polyglot documentation (Fabien Letouzey, 2006) and the chessprogramming wiki
"PolyGlot" page.

Reading follows the common practice of python-chess's ``chess.polyglot`` reader, so the two
list the same moves and weights: entries of weight 0 are skipped (the usual way to
delete a move from a book) and moves illegal in the position are skipped.

The built-in book (``data/book.bin``) is the opening repertoire ``data/repertoire.txt``
built with every ply of each line (``build_repertoire()``, or ``kibitz book build
python/kibitz/book/data/repertoire.txt -o book.bin`` as docs/cli.md shows);
tests/python/test_book.py checks that both give the shipped bytes.
"""

from __future__ import annotations


import bisect
import os
import random
import re
import stat
import struct
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

from kibitz._core import Board, FenError

ENTRY = struct.Struct(">QHHI")  # key, move, weight, learn: 16 bytes, big-endian
MAX_WEIGHT = 0xFFFF
DATA_DIR = Path(__file__).resolve().parent / "data"
DEFAULT_BOOK = DATA_DIR / "book.bin"
DEFAULT_REPERTOIRE = DATA_DIR / "repertoire.txt"

# The largest book file read (bytes): the biggest public Polyglot books are a few hundred
# MB; a limit keeps a wrong path (a device, a huge file) from filling memory.
MAX_BOOK_BYTES = 1 << 30

_PROMO_CODE = {"n": 1, "b": 2, "r": 3, "q": 4}
_PROMO_LETTER = {v: k for k, v in _PROMO_CODE.items()}


class BookError(ValueError):
    """A file that is not a Polyglot book, or a line that cannot be added to one."""


@dataclass(frozen=True)
class BookEntry:
    """One book move in a position, as UCI text of that position's Board."""

    move: str
    weight: int
    learn: int
    raw_move: int
    key: int


# ---------------------------------------------------------------------------- encoding


def _square(name: str) -> int:
    """0..63 with a1 = 0, h8 = 63 (Polyglot's square numbering)."""
    return (ord(name[0]) - ord("a")) + 8 * (ord(name[1]) - ord("1"))


def _square_name(sq: int) -> str:
    return "abcdefgh"[sq & 7] + "12345678"[sq >> 3]


def piece_at(board: Board, square: str) -> Optional[str]:
    """The FEN letter of the piece on ``square`` (e.g. "K", "p"), or None."""
    placement = board.fen().split()[0]
    ranks = placement.split("/")
    file, rank = ord(square[0]) - ord("a"), int(square[1])
    row = ranks[8 - rank]
    col = 0
    for ch in row:
        if ch.isdigit():
            col += int(ch)
        else:
            if col == file:
                return ch
            col += 1
        if col > file:
            return None
    return None


# Standard-chess castling moves and their king-takes-rook form.
_CASTLE_TO_POLYGLOT = {"e1g1": "e1h1", "e1c1": "e1a1", "e8g8": "e8h8", "e8c8": "e8a8"}
_POLYGLOT_TO_CASTLE = {v: k for k, v in _CASTLE_TO_POLYGLOT.items()}


def encode_move(board: Board, uci: str) -> int:
    """The Polyglot 16-bit move of ``uci`` (legal in ``board``)."""
    if not board.chess960 and uci in _CASTLE_TO_POLYGLOT and piece_at(board, uci[:2]) in ("K", "k"):
        uci = _CASTLE_TO_POLYGLOT[uci]
    frm, to = _square(uci[0:2]), _square(uci[2:4])
    promo = _PROMO_CODE[uci[4]] if len(uci) > 4 else 0
    return to | (frm << 6) | (promo << 12)


def decode_move(board: Optional[Board], raw: int) -> str:
    """UCI text of a Polyglot move; with ``board`` (standard chess), king-takes-rook
    castling becomes the king's two-square move, as UCI writes it."""
    to, frm, promo = raw & 0x3F, (raw >> 6) & 0x3F, (raw >> 12) & 0x7
    uci = _square_name(frm) + _square_name(to) + (_PROMO_LETTER.get(promo, "") if promo else "")
    if (
        board is not None
        and not board.chess960
        and uci in _POLYGLOT_TO_CASTLE
        and piece_at(board, uci[:2]) in ("K", "k")
    ):
        uci = _POLYGLOT_TO_CASTLE[uci]
    return uci


# ---------------------------------------------------------------------------- reading


class Book:
    """A Polyglot book held in memory (books are small: 16 bytes a move)."""

    def __init__(self, data: bytes, name: str = "<book>") -> None:
        if len(data) % ENTRY.size != 0:
            raise BookError(f"{name} is not a Polyglot book: size {len(data)} is not a multiple of 16")
        self.name = name
        self._data = bytes(data)
        self._keys = [ENTRY.unpack_from(self._data, i)[0] for i in range(0, len(self._data), ENTRY.size)]

    @classmethod
    def open(cls, path: Union[str, os.PathLike]) -> Book:  # type: ignore[type-arg]
        """Read a book file: only a regular file (a FIFO would block the reader and a device
        like /dev/zero never ends) of at most MAX_BOOK_BYTES."""
        p = Path(path)
        return cls(read_regular_file(p, MAX_BOOK_BYTES, "book"), str(p))

    @classmethod
    def default(cls) -> Book:
        """The built-in book shipped in the package."""
        return cls.open(DEFAULT_BOOK)

    def __len__(self) -> int:
        return len(self._keys)

    def raw_entries(self, key: int) -> Iterator[Tuple[int, int, int, int]]:
        """(key, move, weight, learn) of every entry with ``key``, in file order. The
        first one is found by binary search (the file is sorted by key)."""
        i = bisect.bisect_left(self._keys, key)
        while i < len(self._keys) and self._keys[i] == key:
            yield ENTRY.unpack_from(self._data, i * ENTRY.size)
            i += 1

    def entries(self, board: Board, *, minimum_weight: int = 1) -> List[BookEntry]:
        """The book moves legal in ``board`` with weight >= ``minimum_weight``, in file order."""
        key = board.polyglot_key()
        legal = set(board.legal_moves_uci())
        out = []
        for _, raw, weight, learn in self.raw_entries(key):
            if weight < minimum_weight:
                continue
            uci = decode_move(board, raw)
            if uci not in legal:
                continue
            out.append(BookEntry(uci, weight, learn, raw, key))
        return out

    def best(self, board: Board) -> Optional[BookEntry]:
        """The entry with the highest weight (the first of equals), or None."""
        best: Optional[BookEntry] = None
        for e in self.entries(board):
            if best is None or e.weight > best.weight:
                best = e
        return best

    def weighted_choice(self, board: Board, rng: Optional[random.Random] = None) -> Optional[BookEntry]:
        """A random entry, each with probability weight / total weight; None if none."""
        entries = self.entries(board)
        total = sum(e.weight for e in entries)
        if total <= 0:
            return None
        r = (rng or random).randrange(total)
        for e in entries:
            r -= e.weight
            if r < 0:
                return e
        return entries[-1]  # unreachable: r < total

    def pick(self, board: Board, *, best: bool = False, rng: Optional[random.Random] = None) -> Optional[str]:
        """The move to play from the book (UCI text) or None when out of book."""
        e = self.best(board) if best else self.weighted_choice(board, rng)
        return e.move if e else None

    def to_table(self) -> Dict[int, Dict[int, Tuple[int, int]]]:
        """{key: {raw_move: (weight, learn)}} of every entry (for adding lines)."""
        table: Dict[int, Dict[int, Tuple[int, int]]] = defaultdict(dict)
        for off in range(0, len(self._data), ENTRY.size):
            key, raw, weight, learn = ENTRY.unpack_from(self._data, off)
            table[key][raw] = (weight, learn)
        return table


# ---------------------------------------------------------------------------- files


def read_regular_file(path: Path, limit: int, what: str) -> bytes:
    """The bytes of ``path`` if it is a regular file of at most ``limit`` bytes, else
    BookError naming the problem. Opened without blocking and checked after opening, so a
    FIFO or device put in its place cannot hang or flood the reader."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as e:
        raise BookError(f"cannot read {what} {str(path)!r}: {e.strerror or e}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise BookError(f"cannot read {what} {str(path)!r}: not a regular file")
        if st.st_size > limit:
            raise BookError(f"{what} {str(path)!r} is {st.st_size} bytes, more than the {limit} read")
        chunks = []
        left = limit + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
    except OSError as e:
        raise BookError(f"cannot read {what} {str(path)!r}: {e.strerror or e}") from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise BookError(f"{what} {str(path)!r} grew beyond the {limit} bytes read")
    return data


# ---------------------------------------------------------------------------- writing


def write_book(table: Dict[int, Dict[int, Tuple[int, int]]]) -> bytes:
    """Polyglot bytes for ``{key: {raw_move: (weight, learn)}}``: sorted by key, then by
    weight (highest first), then by move, so the same table always gives the same bytes.
    Weights above 65535 are scaled down per position, keeping their ratios."""
    rows = []
    for key, moves in table.items():
        top = max((w for w, _ in moves.values()), default=0)
        scale = MAX_WEIGHT / top if top > MAX_WEIGHT else 1.0
        for raw, (weight, learn) in moves.items():
            w = weight if scale == 1.0 else max(1, int(weight * scale))
            rows.append((key, -w, raw, w, learn))
    rows.sort()
    return b"".join(ENTRY.pack(key, raw, w, learn) for key, _, raw, w, learn in rows)


# ---------------------------------------------------------------------------- PGN


@dataclass
class BookGame:
    headers: Dict[str, str]
    moves: List[str]  # the main line, UCI (from a PGN file) or SAN (a repertoire line)
    result: str
    error: Optional[str] = None  # what is wrong with the game; its moves stop before it
    # Whether the game is Chess960, as the PGN reader that replayed its moves decided from
    # its Variant tag; None: decide from ``headers`` as kibitz.pgn does.
    chess960: Optional[bool] = None


_MOVE_NUMBER = re.compile(r"^\d+\.+$|^\d+\.+")


# The largest repertoire file a book is built from (bytes): it is read whole; a limit keeps
# a wrong path (a device, a huge file) from filling memory. PGN files are streamed.
MAX_PGN_BYTES = 1 << 30


def decode_pgn(data: bytes) -> str:
    """PGN bytes as text: UTF-8 when they are valid UTF-8, else Windows-1252 (older files),
    as the analysis reader decodes them (its five unassigned bytes as the C1 controls)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1").translate(_CP1252_HIGH)


# Latin-1 to Windows-1252: the characters Windows-1252 puts at 0x80..0x9F.
_CP1252_HIGH = {b: bytes([b]).decode("cp1252") for b in range(0x80, 0xA0) if b not in (0x81, 0x8D, 0x8F, 0x90, 0x9D)}


def read_pgn_file(path: Union[str, os.PathLike]) -> Iterator[BookGame]:  # type: ignore[type-arg]
    """The games of a PGN file (``.pgn``, ``.pgn.gz``, ``.pgn.zst``), read by kibitz's PGN
    reader (``kibitz.read_games``): tags, the main line in UCI, the result (the movetext's,
    else the Result tag's), and what is wrong with a game (its moves stop before that).
    A path that is no file of games (a device, a directory) is a BookError."""
    from kibitz.analysis.reader import NotAPgnFile, read_games

    try:
        for g in read_games(Path(path)):
            yield BookGame(g.headers, g.moves, g.result or g.headers.get("Result", "*"), g.error, g.chess960)
    except (NotAPgnFile, IsADirectoryError) as e:
        raise BookError(f"not a PGN file: {str(path)!r}: {e}") from None


def _start_board(game: BookGame) -> Board:
    """The game's start position: its FEN tag, as Chess960 when the reader found the game
    to be Chess960 (else when its Variant tag names Chess960 by one of the names kibitz.pgn
    knows, python-chess's: "Chess960", "Fischerandom", "Fischer Random", ...)."""
    chess960 = game.chess960
    if chess960 is None:
        from kibitz.pgn import Headers

        chess960 = Headers({"Variant": game.headers.get("Variant", "")}).is_chess960()
    fen = game.headers.get("FEN")
    return Board(fen, chess960=chess960) if fen else Board(chess960=chess960)


def push_move(board: Board, text: str) -> str:
    """Play a move given as UCI or SAN text; returns it as UCI. Raises a ValueError
    subclass (IllegalMoveError, InvalidMoveError, AmbiguousMoveError) naming the problem."""
    t = text.strip()
    if re.fullmatch(r"[a-h][1-8][a-h][1-8][nbrqNBRQ]?", t):
        uci = t[:4] + t[4:].lower()
        if uci in board.legal_moves_uci():
            board.push_uci(uci)
            return uci
    return str(board.push_san(t))


# ---------------------------------------------------------------------------- building

# A win counts 2 and a draw 1 for the side that played the move, a loss 0: the weights
# of Polyglot's own "make-book" (2 * wins + draws).
WIN_WEIGHT, DRAW_WEIGHT = 2, 1
DEFAULT_MAX_PLIES = 16
DEFAULT_MIN_GAMES = 1


@dataclass
class BuildStats:
    games: int = 0
    skipped_games: int = 0
    positions: int = 0
    entries: int = 0
    decided_games: int = 0  # games with a result (1-0, 0-1, 1/2-1/2), which weigh their moves


def build_from_games(
    games: Iterable[BookGame],
    *,
    max_plies: Optional[int] = DEFAULT_MAX_PLIES,
    min_games: int = DEFAULT_MIN_GAMES,
    use_results: bool = True,
    stats: Optional[BuildStats] = None,
    errors: Optional[List[str]] = None,
) -> bytes:
    """A Polyglot book from games: the first ``max_plies`` plies of each (every ply when
    None), a move kept when at least ``min_games`` games played it in that position. With ``use_results`` a move
    weighs 2 per win and 1 per draw of the side that played it (moves that only lost are
    dropped, as weight 0 means "deleted" to Polyglot readers); without, 1 per game.
    Games with an illegal move are cut at that move (and reported in ``errors``).
    ValueError when ``max_plies`` or ``min_games`` is below 1 (a negative ``max_plies``
    would drop a game's last plies instead)."""
    for name, value in (("max_plies", max_plies), ("min_games", min_games)):
        if value is not None and value < 1:
            raise BookError(f"{name} must be at least 1, not {value}")
    stats = stats if stats is not None else BuildStats()
    counts: Dict[Tuple[int, int], List[int]] = defaultdict(lambda: [0, 0])  # games, weight
    for gi, game in enumerate(games, 1):
        try:
            board = _start_board(game)
        except FenError as e:
            stats.skipped_games += 1
            if errors is not None:
                errors.append(f"game {gi}: bad FEN header: {e}")
            continue
        stats.games += 1
        if game.result in ("1-0", "0-1", "1/2-1/2"):
            stats.decided_games += 1
        for ply, san in enumerate(game.moves[:max_plies]):
            key = board.polyglot_key()
            white = board.turn
            try:
                uci = str(board.parse_san(san)) if not re.fullmatch(r"[a-h][1-8][a-h][1-8][nbrq]?", san) else san
                raw = encode_move(board, uci)
                board.push_uci(uci)
            except ValueError as e:
                if errors is not None:
                    errors.append(f"game {gi}, ply {ply + 1}: {san}: {e}")
                break
            if use_results:
                if game.result == "1/2-1/2":
                    w = DRAW_WEIGHT
                elif game.result == ("1-0" if white else "0-1"):
                    w = WIN_WEIGHT
                else:
                    w = 0
            else:
                w = 1
            c = counts[(key, raw)]
            c[0] += 1
            c[1] += w
        if game.error is not None and errors is not None and (max_plies is None or len(game.moves) < max_plies):
            errors.append(f"game {gi}: {game.error}")
    table: Dict[int, Dict[int, Tuple[int, int]]] = defaultdict(dict)
    for (key, raw), (ngames, weight) in counts.items():
        if ngames >= min_games and weight > 0:
            table[key][raw] = (weight, 0)
    stats.positions = len(table)
    stats.entries = sum(len(v) for v in table.values())
    return write_book(table)


def parse_repertoire(text: str) -> Iterator[BookGame]:
    """Lines of a repertoire file: one line of play per text line (SAN with or without
    move numbers); ``#`` starts a comment. Each line counts as one game without result."""
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            yield BookGame({}, [t for t in (_MOVE_NUMBER.sub("", tok) for tok in line.split()) if t], "*")


def build_repertoire(path: Union[str, os.PathLike] = DEFAULT_REPERTOIRE) -> bytes:  # type: ignore[type-arg]
    """The built-in book from its repertoire text: each move weighs the number of
    repertoire lines that play it in that position (so main lines are preferred)."""
    text = Path(path).read_text(encoding="utf-8")
    errors: List[str] = []
    data = build_from_games(parse_repertoire(text), max_plies=None, use_results=False, errors=errors)
    if errors:
        raise BookError("repertoire has bad lines: " + "; ".join(errors))
    return data


def add_line(
    data: bytes,
    moves: Sequence[str],
    *,
    fen: Optional[str] = None,
    weight: int = 1,
    chess960: bool = False,
    name: str = "<book>",
) -> bytes:
    """``data`` with each move of the line (UCI or SAN, from ``fen`` or the start)
    added: ``weight`` (at least 1) is added to the move's entry, saturating at 65535, or a
    new entry is made. Every other entry is kept exactly as it was (order, weight, learn);
    a move that has several entries in one position is refused rather than merged.
    ``name`` is the book's in the messages."""
    if not isinstance(weight, int) or weight < 1:
        raise BookError(f"the weight to add must be a positive integer, not {weight!r}")
    book = Book(data, name)
    rows = [list(ENTRY.unpack_from(book._data, off)) for off in range(0, len(book._data), ENTRY.size)]
    board = Board(fen, chess960=chess960) if fen is not None else Board(chess960=chess960)
    for text in moves:
        key = board.polyglot_key()
        before = board.copy()
        uci = push_move(board, text)
        raw = encode_move(before, uci)
        same = [r for r in rows if r[0] == key and r[1] == raw]
        if len(same) > 1:
            raise BookError(
                f"the book has {len(same)} entries for {uci} in position {key:016x}; "
                "not merging them (edit it with a tool that keeps duplicates)"
            )
        if same:
            same[0][2] = min(MAX_WEIGHT, same[0][2] + weight)
        else:
            rows.append([key, raw, min(MAX_WEIGHT, weight), 0])
    rows.sort(key=lambda r: r[0])  # stable: entries of one key keep their order
    return b"".join(ENTRY.pack(*r) for r in rows)
