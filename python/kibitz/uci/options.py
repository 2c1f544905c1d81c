"""The UCI options of kibitz: their declarations (``option name ...`` lines) and checks.

Each option knows its type and range; :meth:`Options.set` turns the text of a
``setoption`` command into a typed value or raises :class:`OptionError` (a ``ValueError``)
with a message that names the problem, and leaves the old value in place.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Union

from kibitz._core import MAX_MULTIPV, MAX_THREADS
from kibitz.timeman import DEFAULT_MOVE_OVERHEAD_MS

Value = Union[int, bool, str, None]


class OptionError(ValueError):
    """A ``setoption`` that names no option or gives a value the option cannot take."""


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
        if self.name in ("SearchOff", "SearchOn"):
            check_feature_list(self.name, text)
        return text


# Strength range (UCI_Elo): the levels calibrated against Stockfish's UCI_Elo (see
# strength.py and the table in docs/strength.md).
ELO_MIN = 1000
ELO_MAX = 2400


def default_options() -> List[Option]:
    """Every option kibitz declares after ``uci``, in the order it declares them."""
    return [
        # 16 MB: the usual default of UCI engines (Stockfish too). 32768 MB (32 GB) at
        # most: what a big analysis machine may give; only the size asked for is
        # allocated, and a size the system refuses is reported (info string) and the
        # table falls back, it never ends the process.
        Option("Hash", "spin", 16, 1, 32768, help="transposition table size in MB"),
        Option("Clear Hash", "button", help="empty the transposition table"),
        # Lazy SMP: helper threads share the table with the main thread. 1 by default (the
        # deterministic search); at most what kibitz.Engine accepts (GUIs often set the
        # maximum: at most as many threads as the machine has cores search).
        Option("Threads", "spin", 1, 1, MAX_THREADS, help="search threads"),
        # As many lines as the engine reports (MAX_MULTIPV): more than any GUI shows.
        Option("MultiPV", "spin", 1, 1, MAX_MULTIPV, help="number of best lines shown"),
        Option("Ponder", "check", False, help="the GUI may let kibitz think on the opponent's time"),
        Option("OwnBook", "check", True, help="play moves from the opening book"),
        Option("BookFile", "string", "", help="Polyglot .bin book; empty = the built-in book"),
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
        Option("UCI_Chess960", "check", False, help="Chess960: castling as king takes rook"),
        Option("UCI_ShowWDL", "check", False, help="win/draw/loss chances per mille in info lines (wdl W D L)"),
        # The neural evaluation: on by default with the net embedded in kibitz;
        # EvalFile loads another net file (a bad one is reported and the current net kept).
        Option("UseNNUE", "check", True, help="evaluate with the neural net (off: the hand-written evaluation)"),
        Option("EvalFile", "string", "", help="kibitz net file (.nnue); empty = the embedded net"),
        # Hidden: search features to switch off / on (comma-separated names of
        # kibitz.Engine.feature_names()), to measure a feature by a match.
        # Syzygy endgame tablebases, as Stockfish names the options: directories separated
        # by ':' (';' on Windows); positions with at most SyzygyProbeLimit pieces are probed
        # in the search (those with as many pieces as the largest table only at
        # SyzygyProbeDepth or deeper); Syzygy50MoveRule counts wins the 50-move rule spoils
        # as draws.
        Option("SyzygyPath", "string", "", help="Syzygy tablebase directories, ':'-separated"),
        Option("SyzygyProbeDepth", "spin", 1, 1, 100, help="least depth to probe the largest tables"),
        Option("Syzygy50MoveRule", "check", True, help="a win the 50-move rule spoils is a draw"),
        Option("SyzygyProbeLimit", "spin", 7, 0, 7, help="most pieces probed"),
        Option("SearchOff", "string", "", hidden=True, help="search features to switch off"),
        Option("SearchOn", "string", "", hidden=True, help="search features to switch on"),
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
