"""The ``go`` command: its parameters, read as a GUI sends them (numbers capped, bad tokens
reported and skipped), and the clock they give in the form ``Engine.search`` takes."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, List, Optional, Set

from kibitz._core import MAX_DEPTH, MAX_TIME_MS

__all__ = [
    "GO_FLAGS",
    "GO_INT_PARAMS",
    "MOVETIME_MARGIN_MS",
    "GoParams",
    "clock_limits",
    "move_text",
    "parse_go",
    "parse_go_number",
]

GO_INT_PARAMS = ("wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "mate", "movetime")
GO_FLAGS = ("infinite", "ponder")
# Depth cap for depth-less searches the engine could otherwise run to its own maximum;
# also the most `go depth` asks for (deeper than any search reaches in practice).
# MAX_DEPTH: the Rust search's (MAX_PLY 128 - 8), exported by _core; deeper raises ValueError.

# Upper bounds of go's numbers: larger values (also inf, 1e400) are read as these, so no
# value can overflow a conversion or reach the core out of range.
# MAX_TIME_MS: 2^40 ms (~35 years), the core's own cap, exported by _core.
MAX_NODES = 2**63 - 1  # beyond it a node limit is no limit
MAX_MOVESTOGO = 10**6  # moves to the next time control: any more is "the rest of the game"
# `go movetime T` stops the search this long before T (not Move Overhead, which is the
# reserve of a game clock): the time from the search's stop to the bestmove line read by
# the client, 1-5 ms measured through this front end and python-chess, so the answer comes
# at about T, as Stockfish's does.
MOVETIME_MARGIN_MS = 5
GO_CAPS = {
    "wtime": MAX_TIME_MS,
    "btime": MAX_TIME_MS,
    "winc": MAX_TIME_MS,
    "binc": MAX_TIME_MS,
    "movetime": MAX_TIME_MS,
    "movestogo": MAX_MOVESTOGO,
    "depth": MAX_DEPTH,
    "nodes": MAX_NODES,
    "mate": MAX_DEPTH,
}


def move_text(text: str) -> str:
    """A move as a GUI may send it, in the UCI form: the promotion letter lower case
    (``e7e8Q`` is ``e7e8q``, as Stockfish reads it)."""
    return text[:4] + text[4:].lower() if len(text) == 5 else text


def parse_go_number(text: str) -> Optional[float]:
    """The value of a go parameter's text as a float (an int, a decimal, 1e400 = inf,
    inf, -inf), or None when it is no number at all (also for nan)."""
    try:
        value = float(text)
    except ValueError:
        return None
    return None if math.isnan(value) else value


@dataclass
class GoParams:
    wtime: Optional[int] = None
    btime: Optional[int] = None
    winc: Optional[int] = None
    binc: Optional[int] = None
    movestogo: Optional[int] = None
    depth: Optional[int] = None
    nodes: Optional[int] = None
    mate: Optional[int] = None
    movetime: Optional[int] = None
    infinite: bool = False
    ponder: bool = False
    searchmoves: List[str] = field(default_factory=list)
    # `searchmoves` was given: when it names no legal move (python-chess's `root_moves=[]`
    # sends `searchmoves 0000`) there is no move to search, as Stockfish answers too.
    searchmoves_given: bool = False
    at_once: bool = False  # depth, nodes or mate 0: the quickest legal answer, no waiting
    refused: bool = False  # a limit was given but refused (no number, not positive)

    def clock(self, white: bool) -> tuple[Optional[int], int]:
        """The side's time left (None: no clock) and increment. A go that gives only the
        other side's clock gives this side no time (0): it answers at once, as Stockfish
        does, instead of searching until a stop that will not come."""
        t = self.wtime if white else self.btime
        if t is None and (self.wtime is not None or self.btime is not None):
            t = 0
        inc = (self.winc if white else self.binc) or 0
        return t, inc

    @property
    def game_clock(self) -> bool:
        return self.wtime is not None or self.btime is not None or self.movetime is not None


def parse_go(args: List[str], legal_moves: Set[str], say: Callable[[str], None]) -> GoParams:
    """The parameters of a ``go`` command; ``say`` is told (as ``info string``) of every
    token that is ignored and why, and ``legal_moves`` (UCI) filters ``searchmoves``."""
    go = GoParams()
    i = 0
    while i < len(args):
        tok = args[i]
        if tok in GO_INT_PARAMS:
            if i + 1 >= len(args):
                say(f"go {tok} needs a number; ignored")
                go.refused = True
                break
            number = parse_go_number(args[i + 1])
            if number is None:
                say(f"go {tok}: {args[i + 1]!r} is not a number; ignored")
                go.refused = True
                i += 2
                continue
            # Clamped before int(): inf and 1e400 become the cap, never an OverflowError.
            value = int(max(min(number, GO_CAPS[tok]), -1.0))
            if tok in ("wtime", "btime") and value < 0:
                value = 0  # some GUIs send a negative clock after a flag fall
            if tok in ("winc", "binc") and value < 0:
                value = 0
            if tok in ("depth", "nodes", "mate", "movetime", "movestogo") and value <= 0:
                if tok == "movetime" and value == 0:
                    setattr(go, tok, 0)
                    i += 2
                    continue
                if tok in ("depth", "nodes", "mate") and value == 0:
                    # Nothing to search: answer at once with a legal move (waiting for
                    # a stop that may never come would leave the GUI hanging).
                    go.at_once = True
                    i += 2
                    continue
                say(f"go {tok} {args[i + 1]} is not positive; ignored")
                go.refused = True
                i += 2
                continue
            if tok == "depth":
                value = min(value, MAX_DEPTH)
            setattr(go, tok, value)
            i += 2
        elif tok in GO_FLAGS:
            setattr(go, tok, True)
            i += 1
        elif tok == "searchmoves":
            go.searchmoves_given = True
            i += 1
            while i < len(args) and args[i] not in GO_INT_PARAMS and args[i] not in GO_FLAGS:
                m = move_text(args[i])
                if m in legal_moves:
                    go.searchmoves.append(m)
                else:
                    say(f"searchmoves: {m!r} is not a legal move here; ignored")
                i += 1
        else:
            say(f"go: unknown token {tok!r} ignored")
            i += 1
    limited = go.at_once or go.infinite or go.ponder or go.game_clock
    limited = limited or any(v is not None for v in (go.depth, go.nodes, go.mate))
    if go.refused and not limited:
        # The GUI asked for a limit and none could be read: a search without limits would
        # wait for a stop the GUI has no reason to send. Answer at once instead (as a
        # depth 0 is answered), which a finite search would have done in time.
        say("go: no limit left to search to: answering at once")
        go.at_once = True
    return go


def clock_limits(go: GoParams, white: bool, late_ms: int, overhead: int) -> dict[str, int]:
    """The clock of ``go`` as ``Engine.search`` takes it, ``late_ms`` (spent since it
    started) taken off. A game clock goes to the engine's time manager with Move
    Overhead kept back; ``movetime T`` is a fixed time of T less MOVETIME_MARGIN_MS
    (with a game clock as well, never more than the time left less Move Overhead,
    ``overhead``)."""
    time_left, inc = go.clock(white)
    limits: dict[str, int] = {}
    if go.movetime is not None:
        budget = go.movetime - MOVETIME_MARGIN_MS
        if time_left is not None:
            budget = min(budget, time_left - overhead)
        limits["movetime_ms"] = max(0, budget - late_ms)
        limits["overhead_ms"] = 0  # kept back above
        return limits
    if time_left is not None:
        limits["wtime_ms" if white else "btime_ms"] = max(0, time_left - late_ms)
        limits["winc_ms" if white else "binc_ms"] = max(0, inc)
        if go.movestogo is not None and go.movestogo > 0:
            limits["movestogo"] = go.movestogo
        limits["overhead_ms"] = overhead
    return limits
