"""Fits the win/draw/loss model behind UCI_ShowWDL on kibitz's own games.

    python tools/wdl_fit.py GAMES.pgn [GAMES.pgn ...] [--out benches/results/wdl-fit.txt]

Input: PGN files of kibitz playing itself as `match.py` writes them: every engine move has a
`[%eval cp,depth]` comment (White's view) from the engine's own search. Each such position
(the position the engine searched, before its move) gives one sample: the score from the
side to move's view, the material on the board and the game's result for the side to move.

The model (the shape Stockfish uses): with s the score in centipawns and m the material
(pawn 1, knight and bishop 3, rook 5, queen 9, both sides, at most 78), x = m / 58,

    a(x) = A0 + A1 * x + A2 * x^2,  b(x) = B0 + B1 * x + B2 * x^2
    win  = 1 / (1 + exp((a - s) / b))
    loss = 1 / (1 + exp((a + s) / b))
    draw = 1 - win - loss

so `a` is the score at which a win is as likely as not and `b` how quickly the chances
change with the score. The six parameters are fitted by maximum likelihood (scipy);
the script prints them with the sample counts and a calibration table (predicted against
observed outcome shares by score bucket), the record to keep beside the constants in
`rust/engine/wdl.rs`.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import chess
import chess.pgn
import numpy as np
from scipy.optimize import minimize  # type: ignore[import-untyped]

VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}
MAX_CP = 2000  # scores beyond this (and mates) say nothing about the shape of the curve


def material(board: chess.Board) -> int:
    return sum(VALUES.get(p.piece_type, 0) for p in board.piece_map().values())


def samples(paths: list[Path]) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """(score, x, outcome for the side to move: 1 win, 0 draw, -1 loss), and games read."""
    scores, xs, outcomes = [], [], []
    games = 0
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as f:
            while (game := chess.pgn.read_game(f)) is not None:
                result = game.headers.get("Result", "*")
                if result not in ("1-0", "0-1", "1/2-1/2"):
                    continue
                if game.headers.get("Termination", "normal") != "normal":
                    continue  # forfeits and crashes say nothing about the position
                games += 1
                white_result = {"1-0": 1, "0-1": -1, "1/2-1/2": 0}[result]
                board = game.board()
                for node in game.mainline():
                    ev = node.eval()
                    if ev is not None and not ev.is_mate():
                        cp = ev.white().score()
                        if cp is not None and abs(cp) <= MAX_CP:
                            stm = 1 if board.turn == chess.WHITE else -1
                            scores.append(stm * cp)
                            xs.append(material(board) / 58.0)
                            outcomes.append(stm * white_result)
                    board.push(node.move)
    return np.array(scores, float), np.array(xs, float), np.array(outcomes, int), games


def probabilities(p: np.ndarray, s: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    a = p[0] + p[1] * x + p[2] * x * x
    b = np.maximum(p[3] + p[4] * x + p[5] * x * x, 1.0)
    win = 1.0 / (1.0 + np.exp((a - s) / b))
    loss = 1.0 / (1.0 + np.exp((a + s) / b))
    draw = np.clip(1.0 - win - loss, 1e-9, 1.0)
    return win, draw, loss


def fit(s: np.ndarray, x: np.ndarray, o: np.ndarray) -> np.ndarray:
    def nll(p: np.ndarray) -> float:
        win, draw, loss = probabilities(p, s, x)
        chosen = np.where(o == 1, win, np.where(o == -1, loss, draw))
        return float(-np.sum(np.log(np.clip(chosen, 1e-12, 1.0))))

    # Nelder-Mead for the linear model first, then Powell for all six from there: a
    # simplex started with the square terms at zero leaves them there.
    linear = minimize(
        lambda q: nll(np.array([q[0], q[1], 0.0, q[2], q[3], 0.0])),
        np.array([150.0, 50.0, 60.0, 20.0]),
        method="Nelder-Mead",
        options={"maxiter": 20000},
    ).x
    start = np.array([linear[0], linear[1], 0.0, linear[2], linear[3], 0.0])
    best = minimize(nll, start, method="Powell", options={"maxiter": 40000, "xtol": 1e-3, "ftol": 1e-9})
    return np.asarray(best.x)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pgn", nargs="+", type=Path)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    s, x, o, games = samples(args.pgn)
    if len(s) < 1000:
        print(f"only {len(s)} samples: not enough for a fit", file=sys.stderr)
        return 1
    p = fit(s, x, o)
    lines = [
        f"samples {len(s)} from {games} games ({', '.join(str(q.name) for q in args.pgn)})",
        f"outcomes for the side to move: win {np.mean(o == 1):.3f} draw {np.mean(o == 0):.3f} loss {np.mean(o == -1):.3f}",
        f"A0 {p[0]:.1f}  A1 {p[1]:.1f}  A2 {p[2]:.1f}  B0 {p[3]:.1f}  B1 {p[4]:.1f}  B2 {p[5]:.1f}",
        "",
        "calibration (score bucket: samples, predicted W/D/L, observed W/D/L):",
    ]
    win, draw, loss = probabilities(p, s, x)
    for lo in range(-600, 600, 100):
        m = (s >= lo) & (s < lo + 100)
        if m.sum() < 50:
            continue
        pred = (win[m].mean(), draw[m].mean(), loss[m].mean())
        obs = (np.mean(o[m] == 1), np.mean(o[m] == 0), np.mean(o[m] == -1))
        lines.append(
            f"  [{lo:+5d},{lo + 100:+5d}) {int(m.sum()):6d}  "
            + " ".join(f"{v:.2f}" for v in pred)
            + "   "
            + " ".join(f"{v:.2f}" for v in obs)
        )
    ll = -np.mean(np.log(np.clip(np.where(o == 1, win, np.where(o == -1, loss, draw)), 1e-12, 1)))
    lines.append(f"mean log loss {ll:.4f} (a constant model: {constant_log_loss(o):.4f})")
    text = "\n".join(lines)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")
    return 0


def constant_log_loss(o: np.ndarray) -> float:
    shares = [max(float(np.mean(o == k)), 1e-12) for k in (1, 0, -1)]
    return -sum(sh * math.log(sh) for sh in shares)


if __name__ == "__main__":
    sys.exit(main())
