"""kibitz against the fastest Python chess libraries from PyPI, at pinned versions, in an
environment of their own; one sitting, libraries alternated round by round, medians,
every answer checked against python-chess's.

    python benches/peers.py [--venv DIR] [--kibitz PATH] [--rounds 7]

The first run makes a virtual environment (default: ``.peers-venv`` at the repository's
root, ignored by git), installs the pinned peers and kibitz (``--kibitz``: a wheel, or the
repository, built by pip through maturin), then runs this file again inside it with
``--measure``. bulletchess 0.4.0 declares Python >= 3.13; on an older Python it is built
from its source with two 3.13 calls mapped to their older spelling (``PEERS_SHIM`` below),
which changes nothing it computes.

Rows (microseconds a position, 300 positions of random games): FEN parse and write,
``copy()``, the legal move list, push and pop of every legal move, the SAN of every legal
move, ``to_tensor()`` (the (18, 8, 8) float32 planes), the recursive Python perft (start
position depth 4, nodes a second) and the native perft (start position depth 5, Kiwipete
depth 4, nodes a second, against chessmg; the published counts are the reference there).
A library without an operation has no cell; a library whose answers differ from the
reference (python-chess's) is listed as wrong there, and the ratio is taken against the
fastest peer whose answers are right (against the fastest of all, said so, when none is).
python-chess has no planes: each library's ``to_tensor()`` is checked against planes built
from python-chess's board in that library's documented layout (fastchess mirrors a position
with Black to move), and python-chess's cell stays empty. esca 0.4.0, the fastest at SAN when the
speed goals were set, is not included: it needs Python 3.12.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent

# The peers, pinned: the fastest of the twelve libraries measured when kibitz's speed goals
# were set (python-chess is the reference).
PINNED = ["chess==1.11.2", "fastchess==0.1.2", "tensor-chess==0.1.2", "chessmg==0.6.0", "numpy"]
BULLETCHESS = "bulletchess==0.4.0"
PEERS_SHIM = """/* Python 3.13 calls used by bulletchess 0.4.0, in 3.11's spelling. */
#include <Python.h>
#define PyLong_AsInt _PyLong_AsInt
static inline PyObject *peers_shim_add_module_ref(const char *name) {
    PyObject *m = PyImport_AddModule(name);
    Py_XINCREF(m);
    return m;
}
#define PyImport_AddModuleRef peers_shim_add_module_ref
"""


def setup(venv: Path, kibitz: str) -> Path:
    """The environment's Python, made and filled on first use."""
    python = venv / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        pip = [str(python), "-m", "pip", "install", "-q"]
        subprocess.run(pip + PINNED, check=True)
        env = dict(os.environ)
        if sys.version_info < (3, 13):
            shim = Path(tempfile.mkdtemp()) / "shim313.h"
            shim.write_text(PEERS_SHIM)
            env["CFLAGS"] = f"-include {shim}"
            subprocess.run(
                pip + ["--no-binary", "bulletchess", "--ignore-requires-python", BULLETCHESS], check=True, env=env
            )
        else:
            subprocess.run(pip + [BULLETCHESS], check=True)
        subprocess.run(pip + [kibitz], check=True)
    return python


KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

# Rows python-chess has no operation for: the published counts are the reference
# (https://www.chessprogramming.org/Perft_Results).
EXPECTED = {"native perft, start depth 5": 4_865_609, "native perft, Kiwipete depth 4": 4_085_603}


def libraries(fens: list[str]) -> dict[str, dict[str, Callable[[], Any]]]:
    """Each library's rows, in its own idiom, returning what python-chess's rows return."""
    import bulletchess as bc
    import chess
    import chessmg
    import fastchess
    import tensor_chess

    import kibitz

    # The same loops as benches/python_perft.py's, each library in its natural idiom.
    from python_perft import perft_bulletchess as bc_perft
    from python_perft import perft_kibitz as perft_natural

    out: dict[str, dict[str, Callable[[], Any]]] = {}
    for name, mod in (("kibitz", kibitz), ("python-chess", chess)):
        boards = [mod.Board(f) for f in fens]
        out[name] = {
            "FEN parse + write": lambda mod=mod: [mod.Board(f).fen() for f in fens],
            "copy()": lambda boards=boards: [b.copy() for b in boards][-1].fen(),
            "legal move list": lambda boards=boards: [len(list(b.legal_moves)) for b in boards],
            "push/pop of every legal move": lambda boards=boards: sum(perft_natural(b, 1) for b in boards),
            "SAN of every legal move": lambda boards=boards: [[b.san(m) for m in b.legal_moves] for b in boards],
            "Python perft, start depth 4": lambda mod=mod: perft_natural(mod.Board(), 4),
        }
    kboards = [kibitz.Board(f) for f in fens]
    out["kibitz"]["to_tensor()"] = lambda: [b.to_tensor() for b in kboards]
    out["kibitz"]["native perft, start depth 5"] = lambda: kibitz.Board().perft(5)
    out["kibitz"]["native perft, Kiwipete depth 4"] = lambda: kibitz.Board(KIWIPETE).perft(4)
    out["chessmg"] = {
        "native perft, start depth 5": lambda: chessmg.perft(chess.STARTING_FEN, 5),
        "native perft, Kiwipete depth 4": lambda: chessmg.perft(KIWIPETE, 4),
    }
    bboards = [bc.Board.from_fen(f) for f in fens]
    out["bulletchess"] = {
        "FEN parse + write": lambda: [bc.Board.from_fen(f).fen() for f in fens],
        "copy()": lambda: [b.copy() for b in bboards][-1].fen(),
        "legal move list": lambda: [len(b.legal_moves()) for b in bboards],
        "push/pop of every legal move": lambda: sum(bc_perft(b, 1) for b in bboards),
        "SAN of every legal move": lambda: [[m.san(b) for m in b.legal_moves()] for b in bboards],
        "Python perft, start depth 4": lambda: bc_perft(bc.Board(), 4),
    }
    fboards = [fastchess.Board(f) for f in fens]
    out["fastchess"] = {
        "FEN parse + write": lambda: [fastchess.Board(f).fen() for f in fens],
        "copy()": lambda: [b.copy() for b in fboards][-1].fen(),
        "legal move list": lambda: [len(b.legal_moves_uci()) for b in fboards],
        "to_tensor()": lambda: [b.to_tensor() for b in fboards],
    }
    tboards = [tensor_chess.Position(f) for f in fens]
    out["tensor-chess"] = {
        "FEN parse + write": lambda: [tensor_chess.Position(f).fen() for f in fens],
        "copy()": lambda: [b.clone() for b in tboards][-1].fen(),
        "legal move list": lambda: [b.legal_move_count() for b in tboards],
    }
    return out


def fastchess_planes(board: Any) -> Any:
    """fastchess's ``to_tensor()`` layout from python-chess's board: kibitz's planes of the
    position mirrored when Black is to move, plane 17 still telling whether White is to move
    in the position itself."""
    import chess
    from planes_reference import canonical_reference

    out = canonical_reference(board)
    out[17] = 1 if board.turn == chess.WHITE else 0
    return out


def same(row: str, got: Any, expected: Any) -> bool:
    """Whether a row's answer is the reference's: planes array by array, SAN move lists in
    any order (bulletchess lists the moves in an order of its own)."""
    import numpy as np

    if row == "to_tensor()":
        return len(got) == len(expected) and all(
            a.shape == e.shape and a.dtype == e.dtype and np.array_equal(a, e) for a, e in zip(got, expected)
        )
    if row == "SAN of every legal move":
        return [sorted(g) for g in got] == [sorted(e) for e in expected]
    return bool(got == expected)


def measure(rounds: int) -> None:
    import chess
    from python_chess_speed import positions, repeats, timed

    fens = positions(300)
    libs = libraries(fens)
    answers = {row: f() for row, f in libs["python-chess"].items()} | EXPECTED
    # The planes' reference (python-chess has none of its own) lives with the tests.
    sys.path.insert(0, str(ROOT / "tests" / "python"))
    from planes_reference import reference_planes

    answers["to_tensor()"] = [reference_planes(chess.Board(f)) for f in fens]
    # The reference of each library's own layout where it has one of its own.
    own = {("fastchess", "to_tensor()"): [fastchess_planes(chess.Board(f)) for f in fens]}
    reference = list(answers)
    wrong = {
        (lib, row)
        for lib, rows in libs.items()
        for row, f in rows.items()
        if not same(row, f(), own.get((lib, row), answers[row]))
    }

    # Each sample repeats its row until it has run 20 ms, so short rows are not timer noise.
    reps = {}
    for lib, rows in libs.items():
        for row, f in rows.items():
            reps[(lib, row)] = repeats(f, 0.02)
    times: dict[tuple[str, str], list[float]] = {key: [] for key in reps}
    for _ in range(rounds):
        for row in reference:
            for lib, rows in libs.items():
                if row in rows:
                    times[(lib, row)].append(timed(rows[row], reps[(lib, row)]))
    names = list(libs)
    print("| row | " + " | ".join(names) + " | kibitz vs the fastest peer |")
    print("|---|" + "---|" * (len(names) + 1))
    for row in reference:
        cells, best, fastest = [], None, None
        counted = row.startswith(("Python perft", "native perft"))
        per = answers[row] if row.startswith("native perft") else 197_281 if counted else len(fens)
        for lib in names:
            if (lib, row) not in times:
                cells.append("-")
                continue
            t = statistics.median(times[(lib, row)])
            value = per / t if counted else t / per * 1e6
            text = f"{value / 1e6:.2f} M/s" if counted else f"{value:.3f} us"
            if lib not in ("kibitz", "python-chess") and (fastest is None or t < fastest[1]):
                fastest = (lib, t)
            if (lib, row) in wrong:
                text += " (wrong)"
            elif lib not in ("kibitz", "python-chess") and (best is None or t < best[1]):
                best = (lib, t)
            cells.append(text)
        k = statistics.median(times[("kibitz", row)])
        if best:
            ratio = f"{best[1] / k:.2f}x ({best[0]})"
        elif fastest:
            ratio = f"{fastest[1] / k:.2f}x ({fastest[0]}, whose answers differ)"
        else:
            ratio = "-"
        print(f"| {row} | " + " | ".join(cells) + f" | {ratio} |")
    print(f"(python-chess {chess.__version__}; medians of {rounds} rounds; >1x: kibitz faster)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--venv", type=Path, default=ROOT / ".peers-venv")
    ap.add_argument("--kibitz", default=str(ROOT), help="a kibitz wheel, or the repository to build")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.measure:
        measure(args.rounds)
        return 0
    python = setup(args.venv, args.kibitz)
    return subprocess.run([str(python), __file__, "--measure", "--rounds", str(args.rounds)]).returncode


if __name__ == "__main__":
    sys.exit(main())
