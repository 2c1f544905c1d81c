"""``kibitz play``: a game against kibitz in the terminal.

The board is drawn from your side; type moves in SAN (``Nf3``, ``exd5``, ``O-O``,
``e8=Q``) or UCI (``g1f3``). Illegal or ambiguous moves are refused with the reason.
Commands: ``undo`` (take back your last move and the reply), ``moves`` (legal moves),
``flip``, ``fen``, ``resign``, ``help``, ``quit``. The game ends with checkmate, stalemate,
threefold repetition, the 50-move rule or insufficient material, and the result is
announced.
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any, Dict, Iterable, List, Optional, TextIO

import kibitz
from kibitz.uci import strength
from kibitz._core import Board, FenError, IllegalMoveError, InvalidMoveError, InvalidPositionError
from kibitz.book import Book, BookError
from kibitz.cli.common import playable_board
from kibitz.uci.options import ELO_MAX, ELO_MIN

AmbiguousMoveError = getattr(kibitz, "AmbiguousMoveError", ValueError)

UNICODE_PIECES = {
    "K": "\u2654",
    "Q": "\u2655",
    "R": "\u2656",
    "B": "\u2657",
    "N": "\u2658",
    "P": "\u2659",
    "k": "\u265a",
    "q": "\u265b",
    "r": "\u265c",
    "b": "\u265d",
    "n": "\u265e",
    "p": "\u265f",
}
EMPTY_SQUARE = "\u00b7"  # a middle dot, for the figurine board's empty squares

HELP = """Type a move in SAN (Nf3, exd5, O-O, e8=Q) or UCI (g1f3, e7e8q).
Commands: undo (take back your last move), moves (list the legal moves), flip (turn the
board), fen (show the position), resign, help, quit."""


def draw_board(board: Board, white_bottom: bool = True, unicode: bool = False) -> str:
    """The board as text, ranks 8..1 (or 1..8 from Black's side), files labelled."""
    placement = board.fen().split()[0]
    grid: List[List[str]] = []
    for row in placement.split("/"):
        cells: List[str] = []
        for ch in row:
            cells.extend(["."] * int(ch) if ch.isdigit() else [ch])
        grid.append(cells)  # grid[0] is rank 8
    ranks = range(8) if white_bottom else range(7, -1, -1)
    files = list(range(8)) if white_bottom else list(range(7, -1, -1))
    lines = []
    for r in ranks:
        cells = []
        for f in files:
            p = grid[r][f]
            cells.append(UNICODE_PIECES.get(p, EMPTY_SQUARE) if unicode else p)
        lines.append(f" {8 - r}  " + " ".join(cells))
    lines.append("    " + " ".join("abcdefgh"[f] for f in files))
    return "\n".join(lines)


def can_show(out: TextIO, texts: Iterable[str]) -> bool:
    """Whether ``out``'s encoding can write every one of ``texts`` (a cp1252 or cp437
    console cannot write the chess figurines); True when the stream names no encoding."""
    encoding = getattr(out, "encoding", None)
    if not encoding:
        return True
    try:
        "".join(texts).encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def insufficient_material(board: Board) -> bool:
    """Neither side can mate: K v K, K+minor v K, or only bishops all on one colour."""
    placement = board.fen().split()[0]
    pieces: Dict[str, List[int]] = {}
    for r, row in enumerate(placement.split("/")):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                pieces.setdefault(ch, []).append((f + (7 - r)) % 2)  # square colour
                f += 1
    others = {p: v for p, v in pieces.items() if p not in "Kk"}
    if any(p in others for p in "PpQqRr"):
        return False
    minors = sum(len(v) for v in others.values())
    if minors <= 1:
        return True
    if all(p in "Bb" for p in others):  # only bishops: all on one square colour
        colours = {c for v in others.values() for c in v}
        return len(colours) == 1
    return False


def position_key(board: Board) -> str:
    """What repetition compares: placement, side, castling and en passant."""
    return " ".join(board.fen().split()[:4])


def game_over(board: Board, history: List[str]) -> Optional[tuple[str, str]]:
    """(result, reason) when the game has ended, else None."""
    if board.is_checkmate():
        return ("0-1" if board.turn else "1-0"), ("Black" if board.turn else "White") + " wins by checkmate"
    if board.is_stalemate():
        return "1/2-1/2", "draw by stalemate"
    if insufficient_material(board):
        return "1/2-1/2", "draw by insufficient material"
    if board.halfmove_clock >= 100:
        return "1/2-1/2", "draw by the 50-move rule"
    if history and history.count(history[-1]) >= 3:
        return "1/2-1/2", "draw by threefold repetition"
    return None


def parse_move(board: Board, text: str) -> str:
    """The UCI move for typed text (UCI or SAN), or a ValueError saying why not."""
    t = text.strip()
    legal = board.legal_moves_uci()
    low = t.lower()
    if (
        len(low) in (4, 5)
        and low[0] in "abcdefgh"
        and low[1] in "12345678"
        and low[2] in "abcdefgh"
        and low[3] in "12345678"
    ):
        if low in legal:
            return low
        if len(low) == 4 and any(m.startswith(low) and len(m) == 5 for m in legal):
            raise InvalidMoveError(f"{t} is a promotion: add the piece, e.g. {low}q")
        raise IllegalMoveError(f"{t} is not a legal move here")
    return str(board.parse_san(t))


class TerminalGame:
    def __init__(self, args: argparse.Namespace, out: TextIO = sys.stdout, inp: TextIO = sys.stdin) -> None:
        self.out, self.inp = out, inp
        self.board = playable_board(args.fen, False, "a game needs")
        # The ply number of the start position (0: White's first move), so that moves are
        # numbered from the FEN's fullmove number and side to move ("12... Kg8 13. Ra8#").
        self.first_ply = 2 * (self.board.fullmove_number - 1) + (0 if self.board.turn else 1)
        color = args.color
        if color == "random":
            color = random.choice(["white", "black"])
        self.human_white = color == "white"
        self.white_bottom = self.human_white
        self.unicode = args.unicode and can_show(out, [*UNICODE_PIECES.values(), EMPTY_SQUARE])
        if args.unicode and not self.unicode:
            print(
                f"kibitz play: this console's encoding ({getattr(out, 'encoding', None)}) cannot show the "
                "Unicode pieces, so they are drawn as letters; set PYTHONIOENCODING=utf-8 "
                "(or use a UTF-8 terminal) for figurines",
                file=sys.stderr,
            )
        self.level = strength.level_for(args.level) if args.level is not None else None
        self.movetime_ms = int(args.time * 1000)
        self.depth = args.depth
        self.book: Optional[Book] = None
        if not args.no_book:
            try:
                self.book = Book.default()
            except BookError:
                self.book = None
        self.engine: Any = None
        self.history = [position_key(self.board)]
        self.sans: List[str] = []
        self.rng = random.Random()

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def show(self) -> None:
        self.say()
        self.say(draw_board(self.board, self.white_bottom, self.unicode))
        if self.sans:
            self.say("moves: " + self._movetext(self.sans[-10:], len(self.sans) - len(self.sans[-10:])))
        if self.board.is_check():
            self.say("check!")

    def _movetext(self, sans: List[str], offset: int) -> str:
        """The moves ``sans`` (the game's from its ``offset``-th) numbered as PGN numbers
        them: "12." before White's, "12..." before a first move that is Black's."""
        parts = []
        for i, san in enumerate(sans):
            ply = self.first_ply + offset + i
            if ply % 2 == 0:
                parts.append(f"{ply // 2 + 1}.")
            elif i == 0:
                parts.append(f"{ply // 2 + 1}...")
            parts.append(san)
        return " ".join(parts)

    def push(self, uci: str) -> None:
        self.sans.append(self.board.san(uci))
        self.board.push_uci(uci)
        self.history.append(position_key(self.board))

    def undo(self) -> bool:
        if not self.board.move_stack:
            return False
        self.board.pop()
        self.sans.pop()
        self.history.pop()
        return True

    def engine_move(self) -> str:
        if self.book is not None:
            entry = self.book.weighted_choice(self.board, self.rng)
            if entry is not None:
                return entry.move
        if self.engine is None:
            factory = getattr(kibitz, "Engine", None)
            if factory is None:
                raise RuntimeError("this build of kibitz has no search (kibitz.Engine is missing)")
            self.engine = factory(16)
        kwargs: Dict[str, Any] = {"movetime_ms": self.movetime_ms}
        if self.depth:
            kwargs["depth"] = self.depth
        if self.level is not None:
            kwargs["nodes"] = self.level.nodes
            kwargs["multipv"] = min(self.level.multipv, len(self.board.legal_moves_uci()))
        result = self.engine.search(self.board, **kwargs)
        best = result.best_move
        if self.level is not None and getattr(result, "lines", None):
            i = strength.choose(result.lines, self.level, self.rng)
            if result.lines[i].pv:
                best = result.lines[i].pv[0]
        if best not in self.board.legal_moves_uci():
            best = self.board.legal_moves_uci()[0]
        return str(best)

    def run(self) -> int:
        who = "White" if self.human_white else "Black"
        lvl = f"level {self.level.elo}" if self.level else "full strength"
        self.say(f"kibitz play: you are {who}; kibitz plays at {lvl}, {self.movetime_ms / 1000:g} s a move.")
        self.say("Type help for the commands.")
        while True:
            over = game_over(self.board, self.history)
            if over:
                self.show()
                self.say(f"Game over: {over[0]} ({over[1]})")
                return 0
            if self.board.turn != self.human_white:
                try:
                    move = self.engine_move()
                except RuntimeError as e:
                    self.say(f"kibitz cannot move: {e}")
                    return 1
                self.say(f"kibitz plays {self.board.san(move)}")
                self.push(move)
                continue
            self.show()
            self.out.write("your move> ")
            self.out.flush()
            line = self.inp.readline()
            if not line:
                self.say()
                self.say("Bye.")
                return 0
            text = line.strip()
            if not text:
                continue
            cmd = text.lower()
            if cmd in ("quit", "exit", "q"):
                self.say("Bye.")
                return 0
            if cmd in ("help", "?"):
                self.say(HELP)
                continue
            if cmd in ("undo", "takeback", "back"):
                # Take back the engine's reply and your move: at the prompt it is your
                # turn, so that is two plies (none if only the engine has moved).
                if len(self.board.move_stack) < 2:
                    self.say("nothing to take back")
                    continue
                self.undo()
                self.undo()
                self.say("taken back")
                continue
            if cmd == "moves":
                self.say(" ".join(sorted(self.board.san(m) for m in self.board.legal_moves_uci())))
                continue
            if cmd == "flip":
                self.white_bottom = not self.white_bottom
                continue
            if cmd == "fen":
                self.say(self.board.fen())
                continue
            if cmd == "resign":
                self.say(f"Game over: {'0-1' if self.human_white else '1-0'} (you resigned)")
                return 0
            try:
                move = parse_move(self.board, text)
            except AmbiguousMoveError as e:
                self.say(f"ambiguous move {text!r}: {e}")
                continue
            except (IllegalMoveError, InvalidMoveError, ValueError) as e:
                self.say(f"refused {text!r}: {e}")
                continue
            self.push(move)


def cmd_play(args: argparse.Namespace) -> int:
    if args.level is not None and not ELO_MIN <= args.level <= ELO_MAX:
        print(f"kibitz play: --level must be within {ELO_MIN}..{ELO_MAX}", file=sys.stderr)
        return 2
    try:
        game = TerminalGame(args)
    except (FenError, InvalidPositionError) as e:
        print(f"kibitz play: bad --fen: {e}", file=sys.stderr)
        return 2
    try:
        return game.run()
    except KeyboardInterrupt:
        print("\nBye.")
        return 130  # 128 + SIGINT: ended by Ctrl-C, as the other subcommands


# --time at most a day a move (longer is no game), --depth at most the search's MAX_DEPTH:
# checked when the arguments are read, so nothing out of range is found mid-game.
MAX_MOVE_SECONDS = 86400.0
MAX_DEPTH = 120


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    from kibitz.cli.common import float_in, int_in

    p = sub.add_parser("play", help="play a game against kibitz in the terminal")
    p.add_argument(
        "--color", "--colour", choices=["white", "black", "random"], default="white", help="your side (default white)"
    )
    p.add_argument(
        "--level",
        type=int,
        default=None,
        metavar="ELO",
        help=f"kibitz's strength, {ELO_MIN}..{ELO_MAX} (default: full strength)",
    )
    p.add_argument(
        "--time",
        type=float_in(0.0, MAX_MOVE_SECONDS, lo_open=True),
        default=1.0,
        metavar="SECONDS",
        help="kibitz's thinking time per move (default 1)",
    )
    p.add_argument(
        "--depth",
        type=int_in(1, MAX_DEPTH),
        default=None,
        metavar="N",
        help=f"also limit kibitz's search depth (1..{MAX_DEPTH})",
    )
    p.add_argument("--fen", default=None, help="start from this position")
    p.add_argument("--no-book", action="store_true", help="kibitz does not use its opening book")
    p.add_argument("--unicode", action="store_true", help="draw the pieces as Unicode figurines")
    p.set_defaults(func=cmd_play)
