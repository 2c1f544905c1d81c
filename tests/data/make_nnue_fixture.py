"""Writes the trainer fixture of tests/nnue.rs: a small net (H = 16) written by the trainer's
own code (training/train.py's `Net` and `quantised_bytes`), and the trainer's float
evaluation of 60 positions from seeded random games, so that the Rust inference is checked
against the trainer's file writer, feature layout and forward pass.

    python tests/data/make_nnue_fixture.py   (needs numpy, scipy and python-chess)

writes tests/data/nnue_trainer_h16.nnue and tests/data/nnue_trainer_h16.txt: per line a FEN,
a tab, the trainer's float evaluation (centipawns for the side to move) with its float
weights, a tab, and the same forward pass with the weights read back from the file
(dequantised: / QA, / QB, / (QA * QB)).
"""

import importlib.util
import random
from pathlib import Path

import chess
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("kibitz_train", ROOT / "training" / "train.py")
train = importlib.util.module_from_spec(spec)
spec.loader.exec_module(train)

rng = np.random.default_rng(14)
net = train.Net(16, rng)
# Weights of a trained net's magnitudes (not the initial ones): accumulators spread over
# the clipping range, output weights within the trainer's bound.
net.w1 = rng.normal(0.0, 0.12, net.w1.shape).astype(np.float32)
net.b1 = rng.normal(0.3, 0.3, net.b1.shape).astype(np.float32)
net.w2 = np.clip(rng.normal(0.0, 0.6, net.w2.shape), -train.W2_BOUND, train.W2_BOUND).astype(np.float32)
net.b2 = np.array([0.02], dtype=np.float32)
(ROOT / "tests" / "data" / "nnue_trainer_h16.nnue").write_bytes(train.quantised_bytes(net))

random.seed(14)
fens = []
while len(fens) < 60:
    board = chess.Board()
    for _ in range(random.randrange(0, 90)):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(random.choice(moves))
    fens.append(board.fen())
codes = np.zeros((len(fens), 64), dtype=np.uint8)
stm = np.zeros(len(fens), dtype=np.int64)
for i, fen in enumerate(fens):
    board = chess.Board(fen)
    stm[i] = 0 if board.turn == chess.WHITE else 1
    for sq, p in board.piece_map().items():
        codes[i, sq] = p.piece_type + (0 if p.color == chess.WHITE else 8)
xs, xn = train.features(codes, stm), train.features(codes, 1 - stm)
cp = net.eval_cp(xs, xn)
# The same forward pass with the quantised weights read back from the file.
raw = (ROOT / "tests" / "data" / "nnue_trainer_h16.nnue").read_bytes()
h = 16
at = 32
w1 = np.frombuffer(raw, "<i2", 768 * h, at).reshape(768, h)
at += 2 * 768 * h
b1 = np.frombuffer(raw, "<i2", h, at)
at += 2 * h
w2 = np.frombuffer(raw, "<i2", 2 * h, at)
at += 4 * h
b2 = np.frombuffer(raw, "<i4", 1, at)
deq = train.Net(h, rng)
deq.w1 = w1.astype(np.float64) / train.QA
deq.b1 = b1.astype(np.float64) / train.QA
deq.w2 = w2.astype(np.float64) / train.QB
deq.b2 = b2.astype(np.float64) / (train.QA * train.QB)
cp_deq = deq.eval_cp(xs.astype(np.float64), xn.astype(np.float64))
with open(ROOT / "tests" / "data" / "nnue_trainer_h16.txt", "w") as out:
    for fen, c, d in zip(fens, cp, cp_deq):
        out.write(f"{fen}\t{float(c)!r}\t{float(d)!r}\n")
