"""PGN reading speed: ``kibitz.read_games`` against python-chess's ``chess.pgn.read_game``
on the same file (the target is at least 10x).

Both read every game of the file and replay its main line (kibitz: Rust tokenizer + SAN
replay on the core board; python-chess: ``read_game``, which parses and replays each SAN
move). Runs alternate between the two, and the ratio is that of the medians, so a noisy,
shared machine slows both alike. Each run asserts the number of games and of moves, equal
for both readers.

    python benches/pgn_read_bench.py [--repeat 5] [--min-ratio 10] [FILE.pgn[.gz]]

The default file is benches/data/selfplay.pgn.gz (1000 games, ~90 plies each, lichess-style
tags; made by benches/make_games.py), decompressed to a temporary plain file first so that
neither side pays for gzip. ``--clock`` adds a ``{ [%clk 0:03:00] }`` comment after every
move, as lichess database files have.
"""

from __future__ import annotations

import argparse
import gzip
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

import chess.pgn

import kibitz

HERE = Path(__file__).resolve().parent
DEFAULT = HERE / "data" / "selfplay.pgn.gz"
# The target.
REQUIRED_RATIO = 10.0


def read_kibitz(path: Path) -> tuple[int, int]:
    games = moves = 0
    for g in kibitz.read_games(path):
        assert g.error is None, g.error
        games += 1
        moves += len(g.moves)
    return games, moves


def read_python_chess(path: Path) -> tuple[int, int]:
    games = moves = 0
    with open(path, encoding="utf-8") as f:
        while (g := chess.pgn.read_game(f)) is not None:
            assert not g.errors, g.errors
            games += 1
            moves += sum(1 for _ in g.mainline_moves())
    return games, moves


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file", nargs="?", default=str(DEFAULT))
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--min-ratio", type=float, default=REQUIRED_RATIO)
    ap.add_argument("--clock", action="store_true", help="add a [%%clk] comment after every move")
    args = ap.parse_args()
    src = Path(args.file)
    data = gzip.decompress(src.read_bytes()) if src.suffix == ".gz" else src.read_bytes()
    if args.clock:
        # After every SAN move (a token right after a move number or another move).
        data = re.sub(rb"(?m)(?<=[0-9a-hxNBRQKO=+#-][1-8+#O])(?= )", b" { [%clk 0:03:00] }", data)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "games.pgn"
        path.write_bytes(data)
        times: dict[str, list[float]] = {"kibitz": [], "python-chess": []}
        counts = set()
        for _ in range(args.repeat):
            for name, fn in (("kibitz", read_kibitz), ("python-chess", read_python_chess)):
                t = time.perf_counter()
                counts.add(fn(path))
                times[name].append(time.perf_counter() - t)
        assert len(counts) == 1, f"the readers disagree on games/moves: {counts}"
        games, moves = counts.pop()
    med = {k: statistics.median(v) for k, v in times.items()}
    ratio = med["python-chess"] / med["kibitz"]
    print(
        f"{src.name}{' + clock comments' if args.clock else ''}: {games} games, {moves} moves, "
        f"{len(data) / 1e6:.1f} MB, {args.repeat} alternating runs each"
    )
    for k, v in times.items():
        print(
            f"  {k:13s} median {med[k] * 1000:8.1f} ms  ({games / med[k]:9.0f} games/s, "
            f"{len(data) / med[k] / 1e6:6.1f} MB/s)  runs: {', '.join(f'{x * 1000:.0f}' for x in v)}"
        )
    print(f"  ratio (python-chess / kibitz medians): {ratio:.1f}x (required {args.min_ratio:.0f}x)")
    return 0 if ratio >= args.min_ratio else 1


if __name__ == "__main__":
    sys.exit(main())
