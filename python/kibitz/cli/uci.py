"""``kibitz uci``: the UCI engine on stdin/stdout (bare ``kibitz`` starts it too, without
building the parser)."""

from __future__ import annotations

import argparse

from kibitz.uci.protocol import run_uci


def cmd_uci(args: argparse.Namespace) -> int:
    return run_uci()


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "uci",
        help="speak UCI on stdin/stdout (the default with no subcommand)",
        description="Run kibitz as a UCI chess engine: it reads UCI commands on stdin and answers on "
        "stdout, for a chess GUI (cutechess, Arena, ...) or a lichess bot. Bare 'kibitz' does the same. "
        "Type 'help' once it runs for the commands it knows.",
    )
    p.set_defaults(func=cmd_uci)
