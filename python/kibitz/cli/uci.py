"""``kibitz uci``: the UCI engine on stdin/stdout (bare ``kibitz`` starts it too, without
building the parser). ``--setoption NAME=VALUE`` sets options before the first command, for
tools that only send the options an engine declares (the hidden ``SearchOff`` / ``SearchOn``
of ablation matches, for one)."""

from __future__ import annotations

import argparse
import sys

from kibitz.uci.options import OptionError
from kibitz.uci.protocol import run_uci


def _name_value(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    return name.strip(), value


def cmd_uci(args: argparse.Namespace) -> int:
    try:
        return run_uci(options=args.setoption)
    except OptionError as e:
        print(f"kibitz uci: --setoption: {e}", file=sys.stderr)
        return 2


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "uci",
        help="speak UCI on stdin/stdout (the default with no subcommand)",
        description="Run kibitz as a UCI chess engine: it reads UCI commands on stdin and answers on "
        "stdout, for a chess GUI (cutechess, Arena, ...) or a lichess bot. Bare 'kibitz' does the same. "
        "Type 'help' once it runs for the commands it knows.",
    )
    p.add_argument(
        "--setoption",
        metavar="NAME=VALUE",
        type=_name_value,
        action="append",
        default=[],
        help="set a UCI option before the first command, as 'setoption name NAME value VALUE' would "
        "(hidden options too, e.g. SearchOn=corr for an ablation match); repeatable",
    )
    p.set_defaults(func=cmd_uci)
