"""Trains kibitz's neural evaluation (NNUE) from self-play records and writes the
quantised net file that rust/eval/nnue/ reads.

    python training/train.py DATA.bin [DATA.bin ...] --out kibitz.nnue [--hidden 128]
        [--epochs 10] [--batch 1024] [--lr 0.001] [--lam 1.0] [--sigmoid-scale 400]
        [--no-mirror] [--holdout 0.05] [--king-buckets 1|4|8] [--no-king-mirror]
        [--no-factorise] [--bucket-decay W] [--output-buckets 1|2|4|8]
        [--seed 1] [--heldout-sample FILE] [--heldout-count 1000]

The defaults are the settings of the committed net, chosen by fixed-node matches against
the hand-written evaluation (tools/nodematch.rs, 200 games each, same 620k positions;
benches/results/nnue-training.md): hidden 256 -> 128 (the smaller net overfits less on a
few million positions, and is faster), batches of 16384 -> 1024 (more steps), score weight
0.75 -> 1.0 (the game results of a few thousand games are memorised rather than learnt),
and left-right mirroring on.

DATA files come from the self-play generator (`cargo run --release --example selfplay --
--format nnue ...`; its header comment describes the 32-byte record). numpy and scipy
only (training/requirements.txt): PyTorch's CPU wheels are not on PyPI, and a sparse
first layer is all this net needs.

The net (the canonical description of the file is rust/eval/nnue/mod.rs's): 768 inputs per
perspective (own/their pieces x 6 kinds x 64 squares, Black's view mirrored by rank), one
hidden layer of H neurons per perspective with shared weights, SCReLU (clamp to [0, 1],
squared), and one output over both halves, the side to move's first. Its output times
SCALE is centipawns for the side to move.

King buckets (`--king-buckets 4` or `8`; the file's version 2): 768 inputs per bucket, the
bucket chosen by the perspective's own king square as that side sees the board (the maps are
`bucket_map` below: the back rank split by files, then the ranks above), and with king
mirroring (on unless `--no-king-mirror`) a king on the e- to h-files sees the board mirrored
left-right. With king mirroring the left-right copies of the training positions would
repeat the originals exactly, so they are left out. Each bucket's weights are trained as a
shared row plus the bucket's own (the factoriser, `Net` below; `--no-factorise` trains the
buckets apart), and the file holds the sums.

Output buckets (`--output-buckets 8`; the file's version 3): one output row and bias per
bucket, the bucket chosen by the number of pieces on the board (`output_buckets` below), so
that the endgame is scored by weights of its own.

Loss: mean squared error between sigmoid(eval / k) and a blend of the game's result
(weight 1 - lam) and sigmoid(search score / k) (weight lam), both from the side to move's
view; k is 400 unless `--sigmoid-scale` says otherwise. With lam 1 the scale only shapes
the loss. With lam below 1 it also says how many centipawns the results are worth: on
kibitz's own self-play games a score s foretells the result best as sigmoid(s / 180)
(docs/nnue.md), so a blend at 400 pulls the net's scores away from the search's scale.
Adam. The held-out share is chosen by game number, so that no game lies on both
sides of the split; the validation loss is printed each epoch.

Quantisation (what the Rust side undoes): feature weights and biases x QA (255) as i16
(clipped in training to +-1.98 and +-64 so that no accumulator can leave i16),
output weights x QB (64) as i16 (clipped in training to +-127/QB so that a product with a
squared activation stays small), output bias x QA x QB as i32. Seeded: the same data, seed
and arguments give the same file.
"""

from __future__ import annotations

import argparse
import os
import struct
import sys
import time
from pathlib import Path

# One BLAS thread unless asked otherwise: a batch's products are small (1024 rows), and
# OpenBLAS's threads cost more than they give, most of all on a machine busy with matches
# or self-play (a batch of the 8-output-bucket net took 80 ms with the default threads
# there and 18 ms with one). Set before NumPy loads OpenBLAS.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402
import scipy.sparse as sp  # noqa: E402

DATA_MAGIC = b"KBZDATA1"
RECORD = np.dtype(
    [("occ", "<u8"), ("pieces", "u1", 16), ("stm", "u1"), ("result", "u1"), ("score", "<i2"), ("game", "<u4")]
)
assert RECORD.itemsize == 32

NET_MAGIC = b"KBZNNUE\0"
NET_VERSION = 1
NET_VERSION_BUCKETS = 2
NET_VERSION_OUTPUT_BUCKETS = 3
OUTPUT_BUCKET_CHOICES = (1, 2, 4, 8)
INPUTS = 768
SCALE = 400
QA = 255
QB = 64
# Output weights are kept within this bound (in float units) so that the quantised weight is
# at most 127 in magnitude.
W2_BOUND = 127 / QB
# Feature weights and biases are kept within these bounds so that no accumulator can leave
# i16 in the Rust inference: at most 32 pieces, 32 * 1.98 + 64 = 127.4 < 32767 / QA = 128.5
# (rust/eval/nnue's Network::accumulator_range checks a written net the same way).
W1_BOUND = 1.98
B1_BOUND = 64.0
# Sigmoid scale: centipawns -> expected score (the usual 400; `--sigmoid-scale`).
K = 400.0


def read_records(paths: list[Path]) -> np.ndarray:
    """All records of the data files, checked for the header and whole records."""
    parts = []
    for p in paths:
        raw = p.read_bytes()
        if raw[:8] != DATA_MAGIC:
            sys.exit(f"{p}: not a {DATA_MAGIC.decode()} file (wrong header)")
        if (len(raw) - 8) % RECORD.itemsize:
            sys.exit(f"{p}: {len(raw) - 8} bytes after the header is not a whole number of 32-byte records")
        parts.append(np.frombuffer(raw, dtype=RECORD, offset=8))
    return np.concatenate(parts) if parts else np.zeros(0, dtype=RECORD)


# Records decoded and featurised this many at a time: the temporaries of ten million at once
# would not fit a 24 GB machine.
CHUNK = 500_000


def piece_codes(rec: np.ndarray) -> np.ndarray:
    """(N, 64) piece codes (0 empty, kind 1..6 White, kind + 8 Black) from the records."""
    if len(rec) > CHUNK:
        return np.concatenate([piece_codes(rec[i : i + CHUNK]) for i in range(0, len(rec), CHUNK)])
    n = len(rec)
    bits = ((rec["occ"][:, None] >> np.arange(64, dtype=np.uint64)) & np.uint64(1)).astype(bool)
    nib = np.empty((n, 32), dtype=np.uint8)
    nib[:, 0::2] = rec["pieces"] & 15
    nib[:, 1::2] = rec["pieces"] >> 4
    rank = np.cumsum(bits, axis=1) - 1  # index of each occupied square among the occupied
    codes = np.take_along_axis(nib, np.clip(rank, 0, 31), axis=1)
    codes[~bits] = 0
    if (bits.sum(axis=1) > 32).any():
        sys.exit("a record holds more than 32 pieces")
    return codes


# The king bucket maps: by the own king's square as its side sees the board (a1 = 0), the same
# for a square and its left-right mirror.
KING_BUCKET_CHOICES = (1, 4, 8)


def bucket_map(n: int) -> np.ndarray:
    """The 64-entry bucket map of `n` buckets: 4 = back rank a-b, back rank c-d, second rank,
    the rest; 8 = back rank a, b, c, d each, second rank a-b, second rank c-d, third rank,
    the rest (files e-h as their mirrors)."""
    out = np.zeros(64, dtype=np.int64)
    for sq in range(64):
        f, r = min(sq % 8, 7 - sq % 8), sq // 8
        if n == 4:
            out[sq] = (0 if f < 2 else 1) if r == 0 else 2 if r == 1 else 3
        elif n == 8:
            out[sq] = f if r == 0 else (4 if f < 2 else 5) if r == 1 else 6 if r == 2 else 7
    return out


def input_count(buckets: tuple[np.ndarray, bool] | None) -> int:
    """The inputs of one perspective: 768, or 768 per king bucket."""
    return INPUTS if buckets is None else INPUTS * (int(buckets[0].max()) + 1)


def own_king_squares(codes: np.ndarray, perspective: np.ndarray) -> np.ndarray:
    """The square of each position's king of the `perspective` side (0 White, 1 Black, per
    row); exits with a message when some position has none (king buckets need one)."""
    has_king = codes == np.where(perspective == 0, 6, 14)[:, None]
    if not has_king.any(axis=1).all():
        sys.exit("a record has no king of the side a perspective belongs to: king buckets need one")
    return np.argmax(has_king, axis=1)


def features(
    codes: np.ndarray,
    perspective: np.ndarray,
    buckets: tuple[np.ndarray, bool] | None = None,
    occupied: tuple[np.ndarray, np.ndarray] | None = None,
) -> sp.csr_matrix:
    """(N, 768) 0/1 matrix of the active features of each position seen from `perspective`
    (0 White, 1 Black, per row); with `buckets` (the map and whether kings on the e- to
    h-files mirror the board), (N, 768 * buckets). `occupied`: `np.nonzero(codes)` when the
    caller has it already (both perspectives of a batch share it)."""
    if len(codes) > CHUNK:
        parts = [
            features(codes[i : i + CHUNK], perspective[i : i + CHUNK], buckets) for i in range(0, len(codes), CHUNK)
        ]
        return sp.vstack(parts, format="csr")
    rows, sqs = np.nonzero(codes) if occupied is None else occupied
    code = codes[rows, sqs].astype(np.int64)
    colour = code >> 3
    kind = code & 7
    persp = perspective[rows].astype(np.int64)
    inputs = INPUTS
    if buckets is None:
        flip, base = np.where(persp == 0, 0, 56), 0
    else:
        kmap, mirror = buckets
        ksq = own_king_squares(codes, perspective)
        rank_flip = np.where(perspective == 0, 0, 56)
        own = ksq ^ rank_flip
        pos_flip = rank_flip ^ np.where(mirror & (own % 8 >= 4), 7, 0)
        flip, base = pos_flip[rows], (kmap[own] * INPUTS)[rows]
        inputs = input_count(buckets)
    col = base + (colour != persp) * 384 + (kind - 1) * 64 + (sqs ^ flip)
    # Straight to CSR: `rows` comes sorted from np.nonzero, so sorting row * inputs + col puts
    # each row's columns in order without moving rows (no two pieces share a feature).
    key = rows * inputs + col
    key.sort()
    indptr = np.zeros(len(codes) + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows, minlength=len(codes)), out=indptr[1:])
    data = np.ones(len(rows), dtype=np.float32)
    return sp.csr_matrix((data, key % inputs, indptr), shape=(len(codes), inputs))


def check_kings(codes: np.ndarray, stm: np.ndarray, buckets: tuple[np.ndarray, bool] | None) -> None:
    """With king buckets, the check `features` makes of both perspectives (`own_king_squares`)
    made of every record before training starts, not in the batch that holds the record."""
    if buckets is None:
        return
    for i in range(0, len(codes), CHUNK):
        part, side = codes[i : i + CHUNK], stm[i : i + CHUNK]
        own_king_squares(part, side)
        own_king_squares(part, 1 - side)


class Samples:
    """The training samples' features, made batch by batch from the piece codes (64 bytes a
    position) rather than held whole: the sparse matrices of both perspectives cost some
    360 bytes a sample (measured), which for twenty million positions and their mirrored
    copies would not fit a 24 GB machine. Samples 0..N-1 are the records; with `mirror`, sample N + i is
    record i mirrored left-right (a-file <-> h-file). A batch's matrices are exactly the
    rows the whole matrices would have held, so the net trained is the same."""

    MIRROR = np.arange(64) ^ 7

    def __init__(self, codes: np.ndarray, stm: np.ndarray, buckets: tuple[np.ndarray, bool] | None, mirror: bool):
        self.codes, self.stm, self.buckets, self.mirror = codes, stm, buckets, mirror
        self.inputs = input_count(buckets)

    def __len__(self) -> int:
        return len(self.codes) * (2 if self.mirror else 1)

    def batch(self, idx: np.ndarray) -> tuple[sp.csr_matrix, sp.csr_matrix]:
        """The side to move's and the other side's feature matrices of samples `idx`."""
        n = len(self.codes)
        if len(idx) and (idx.min() < 0 or idx.max() >= len(self)):
            raise IndexError(f"sample numbers must lie in 0..{len(self) - 1}")
        rec = idx % n
        codes, stm = self.codes[rec], self.stm[rec]
        flipped = idx >= n
        if flipped.any():
            codes[flipped] = codes[flipped][:, self.MIRROR]
        occupied = np.nonzero(codes)
        return features(codes, stm, self.buckets, occupied), features(codes, 1 - stm, self.buckets, occupied)


def fens(codes: np.ndarray, stm: np.ndarray) -> list[str]:
    """FENs of positions given as piece codes (no castling rights or en passant square:
    the records do not keep them, and the net does not read them)."""
    out = []
    for row, side in zip(codes, stm):
        ranks = []
        for r in range(7, -1, -1):
            text, empty = "", 0
            for f in range(8):
                c = int(row[r * 8 + f])
                if c == 0:
                    empty += 1
                    continue
                if empty:
                    text, empty = text + str(empty), 0
                letter = " pnbrqk"[c & 7]
                text += letter if c >> 3 else letter.upper()
            ranks.append(text + (str(empty) if empty else ""))
        out.append("/".join(ranks) + (" w" if side == 0 else " b") + " - - 0 1")
    return out


def sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


def side_to_move_view(
    score_white: np.ndarray, stm: np.ndarray, result_white: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The records' scores (centipawns) and results (1 won, 0.5 drawn, 0 lost) from the side
    to move's view; the records keep White's (the result as 0 Black won, 1 draw, 2 White won)."""
    white = stm == 0
    score = score_white.astype(np.float64) * np.where(white, 1.0, -1.0)
    result = result_white.astype(np.float64) / 2.0
    return score, np.where(white, result, 1.0 - result)


def targets(score_white: np.ndarray, stm: np.ndarray, result_white: np.ndarray, lam: float, k: float = K) -> np.ndarray:
    """The training target of each record: lam * sigmoid(score / k) + (1 - lam) * result,
    both from the side to move's view (`side_to_move_view`)."""
    score, result = side_to_move_view(score_white, stm, result_white)
    return (lam * sigmoid(score / k) + (1 - lam) * result).astype(np.float32)


def best_sigmoid_scale(
    score_white: np.ndarray, stm: np.ndarray, result_white: np.ndarray, scales: np.ndarray | None = None
) -> tuple[float, float]:
    """The scale k (of `scales`, by default 100..600 in steps of 10) under which
    sigmoid(score / k) foretells the records' results best (least mean squared error), and
    that error. The score and result from the side to move's view, as `targets` takes them."""
    score, result = side_to_move_view(score_white, stm, result_white)
    best = (0.0, np.inf)
    for k in np.arange(100, 601, 10) if scales is None else scales:
        err = float(np.mean((sigmoid(score / k) - result) ** 2))
        if err < best[1]:
            best = (float(k), err)
    return best


def output_buckets(codes: np.ndarray, n: int) -> np.ndarray:
    """The output bucket of each position by its number of pieces p (kings included):
    min((p - 1) * n // 32, n - 1), so with 8 buckets 2-4 pieces are bucket 0, 5-8 bucket 1,
    ..., 29-32 bucket 7 (rust/eval/nnue/mod.rs gives the same rule)."""
    pieces = np.count_nonzero(codes, axis=1).astype(np.int64)
    return np.minimum(np.maximum(pieces - 1, 0) * n // 32, n - 1)


class Net:
    """Float weights of the net and its forward/backward passes. With `outputs` > 1 the
    output layer has one row of weights and one bias per output bucket, and each position
    is scored by its bucket's row (`ob`, from `output_buckets`; None: bucket 0).

    With king buckets and `factorise`, a feature's weight is its bucket's own row plus a
    768-row `factor` shared by every bucket (the factoriser): what all buckets have in common
    is learnt from every position rather than from a bucket's share, and the bucket rows
    start at zero, so the net starts as an unbucketed one. The file holds the sums
    (`effective_w1`); the factor exists only in training."""

    def __init__(
        self, hidden: int, rng: np.random.Generator, inputs: int = INPUTS, outputs: int = 1, factorise: bool = False
    ) -> None:
        self.factor: np.ndarray | None = None
        if factorise and inputs > INPUTS:
            self.w1 = np.zeros((inputs, hidden), dtype=np.float32)
            self.factor = rng.normal(0.0, 0.1, (INPUTS, hidden)).astype(np.float32)
        else:
            self.w1 = rng.normal(0.0, 0.1, (inputs, hidden)).astype(np.float32)
        self.b1 = np.full(hidden, 0.1, dtype=np.float32)
        self.w2 = rng.normal(0.0, 1.0 / np.sqrt(2 * hidden), (outputs, 2 * hidden)).astype(np.float32)
        self.b2 = np.zeros(outputs, dtype=np.float32)

    def params(self) -> list[np.ndarray]:
        return [self.w1, self.b1, self.w2, self.b2] + ([] if self.factor is None else [self.factor])

    def _factor_rows(self) -> np.ndarray:
        """The shared factor repeated for every bucket, row for row beside `w1`."""
        assert self.factor is not None
        return np.tile(self.factor, (self.w1.shape[0] // INPUTS, 1))

    def effective_w1(self) -> np.ndarray:
        """The feature weights the file holds: the bucket rows plus the shared factor."""
        return self.w1 if self.factor is None else self.w1 + self._factor_rows()

    def decay_buckets(self, rate: float) -> None:
        """Decoupled weight decay of the buckets' own rows (factorised nets only): they move
        toward zero, where the net is the unbucketed one the shared factor makes, and keep
        what the data supports. Each bucket row is active in a fraction of the positions, and
        Adam scales the rare updates up, so without it the rows learn the training games'
        noise (measured: docs/nnue.md)."""
        if self.factor is not None and rate > 0.0:
            self.w1 *= np.float32(1.0 - rate)

    def clip_weights(self) -> None:
        """Keeps the weights within the quantisation's bounds (W1_BOUND for the summed
        feature weights, so that no accumulator leaves i16)."""
        np.clip(self.w2, -W2_BOUND, W2_BOUND, out=self.w2)
        np.clip(self.b1, -B1_BOUND, B1_BOUND, out=self.b1)
        if self.factor is None:
            np.clip(self.w1, -W1_BOUND, W1_BOUND, out=self.w1)
        else:
            np.clip(self.factor, -W1_BOUND, W1_BOUND, out=self.factor)
            shared = self._factor_rows()
            np.clip(self.w1, -W1_BOUND - shared, W1_BOUND - shared, out=self.w1)

    @staticmethod
    def _pick(n: int, ob: np.ndarray | None) -> np.ndarray:
        return np.zeros(n, dtype=np.int64) if ob is None else ob

    def forward(self, xs: sp.csr_matrix, xn: sp.csr_matrix, ob: np.ndarray | None = None):
        h = len(self.b1)
        w1 = self.effective_w1()
        acc_s = xs @ w1 + self.b1
        acc_n = xn @ w1 + self.b1
        cs, cn = np.clip(acc_s, 0, 1), np.clip(acc_n, 0, 1)
        a_s, a_n = cs * cs, cn * cn
        ob = self._pick(len(acc_s), ob)
        # Every bucket's output (N x buckets, a few columns), then each position's own.
        every = a_s @ self.w2[:, :h].T + a_n @ self.w2[:, h:].T + self.b2
        out = every[np.arange(len(ob)), ob]
        return out, (acc_s, acc_n, cs, cn, a_s, a_n, ob)

    def eval_cp(self, xs: sp.csr_matrix, xn: sp.csr_matrix, ob: np.ndarray | None = None) -> np.ndarray:
        return self.forward(xs, xn, ob)[0] * SCALE

    def loss_and_grads(self, xs, xn, target, ob: np.ndarray | None = None, k: float = K):
        """The loss (mean squared error between sigmoid(eval / k) and the target) and its
        gradients by parameter."""
        h = len(self.b1)
        out, (acc_s, acc_n, cs, cn, a_s, a_n, ob) = self.forward(xs, xn, ob)
        pred = sigmoid(out * SCALE / k)
        diff = pred - target
        loss = float(np.mean(diff * diff))
        g_out = (2.0 / len(target)) * diff * pred * (1 - pred) * (SCALE / k)
        # The output gradient spread over the buckets: row i has g_out[i] in its bucket's column.
        g_every = np.zeros((len(g_out), len(self.b2)), dtype=g_out.dtype)
        g_every[np.arange(len(ob)), ob] = g_out
        g_w2 = np.concatenate([g_every.T @ a_s, g_every.T @ a_n], axis=1)
        g_b2 = g_every.sum(axis=0)
        inside_s = (acc_s > 0) & (acc_s < 1)
        inside_n = (acc_n > 0) & (acc_n < 1)
        d_s = (g_every @ self.w2[:, :h]) * (2 * cs) * inside_s
        d_n = (g_every @ self.w2[:, h:]) * (2 * cn) * inside_n
        g_w1 = np.asarray(xs.T @ d_s + xn.T @ d_n, dtype=np.float32)
        g_b1 = (d_s.sum(axis=0) + d_n.sum(axis=0)).astype(np.float32)
        grads = [g_w1, g_b1, g_w2.astype(np.float32), g_b2.astype(np.float32)]
        if self.factor is not None:  # the factor's gradient: its rows' gradients over the buckets
            grads.append(g_w1.reshape(-1, INPUTS, h).sum(axis=0))
        return loss, grads


class Adam:
    def __init__(self, params: list[np.ndarray], lr: float) -> None:
        self.lr, self.b1, self.b2, self.eps = lr, 0.9, 0.999, 1e-8
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]
        self.t = 0

    def step(self, params: list[np.ndarray], grads: list[np.ndarray]) -> None:
        self.t += 1
        c1 = 1 - self.b1**self.t
        c2 = 1 - self.b2**self.t
        for p, g, m, v in zip(params, grads, self.m, self.v):
            m *= self.b1
            m += (1 - self.b1) * g
            v *= self.b2
            v += (1 - self.b2) * g * g
            p -= self.lr * (m / c1) / (np.sqrt(v / c2) + self.eps)


def fnv1a64(data: bytes) -> int:
    h = 0xCBF29CE484222325
    for b in data:
        h ^= b
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def quantised_bytes(net: Net, buckets: tuple[np.ndarray, bool] | None = None) -> bytes:
    """The net file (format in rust/eval/nnue/mod.rs): version 1, 2 with king buckets, or 3
    with output buckets (and king buckets or not)."""
    hidden = len(net.b1)
    inputs = net.w1.shape[0]
    outputs = len(net.b2)
    w1 = np.clip(np.round(net.effective_w1() * QA), -32767, 32767).astype("<i2")
    b1 = np.clip(np.round(net.b1 * QA), -32767, 32767).astype("<i2")
    w2 = np.clip(np.round(net.w2 * QB), -127, 127).astype("<i2")
    b2 = np.round(net.b2.astype(np.float64) * QA * QB).astype("<i4")
    if outputs > 1:
        kmap, mirror = buckets if buckets is not None else (np.zeros(64, dtype=np.int64), False)
        header = struct.pack("<6I", NET_VERSION_OUTPUT_BUCKETS, inputs, hidden, SCALE, QA, QB)
        header += struct.pack("<I", 1 if mirror else 0) + bytes(int(b) for b in kmap) + struct.pack("<I", outputs)
    elif buckets is None:
        header = struct.pack("<6I", NET_VERSION, inputs, hidden, SCALE, QA, QB)
    else:
        kmap, mirror = buckets
        header = struct.pack("<6I", NET_VERSION_BUCKETS, inputs, hidden, SCALE, QA, QB)
        header += struct.pack("<I", 1 if mirror else 0) + bytes(int(b) for b in kmap)
    body = NET_MAGIC + header + w1.tobytes() + b1.tobytes() + w2.tobytes() + b2.tobytes()
    # FNV-1a over ~400 KB in pure Python takes a second or two; fine once per run.
    return body + struct.pack("<Q", fnv1a64(body))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", nargs="+", type=Path)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--batch", type=int, default=1024)
    ap.add_argument("--lr", type=float, default=0.001)
    ap.add_argument("--lr-drop", type=float, default=0.3, help="learning rate factor for the last third of the epochs")
    ap.add_argument("--lam", type=float, default=1.0, help="weight of the search score in the target (1 - lam: result)")
    ap.add_argument(
        "--sigmoid-scale",
        type=float,
        default=K,
        help="centipawns -> expected score: sigmoid(cp / this), for the target and the net's output alike",
    )
    ap.add_argument(
        "--fit-sigmoid-scale",
        action="store_true",
        help="print the scale under which the data's scores foretell their results best, and stop",
    )
    ap.add_argument("--holdout", type=float, default=0.05, help="share of games held out for validation")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--mirror",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="also train on every training position mirrored left-right (a-file <-> h-file)",
    )
    ap.add_argument(
        "--king-buckets",
        type=int,
        default=1,
        choices=KING_BUCKET_CHOICES,
        help="king buckets of the inputs (1: none, the version-1 file)",
    )
    ap.add_argument(
        "--king-mirror",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="with king buckets: a king on the e- to h-files sees the board mirrored",
    )
    ap.add_argument(
        "--factorise",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="with king buckets: learn a weight row shared by every bucket beside the buckets' own (summed in the file)",
    )
    ap.add_argument(
        "--bucket-decay",
        type=float,
        default=0.0,
        help="with factorised king buckets: decoupled weight decay of the buckets' own rows "
        "(each step multiplies them by 1 - lr * this), pulling the net toward the unbucketed one",
    )
    ap.add_argument(
        "--output-buckets",
        type=int,
        default=1,
        choices=OUTPUT_BUCKET_CHOICES,
        help="output buckets by the number of pieces (1: one output, the version-1 or -2 file)",
    )
    ap.add_argument(
        "--keep-epochs",
        action="store_true",
        help="also write each finished epoch's net beside --out (NAME.epochN.nnue)",
    )
    ap.add_argument("--heldout-sample", type=Path, help="write held-out positions with the float net's evaluation here")
    ap.add_argument("--heldout-count", type=int, default=1000, help="positions in the held-out sample")
    args = ap.parse_args(argv)
    if args.hidden % 16 or not 16 <= args.hidden <= 1024:
        ap.error("--hidden must be a multiple of 16 in 16..1024")

    t0 = time.time()
    rec = read_records(args.data)
    if len(rec) == 0:
        sys.exit("no records")
    if args.fit_sigmoid_scale:  # scores, sides and results only: no features to make
        k, err = best_sigmoid_scale(rec["score"], rec["stm"], rec["result"])
        print(f"{len(rec)} positions: the results fit sigmoid(score / {k:g}) best (mean squared error {err:.5f})")
        return 0
    # Games reach the file in the order their threads finish them; ordering the records by
    # game (stably, so each game's positions keep their order) makes the net depend only on
    # which games the files hold, so a regenerated data set trains the same net.
    rec = rec[np.argsort(rec["game"], kind="stable")]
    codes = piece_codes(rec)
    stm = rec["stm"].astype(np.int64)
    buckets = None if args.king_buckets == 1 else (bucket_map(args.king_buckets), args.king_mirror)
    check_kings(codes, stm, buckets)
    ob = output_buckets(codes, args.output_buckets)
    target = targets(rec["score"], stm, rec["result"], args.lam, args.sigmoid_scale)

    rng = np.random.default_rng(args.seed)
    games = np.unique(rec["game"])
    held = rng.choice(games, size=max(1, int(len(games) * args.holdout)), replace=False)
    is_val = np.isin(rec["game"], held)
    train_idx = np.nonzero(~is_val)[0]
    val_idx = np.nonzero(is_val)[0]
    mirror = args.mirror
    if mirror and buckets is not None and buckets[1]:
        print("king mirroring on: the left-right copies would repeat the positions, left out", flush=True)
        mirror = False
    samples = Samples(codes, stm, buckets, mirror)
    if mirror:
        # Chess is the same game mirrored left-right except for castling, which the net does
        # not see: each training position mirrored is a second, equally valid sample. The
        # mirrored samples are numbered after the originals; the validation set stays
        # unmirrored.
        target = np.concatenate([target, target])
        ob = np.concatenate([ob, ob])  # a left-right mirror keeps the piece count
        train_idx = np.concatenate([train_idx, train_idx + len(rec)])
    print(
        f"{len(rec)} positions from {len(games)} games ({len(val_idx)} held out), read in {time.time() - t0:.1f} s",
        flush=True,
    )

    net = Net(args.hidden, rng, samples.inputs, args.output_buckets, args.factorise)
    opt = Adam(net.params(), args.lr)
    for epoch in range(args.epochs):
        if epoch == (2 * args.epochs) // 3:
            opt.lr *= args.lr_drop
        order = rng.permutation(train_idx)
        total, batches = 0.0, 0
        for start in range(0, len(order), args.batch):
            idx = np.sort(order[start : start + args.batch])
            xs, xn = samples.batch(idx)
            loss, grads = net.loss_and_grads(xs, xn, target[idx], ob[idx], args.sigmoid_scale)
            opt.step(net.params(), grads)
            net.decay_buckets(opt.lr * args.bucket_decay)
            net.clip_weights()
            total += loss
            batches += 1
        val = float("nan")
        if len(val_idx):
            out = np.concatenate(
                [
                    net.forward(*samples.batch(part), ob[part])[0]
                    for part in np.array_split(val_idx, max(1, len(val_idx) // CHUNK))
                ]
            )
            val = float(np.mean((sigmoid(out * SCALE / args.sigmoid_scale) - target[val_idx]) ** 2))
        print(
            f"epoch {epoch + 1}: train loss {total / max(batches, 1):.6f}, validation loss {val:.6f} ({time.time() - t0:.0f} s)",
            flush=True,
        )
        if args.keep_epochs:
            # A long run stopped early still leaves each finished epoch's net to screen.
            path = args.out.with_name(f"{args.out.stem}.epoch{epoch + 1}{args.out.suffix}")
            path.write_bytes(quantised_bytes(net, buckets))

    data = quantised_bytes(net, buckets)
    args.out.write_bytes(data)
    print(
        f"wrote {args.out} ({len(data)} bytes, hidden {args.hidden}, king buckets {args.king_buckets}, "
        f"output buckets {args.output_buckets})"
    )
    if args.heldout_sample is not None and len(val_idx):
        # Positions no training batch saw, with the unquantised net's evaluation (side to
        # move's view, centipawns): tests/nnue.rs checks the Rust inference of the written
        # file against them.
        pick = np.sort(rng.choice(val_idx, size=min(args.heldout_count, len(val_idx)), replace=False))
        cp = net.eval_cp(*samples.batch(pick), ob[pick])
        lines = [f"{fen}\t{v:.3f}\n" for fen, v in zip(fens(codes[pick], stm[pick]), cp)]
        args.heldout_sample.write_text("".join(lines))
        print(f"wrote {args.heldout_sample} ({len(lines)} held-out positions)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
