"""The UCI front end: ``kibitz`` (no subcommand), ``kibitz uci`` and ``python -m kibitz``.

Protocol: the UCI specification (Stefan Meyer-Kahlen, 2004/2006, "Description of the
universal chess interface"). Architecture:

* the reader (the main thread) reads stdin line by line and handles every command at
  once, also while a search runs -- ``isready`` is answered immediately, ``stop`` and
  ``ponderhit`` act on the running search;
* each ``go`` runs in a worker thread (``worker``: book probe, then ``Engine.search``, which
  releases the GIL, with the clock as ``go`` gave it, less the time since the line was
  read): the engine's time manager (Rust, ``engine::timeman``) owns every time decision,
  also after ``ponderhit``; the worker writes at least one scored ``info`` line and exactly
  one ``bestmove`` per ``go``;
* ``setoption`` runs the option's effect, declared with the option (``options``); engine
  changes that take time (Hash, Threads, Clear Hash, tables, nets) asked for during a search
  are queued and made in the reader thread at the next moment no clock runs: ``isready``
  (answered after them), ``ucinewgame``, another ``setoption``, or a ``go`` without a clock;
  a ``go`` with a clock never waits for them;
* stdout is written by both threads, always one whole line under a lock, then flushed.

Bad input never ends the process and loses nothing: every problem is reported as an
``info string`` and the state stays as it was (or as far as it could be applied).
"""

from __future__ import annotations

import io
import random
import sys
import threading
import time
from typing import TYPE_CHECKING, Any, Callable, List, Optional, Sequence, TextIO

import kibitz
from kibitz._core import BENCH_DEPTH, MAX_DEPTH, Board, FenError, IllegalMoveError, InvalidMoveError
from kibitz.timeman import time_budget
from kibitz.uci.engine_like import EngineFactory, EngineLike
from kibitz.uci import console
from kibitz.uci.go import clock_limits, move_text, parse_go
from kibitz.uci.options import OptionError, Options, load_net, load_syzygy, set_features, set_threads
from kibitz.uci.worker import Searcher, SearchJob

if TYPE_CHECKING:  # the book module is imported when the book is first used (startup time)
    from kibitz.book import Book

ENGINE_NAME = f"kibitz {getattr(kibitz, '__version__', '')}".strip()
ENGINE_AUTHOR = "the kibitz developers"

# The longest input line read (characters): a `position startpos moves ...` of a 2,000-move
# game is about 10 kB; 1 MB is far beyond any real command and keeps memory bounded.
MAX_LINE = 1 << 20
# Exit status when stdout was closed by its reader: 128 + SIGPIPE (13), what a shell
# reports for a C tool that a closed pipe ended.
OUTPUT_CLOSED_STATUS = 141

BANNER = f"""{ENGINE_NAME}: a UCI chess engine (Rust core, Python front end).
It speaks the UCI protocol on stdin/stdout: add it to a chess GUI (cutechess, Arena,
Banksia, ...) or a lichess bot as a UCI engine with the command `kibitz`.
Try by hand:  uci | isready | position startpos moves e2e4 | go movetime 1000 | d | quit
Type `help` for the commands; `kibitz --help` tells about the other subcommands
(perft, perft-diff, bench, analyse, report, book, play; uci is this engine)."""

# The deepest `go perft` (Board.divide's limit).
MAX_PERFT_DEPTH = 64

HELP_LINES = [
    "commands: uci, debug on|off, isready, setoption name <N> [value <V>], register,",
    "  ucinewgame, position startpos|fen <FEN> [moves <m1> ...],",
    "  go [wtime <ms>] [btime <ms>] [winc <ms>] [binc <ms>] [movestogo <n>] [depth <n>]",
    "     [nodes <n>] [mate <n>] [movetime <ms>] [infinite] [ponder] [searchmoves <m1> ...],",
    "  stop, ponderhit, quit; and for people: d (show the board), eval (static evaluation), help;",
    "  and as Stockfish's: go perft <depth> (the divide), bench [<depth>] (the search's signature and speed)",
]


class UciEngine:
    """One UCI session: feed it lines with :meth:`handle`; it writes to ``out``."""

    def __init__(
        self,
        out: TextIO,
        *,
        engine_factory: Optional[EngineFactory] = None,
        interactive: bool = False,
        rng: Optional[random.Random] = None,
    ) -> None:
        self._out = out
        self._out_lock = threading.Lock()
        self._closed = False
        self.interactive = interactive
        self.options = Options()
        self.debug = False
        self.board = Board()
        # What the last `position` command got wrong when it set up nothing (None: it did).
        self._refused_position: Optional[str] = None
        self._engine_factory = engine_factory
        # A 1 MB engine with the hand-written evaluation, for `eval` (made on first use).
        self._classical: Optional[EngineLike] = None
        self._engine: Optional[EngineLike] = None
        # The engine is made once: by the reader thread (isready, an option) or by the first
        # search's worker, whichever comes first; the other waits until it is made whole (its
        # options loaded) and takes the same one. The maker's own option loaders reach it
        # through engine() again, hence a reentrant lock.
        self._engine_lock = threading.RLock()
        self._engine_made = False
        self._job: Optional[SearchJob] = None
        self._job_lock = threading.Lock()
        # Engine changes asked for during a search, made at the next moment no clock runs
        # (see _apply_pending): (what, action).
        self._pending: List[tuple[str, Callable[[], None]]] = []
        self._book: Optional[Book] = None
        self._book_loaded_from: Optional[str] = None
        self._searcher = Searcher(
            send=self.send,
            options=self.options,
            engine=self.engine,
            book=lambda: self.load_book(),  # looked up at each probe (a test times a slow book)
            job_lock=self._job_lock,
            rng=rng or random.Random(),
        )
        # Called (from any thread) once stdout is found closed; run_uci wakes its reader.
        self.on_output_closed: Optional[Callable[[], None]] = None
        self.reading = False  # the reader is blocked in readline (run_uci may interrupt it)

    # ------------------------------------------------------------------ output

    def send(self, line: str) -> None:
        """Write one line to stdout, whole, under the lock, and flush."""
        with self._out_lock:
            if self._closed:
                return
            try:
                try:
                    self._out.write(line + "\n")
                except UnicodeEncodeError:
                    # An output encoding that cannot say some character (cp1252 and an
                    # echoed non-ASCII token): say it with escapes rather than fail.
                    self._out.write(line.encode("ascii", "backslashreplace").decode("ascii") + "\n")
                self._out.flush()
            except (OSError, ValueError):
                # The GUI has gone (closed pipe, closed file): nothing more can be said to
                # it, so stop searching for it too.
                self._closed = True
                closed = True
            else:
                closed = False
        if closed:
            self._output_closed()

    def _output_closed(self) -> None:
        """Nobody reads any more: stop the search (no bestmove is wanted) and tell the owner
        of the session (run_uci ends the process's read loop)."""
        job = self._job
        if job is not None:
            job.stop_event.set()
            job.wait_for_stop = False
            job.release_event.set()
        if self._engine is not None:
            self._engine.stop()
        if self.on_output_closed is not None:
            self.on_output_closed()

    def info(self, text: str) -> None:
        self.send(f"info string {text}")

    # ------------------------------------------------------------------ engine

    def engine(self) -> EngineLike:
        """The search engine, made on first use (tests give a factory of stand-ins with the
        same interface, ``EngineLike``)."""
        engine = self._engine
        if self._engine_made and engine is not None:
            return engine
        with self._engine_lock:
            if self._engine is None:
                self._make_engine()
                self._engine_made = True
            assert self._engine is not None
            return self._engine

    def _make_engine(self) -> None:
        """Makes the engine with the options' values into ``_engine``."""
        # kibitz.Engine looked up now: the tests' fake_engine.install() replaces it.
        factory: EngineFactory = self._engine_factory or kibitz.Engine
        engine = factory(self.options.get_int("Hash"))
        threads = self.options.get_int("Threads")
        if threads != 1:
            set_threads(self, engine, threads)
        self._engine = engine  # the option loaders below reach it through engine()
        if self.options.get_str("SearchOff") or self.options.get_str("SearchOn"):
            set_features(self)
        if not self.options.get_bool("UseNNUE"):
            engine.nnue = False
        if self.options.get_str("EvalFile"):
            load_net(self, self.options.get_str("EvalFile"))
        if self.options.get_str("SyzygyPath"):
            load_syzygy(self)

    @property
    def made_engine(self) -> Optional[EngineLike]:
        """The engine if it has been made, else None (:meth:`engine` makes it)."""
        return self._engine

    def prepare_engine(self) -> None:
        """Create the engine (allocating its table) now, off the game clock: at isready,
        ucinewgame and setoption Hash, which the GUI waits for before it starts a clock."""
        if self._engine is not None or self.searching:
            return
        try:
            self.engine()
        except MemoryError as e:
            hash_mb = self.options.get_int("Hash")
            self.options.set("Hash", "16")
            self.info(f"{e}; Hash {hash_mb} MB refused, back to the default 16 MB")

    def apply_to_engine(self, action: Callable[[], None], what: str) -> None:
        """Run an engine change now (after those queued before it), or queue it when a search
        runs: it is made at the next moment no clock runs (see _apply_pending)."""
        job = self._job
        if job is not None and job.answered:
            job.done.wait()  # its bestmove is out: the job is ending, not searching
        with self._job_lock:
            if self.searching:
                self._pending.append((what, action))
                self.info(f"{what} takes effect after this search, at the next isready (never on a game clock)")
                return
        self._apply_pending()
        action()

    def _apply_pending(self) -> None:
        """Make the engine changes queued during a search, in order, when no search runs; from
        the reader thread, at a command no clock runs for: isready (answered after them, so
        a GUI that waits for readyok never pays for them on its clock), ucinewgame,
        setoption, and a go without a clock. A go with a clock never waits for them: a 1 GB
        table takes about a second to allocate, far more than a bullet move may take (and
        Stockfish, which resizes as soon as the search ends, charges it to the next go)."""
        job = self._job
        if job is not None and job.answered:
            job.done.wait()  # its bestmove is out: the job is ending
        while True:
            with self._job_lock:
                if self.searching or not self._pending:
                    return
                what, action = self._pending.pop(0)
            try:
                action()
            except Exception as e:
                self.info(f"{what} failed: {type(e).__name__}: {e}")

    @property
    def searching(self) -> bool:
        job = self._job
        return job is not None and not job.done.is_set()

    # ------------------------------------------------------------------ dispatch

    def handle(self, line: str) -> bool:
        """Handle one input line; False after ``quit``."""
        tokens = line.split()
        if not tokens:
            return True
        cmd, args = tokens[0], tokens[1:]
        handler = self._COMMANDS.get(cmd)
        if handler is None:
            # UCI: "if the engine or the GUI receives an unknown command or token it
            # should just ignore it and try to parse the rest of the string".
            for i, tok in enumerate(tokens[1:], 1):
                if tok in self._COMMANDS and tok != "d":
                    self.info(f"ignored unknown token(s) {' '.join(tokens[:i])!r}")
                    return self.handle(" ".join(tokens[i:]))
            shown = line.strip()
            if len(shown) > 60:
                shown = shown[:57] + "..."
            self.info(f"unknown command {shown!r} (type help for the commands)")
            return True
        try:
            return handler(self, args)
        except Exception as e:  # never die on input: report and go on
            self.info(f"error in {cmd}: {type(e).__name__}: {e}")
            return True

    def cmd_uci(self, args: List[str]) -> bool:
        self.send(f"id name {ENGINE_NAME}")
        self.send(f"id author {ENGINE_AUTHOR}")
        self.send("")
        for opt in self.options.declarations():
            self.send(opt.uci_line())
        self.send("uciok")
        return True

    def cmd_debug(self, args: List[str]) -> bool:
        if args and args[0] in ("on", "off"):
            self.debug = args[0] == "on"
        elif not args:
            self.debug = True
        else:
            self.info(f"debug takes on or off, not {args[0]!r}")
        return True

    def cmd_isready(self, args: List[str]) -> bool:
        # During a search: at once (UCI), the queued changes wait for the search's end.
        self._apply_pending()
        self.prepare_engine()
        self.send("readyok")
        return True

    def cmd_register(self, args: List[str]) -> bool:
        return True  # kibitz needs no registration; accepted and ignored

    def cmd_help(self, args: List[str]) -> bool:
        for line in HELP_LINES:
            self.send(line if self.interactive else f"info string {line}")
        return True

    def cmd_d(self, args: List[str]) -> bool:
        prefix = "" if self.interactive else "info string "
        for row in str(self.board).splitlines():
            self.send(prefix + row)
        self.send(f"{prefix}Fen: {self.board.fen()}")
        self.send(f"{prefix}Key: {self.board.polyglot_key():016X}")
        return True

    def cmd_eval(self, args: List[str]) -> bool:
        """The static evaluation of the current position: the net's (when on) and the
        hand-written one, in centipawns from White's point of view."""
        prefix = "" if self.interactive else "info string "
        if self.searching:
            self.send(f"{prefix}eval: not while searching")
            return True
        self._apply_pending()
        engine = self.engine()
        white = 1 if self.board.turn else -1
        if self.board.is_check():
            self.send(f"{prefix}eval: none (the side to move is in check; the search never evaluates such positions)")
            return True
        if engine.nnue:
            source = engine.eval_file or "embedded net"
            self.send(f"{prefix}NNUE evaluation: {white * engine.evaluate(self.board):+d} cp (White's view; {source})")
        if self._classical is None:
            make_classical: Any = type(engine)  # kibitz.Engine or a stand-in: (hash_mb, nnue=...)
            self._classical = make_classical(1, nnue=False)
        self.send(f"{prefix}Classical evaluation: {white * self._classical.evaluate(self.board):+d} cp (White's view)")
        return True

    def cmd_quit(self, args: List[str]) -> bool:
        self.shutdown(wait_finite=False)
        return False

    # -------------------------------------------------------------- setoption

    def cmd_setoption(self, args: List[str]) -> bool:
        if not args or args[0] != "name":
            self.info("setoption needs: setoption name <name> [value <value>]")
            return True
        try:
            vi = args.index("value")
            name, value = " ".join(args[1:vi]), " ".join(args[vi + 1 :])
        except ValueError:
            name, value = " ".join(args[1:]), None
        if not name:
            self.info("setoption needs an option name")
            return True
        try:
            self.set_option(name, value)
        except OptionError as e:
            self.info(f"{e}; unchanged")
        return True

    def set_option(self, name: str, value: Optional[str]) -> None:
        """Set an option (hidden ones too) and run its effect, as ``setoption`` does;
        OptionError, nothing changed, for an unknown name or a bad value."""
        canon, parsed = self.options.set(name, value)
        effect = self.options.option(canon).apply
        if effect is not None:
            effect(self, canon, parsed)

    def load_book(self) -> Optional[Book]:
        """The opening book of BookFile (empty: the built-in book), read on first use and
        again when BookFile names another file; a file that is no book raises BookError."""
        from kibitz.book import Book

        path = self.options.get_str("BookFile")
        if self._book is None or self._book_loaded_from != path:
            self._book = Book.open(path) if path else Book.default()
            self._book_loaded_from = path
        return self._book

    def forget_book(self) -> None:
        """Drop the book read so far: it is read again at the next probe."""
        self._book = None

    # -------------------------------------------------------------- position

    def cmd_ucinewgame(self, args: List[str]) -> bool:
        self._stop_and_wait()
        self._apply_pending()
        if self._engine is not None:
            self._engine.clear()
        else:
            self.prepare_engine()
        self.board = Board(chess960=self.options.get_bool("UCI_Chess960"))
        self._refused_position = None
        return True

    def cmd_position(self, args: List[str]) -> bool:
        chess960 = self.options.get_bool("UCI_Chess960")
        if not args:
            return self._refuse_position("position needs startpos or fen <FEN>")
        try:
            mi = args.index("moves")
        except ValueError:
            mi = len(args)
        head, moves = args[:mi], args[mi + 1 :]
        if not head:
            return self._refuse_position("position needs startpos or fen <FEN> before moves")
        if head[0] == "startpos":
            if len(head) > 1:
                self.info(f"ignored {' '.join(head[1:])!r} after startpos")
            fen: Optional[str] = None
        elif head[0] == "fen":
            if len(head) < 2:
                return self._refuse_position("position fen needs a FEN")
            fen = " ".join(head[1:])
        else:
            return self._refuse_position(f"position needs startpos or fen, not {head[0]!r}")
        try:
            board = Board(fen, chess960=chess960) if fen is not None else Board(chess960=chess960)
            if board._unplayable is not None:  # read as python-chess reads it, but not playable
                raise FenError(board._unplayable)
        except FenError as e:
            return self._refuse_position(f"bad FEN {fen!r}: {e}")
        for i, m in enumerate(moves, 1):
            try:
                text = move_text(m)
                # A null move (python-chess sends 0000 for one in a board's history, e.g. to
                # ask what a side threatens) passes the turn; in check that would leave the
                # side that passed in check, a position no game reaches and no search takes.
                if text == "0000" and board.is_check():
                    raise IllegalMoveError("a null move in check")
                board.push_uci(text)
            except (IllegalMoveError, InvalidMoveError, ValueError) as e:
                kind = "illegal" if isinstance(e, IllegalMoveError) else "bad"
                self.info(
                    f"{kind} move {m!r} (move {i} of {len(moves)}): {e}; position set up to the "
                    f"move before it: {board.fen()}"
                )
                break
        self.board = board
        self._refused_position = None
        return True

    def _refuse_position(self, problem: str) -> bool:
        """A `position` command that sets up nothing: the board is kept for `d` and `eval`,
        but a `go` before the next good `position` answers `bestmove (none)` rather than
        search a position the GUI no longer has (its move could be illegal there)."""
        self.info(f"{problem}; position unchanged, and go answers bestmove (none) until the next position")
        self._refused_position = problem
        return True

    # -------------------------------------------------------------- go

    def cmd_go(self, args: List[str]) -> bool:
        received = time.monotonic()  # our clock runs from here (the GUI started it before)
        job = self._job
        if job is not None and job.answered:
            job.done.wait()  # its bestmove is out (the GUI answered it at once): let it finish
        if self.searching:
            self.info("go while searching: stopping the current search first")
            self._stop_and_wait()
        if args and args[0] == "perft":
            return self._perft(args[1:])
        go = parse_go(args, set(self.board.legal_moves_uci()), self.info)
        board = self.board.copy()
        time_left, inc = go.clock(board.turn)
        timed = time_left is not None or go.movetime is not None
        if timed or go.ponder:
            if self._pending:
                waiting = ", ".join(what for what, _ in self._pending)
                self.info(f"{waiting} waits for the next isready: this go has a clock")
        else:
            self._apply_pending()  # analysis: no clock to lose
        if go.movetime is None and time_left == 0 and (go.wtime if board.turn else go.btime) is None:
            self.info(f"go gave no clock for {'white' if board.turn else 'black'}, the side to move: answering at once")
        no_limit = not (timed or go.depth or go.nodes or go.mate or go.at_once)
        job = SearchJob(
            board=board,
            go=go,
            timed=timed,
            pondering=go.ponder,
            wait_for_stop=go.infinite or go.ponder or no_limit,
            clock_from=received,
            unsearchable=self._refused_position,
        )
        if self.debug and timed:
            limits = clock_limits(go, board.turn, 0, self.options.get_int("Move Overhead"))
            soft, max_soft, hard, _ = time_budget(
                time_left_ms=limits.get("wtime_ms" if board.turn else "btime_ms"),
                inc_ms=limits.get("winc_ms" if board.turn else "binc_ms", 0),
                movestogo=limits.get("movestogo"),
                movetime_ms=limits.get("movetime_ms"),
                overhead_ms=limits["overhead_ms"],
                moves_to_go=self.options.get_int("MovesToGo"),
            )
            self.info(f"budget soft {soft} max {max_soft} hard {hard} ms")
        self._job = job
        self._searcher.start(job)
        return True

    def _perft(self, args: List[str]) -> bool:
        """``go perft DEPTH``: the divide of the current position, as Stockfish prints it.
        It runs before the next command is read, as Stockfish's does."""
        depth = console.read_depth(args[0], MAX_PERFT_DEPTH) if args else None
        if depth is None:
            shown = repr(args[0]) if args else "nothing"
            self.info(f"go perft takes a depth from 1 to {MAX_PERFT_DEPTH}, not {shown}; ignored")
            return True
        for line in console.perft_lines(self.board, depth):
            self.send(line)
        return True

    def cmd_bench(self, args: List[str]) -> bool:
        """``bench [DEPTH]``: the engine's bench (``kibitz.uci.console.bench``)."""
        if self.searching:
            self.info("bench: not while searching")
            return True
        depth = console.read_depth(args[0], MAX_DEPTH) if args else BENCH_DEPTH
        if depth is None:
            self.info(f"bench takes a depth from 1 to {MAX_DEPTH}, not {args[0]!r}; ignored")
            return True
        console.bench(depth, self.send)
        return True

    def cmd_stop(self, args: List[str]) -> bool:
        job = self._job
        if job is None or job.done.is_set():
            return True  # nothing to stop (UCI: ignore)
        job.stop_event.set()
        job.release_event.set()
        if self._engine is not None:
            self._engine.stop()
        return True

    def cmd_ponderhit(self, args: List[str]) -> bool:
        job = self._job
        if job is None or job.done.is_set() or not job.pondering:
            if self.debug:
                self.info("ponderhit without a ponder search; ignored")
            return True
        # Our clock runs from now: the engine's time manager starts the budget of the clock
        # given with `go ponder` (and answers at once if the search pondered long enough).
        # A worker that has not read `pondering` yet searches normally (its clock counted
        # from here); one that has gets the ponderhit through the engine, which keeps it for
        # a search not yet started.
        job.clock_from = time.monotonic()
        job.pondering = False
        job.wait_for_stop = job.go.infinite
        if job.timed:
            if job.searching and self._engine is not None:
                self._engine.ponderhit()
        elif not (job.go.depth or job.go.nodes or job.go.mate or job.go.infinite):
            # `go ponder` without a clock: the move is wanted now.
            job.stop_event.set()
            if self._engine is not None:
                self._engine.stop()
        job.release_event.set()
        return True

    # -------------------------------------------------------------- lifecycle

    def _stop_and_wait(self) -> None:
        job = self._job
        if job is None:
            return
        if not job.done.is_set():
            self.cmd_stop([])
            job.done.wait()

    def shutdown(self, *, wait_finite: bool) -> None:
        """End the session: a finite search (depth, time, nodes) may finish first when
        ``wait_finite`` (stdin closed after `go`), anything else is stopped."""
        job = self._job
        if job is None or job.done.is_set():
            return
        if not (wait_finite and not job.wait_for_stop):
            self.cmd_stop([])
        job.done.wait()

    def _readline(self, stdin: TextIO) -> Optional[str]:
        """The next input line, or None at end of input. A line longer than MAX_LINE is
        read to its end and dropped (reported), so no input can grow memory without bound."""
        line = stdin.readline(MAX_LINE)
        if not line:
            return None
        if len(line) < MAX_LINE or line.endswith("\n"):
            return line
        while True:  # skip the rest of the overlong line
            rest = stdin.readline(MAX_LINE)
            if not rest or rest.endswith("\n"):
                break
        self.info(f"ignored an input line longer than {MAX_LINE} characters")
        return ""

    def run(self, stdin: TextIO) -> int:
        """Read and handle lines until quit or end of input; the exit status: 0, 130 after
        Ctrl-C, OUTPUT_CLOSED_STATUS when nobody reads the output any more."""
        if self.interactive:
            for banner_line in BANNER.splitlines():
                self.send(banner_line)
        try:
            while not self._closed:
                self.reading = True
                try:
                    line = self._readline(stdin)
                finally:
                    self.reading = False
                if line is None:
                    # End of input: nobody can send stop any more, so even a finite search
                    # (go depth 120 may take hours) is stopped; its bestmove is still written.
                    self.shutdown(wait_finite=False)
                    break
                if not self.handle(line):
                    break
        except KeyboardInterrupt:
            self.shutdown(wait_finite=False)
            if not self._closed:
                return 130  # 128 + SIGINT, as a shell reports a process ended by Ctrl-C
        self.shutdown(wait_finite=False)
        return OUTPUT_CLOSED_STATUS if self._closed else 0

    _COMMANDS: dict[str, Callable[["UciEngine", List[str]], bool]] = {}


UciEngine._COMMANDS = {
    "uci": UciEngine.cmd_uci,
    "debug": UciEngine.cmd_debug,
    "isready": UciEngine.cmd_isready,
    "setoption": UciEngine.cmd_setoption,
    "register": UciEngine.cmd_register,
    "ucinewgame": UciEngine.cmd_ucinewgame,
    "position": UciEngine.cmd_position,
    "go": UciEngine.cmd_go,
    "stop": UciEngine.cmd_stop,
    "ponderhit": UciEngine.cmd_ponderhit,
    "quit": UciEngine.cmd_quit,
    "help": UciEngine.cmd_help,
    "d": UciEngine.cmd_d,
    "eval": UciEngine.cmd_eval,
    "bench": UciEngine.cmd_bench,
}


def run_uci(
    stdin: Optional[TextIO] = None,
    stdout: Optional[TextIO] = None,
    options: Sequence[tuple[str, str]] = (),
) -> int:
    """Run a UCI session on the process's stdin/stdout (decoding errors replaced, so
    garbage bytes are just another bad line; encoding errors escaped, so no character
    can stop the output). ``options`` (name, value) are set before the first line is read,
    as ``setoption`` would set them, hidden ones included; a bad one raises OptionError
    before anything is written."""
    if stdin is None:
        stdin = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace", newline=None)
    if stdout is None:
        stdout = sys.stdout
        reconfigure = getattr(stdout, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    interactive = False
    try:
        interactive = sys.stdin.isatty()
    except (AttributeError, ValueError):
        pass
    session = UciEngine(stdout, interactive=interactive)
    for name, value in options:
        session.set_option(name, value)
    if threading.current_thread() is threading.main_thread():
        session.on_output_closed = lambda: _wake_reader(session)
    return session.run(stdin)


def _wake_reader(session: UciEngine) -> None:
    """Output closed while the main thread waits for input that may never come (a GUI that
    died with its end of stdin open): interrupt the read with SIGINT; run() then ends."""
    import signal

    if session.reading and threading.current_thread() is not threading.main_thread():
        ident = threading.main_thread().ident
        if ident is not None and hasattr(signal, "pthread_kill"):
            signal.pthread_kill(ident, signal.SIGINT)
