"""``kibitz book``: build, show and edit Polyglot opening books (the library is
``kibitz.book``)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Iterable, List, Optional

from kibitz.book import (
    DEFAULT_MAX_PLIES,
    DEFAULT_MIN_GAMES,
    ENTRY,
    MAX_BOOK_BYTES,
    MAX_PGN_BYTES,
    Book,
    BookError,
    BuildStats,
    BookGame,
    add_line,
    build_from_games,
    decode_pgn,
    parse_repertoire,
    push_move,
    read_pgn_file,
    read_regular_file,
)
from kibitz._atomic import write_atomically
from kibitz.cli.common import int_at_least, playable_board, printable, progress
from kibitz.cli.outputs import OutputError, check_distinct, check_replaceable


def cmd_build(args: argparse.Namespace) -> int:
    src = Path(args.source)
    try:
        check_distinct([("the input", args.source)], [("the book", args.output)])
        check_replaceable("the book", args.output)
    except OutputError as e:
        print(f"kibitz book build: {e}", file=sys.stderr)
        return 2
    stats = BuildStats()
    errors: List[str] = []
    try:
        if src.suffix.lower() == ".txt" or args.repertoire:
            games: Iterable[BookGame] = progress(
                parse_repertoire(decode_pgn(read_regular_file(src, MAX_PGN_BYTES, "repertoire"))),
                unit=" lines",
                desc="book build",
            )
            # A repertoire line is whole by choice: every ply of it, unless --max-plies says.
            data = build_from_games(
                games, max_plies=args.max_plies, min_games=args.min_games, use_results=False, stats=stats, errors=errors
            )
        else:
            data = build_from_games(
                progress(read_pgn_file(src), unit=" games", desc="book build"),
                max_plies=DEFAULT_MAX_PLIES if args.max_plies is None else args.max_plies,
                min_games=args.min_games,
                use_results=not args.no_results,
                stats=stats,
                errors=errors,
            )
    except OSError as e:
        print(f"kibitz book build: cannot read {str(src)!r}: {e.strerror or e}", file=sys.stderr)
        return 2
    except BookError as e:
        print(f"kibitz book build: {printable(str(e))}", file=sys.stderr)
        return 2
    for err in errors[:20]:
        print(f"kibitz book build: warning: {printable(err)}", file=sys.stderr)
    if len(errors) > 20:
        print(f"kibitz book build: warning: {len(errors) - 20} more", file=sys.stderr)
    if stats.entries == 0:
        if stats.games == 0:
            why = "no game could be read"
        elif not args.no_results and not args.repertoire and src.suffix.lower() != ".txt" and not stats.decided_games:
            why = f"none of the {stats.games} games has a result (1-0, 0-1, 1/2-1/2); --no-results counts every game"
        else:
            why = f"no move was played in at least {args.min_games} of the {stats.games} games"
        print(f"kibitz book build: no book entries: {why}; nothing written", file=sys.stderr)
        return 1
    try:
        write_atomically(args.output, data)
    except OSError as e:
        print(f"kibitz book build: cannot write {args.output!r}: {e.strerror or e}", file=sys.stderr)
        return 2
    print(f"{args.output}: {stats.entries} entries in {stats.positions} positions from {stats.games} games")
    return 0


def _open_book_arg(path: Optional[str]) -> Book:
    return Book.open(path) if path else Book.default()


def cmd_show(args: argparse.Namespace) -> int:
    try:
        board = playable_board(" ".join(args.fen) if args.fen else None, args.chess960, "a book position needs")
        for m in args.moves or []:
            push_move(board, m)
        book = _open_book_arg(args.book)
    except ValueError as e:
        print(f"kibitz book show: {e}", file=sys.stderr)
        return 2
    entries = book.entries(board, minimum_weight=0 if args.all else 1)
    print(f"{board.fen()}  (key {board.polyglot_key():016x})")
    if not entries:
        print("no book moves")
        return 0
    total = sum(x.weight for x in entries) or 1
    for x in sorted(entries, key=lambda y: -y.weight):
        print(f"{board.san(x.move):8} {x.move:6} weight {x.weight:5}  {100 * x.weight / total:5.1f}%")
    return 0


def cmd_add(args: argparse.Namespace) -> int:
    path = Path(args.book)
    try:
        check_replaceable("the book", path)
    except OutputError as e:
        print(f"kibitz book add: {e}", file=sys.stderr)
        return 2
    try:
        data = read_regular_file(path, MAX_BOOK_BYTES, "book") if os.path.lexists(path) else b""
        # Only positions a game can reach are looked up in a book (as `book show` says).
        playable_board(args.fen, args.chess960, "a book position needs")
        new = add_line(data, args.moves, fen=args.fen, weight=args.weight, chess960=args.chess960, name=str(path))
    except (ValueError, OSError) as e:
        print(f"kibitz book add: {e}", file=sys.stderr)
        return 2
    try:
        write_atomically(path, new)
    except OSError as e:
        print(f"kibitz book add: cannot write {str(path)!r}: {e.strerror or e}", file=sys.stderr)
        return 2
    print(f"{path}: added {len(args.moves)} moves ({len(new) // ENTRY.size} entries)")
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("book", help="build, show and edit Polyglot opening books")
    bsub = p.add_subparsers(dest="book_command", metavar="ACTION")
    p.set_defaults(func=lambda a: (p.print_help(), 0)[1])

    b = bsub.add_parser("build", help="build a Polyglot book from a PGN file (or a .txt repertoire)")
    b.add_argument("source", metavar="GAMES.pgn", help="PGN games, or a repertoire .txt (one line per line of play)")
    b.add_argument("-o", "--output", required=True, metavar="BOOK.bin")
    b.add_argument(
        "--max-plies",
        type=int_at_least(1, "--max-plies"),
        default=None,
        metavar="N",
        help=f"plies read from each game (default {DEFAULT_MAX_PLIES}; every ply of a repertoire line)",
    )
    b.add_argument(
        "--min-games",
        type=int_at_least(1, "--min-games"),
        default=DEFAULT_MIN_GAMES,
        metavar="N",
        help=f"games that must play a move for it to enter the book (default {DEFAULT_MIN_GAMES})",
    )
    b.add_argument("--no-results", action="store_true", help="weight 1 per game instead of 2 per win + 1 per draw")
    b.add_argument("--repertoire", action="store_true", help="read SOURCE as a repertoire text file")
    b.set_defaults(func=cmd_build)

    s = bsub.add_parser("show", help="list the book moves of a position with their weights")
    s.add_argument("fen", nargs="*", metavar="FEN", help="position (default: the start position)")
    s.add_argument("--book", default=None, help="book file (default: the built-in book)")
    s.add_argument("--moves", nargs="*", metavar="M", help="moves (UCI or SAN) to play first")
    s.add_argument("--all", action="store_true", help="also list weight-0 entries")
    s.add_argument("--chess960", action="store_true")
    s.set_defaults(func=cmd_show)

    a = bsub.add_parser("add", help="add a line of moves to a book (created if missing)")
    a.add_argument("book", metavar="BOOK.bin")
    a.add_argument("moves", nargs="+", metavar="MOVE", help="UCI or SAN moves")
    a.add_argument("--fen", default=None, help="position the line starts from")
    a.add_argument("--weight", type=int, default=1, help="weight added to each move (default 1)")
    a.add_argument("--chess960", action="store_true")
    a.set_defaults(func=cmd_add)
