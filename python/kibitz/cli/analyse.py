"""``kibitz analyse GAMES``: every position of every game searched, one JSON record per
game in input order, optionally the games back as annotated PGN; ``--resume`` after a crash.

Nothing is lost: each record is written as one whole line with a single ``write`` and the
file is fsynced as the run goes (at most ``FSYNC_INTERVAL`` apart, and at the end), always
in input order. ``--resume`` keeps the complete records already written, drops a torn last
line, rebuilds the annotated PGN from the kept records, and analyses from the next game on:
the output is then byte for byte that of an uninterrupted run.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
import time
from typing import Any, BinaryIO, Iterator, Optional

from kibitz.analysis import backends
from kibitz.analysis.game import DEFAULT_NODES, Limits, pgn_text
from kibitz.analysis.reader import Game, open_games

# Longest stretch between fsyncs (s): a power cut loses at most this much work, and a run
# of quick games does not wait on the disk for each one.
FSYNC_INTERVAL = 0.05
# How often the progress line on a terminal is redrawn (s).
PROGRESS_INTERVAL = 0.5


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


def kept_records(path: str) -> tuple[int, int, int, Any]:
    """Scans an output file to resume: (records kept, bad games among them, byte length of
    the complete lines, the last kept record's headers). A last line without its newline is
    a torn write and is not kept."""
    count = bad = 0
    keep = 0
    headers = None
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
            count += 1
            keep += len(raw)
            headers = rec.get("headers")
            if rec.get("status") != "ok":
                bad += 1
    return count, bad, keep, headers


def _records_of(path: str, count: int) -> Iterator[dict[str, Any]]:
    with open(path, "rb") as f:
        for raw in itertools.islice(f, count):
            yield json.loads(raw)


class Progress:
    """``analysed N games (B bad), X games/s, ETA ...`` redrawn on stderr when it is a
    terminal; silent otherwise (logs and pipes get nothing)."""

    def __init__(self, fraction: Any) -> None:
        self.on = sys.stderr.isatty()
        self.fraction = fraction
        self.start = time.monotonic()
        self.last = 0.0
        self.done = 0

    def update(self, done: int, bad: int, final: bool = False) -> None:
        if not self.on:
            return
        now = time.monotonic()
        if not final and now - self.last < PROGRESS_INTERVAL:
            return
        self.last = now
        elapsed = max(1e-9, now - self.start)
        rate = done / elapsed
        eta = ""
        f = self.fraction()
        if f and not final and f > 0:
            left = elapsed * (1 - f) / f
            eta = f", ETA {int(left // 3600)}:{int(left % 3600 // 60):02d}:{int(left % 60):02d}"
        end = "\n" if final else ""
        sys.stderr.write(f"\ranalysed {done} games ({bad} bad), {rate:.2f} games/s{eta}   {end}")
        sys.stderr.flush()


def run(args: argparse.Namespace) -> int:
    limits = Limits(nodes=args.nodes, depth=args.depth, movetime_ms=args.movetime, multipv=args.multipv,
                    hash_mb=args.hash)
    # With --report and no -o the records go to the report only.
    to_stdout = args.output in (None, "-") and not (args.report and args.output is None)
    if args.resume and to_stdout:
        print("kibitz analyse: --resume needs -o OUT.jsonl", file=sys.stderr)
        return 2
    skip = bad = 0
    keep_bytes = 0
    last_headers = None
    if args.resume and os.path.exists(args.output):
        try:
            skip, bad, keep_bytes, last_headers = kept_records(args.output)
        except ResumeError as e:
            print(f"kibitz analyse: {e}", file=sys.stderr)
            return 2
    try:
        opened, games = open_games(args.games)
        if skip:
            # The games already done are read past; the last of them must be the last record's.
            game = next(itertools.islice(games, skip - 1, None), None)
            if game is None or game.headers != last_headers:
                print(f"kibitz analyse: {args.output} does not continue {args.games} (its game {skip} is not the"
                      " input's); not resuming", file=sys.stderr)
                return 2
    except OSError as e:
        print(f"kibitz analyse: cannot read {args.games}: {e}", file=sys.stderr)
        return 2

    out_fd: Optional[int] = None
    out_stream: Optional[BinaryIO] = None
    if to_stdout:
        out_stream = sys.stdout.buffer
    elif args.output is not None:
        flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND
        if not args.resume:
            flags |= os.O_TRUNC
        out_fd = os.open(args.output, flags, 0o644)
        if args.resume:
            os.truncate(args.output, keep_bytes)
            os.fsync(out_fd)
    pgn_fd: Optional[int] = None
    if args.pgn_out:
        if args.resume and skip:
            # The annotated PGN is a function of the records: rebuild it from the kept ones.
            tmp = args.pgn_out + ".tmp"
            tfd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            for rec in _records_of(args.output, skip):
                _write_all(tfd, pgn_text(rec).encode("utf-8"))
            os.fsync(tfd)
            os.close(tfd)
            os.replace(tmp, args.pgn_out)
        pgn_fd = os.open(args.pgn_out, os.O_WRONLY | os.O_CREAT | os.O_APPEND
                         | (0 if args.resume and skip else os.O_TRUNC), 0o644)

    def fsync() -> None:
        for fd in (pgn_fd, out_fd):
            if fd is not None:
                os.fsync(fd)

    report = _report_builder(args, skip)
    progress = Progress(opened.fraction_read)
    remaining: Iterator[Game] = games
    if args.backend == "ray":
        records = backends.ray_cluster(remaining, limits, args.ray_address)
    else:
        records = backends.pool(remaining, limits, args.workers or backends.default_workers())
    done = 0
    last_sync = time.monotonic()
    try:
        for rec in records:
            if rec.get("status") != "ok":
                bad += 1
            if pgn_fd is not None:
                _write_all(pgn_fd, pgn_text(rec).encode("utf-8"))
            line = record_line(rec)
            if report is not None:
                report.add(rec)
            if out_fd is not None:
                _write_all(out_fd, line)
                now = time.monotonic()
                if now - last_sync >= FSYNC_INTERVAL:
                    fsync()
                    last_sync = now
            elif out_stream is not None:
                out_stream.write(line)
                out_stream.flush()
            done += 1
            progress.update(done, bad)
        fsync()
        progress.update(done, bad, final=True)
    except KeyboardInterrupt:
        fsync()
        print(f"\nkibitz analyse: interrupted after {skip + done} games; the same command with --resume"
              " goes on from there", file=sys.stderr)
        return 130
    except OSError as e:
        print(f"kibitz analyse: reading {args.games} failed: {e}", file=sys.stderr)
        return 2
    finally:
        for fd in (pgn_fd, out_fd):
            if fd is not None:
                os.close(fd)
    if report is not None:
        try:
            report.write(args.report)
        except OSError as e:
            print(f"kibitz analyse: cannot write {args.report}: {e.strerror or e}", file=sys.stderr)
            return 2
    return 1 if bad else 0


def _report_builder(args: argparse.Namespace, skip: int) -> Any:
    """The ``--report`` page's builder, holding the records a resumed run keeps; or None."""
    if not getattr(args, "report", None):
        return None
    from kibitz.cli.report import default_title
    from kibitz.report import ReportBuilder

    builder = ReportBuilder(default_title(args.games))
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
                    "in input order. Exit status 1 when some game could not be read.",
    )
    p.add_argument("games", metavar="GAMES", help="PGN file: .pgn, .pgn.gz or .pgn.zst")
    p.add_argument("-o", "--output", metavar="OUT.jsonl", default=None,
                   help="where the records go (default: standard output)")
    p.add_argument("--pgn-out", metavar="ANNOTATED.pgn", default=None,
                   help="also write the games with [%%eval] comments and ?! / ? / ?? marks")
    p.add_argument("--report", metavar="REPORT.html", default=None,
                   help="also write an HTML report (players, openings, graphs, mistakes; see `kibitz report`);"
                        " without -o, the records then go only there")
    limit = p.add_mutually_exclusive_group()
    limit.add_argument("--nodes", type=_positive(int), default=None,
                       help=f"nodes searched per position (default {DEFAULT_NODES:,})")
    limit.add_argument("--depth", type=_positive(int), default=None, help="depth searched per position")
    limit.add_argument("--movetime", type=_positive(float), default=None, metavar="MS",
                       help="milliseconds per position (not reproducible; prefer --nodes)")
    p.add_argument("--multipv", type=_positive(int), default=1, metavar="K",
                   help="also report the K best lines of each position")
    p.add_argument("--workers", type=_positive(int), default=None, metavar="N",
                   help="worker processes (default: one per core)")
    p.add_argument("--hash", type=_positive(int), default=16, metavar="MB",
                   help="transposition table per worker (default 16)")
    p.add_argument("--resume", action="store_true",
                   help="continue an interrupted run: keep OUT's complete records, analyse the rest")
    p.add_argument("--backend", choices=["local", "ray"], default="local",
                   help="local worker processes (default) or a Ray cluster (pip install 'kibitz[ray]')")
    p.add_argument("--ray-address", default=None, metavar="ADDR",
                   help="Ray cluster to join (default: start a local one)")
    p.set_defaults(func=run)
