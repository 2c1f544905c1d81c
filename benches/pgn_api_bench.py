"""kibitz.pgn against python-chess's chess.pgn, one sitting, runs alternating, medians.

Four jobs over every game of one file:

* ``read_game``: build the full tree, walk ``mainline()``, and set up ``board()`` at the
  game's last node;
* ``read_headers``: the headers of every game (movetext skipped);
* ``count moves``: ``read_game`` with a visitor that only counts ``visit_move`` calls;
* ``str(game)``: write every (already read) game back as PGN;
* ``skip_game``: count the games by skipping each one whole.

The games ``str(game)`` writes are read before the timing starts and then frozen out of the
cyclic garbage collector's sight (``gc.freeze``); every timed run starts after a collection.

Each run checks that both libraries saw the same number of games and moves and wrote the
same text. The ratio is python-chess's median over kibitz's.

    python benches/pgn_api_bench.py [--repeat 5] [--games N] [--clock] [--markdown] [FILE.pgn[.gz]]
    python benches/pgn_api_bench.py --annotated 300
    python benches/pgn_api_bench.py --database 2000

``--database N``: N games of a game database as benches/annotated_games.py writes them (clock
comments on every move, evaluations, NAGs, text comments and side lines, written by
python-chess): the file the speed targets are set on.

The default file is benches/data/selfplay.pgn.gz (1000 games, ~90 plies each), decompressed
to a temporary file first. ``--clock`` adds a ``{ [%clk 0:03:00] }`` comment after every
move, as lichess database files have; ``--one-line`` puts each game's movetext on one line, as
lichess exports it (python-chess reads a file line by line, so few long lines are its best
case and the hardest for the ratio); ``--lichess`` gives the file lichess's whole shape (its 17
tags, clocks, one-line movetext); ``--only JOB`` times only the jobs named.
"""

from __future__ import annotations

import argparse
import gc
import gzip
import io
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import chess
import chess.pgn

import kibitz
import kibitz.pgn

HERE = Path(__file__).resolve().parent
DEFAULT = HERE / "data" / "selfplay.pgn.gz"
# The project's targets (python-chess time / kibitz time).
TARGETS = {"read_game": 10.0, "read_headers": 20.0, "count moves": 20.0, "str(game)": 5.0, "skip_game": 20.0}


def count_visitor(base: Any) -> Any:
    class MoveCounter(base):  # type: ignore[misc, valid-type]
        def begin_game(self) -> None:
            self.moves = 0

        def visit_move(self, board: Any, move: Any) -> None:
            self.moves += 1

        def result(self) -> int:
            return int(self.moves)

    return MoveCounter


def jobs(module: Any, path: Path) -> dict[str, Callable[[], Any]]:
    counter = count_visitor(module.BaseVisitor)
    games: list[Any] = []

    def read_game() -> tuple[int, int, str]:
        n = moves = 0
        last = ""
        with open(path, encoding="utf-8") as f:
            while (game := module.read_game(f)) is not None:
                assert not game.errors, game.errors
                node: Any = game
                for node in game.mainline():
                    moves += 1
                last = node.board().fen()
                n += 1
        return n, moves, last

    def read_headers() -> tuple[int, str]:
        n = 0
        white = ""
        with open(path, encoding="utf-8") as f:
            while (headers := module.read_headers(f)) is not None:
                n += 1
                white = headers.get("White", "?")
        return n, white

    def count_moves() -> int:
        total = 0
        with open(path, encoding="utf-8") as f:
            while (moves := module.read_game(f, Visitor=counter)) is not None:
                total += moves
        return total

    def skip_game() -> int:
        n = 0
        with open(path, encoding="utf-8") as f:
            while module.skip_game(f):
                n += 1
        return n

    def export() -> int:
        return hash("\n\n".join(str(g) for g in games))

    def setup() -> None:
        """Reads the games str(game) writes (not timed)."""
        with open(path, encoding="utf-8") as f:
            while (game := module.read_game(f)) is not None:
                games.append(game)

    return {
        "read_game": read_game,
        "read_headers": read_headers,
        "count moves": count_moves,
        "str(game)": export,
        "skip_game": skip_game,
        "setup": setup,
    }


def lichess_shape(data: bytes) -> bytes:
    """Each game's tags replaced by the 17 that lichess's monthly database files carry, in their
    order, with values of their shape (the result kept)."""
    out = []
    for n, block in enumerate(data.replace(b"\r\n", b"\n").split(b"\n\n")):
        if not block.startswith(b"["):
            out.append(block)
            continue
        result = re.search(rb'\[Result "([^"]*)"\]', block)
        tags = [
            ("Event", "Rated Blitz game"),
            ("Site", f"https://lichess.org/{n:08x}"),
            ("Date", "2026.10.01"),
            ("Round", "-"),
            ("White", f"player{n % 997}"),
            ("Black", f"player{(n * 7) % 991}"),
            ("Result", result.group(1).decode() if result else "*"),
            ("UTCDate", "2026.10.01"),
            ("UTCTime", f"{n % 24:02d}:{n % 60:02d}:{(n * 7) % 60:02d}"),
            ("WhiteElo", str(1500 + n % 700)),
            ("BlackElo", str(1500 + (n * 3) % 700)),
            ("WhiteRatingDiff", f"+{n % 9}"),
            ("BlackRatingDiff", f"-{n % 9}"),
            ("ECO", f"B{n % 100:02d}"),
            ("Opening", "Sicilian Defense: Najdorf Variation"),
            ("TimeControl", "180+2"),
            ("Termination", "Normal"),
        ]
        out.append("\n".join(f'[{k} "{v}"]' for k, v in tags).encode())
    return b"\n\n".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file", nargs="?", default=str(DEFAULT))
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--games", type=int, default=0, help="only the first N games (0: all)")
    ap.add_argument("--clock", action="store_true", help="add a [%%clk] comment after every move")
    ap.add_argument("--markdown", action="store_true", help="print the table as markdown")
    ap.add_argument(
        "--lichess",
        action="store_true",
        help="the file as lichess's database exports it: its 17 tags, a clock comment after every move, "
        "each movetext on one line",
    )
    ap.add_argument("--one-line", action="store_true", help="each game's movetext on one line (lichess's export)")
    ap.add_argument("--only", action="append", choices=sorted(TARGETS), help="time only this job (repeatable)")
    ap.add_argument(
        "--annotated",
        type=int,
        default=0,
        metavar="N",
        help="instead of FILE: N random games with comments, NAGs, nested variations, clock and eval "
        "annotations (the tests' corpus, written by python-chess)",
    )
    ap.add_argument(
        "--database",
        type=int,
        default=0,
        metavar="N",
        help="instead of FILE: N annotated database games (benches/annotated_games.py)",
    )
    args = ap.parse_args()
    src = Path(args.file)
    if args.database:
        from annotated_games import write

        with tempfile.TemporaryDirectory() as tmp:
            write(args.database, Path(tmp) / "db.pgn")
            data = (Path(tmp) / "db.pgn").read_bytes()
        src = Path(f"annotated database ({args.database} games)")
    elif args.annotated:
        sys.path.insert(0, str(HERE.parent / "tests" / "python"))
        from pgn_reference import corpus

        data = corpus(2024, args.annotated).encode()
        src = Path(f"annotated corpus ({args.annotated} games)")
    else:
        data = gzip.decompress(src.read_bytes()) if src.suffix == ".gz" else src.read_bytes()
    if args.lichess:
        data = lichess_shape(data)
    if args.clock or args.lichess:
        data = re.sub(rb"(?m)(?<=[0-9a-hxNBRQKO=+#-][1-8+#O])(?= )", b" { [%clk 0:03:00] }", data)
    if args.one_line or args.lichess:
        # Tag blocks stay; every movetext block becomes one line.
        blocks = data.replace(b"\r\n", b"\n").split(b"\n\n")
        data = b"\n\n".join(b if b.startswith(b"[") else b.replace(b"\n", b" ") for b in blocks)
    if args.games:
        text = data.decode()
        stream = io.StringIO(text)
        for _ in range(args.games):
            if not chess.pgn.skip_game(stream):
                break
        data = text[: stream.tell()].encode()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "games.pgn"
        path.write_bytes(data)
        libs = {"kibitz": jobs(kibitz.pgn, path), "python-chess": jobs(chess.pgn, path)}
        wanted = {job: TARGETS[job] for job in (args.only or TARGETS)}
        if "str(game)" in wanted:
            for fns in libs.values():
                fns["setup"]()
        # The games kept for str(game) (millions of objects on a large file) are moved out of
        # the cyclic collector's sight, and each timed run starts after a collection: a full
        # collection over them would otherwise land inside whichever run it happens to hit.
        gc.collect()
        gc.freeze()
        times: dict[tuple[str, str], list[float]] = {}
        for _ in range(args.repeat):
            for job in wanted:
                results = {}
                for lib, fns in libs.items():
                    gc.collect()
                    t = time.perf_counter()
                    results[lib] = fns[job]()
                    times.setdefault((job, lib), []).append(time.perf_counter() - t)
                assert results["kibitz"] == results["python-chess"], (job, results)
    shape = " in lichess's shape" if args.lichess else ""
    shape += " + clock comments" if args.clock and not args.lichess else ""
    shape += ", movetext on one line" if args.one_line and not args.lichess else ""
    label = f"{src.name}{shape}"
    # Medians, and the ratio of the best runs beside them: on a loaded machine a run of a few
    # milliseconds is either preempted or not, which medians of short runs feel more than
    # those of long ones; the best runs are each library undisturbed.
    print(f"{label}: {len(data) / 1e6:.1f} MB, {args.repeat} alternating runs each, medians (and best-run ratio)")
    rows = []
    for job, target in wanted.items():
        ours = statistics.median(times[(job, "kibitz")])
        theirs = statistics.median(times[(job, "python-chess")])
        best = min(times[(job, "python-chess")]) / min(times[(job, "kibitz")])
        rows.append((job, theirs, ours, theirs / ours, best, target))
    if args.markdown:
        print("| job | python-chess | kibitz.pgn | ratio | best runs | target |")
        print("|---|---:|---:|---:|---:|---:|")
        for job, theirs, ours, ratio, best, target in rows:
            tgt = f"{target:.0f}x" if target else "-"
            print(f"| {job} | {theirs * 1000:.0f} ms | {ours * 1000:.0f} ms | {ratio:.1f}x | {best:.1f}x | {tgt} |")
    else:
        for job, theirs, ours, ratio, best, target in rows:
            tgt = f"(target {target:.0f}x)" if target else ""
            print(
                f"  {job:13s} python-chess {theirs * 1000:8.1f} ms  kibitz {ours * 1000:8.1f} ms  {ratio:5.1f}x"
                f"  best runs {best:5.1f}x {tgt}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
