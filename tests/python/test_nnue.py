"""The neural evaluation from Python and UCI: the embedded net's evaluation
against an independent numpy reading of the committed net file, loading other nets with
`eval_file` / `EvalFile`, bad files refused with the current net kept, the hand-written
evaluation on request, and the UCI `eval` command."""

from __future__ import annotations

import io
import random
import struct
from pathlib import Path

import chess
import pytest

import kibitz
from kibitz.uci import UciEngine

np = pytest.importorskip("numpy")

ROOT = Path(__file__).resolve().parents[2]
NET = ROOT / "rust" / "eval" / "nnue" / "default.nnue"
# A small version-1 net (no buckets) the trainer wrote, a fixture of tests/nnue.rs too.
VERSION1 = ROOT / "tests" / "data" / "nnue_trainer_h16.nnue"


class Net:
    """A net file read by its documented layout (rust/eval/nnue/mod.rs), any version:
    king buckets (versions 2 and 3) and output buckets (version 3) included."""

    def __init__(self, path: Path) -> None:
        raw = path.read_bytes()
        assert raw[:8] == b"KBZNNUE\0"
        self.version, inputs, self.hidden, self.scale, self.qa, self.qb = struct.unpack_from("<6I", raw, 8)
        assert self.version in (1, 2, 3) and inputs % 768 == 0
        self.flags, self.map, self.buckets = 0, [0] * 64, 1
        off = 32
        if self.version >= 2:
            (self.flags,) = struct.unpack_from("<I", raw, 32)
            self.map = list(raw[36:100])
            off = 100
        if self.version == 3:
            (self.buckets,) = struct.unpack_from("<I", raw, 100)
            off = 104
        assert max(self.map) + 1 == inputs // 768
        h = self.hidden
        self.w1 = np.frombuffer(raw, "<i2", inputs * h, off).reshape(inputs, h).astype(np.int64)
        off += 2 * inputs * h
        self.b1 = np.frombuffer(raw, "<i2", h, off).astype(np.int64)
        off += 2 * h
        self.output_offset = off  # the output weights, then the output biases
        self.w2 = np.frombuffer(raw, "<i2", self.buckets * 2 * h, off).reshape(self.buckets, 2 * h).astype(np.int64)
        off += 4 * h * self.buckets
        self.b2 = np.frombuffer(raw, "<i4", self.buckets, off).astype(np.int64)
        assert off + 4 * self.buckets + 8 == len(raw)

    def features(self, board: chess.Board, persp: chess.Color) -> list[int]:
        """The active inputs of one perspective: its own pieces first, the board seen from
        its side, in its king's bucket, mirrored left-right when the bucket map says so."""
        king = board.king(persp)
        assert king is not None
        k = king if persp == chess.WHITE else king ^ 56
        flip = 7 if self.flags & 1 and k % 8 >= 4 else 0
        out = []
        for sq, piece in board.piece_map().items():
            s = (sq if persp == chess.WHITE else sq ^ 56) ^ flip
            own = piece.color == persp
            out.append(self.map[k] * 768 + (0 if own else 384) + (piece.piece_type - 1) * 64 + s)
        return out

    def output_bucket(self, board: chess.Board) -> int:
        """The output bucket of the board's piece count p (kings included): min((p - 1) * O // 32, O - 1)."""
        return min((len(board.piece_map()) - 1) * self.buckets // 32, self.buckets - 1)

    def evaluate(self, board: chess.Board) -> float:
        """The net's output in centipawns for the side to move, in floats from the file's integers."""
        h, qa, qb = self.hidden, self.qa, self.qb
        bucket = self.output_bucket(board)
        w2, b2 = self.w2[bucket], self.b2[bucket]
        accs = []
        for persp in (board.turn, not board.turn):
            acc = self.b1 + self.w1[self.features(board, persp)].sum(axis=0)
            accs.append(np.clip(acc / qa, 0, 1) ** 2)
        out = accs[0] @ (w2[:h] / qb) + accs[1] @ (w2[h:] / qb) + b2 / (qa * qb)
        return float(out * self.scale)


def random_positions(n: int, seed: int, captures: float = 0.0) -> list[chess.Board]:
    """Positions of random games; with `captures` > 0 a capture is chosen with that
    probability when there is one, so the games reach endgames (every output bucket)."""
    rng = random.Random(seed)
    boards = []
    while len(boards) < n:
        b = chess.Board()
        for _ in range(rng.randrange(0, 80 if not captures else 200)):
            moves = list(b.legal_moves)
            if not moves or b.is_insufficient_material():
                break
            takes = [m for m in moves if b.is_capture(m)]
            b.push(rng.choice(takes if takes and rng.random() < captures else moves))
        if not b.is_game_over():
            boards.append(b)
    return boards


@pytest.mark.parametrize("path", [NET, VERSION1], ids=["embedded", "version-1"])
def test_engine_evaluates_as_the_files_independent_reading(path: Path) -> None:
    """The embedded net (8 output buckets, file version 3), and a version-1 net loaded with
    `eval_file`, against the numpy reading of the same file."""
    net = Net(path)
    engine = kibitz.Engine(1) if path == NET else kibitz.Engine(1, eval_file=str(path))
    assert engine.nnue and engine.eval_file == (None if path == NET else str(path))
    # Only the two truncating divisions differ from the float reading (rust/eval/nnue/mod.rs).
    tolerance = 1 + net.scale / (net.qa * net.qb)
    boards = random_positions(100, 7) + random_positions(100, 9, captures=0.7)
    buckets = set()
    for b in boards:
        ours = engine.evaluate(kibitz.Board(b.fen()))
        ref = net.evaluate(b)
        assert abs(ours - ref) <= tolerance, f"{b.fen()}: kibitz {ours}, reference {ref:.2f}"
        buckets.add(net.output_bucket(b))
    # Every bucket but at most one is visited (the net's only one, when it has one).
    assert len(buckets) >= max(net.buckets - 1, 1), buckets


def test_hand_written_evaluation_on_request() -> None:
    engine = kibitz.Engine(1)
    hce = kibitz.Engine(1, nnue=False)
    assert not hce.nnue
    boards = [kibitz.Board(b.fen()) for b in random_positions(40, 8)]
    net_scores = [engine.evaluate(b) for b in boards]
    engine.nnue = False
    assert [engine.evaluate(b) for b in boards] == [hce.evaluate(b) for b in boards]
    engine.nnue = True
    assert [engine.evaluate(b) for b in boards] == net_scores
    assert net_scores != [hce.evaluate(b) for b in boards]
    assert "nnue=False" in repr(hce)


def scaled_copy(tmp_path: Path, factor: int) -> Path:
    """The embedded net with its output layer (weights and biases) multiplied by `factor`,
    checksum rewritten."""
    net = Net(NET)
    raw = bytearray(NET.read_bytes()[:-8])
    off, n = net.output_offset, 2 * net.hidden * net.buckets
    raw[off : off + 2 * n] = np.clip(net.w2.reshape(-1) * factor, -32767, 32767).astype("<i2").tobytes()
    raw[off + 2 * n : off + 2 * n + 4 * net.buckets] = (net.b2 * factor).astype("<i4").tobytes()
    h = 0xCBF29CE484222325
    for byte in raw:
        h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    path = tmp_path / f"scaled{factor}.nnue"
    path.write_bytes(bytes(raw) + struct.pack("<Q", h))
    return path


def test_eval_file_loads_another_net_and_bad_files_keep_the_current_one(tmp_path: Path) -> None:
    other = scaled_copy(tmp_path, -1)  # the same net with the output negated
    board = kibitz.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    base = kibitz.Engine(1).evaluate(board)
    engine = kibitz.Engine(1, eval_file=str(other))
    assert engine.eval_file == str(other)
    assert abs(engine.evaluate(board) + base) <= 2
    assert str(other) in repr(engine)

    data = NET.read_bytes()
    bad = {
        "truncated": data[: len(data) // 2],
        "corrupt": data[:1000] + bytes([data[1000] ^ 1]) + data[1001:],
        "not a net": b"hello world" * 10,
    }
    for name, content in bad.items():
        p = tmp_path / f"{name}.nnue"
        p.write_bytes(content)
        with pytest.raises(kibitz.NetError) as err:
            engine.load_eval_file(str(p))
        assert isinstance(err.value, ValueError)
        assert str(p) in str(err.value)
        assert engine.eval_file == str(other), name
        assert abs(engine.evaluate(board) + base) <= 2, name
    with pytest.raises(OSError):
        engine.load_eval_file(str(tmp_path / "missing.nnue"))
    with pytest.raises(kibitz.NetError, match="truncated"):
        kibitz.Engine(1, eval_file=str(tmp_path / "truncated.nnue"))
    engine.use_embedded_net()
    assert engine.eval_file is None and engine.evaluate(board) == base


def test_net_files_that_are_no_regular_files_or_of_the_wrong_size_are_refused_before_reading(
    tmp_path: Path,
) -> None:
    """A FIFO, /dev/zero, a directory and a huge file are refused at once (in a subprocess
    with a time limit: a loader that read first would hang or fill memory), and over UCI
    the engine reports it, stays responsive and keeps its net."""
    import os
    import subprocess
    import sys

    if not hasattr(os, "mkfifo"):
        pytest.skip("needs FIFOs (POSIX)")
    fifo = tmp_path / "net.fifo"
    os.mkfifo(fifo)
    huge = tmp_path / "huge.nnue"
    with open(huge, "wb") as f:
        f.write(NET.read_bytes()[:104])  # a valid header (of any version), then far too much
        f.truncate(500 << 20)  # sparse: no disk space taken
    cases = [
        (fifo, "OSError", "a FIFO, not a regular file"),
        (tmp_path, "OSError", "a directory"),
        (huge, "NetError", "too long: expected"),
    ]
    if os.path.exists("/dev/zero"):
        cases.append((Path("/dev/zero"), "OSError", "a device, not a regular file"))
    script = (
        "import sys, kibitz\n"
        "try:\n    kibitz.Engine(1).load_eval_file(sys.argv[1])\n"
        "except (OSError, ValueError) as e:\n    print(type(e).__name__, e)\n"
    )
    for path, kind, message in cases:
        proc = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True, text=True, timeout=30)
        assert proc.stdout.startswith(kind) and message in proc.stdout, (path, proc.stdout, proc.stderr)

    from uci_session import RawUci

    uci = RawUci()
    try:
        uci.send("uci")
        uci.expect("uciok")
        for path, _, message in cases:
            uci.send(f"setoption name EvalFile value {path}")
            lines = uci.sync(timeout=10)
            refused = [l for l in lines if message in l and "keeping the embedded net" in l]
            assert len(refused) == 1, lines  # reported once
        uci.send("position startpos")
        uci.send("go depth 2")
        uci.expect("bestmove", 20)
    finally:
        assert uci.close(10) == 0


def test_search_with_a_loaded_net_plays_legal_moves(tmp_path: Path) -> None:
    engine = kibitz.Engine(4, eval_file=str(scaled_copy(tmp_path, 2)))
    for b in random_positions(10, 9):
        result = engine.search(kibitz.Board(b.fen()), depth=5)
        assert chess.Move.from_uci(result.best_move) in b.legal_moves


def uci(lines: list[str]) -> list[str]:
    out = io.StringIO()
    s = UciEngine(out)
    for line in lines:
        s.handle(line)
    if s._job is not None:
        assert s._job.done.wait(30)
    return out.getvalue().splitlines()


def test_uci_eval_and_eval_options(tmp_path: Path) -> None:
    fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 3 3"
    net_cp = -kibitz.Engine(1).evaluate(kibitz.Board(fen))  # White's view, Black to move
    hce_cp = -kibitz.Engine(1, nnue=False).evaluate(kibitz.Board(fen))
    bad = tmp_path / "bad.nnue"
    bad.write_bytes(NET.read_bytes()[:-1])
    out = uci(
        [
            "uci",
            f"position fen {fen}",
            "eval",
            f"setoption name EvalFile value {bad}",
            "eval",
            "setoption name UseNNUE value false",
            "eval",
            "setoption name UseNNUE value true",
            f"setoption name EvalFile value {scaled_copy(tmp_path, -1)}",
            "eval",
            "go depth 3",
        ]
    )
    assert "option name UseNNUE type check default true" in out
    assert "option name EvalFile type string default <empty>" in out
    evals = [l for l in out if "evaluation:" in l]
    assert evals[0] == f"info string NNUE evaluation: {net_cp:+d} cp (White's view; embedded net)"
    assert evals[1] == f"info string Classical evaluation: {hce_cp:+d} cp (White's view)"
    refused = [l for l in out if "bad.nnue" in l]
    assert len(refused) == 1 and "truncated" in refused[0] and "keeping the embedded net" in refused[0]
    assert evals[2:4] == evals[0:2]  # the bad file changed nothing
    assert evals[4] == evals[1]  # UseNNUE false: the hand-written evaluation alone
    assert "scaled-1.nnue" in evals[5] and abs(int(evals[5].split()[4]) + net_cp) <= 2
    assert any(l.startswith("bestmove") for l in out)


def test_strength_levels_search_with_the_calibrated_evaluation() -> None:
    # The UCI_Elo levels were measured with the net: a limited search uses it like a
    # full-strength one, and UseNNUE false switches both to the hand-written evaluation.
    out = io.StringIO()
    s = UciEngine(out, rng=random.Random(1))

    def go() -> None:
        s.handle("go depth 2")
        assert s._job is not None and s._job.done.wait(30)

    s.handle("uci")
    s.handle("position startpos")
    go()
    assert s._engine.nnue
    s.handle("setoption name UCI_LimitStrength value true")
    s.handle("setoption name UCI_Elo value 1500")
    go()
    assert s._engine.nnue
    s.handle("setoption name UseNNUE value false")
    go()
    assert not s._engine.nnue
    s.handle("setoption name UCI_LimitStrength value false")
    go()
    assert not s._engine.nnue
    s.handle("setoption name UseNNUE value true")
    go()
    assert s._engine.nnue
    assert len([l for l in out.getvalue().splitlines() if l.startswith("bestmove")]) == 5
