"""The UCI options of kibitz: their declarations (``option name ...`` lines), checks and
effects.

Each option knows its type and range; :meth:`Options.set` turns the text of a
``setoption`` command into a typed value or raises :class:`OptionError` (a ``ValueError``)
with a message that names the problem, and leaves the old value in place. An option that
does something when it is set (resizes the table, loads a net, switches the board to
Chess960) carries that effect in its declaration (``Option.apply``), so an option is
declared, checked and applied in one place. The session (``protocol.UciEngine``) runs the
effect after a ``setoption``; the effect reaches the session only through :class:`Session`.

The options read at each search (MultiPV, UCI_Elo, Move Overhead, ...) have no effect of
their own: the worker reads their values when a ``go`` comes.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Protocol, Union

from kibitz._core import MAX_MULTIPV, MAX_THREADS, Board, FenError
from kibitz.timeman import DEFAULT_MOVE_OVERHEAD_MS, DEFAULT_MOVES_TO_GO, MAX_MOVES_TO_GO
from kibitz.uci.engine_like import EngineLike

if TYPE_CHECKING:  # the book module is imported when the book is first used (startup time)
    from kibitz.book import Book

Value = Union[int, bool, str, None]


class OptionError(ValueError):
    """A ``setoption`` that names no option or gives a value the option cannot take."""


class Session(Protocol):
    """What an option's effect uses of the UCI session that owns the options
    (``protocol.UciEngine``); a protocol, so that this module needs nothing above it."""

    options: Options
    board: Board

    @property
    def made_engine(self) -> Optional[EngineLike]:
        """The engine if it has been made, else None (options set before then are read
        when :meth:`engine` makes it)."""

    @property
    def searching(self) -> bool:
        """True while a search runs (its bestmove not yet sent)."""

    def engine(self) -> EngineLike:
        """The engine, made (with the options' values) on first use."""

    def prepare_engine(self) -> None:
        """Make the engine now, off the game clock, unless a search runs."""

    def apply_to_engine(self, action: Callable[[], None], what: str) -> None:
        """Run an engine change now, or queue it until no search runs."""

    def info(self, text: str) -> None:
        """Send an ``info string`` line."""

    def load_book(self) -> Optional[Book]:
        """The opening book of BookFile, read now unless it is already."""

    def forget_book(self) -> None:
        """Drop the book read so far: it is read again at the next probe."""


@dataclass
class Option:
    name: str
    type: str  # "spin" | "check" | "string" | "button" | "combo"
    default: Value = None
    min: Optional[int] = None
    max: Optional[int] = None
    choices: List[str] = field(default_factory=list)
    help: str = ""
    hidden: bool = False  # accepted by setoption, not declared after `uci` (for matches and tests)
    # A string option's own check of a value (its name and the value): raises OptionError.
    check: Optional[Callable[[str, str], None]] = None
    # What setting the option does to the session (given the option's name and the typed
    # value), beyond keeping the value: None for the options read only when needed.
    apply: Optional[Callable[[Session, str, Any], None]] = None

    def uci_line(self) -> str:
        line = f"option name {self.name} type {self.type}"
        if self.type == "button":
            return line
        if self.type == "check":
            return f"{line} default {'true' if self.default else 'false'}"
        if self.type == "string":
            # UCI has no way to say "empty"; "<empty>" is the convention GUIs understand.
            return f"{line} default {self.default if self.default else '<empty>'}"
        if self.type == "spin":
            return f"{line} default {self.default} min {self.min} max {self.max}"
        vars_ = " ".join(f"var {c}" for c in self.choices)
        return f"{line} default {self.default} {vars_}"

    def parse(self, text: Optional[str]) -> Value:
        """The typed value of ``text`` for this option, or OptionError naming the problem."""
        if self.type == "button":
            return None
        if text is None:
            if self.type == "string":
                return ""
            raise OptionError(f"option {self.name} needs a value")
        text = text.strip()
        if self.type == "check":
            low = text.lower()
            if low in ("true", "on", "1", "yes"):
                return True
            if low in ("false", "off", "0", "no"):
                return False
            raise OptionError(f"option {self.name} takes true or false, not {text!r}")
        if self.type == "spin":
            try:
                number = int(text)
            except ValueError:
                raise OptionError(f"option {self.name} takes an integer, not {text!r}") from None
            assert self.min is not None and self.max is not None
            if not self.min <= number <= self.max:
                raise OptionError(f"option {self.name} value {number} is out of range {self.min}..{self.max}")
            return number
        if self.type == "combo":
            for choice in self.choices:
                if choice.lower() == text.lower():
                    return choice
            raise OptionError(f"option {self.name} takes one of {', '.join(self.choices)}, not {text!r}")
        # string
        text = "" if text == "<empty>" else text
        if self.check is not None:
            self.check(self.name, text)
        return text


# Strength range (UCI_Elo): the levels calibrated against Stockfish's UCI_Elo (see
# strength.py and the table in docs/strength.md).
ELO_MIN = 1000
ELO_MAX = 2400


# ------------------------------------------------------------ what setting an option does
#
# Engine changes go through Session.apply_to_engine: made at once when no search runs, else
# queued until the next moment no clock runs. An option that the engine is made with (Hash,
# the tables, the net) makes the engine at once when there is none yet, off the game clock;
# Threads and Clear Hash wait for the engine to be made (it reads Threads then).


def _set_hash(s: Session, name: str, hash_mb: int) -> None:
    """A new table size: the engine is made now with it, or its table is resized."""
    if s.made_engine is None and not s.searching:
        s.prepare_engine()
    else:
        # During a search (the first one may still be making the engine with the old
        # size), the resize waits for the next moment no clock runs.
        s.apply_to_engine(lambda: _resize(s, hash_mb), name)


def _resize(s: Session, hash_mb: int) -> None:
    """Resize the table; a size the system refuses is reported and the table kept."""
    engine = s.engine()
    try:
        engine.resize(hash_mb)
    except MemoryError as e:
        kept = int(engine.hash_mb)
        s.options.set("Hash", str(kept))
        s.info(f"{e}; Hash stays {kept} MB")


def _clear_hash(s: Session, name: str, _: None) -> None:
    """Empty the table (an engine not made yet has nothing in it)."""
    engine = s.made_engine
    if engine is not None:
        s.apply_to_engine(engine.clear, name)


def _set_threads_option(s: Session, name: str, threads: int) -> None:
    """More or fewer search threads (an engine not made yet reads Threads when it is)."""
    engine = s.made_engine
    if engine is not None:
        s.apply_to_engine(lambda: set_threads(s, engine, threads), name)


def set_threads(s: Session, engine: EngineLike, threads: int) -> None:
    """Set the search threads, saying so when fewer than asked will search (the engine
    caps them at the machine's cores)."""
    engine.set_threads(threads)
    effective = engine.effective_threads
    if effective < threads:
        s.info(f"Threads {threads}: {effective} will search (at most one per core: {engine.thread_limit})")


def _set_syzygy_option(s: Session, name: str, _: Value) -> None:
    """Another directory or probing rule: the engine is made now with the tables, or loads
    them again."""
    if s.made_engine is None and not s.searching:
        s.prepare_engine()
    else:
        s.apply_to_engine(lambda: load_syzygy(s), name)


def load_syzygy(s: Session) -> None:
    """Gives the engine the tables of SyzygyPath with the Syzygy* settings. A directory of
    the list that is not there is reported and left out, the others are read (as Stockfish
    does); one that cannot be read is reported and the tables are off."""
    engine = s.engine()
    path = s.options.get_str("SyzygyPath")
    if not hasattr(engine, "set_syzygy"):
        return
    if path and path != "<empty>":
        directories = [d for d in path.split(os.pathsep) if d]
        present = [d for d in directories if os.path.isdir(d)]
        for d in directories:
            if d not in present:
                s.info(f"SyzygyPath: {d!r} is not a directory; left out")
        if not present:
            engine.set_syzygy(None)
            s.info("SyzygyPath: none of its directories is there; tablebases off")
            return
        path = os.pathsep.join(present)
    try:
        files = engine.set_syzygy(
            path or None,
            probe_depth=s.options.get_int("SyzygyProbeDepth"),
            probe_limit=s.options.get_int("SyzygyProbeLimit"),
            rule50=s.options.get_bool("Syzygy50MoveRule"),
        )
    except OSError as e:
        engine.set_syzygy(None)
        s.info(f"{e}; tablebases off")
        return
    if path and path != "<empty>":
        s.info(f"found {files} tablebase files")


def _set_eval_file(s: Session, name: str, path: str) -> None:
    """Another net file: the engine is made now with it (loaded, or refused, once), or
    loads it."""
    if s.made_engine is None and not s.searching:
        s.prepare_engine()
    else:
        s.apply_to_engine(lambda: load_net(s, path), name)


def load_net(s: Session, path: str) -> None:
    """Load a net file into the engine (empty path: the embedded net); a file that
    cannot be used is reported and the engine keeps its net (and EvalFile its value)."""
    engine = s.engine()
    try:
        if path:
            engine.load_eval_file(path)
        else:
            engine.use_embedded_net()
    except (OSError, ValueError) as e:  # NetError is a ValueError
        kept = engine.eval_file or ""
        s.options.set("EvalFile", kept or None)
        s.info(f"{e}; keeping the {'net ' + repr(kept) if kept else 'embedded net'}")


def _set_use_nnue(s: Session, name: str, on: bool) -> None:
    """The net on or off: at once when no search runs, else after it (the engine is taken
    when the change is made, so that one made meanwhile by the first search is the one
    changed)."""
    s.apply_to_engine(lambda: setattr(s.engine(), "nnue", on), name)


def _set_features_option(s: Session, name: str, _: str) -> None:
    """Search features switched for a match (the engine is made now if there is none)."""
    s.apply_to_engine(lambda: set_features(s), name)


def set_features(s: Session) -> None:
    """The search features of SearchOn (switched on), then SearchOff (off) over the
    defaults (the names were checked when the options were set)."""
    features = {n: True for n in feature_list(s.options.get_str("SearchOn"))}
    features.update({n: False for n in feature_list(s.options.get_str("SearchOff"))})
    engine = s.engine()
    engine.set_features(features)
    if "nnue" in features:  # the net switch is UseNNUE's too
        s.options.set("UseNNUE", "true" if features["nnue"] else "false")
    engine.nnue = s.options.get_bool("UseNNUE")


def _set_chess960(s: Session, name: str, on: bool) -> None:
    """The position read again in the other mode (its castling rights as rook files or as
    KQkq); one that cannot be is replaced by the start position."""
    if on != s.board.chess960:
        try:
            s.board = Board(s.board.fen(), chess960=on)
        except FenError as e:  # the position cannot be read in the other mode
            s.info(f"position reset to the start: {e}")
            s.board = Board(chess960=on)


def _set_own_book(s: Session, name: str, _: bool) -> None:
    """The book on or off: the book read so far is dropped (read again at the next probe)."""
    s.forget_book()


def _set_book_file(s: Session, name: str, path: str) -> None:
    """Another book: read now, so that a file that is no book is reported at once."""
    s.forget_book()
    if path:
        try:
            s.load_book()
        except ValueError as e:  # BookError
            s.info(f"{e}; the book is off until BookFile names a Polyglot book")


def default_options() -> List[Option]:
    """Every option kibitz declares after ``uci``, in the order it declares them."""
    return [
        # 16 MB: the usual default of UCI engines (Stockfish too). 32768 MB (32 GB) at
        # most: what a big analysis machine may give; only the size asked for is
        # allocated, and a size the system refuses is reported (info string) and the
        # table falls back, it never ends the process.
        Option("Hash", "spin", 16, 1, 32768, help="transposition table size in MB", apply=_set_hash),
        Option("Clear Hash", "button", help="empty the transposition table", apply=_clear_hash),
        # Lazy SMP: helper threads share the table with the main thread. 1 by default (the
        # deterministic search); at most what kibitz.Engine accepts (GUIs often set the
        # maximum: at most as many threads as the machine has cores search).
        Option("Threads", "spin", 1, 1, MAX_THREADS, help="search threads", apply=_set_threads_option),
        # As many lines as the engine reports (MAX_MULTIPV): more than any GUI shows.
        Option("MultiPV", "spin", 1, 1, MAX_MULTIPV, help="number of best lines shown"),
        Option("Ponder", "check", False, help="the GUI may let kibitz think on the opponent's time"),
        Option("OwnBook", "check", True, help="play moves from the opening book", apply=_set_own_book),
        Option("BookFile", "string", "", help="Polyglot .bin book; empty = the built-in book", apply=_set_book_file),
        # 0..5000 ms: 5 s covers a slow network link to a server.
        Option(
            "Move Overhead",
            "spin",
            DEFAULT_MOVE_OVERHEAD_MS,
            0,
            5000,
            help="ms kept in reserve per move for process and network latency",
        ),
        Option("UCI_LimitStrength", "check", False, help="play at the strength of UCI_Elo"),
        Option("UCI_Elo", "spin", 1500, ELO_MIN, ELO_MAX, help="strength when UCI_LimitStrength is on"),
        Option("UCI_Chess960", "check", False, help="Chess960: castling as king takes rook", apply=_set_chess960),
        Option("UCI_ShowWDL", "check", False, help="win/draw/loss chances per mille in info lines (wdl W D L)"),
        # The neural evaluation: on by default with the net embedded in kibitz;
        # EvalFile loads another net file (a bad one is reported and the current net kept).
        Option(
            "UseNNUE",
            "check",
            True,
            help="evaluate with the neural net (off: the hand-written evaluation)",
            apply=_set_use_nnue,
        ),
        Option(
            "EvalFile", "string", "", help="kibitz net file (.nnue); empty = the embedded net", apply=_set_eval_file
        ),
        # Syzygy endgame tablebases, as Stockfish names the options: directories separated
        # by ':' (';' on Windows); positions with at most SyzygyProbeLimit pieces are probed
        # in the search (those with as many pieces as the largest table only at
        # SyzygyProbeDepth or deeper); Syzygy50MoveRule counts wins the 50-move rule spoils
        # as draws.
        Option(
            "SyzygyPath", "string", "", help="Syzygy tablebase directories, ':'-separated", apply=_set_syzygy_option
        ),
        Option(
            "SyzygyProbeDepth",
            "spin",
            1,
            1,
            100,
            help="least depth to probe the largest tables",
            apply=_set_syzygy_option,
        ),
        Option(
            "Syzygy50MoveRule",
            "check",
            True,
            help="a win the 50-move rule spoils is a draw",
            apply=_set_syzygy_option,
        ),
        Option("SyzygyProbeLimit", "spin", 7, 0, 7, help="most pieces probed", apply=_set_syzygy_option),
        # Hidden: search features to switch off / on (comma-separated names of
        # kibitz.Engine.feature_names()), to measure a feature by a match.
        Option(
            "SearchOff",
            "string",
            "",
            hidden=True,
            help="search features to switch off",
            check=check_feature_list,
            apply=_set_features_option,
        ),
        Option(
            "SearchOn",
            "string",
            "",
            hidden=True,
            help="search features to switch on",
            check=check_feature_list,
            apply=_set_features_option,
        ),
        # Hidden: the time manager's sudden-death horizon (kibitz.timeman.allocate's
        # moves_to_go), to measure another value by a match; read at each timed go.
        Option(
            "MovesToGo",
            "spin",
            DEFAULT_MOVES_TO_GO,
            1,
            MAX_MOVES_TO_GO,
            hidden=True,
            help="moves planned for when go gives no movestogo",
        ),
    ]


def feature_list(text: str) -> List[str]:
    """The names in a SearchOff / SearchOn value."""
    return [n.strip() for n in text.split(",") if n.strip()]


def check_feature_list(option: str, text: str) -> None:
    """OptionError naming the first name that is no search feature."""
    import kibitz

    engine = getattr(kibitz, "Engine", None)
    known = list(engine.feature_names()) if engine is not None else []
    for name in feature_list(text):
        if name not in known:
            raise OptionError(f"option {option}: unknown search feature {name!r} (known: {', '.join(known)})")


class Options:
    """The current values, looked up by name case-insensitively (as UCI asks)."""

    def __init__(self) -> None:
        self._decl: Dict[str, Option] = {o.name.lower(): o for o in default_options()}
        self._values: Dict[str, Value] = {k: o.default for k, o in self._decl.items()}

    def declarations(self) -> List[Option]:
        return [o for o in self._decl.values() if not o.hidden]

    def option(self, name: str) -> Option:
        try:
            return self._decl[" ".join(name.split()).lower()]
        except KeyError:
            raise OptionError(f"no such option: {name!r}") from None

    def set(self, name: str, text: Optional[str]) -> tuple[str, Value]:
        """Set an option from setoption text; returns (canonical name, typed value)."""
        opt = self.option(name)
        value = opt.parse(text)
        if opt.type != "button":
            self._values[opt.name.lower()] = value
        return opt.name, value

    def __getitem__(self, name: str) -> Value:
        return self._values[self.option(name).name.lower()]

    def get_int(self, name: str) -> int:
        v = self[name]
        assert isinstance(v, int)
        return int(v)

    def get_bool(self, name: str) -> bool:
        return bool(self[name])

    def get_str(self, name: str) -> str:
        v = self[name]
        return "" if v is None else str(v)
