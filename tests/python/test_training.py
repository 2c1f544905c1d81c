"""The NNUE training pipeline: the self-play generator's binary records and the
trainer (training/train.py).

- The records decode to the positions the generator played: a run with `--format nnue`
  must give a subset of the boards of the same run with `--format text` (same seed, so the
  same games), compared through python-chess; only quiet positions (side to move not in
  check) are in it, and the run is the same with one thread or two.
- The trainer's gradients agree with finite differences of its loss.
- The net file it writes has the documented layout and an FNV-1a checksum computed here
  independently.
"""

from __future__ import annotations

import importlib.util
import struct
import subprocess
from pathlib import Path
from typing import Any

import chess
import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("scipy")

ROOT = Path(__file__).resolve().parents[2]


def load_trainer():
    spec = importlib.util.spec_from_file_location("kibitz_train", ROOT / "training" / "train.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


train = load_trainer()


def selfplay(tmp: Path, fmt: str, threads: int, name: str) -> Path:
    out = tmp / name
    cmd = [
        "cargo",
        "run",
        "--quiet",
        "--release",
        "--example",
        "selfplay",
        "--",
        "--games",
        "6",
        "--nodes",
        "600",
        "--seed",
        "11",
        "--threads",
        str(threads),
        "--format",
        fmt,
        "--out",
        str(out),
    ]
    subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True, timeout=600)
    return out


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("selfplay")
    return {
        "text": selfplay(tmp, "text", 1, "games.txt"),
        "nnue1": selfplay(tmp, "nnue", 1, "one.bin"),
        "nnue2": selfplay(tmp, "nnue", 2, "two.bin"),
    }


def board_key(board: chess.Board) -> tuple[tuple[tuple[int, str], ...], bool]:
    return tuple(sorted((sq, p.symbol()) for sq, p in board.piece_map().items())), board.turn


def test_records_are_the_quiet_positions_played(runs: dict[str, Path]) -> None:
    text_boards = {}
    for line in runs["text"].read_text().splitlines():
        fen, result, _game = line.split(";")
        b = chess.Board(fen)
        text_boards[board_key(b)] = float(result)
    rec = train.read_records([runs["nnue1"]])
    assert len(rec) > 50
    codes = train.piece_codes(rec)
    symbols = {k: s for k, s in zip(range(1, 7), "pnbrqk")}
    for r, row in zip(rec, codes):
        b = chess.Board(None)
        for sq in range(64):
            c = int(row[sq])
            if c:
                sym = symbols[c & 7]
                b.set_piece_at(sq, chess.Piece.from_symbol(sym.upper() if c < 8 else sym))
        b.turn = chess.WHITE if r["stm"] == 0 else chess.BLACK
        key = board_key(b)
        assert key in text_boards, b.fen()
        assert r["result"] / 2 == text_boards[key]
        assert not b.is_check(), b.fen()
        assert abs(int(r["score"])) < 30000


def test_generator_is_reproducible_across_thread_counts(runs: dict[str, Path]) -> None:
    a, b = runs["nnue1"].read_bytes(), runs["nnue2"].read_bytes()
    assert a[:8] == b[:8] == b"KBZDATA1"
    recs = lambda d: sorted(d[i : i + 32] for i in range(8, len(d), 32))  # noqa: E731
    assert recs(a) == recs(b)


def test_training_is_reproducible_from_its_seed(runs: dict[str, Path], tmp_path: Path) -> None:
    # The README's promise: the same data, seed and arguments give the same net file (and
    # the same held-out sample); another seed gives another net.
    outs = []
    for name, seed in (("a", 5), ("b", 5), ("c", 6)):
        out, sample = tmp_path / f"{name}.nnue", tmp_path / f"{name}.tsv"
        args = [str(runs["nnue1"]), "--out", str(out), "--hidden", "16", "--epochs", "2", "--seed", str(seed)]
        assert train.main(args + ["--heldout-sample", str(sample), "--heldout-count", "20"]) == 0
        outs.append((out.read_bytes(), sample.read_text()))
    assert outs[0] == outs[1]
    assert outs[0][0] != outs[2][0]
    # The sample's FENs are positions of the data, readable by python-chess.
    for line in outs[0][1].splitlines():
        fen, cp = line.split("\t")
        assert chess.Board(fen).is_valid() or chess.Board(fen).status() == chess.STATUS_BAD_CASTLING_RIGHTS
        float(cp)


def test_keep_epochs_writes_each_finished_epochs_net(runs: dict[str, Path], tmp_path: Path) -> None:
    # A run stopped early keeps the nets of the epochs it finished: the last one is the
    # final net byte for byte, and the training moved the weights between epochs.
    out = tmp_path / "k.nnue"
    args = [str(runs["nnue1"]), "--out", str(out), "--hidden", "16", "--epochs", "2", "--seed", "5"]
    assert train.main(args + ["--keep-epochs"]) == 0
    first, second = tmp_path / "k.epoch1.nnue", tmp_path / "k.epoch2.nnue"
    assert second.read_bytes() == out.read_bytes()
    assert first.read_bytes() != second.read_bytes()
    assert len(first.read_bytes()) == len(out.read_bytes())
    assert sorted(p.name for p in tmp_path.glob("k*.nnue")) == ["k.epoch1.nnue", "k.epoch2.nnue", "k.nnue"]


@pytest.mark.parametrize("k", [400.0, 180.0])
def test_gradients_match_finite_differences(k: float) -> None:
    rng = np.random.default_rng(3)
    net = train.Net(16, rng)
    net.w1 *= 3  # push some accumulators into the clamp's linear part and beyond
    n = 12
    codes = np.zeros((n, 64), dtype=np.uint8)
    for i in range(n):
        sqs = rng.choice(64, size=10, replace=False)
        codes[i, sqs] = rng.choice([1, 2, 3, 4, 5, 9, 10, 11, 12, 13], size=10)
        codes[i, sqs[0]], codes[i, sqs[1]] = 6, 14
    stm = rng.integers(0, 2, n)
    xs, xn = train.features(codes, stm), train.features(codes, 1 - stm)
    target = rng.uniform(0, 1, n).astype(np.float32)
    # float64 copies for a precise numerical derivative
    for p in ("w1", "b1", "w2", "b2"):
        setattr(net, p, getattr(net, p).astype(np.float64))
    _, grads = net.loss_and_grads(xs, xn, target, None, k)
    eps = 1e-6
    checked = 0
    for p, g in zip(net.params(), grads):
        flat = p.reshape(-1)
        gflat = np.asarray(g).reshape(-1)
        for j in rng.choice(len(flat), size=min(12, len(flat)), replace=False):
            old = flat[j]
            flat[j] = old + eps
            lp = net.loss_and_grads(xs, xn, target, None, k)[0]
            flat[j] = old - eps
            lm = net.loss_and_grads(xs, xn, target, None, k)[0]
            flat[j] = old
            num = (lp - lm) / (2 * eps)
            assert abs(num - gflat[j]) <= 1e-4 * max(1e-3, abs(num)) + 1e-7, (j, num, gflat[j])
            checked += 1
    assert checked >= 30


def test_targets_blend_score_and_result_from_the_side_to_moves_view() -> None:
    # White-view scores and results (0 Black won, 1 draw, 2 White won) as the records keep them.
    score = np.array([100, 100, -300, 0], dtype=np.int16)
    stm = np.array([0, 1, 1, 0], dtype=np.uint8)
    result = np.array([2, 2, 0, 1], dtype=np.uint8)
    pure_score = train.targets(score, stm, result, 1.0, 400.0)
    want = 1 / (1 + np.exp(-np.array([100, -100, 300, 0]) / 400.0))
    assert np.allclose(pure_score, want, atol=1e-6)
    assert np.allclose(train.targets(score, stm, result, 0.0), [1.0, 0.0, 1.0, 0.5])
    blend = train.targets(score, stm, result, 0.75, 180.0)
    want = 0.75 / (1 + np.exp(-np.array([100, -100, 300, 0]) / 180.0)) + 0.25 * np.array([1.0, 0.0, 1.0, 0.5])
    assert np.allclose(blend, want, atol=1e-6)


def test_best_sigmoid_scale_recovers_the_scale_results_were_drawn_from() -> None:
    rng = np.random.default_rng(35)
    n = 200_000
    score = rng.normal(0, 250, n).clip(-2000, 2000).astype(np.int16)
    stm = rng.integers(0, 2, n).astype(np.uint8)
    # Results drawn from sigmoid(score_stm / 200): wins and losses only.
    p_stm = 1 / (1 + np.exp(-(score * np.where(stm == 0, 1, -1)) / 200.0))
    stm_wins = rng.uniform(0, 1, n) < p_stm
    white_wins = np.where(stm == 0, stm_wins, ~stm_wins)
    result = np.where(white_wins, 2, 0).astype(np.uint8)
    k, err = train.best_sigmoid_scale(score, stm, result)
    assert 180 <= k <= 220, k
    assert err < train.best_sigmoid_scale(score, stm, result, np.array([400.0]))[1]


def test_net_file_layout_and_checksum() -> None:
    rng = np.random.default_rng(5)
    net = train.Net(32, rng)
    data = train.quantised_bytes(net)
    h = 32
    body_len = 8 + 24 + 2 * (768 * h + h + 2 * h) + 4
    assert len(data) == body_len + 8
    assert data[:8] == b"KBZNNUE\0"
    assert struct.unpack_from("<6I", data, 8) == (1, 768, h, 400, 255, 64)
    w1 = np.frombuffer(data, dtype="<i2", count=768 * h, offset=32).reshape(768, h)
    assert np.array_equal(w1, np.round(net.w1 * 255).astype(np.int16))
    # FNV-1a 64, written out here again rather than calling the trainer's
    acc = 0xCBF29CE484222325
    for byte in data[:body_len]:
        acc = ((acc ^ byte) * 0x100000001B3) % (1 << 64)
    assert struct.unpack_from("<Q", data, body_len)[0] == acc


def random_codes(rng: Any, n: int) -> tuple[Any, Any]:
    """`n` random placements with one king each (kings on every file, so both halves of the
    mirror are hit) as piece codes, and random sides to move."""
    codes = np.zeros((n, 64), dtype=np.uint8)
    for i in range(n):
        sqs = rng.choice(64, size=12, replace=False)
        codes[i, sqs] = rng.choice([1, 2, 3, 4, 5, 9, 10, 11, 12, 13], size=12)
        codes[i, sqs[0]], codes[i, sqs[1]] = 6, 14
    return codes, rng.integers(0, 2, n)


def hand_features(row: Any, p: int, kmap: Any = None, mirror: bool = False, flip: bool = False) -> set[int]:
    """The active features of one position (64 piece codes) from perspective `p`, from the
    definition in rust/eval/nnue/mod.rs; `flip`: of the position mirrored left-right."""
    squares = {(7 - sq % 8) + 8 * (sq // 8) if flip else sq: int(c) for sq, c in enumerate(row) if c}
    bucket, flip_files = 0, False
    if kmap is not None:
        king = next(sq for sq, c in squares.items() if c == (6 if p == 0 else 14))
        kf, kr = king % 8, (king // 8 if p == 0 else 7 - king // 8)
        bucket = int(kmap[kr * 8 + kf])
        flip_files = mirror and kf >= 4
    want = set()
    for sq, c in squares.items():
        f, r = sq % 8, (sq // 8 if p == 0 else 7 - sq // 8)
        if flip_files:
            f = 7 - f
        want.add(bucket * 768 + (0 if (c >> 3) == p else 384) + ((c & 7) - 1) * 64 + r * 8 + f)
    return want


@pytest.mark.parametrize("n, mirror", [(4, True), (8, True), (4, False)])
def test_king_bucket_features_by_hand(n: int, mirror: bool) -> None:
    rng = np.random.default_rng(21 + n)
    codes, stm = random_codes(rng, 200)
    kmap = train.bucket_map(n)
    x = train.features(codes, stm, (kmap, mirror)).toarray()
    assert x.shape == (200, 768 * n)
    for i in range(200):
        assert set(np.nonzero(x[i])[0].tolist()) == hand_features(codes[i], int(stm[i]), kmap, mirror), i
    # Every bucket is used by some king square, and a square and its mirror share one.
    assert set(kmap.tolist()) == set(range(n))
    assert all(kmap[s] == kmap[s ^ 7] for s in range(64))


@pytest.mark.parametrize("n", [1, 4])
def test_samples_are_made_batch_by_batch_as_the_definition_says(n: int) -> None:
    # The trainer makes each batch's matrices from the piece codes; samples N.. are the
    # records mirrored left-right (a-file <-> h-file). Both perspectives of every sample of
    # a batch that mixes originals and mirrored copies, against the definition.
    rng = np.random.default_rng(5 + n)
    codes, stm = random_codes(rng, 120)
    kmap = None if n == 1 else train.bucket_map(n)
    samples = train.Samples(codes, stm, None if kmap is None else (kmap, False), mirror=True)
    assert len(samples) == 240 and samples.inputs == 768 * n
    idx = np.sort(rng.choice(240, size=90, replace=False))
    assert (idx < 120).any() and (idx >= 120).any()
    before = codes.copy()
    xs, xn = (m.toarray() for m in samples.batch(idx))
    assert (codes == before).all()  # the mirrored copies are made apart from the records
    assert xs.shape == xn.shape == (90, 768 * n)
    for row, i in enumerate(idx):
        rec, flip, p = int(i) % 120, bool(i >= 120), int(stm[int(i) % 120])
        assert set(np.nonzero(xs[row])[0].tolist()) == hand_features(codes[rec], p, kmap, False, flip), i
        assert set(np.nonzero(xn[row])[0].tolist()) == hand_features(codes[rec], 1 - p, kmap, False, flip), i
    # Without mirroring a batch of every record is the whole matrix; past the end is refused.
    assert (
        train.Samples(codes, stm, None, mirror=False).batch(np.arange(120))[0] != train.features(codes, stm)
    ).nnz == 0
    with pytest.raises(IndexError, match="0..119"):
        train.Samples(codes, stm, None, mirror=False).batch(np.array([3, 120]))


def test_king_bucket_gradients_match_finite_differences() -> None:
    rng = np.random.default_rng(8)
    buckets = (train.bucket_map(4), True)
    net = train.Net(16, rng, 4 * 768)
    codes, stm = random_codes(rng, 16)
    xs, xn = train.features(codes, stm, buckets), train.features(codes, 1 - stm, buckets)
    target = rng.uniform(0, 1, 16)
    for p in ("w1", "b1", "w2", "b2"):
        setattr(net, p, getattr(net, p).astype(np.float64) * (3 if p == "w1" else 1))
    _, grads = net.loss_and_grads(xs, xn, target)
    # Only the rows of the features present have a gradient: check those and some others.
    active = np.unique(np.concatenate([xs.indices, xn.indices]))
    flat_g = np.asarray(grads[0])
    assert not flat_g[np.setdiff1d(np.arange(4 * 768), active)].any()
    eps, checked = 1e-6, 0
    for f in rng.choice(active, size=12, replace=False):
        j = int(rng.integers(16))
        old = net.w1[f, j]
        net.w1[f, j] = old + eps
        lp = net.loss_and_grads(xs, xn, target)[0]
        net.w1[f, j] = old - eps
        lm = net.loss_and_grads(xs, xn, target)[0]
        net.w1[f, j] = old
        num = (lp - lm) / (2 * eps)
        assert abs(num - flat_g[f, j]) <= 1e-4 * max(1e-3, abs(num)) + 1e-7, (f, j, num, flat_g[f, j])
        checked += 1
    assert checked == 12


def test_king_bucket_net_file_layout() -> None:
    rng = np.random.default_rng(9)
    kmap = train.bucket_map(8)
    net = train.Net(16, rng, 8 * 768)
    data = train.quantised_bytes(net, (kmap, True))
    h = 16
    body_len = 8 + 24 + 4 + 64 + 2 * (8 * 768 * h + h + 2 * h) + 4
    assert len(data) == body_len + 8
    assert struct.unpack_from("<6I", data, 8) == (2, 8 * 768, h, 400, 255, 64)
    assert struct.unpack_from("<I", data, 32) == (1,)
    assert list(data[36:100]) == kmap.tolist()
    w1 = np.frombuffer(data, dtype="<i2", count=8 * 768 * h, offset=100).reshape(8 * 768, h)
    assert np.array_equal(w1, np.round(net.w1 * 255).astype(np.int16))
    acc = 0xCBF29CE484222325
    for byte in data[:body_len]:
        acc = ((acc ^ byte) * 0x100000001B3) % (1 << 64)
    assert struct.unpack_from("<Q", data, body_len)[0] == acc


def test_factorised_king_buckets_start_as_the_plain_net_and_write_the_sums() -> None:
    rng = np.random.default_rng(33)
    net = train.Net(16, rng, 4 * 768, 1, factorise=True)
    assert net.factor is not None and not net.w1.any() and len(net.params()) == 5
    codes, stm = random_codes(rng, 30)
    # With zero bucket rows every bucket reads the shared factor: the net is the plain net
    # whose feature weights are the factor (no king mirroring, which would change the squares).
    plain = train.Net(16, np.random.default_rng(0))
    plain.w1, plain.b1, plain.w2, plain.b2 = net.factor, net.b1, net.w2, net.b2
    buckets = (train.bucket_map(4), False)
    got = net.eval_cp(train.features(codes, stm, buckets), train.features(codes, 1 - stm, buckets))
    want = plain.eval_cp(train.features(codes, stm), train.features(codes, 1 - stm))
    assert np.allclose(got, want, atol=1e-3)
    # The file holds each bucket's row plus the factor, kept within the bound that keeps
    # every accumulator inside i16 however far training pushed the two parts.
    net.w1 = rng.normal(0.0, 1.5, net.w1.shape).astype(np.float32)
    net.factor = rng.normal(0.0, 1.5, net.factor.shape).astype(np.float32)
    net.clip_weights()
    eff = net.effective_w1()
    assert np.abs(eff).max() <= train.W1_BOUND + 1e-6 and np.abs(net.factor).max() <= train.W1_BOUND
    assert np.abs(eff).max() > 1.9  # the bound is reached, not a smaller one
    data = train.quantised_bytes(net, buckets)
    w1 = np.frombuffer(data, dtype="<i2", count=4 * 768 * 16, offset=100).reshape(4 * 768, 16)
    for b in range(4):
        part = np.round((net.w1[b * 768 : (b + 1) * 768] + net.factor) * 255).astype(np.int16)
        assert np.array_equal(w1[b * 768 : (b + 1) * 768], part), b


def test_bucket_decay_shrinks_only_the_bucket_rows_toward_the_plain_net() -> None:
    rng = np.random.default_rng(34)
    net = train.Net(16, rng, 4 * 768, 1, factorise=True)
    net.w1 = rng.normal(0.0, 0.5, net.w1.shape).astype(np.float32)
    before = [p.copy() for p in net.params()]
    net.decay_buckets(0.25)
    after = net.params()
    # The bucket rows scale by 1 - rate; the shared factor, biases and output weights stay.
    assert np.allclose(after[0], before[0] * 0.75, rtol=1e-6)
    for i in range(1, 5):
        assert np.array_equal(after[i], before[i]), i
    # Decayed far enough, the net evaluates as the plain net made of its factor.
    for _ in range(200):
        net.decay_buckets(0.25)
    codes, stm = random_codes(rng, 20)
    buckets = (train.bucket_map(4), False)
    plain = train.Net(16, np.random.default_rng(0))
    plain.w1, plain.b1, plain.w2, plain.b2 = net.factor, net.b1, net.w2, net.b2
    got = net.eval_cp(train.features(codes, stm, buckets), train.features(codes, 1 - stm, buckets))
    want = plain.eval_cp(train.features(codes, stm), train.features(codes, 1 - stm))
    assert np.allclose(got, want, atol=1e-3)
    # A net without a factor (plain, or buckets trained apart) has nothing to decay toward.
    for other in (train.Net(16, rng), train.Net(16, rng, 4 * 768, 1, factorise=False)):
        w1 = other.w1.copy()
        other.decay_buckets(0.25)
        assert np.array_equal(other.w1, w1)


def test_factorised_king_bucket_gradients_match_finite_differences() -> None:
    rng = np.random.default_rng(34)
    buckets = (train.bucket_map(4), True)
    net = train.Net(16, rng, 4 * 768, 2, factorise=True)
    codes, stm = random_codes(rng, 24)
    xs, xn = train.features(codes, stm, buckets), train.features(codes, 1 - stm, buckets)
    ob = train.output_buckets(codes, 2)
    target = rng.uniform(0, 1, 24)
    net.w1 = rng.normal(0.0, 0.2, net.w1.shape)
    for p in ("factor", "b1", "w2", "b2"):
        setattr(net, p, getattr(net, p).astype(np.float64) * (3 if p == "factor" else 1))
    _, grads = net.loss_and_grads(xs, xn, target, ob)
    assert len(grads) == 5
    active = np.unique(np.concatenate([xs.indices, xn.indices]))
    eps, checked = 1e-6, 0
    for name, g, rows in (("w1", grads[0], active), ("factor", grads[4], np.unique(active % 768))):
        p = getattr(net, name)
        for f in rng.choice(rows, size=10, replace=False):
            j = int(rng.integers(16))
            old = p[f, j]
            p[f, j] = old + eps
            lp = net.loss_and_grads(xs, xn, target, ob)[0]
            p[f, j] = old - eps
            lm = net.loss_and_grads(xs, xn, target, ob)[0]
            p[f, j] = old
            num = (lp - lm) / (2 * eps)
            assert abs(num - g[f, j]) <= 1e-4 * max(1e-3, abs(num)) + 1e-7, (name, f, j, num, g[f, j])
            checked += 1
    assert checked == 20


def test_output_bucket_rule_by_hand() -> None:
    # With 8 buckets: 2-4 pieces are bucket 0, then four piece counts a bucket up to 29-32.
    want8 = {p: 0 if p <= 4 else (p - 5) // 4 + 1 for p in range(2, 33)}
    rng = np.random.default_rng(30)
    for n in (1, 2, 4, 8):
        for p in range(2, 33):
            codes = np.zeros((1, 64), dtype=np.uint8)
            codes[0, rng.choice(64, size=p, replace=False)] = rng.choice([1, 2, 3, 4, 5, 6, 9, 14], size=p)
            got = int(train.output_buckets(codes, n)[0])
            if n == 8:
                assert got == want8[p], (p, got)
            # Halving the buckets merges neighbours: bucket b of 2n is bucket b // 2 of n.
            if n < 8:
                assert got == int(train.output_buckets(codes, 2 * n)[0]) // 2, (n, p)


def test_output_bucket_gradients_match_finite_differences() -> None:
    rng = np.random.default_rng(31)
    net = train.Net(16, rng, 768, 4)
    n = 40
    codes = np.zeros((n, 64), dtype=np.uint8)
    for i in range(n):
        k = int(rng.integers(2, 33))
        sqs = rng.choice(64, size=k, replace=False)
        codes[i, sqs] = rng.choice([1, 2, 3, 4, 5, 9, 10, 11, 12, 13], size=k)
        codes[i, sqs[0]], codes[i, sqs[1]] = 6, 14
    stm = rng.integers(0, 2, n)
    ob = train.output_buckets(codes, 4)
    assert set(ob.tolist()) == {0, 1, 2, 3}
    xs, xn = train.features(codes, stm), train.features(codes, 1 - stm)
    target = rng.uniform(0, 1, n)
    for p in ("w1", "b1", "w2", "b2"):
        setattr(net, p, getattr(net, p).astype(np.float64) * (3 if p == "w1" else 1))
    _, grads = net.loss_and_grads(xs, xn, target, ob)
    eps, checked = 1e-6, 0
    for p, g in zip(net.params(), grads):
        flat = p.reshape(-1)
        gflat = np.asarray(g).reshape(-1)
        # Every output weight and bias of every bucket is checked, some feature weights.
        picks = range(len(flat)) if p is net.b2 else rng.choice(len(flat), size=min(24, len(flat)), replace=False)
        for j in picks:
            old = flat[j]
            flat[j] = old + eps
            lp = net.loss_and_grads(xs, xn, target, ob)[0]
            flat[j] = old - eps
            lm = net.loss_and_grads(xs, xn, target, ob)[0]
            flat[j] = old
            num = (lp - lm) / (2 * eps)
            assert abs(num - gflat[j]) <= 1e-4 * max(1e-3, abs(num)) + 1e-7, (j, num, gflat[j])
            checked += 1
    assert checked >= 60
    # A bucket no position uses gets no gradient.
    _, grads = net.loss_and_grads(xs, xn, target, np.minimum(ob, 2))
    assert not grads[2][3].any() and grads[3][3] == 0 and grads[3][:3].all()


def test_output_bucket_net_file_layout() -> None:
    rng = np.random.default_rng(32)
    net = train.Net(16, rng, 768, 8)
    data = train.quantised_bytes(net)
    h = 16
    body_len = 8 + 24 + 4 + 64 + 4 + 2 * (768 * h + h) + 8 * (2 * 2 * h + 4)
    assert len(data) == body_len + 8
    assert struct.unpack_from("<6I", data, 8) == (3, 768, h, 400, 255, 64)
    assert struct.unpack_from("<I", data, 32) == (0,)
    assert data[36:100] == bytes(64)
    assert struct.unpack_from("<I", data, 100) == (8,)
    at = 104 + 2 * (768 * h + h)
    w2 = np.frombuffer(data, dtype="<i2", count=8 * 2 * h, offset=at).reshape(8, 2 * h)
    assert np.array_equal(w2, np.clip(np.round(net.w2 * 64), -127, 127).astype(np.int16))
    b2 = np.frombuffer(data, dtype="<i4", count=8, offset=at + 2 * 8 * 2 * h)
    assert np.array_equal(b2, np.round(net.b2.astype(np.float64) * 255 * 64).astype(np.int32))
    acc = 0xCBF29CE484222325
    for byte in data[:body_len]:
        acc = ((acc ^ byte) * 0x100000001B3) % (1 << 64)
    assert struct.unpack_from("<Q", data, body_len)[0] == acc


@pytest.mark.parametrize(
    "extra, header",
    [
        (["--king-buckets", "4"], (2, 4 * 768)),
        (["--output-buckets", "8"], (3, 768)),
        (["--output-buckets", "4", "--king-buckets", "4"], (3, 4 * 768)),
    ],
)
def test_a_bucketed_net_evaluates_in_the_engine_as_in_the_trainer(
    runs: dict[str, Path], tmp_path: Path, extra: list[str], header: tuple[int, int]
) -> None:
    import kibitz

    out, sample = tmp_path / "net.nnue", tmp_path / "net.tsv"
    args = [str(runs["nnue1"]), "--out", str(out), "--hidden", "16", "--epochs", "3", *extra]
    assert train.main(args + ["--heldout-sample", str(sample), "--heldout-count", "60"]) == 0
    data = out.read_bytes()
    assert struct.unpack_from("<2I", data, 8) == header
    outputs = int(extra[1]) if extra[0] == "--output-buckets" else 1
    if outputs > 1:
        assert struct.unpack_from("<I", data, 100) == (outputs,)
    engine = kibitz.Engine()
    engine.load_eval_file(str(out))
    lines = sample.read_text().splitlines()
    assert len(lines) >= 10
    worst, buckets = 0.0, set()
    for line in lines:
        fen, cp = line.split("\t")
        # The records keep no castling rights; python-chess's fen() of the board is what the
        # engine is given.
        board = kibitz.Board(chess.Board(fen).fen())
        buckets.add(min((len(board.piece_map()) - 1) * outputs // 32, outputs - 1))
        worst = max(worst, abs(engine.evaluate(board) - float(cp)))
    # Rounding the weights to steps of 1/255 and 1/64 (the trainer fixture of tests/nnue.rs
    # measured 22 cp at most); a wrong feature layout or output bucket is off by hundreds.
    assert worst <= 30.0, worst
    if outputs > 1:
        assert len(buckets) >= 2, buckets


def catalogue_rows() -> dict[str, list[str]]:
    """training/data/README.md's table: file name -> its cells."""
    rows = {}
    for line in (ROOT / "training" / "data" / "README.md").read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| selfplay-"):
            rows[cells[0]] = cells
    return rows


def test_every_data_chunk_has_a_catalogue_row_that_regenerates_it() -> None:
    """Each chunk in training/data/ has exactly one row, and the row's command names the
    seed, the record format and the commit the file's name carries; its position count is
    the file's record count (the uncompressed size less the 8-byte header, over 32)."""
    import lzma
    import re

    rows = catalogue_rows()
    files = sorted(p.name for p in (ROOT / "training" / "data").glob("*.kbz.xz"))
    assert files, "no self-play chunks found"
    assert sorted(rows) == files
    for name in files:
        m = re.fullmatch(r"selfplay-([0-9a-f]{7})-seed(\d+)\.kbz\.xz", name)
        assert m, name
        commit, seed = m.groups()
        cells = rows[name]
        assert cells[3].startswith(commit), (name, cells[3])
        command = cells[4]
        assert f"--seed {seed} " in command, (name, command)
        assert "--format nnue" in command, (name, command)
        size = 0
        with lzma.open(ROOT / "training" / "data" / name) as f:
            assert f.read(8) == b"KBZDATA1", name
            while chunk := f.read(1 << 22):
                size += len(chunk)
        assert size % 32 == 0, name
        assert int(cells[1].replace(",", "")) == size // 32, (name, cells[1], size // 32)
