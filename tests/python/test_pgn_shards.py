"""Training data beyond one process (``kibitz.analysis.shards``, ``kibitz.analysis.dataset``):
the shards cut a file at game starts and cover it, and the chunks of every backend (this
process, a pool of processes, Ray, the workers of a DataLoader) hold the arrays
``pgn_to_tensors`` gives over each file in turn, game numbers counted on across the files
(how many games each file holds: python-chess's count, not kibitz's)."""

from __future__ import annotations

import gzip
import io
import sys
import types
from pathlib import Path
from typing import Any, Iterable, List

import chess.pgn
import numpy as np
import pytest

from kibitz import pgn_to_tensors
from kibitz.analysis.shards import PgnShard, pgn_shards, pgn_to_tensors_parallel, read_shard

SELFPLAY = Path(__file__).resolve().parents[2] / "benches" / "data" / "selfplay.pgn.gz"

# Games of other shapes between the self-play ones: comments over several lines (one with a
# blank line and a bracket inside), variations, a null move, a FEN set-up, a game without
# result, an empty game, CR LF line ends.
ODD_GAMES = [
    '[Event "multi-line comment"]\n[Result "1-0"]\n\n1. e4 {a comment\n\n[not a tag] still the comment}'
    " e5 2. Nf3 (2. Bc4 Nc6) Nc6 1-0\n\n",
    '[Event "null move"]\n[Result "0-1"]\n\n1. e4 -- 2. d4 e5 0-1\n\n',
    '[Event "set-up"]\n[SetUp "1"]\n[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]\n[Result "1/2-1/2"]\n\n1. e4 Kd7 1/2-1/2\n\n',
    '[Event "unfinished"]\n[Result "*"]\n\n1. d4 d5 *\n\n',
    '[Event "empty"]\n[Result "1-0"]\n\n1-0\n\n',
    '[Event "crlf"]\r\n[Result "0-1"]\r\n\r\n1. f3 e5 2. g4 Qh4# 0-1\r\n\r\n',
]


def corpus_text(games: int) -> str:
    text = gzip.decompress(SELFPLAY.read_bytes()).decode()
    stream = io.StringIO(text)
    parts: List[str] = []
    for i in range(games):
        start = stream.tell()
        if not chess.pgn.skip_game(stream):
            break
        parts.append(text[start : stream.tell()].strip("\n") + "\n\n")
        if i % 7 == 3:
            parts.append(ODD_GAMES[(i // 7) % len(ODD_GAMES)])
    return "".join(parts)


@pytest.fixture(scope="module")
def files(tmp_path_factory: Any) -> List[Path]:
    d = tmp_path_factory.mktemp("shards")
    a, b, c = d / "a.pgn", d / "b.pgn.gz", d / "c.pgn"
    a.write_bytes(corpus_text(300).encode())
    b.write_bytes(gzip.compress(corpus_text(40).encode()))
    c.write_bytes("".join(ODD_GAMES).encode())
    return [a, b, c]


def python_chess_games(path: Path) -> int:
    """The games python-chess reads from a file (the reference for game numbers)."""
    opener: Any = gzip.open if path.suffix == ".gz" else open
    n = 0
    with opener(path, "rt", encoding="utf-8", newline="") as f:
        while chess.pgn.skip_game(f):
            n += 1
    return n


def joined(chunks: Iterable[Any]) -> dict[str, Any]:
    chunks = list(chunks)
    return {
        "planes": np.concatenate([c.planes for c in chunks]),
        "moves": np.concatenate([c.moves for c in chunks]),
        "results": np.concatenate([c.results for c in chunks]),
        "games": np.concatenate([c.games for c in chunks]),
        "skipped": sum(c.skipped for c in chunks),
    }


def reference(paths: List[Path], **kwargs: Any) -> dict[str, Any]:
    """pgn_to_tensors over each file in turn, game numbers raised by the games before."""
    chunks = []
    offset = 0
    for p in paths:
        for c in pgn_to_tensors(str(p), **kwargs):
            chunks.append(c._replace(games=c.games + offset))
        offset += python_chess_games(p)
    return joined(chunks)


def assert_same(got: dict[str, Any], want: dict[str, Any]) -> None:
    assert got["planes"].dtype == want["planes"].dtype
    for key in ("planes", "moves", "results", "games"):
        assert np.array_equal(got[key], want[key]), key
    assert got["skipped"] == want["skipped"]


def test_shards_cut_at_game_starts_and_cover_the_file(files: List[Path]) -> None:
    a = files[0]
    data = a.read_bytes()
    shards = pgn_shards(a, shard_bytes=20_000)
    assert len(shards) > 10
    assert shards[0].start == 0 and shards[-1].end is None
    for before, after in zip(shards, shards[1:]):
        assert before.end == after.start  # contiguous, nothing lost
        assert data[after.start - 2 : after.start + 1] in (b"\n\n[", b"\r\n[")
        # python-chess reads a game starting right there.
        game = chess.pgn.read_game(io.StringIO(data[after.start :].decode()))
        assert game is not None and not game.errors
    # The blank line and bracket inside the multi-line comment never start a shard.
    assert all(not data[s.start :].startswith(b"[not a tag]") for s in shards)


def test_compressed_and_small_files_are_one_shard_each(files: List[Path]) -> None:
    shards = pgn_shards(files, shard_bytes=20_000)
    assert [s for s in shards if s.path == str(files[1])] == [PgnShard(str(files[1]))]
    assert [s for s in shards if s.path == str(files[2])] == [PgnShard(str(files[2]))]
    directory = pgn_shards(files[0].parent, shard_bytes=20_000)
    assert directory == shards  # a directory: its PGN files by name (a, b.gz, c)


@pytest.mark.parametrize("backend", ["serial", "pool"])
@pytest.mark.parametrize("dtype", [None, "uint8"])
def test_every_backend_gives_one_process_arrays(files: List[Path], backend: str, dtype: Any) -> None:
    want = reference(files, chunk=500, dtype=dtype)
    got = joined(pgn_to_tensors_parallel(files, chunk=500, dtype=dtype, backend=backend, workers=2, shard_bytes=20_000))
    assert_same(got, want)
    assert len(want["moves"]) > 20_000


def test_canonical_planes_and_one_shard_read_alone(files: List[Path]) -> None:
    want = reference(files[:1], chunk=300, canonical=True)
    shards = pgn_shards(files[0], shard_bytes=50_000)
    chunks = [c for s in shards for c in read_shard(s, chunk=300, canonical=True)]
    got = joined(chunks)
    # read_shard numbers games within each shard: all but the numbers agree.
    for key in ("planes", "moves", "results"):
        assert np.array_equal(got[key], want[key]), key


def test_bad_arguments_are_value_errors(files: List[Path], tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="shard_bytes"):
        pgn_shards(files[0], shard_bytes=0)
    with pytest.raises(ValueError, match="backend"):
        list(pgn_to_tensors_parallel(files[0], backend="threads"))
    with pytest.raises(ValueError, match="chunk"):
        list(pgn_to_tensors_parallel(files[0], chunk=0))
    with pytest.raises(FileNotFoundError):
        pgn_shards(tmp_path / "missing.pgn")


def test_the_ray_backend_gives_one_process_arrays(files: List[Path]) -> None:
    ray = pytest.importorskip("ray")
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        got = joined(pgn_to_tensors_parallel(files, chunk=500, backend="ray", shard_bytes=20_000))
    finally:
        if started:
            ray.shutdown()
    assert_same(got, reference(files, chunk=500))


def test_the_dataset_splits_the_shards_over_the_workers(files: List[Path], monkeypatch: Any) -> None:
    """PgnDataset with a stand-in for torch.utils.data (torch is not a test dependency):
    each worker reads every third shard, and the workers' chunks together are one process's."""
    info: dict[str, Any] = {"now": None}
    data_mod = types.ModuleType("torch.utils.data")

    class IterableDataset:
        pass

    data_mod.IterableDataset = IterableDataset  # type: ignore[attr-defined]
    data_mod.get_worker_info = lambda: info["now"]  # type: ignore[attr-defined]
    utils_mod = types.ModuleType("torch.utils")
    utils_mod.data = data_mod  # type: ignore[attr-defined]
    torch_mod = types.ModuleType("torch")
    torch_mod.utils = utils_mod  # type: ignore[attr-defined]
    for name, mod in [("torch", torch_mod), ("torch.utils", utils_mod), ("torch.utils.data", data_mod)]:
        monkeypatch.setitem(sys.modules, name, mod)
    monkeypatch.delitem(sys.modules, "kibitz.analysis.dataset", raising=False)
    from kibitz.analysis.dataset import PgnDataset

    dataset = PgnDataset(files, chunk=500, shard_bytes=20_000)
    assert isinstance(dataset, IterableDataset) and len(dataset) == len(pgn_shards(files, 20_000))
    per_worker = []
    for worker in range(3):
        info["now"] = types.SimpleNamespace(id=worker, num_workers=3)
        per_shard = [list(read_shard(s, chunk=500)) for s in dataset.shards[worker::3]]
        got_w, want_w = joined(dataset), joined(c for s in per_shard for c in s)
        for key in ("planes", "moves", "results", "games"):
            assert np.array_equal(got_w[key], want_w[key]), (worker, key)
        per_worker.append(per_shard)
    info["now"] = None
    # Back in shard order: the chunks of shard i are worker i % 3's (i // 3)-th.
    in_order = [c for i in range(len(dataset.shards)) for c in per_worker[i % 3][i // 3]]
    got, want = joined(in_order), reference(files, chunk=500)
    for key in ("planes", "moves", "results"):
        assert np.array_equal(got[key], want[key]), key
    assert joined(dataset)["moves"].tolist() == want["moves"].tolist()  # outside a DataLoader: all
