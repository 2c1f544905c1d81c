"""The search worker of the UCI front end: one ``go``, from the book probe to ``bestmove``.

The reader thread (``protocol.UciEngine``) turns a ``go`` line into a :class:`SearchJob`
and hands it to the session's :class:`Searcher`, which runs it in a thread of its own: the
book probe, then ``Engine.search`` (which releases the GIL) with the clock as ``go`` gave
it, less the time since the line was read; the ``info`` lines as the search reports them;
and exactly one ``bestmove``, whatever fails on the way. Meanwhile the reader goes on
handling commands: ``stop`` and ``ponderhit`` act on the job through its events and flags,
and on the engine.

Kept apart from the command loop so that each reads as one thing: what each command does
to the session there, how one search is run and answered here. The worker reaches the
session only through what :class:`Searcher` is given (no import of ``protocol``).
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, Callable, List, Optional

from kibitz import timeman
from kibitz._core import Board, SearchResult
from kibitz.uci import strength
from kibitz.uci.engine_like import EngineLike
from kibitz.uci.go import GoParams, clock_limits
from kibitz.uci.info import INFO_FIELDS, format_info
from kibitz.uci.options import Options

if TYPE_CHECKING:  # the book module is imported when the book is first used (startup time)
    from kibitz.book import Book


@dataclass
class SearchJob:
    """State shared between the reader and the worker for one ``go``."""

    board: Board
    go: GoParams
    timed: bool  # our clock or a movetime was given: the engine's time manager decides
    pondering: bool
    wait_for_stop: bool  # infinite (or pondering): bestmove only after stop/ponderhit
    stop_event: threading.Event = field(default_factory=threading.Event)
    release_event: threading.Event = field(default_factory=threading.Event)  # stop or ponderhit
    done: threading.Event = field(default_factory=threading.Event)
    answered: bool = False  # bestmove is being written: the job is finishing, not searching
    searching: bool = False  # Engine.search is running (ponderhit goes to the engine)
    thread: Optional[threading.Thread] = None
    # When our clock started (time.monotonic()): when the go line was read, or at a
    # ponderhit that came before the search started. The time until the search starts is
    # taken off the clock the engine is given.
    clock_from: float = field(default_factory=time.monotonic)
    reported: set[int] = field(default_factory=set)  # multipv lines sent with a score and pv
    reported_nodes: int = 0  # the node count of the last info line sent
    # The MultiPV lines shown: the option's count, though a strength level searches more
    # lines to choose among (those stay unseen).
    shown_lines: int = 1
    # Why there is nothing to search (the last `position` was refused): bestmove (none).
    unsearchable: Optional[str] = None
    # The search's lines as info text, as it ended: sent again when a ponder search that
    # had ended is answered at the ponderhit (a client reading from the ponderhit on, such
    # as python-chess's play, would otherwise get no score).
    final_info: List[str] = field(default_factory=list)


# What a search's info lines carry of the whole search, whichever line they are.
TOTALS = ("nodes", "nps", "hashfull", "tbhits", "time_ms")


def vars_of(line: Any) -> dict[str, Any]:
    """What an info line is made of, read from a search report (a ``SearchResult`` has no
    ``__dict__``)."""
    return {k: getattr(line, k, None) for k in (*INFO_FIELDS, "pv")}


class Searcher:
    """Runs the ``go`` jobs of one session, each in a thread of its own (one at a time: the
    session stops a running job before it starts the next).

    It is given what it needs of the session: ``send`` writes one output line, ``options``
    are the session's options (read at each search), ``engine`` gives the engine (made on
    first use), ``book`` the opening book of BookFile (None: none), ``job_lock`` the lock
    under which the session reads whether a job is done, and ``rng`` draws the book moves
    and a strength level's choices."""

    def __init__(
        self,
        *,
        send: Callable[[str], None],
        options: Options,
        engine: Callable[[], EngineLike],
        book: Callable[[], Optional[Book]],
        job_lock: threading.Lock,
        rng: random.Random,
    ) -> None:
        self._send = send
        self._options = options
        self._engine = engine
        self._book = book
        self._job_lock = job_lock
        self._rng = rng

    def start(self, job: SearchJob) -> None:
        """Run the job in a new thread; it ends with the job's ``bestmove``."""
        job.thread = threading.Thread(target=self._run, args=(job,), name="kibitz-search", daemon=True)
        job.thread.start()

    def _info(self, text: str) -> None:
        self._send(f"info string {text}")

    def _run(self, job: SearchJob) -> None:
        """Think, then answer: exactly one bestmove per go, whatever fails on the way (the
        answer is sent from `finally`, so no exception can leave a GUI waiting)."""
        best: Optional[str] = None
        ponder: Optional[str] = None
        try:
            try:
                best, ponder = self._think(job)
            except BaseException as e:  # a failing search must still answer the go
                self._info(f"search error: {type(e).__name__}: {e}")
                best, ponder = self._any_legal_move(job.board), None
            # UCI: with `infinite` or while pondering, bestmove waits for stop / ponderhit.
            waited, was_pondering = False, job.pondering  # a ponderhit clears `pondering`
            while job.wait_for_stop and not job.stop_event.is_set():
                waited = True
                job.release_event.wait()
                job.release_event.clear()
                if job.stop_event.is_set() or not job.wait_for_stop:
                    break
            if waited and was_pondering and not job.stop_event.is_set():
                for line in job.final_info:  # the ponderhit came after the search had ended
                    self._send(line)
        finally:
            self._answer(job, best, ponder)

    @staticmethod
    def _any_legal_move(board: Board) -> Optional[str]:
        try:
            legal = board.legal_moves_uci()
            return legal[0] if legal else None
        except Exception:
            return None

    def _answer(self, job: SearchJob, best: Optional[str], ponder: Optional[str]) -> None:
        job.answered = True
        if best is None:
            self._send("bestmove (none)")
        elif ponder:
            self._send(f"bestmove {best} ponder {ponder}")
        else:
            self._send(f"bestmove {best}")
        with self._job_lock:
            job.done.set()

    def _book_wanted(self, go: GoParams) -> bool:
        """The book answers only a game move: a go with a clock (wtime/btime) and nothing
        that asks for analysis -- not infinite, depth, nodes, movetime, mate, ponder,
        searchmoves, nor MultiPV above 1 (those want searched, scored lines)."""
        if not self._options.get_bool("OwnBook"):
            return False
        if go.wtime is None and go.btime is None:
            return False
        if go.infinite or go.ponder or go.searchmoves:
            return False
        if go.depth is not None or go.nodes is not None or go.mate is not None or go.movetime is not None:
            return False
        return self._options.get_int("MultiPV") == 1

    def _book_move(self, job: SearchJob) -> Optional[tuple[str, Optional[str]]]:
        if not self._book_wanted(job.go):
            return None
        try:
            book = self._book()
        except ValueError as e:  # BookError: a book that cannot be read
            self._info(str(e))
            return None
        if book is None:
            return None
        entry = book.weighted_choice(job.board, self._rng)
        if entry is None:
            return None
        after = job.board.copy()
        after.push_uci(entry.move)
        reply = book.best(after)
        self._info(f"book move {entry.move} (weight {entry.weight})")
        return entry.move, reply.move if reply else None

    def _think(self, job: SearchJob) -> tuple[Optional[str], Optional[str]]:
        board, go = job.board, job.go
        if job.unsearchable is not None:
            self._info(f"no position to search: {job.unsearchable}")
            return None, None
        if go.searchmoves_given and not go.searchmoves:
            self._info("searchmoves names no legal move: nothing to search")
            return None, None
        legal = board.legal_moves_uci()
        if not legal:
            if board.is_checkmate():
                self._send("info depth 0 score mate 0")
            else:
                self._send("info depth 0 score cp 0")
            return None, None
        booked = self._book_move(job)
        if booked is not None:
            return booked
        limit = self._options.get_bool("UCI_LimitStrength")
        level = strength.level_for(self._options.get_int("UCI_Elo")) if limit else None
        multipv = self._options.get_int("MultiPV")
        job.shown_lines = multipv
        nodes = go.nodes
        if level is not None:
            multipv = max(multipv, level.multipv)
            nodes = level.nodes if nodes is None else min(nodes, level.nodes)
        searchmoves = go.searchmoves or None
        multipv = min(multipv, len(searchmoves or legal))

        kwargs: dict[str, Any] = dict(
            depth=go.depth,
            nodes=nodes,
            multipv=multipv,
            searchmoves=searchmoves,
            on_info=lambda i: self._on_info(job, i),
        )
        engine = self._engine()
        # The strength levels are calibrated with the net (docs/strength.md, Strength
        # levels); with UseNNUE off a level searches with the hand-written evaluation and
        # plays weaker.
        want_net = self._options.get_bool("UseNNUE")
        if engine.nnue != want_net:
            engine.nnue = want_net
        if job.stop_event.is_set() or go.at_once:
            kwargs["depth"] = 1  # stopped before it began, or depth/nodes/mate 0: answer at once
        # Read after the engine exists (see UciEngine.cmd_ponderhit): a ponderhit before this
        # line makes a normal search, one after it reaches the engine.
        job.searching = True
        pondering = job.pondering
        kwargs["ponder"] = pondering and job.timed
        if job.timed:
            # The clock as `go` gave it, less the time since it started (no clock runs while
            # pondering): the engine's time manager makes the budget (and plays an only move
            # at once, and answers at once when there is no time).
            late_ms = 0 if pondering else int((time.monotonic() - job.clock_from) * 1000)
            clock = clock_limits(go, board.turn, late_ms, self._options.get_int("Move Overhead"))
            kwargs.update(clock)
            horizon = self._options.get_int("MovesToGo")
            if horizon != timeman.DEFAULT_MOVES_TO_GO:
                # Another sudden-death horizon (the hidden option, for matches): the default
                # manager made here with it instead of by the engine.
                kwargs["time_manager"] = timeman.TimeManager.from_clock(
                    time_left_ms=clock.get("wtime_ms" if board.turn else "btime_ms"),
                    inc_ms=clock.get("winc_ms" if board.turn else "binc_ms", 0),
                    movestogo=clock.get("movestogo"),
                    movetime_ms=clock.get("movetime_ms"),
                    overhead_ms=clock["overhead_ms"],
                    moves_to_go=horizon,
                )
        try:
            result = engine.search(board, **kwargs)
        finally:
            job.searching = False
        self._report_lines(job, result)

        best = getattr(result, "best_move", None)
        pv = list(getattr(result, "pv", []) or [])
        ponder = getattr(result, "ponder", None) or (pv[1] if len(pv) > 1 else None)
        if level is not None:
            lines = list(getattr(result, "lines", []) or [])
            if lines:
                i = strength.choose(lines, level, self._rng)
                line_pv = list(lines[i].pv)
                if line_pv and line_pv[0] in legal:
                    if line_pv[0] != best:
                        self._announce_choice(job, result, lines, i)
                    best = line_pv[0]
                    ponder = line_pv[1] if len(line_pv) > 1 else None
        if best is None or best not in legal:
            if best is not None:
                self._info(f"search gave an illegal move {best!r}; playing a legal one")
            best, ponder = legal[0], None
        return best, ponder

    def _announce_choice(self, job: SearchJob, result: Any, lines: List[Any], chosen: int) -> None:
        """A strength level plays another line than the best one: the shown lines go out once
        more with the chosen line first (numbered 1, the others after it), so that the last
        line 1 a GUI shows, and the score and pv python-chess's ``play`` returns, are those of
        the move played. (Stockfish's Skill Level shows every line it chooses among instead;
        here only the MultiPV lines asked for are shown.)"""
        order = [lines[chosen]] + [line for j, line in enumerate(lines) if j != chosen]
        renumbered = SimpleNamespace(
            lines=[SimpleNamespace(**{**vars_of(line), "multipv": n}) for n, line in enumerate(order, 1)],
            **{k: getattr(result, k, None) for k in TOTALS},
        )
        for text in self._keep_final_info(job, renumbered):
            self._send(text)

    def _report_lines(self, job: SearchJob, result: Any) -> None:
        self._keep_final_info(job, result)
        self._send_missing_lines(job, result)

    def _keep_final_info(self, job: SearchJob, result: Any) -> List[str]:
        """The final info lines of ``result`` (``_final_lines``, formatted), kept in the job
        for a re-send (the totals, a late ponderhit) and returned."""
        show_wdl = self._options.get_bool("UCI_ShowWDL")
        job.final_info = [format_info(line, show_wdl=show_wdl) for line in self._final_lines(job, result)]
        return job.final_info

    @staticmethod
    def _shown_lines(job: SearchJob, result: Any) -> List[Any]:
        """The result's MultiPV lines (the result itself when it has none) that are shown."""
        return [
            line
            for line in list(getattr(result, "lines", None) or []) or [result]
            if (getattr(line, "multipv", None) or 1) <= job.shown_lines
        ]

    def _final_lines(self, job: SearchJob, result: Any) -> List[Any]:
        """The shown lines of the result, scored and with a pv, each with the search's totals."""
        lines = self._shown_lines(job, result)
        totals = {k: getattr(result, k, None) for k in TOTALS}
        out = []
        for line in lines:
            if not getattr(line, "pv", None):
                continue
            if getattr(line, "mate", None) is None and getattr(line, "score_cp", None) is None:
                continue
            final = SimpleNamespace(**{**vars_of(line), "pv": list(line.pv)})
            final.__dict__.update(totals)
            out.append(final)
        return out

    def _send_missing_lines(self, job: SearchJob, result: Any) -> None:
        """Send the scored lines of the result that no ``info`` line reported: a search
        stopped inside its first iteration (``go nodes 1``, MultiPV 256 on a 40 ms clock)
        reports none, and a client such as python-chess's ``analyse`` then has no score.
        Each MultiPV line with a score and a pv goes out, the first at least."""
        for line in self._shown_lines(job, result):
            multipv = getattr(line, "multipv", None) or 1
            if multipv in job.reported:
                continue
            if getattr(line, "mate", None) is None and getattr(line, "score_cp", None) is None:
                continue
            if not getattr(line, "pv", None):
                best = getattr(line, "best_move", None)
                if best is None:
                    continue
                line = SimpleNamespace(**{**vars_of(line), "pv": [best]})
            self._send(format_info(line, show_wdl=self._options.get_bool("UCI_ShowWDL")))
            job.reported.add(multipv)
            job.reported_nodes = max(job.reported_nodes, getattr(line, "nodes", 0) or 0)
        # A search stopped inside an iteration (stop, a node limit, the clock) searched more
        # than its last info line said: its lines once more with the totals, as Stockfish
        # ends, so that a GUI (and python-chess's analyse) shows the nodes and time spent.
        # Every shown line goes out, ranked as the search ended: the partial iteration may
        # have put another move first, and the lines reported before it would then list
        # that move twice.
        nodes = getattr(result, "nodes", None) or 0
        scored = getattr(result, "mate", None) is not None or getattr(result, "score_cp", None) is not None
        if nodes > job.reported_nodes and scored and getattr(result, "pv", None) and 1 in job.reported:
            for text in job.final_info:
                self._send(text)
            job.reported_nodes = nodes

    def _on_info(self, job: SearchJob, info: SearchResult) -> None:
        try:
            self._handle_info(job, info)
        except Exception as e:  # an exception here would abort the search: report instead
            self._info(f"info handling failed: {type(e).__name__}: {e}")

    def _handle_info(self, job: SearchJob, info: SearchResult) -> None:
        if (getattr(info, "multipv", None) or 1) > job.shown_lines:
            return  # a line a strength level searches to choose among, not shown
        self._send(format_info(info, show_wdl=self._options.get_bool("UCI_ShowWDL")))
        job.reported_nodes = max(job.reported_nodes, getattr(info, "nodes", 0) or 0)
        if getattr(info, "pv", None) and (
            getattr(info, "mate", None) is not None or getattr(info, "score_cp", None) is not None
        ):
            job.reported.add(getattr(info, "multipv", None) or 1)
        if job.stop_event.is_set():
            self._engine().stop()  # a stop that came before the search had started
            return
        if getattr(info, "multipv", 1) not in (None, 1):
            return
        mate = getattr(info, "mate", None)
        go = job.go
        if go.mate and mate is not None and 0 < mate <= go.mate and getattr(info, "bound", "exact") == "exact":
            job.stop_event.set()
            job.release_event.set()
            job.wait_for_stop = False
            self._engine().stop()
