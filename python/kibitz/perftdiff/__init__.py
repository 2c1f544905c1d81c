"""``kibitz perft-diff``: find the first position where another move generator goes wrong.

Perft counts say *that* a generator is wrong, not *where*. perft-diff asks the other
generator for its divide (the count below each root move), compares it with kibitz's,
and descends into the first move (in sorted UCI order) whose counts differ, one ply at a
time, until it reaches a position whose move *lists* differ. It then names that position
(FEN and move path from the root), the legal moves the other generator misses, the moves
it lists that are not legal, and the commands that reproduce the difference.

Two ways to talk to the other generator:

* ``--engine "COMMAND ..."``: a UCI engine. perft-diff sends ``uci``, ``isready``,
  ``position {startpos | fen FEN} [moves ...]`` and ``go perft N`` and reads the lines
  Stockfish prints: ``e2e4: 9467`` for each move and ``Nodes searched: 197281``.
  With ``--chess960`` it sets ``UCI_Chess960`` and castling is written king-takes-rook.
* ``--script "COMMAND ..."``: any program. It is run once per position as
  ``COMMAND FEN DEPTH [MOVE ...]`` (the root FEN, the depth, then the UCI moves played
  from the root) and must print the same lines. Use the placeholders ``{fen}``,
  ``{depth}`` and ``{moves}`` to put the arguments elsewhere, e.g.
  ``--script "kibitz perft --fen {fen} {depth} --divide --moves {moves}"``.

The search is also available in Python: :func:`find_difference` takes any function
``divide(fen, moves, depth) -> {move: count}``.
"""

from __future__ import annotations


import os
import queue
import re
import shlex
import signal
import subprocess
import threading
import time
from dataclasses import dataclass, field
from typing import IO, Callable, Iterable, List, Mapping, Optional, Sequence, Union

from kibitz._core import STARTING_FEN, Board, InvalidMoveError

__all__ = [
    "DivideResult",
    "Difference",
    "EngineError",
    "ScriptEngine",
    "UciEngine",
    "find_difference",
    "format_difference",
    "parse_divide_lines",
]

# How long to wait for each answer to ``go perft N`` (seconds) unless --timeout says
# otherwise: generous, since a slow generator at depth 5-6 may need minutes.
DEFAULT_TIMEOUT = 120.0
# How long a UCI engine may take to answer ``uci`` and ``isready``. Stockfish answers in
# milliseconds and a Python engine in well under a second; ten seconds leaves room for a
# loaded machine while still failing fast when the program is not a UCI engine at all.
HANDSHAKE_TIMEOUT = 10.0
# How many unexpected or stderr lines to quote in an error message.
QUOTE_LINES = 5
# The longest line read from the other generator (characters): a divide line is ~20, an
# option line ~100; longer is cut there, so an engine printing one endless line cannot
# fill memory.
MAX_LINE = 64 * 1024
# Lines read ahead of the reader at most (the engine waits when it is that far ahead), and
# lines kept from the handshake (option lists are ~100 lines).
MAX_QUEUED_LINES = 10_000
MAX_KEPT_LINES = 1_000
# Most output kept from one run of a --script (bytes): a divide of ~220 moves is ~5 kB.
MAX_SCRIPT_OUTPUT = 16 << 20
# The deepest perft compared: the core's perft limit (kibitz perft checks 0..=64).
MAX_DEPTH = 64


def split_command(command: str, what: str) -> list[str]:
    """The argv of a shell-like command line, or EngineError saying why it cannot be read
    (an unterminated quote) or that it is empty."""
    try:
        argv = shlex.split(command)
    except ValueError as e:
        raise EngineError(f"cannot read the {what} command {command!r}: {e}") from None
    if not argv:
        raise EngineError(f"empty {what} command")
    return argv


def read_bounded_lines(stream: IO[str], limit: int = MAX_LINE) -> Iterable[str]:
    """Lines of ``stream`` without their line ends, each cut at ``limit`` characters (the
    rest of an overlong line is read and dropped)."""
    while True:
        line = stream.readline(limit)
        if not line:
            return
        if len(line) >= limit and not line.endswith("\n"):
            while True:
                rest = stream.readline(limit)
                if not rest or rest.endswith("\n"):
                    break
        yield line.rstrip("\r\n")


_MOVE_LINE = re.compile(r"^([a-h][1-8][a-h][1-8][nbrqNBRQ]?)\s*:\s*(\d+)$")
_TOTAL_LINE = re.compile(r"^Nodes searched\s*:\s*(\d+)$", re.IGNORECASE)


class EngineError(RuntimeError):
    """The other generator could not be used: it did not start, exited, timed out or
    answered in a format perft-diff does not read."""


@dataclass
class DivideResult:
    """One divide answer: the count below each move and the total the generator printed."""

    counts: dict[str, int]
    total: int
    # Lines of the answer that were neither a count, the total, blank nor info (a few):
    # quoted when a move then seems missing (``O-O: 5``, ``a1b1: -3``).
    unread: List[str] = field(default_factory=list)


DivideFn = Callable[[Optional[str], Sequence[str], int], Union[DivideResult, Mapping[str, int]]]


@dataclass
class Step:
    """One ply of the descent: at ``depth`` below the previous path, ``move`` was the first
    move whose counts differ."""

    move: str
    depth: int
    ours: int
    theirs: int


@dataclass
class Difference:
    """Where the other generator first goes wrong.

    ``kind`` is ``"moves"`` when the move lists of ``fen`` differ (``missing`` / ``extra``),
    ``"count"`` when the lists agree but a depth-1 count is not 1, ``"total"`` when every
    count agrees but the printed total is not their sum, and ``"inconsistent"``
    when, set up directly, the position agrees with kibitz although the generator counted
    it differently as a subtree of its parent (the generator's own answers disagree, a
    sign of state that make/unmake does not restore).
    """

    kind: str
    root_fen: str
    path: List[str]
    fen: str
    depth: int
    missing: List[str] = field(default_factory=list)
    extra: List[str] = field(default_factory=list)
    steps: List[Step] = field(default_factory=list)
    note: str = ""
    chess960: bool = False


def parse_divide_lines(lines: Iterable[str], what: str = "the answer") -> DivideResult:
    """Reads Stockfish-style divide output: ``move: count`` lines and ``Nodes searched: N``.

    Blank lines, ``info ...`` lines and other text are skipped; a missing total or a move
    printed twice raises :class:`EngineError`.
    """
    counts: dict[str, int] = {}
    total: Optional[int] = None
    unexpected: list[str] = []
    for raw in lines:
        line = raw.strip()
        if not line or line.startswith("info"):
            continue
        m = _MOVE_LINE.match(line)
        if m:
            _add_count(counts, m.group(1), int(m.group(2)), what)
            continue
        t = _TOTAL_LINE.match(line)
        if t:
            total = int(t.group(1))
            continue
        if len(unexpected) < QUOTE_LINES:
            unexpected.append(line)
    if total is None:
        raise EngineError(
            f"{what} has no 'Nodes searched: N' line; perft-diff reads 'move: count' lines "
            f"and the total as Stockfish prints them. {_quote('It printed', unexpected)}"
        )
    _check_has_moves(counts, total, what)
    return DivideResult(counts, total, unexpected)


def _add_count(counts: dict[str, int], move: str, n: int, what: str) -> None:
    move = move.lower()
    if move in counts:
        raise EngineError(f"{what} lists {move} twice")
    counts[move] = n


def _check_has_moves(counts: Mapping[str, int], total: int, what: str) -> None:
    if total > 0 and not counts:
        raise EngineError(
            f"{what} gives the total ({total}) but no 'move: count' lines; perft-diff "
            "needs the per-move counts (divide) as Stockfish prints them"
        )


def _quote(label: str, lines: Sequence[str]) -> str:
    if not lines:
        return f"{label}: none."
    return f"{label}: " + " | ".join(repr(s) for s in lines[:QUOTE_LINES])


class UciEngine:
    """A UCI engine that implements ``go perft N`` (Stockfish's extension of UCI).

    Use as a context manager; ``divide(fen, moves, depth)`` answers one position. ``fen``
    None means ``position startpos``.
    """

    # A ``move: count`` line of the engine's divide (subclasses for other boards widen it).
    move_line: "re.Pattern[str]" = _MOVE_LINE

    def __init__(
        self,
        command: Union[str, Sequence[str]],
        *,
        timeout: float = DEFAULT_TIMEOUT,
        handshake_timeout: float = HANDSHAKE_TIMEOUT,
        chess960: bool = False,
    ) -> None:
        self.argv = split_command(command, "engine") if isinstance(command, str) else list(command)
        if not self.argv:
            raise EngineError("empty engine command")
        self.command = command if isinstance(command, str) else shlex.join(self.argv)
        self.timeout = timeout
        self.handshake_timeout = handshake_timeout
        self.chess960 = chess960
        self.name = self.command  # replaced by the engine's "id name" after the handshake
        self._proc: Optional[subprocess.Popen[str]] = None
        self._lines: queue.Queue[Optional[str]] = queue.Queue(MAX_QUEUED_LINES)
        self._stderr: list[str] = []
        self._stderr_thread: Optional[threading.Thread] = None
        self._started = 0.0  # when the current wait began (for the timeout message)
        self._answered = 0  # divides answered so far

    # -- process plumbing --------------------------------------------------------------

    def __enter__(self) -> "UciEngine":
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self) -> None:
        try:
            self._proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
            )
        except OSError as e:
            raise EngineError(f"cannot start engine {self.command!r}: {e}") from None
        assert self._proc.stdout is not None and self._proc.stderr is not None
        threading.Thread(target=self._pump, args=(self._proc.stdout, self._lines), daemon=True).start()
        self._stderr_thread = threading.Thread(target=self._pump_stderr, args=(self._proc.stderr,), daemon=True)
        self._stderr_thread.start()
        try:
            self._handshake()
        except BaseException:
            self.close()  # __exit__ does not run when __enter__ fails: leave no process behind
            raise

    @staticmethod
    def _pump(stream: IO[str], out: "queue.Queue[Optional[str]]") -> None:
        try:
            for line in read_bounded_lines(stream):
                out.put(line)  # waits while the reader is MAX_QUEUED_LINES behind
        except (OSError, ValueError):
            pass  # the pipe was closed under us (close())
        out.put(None)  # end of file: the engine closed its output (exited)

    def _pump_stderr(self, stream: IO[str]) -> None:
        try:
            for line in read_bounded_lines(stream):
                self._stderr.append(line)
                del self._stderr[:-QUOTE_LINES]
        except (OSError, ValueError):
            pass

    def close(self) -> None:
        proc = self._proc
        if proc is None:
            return
        self._proc = None
        try:
            if proc.poll() is None and proc.stdin is not None:
                proc.stdin.write("quit\n")
                proc.stdin.flush()
        except OSError:
            pass
        try:
            proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass

    def _exited(self, waiting_for: str) -> EngineError:
        code = None
        if self._proc is not None:
            try:
                code = self._proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                pass
        if code is not None and self._stderr_thread is not None:
            self._stderr_thread.join(timeout=2)  # its last error lines, read to the end
        how = f"exited with code {code}" if code is not None else "closed its output"
        return EngineError(
            f"engine {self.command!r} {how} while perft-diff waited for {waiting_for}. "
            + _quote("Its last error output", self._stderr)
        )

    def send(self, line: str) -> None:
        proc = self._proc
        if proc is None or proc.stdin is None:
            raise EngineError(f"engine {self.command!r} is not running")
        try:
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
        except OSError:
            raise self._exited(f"it to read {line!r}") from None

    def _read(self, deadline: float, waiting_for: str, seen: Sequence[str]) -> str:
        # The deadline is checked before every line, so an engine that keeps printing
        # (lines are always there to read) cannot hold it off.
        remaining = deadline - time.monotonic()
        try:
            if remaining <= 0:
                raise queue.Empty
            line = self._lines.get(timeout=remaining)
        except queue.Empty:
            raise EngineError(
                f"engine {self.command!r} gave no {waiting_for} within "
                f"{deadline - self._started:g} s. " + _quote("It printed", seen)
            ) from None
        if line is None:
            self._lines.put(None)  # keep reporting end of file
            raise self._exited(waiting_for)
        return line

    def _expect(self, send: str, answer: str, timeout: float, hint: str = "") -> list[str]:
        """Sends ``send`` and reads lines until one equals ``answer``; returns those before."""
        self._started = time.monotonic()
        deadline = self._started + timeout
        self.send(send)
        seen: list[str] = []
        while True:
            line = self._read(deadline, f"answer {answer!r} to {send!r}{hint}", seen[-QUOTE_LINES:])
            if line.strip() == answer:
                return seen
            if len(seen) < MAX_KEPT_LINES:
                seen.append(line)
            if _is_unknown_command(line):
                raise EngineError(f"engine {self.command!r} does not understand {send!r}: {line!r}{hint}")

    def _handshake(self) -> None:
        hint = " (is it a UCI engine? for other programs use --script)"
        seen = self._expect("uci", "uciok", self.handshake_timeout, hint)
        for s in seen:
            if s.startswith("id name "):
                self.name = s[len("id name ") :].strip() or self.name
        if self.chess960:
            if not any(re.match(r"option\s+name\s+UCI_Chess960\b", s) for s in seen):
                raise EngineError(f"engine {self.command!r} has no UCI_Chess960 option, so it cannot play Chess960")
            self.send("setoption name UCI_Chess960 value true")
        self._expect("isready", "readyok", self.handshake_timeout)

    # -- perft -------------------------------------------------------------------------

    def position_command(self, fen: Optional[str], moves: Sequence[str]) -> str:
        cmd = "position startpos" if fen is None else f"position fen {fen}"
        if moves:
            cmd += " moves " + " ".join(moves)
        return cmd

    def divide(self, fen: Optional[str], moves: Sequence[str], depth: int) -> DivideResult:
        self._expect("isready", "readyok", self.handshake_timeout)
        self.send(self.position_command(fen, moves))
        go = f"go perft {depth}"
        self._started = time.monotonic()
        deadline = self._started + self.timeout
        self.send(go)
        counts: dict[str, int] = {}
        other: list[str] = []
        while True:
            # The hint only while the engine has answered no `go perft` yet.
            hint = "" if self._answered else " (does it implement go perft?)"
            line = self._read(deadline, f"'Nodes searched: N' after {go!r}{hint}", other)
            text = line.strip()
            if not text or text.startswith("info"):
                continue
            m = self.move_line.match(text)
            if m:
                _add_count(counts, m.group(1), int(m.group(2)), f"engine {self.command!r}")
                continue
            t = _TOTAL_LINE.match(text)
            if t:
                total = int(t.group(1))
                _check_has_moves(counts, total, f"engine {self.command!r}")
                self._answered += 1
                return DivideResult(counts, total, other)
            if text.startswith("bestmove"):
                raise EngineError(
                    f"engine {self.command!r} searched instead of counting: it answered {go!r} with "
                    f"{text!r}, so it does not implement go perft (use --script for such generators)"
                )
            if _is_unknown_command(text):
                raise EngineError(f"engine {self.command!r} does not understand {go!r}: {text!r}")
            if len(other) < QUOTE_LINES:
                other.append(text)

    def reproduce(self, fen: Optional[str], moves: Sequence[str], depth: int) -> str:
        script = f"{self.position_command(fen, moves)}\\ngo perft {depth}\\nquit\\n"
        if self.chess960:
            script = "uci\\nsetoption name UCI_Chess960 value true\\n" + script
        return f"printf {shlex.quote(script)} | {self.command}"


def _is_unknown_command(line: str) -> bool:
    low = line.lower()
    return "unknown command" in low or low.startswith("error")


class ScriptEngine:
    """A program run once per position as ``COMMAND FEN DEPTH [MOVE ...]`` (or with the
    ``{fen}``, ``{depth}``, ``{moves}`` placeholders), printing Stockfish-style divide lines."""

    def __init__(self, command: Union[str, Sequence[str]], *, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.template = split_command(command, "script") if isinstance(command, str) else list(command)
        if not self.template:
            raise EngineError("empty script command")
        self.command = command if isinstance(command, str) else shlex.join(self.template)
        self.name = f"the script {self.command!r}"
        self.timeout = timeout
        self.chess960 = False

    def __enter__(self) -> "ScriptEngine":
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def argv(self, fen: Optional[str], moves: Sequence[str], depth: int) -> list[str]:
        fen = STARTING_FEN if fen is None else fen
        if not any(p in tok for tok in self.template for p in ("{fen}", "{depth}", "{moves}")):
            return self.template + [fen, str(depth), *moves]
        out: list[str] = []
        for tok in self.template:
            if tok == "{moves}":
                out.extend(moves)
            else:
                out.append(tok.replace("{fen}", fen).replace("{depth}", str(depth)).replace("{moves}", " ".join(moves)))
        return out

    def divide(self, fen: Optional[str], moves: Sequence[str], depth: int) -> DivideResult:
        argv = self.argv(fen, moves, depth)
        shown = shlex.join(argv)
        returncode, out, err = run_bounded(argv, self.timeout, shown)
        if returncode != 0:
            last = err.strip().splitlines()[-QUOTE_LINES:]
            raise EngineError(
                f"script {shown!r} failed with exit code {returncode}. " + _quote("Its last error output", last)
            )
        return parse_divide_lines(out.splitlines(), f"the output of {shown!r}")

    def reproduce(self, fen: Optional[str], moves: Sequence[str], depth: int) -> str:
        return shlex.join(self.argv(fen, moves, depth))


def run_bounded(argv: Sequence[str], timeout: float, shown: str) -> tuple[int, str, str]:
    """Run ``argv`` in a process group of its own with at most ``timeout`` seconds and
    MAX_SCRIPT_OUTPUT bytes of each output kept; on timeout the whole group is killed (the
    script's own children too) and EngineError says so."""
    try:
        proc = subprocess.Popen(
            list(argv),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
    except OSError as e:
        raise EngineError(f"cannot run script {shown!r}: {e}") from None
    outputs: list[bytearray] = [bytearray(), bytearray()]

    def drain(stream: IO[bytes], into: bytearray) -> None:
        while True:
            chunk = stream.read1(1 << 16)  # type: ignore[attr-defined]
            if not chunk:
                return
            if len(into) < MAX_SCRIPT_OUTPUT:
                into += chunk[: MAX_SCRIPT_OUTPUT - len(into)]

    assert proc.stdout is not None and proc.stderr is not None
    readers = [
        threading.Thread(target=drain, args=(stream, buf), daemon=True)
        for stream, buf in ((proc.stdout, outputs[0]), (proc.stderr, outputs[1]))
    ]
    for t in readers:
        t.start()
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        raise EngineError(f"script {shown!r} did not finish within {timeout:g} s") from None
    except BaseException:
        _kill_group(proc)
        raise
    finally:
        for t in readers:
            t.join(timeout=2)
    _kill_group(proc)  # children it left running in its group go too
    return (proc.returncode, outputs[0].decode("utf-8", "replace"), outputs[1].decode("utf-8", "replace"))


def _kill_group(proc: "subprocess.Popen[bytes]") -> None:
    """Kill the process group ``proc`` leads (it was started with a session of its own)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (OSError, AttributeError):
        try:
            proc.kill()
        except OSError:
            pass
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        pass
    for stream in (proc.stdout, proc.stderr):
        if stream is not None:
            try:
                stream.close()
            except OSError:
                pass


# -- the search ------------------------------------------------------------------------


def _as_result(answer: Union[DivideResult, Mapping[str, int]]) -> DivideResult:
    if isinstance(answer, DivideResult):
        return answer
    counts = {str(m).lower(): int(n) for m, n in answer.items()}
    return DivideResult(counts, sum(counts.values()))


def find_difference(
    divide: DivideFn,
    depth: int,
    fen: Optional[str] = None,
    moves: Sequence[str] = (),
    *,
    chess960: bool = False,
) -> Optional[Difference]:
    """Compares ``divide`` with kibitz from ``fen`` (None: the start position) after
    ``moves`` and returns the first :class:`Difference`, or None when every count agrees.

    ``divide(fen, moves, depth)`` gets the root FEN as given here (None stays None), the
    UCI moves played from it, and the depth; it returns ``{move: count}`` or a
    :class:`DivideResult`. Raises ``FenError``/``IllegalMoveError``/``InvalidMoveError``
    for a bad root and ``ValueError`` for a depth below 1.
    """
    if depth < 1:
        raise ValueError(f"depth must be at least 1, got {depth}")
    root = Board(fen, chess960=chess960) if fen is not None else Board(chess960=chess960)
    root_fen = root.fen()
    if fen is not None:
        fen = " ".join(fen.split())  # one line: a newline in it would end the engine's command
    board = root.copy()
    # The moves go to the generator as kibitz writes them in the board's mode (castling as
    # king takes rook in Chess960, else the king's two squares), whichever form was given.
    path = []
    for m in moves:
        given = board.parse_uci(m)
        if not given:
            raise InvalidMoveError(f"a null move ({m!r}) cannot be sent: UCI engines take none in 'position ... moves'")
        path.append(board.uci(given))
        board.push(given)
    steps: list[Step] = []
    expected: Optional[int] = None  # what the generator counted for this subtree one level up
    d = depth

    def report(kind: str, missing: Sequence[str] = (), extra: Sequence[str] = (), note: str = "") -> Difference:
        """The Difference at the current position (``board`` after ``path``, depth ``d``)."""
        return Difference(
            kind=kind,
            root_fen=fen if fen is not None else root_fen,
            path=list(path),
            fen=board.fen(),
            depth=d,
            missing=list(missing),
            extra=list(extra),
            steps=list(steps),
            note=note,
            chess960=chess960,
        )

    while True:
        ours = board.divide(d)
        try:
            theirs = _as_result(divide(fen, list(path), d))
        except EngineError as e:
            if not steps:
                raise
            # A generator that dies or hangs part-way down: what was found, and the
            # position it was asked about (often the bug sought).
            found = "; ".join(f"{s.move} at depth {s.depth}: kibitz {s.ours}, it {s.theirs}" for s in steps)
            said = str(e).rstrip()
            raise EngineError(
                f"{said}{' ' if said.endswith('.') else '. '}It was asked about {board.fen()} (the root, then {' '.join(path)}) at depth {d}, "
                f"after these differences on the way down: {found}"
            ) from None
        missing = sorted(set(ours) - set(theirs.counts))
        extra = sorted(set(theirs.counts) - set(ours))
        if missing or extra:
            note = ""
            if theirs.unread:
                note = "lines of its answer perft-diff could not read: " + " | ".join(repr(u) for u in theirs.unread)
            return report("moves", missing=missing, extra=extra, note=note)
        differing = [m for m in sorted(ours) if ours[m] != theirs.counts[m]]
        if not differing:
            their_total = sum(theirs.counts.values())
            if theirs.total != their_total:
                return report(
                    "total",
                    note=(
                        f"every per-move count agrees with kibitz, but the generator's total is "
                        f"{theirs.total}, not their sum {their_total}"
                    ),
                )
            if expected is not None and expected != their_total:
                return report(
                    "inconsistent",
                    note=(
                        f"set up directly, this position agrees with kibitz at depth {d} "
                        f"({their_total} nodes), but the generator counted {expected} for it as "
                        "a subtree of the previous position: its answers depend on the way the "
                        "position was reached (state that make/unmake does not restore, or a "
                        "hash-table collision)"
                    ),
                )
            return None
        move = differing[0]
        if d == 1:
            return report(
                "count",
                note=f"at depth 1 the generator counts {theirs.counts[move]} for {move}, not 1",
            )
        steps.append(Step(move, d, ours[move], theirs.counts[move]))
        expected = theirs.counts[move]
        board.push_uci(move)
        path.append(move)
        d -= 1


def format_difference(
    diff: Difference,
    name: str = "the other generator",
    reproduce: Optional[Callable[[Optional[str], Sequence[str], int], str]] = None,
    given_fen: Optional[str] = None,
    given_moves: int = 0,
) -> str:
    """The human-readable report ``kibitz perft-diff`` prints."""
    out: list[str] = []
    where = "the start position" if given_fen is None else "the given position"
    plies = len(diff.path)
    out.append(
        f"kibitz and {name} differ {plies} {'ply' if plies == 1 else 'plies'} from {where}, at depth {diff.depth}:"
    )
    out.append(f"  position: {diff.fen}")
    out.append(f"  path:     {' '.join(diff.path) if diff.path else '(the root itself)'}")
    if given_moves:
        out.append(f"            (the first {given_moves} from --moves)")
    if diff.steps:
        out.append("  descent (move: kibitz's count vs its count):")
        for s in diff.steps:
            out.append(f"    depth {s.depth}  {s.move}: {s.ours} vs {s.theirs}")
    if diff.kind == "moves":
        out.append(f"  moves it misses: {' '.join(diff.missing) if diff.missing else '(none)'}")
        out.append(f"  moves it has that are not legal: {' '.join(diff.extra) if diff.extra else '(none)'}")
        if diff.note:
            out.append(f"  {diff.note}")
    else:
        out.append(f"  {diff.note}")
    flags = " --chess960" if diff.chess960 else ""
    fen_arg = f" --fen {shlex.quote(given_fen)}" if given_fen is not None else ""
    moves_arg = f" --moves {' '.join(diff.path)}" if diff.path else ""
    commands = [
        f"kibitz perft{flags} --fen {shlex.quote(diff.fen)} {diff.depth} --divide",
        f"kibitz perft{flags}{fen_arg}{moves_arg} {diff.depth} --divide",
    ]
    if reproduce is not None:
        commands.append(reproduce(given_fen, diff.path, diff.depth))
        if diff.kind == "inconsistent" and diff.path:
            commands.append(reproduce(given_fen, diff.path[:-1], diff.depth + 1))
    out.append("Reproduce:")
    out.extend(f"  {c}" for c in dict.fromkeys(commands))  # in order, without repeats
    return "\n".join(out)


# -- command line ----------------------------------------------------------------------
