"""``kibitz perft-diff``: find where another move generator first differs from kibitz's
(the search is in ``kibitz.perftdiff``; ``--variant`` uses ``kibitz.perftdiff.variant``)."""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import time
from typing import Union

from kibitz._core import FenError, IllegalMoveError, InvalidMoveError
from kibitz.cli.common import checked_root, depth_from_args, float_in, int_at_least
from kibitz.perftdiff import (
    DEFAULT_TIMEOUT,
    HANDSHAKE_TIMEOUT,
    MAX_DEPTH,
    EngineError,
    ScriptEngine,
    UciEngine,
    find_difference,
    format_difference,
)
from kibitz.perftdiff.variant import VariantUciEngine, find_variant_difference
from kibitz.variant import Board as VariantBoard
from kibitz.variant import VariantError, load

# The longest --timeout: a week; nan, inf and more are usage errors, not endless waits.
MAX_TIMEOUT = 7 * 86400.0


def add_parser(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser(
        "perft-diff",
        help="find where another move generator first differs from kibitz",
        description=(
            "Compare another generator's perft divide with kibitz's and descend into the first "
            "differing subtree until the move lists differ; print that position, the missing and "
            "the illegal moves, and commands to reproduce. Exit status: 0 no difference, "
            "1 difference found, 2 error."
        ),
    )
    p.add_argument(
        "depth",
        type=int_at_least(1, "depth"),
        nargs="?",
        metavar="DEPTH",
        help=f"plies to compare, 1..{MAX_DEPTH} (required, no default; it may also follow --moves)",
    )
    who = p.add_mutually_exclusive_group(required=True)
    who.add_argument(
        "--engine", metavar='"COMMAND ..."', help="a UCI engine that implements 'go perft N' (e.g. stockfish)"
    )
    who.add_argument(
        "--script",
        metavar='"COMMAND ..."',
        help="a program run as COMMAND FEN DEPTH [MOVE ...] (or with {fen} {depth} {moves}) "
        "that prints 'move: count' lines and 'Nodes searched: N'",
    )
    p.add_argument("--fen", default=None, help="root position (default: the start position)")
    p.add_argument("--moves", nargs="*", metavar="M", help="UCI moves to play from the root first")
    p.add_argument("--chess960", action="store_true", help="Chess960: sets UCI_Chess960, castling as king takes rook")
    p.add_argument(
        "--variant", metavar="NAME|FILE", help="a chess variant (built-in name or definition file): sets UCI_Variant"
    )
    p.add_argument(
        "--timeout",
        type=float_in(0.0, MAX_TIMEOUT, lo_open=True),
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=f"longest wait for each answer (default {DEFAULT_TIMEOUT:g})",
    )
    p.set_defaults(func=cmd_perft_diff)


def cmd_perft_diff(args: argparse.Namespace) -> int:
    prog = "kibitz perft-diff"
    depth = depth_from_args(args)
    moves = list(args.moves or [])
    if depth is None or not 1 <= depth <= MAX_DEPTH:
        print(f"{prog}: DEPTH between 1 and {MAX_DEPTH} is required", file=sys.stderr)
        return 2
    if args.variant is not None:  # the table-driven generator for chess variants
        return variant_perft_diff(args, depth)
    try:
        checked_root(args.fen, args.chess960, "perft-diff needs")  # check the root before starting anything
        engine: Union[UciEngine, ScriptEngine]
        if args.engine is not None:
            engine = UciEngine(
                args.engine,
                timeout=args.timeout,
                handshake_timeout=min(HANDSHAKE_TIMEOUT, args.timeout),
                chess960=args.chess960,
            )
        else:
            engine = ScriptEngine(args.script, timeout=args.timeout)
        start = time.perf_counter()
        with engine:
            diff = find_difference(engine.divide, depth, args.fen, moves, chess960=args.chess960)
        secs = time.perf_counter() - start
    except (FenError, IllegalMoveError, InvalidMoveError) as e:
        print(f"{prog}: {e}", file=sys.stderr)
        return 2
    except EngineError as e:
        print(f"{prog}: {e}", file=sys.stderr)
        return 2
    if diff is None:
        print(f"No difference: kibitz and {engine.name} agree on every move to depth {depth} ({secs:.1f} s).")
        return 0
    print(format_difference(diff, engine.name, engine.reproduce, args.fen, len(moves)))
    return 1


def variant_perft_diff(args: argparse.Namespace, depth: int) -> int:
    """Runs ``kibitz perft-diff --variant ...`` with the already checked DEPTH."""
    prog = "kibitz perft-diff"
    if args.engine is None:
        print(f"{prog}: --variant needs --engine (a UCI engine with UCI_Variant and go perft)", file=sys.stderr)
        return 2
    if args.chess960:
        print(f"{prog}: --chess960 does not apply with --variant", file=sys.stderr)
        return 2
    try:
        sources, name = load(args.variant)
        # A definition file (not a built-in name) is the last source; the engine loads it too.
        is_file = sources[-1][0] == os.fspath(args.variant)
        root = VariantBoard(args.variant, args.fen)
        for m in args.moves or []:
            root.push(m)
        engine = VariantUciEngine(
            args.engine,
            name,
            os.fspath(args.variant) if is_file else None,
            timeout=args.timeout,
            handshake_timeout=min(HANDSHAKE_TIMEOUT, args.timeout),
        )
        start = time.perf_counter()
        with engine:
            diff = find_variant_difference(engine.divide, root, depth)
        secs = time.perf_counter() - start
    except (VariantError, FenError, IllegalMoveError, InvalidMoveError, EngineError) as e:
        print(f"{prog}: {e}", file=sys.stderr)
        return 2
    if diff is None:
        print(f"No difference: kibitz and {engine.name} agree on every move of {name} to depth {depth} ({secs:.1f} s).")
        return 0
    plies = len(diff.path)
    out = [
        f"kibitz and {engine.name} differ {plies} {'ply' if plies == 1 else 'plies'} into {name}, at depth {diff.depth}:"
    ]
    out.append(f"  position: {diff.fen}")
    out.append(f"  path:     {' '.join(diff.path) if diff.path else '(the root itself)'}")
    for move, d, ours, theirs in diff.steps:
        out.append(f"    depth {d}  {move}: kibitz {ours} vs {theirs}")
    if diff.kind == "moves":
        out.append(f"  moves it misses: {' '.join(diff.missing) or '(none)'}")
        out.append(f"  moves it has that are not legal: {' '.join(diff.extra) or '(none)'}")
    else:
        out.append(f"  {diff.note}")
    out.append("Reproduce:")
    out.append(
        f"  kibitz perft --variant {shlex.quote(os.fspath(args.variant))} --fen {shlex.quote(diff.fen)} {diff.depth} --divide"
    )
    out.append(f"  {engine.reproduce(root.fen(), diff.path, diff.depth)}")
    print("\n".join(out))
    return 1
