"""``kibitz analyse GAMES``: every position of every game searched, one JSON record per
game in input order, optionally the games back as annotated PGN; ``--resume`` after a crash.

Nothing is lost: each record is written as one whole line with a single ``write`` and the
file is fsynced as the run goes (at most ``FSYNC_INTERVAL`` apart, and at the end), always
in input order. ``--resume`` keeps the complete records already written, drops a torn last
line, rebuilds the annotated PGN from the kept records, and analyses from the next game on:
the output is then byte for byte that of an uninterrupted run. It continues only the same
run: records carry the limits they were made with, and every kept record must be of its
game as the input reads now. Before any search, every output is checked to be neither the
input nor another output, and writable (``kibitz.cli.outputs``).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import signal
import stat
import sys
import threading
import time
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Iterator, Optional

try:
    import fcntl
except ImportError:  # pragma: no cover - not on POSIX: outputs are not locked
    fcntl = None  # type: ignore[assignment]

from kibitz.analysis import backends
from kibitz.analysis.game import DEFAULT_NODES, Limits, pgn_text, same_game
from kibitz.analysis.reader import InputGame, open_games, read_games
from kibitz.cli.common import EXIT_CLOSED_PIPE, EXIT_INTERRUPTED, float_in, printable
from kibitz.cli.outputs import OutputError, check_distinct, check_replaceable

# 128 + SIGTERM, what a shell reports for a command ended by kill.
EXIT_TERMINATED = 143

# Longest stretch between fsyncs (s): a power cut loses at most this much work, and a run
# of quick games does not wait on the disk for each one.
FSYNC_INTERVAL = 0.05
# How often the progress line on a terminal is redrawn (s).
PROGRESS_INTERVAL = 0.5
# Most local worker processes a core (each holds an engine and its table; more only wait).
MAX_WORKERS_PER_CORE = 4
# The GAMES argument that names the standard input (as ``-o -`` names the standard output).
STDIN = "-"


def record_line(record: dict[str, Any]) -> bytes:
    """The JSON line of a record (compact, key order as built, UTF-8)."""
    return (json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


class ResumeError(Exception):
    """The output file cannot be continued (not written by ``kibitz analyse`` of this input)."""


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def kept_records(path: str, limits: dict[str, Any]) -> tuple[int, int, int]:
    """Scans an output file to resume: (records kept, bad games among them, byte length of
    the complete lines). A last line without its newline is a torn write and is not kept.
    ResumeError when a line is not the next game's record, or a record was made with other
    ``limits`` (a ``Limits.record()``) than this run's, or does not say."""
    count = bad = 0
    keep = 0
    with open(path, "rb") as f:
        for raw in f:
            if not raw.endswith(b"\n"):
                break  # torn tail
            try:
                rec = json.loads(raw)
            except ValueError as e:
                raise ResumeError(f"{path}: line {count + 1} is not a JSON record ({e}); not resuming") from e
            if not isinstance(rec, dict) or rec.get("game") != count + 1:
                raise ResumeError(f"{path}: line {count + 1} is not the record of game {count + 1}; not resuming")
            made_with = rec.get("limits")
            if made_with is None:
                raise ResumeError(
                    f"{path}: the record of game {count + 1} does not say which limits made it (an older kibitz"
                    " wrote it), so this run could not match them; analyse into a new output instead of resuming"
                )
            if made_with != limits:
                raise ResumeError(
                    f"{path} was made with {printable(limit_flags(made_with))}, this run asks for {limit_flags(limits)};"
                    " resume with the same limits, or analyse into a new output"
                )
            count += 1
            keep += len(raw)
            if rec.get("status") != "ok":
                bad += 1
    return count, bad, keep


def limit_flags(limits: Any) -> str:
    """A record's ``limits`` as the options that give them: ``--nodes 200 --multipv 1
    --hash 16``, with ``--syzygy`` when tables were probed."""
    if not isinstance(limits, dict):
        return repr(limits)
    flags = {"nodes": "--nodes", "depth": "--depth", "movetime_ms": "--movetime", "multipv": "--multipv"}
    words = [
        f"{flag} {limits[key]:g}" if isinstance(limits.get(key), float) else f"{flag} {limits[key]}"
        for key, flag in flags.items()
        if key in limits
    ]
    if "hash_mb" in limits:
        words.append(f"--hash {limits['hash_mb']}")
    if limits.get("syzygy"):
        words.append("--syzygy")
    return " ".join(words)


def _records_of(path: str, count: int) -> Iterator[dict[str, Any]]:
    with open(path, "rb") as f:
        for raw in itertools.islice(f, count):
            yield json.loads(raw)


class Counted:
    """The games as the backend takes them from the reader, counted: how many games and
    positions to search have been read, and whether the input has all been read."""

    def __init__(self, games: Iterator[InputGame]) -> None:
        self._games = games
        self.games = 0
        self.positions = 0
        self.exhausted = False

    def __iter__(self) -> Iterator[InputGame]:
        for game in self._games:
            self.games += 1
            if game.error is None:
                self.positions += len(game.moves) + 1
            yield game
        self.exhausted = True


class Progress:
    """On a terminal, a tqdm bar on stderr from the start of the run, redrawn by a thread
    every ``PROGRESS_INTERVAL``: the positions searched (the workers count them as they go,
    so the bar moves within a long game) out of those of the input, the games done out of
    the input's, the bad ones, the rate and the time left. Silent when stderr is not a
    terminal.

    The input's totals come from a second reading of a regular file in a thread (a
    thousandth of the analysis's time: the reader takes about 0.35 ms a game, a search of
    a game's positions hundreds of ms), and from the games read so far once the input is
    all read. Until then they are estimated from the share of the file read (``~``); a
    pipe is read once, so its totals are known only at its end."""

    def __init__(self, path: str, counted: Counted, fraction: Any, counter: Any, done_before: int) -> None:
        self.counted = counted
        self.fraction = fraction
        self.counter = counter
        self.done_before = done_before  # games kept by --resume
        self.start_fraction = fraction() or 0.0
        self.done = 0
        self.bad = 0
        self.searched = 0  # positions of the games done, where no counter counts them
        self.totals: Optional[tuple[int, int]] = None  # the input's (games, positions to search now)
        self.bar: Any = None
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        if not self.shown():
            return
        from tqdm import tqdm

        # The bar stays when the run ends: the last one drawn is the run's summary.
        self.bar = tqdm(total=None, unit=" positions", desc="analyse", file=sys.stderr, dynamic_ncols=True)
        self._threads.append(threading.Thread(target=self._redraw, name="kibitz-progress", daemon=True))
        if os.path.isfile(path):
            self._threads.append(
                threading.Thread(target=self._count, args=(path,), name="kibitz-progress-count", daemon=True)
            )
        for thread in self._threads:
            thread.start()

    @staticmethod
    def shown() -> bool:
        """Whether there is a bar: stderr is a terminal."""
        try:
            return sys.stderr.isatty()
        except (AttributeError, ValueError):
            return False

    def _count(self, path: str) -> None:
        games = positions = 0
        try:
            for game in read_games(path):
                if self._stop.is_set():
                    return
                games += 1
                if game.index > self.done_before and game.error is None:
                    positions += len(game.moves) + 1
        except Exception:  # the run's own reading reports what is wrong with the input
            return
        self.totals = (games, positions)

    def _estimate(self, read: int) -> Optional[float]:
        """What ``read`` (games or positions read so far) comes to over the whole input."""
        f = self.fraction()
        if not f or f <= self.start_fraction or not read:
            return None
        return float(read * (1 - self.start_fraction) / (float(f) - self.start_fraction))

    def _redraw(self) -> None:
        while not self._stop.wait(PROGRESS_INTERVAL):
            self.draw()

    def draw(self) -> None:
        if self.bar is None:
            return
        searched = self.counter.value if self.counter is not None else self.searched
        games: Optional[int]
        total: Optional[int]
        if self.counted.exhausted:
            games, total, about = self.done_before + self.counted.games, self.counted.positions, ""
        elif self.totals is not None:
            games, total, about = self.totals[0], self.totals[1], ""
        else:
            g, p = self._estimate(self.counted.games), self._estimate(self.counted.positions)
            games = None if g is None else self.done_before + int(g)
            total = None if p is None else int(p)
            about = "~"
        if total is not None:
            self.bar.total = max(total, searched)
        of = "" if games is None else f"/{about}{games}"
        self.bar.set_postfix_str(f"games {self.done_before + self.done}{of}, {self.bad} bad", refresh=False)
        self.bar.update(searched - self.bar.n)
        self.bar.refresh()

    def game_done(self, record: dict[str, Any]) -> None:
        self.done += 1
        if record.get("status") != "ok":
            self.bad += 1
        positions = record.get("positions")
        self.searched += len(positions) if isinstance(positions, list) else 0

    def say(self, line: str) -> None:
        """Prints a line on stderr, above the bar when there is one."""
        if self.bar is not None:
            from tqdm import tqdm

            tqdm.write(line, file=sys.stderr)
        else:
            print(line, file=sys.stderr)

    def close(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join()
        self._threads = []
        if self.bar is not None:
            self.draw()
            self.bar.close()
            self.bar = None


class Output:
    """One output file, opened without truncating it, then locked (``flock``) so that a second
    run on it is refused; ``start`` cuts it (to empty, or to the kept records of a resumed
    run) once everything else has been checked, so a failed start leaves it as it was."""

    def __init__(self, path: str, what: str) -> None:
        self.path = path
        self.what = what
        self.created = False
        try:
            try:
                self.fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o644)
                self.created = True
            except FileExistsError:
                self.fd = os.open(path, os.O_WRONLY | os.O_APPEND)
        except OSError as e:
            raise OutputError(f"cannot write {what} {path}: {e.strerror or e}") from None
        self.regular = stat.S_ISREG(os.fstat(self.fd).st_mode)

    def lock(self) -> None:
        """Takes the run's lock on the file; OutputError when another run holds it."""
        if self.regular and fcntl is not None:
            try:
                fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise OutputError(
                    f"{self.path} is being written by another run (it is locked); not starting a second one on it"
                ) from None
            except OSError:
                pass  # a file system without locks: go on unlocked

    def start(self, keep: int = 0) -> None:
        if self.regular:
            os.ftruncate(self.fd, keep)
            os.fsync(self.fd)

    def write(self, data: bytes) -> None:
        _write_all(self.fd, data)

    def fsync(self) -> None:
        if self.regular:
            os.fsync(self.fd)

    def close(self, failed: bool = False) -> None:
        """Closes the file (once); after a failed start, removes it if this run made it."""
        if self.fd < 0:
            return
        if failed and self.created:
            try:
                os.unlink(self.path)
            except OSError:
                pass
        os.close(self.fd)
        self.fd = -1


def _stdout_fd() -> Optional[int]:
    """The standard output's descriptor, or None when it has none (a captured stream)."""
    try:
        return sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return None


def _stdin() -> Any:
    """The standard input as a binary stream (as it is where it has no binary one)."""
    return getattr(sys.stdin, "buffer", None) or sys.stdin


def _open_outputs(args: argparse.Namespace) -> list[Output]:
    """The output files (records, annotated PGN), opened and locked; ``check_distinct`` has
    made sure that neither is the input or the other."""
    outputs: list[Output] = []
    try:
        for path, what in (
            (None if args.output in (None, "-") else args.output, "the records"),
            (args.pgn_out, "the annotated PGN"),
        ):
            if path is not None:
                outputs.append(Output(path, what))
        for out in outputs:
            out.lock()
    except BaseException:
        for out in outputs:
            out.close(failed=True)
        raise
    return outputs


def _on_sigterm(signum: int, frame: Any) -> None:
    raise Terminated()


class Terminated(BaseException):
    """SIGTERM: unwinds like Ctrl-C, so the worker processes are ended too."""


def run(args: argparse.Namespace) -> int:
    def fail(message: str) -> int:
        print(f"kibitz analyse: {message}", file=sys.stderr)
        return 2

    limits = Limits(
        nodes=args.nodes,
        depth=args.depth,
        movetime_ms=args.movetime,
        multipv=args.multipv,
        hash_mb=args.hash,
        syzygy=args.syzygy,
    )
    # GAMES "-" is the standard input: read as a stream, named so in messages.
    from_stdin = args.games == STDIN
    input_name = "the standard input" if from_stdin else args.games
    # With --report and no -o the records go to the report only.
    to_stdout = args.output in (None, "-") and not (args.report and args.output is None)
    if args.resume and (to_stdout or args.output is None):
        return fail("--resume needs -o OUT.jsonl (the records it goes on from)")
    # Everything that can be checked is checked before any output is touched.
    try:
        limits.check()
    except (ValueError, OSError) as e:  # OSError: a --syzygy directory that cannot be read
        return fail(str(e))
    except MemoryError:
        return fail(f"not enough memory for a transposition table of {args.hash} MB; use a smaller --hash")
    if args.backend == "ray":
        try:
            backends.require_ray()
        except RuntimeError as e:
            return fail(str(e))
    # No output may be the input or another output, and each must be writable: found now,
    # not after hours of analysis.
    try:
        check_distinct(
            [("the input", 0 if from_stdin else args.games)],
            [
                ("the records", _stdout_fd() if to_stdout else None if args.output in (None, "-") else args.output),
                ("the annotated PGN", args.pgn_out),
                ("the report", args.report),
            ],
        )
        if args.report:
            check_replaceable("the report", args.report)
    except OutputError as e:
        return fail(str(e))
    skip = bad = 0
    keep_bytes = 0
    if args.resume and os.path.exists(args.output):
        if not os.path.isfile(args.output):
            return fail(f"cannot resume {args.output}: not a regular file")
        try:
            skip, bad, keep_bytes = kept_records(args.output, limits.record())
        except ResumeError as e:
            return fail(str(e))
        except OSError as e:
            return fail(f"cannot read {args.output}: {e.strerror or e}")
    try:
        opened, games = open_games(_stdin() if from_stdin else args.games)
    except (OSError, ValueError) as e:
        return fail(f"cannot read {input_name}: {getattr(e, 'strerror', None) or e}")
    try:
        outputs = _open_outputs(args)
    except OutputError as e:
        opened.close()
        return fail(str(e))
    records_out = next((o for o in outputs if o.what == "the records"), None)
    pgn_out = next((o for o in outputs if o.what == "the annotated PGN"), None)
    try:
        if skip:
            # The games already done are read past, each checked to be the one its kept
            # record was made from: an input edited since (a game changed, added or taken
            # out before the last kept one) is not continued.
            try:
                for rec in _records_of(args.output, skip):
                    game = next(games, None)
                    if game is None or not same_game(rec, game):
                        which = f"game {rec.get('game')}" if game is None else game.describe()
                        return fail(
                            f"{args.output} does not continue {input_name}: its record of {printable(which)}"
                            " is not of the input's game as it reads now; not resuming"
                        )
            except (OSError, ValueError, EOFError) as e:
                return fail(f"reading {input_name} failed: {e}")
        try:
            if records_out is not None:
                records_out.start(keep_bytes if args.resume else 0)
            if pgn_out is not None:
                pgn_out.start()
                if args.resume and skip:
                    # The annotated PGN is a function of the records: rebuild it from the kept ones.
                    for rec in _records_of(args.output, skip):
                        pgn_out.write(pgn_text(rec).encode("utf-8"))
                    pgn_out.fsync()
        except OSError as e:
            return fail(f"cannot write the outputs: {e.strerror or e}")
        return _analyse(args, limits, opened, games, records_out, pgn_out, skip, bad, input_name)
    finally:
        for out in outputs:
            out.close()


def _analyse(
    args: argparse.Namespace,
    limits: Limits,
    opened: Any,
    games: Iterator[InputGame],
    records_out: Optional[Output],
    pgn_out: Optional[Output],
    skip: int,
    bad: int,
    input_name: str,
) -> int:
    """The run proper, once every output is open and cut: records in input order, written
    as they come; a read error ends it after every game read so far is written."""
    outputs = [o for o in (pgn_out, records_out) if o is not None]

    def fsync() -> None:
        for out in outputs:
            out.fsync()

    from_stdin = args.games == STDIN
    report = _report_builder(args, skip, "" if from_stdin else args.games)
    counted = Counted(games)
    # Positions are counted as they are searched only for a bar to show them (not on Ray,
    # whose tasks run on other machines).
    counter = backends.position_counter() if Progress.shown() and args.backend != "ray" else None
    # The input's totals come from a second reading of a file; the standard input is read once.
    progress = Progress("" if from_stdin else args.games, counted, opened.fraction_read, counter, skip)
    if args.backend == "ray":
        records = backends.ray_cluster(iter(counted), limits, args.ray_address)
    else:
        records = backends.pool(iter(counted), limits, _local_workers(args.workers, progress), counter)
    done = 0
    bad_before = bad
    last_sync = time.monotonic()
    previous = signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        while True:
            try:
                rec = next(records, None)
            except (OSError, ValueError, EOFError) as e:
                fsync()
                progress.say(f"kibitz analyse: reading {input_name} failed after {skip + done} games: {e}")
                return 2
            except (BrokenProcessPool, MemoryError) as e:
                fsync()
                what = (
                    "a worker process died (killed: the out-of-memory killer, or a signal)"
                    if isinstance(e, BrokenProcessPool)
                    else "out of memory"
                )
                again = (
                    "the same command with --resume goes on from there"
                    if records_out is not None
                    else "run it again (with -o OUT.jsonl, --resume can go on after a failure)"
                )
                progress.say(
                    f"kibitz analyse: {what} after {skip + done} games; {again}, with a smaller --hash"
                    f" ({args.hash} MB a worker now) or fewer --workers if memory is short"
                )
                return 2
            if rec is None:
                break
            if rec.get("status") != "ok":
                bad += 1
                # One line per game that could not be read or analysed, naming it and why.
                progress.say(f"kibitz analyse: skipped {printable(str(rec.get('error')))}")
            current = "the annotated PGN"
            try:
                if pgn_out is not None:
                    pgn_out.write(pgn_text(rec).encode("utf-8"))
                line = record_line(rec)
                if report is not None:
                    report.add(rec)
                if records_out is not None:
                    current = records_out.path
                    records_out.write(line)
                    now = time.monotonic()
                    if now - last_sync >= FSYNC_INTERVAL:
                        fsync()
                        last_sync = now
                elif not (args.report and args.output is None):  # --report alone: the page only
                    current = "the standard output"
                    sys.stdout.buffer.write(line)
                    sys.stdout.buffer.flush()
            except BrokenPipeError:
                if records_out is None and current == "the standard output":
                    return EXIT_CLOSED_PIPE
                raise
            except OSError as e:
                where = pgn_out.path if current == "the annotated PGN" and pgn_out is not None else current
                progress.say(f"kibitz analyse: writing {where} failed: {e.strerror or e}")
                return 2
            done += 1
            progress.game_done(rec)
        try:
            fsync()
        except OSError as e:
            progress.say(f"kibitz analyse: writing the outputs failed: {e.strerror or e}")
            return 2
    except (KeyboardInterrupt, Terminated) as e:
        try:
            fsync()
        except OSError:
            pass
        if records_out is not None:
            again = "the same command with --resume goes on from there"
        elif args.report and args.output is None:
            again = "no report was written (with -o OUT.jsonl, --resume can go on after a stop)"
        else:
            again = "the records so far are on standard output (with -o OUT.jsonl, --resume can go on after a stop)"
        progress.say(
            f"kibitz analyse: {'interrupted' if isinstance(e, KeyboardInterrupt) else 'terminated'} after"
            f" {skip + done} games; {again}"
        )
        return EXIT_INTERRUPTED if isinstance(e, KeyboardInterrupt) else EXIT_TERMINATED
    finally:
        progress.close()
        # Whatever ended the run (the end of the input, an error, a signal), the workers end
        # now rather than when the generator is collected.
        close = getattr(records, "close", None)
        if close is not None:
            close()
        signal.signal(signal.SIGTERM, previous)
    if bad:
        kept = f" ({bad_before} of them in the kept records)" if bad_before else ""
        print(
            f"kibitz analyse: {bad} of {skip + done} games could not be read or analysed{kept};"
            " their records (status error) say why",
            file=sys.stderr,
        )
    if report is not None:
        try:
            report.write(args.report)
        except OSError as e:
            print(f"kibitz analyse: cannot write {args.report}: {e.strerror or e}", file=sys.stderr)
            return 2
    return 1 if bad else 0


def _local_workers(asked: Optional[int], progress: Any) -> int:
    """The worker processes on this machine: as asked (default one a core), at most
    ``MAX_WORKERS_PER_CORE`` a core (each holds an engine and its table; more only wait)."""
    cores = backends.default_workers()
    if asked is None:
        return cores
    cap = MAX_WORKERS_PER_CORE * cores
    if asked > cap:
        progress.say(f"kibitz analyse: --workers {asked}: {cap} on this machine ({MAX_WORKERS_PER_CORE} a core)")
        return cap
    return asked


def _report_builder(args: argparse.Namespace, skip: int, games: str) -> Any:
    """The ``--report`` page's builder (titled after the input file ``games``, or the
    default title for ""), holding the records a resumed run keeps; or None."""
    if not getattr(args, "report", None):
        return None
    from kibitz.cli.report import default_title
    from kibitz.report import ReportBuilder

    builder = ReportBuilder(default_title(games))
    if skip:
        for rec in _records_of(args.output, skip):
            builder.add(rec)
    return builder


def _positive(kind: type) -> Any:
    def parse(text: str) -> Any:
        v = kind(text)
        if v <= 0:
            raise argparse.ArgumentTypeError(f"must be positive, got {text}")
        return v

    return parse


def add_parser(sub: Any) -> None:
    """Registers ``kibitz analyse`` (see kibitz.cli.SUBCOMMAND_MODULES)."""
    p = sub.add_parser(
        "analyse",
        aliases=["analyze"],
        help="analyse every move of a PGN collection (JSON lines, annotated PGN)",
        description="Searches every position of every game and writes one JSON record per game, "
        "in input order. Exit status 1 when some game could not be read, 2 when the run "
        "could not start, a file failed or a worker died (out of memory), 130 after Ctrl-C, "
        "141 when the output pipe closed, 143 after SIGTERM.",
    )
    p.add_argument("games", metavar="GAMES", help="PGN file: .pgn, .pgn.gz or .pgn.zst; - reads the standard input")
    p.add_argument(
        "-o", "--output", metavar="OUT.jsonl", default=None, help="where the records go (default: standard output)"
    )
    p.add_argument(
        "--pgn-out",
        metavar="ANNOTATED.pgn",
        default=None,
        help="also write the games with [%%eval] comments and ?! / ? / ?? marks",
    )
    p.add_argument(
        "--report",
        metavar="REPORT.html",
        default=None,
        help="also write an HTML report (players, openings, graphs, mistakes; see `kibitz report`);"
        " without -o, the records then go only there",
    )
    limit = p.add_mutually_exclusive_group()
    limit.add_argument(
        "--nodes", type=_positive(int), default=None, help=f"nodes searched per position (default {DEFAULT_NODES:,})"
    )
    limit.add_argument("--depth", type=_positive(int), default=None, help="depth searched per position")
    limit.add_argument(
        "--movetime",
        type=float_in(0.0, 1e12, lo_open=True),
        default=None,
        metavar="MS",
        help="milliseconds per position (not reproducible; prefer --nodes)",
    )
    p.add_argument(
        "--multipv", type=_positive(int), default=1, metavar="K", help="also report the K best lines of each position"
    )
    p.add_argument(
        "--workers", type=_positive(int), default=None, metavar="N", help="worker processes (default: one per core)"
    )
    p.add_argument(
        "--hash", type=_positive(int), default=16, metavar="MB", help="transposition table per worker (default 16)"
    )
    p.add_argument(
        "--syzygy",
        metavar="DIRS",
        default=None,
        help="Syzygy tablebase directories (':'-separated): the search probes them and the records"
        ' mark the positions they decide ("tb": wdl and dtz)',
    )
    p.add_argument(
        "--resume",
        action="store_true",
        help="continue an interrupted run: keep OUT's complete records, analyse the rest",
    )
    p.add_argument(
        "--backend",
        choices=["local", "ray"],
        default="local",
        help="local worker processes (default) or a Ray cluster (pip install 'kibitz[ray]')",
    )
    p.add_argument(
        "--ray-address", default=None, metavar="ADDR", help="Ray cluster to join (default: start a local one)"
    )
    p.set_defaults(func=run)
