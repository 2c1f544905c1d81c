"""PGN games as trees of moves, with python-chess's ``chess.pgn`` API over :class:`kibitz.Board`.

``read_game`` parses one game from a text file into a :class:`Game` (or feeds any visitor),
``read_headers`` and ``skip_game`` scan a file quickly, and ``str(game)`` or the exporters
write PGN exactly as python-chess 1.11 writes it. Malformed input never raises: errors go
to the visitor's ``handle_error`` (for :class:`GameBuilder`: logged on ``LOGGER`` and kept
in ``game.errors``) and reading goes on.

Differences from python-chess, on purpose:

* Boards are :class:`kibitz.Board` (standard chess and Chess960) or, for a ``Variant`` tag
  that names another variant, that variant's board (``kibitz.variant.boards``,
  python-chess's ``chess.variant`` classes). An unknown variant is reported as
  ``ValueError("unsupported variant: ...")`` and the game is read as standard chess, as
  python-chess reports it.
* :meth:`GameNode.eval` returns ``chess.engine.PovScore`` when python-chess is installed,
  otherwise the small compatible :class:`PovScore` / :class:`Cp` / :class:`Mate` below.
* :meth:`GameNode.arrows` returns ``kibitz.svg.Arrow`` (python-chess returns
  ``chess.svg.Arrow``); ``set_arrows`` takes either kind, or ``(tail, head)`` pairs.
* FENs that python-chess accepts but kibitz rejects (impossible castling rights, no kings)
  are reported as errors and the game is skipped, as python-chess does for bad FENs.
"""

from __future__ import annotations

import abc
import codecs
import dataclasses
import enum
import io
import logging
import operator
import os
import re
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping, MutableMapping
from typing import Any, Generic, Literal, Optional, SupportsIndex, TextIO, TypeVar, Union, cast, overload

from kibitz._bitboards import STATUS_BAD_CASTLING_RIGHTS as _BAD_CASTLING_RIGHTS
from kibitz._core import Board, GameScanner, Move, STARTING_FEN, plain_tokens, read_plain_movetext
from kibitz.svg import Arrow  # python-chess's chess.pgn uses chess.svg.Arrow too

__all__ = [
    "LOGGER",
    "SkipType",
    "SKIP",
    "TAG_ROSTER",
    "GameNode",
    "ChildNode",
    "Game",
    "Headers",
    "Mainline",
    "Arrow",
    "Cp",
    "Mate",
    "PovScore",
    "BaseVisitor",
    "GameBuilder",
    "HeadersBuilder",
    "BoardBuilder",
    "SkipVisitor",
    "StringExporterMixin",
    "StringExporter",
    "FileExporter",
    "read_game",
    "read_headers",
    "skip_game",
    "TimeControl",
    "TimeControlPart",
    "TimeControlType",
    "parse_time_control",
]

LOGGER = logging.getLogger(__name__)

# Numeric annotation glyphs (the PGN standard's numbering).
NAG_NULL = 0
NAG_GOOD_MOVE = 1
NAG_MISTAKE = 2
NAG_BRILLIANT_MOVE = 3
NAG_BLUNDER = 4
NAG_SPECULATIVE_MOVE = 5
NAG_DUBIOUS_MOVE = 6
NAG_FORCED_MOVE = 7
NAG_SINGULAR_MOVE = 8
NAG_WORST_MOVE = 9
NAG_DRAWISH_POSITION = 10
NAG_QUIET_POSITION = 11
NAG_ACTIVE_POSITION = 12
NAG_UNCLEAR_POSITION = 13
NAG_WHITE_SLIGHT_ADVANTAGE = 14
NAG_BLACK_SLIGHT_ADVANTAGE = 15
NAG_WHITE_MODERATE_ADVANTAGE = 16
NAG_BLACK_MODERATE_ADVANTAGE = 17
NAG_WHITE_DECISIVE_ADVANTAGE = 18
NAG_BLACK_DECISIVE_ADVANTAGE = 19
NAG_WHITE_ZUGZWANG = 22
NAG_BLACK_ZUGZWANG = 23
NAG_WHITE_MODERATE_COUNTERPLAY = 132
NAG_BLACK_MODERATE_COUNTERPLAY = 133
NAG_WHITE_DECISIVE_COUNTERPLAY = 134
NAG_BLACK_DECISIVE_COUNTERPLAY = 135
NAG_WHITE_MODERATE_TIME_PRESSURE = 136
NAG_BLACK_MODERATE_TIME_PRESSURE = 137
NAG_WHITE_SEVERE_TIME_PRESSURE = 138
NAG_BLACK_SEVERE_TIME_PRESSURE = 139
NAG_NOVELTY = 146

# Suffix annotations written as glyphs in movetext, read as NAGs.
_SUFFIX_NAGS = {
    "!": NAG_GOOD_MOVE,
    "?": NAG_MISTAKE,
    "!!": NAG_BRILLIANT_MOVE,
    "??": NAG_BLUNDER,
    "!?": NAG_SPECULATIVE_MOVE,
    "?!": NAG_DUBIOUS_MOVE,
}

TAG_ROSTER = ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
_ROSTER_SET = frozenset(TAG_ROSTER)

TAG_REGEX = re.compile(r"^\[([A-Za-z0-9][A-Za-z0-9_+#=:-]*)\s+\"([^\r]*)\"\]\s*$")
TAG_NAME_REGEX = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_+#=:-]*\Z")

# One movetext token per match; the group that matched says the kind (see _TOK_*).
MOVETEXT_REGEX = re.compile(
    r"""
    ( [NBKRQ]?[a-h]?[1-8]?[\-x]?[a-h][1-8](?:=?[nbrqkNBRQK])?
    | [PNBRQK]?@[a-h][1-8]
    | --
    | Z0
    | 0000
    | @@@@
    | O-O(?:-O)?
    | 0-0(?:-0)?
    )
    | (\{.*)
    | (;.*)
    | (\$[0-9]+)
    | (\()
    | (\))
    | (\*|1-0|0-1|1/2-1/2)
    | ([\?!]{1,2})
    """,
    re.DOTALL | re.VERBOSE,
)
_TOK_SAN, _TOK_COMMENT, _TOK_LINE_COMMENT, _TOK_NAG, _TOK_OPEN, _TOK_CLOSE, _TOK_RESULT, _TOK_SUFFIX = range(1, 9)

SKIP_MOVETEXT_REGEX = re.compile(r";|\{|\}")

_TIME = r"(?P<hours>\d+):(?P<minutes>\d+):(?P<seconds>\d+(?:\.\d*)?)"
CLOCK_REGEX = re.compile(r"(?P<prefix>\s?)\[%clk\s" + _TIME + r"\](?P<suffix>\s?)")
EMT_REGEX = re.compile(r"(?P<prefix>\s?)\[%emt\s" + _TIME + r"\](?P<suffix>\s?)")
EVAL_REGEX = re.compile(
    r"""
    (?P<prefix>\s?)
    \[%eval\s(?:
        \#(?P<mate>[+-]?\d+)
        |(?P<cp>[+-]?(?:\d{0,10}\.\d{1,2}|\d{1,10}\.?))
    )(?:,(?P<depth>\d+))?\]
    (?P<suffix>\s?)
    """,
    re.VERBOSE,
)
ARROWS_REGEX = re.compile(
    r"""
    (?P<prefix>\s?)
    \[%(?:csl|cal)\s(?P<arrows>
        [RGYB][a-h][1-8](?:[a-h][1-8])?
        (?:,[RGYB][a-h][1-8](?:[a-h][1-8])?)*
    )\]
    (?P<suffix>\s?)
    """,
    re.VERBOSE,
)

# Square names, a1 = 0.
_SQUARE_NAMES = [f + r for r in "12345678" for f in "abcdefgh"]
_STANDARD_ALIASES = ("standard", "chess", "classical", "normal", "illegal", "from position")
_CHESS960_NAMES = ("chess960", "chess 960", "fischerandom", "fischerrandom", "fischer random")
_WILD_NAMES = ("wild/0", "wild/1", "wild/2", "wild/3", "wild/4", "wild/5", "wild/6", "wild/7", "wild/8", "wild/8a")

ResultT = TypeVar("ResultT", covariant=True)
GameT = TypeVar("GameT", bound="Game")
HeadersT = TypeVar("HeadersT", bound="Headers")
MainlineMapT = TypeVar("MainlineMapT")


class SkipType(enum.Enum):
    """Returned by visitor methods to skip a game, its movetext or a variation."""

    SKIP = None


SKIP = SkipType.SKIP


class TimeControlType(enum.Enum):
    """The kind of a TimeControl tag, by the first period's base time plus 60 increments."""

    UNKNOWN = 0
    UNLIMITED = 1
    STANDARD = 2
    RAPID = 3
    BLITZ = 4
    BULLET = 5


@dataclasses.dataclass
class TimeControlPart:
    """One period: ``moves`` in ``time`` seconds (0 moves: the rest of the game), with increment or delay."""

    moves: int = 0
    time: int = 0
    increment: float = 0
    delay: float = 0


@dataclasses.dataclass
class TimeControl:
    """A parsed TimeControl tag (``40/5400+30:1800+30``, ``180+2``, ``-``, ``?``)."""

    parts: list[TimeControlPart] = dataclasses.field(default_factory=list)
    type: TimeControlType = TimeControlType.UNKNOWN


def _time_control_part(text: str) -> TimeControlPart:
    part = TimeControlPart()
    period, *bonus = text.split("+")
    if bonus:
        if bonus[0].lower().endswith("d"):
            part.delay = float(bonus[0][:-1])
        else:
            part.increment = float(bonus[0])
    moves, *seconds = period.split("/")
    if seconds:
        part.moves, part.time = int(moves), int(seconds[0])
    else:
        part.moves, part.time = 0, int(moves)
    return part


def parse_time_control(time_control: str) -> TimeControl:
    """Parses a TimeControl tag; ValueError when it is malformed."""
    tc = TimeControl()
    if not time_control or time_control.startswith("?"):
        return tc
    if time_control.startswith("-"):
        tc.type = TimeControlType.UNLIMITED
        return tc
    tc.parts = [_time_control_part(text) for text in time_control.split(":")]
    if any(part.moves == 0 for part in tc.parts[:-1]):
        raise ValueError("Only last part can be 'sudden death'.")
    first = tc.parts[0]
    estimate = first.time + 60 * first.increment
    if estimate < 3 * 60:
        tc.type = TimeControlType.BULLET
    elif estimate < 15 * 60:
        tc.type = TimeControlType.BLITZ
    elif estimate < 60 * 60:
        tc.type = TimeControlType.RAPID
    else:
        tc.type = TimeControlType.STANDARD
    return tc


# --- boards --------------------------------------------------------------------------------


def _new_board(fen: str, chess960: bool, variant: type[Board] = Board) -> Board:
    """A board from a FEN; Chess960 when asked, or when its castling rights need it (as
    python-chess's ``has_chess960_castling_rights`` decides: rights that standard chess
    would clean away but Chess960 keeps). ``variant``: the board class (a ``Variant`` tag's)."""
    if variant is not Board:
        board = variant(fen, chess960=chess960)
        board.chess960 = board.chess960 or board.has_chess960_castling_rights()
        return board
    if chess960:
        return Board(fen, chess960=True)
    board = Board(fen)
    if board.status() & _BAD_CASTLING_RIGHTS:
        try:
            wide = Board(fen, chess960=True)
        except ValueError:
            return board
        if not wide.status() & _BAD_CASTLING_RIGHTS:
            return wide
    return board


def _to_move(move: Any) -> Move:
    if isinstance(move, Move):
        return move
    return Move.from_uci(move.uci())


def _is_standard(board: Any) -> bool:
    aliases = getattr(type(board), "aliases", None)
    return not aliases or aliases[0] == "Standard"


# --- scores and arrows ---------------------------------------------------------------------


class Cp:
    """A centipawn score (used when python-chess is not installed)."""

    def __init__(self, cp: int) -> None:
        self.cp = cp

    def score(self, *, mate_score: Optional[int] = None) -> Optional[int]:
        return self.cp

    def mate(self) -> Optional[int]:
        return None

    def is_mate(self) -> bool:
        return False

    def __neg__(self) -> Cp:
        return Cp(-self.cp)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Cp) and other.cp == self.cp

    def __hash__(self) -> int:
        return hash(("Cp", self.cp))

    def __repr__(self) -> str:
        return f"Cp({self.cp:+d})"


class Mate:
    """A mate-in-n score; negative n: getting mated (used when python-chess is not installed)."""

    def __init__(self, moves: int) -> None:
        self.moves = moves

    def score(self, *, mate_score: Optional[int] = None) -> Optional[int]:
        if mate_score is None:
            return None
        return mate_score - self.moves if self.moves > 0 else -mate_score - self.moves

    def mate(self) -> Optional[int]:
        return self.moves

    def is_mate(self) -> bool:
        return True

    def __neg__(self) -> Mate:
        return Mate(-self.moves)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Mate) and other.moves == self.moves

    def __hash__(self) -> int:
        return hash(("Mate", self.moves))

    def __repr__(self) -> str:
        return f"Mate({self.moves:+d})" if self.moves else "Mate(-0)"


class PovScore:
    """A score relative to the side ``turn`` (used when python-chess is not installed)."""

    def __init__(self, relative: Any, turn: bool) -> None:
        self.relative = relative
        self.turn = turn

    def white(self) -> Any:
        return self.pov(True)

    def black(self) -> Any:
        return self.pov(False)

    def pov(self, color: bool) -> Any:
        return self.relative if self.turn == color else -self.relative

    def is_mate(self) -> bool:
        return bool(self.relative.is_mate())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PovScore) and self.white() == other.white()

    def __hash__(self) -> int:
        return hash(self.white())

    def __repr__(self) -> str:
        return f"PovScore({self.relative!r}, {'WHITE' if self.turn else 'BLACK'})"


def _score_classes() -> tuple[Any, Any, Any]:
    """(PovScore, Cp, Mate): python-chess's when it is installed, else this module's."""
    try:
        import chess.engine
    except ImportError:
        return PovScore, Cp, Mate
    return chess.engine.PovScore, chess.engine.Cp, chess.engine.Mate


def _condense_affix(infix: str) -> Callable[[re.Match[str]], str]:
    def repl(match: re.Match[str]) -> str:
        if infix:
            return match.group("prefix") + infix + match.group("suffix")
        return match.group("prefix") and match.group("suffix")

    return repl


def _format_time(seconds: float) -> str:
    seconds = max(0, seconds)
    hours = int(seconds // 3600)
    minutes = int(seconds % 3600 // 60)
    rest = seconds % 3600 % 60
    return f"{hours:d}:{minutes:02d}:" + f"{rest:06.3f}".rstrip("0").rstrip(".")


def _read_time(match: Optional[re.Match[str]]) -> Optional[float]:
    if match is None:
        return None
    return int(match.group("hours")) * 3600 + int(match.group("minutes")) * 60 + float(match.group("seconds"))


# --- the tree ------------------------------------------------------------------------------


class GameNode(abc.ABC):
    """A node of a game tree: the :class:`Game` at the root, :class:`ChildNode` below it."""

    # Slots for speed (a node per move); __dict__ keeps other attributes settable.
    # The NAG set is made on first use (most nodes have none): one container less per move.
    __slots__ = ("parent", "move", "variations", "comment", "starting_comment", "_nags", "__dict__", "__weakref__")

    parent: Optional[GameNode]
    move: Optional[Move]
    variations: list[ChildNode]
    comment: str
    starting_comment: str
    _nags: Optional[set[int]]

    def __init__(self, *, comment: str = "") -> None:
        self.parent = None
        self.move = None
        self.variations = []
        self.comment = comment
        self.starting_comment = ""
        self._nags = None

    @property
    def nags(self) -> set[int]:
        """The node's NAGs (numeric annotation glyphs), a mutable set."""
        nags = self._nags
        if nags is None:
            nags = self._nags = set()
        return nags

    @nags.setter
    def nags(self, nags: set[int]) -> None:
        self._nags = nags

    @abc.abstractmethod
    def board(self) -> Board:
        """A new board with this node's position (and the moves leading here on its stack)."""

    @abc.abstractmethod
    def ply(self) -> int:
        """Half-moves to this node, counted from the start position's move number."""

    def turn(self) -> bool:
        """The side to move at this node."""
        return self.ply() % 2 == 0

    def root(self) -> GameNode:
        node = self
        while node.parent is not None:
            node = node.parent
        return node

    def game(self) -> Game:
        root = self.root()
        assert isinstance(root, Game), "GameNode not rooted in Game"
        return root

    def end(self) -> GameNode:
        """The last node of the main variation from here."""
        node = self
        while node.variations:
            node = node.variations[0]
        return node

    def is_end(self) -> bool:
        return not self.variations

    def starts_variation(self) -> bool:
        """True for a node that is not the first child of its parent."""
        parent = self.parent
        if parent is None or not parent.variations:
            return False
        return parent.variations[0] is not self

    def is_mainline(self) -> bool:
        """True when every node from the root to here is its parent's first child."""
        node = self
        while node.parent is not None:
            parent = node.parent
            if not parent.variations or parent.variations[0] is not node:
                return False
            node = parent
        return True

    def is_main_variation(self) -> bool:
        """True for the root and for the first child of a node."""
        parent = self.parent
        if parent is None:
            return True
        return not parent.variations or parent.variations[0] is self

    @overload
    def __getitem__(self, move: Union[SupportsIndex, Move, GameNode]) -> ChildNode: ...
    @overload
    def __getitem__(self, move: slice) -> list[ChildNode]: ...
    def __getitem__(self, move: Any) -> Any:
        """A child by index (any integer-like object, as a list takes it), by move or by
        node; a slice gives a list of children. IndexError for an index out of range,
        KeyError for a move or node that is no child."""
        if isinstance(move, (int, slice)):
            return self.variations[move]
        if not isinstance(move, (Move, GameNode)) and hasattr(type(move), "__index__"):
            try:
                index = operator.index(move)
            except TypeError:
                pass  # an __index__ that refuses: looked for among the moves, as python-chess does
            else:
                return self.variations[index]
        for variation in self.variations:
            if variation is move or variation.move == move:
                return variation
        raise KeyError(move)

    def __contains__(self, move: Union[SupportsIndex, Move, GameNode]) -> bool:
        try:
            self[move]
        except KeyError:
            return False
        return True

    @overload
    def variation(self, move: Union[SupportsIndex, Move, GameNode]) -> ChildNode: ...
    @overload
    def variation(self, move: slice) -> list[ChildNode]: ...
    def variation(self, move: Any) -> Any:
        """A child by index, by move or by node (a list of children for a slice)."""
        return self[move]

    def has_variation(self, move: Union[SupportsIndex, Move, GameNode]) -> bool:
        return move in self

    def promote_to_main(self, move: Union[SupportsIndex, Move, GameNode]) -> None:
        """Makes the given child the first."""
        variation = self[move]
        self.variations.remove(variation)
        self.variations.insert(0, variation)

    def promote(self, move: Union[SupportsIndex, Move, GameNode]) -> None:
        """Moves the given child one place up."""
        variation = self[move]
        i = self.variations.index(variation)
        if i > 0:
            self.variations[i - 1], self.variations[i] = self.variations[i], self.variations[i - 1]

    def demote(self, move: Union[SupportsIndex, Move, GameNode]) -> None:
        """Moves the given child one place down."""
        variation = self[move]
        i = self.variations.index(variation)
        if i < len(self.variations) - 1:
            self.variations[i + 1], self.variations[i] = self.variations[i], self.variations[i + 1]

    def remove_variation(self, move: Union[SupportsIndex, Move, GameNode]) -> None:
        self.variations.remove(self.variation(move))

    def add_variation(
        self, move: Any, *, comment: str = "", starting_comment: str = "", nags: Iterable[int] = ()
    ) -> ChildNode:
        """A new last child for the move (a kibitz or python-chess move)."""
        return ChildNode(self, _to_move(move), comment=comment, starting_comment=starting_comment, nags=nags)

    def add_main_variation(self, move: Any, *, comment: str = "", nags: Iterable[int] = ()) -> ChildNode:
        """A new first child for the move."""
        node = self.add_variation(move, comment=comment, nags=nags)
        self.variations.insert(0, self.variations.pop())
        return node

    def next(self) -> Optional[ChildNode]:
        return self.variations[0] if self.variations else None

    def mainline(self) -> Mainline[ChildNode]:
        """The nodes of the main line after this one."""
        return Mainline(self, _identity)

    def mainline_moves(self) -> Mainline[Move]:
        """The moves of the main line after this node."""
        return Mainline(self, _node_move)

    def add_line(
        self, moves: Iterable[Any], *, comment: str = "", starting_comment: str = "", nags: Iterable[int] = ()
    ) -> GameNode:
        """Adds the moves as a chain of children; the comment and NAGs go on the last node."""
        node: GameNode = self
        for move in moves:
            node = node.add_variation(move, starting_comment=starting_comment)
            starting_comment = ""
        node.comment = node.comment + " " + comment if node.comment else comment
        node.nags.update(nags)
        return node

    def eval(self) -> Any:
        """The first ``[%eval ...]`` of the comment as a PovScore, or None."""
        match = EVAL_REGEX.search(self.comment)
        if match is None:
            return None
        pov_score, cp, mate = _score_classes()
        turn = self.turn()
        if match.group("mate"):
            moves = int(match.group("mate"))
            score = mate(moves)
            if moves == 0:
                # Mate 0: the side to move is the side mated.
                return pov_score(score, turn)
        else:
            score = cp(round(float(match.group("cp")) * 100))
        return pov_score(score if turn else -score, turn)

    def eval_depth(self) -> Optional[int]:
        """The depth of the first ``[%eval ...]`` of the comment, or None."""
        match = EVAL_REGEX.search(self.comment)
        return int(match.group("depth")) if match and match.group("depth") else None

    def set_eval(self, score: Any, depth: Optional[int] = None) -> None:
        """Replaces the first ``[%eval ...]`` of the comment (or appends one); None removes it."""
        text = ""
        if score is not None:
            depth_suffix = "" if depth is None else f",{max(depth, 0):d}"
            white = score.white()
            cp = white.score()
            if cp is not None:
                text = f"[%eval {float(cp) / 100:.2f}{depth_suffix}]"
            elif white.mate():
                text = f"[%eval #{white.mate()}{depth_suffix}]"
        self.comment, found = EVAL_REGEX.subn(_condense_affix(text), self.comment, count=1)
        if not found and text:
            if self.comment and not self.comment.endswith(" "):
                self.comment += " "
            self.comment += text

    def arrows(self) -> list[Arrow]:
        """The arrows and squares of every ``[%csl ...]`` and ``[%cal ...]`` of the comment."""
        return [
            Arrow.from_pgn(group)
            for match in ARROWS_REGEX.finditer(self.comment)
            for group in match.group("arrows").split(",")
        ]

    def set_arrows(self, arrows: Iterable[Any]) -> None:
        """Replaces the ``[%csl ...]`` and ``[%cal ...]`` annotations of the comment."""
        csl: list[str] = []
        cal: list[str] = []
        for arrow in arrows:
            if isinstance(arrow, tuple):
                tail, head = arrow
                arrow = Arrow(tail, head)
            (csl if arrow.tail == arrow.head else cal).append(arrow.pgn())
        self.comment = ARROWS_REGEX.sub(_condense_affix(""), self.comment)
        prefix = ""
        if csl:
            prefix += f"[%csl {','.join(csl)}]"
        if cal:
            prefix += f"[%cal {','.join(cal)}]"
        if prefix and self.comment and not self.comment.startswith(" ") and not self.comment.startswith("\n"):
            self.comment = prefix + " " + self.comment
        else:
            self.comment = prefix + self.comment

    def clock(self) -> Optional[float]:
        """Seconds left on the clock from the first ``[%clk ...]`` of the comment, or None."""
        return _read_time(CLOCK_REGEX.search(self.comment))

    def set_clock(self, seconds: Optional[float]) -> None:
        """Replaces the first ``[%clk ...]`` of the comment (or appends one); None removes it."""
        self._set_time(CLOCK_REGEX, "clk", seconds)

    def emt(self) -> Optional[float]:
        """Seconds spent on the move from the first ``[%emt ...]`` of the comment, or None."""
        return _read_time(EMT_REGEX.search(self.comment))

    def set_emt(self, seconds: Optional[float]) -> None:
        """Replaces the first ``[%emt ...]`` of the comment (or appends one); None removes it."""
        self._set_time(EMT_REGEX, "emt", seconds)

    def _set_time(self, regex: re.Pattern[str], command: str, seconds: Optional[float]) -> None:
        text = "" if seconds is None else f"[%{command} {_format_time(seconds)}]"
        self.comment, found = regex.subn(_condense_affix(text), self.comment, count=1)
        if not found and text:
            if self.comment and not self.comment.endswith(" ") and not self.comment.endswith("\n"):
                self.comment += " "
            self.comment += text

    @abc.abstractmethod
    def accept(self, visitor: BaseVisitor[ResultT]) -> ResultT:
        """Walks the tree from this node in PGN order, calling the visitor; returns its result."""

    def accept_subgame(self, visitor: BaseVisitor[ResultT]) -> ResultT:
        """Walks headers and moves as if the game started at this node."""
        if visitor.begin_game() is not SKIP:
            game = self.game()
            board = self.board()
            setup = Game.without_tag_roster()
            setup.setup(board)
            visitor.begin_headers()
            for tagname, tagvalue in game.headers.items():
                if tagname not in setup.headers:
                    visitor.visit_header(tagname, tagvalue)
            for tagname, tagvalue in setup.headers.items():
                visitor.visit_header(tagname, tagvalue)
            if visitor.end_headers() is not SKIP:
                visitor.visit_board(board)
                if self.variations:
                    _walk(self.variations[0], board, visitor, True)
                visitor.visit_result(game.headers.get("Result", "*"))
        visitor.end_game()
        return visitor.result()

    def __str__(self) -> str:
        return self.accept(StringExporter(columns=None))


def _identity(node: ChildNode) -> ChildNode:
    return node


def _node_move(node: ChildNode) -> Move:
    return node.move


_NO_SIDELINES: Iterator[ChildNode] = iter(())


def _accept_node(node: ChildNode, board: Board, visitor: BaseVisitor[Any], boards: bool) -> None:
    if node.starting_comment:
        visitor.visit_comment(node.starting_comment)
    visitor.visit_move(board, node.move)
    if boards:
        board.push(node.move)
        visitor.visit_board(board)
        board.pop()
    if node._nags:
        for nag in sorted(node._nags):
            visitor.visit_nag(nag)
    if node.comment:
        visitor.visit_comment(node.comment)


def _walk(start: ChildNode, board: Board, visitor: BaseVisitor[Any], sidelines: bool) -> None:
    """Visits ``start`` and everything after it in PGN order, leaving the board as it was.

    Each frame is a line being walked: [current node, its siblings still to visit as
    variations, moves pushed on the board for this line, whether the line is a variation].
    """
    boards = _visits_boards(visitor)
    _accept_node(start, board, visitor, boards)
    siblings = start.parent.variations
    frames: list[list[Any]] = [
        [start, iter(siblings[1:]) if sidelines and len(siblings) > 1 else _NO_SIDELINES, 0, False]
    ]
    while frames:
        frame = frames[-1]
        variation = next(frame[1], None)
        if variation is not None:
            if visitor.begin_variation() is not SKIP:
                _accept_node(variation, board, visitor, boards)
                frames.append([variation, _NO_SIDELINES, 0, True])
            else:
                visitor.end_variation()
            continue
        node = frame[0]
        children = node.variations
        if children:
            board.push(node.move)
            frame[2] += 1
            child = children[0]
            _accept_node(child, board, visitor, boards)
            frame[0] = child
            frame[1] = iter(children[1:]) if len(children) > 1 else _NO_SIDELINES
            continue
        for _ in range(frame[2]):
            board.pop()
        frames.pop()
        if frame[3]:
            visitor.end_variation()


class ChildNode(GameNode):
    """A node below the root: the move leading to it, and its annotations."""

    parent: GameNode
    move: Move

    def __init__(
        self, parent: GameNode, move: Move, *, comment: str = "", starting_comment: str = "", nags: Iterable[int] = ()
    ) -> None:
        self.parent = parent
        self.move = move
        self.variations = []
        self.comment = comment
        self.starting_comment = starting_comment
        self._nags = set(nags) if nags else None
        parent.variations.append(self)

    def board(self) -> Board:
        moves: list[Any] = []
        append = moves.append
        node: GameNode = self
        parent = node.parent
        while parent is not None:
            append(node.move)
            node = parent
            parent = node.parent
        board = node.game().board()
        moves.reverse()
        if type(board).push is Board.push and board._unplayable is None:
            try:
                board._push_all(moves)
            except ValueError:
                # _push_all plays legal moves only; push also plays what python-chess's push
                # plays (a null move in check, a pseudo-legal move into check): the line is
                # played again from the start, move by move.
                board = node.game().board()
            else:
                return board
        # A variant board's push keeps more than the position (three-check's counters), and a
        # position kibitz cannot play is played move by move, as python-chess does.
        for move in moves:
            board.push(move)
        return board

    def ply(self) -> int:
        ply = 0
        node: GameNode = self
        while node.parent is not None:
            ply += 1
            node = node.parent
        return node.game().ply() + ply

    def san(self) -> str:
        """The move's SAN in its parent's position."""
        return self.parent.board().san(self.move)

    def uci(self, *, chess960: Optional[bool] = None) -> str:
        """The move's UCI; castling as king onto rook when ``chess960`` (default: the board's mode)."""
        board = self.parent.board()
        move = self.move
        if chess960 is None:
            chess960 = board.chess960
        if move and board.is_castling(move):
            f, t = move.from_square, move.to_square
            if chess960 and not board.chess960:
                t = f + 3 if t > f else f - 4
            elif not chess960 and board.chess960 and f in (4, 60) and t in (f + 3, f - 4):
                t = f + 2 if t > f else f - 2
            return _SQUARE_NAMES[f] + _SQUARE_NAMES[t]
        return move.uci()

    def end(self) -> ChildNode:
        return cast(ChildNode, super().end())

    def accept(self, visitor: BaseVisitor[ResultT]) -> ResultT:
        _walk(self, self.parent.board(), visitor, False)
        return visitor.result()

    def __repr__(self) -> str:
        try:
            board = self.parent.board()
            san = board.san(self.move)
        except ValueError:
            return f"<{type(self).__name__} at {id(self):#x} (dangling: {self.move})>"
        dots = "." if board.turn else "..."
        return f"<{type(self).__name__} at {id(self):#x} ({board.fullmove_number}{dots} {san} ...)>"


class Game(GameNode):
    """The root of a game tree: headers, the start position, and the errors met reading it."""

    headers: Headers
    errors: list[Exception]

    def __init__(self, headers: Optional[Union[Mapping[str, str], Iterable[tuple[str, str]]]] = None) -> None:
        super().__init__()
        self.headers = Headers(headers)
        self.errors = []

    def board(self) -> Board:
        return self.headers.board()

    def ply(self) -> int:
        return self.board().ply() if "FEN" in self.headers else 0

    def setup(self, board: Any) -> None:
        """Sets the start position (a board or a FEN): the FEN, SetUp and Variant tags."""
        if isinstance(board, str):
            setup: Any = _new_board(board, False)
            fen = setup.fen()
        else:
            setup = board
            fen = board.fen()
        starting_fen = getattr(type(setup), "starting_fen", STARTING_FEN)
        if fen == starting_fen:
            self.headers.pop("FEN", None)
            self.headers.pop("SetUp", None)
        else:
            self.headers["FEN"] = fen
            self.headers["SetUp"] = "1"
        if _is_standard(setup) and setup.chess960:
            self.headers["Variant"] = "Chess960"
        elif not _is_standard(setup):
            self.headers["Variant"] = type(setup).aliases[0]
            self.headers["FEN"] = fen
        else:
            self.headers.pop("Variant", None)

    def accept(self, visitor: BaseVisitor[ResultT]) -> ResultT:
        if visitor.begin_game() is not SKIP:
            for tagname, tagvalue in self.headers.items():
                visitor.visit_header(tagname, tagvalue)
            if visitor.end_headers() is not SKIP:
                board = self.board()
                visitor.visit_board(board)
                if self.comment:
                    visitor.visit_comment(self.comment)
                if self.variations:
                    _walk(self.variations[0], board, visitor, True)
                visitor.visit_result(self.headers.get("Result", "*"))
        visitor.end_game()
        return visitor.result()

    def time_control(self) -> TimeControl:
        """The parsed TimeControl tag (type UNKNOWN when there is none)."""
        return parse_time_control(self.headers.get("TimeControl", ""))

    @classmethod
    def from_board(cls: type[GameT], board: Any) -> GameT:
        """A game of the board's move stack (a kibitz or python-chess board), from its root."""
        game = cls()
        root = board.root()
        if not isinstance(root, Board):
            root = _new_board(root.fen(), bool(root.chess960))
        game.setup(root)
        node: GameNode = game
        for move in board.move_stack:
            node = ChildNode(node, _to_move(move))
        game.headers["Result"] = board.result()
        return game

    @classmethod
    def without_tag_roster(cls: type[GameT]) -> GameT:
        """A game with no headers at all."""
        return cls(headers={})

    @classmethod
    def builder(cls: type[GameT]) -> GameBuilder[GameT]:
        return GameBuilder(Game=cls)

    def __repr__(self) -> str:
        h = self.headers
        errors = f", {len(self.errors)} errors" if self.errors else ""
        return (
            f"<{type(self).__name__} at {id(self):#x} ({h.get('White', '?')!r} vs. {h.get('Black', '?')!r}, "
            f"{h.get('Date', '????.??.??')!r} at {h.get('Site', '?')!r}{errors})>"
        )


class Headers(MutableMapping[str, str]):
    """PGN tags in order: the seven-tag roster first (in roster order), then the others as added."""

    def __init__(
        self, data: Optional[Union[Mapping[str, str], Iterable[tuple[str, str]]]] = None, **kwargs: str
    ) -> None:
        self._tag_roster: dict[str, str] = {}
        self._others: dict[str, str] = {}
        if data is None:
            data = {
                "Event": "?",
                "Site": "?",
                "Date": "????.??.??",
                "Round": "?",
                "White": "?",
                "Black": "?",
                "Result": "*",
            }
        self.update(data, **kwargs)

    def is_chess960(self) -> bool:
        return self.get("Variant", "").lower() in _CHESS960_NAMES

    def is_wild(self) -> bool:
        return self.get("Variant", "").lower() in _WILD_NAMES

    def variant(self) -> type[Board]:
        """The board class of the ``Variant`` tag: kibitz.Board, or python-chess's variant
        board of that name (``kibitz.variant.boards``); ValueError for a name none has."""
        if "Variant" not in self or self.is_chess960() or self.is_wild():
            return Board
        name = self["Variant"]
        if name.lower() in _STANDARD_ALIASES:
            return Board
        from kibitz.variant.boards import find_variant

        return find_variant(name)

    def board(self) -> Board:
        variant = self.variant()
        return _new_board(self.get("FEN", variant.starting_fen), self.is_chess960(), variant)

    def __setitem__(self, key: str, value: str) -> None:
        if key in _ROSTER_SET:
            self._tag_roster[key] = value
        elif not TAG_NAME_REGEX.match(key):
            raise ValueError(f"invalid pgn header tag: {key!r}")
        elif "\n" in value or "\r" in value:
            raise ValueError(f"line break in pgn header {key}: {value!r}")
        else:
            self._others[key] = value

    def __getitem__(self, key: str) -> str:
        return self._tag_roster[key] if key in _ROSTER_SET else self._others[key]

    def __delitem__(self, key: str) -> None:
        if key in _ROSTER_SET:
            del self._tag_roster[key]
        else:
            del self._others[key]

    def __contains__(self, key: object) -> bool:
        return key in self._tag_roster or key in self._others

    def __iter__(self) -> Iterator[str]:
        roster = self._tag_roster
        for key in TAG_ROSTER:
            if key in roster:
                yield key
        yield from self._others

    def __len__(self) -> int:
        return len(self._tag_roster) + len(self._others)

    def copy(self: HeadersT) -> HeadersT:
        return type(self)(self)

    def __copy__(self: HeadersT) -> HeadersT:
        return self.copy()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in self.items())})"

    @classmethod
    def builder(cls: type[HeadersT]) -> HeadersBuilder[HeadersT]:
        return HeadersBuilder(Headers=cls)


class Mainline(Generic[MainlineMapT]):
    """The main line after a node, mapped through ``f`` (nodes or moves)."""

    def __init__(self, start: GameNode, f: Callable[[ChildNode], MainlineMapT]) -> None:
        self.start = start
        self.f = f

    def __bool__(self) -> bool:
        return bool(self.start.variations)

    def __iter__(self) -> Iterator[MainlineMapT]:
        node = self.start
        f = self.f
        while node.variations:
            node = node.variations[0]
            yield f(node)

    def __reversed__(self) -> Iterator[MainlineMapT]:
        node = self.start.end()
        while node.parent is not None and node is not self.start:
            yield self.f(cast(ChildNode, node))
            node = node.parent

    def accept(self, visitor: BaseVisitor[ResultT]) -> ResultT:
        node = self.start
        board = self.start.board()
        boards = _visits_boards(visitor)
        while node.variations:
            child = node.variations[0]
            _accept_node(child, board, visitor, boards)
            board.push(child.move)
            node = child
        return visitor.result()

    def __str__(self) -> str:
        return self.accept(StringExporter(columns=None))

    def __repr__(self) -> str:
        return f"<Mainline at {id(self):#x} ({self.accept(StringExporter(columns=None, comments=False))})>"


# --- visitors ------------------------------------------------------------------------------


class BaseVisitor(abc.ABC, Generic[ResultT]):
    """Callbacks in PGN order, for :func:`read_game` and the ``accept`` methods."""

    def begin_game(self) -> Optional[SkipType]:
        """At the start of a game; SKIP skips it."""
        return None

    def begin_headers(self) -> Optional[Headers]:
        """Before the headers; a visitor that keeps a :class:`Headers` returns it."""
        return None

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        """Each header tag."""

    def end_headers(self) -> Optional[SkipType]:
        """After the headers; SKIP skips the movetext."""
        return None

    def begin_parse_san(self, board: Board, san: str) -> Optional[SkipType]:
        """Before each SAN token is parsed; SKIP leaves it unparsed."""
        return None

    def parse_san(self, board: Board, san: str) -> Move:
        """Parses a SAN token (python-chess's reading of odd SAN and its error messages)."""
        return board.parse_san(san)

    def visit_move(self, board: Board, move: Move) -> None:
        """Each move, with the board before it (to be left as it was)."""

    def visit_board(self, board: Board) -> None:
        """The start position and the position after each move (to be left as it was)."""

    def visit_comment(self, comment: str) -> None:
        """Each comment."""

    def visit_nag(self, nag: int) -> None:
        """Each NAG (suffix glyphs such as ``!?`` arrive as their NAGs)."""

    def begin_variation(self) -> Optional[SkipType]:
        """At the start of a variation (not the main line); SKIP skips it."""
        return None

    def end_variation(self) -> None:
        """At the end of a variation."""

    def visit_result(self, result: str) -> None:
        """At the end of the movetext."""

    def end_game(self) -> None:
        """At the end of a game."""

    @abc.abstractmethod
    def result(self) -> ResultT:
        """What the visitor built."""

    def handle_error(self, error: Exception) -> None:
        """An error met while reading; the default raises it."""
        raise error


def _callback(visitor: BaseVisitor[Any], name: str) -> Any:
    """The function behind the visitor's callback ``name``, looked up as python-chess calls it:
    on the visitor, so that one set on the instance (``visitor.parse_san = ...``,
    ``unittest.mock.patch.object``) overrides its class's; None where that is no method.
    Where kibitz leaves out a call to a callback that does nothing, or does a visitor's work
    inline, it asks this first. (The instance's ``__dict__`` is not looked at: reading it
    makes every later attribute access on the instance slower.)"""
    return getattr(getattr(visitor, name), "__func__", None)


# The callbacks that reading movetext leaves out where they are BaseVisitor's no-ops, or does
# inline for GameBuilder; the rest of BaseVisitor's movetext callbacks; and ``_callback`` for
# each, in one call, where all of them are methods (the ordinary case).
_MOVETEXT_CALLBACKS = ("begin_parse_san", "parse_san", "visit_board", "visit_comment", "visit_nag", "visit_move")
_OTHER_MOVETEXT_CALLBACKS = ("visit_result", "begin_variation", "end_variation")
_movetext_funcs = operator.attrgetter(*(name + ".__func__" for name in _MOVETEXT_CALLBACKS))
_other_movetext_funcs = operator.attrgetter(*(name + ".__func__" for name in _OTHER_MOVETEXT_CALLBACKS))
_header_funcs = operator.attrgetter("begin_headers.__func__", "visit_header.__func__")
# BaseVisitor's callbacks of the two lists (but visit_move): a visitor with these looks at
# nothing but the moves.
_BASE_MOVETEXT_FUNCS = tuple(getattr(BaseVisitor, name) for name in _MOVETEXT_CALLBACKS[:-1])
_BASE_OTHER_MOVETEXT_FUNCS = tuple(getattr(BaseVisitor, name) for name in _OTHER_MOVETEXT_CALLBACKS)


def _visits_boards(visitor: BaseVisitor[Any]) -> bool:
    """Whether the visitor's visit_board does anything (is not BaseVisitor's no-op)."""
    return _callback(visitor, "visit_board") is not BaseVisitor.visit_board


class GameBuilder(BaseVisitor[GameT]):
    """Builds a :class:`Game` tree: the default visitor of :func:`read_game`."""

    @overload
    def __init__(self: GameBuilder[Game]) -> None: ...
    @overload
    def __init__(self: GameBuilder[GameT], *, Game: type[GameT]) -> None: ...
    def __init__(self, *, Game: Any = Game) -> None:
        self.Game = Game

    def begin_game(self) -> None:
        self.game: GameT = self.Game()
        self.variation_stack: list[GameNode] = [self.game]
        self.starting_comment = ""
        self.in_variation = False

    def begin_headers(self) -> Headers:
        return self.game.headers

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        self.game.headers[tagname] = tagvalue

    def visit_nag(self, nag: int) -> None:
        self.variation_stack[-1].nags.add(nag)

    def begin_variation(self) -> None:
        parent = self.variation_stack[-1].parent
        assert parent is not None, "begin_variation called, but root node on top of stack"
        self.variation_stack.append(parent)
        self.in_variation = False

    def end_variation(self) -> None:
        # Never the last node: after an illegal move, python-chess's reader can end more
        # variations than it began (and then fails on an empty stack); here they are ignored.
        if len(self.variation_stack) > 1:
            self.variation_stack.pop()

    def visit_result(self, result: str) -> None:
        if self.game.headers.get("Result", "*") == "*":
            self.game.headers["Result"] = result

    def visit_comment(self, comment: str) -> None:
        top = self.variation_stack[-1]
        if self.in_variation or (top.parent is None and not top.variations):
            # After a move: that move's comment; before the first move: the game's.
            top.comment = " ".join(c for c in (top.comment, comment) if c)
        else:
            # Before the first move of a variation: its starting comment.
            self.starting_comment = " ".join(c for c in (self.starting_comment, comment) if c)

    def visit_move(self, board: Board, move: Move) -> None:
        top = self.variation_stack[-1]
        if type(top).add_variation is GameNode.add_variation:
            node: GameNode = ChildNode(top, move, starting_comment=self.starting_comment)
        else:
            # A node class of the caller's (python-chess's GameNode subclasses make their
            # children in add_variation): its children are made its way.
            node = top.add_variation(move, starting_comment=self.starting_comment)
        self.variation_stack[-1] = node
        self.starting_comment = ""
        self.in_variation = True

    def handle_error(self, error: Exception) -> None:
        """Logs the error on LOGGER and keeps it in ``game.errors``."""
        LOGGER.error("%s while parsing %r", error, self.game)
        self.game.errors.append(error)

    def result(self) -> GameT:
        return self.game


class HeadersBuilder(BaseVisitor[HeadersT]):
    """Collects the headers of a game and skips its movetext."""

    @overload
    def __init__(self: HeadersBuilder[Headers]) -> None: ...
    @overload
    def __init__(self: HeadersBuilder[HeadersT], *, Headers: type[Headers]) -> None: ...
    def __init__(self, *, Headers: Any = Headers) -> None:
        self.Headers = Headers

    def begin_headers(self) -> HeadersT:
        self.headers: HeadersT = self.Headers({})
        return self.headers

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        self.headers[tagname] = tagvalue

    def end_headers(self) -> SkipType:
        return SKIP

    def result(self) -> HeadersT:
        return self.headers


# The callbacks by which GameBuilder and HeadersBuilder keep the headers, done inline by read_game.
_HEADER_FUNCS: dict[type[Any], tuple[Any, Any]] = {
    GameBuilder: (GameBuilder.begin_headers, GameBuilder.visit_header),
    HeadersBuilder: (HeadersBuilder.begin_headers, HeadersBuilder.visit_header),
}


class BoardBuilder(BaseVisitor[Board]):
    """The final position of the main line (with the main line on its move stack)."""

    def begin_game(self) -> None:
        self.skip_variation_depth = 0

    def begin_variation(self) -> SkipType:
        self.skip_variation_depth += 1
        return SKIP

    def end_variation(self) -> None:
        self.skip_variation_depth = max(self.skip_variation_depth - 1, 0)

    def visit_board(self, board: Board) -> None:
        if not self.skip_variation_depth:
            self.board = board

    def result(self) -> Board:
        return self.board


class SkipVisitor(BaseVisitor[Literal[True]]):
    """Skips a game."""

    def begin_game(self) -> SkipType:
        return SKIP

    def end_headers(self) -> SkipType:
        return SKIP

    def begin_variation(self) -> SkipType:
        return SKIP

    def result(self) -> Literal[True]:
        return True


class StringExporterMixin:
    """PGN writing shared by :class:`StringExporter` and :class:`FileExporter`.

    Movetext lines are at most ``columns`` characters (``None``: one line); headers and
    comments are never broken.
    """

    def __init__(
        self, *, columns: Optional[int] = 80, headers: bool = True, comments: bool = True, variations: bool = True
    ) -> None:
        self.columns = columns
        self.headers = headers
        self.comments = comments
        self.variations = variations
        self.found_headers = False
        self.force_movenumber = True
        self.lines: list[str] = []
        self.current_line = ""
        self.variation_depth = 0

    def flush_current_line(self) -> None:
        if self.current_line:
            self.lines.append(self.current_line.rstrip())
        self.current_line = ""

    def write_token(self, token: str) -> None:
        if self.columns is not None and self.columns - len(self.current_line) < len(token):
            self.flush_current_line()
        self.current_line += token

    def write_line(self, line: str = "") -> None:
        self.flush_current_line()
        self.lines.append(line.rstrip())

    def end_game(self) -> None:
        self.write_line()

    def begin_headers(self) -> None:
        self.found_headers = False

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        if self.headers:
            self.found_headers = True
            self.write_line(f'[{tagname} "{tagvalue}"]')

    def end_headers(self) -> None:
        if self.found_headers:
            self.write_line()

    def begin_variation(self) -> Optional[SkipType]:
        self.variation_depth += 1
        if self.variations:
            self.write_token("( ")
            self.force_movenumber = True
            return None
        return SKIP

    def end_variation(self) -> None:
        self.variation_depth -= 1
        if self.variations:
            self.write_token(") ")
            self.force_movenumber = True

    def visit_comment(self, comment: str) -> None:
        if self.comments and (self.variations or not self.variation_depth):
            self.write_token("{ " + comment.replace("}", "").strip() + " } ")
            self.force_movenumber = True

    def visit_nag(self, nag: int) -> None:
        if self.comments and (self.variations or not self.variation_depth):
            self.write_token("$" + str(nag) + " ")

    def visit_move(self, board: Board, move: Move) -> None:
        if self.variations or not self.variation_depth:
            if board.turn:
                self.write_token(str(board.fullmove_number) + ". ")
            elif self.force_movenumber:
                self.write_token(str(board.fullmove_number) + "... ")
            self.write_token(board.san(move) + " ")
            self.force_movenumber = False

    def visit_result(self, result: str) -> None:
        self.write_token(result + " ")


class StringExporter(StringExporterMixin, BaseVisitor[str]):
    """Writes a game as a PGN string (no newline at the end)."""

    def result(self) -> str:
        if self.current_line:
            return "\n".join([*self.lines, self.current_line.rstrip()]).rstrip()
        return "\n".join(self.lines).rstrip()

    def __str__(self) -> str:
        return self.result()


class FileExporter(StringExporterMixin, BaseVisitor[int]):
    """Writes games to a text file, each followed by a blank line; the result is the characters written."""

    def __init__(
        self,
        handle: TextIO,
        *,
        columns: Optional[int] = 80,
        headers: bool = True,
        comments: bool = True,
        variations: bool = True,
    ) -> None:
        super().__init__(columns=columns, headers=headers, comments=comments, variations=variations)
        self.handle = handle

    def begin_game(self) -> None:
        self.written: int = 0

    def flush_current_line(self) -> None:
        if self.current_line:
            self.written += self.handle.write(self.current_line.rstrip())
            self.written += self.handle.write("\n")
        self.current_line = ""

    def write_line(self, line: str = "") -> None:
        self.flush_current_line()
        self.written += self.handle.write(line.rstrip())
        self.written += self.handle.write("\n")

    def result(self) -> int:
        return self.written

    def __repr__(self) -> str:
        return f"<FileExporter at {id(self):#x}>"

    def __str__(self) -> str:
        return self.__repr__()


# --- reading -------------------------------------------------------------------------------


@overload
def read_game(handle: TextIO) -> Optional[Game]: ...
@overload
def read_game(handle: TextIO, *, Visitor: Callable[[], BaseVisitor[ResultT]]) -> Optional[ResultT]: ...
def read_game(handle: TextIO, *, Visitor: Any = GameBuilder) -> Any:
    """Reads the next game of a text-mode PGN file; None at the end of the file.

    A game ends at a blank line outside comments or at the end of the file. Leading blank
    lines, ``%`` escape lines, ``;`` comment lines and a byte order mark are skipped.
    Tokens that cannot be read are skipped; errors (illegal moves, bad FENs) go to the
    visitor's ``handle_error`` and reading goes on (after an illegal move, the rest of that
    variation is skipped).
    """
    visitor = Visitor()
    readline = handle.readline
    found_game = False
    skipping = False
    managed: Optional[Headers] = None
    unmanaged: Optional[Headers] = None
    roster: Optional[dict[str, str]] = None
    others: Optional[dict[str, str]] = None

    line = readline().lstrip("\ufeff")
    while line.isspace() or line.startswith("%") or line.startswith(";"):
        line = readline()

    empty_lines = 0
    while line:
        if line.startswith("%") or line.startswith(";"):
            line = readline()
            continue
        if empty_lines < 1 and line.isspace():
            empty_lines += 1
            line = readline()
            continue
        if not found_game:
            found_game = True
            skipping = visitor.begin_game() is SKIP
            if not skipping:
                managed = visitor.begin_headers()
                if not isinstance(managed, Headers):
                    unmanaged = Headers({})
                elif type(managed) is Headers and type(visitor) in (GameBuilder, HeadersBuilder):
                    # Their visit_header stores the tag in these Headers: done inline below
                    # (TAG_REGEX admits only valid names and values without line breaks),
                    # unless the instance has a begin_headers or visit_header of its own.
                    try:
                        inline = _header_funcs(visitor) == _HEADER_FUNCS[type(visitor)]
                    except AttributeError:  # one that is no method (a function set on the instance)
                        inline = False
                    if inline:
                        roster, others = managed._tag_roster, managed._others
        if not line.startswith("["):
            break
        empty_lines = 0
        if not skipping:
            tag = TAG_REGEX.match(line)
            if tag:
                name, value = tag.groups()
                if roster is not None and others is not None:
                    if name in _ROSTER_SET:
                        roster[name] = value
                    else:
                        others[name] = value
                else:
                    visitor.visit_header(name, value)
                    if unmanaged is not None:
                        unmanaged[name] = value
        line = readline()

    if not found_game:
        return None

    if not skipping:
        skipping = visitor.end_headers() is SKIP

    board: Optional[Board] = None
    if not skipping:
        headers = managed if unmanaged is None else unmanaged
        assert headers is not None
        variant: type[Board] = Board
        try:
            variant = headers.variant()
        except ValueError as error:
            visitor.handle_error(error)
        try:
            board = _new_board(headers.get("FEN", variant.starting_fen), headers.is_chess960(), variant)
        except ValueError as error:
            visitor.handle_error(error)
            skipping = True
        else:
            visitor.visit_board(board)

    if skipping or board is None:
        _skip_movetext(line, readline)
        visitor.end_game()
        return visitor.result()

    _read_movetext(visitor, board, line, readline)
    visitor.end_game()
    return visitor.result()


def _skip_movetext(line: str, readline: Callable[[], str]) -> None:
    """Consumes the rest of a game: up to a blank line outside comments, or the end."""
    in_comment = False
    while line:
        if not in_comment:
            if line.isspace():
                return
            if line.startswith("%"):
                line = readline()
                continue
        if "{" in line or "}" in line or ";" in line:
            for match in SKIP_MOVETEXT_REGEX.finditer(line):
                token = match.group(0)
                if token == "{":
                    in_comment = True
                elif not in_comment and token == ";":
                    break
                elif token == "}":
                    in_comment = False
        line = readline()


# Most movetext lines hold nothing but move numbers, SAN, results, NAGs, suffix glyphs and
# comments closed on the same line. Such a line is read without the general tokenizer, by
# _core.plain_tokens (Rust): the text between comments is split at whitespace, each chunk a
# move number and its tokens, and a comment comes back as one token: "{" and its text.
# Anything else (parentheses, ";", a comment running on to the next line, any other chunk)
# sends the line to the general tokenizer.
_RESULTS = frozenset(("*", "1-0", "0-1", "1/2-1/2"))

# A lone surrogate (text from a file opened with errors="surrogateescape") cannot be handed to
# the core, which takes only text that encodes to UTF-8: a line with one is read by the Python
# tokenizer, as python-chess reads it. _NOT_PLAIN stands in for such a line where the core
# reads lines itself (read_plain_movetext): it is no plain line, so the core hands it back.
_SURROGATE = re.compile("[\ud800-\udfff]")
_NOT_PLAIN = "\x00\n"


def _core_safe(line: str) -> bool:
    """Whether the core can take ``line`` (no lone surrogate in it)."""
    return line.isascii() or _SURROGATE.search(line) is None


def _read_movetext(visitor: BaseVisitor[Any], board: Board, line: str, readline: Callable[[], str]) -> None:
    cls = type(visitor)
    # The callbacks as python-chess calls them (on the instance); calls to BaseVisitor's
    # no-op callbacks are left out.
    try:
        callbacks = _movetext_funcs(visitor)
    except AttributeError:  # one that is no method (a function set on the instance)
        callbacks = tuple(_callback(visitor, name) for name in _MOVETEXT_CALLBACKS)
    begin_parse_san_func, parse_san_func, visit_board_func, visit_comment_func, visit_nag_func, visit_move_func = (
        callbacks
    )
    call_begin_parse = begin_parse_san_func is not BaseVisitor.begin_parse_san
    call_visit_board = visit_board_func is not BaseVisitor.visit_board
    custom_parse = parse_san_func is not BaseVisitor.parse_san
    parse_san = visitor.parse_san
    visit_move = visitor.visit_move
    visit_nag = visitor.visit_nag
    handle_error = visitor.handle_error
    # The tree is built inline for GameBuilder itself (not for subclasses, which may hook in,
    # nor for an instance with callbacks of its own in place of those done inline).
    builder = (
        visitor
        if isinstance(visitor, GameBuilder)
        and cls is GameBuilder
        and visitor.Game is Game
        and not (call_begin_parse or call_visit_board or custom_parse)
        and visit_move_func is GameBuilder.visit_move
        and visit_comment_func is GameBuilder.visit_comment
        and visit_nag_func is GameBuilder.visit_nag
        else None
    )
    stack = builder.variation_stack if builder is not None else []
    new_node = object.__new__
    # A visitor that looks only at moves (BaseVisitor's callbacks for the rest): whole runs of
    # plain lines are read in Rust (read_plain_movetext), this loop taking the other lines.
    moves_only = builder is None and callbacks[:-1] == _BASE_MOVETEXT_FUNCS
    if moves_only:
        try:
            moves_only = _other_movetext_funcs(visitor) == _BASE_OTHER_MOVETEXT_FUNCS
        except AttributeError:  # one that is no method (a function set on the instance)
            moves_only = False
    move_callback = visit_move if visit_move_func is not BaseVisitor.visit_move else None

    held: list[str] = []  # the line _NOT_PLAIN stands in for

    def core_readline() -> str:
        """readline for the core: a line it cannot take comes as _NOT_PLAIN (held back)."""
        line = readline()
        if line.isascii() or _SURROGATE.search(line) is None:
            return line
        held.append(line)
        return _NOT_PLAIN

    # A variant board (a subclass) reads every move through its own parse_san and push; the
    # read-ahead in Rust plays standard chess.
    native = type(board) is Board
    boards = [board]
    depths = [0]  # moves on each board's stack
    skip_depth = 0
    finditer = MOVETEXT_REGEX.finditer
    fresh_line = True
    pos = 0  # where the scan of a line goes on (after a comment closed on it)

    def push_san_or_error(board: Board, token: str) -> Optional[Move]:
        """For read_plain_movetext growing the GameBuilder's tree: the move, or None after the error."""
        try:
            return board.push_san(token)
        except ValueError as error:
            handle_error(error)
            return None

    def play_san(board: Board, token: str) -> bool:
        """Parses a SAN token, visits and plays the move; False when it was an error. Also
        read_plain_movetext's fallback (which counts the moves on the boards itself)."""
        try:
            move = parse_san(board, token) if custom_parse else board.parse_san(token)
        except ValueError as error:
            handle_error(error)
            return False
        visit_move(board, move)
        try:
            board.push(move)
        except ValueError as error:  # what a custom parse_san returned cannot be played
            handle_error(error)
            return False
        return True

    def san_token(token: str) -> bool:
        """Parses and plays a SAN token; False when it was an error (skip the variation)."""
        board = boards[-1]
        if not call_begin_parse or visitor.begin_parse_san(board, token) is not SKIP:
            if not play_san(board, token):
                if call_visit_board:
                    visitor.visit_board(board)
                return False
            depths[-1] += 1
        if call_visit_board:
            visitor.visit_board(board)
        return True

    while line:
        if fresh_line:
            if line.startswith("%") or line.startswith(";"):
                line = readline()
                continue
            if line.isspace():
                return
            # A plain line (see _core.plain_tokens) is read ahead in Rust on a copy of the
            # board: its SAN come back as Moves; a SAN that does not read comes back as text,
            # last, and is parsed here on the real board for python-chess's error.
            plain: Optional[list[Any]]
            if not native or not _core_safe(line):
                plain = None  # the general tokenizer below reads it
            elif moves_only or builder is not None:
                if builder is None:
                    line, skip_depth, done = read_plain_movetext(
                        line, core_readline, boards, depths, skip_depth, move_callback, play_san
                    )
                else:
                    line, skip_depth, done = read_plain_movetext(
                        line, core_readline, boards, depths, skip_depth, None, push_san_or_error, builder, ChildNode
                    )
                if held:
                    line = held.pop()
                if done:
                    return
                plain = None  # a line it could not read: the general tokenizer below reads it
            elif skip_depth or call_begin_parse or custom_parse:
                plain = plain_tokens(line)
            else:
                plain = boards[-1]._plain_line(line)
            if plain is not None:
                if skip_depth:
                    # No parentheses on a plain line: all of it is skipped.
                    line = readline()
                    continue
                board = boards[-1]
                played = 0
                push = board.push
                if builder is None:
                    for token in plain:
                        if type(token) is Move:
                            visit_move(board, token)
                            push(token)
                            played += 1
                            if call_visit_board:
                                visitor.visit_board(board)
                            continue
                        first = token[0]
                        if first == "{":
                            visitor.visit_comment(token[1:])
                        elif first == "$":
                            visit_nag(int(token[1:]))
                        elif first == "!" or first == "?":
                            visit_nag(_SUFFIX_NAGS[token])
                        elif token in _RESULTS and len(boards) == 1:
                            visitor.visit_result(token)
                        elif call_begin_parse or custom_parse:
                            if not san_token(token):
                                skip_depth = 1
                                break
                        else:
                            # A SAN the read-ahead could not play: its error, from the board.
                            try:
                                move = board.parse_san(token)
                            except ValueError as error:
                                handle_error(error)
                                if call_visit_board:
                                    visitor.visit_board(board)
                                skip_depth = 1
                                break
                            visit_move(board, move)
                            push(move)
                            played += 1
                            if call_visit_board:
                                visitor.visit_board(board)
                    depths[-1] += played
                    line = readline()
                    continue
                # GameBuilder: the tree is grown here, as its callbacks would.
                top = stack[-1]
                starting = builder.starting_comment
                in_variation = builder.in_variation
                for token in plain:
                    if type(token) is Move:
                        push(token)
                        move = token
                    else:
                        first = token[0]
                        if first == "{":
                            comment = token[1:]
                            if in_variation or (top.parent is None and not top.variations):
                                if top.comment and comment:
                                    top.comment = top.comment + " " + comment
                                elif comment:
                                    top.comment = comment
                            elif starting and comment:
                                starting = starting + " " + comment
                            elif comment:
                                starting = comment
                            continue
                        if first == "$":
                            top.nags.add(int(token[1:]))
                            continue
                        if first == "!" or first == "?":
                            top.nags.add(_SUFFIX_NAGS[token])
                            continue
                        if token in _RESULTS and len(boards) == 1:
                            builder.visit_result(token)
                            continue
                        try:
                            move = board.push_san(token)
                        except ValueError as error:
                            handle_error(error)
                            skip_depth = 1
                            break
                    played += 1
                    node = new_node(ChildNode)
                    node.parent = top
                    node.move = move
                    node.variations = []
                    node.comment = ""
                    node.starting_comment = starting
                    node._nags = None
                    top.variations.append(node)
                    top = node
                    starting = ""
                    in_variation = True
                depths[-1] += played
                stack[-1] = top
                builder.starting_comment = starting
                builder.in_variation = in_variation
                line = readline()
                continue
        fresh_line = True
        for match in finditer(line, pos):
            kind = match.lastindex
            if kind == _TOK_SAN:
                if skip_depth:
                    continue
                if builder is not None:
                    board = boards[-1]
                    token = match.group(0)
                    try:
                        move = board.push_san(token)
                    except ValueError as error:
                        handle_error(error)
                        skip_depth = 1
                        continue
                    parent = stack[-1]
                    node = new_node(ChildNode)
                    node.parent = parent
                    node.move = move
                    node.variations = []
                    node.comment = ""
                    node.starting_comment = builder.starting_comment
                    node._nags = None
                    parent.variations.append(node)
                    stack[-1] = node
                    builder.starting_comment = ""
                    builder.in_variation = True
                    depths[-1] += 1
                elif not san_token(match.group(0)):
                    skip_depth = 1
            elif kind == _TOK_COMMENT:
                # The comment's text starts after "{" (and one space); it ends before "}"
                # (and one space), on this line or a later one. Scanning goes on after "}".
                start = match.start()
                start += 2 if line.startswith("{ ", start) else 1
                close = line.find("}", start)
                if close >= 0:
                    end = close - 1 if close > start and line[close - 1] == " " else close
                    comment = line[start:end]
                    pos = close + 1
                else:
                    line = line[start:]
                    parts = []
                    while line and "}" not in line:
                        parts.append(line)
                        line = readline()
                    if line:
                        close = line.find("}")
                        end = close - 1 if close > 0 and line[close - 1] == " " else close
                        parts.append(line[:end])
                        line = line[close + 1 :]
                    comment = "".join(parts)
                    pos = 0
                if not skip_depth:
                    if builder is not None:
                        # GameBuilder.visit_comment, inline.
                        top = stack[-1]
                        if builder.in_variation or (top.parent is None and not top.variations):
                            if top.comment and comment:
                                top.comment = top.comment + " " + comment
                            elif comment:
                                top.comment = comment
                        elif builder.starting_comment and comment:
                            builder.starting_comment = builder.starting_comment + " " + comment
                        elif comment:
                            builder.starting_comment = comment
                    else:
                        visitor.visit_comment(comment)
                fresh_line = False
                break
            elif kind == _TOK_OPEN:
                if skip_depth:
                    skip_depth += 1
                elif depths[-1]:
                    if visitor.begin_variation() is SKIP:
                        skip_depth = 1
                    else:
                        board = boards[-1].copy()
                        board.pop()
                        boards.append(board)
                        depths.append(depths[-1] - 1)
            elif kind == _TOK_CLOSE:
                if skip_depth == 1:
                    skip_depth = 0
                    visitor.end_variation()
                elif skip_depth:
                    skip_depth -= 1
                elif len(boards) > 1:
                    visitor.end_variation()
                    boards.pop()
                    depths.pop()
            elif skip_depth:
                continue
            elif kind == _TOK_LINE_COMMENT:
                break
            elif kind == _TOK_NAG:
                visit_nag(int(match.group(0)[1:]))
            elif kind == _TOK_SUFFIX:
                visit_nag(_SUFFIX_NAGS[match.group(0)])
            elif len(boards) == 1:  # a result
                visitor.visit_result(match.group(0))
            elif not san_token(match.group(0)):
                # A result inside a variation is read as SAN (and fails as python-chess's does).
                skip_depth = 1
        if fresh_line:
            line = readline()
            pos = 0


def read_headers(handle: TextIO) -> Optional[Headers]:
    """Reads the headers of the next game and skips its movetext; None at the end of the file."""
    global _read_ahead
    scanner = _read_ahead
    if scanner is not None:
        # The file read last, still where its last game left it: its next game's headers
        # in one call.
        _read_ahead = None
        try:
            got = scanner.next_headers_if_following(handle, Headers)
        except OSError:
            if not _cannot_tell(handle):
                raise
            got = None
        if got is True or got.__class__ is Headers:
            _read_ahead = scanner
            return None if got is True else got
        if got is not False:  # a "\r" ahead, or a file that cannot tell: line by line from here
            if got is not None:
                _READ_BY_LINE.add(handle)
            return read_game(handle, Visitor=HeadersBuilder)
    scanned = _scan_file(handle)
    if scanned is None:
        return read_game(handle, Visitor=HeadersBuilder)
    found, roster, others = scanned
    if not found:
        return None
    headers = Headers.__new__(Headers)
    headers._tag_roster = roster
    headers._others = others
    return headers


def skip_game(handle: TextIO) -> bool:
    """Skips the next game; False at the end of the file."""
    global _read_ahead
    scanner = _read_ahead
    if scanner is not None:
        # The file read last, still where its last game left it: skipped in one call (an
        # int: 1 skipped, 0 at the end).
        _read_ahead = None
        try:
            got = scanner.skip_if_following(handle)
        except OSError:
            if not _cannot_tell(handle):
                raise
            got = None
        if got.__class__ is int:
            _read_ahead = scanner
            return got == 1
        if got is not False:  # a "\r" ahead, or a file that cannot tell: line by line from here
            if got is not None:
                _READ_BY_LINE.add(handle)
            return bool(read_game(handle, Visitor=SkipVisitor))
    scanned = _scan_file(handle, False)
    if scanned is None:
        return bool(read_game(handle, Visitor=SkipVisitor))
    return scanned[0]


# read_headers and skip_game on a text file (io.TextIOWrapper, as open() gives) in an encoding
# whose byte offsets kibitz can count: the file is read ahead in chunks into a
# _core.GameScanner, which finds where each game ends as python-chess's line-by-line reading
# would, and the file is set right after the game (seek() to its byte offset), so it is left
# where python-chess would leave it. The text read ahead is kept for the next call on the same
# file, if the file is still where it was left: then one Rust call reads the game, makes its
# Headers and sets the file. A plain file (open()'s io.BufferedReader over io.FileIO) is read
# at offsets through its descriptor (pread, straight into the scanner's buffer), and whether
# it is still where it was left is asked of the descriptor (its buffer, emptied by the seek,
# moves the descriptor on whenever anything reads through it). None (the file left as it
# was) where none of this can be done (another kind of file object, an encoding of several
# bytes a character, text that does not decode, a "\r" in the text): the caller reads line
# by line.
#
# Text with "\r" is read line by line, never sought: where a line ends in "\r\n" the text
# layer's tell() has two cookies for one place (after the "\n", or before it with a "\r"
# pending in the decoder), and which one it gives depends on the chunks it has read since the
# file was opened or last sought. Only reading as python-chess reads, without a seek, leaves
# the file with python-chess's cookie. Such files are recognised before anything is read
# (the bytes ahead are peeked at without moving the file: os.pread, or an io.BytesIO's
# buffer) and remembered; reading them line by line is also the quicker way (three times
# the scan that re-read every game after translating its newlines).
_ENCODING_KINDS: dict[str, int] = {}  # encoding name -> _UTF8, _LATIN1 (one byte a character) or _OTHER
_UTF8, _LATIN1, _OTHER = 0, 1, 2
_SCAN_CHUNK = 65536
# Bytes peeked at for a "\r": a file written with "\r\n" has one in its first line; 64 kB
# also finds one after a long first game.
_PEEK = 65536
_READ_BY_LINE: weakref.WeakSet[Any] = weakref.WeakSet()  # files with "\r" in their text


def _encoding_kind(name: str) -> int:
    kind = _ENCODING_KINDS.get(name)
    if kind is None:
        try:
            canonical = codecs.lookup(name).name
        except LookupError:
            canonical = ""
        # UTF-8 is read as bytes and checked in Rust; ASCII and Latin-1 (a character a byte) as text.
        kind = _UTF8 if canonical == "utf-8" else _LATIN1 if canonical in ("ascii", "iso8859-1") else _OTHER
        _ENCODING_KINDS[name] = kind
    return kind


_read_ahead: Optional[GameScanner] = None  # following the file read last


def _cr_ahead(handle: Any, start: int) -> bool:
    """Whether the bytes from ``start`` on hold a "\r", read without moving the file; False
    where they cannot be read so."""
    buffer = handle.buffer
    try:
        fd = buffer.fileno()
    except (AttributeError, OSError, ValueError):
        fd = None
    if fd is not None and hasattr(os, "pread"):
        try:
            return b"\r" in os.pread(fd, _PEEK, start)
        except OSError:
            return False
    getbuffer = getattr(buffer, "getbuffer", None)
    if getbuffer is not None:
        with getbuffer() as view:
            return b"\r" in bytes(view[start : start + _PEEK])
    return False


def _cannot_tell(handle: Any) -> bool:
    """Whether the file refuses tell(): a text file being iterated (``for line in f``) does,
    until the iteration ends or the file is sought. The scanner's ``*_if_following`` calls
    ask for the position before they read or seek anything: where one fails so, the file is
    read line by line from where it is."""
    try:
        handle.tell()
    except OSError:
        return True
    return False


def _scan_file(handle: Any, headers: bool = True) -> Optional[tuple[bool, dict[str, str], dict[str, str]]]:
    """The next game of a text file as the scanner reads it: ``(found, roster, others)``
    (the tags as ``Headers`` keeps them; both empty without ``headers``), the file set after
    it; None where the file must be read line by line."""
    global _read_ahead
    scanner = _read_ahead
    _read_ahead = None
    # The file read last, still where its last game left it: its next game in one call.
    scanned = False if scanner is None else scanner.next_game_if_following(handle, headers)
    if scanned is False:
        if type(handle) is not io.TextIOWrapper or handle in _READ_BY_LINE:
            return None
        kind = _encoding_kind(handle.encoding)
        if kind == _OTHER or not handle.seekable():  # a pipe, a socket, a terminal
            return None
        try:
            start = handle.tell()
        except OSError:  # a file being iterated (``for line in f``) cannot tell
            return None
        if start >> 64:  # a cookie with decoder state in it
            return None
        if _cr_ahead(handle, start):
            _READ_BY_LINE.add(handle)
            return None
        buffer = handle.buffer
        # A plain file's bytes are read at an offset (pread) in Rust, not through the buffer.
        pread = type(buffer) is io.BufferedReader and type(buffer.raw) is io.FileIO
        scanner = GameScanner(handle, start, kind == _UTF8, _SCAN_CHUNK, pread)
        scanned = scanner.next_game(handle, headers)
    if type(scanned) is tuple:
        _read_ahead = scanner
        return scanned
    if scanned is not None:  # "translated": a "\r" further on
        _READ_BY_LINE.add(handle)
    return None
