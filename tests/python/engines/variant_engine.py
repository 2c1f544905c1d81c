"""A UCI engine for chess variants built on kibitz.variant, for tests and the README.

It answers ``uci`` (offering ``UCI_Variant`` and ``VariantPath`` as Fairy-Stockfish does),
``setoption``, ``isready``, ``position fen ... [moves ...]`` and ``go perft N``. With
``--bug OLD NEW`` it replaces the text OLD by NEW in the definition file it loads: a
planted bug, for showing what ``kibitz perft-diff --variant`` reports, e.g.
``--bug "horse = h" "customPiece9 = h:N"`` (a horse that is never blocked).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile

from kibitz.variant import Board, builtin_variants, load


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--bug", nargs=2, action="append", default=[], metavar=("OLD", "NEW"))
    opts = ap.parse_args()
    variant_path: str | None = None
    variant = "chess"
    board: Board | None = None
    names = builtin_variants()

    tmpdir = tempfile.TemporaryDirectory()
    written: dict[str, str] = {}

    def definition() -> str:
        """The variant to load: a built-in name, or the file (with the planted bug)."""
        if variant_path is None or variant in builtin_variants():
            return variant
        if variant_path not in written:
            with open(variant_path, encoding="utf-8") as f:
                text = f.read()
            for old, new in opts.bug:
                text = text.replace(old, new)
            path = os.path.join(tmpdir.name, f"{len(written)}.ini")
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            written[variant_path] = path
        return written[variant_path]

    for line in sys.stdin:
        cmd = line.split()
        if not cmd:
            continue
        if cmd[0] == "uci":
            print("id name VariantEngine (test engine)")
            print("option name UCI_Variant type combo default chess " + " ".join(f"var {n}" for n in names))
            print("option name VariantPath type string default <empty>")
            print("uciok")
        elif cmd[:3] == ["setoption", "name", "VariantPath"]:
            variant_path = " ".join(cmd[4:])
            _, extra = load(variant_path)
            names = sorted(set(names) | {extra})
        elif cmd[:3] == ["setoption", "name", "UCI_Variant"]:
            variant = cmd[4]
        elif cmd[0] == "isready":
            print("readyok")
        elif cmd[0] == "position" and cmd[1] == "fen":
            rest = " ".join(cmd[2:])
            fen, _, moves = rest.partition(" moves ")
            board = Board(definition(), fen)
            for m in moves.split():
                board.push(m)
        elif cmd[:2] == ["go", "perft"] and board is not None:
            counts = board.divide(int(cmd[2]))
            for m in sorted(counts):
                print(f"{m}: {counts[m]}")
            print()
            print(f"Nodes searched: {sum(counts.values())}")
        elif cmd[0] == "quit":
            break
        sys.stdout.flush()
    tmpdir.cleanup()


if __name__ == "__main__":
    main()
