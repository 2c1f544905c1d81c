"""Training data beyond one process: the games of many PGN files, or of one large file cut
into byte ranges, turned into planes on every core (``pgn_to_tensors_parallel``), in the
workers of a PyTorch ``DataLoader`` (``kibitz.analysis.dataset.PgnDataset``) or across
machines on Ray (``backend="ray"``).

A large plain file is cut into shards of about ``shard_bytes`` (``pgn_shards``): each cut is
moved forward to the next game start, a tag line (``[Name "``) right after a blank line,
which is where every PGN exporter starts a game; a cut that finds none stays out, and the
shard before it runs on. Compressed files (gzip, zstd) and files of other encodings are one
shard each. Each shard is read by its own ``PgnReader`` over its bytes alone (``read_shard``),
so a worker needs the path, not the data: on Ray the files must be where every node sees
them (a shared file system).

``pgn_to_tensors_parallel`` yields the chunks in the order of the files and of their
shards, with game numbers counted across all the sources (the n-th game read from them):
concatenated, its arrays are those of ``pgn_to_tensors`` over each source in turn, the
game numbers of each source raised by the games before it. Only the cut of the chunks
differs, since a chunk never spans two shards. ``PgnDataset`` gives each worker of a
``DataLoader`` every ``num_workers``-th shard and numbers games within each shard (a
worker cannot know the games of the shards before its own); its chunks together hold the
same positions.
"""

from __future__ import annotations

import collections
import mmap
import os
import re
import tempfile
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, Deque, Iterable, Iterator, List, NamedTuple, Optional, Sequence, Tuple, Union

from kibitz._core import PgnReader
from kibitz.analysis.backends import _mp_context, default_workers
from kibitz.tensor import PLANES, PgnChunk, _in_order, _numpy, _plane_dtype

__all__ = ["PgnShard", "pgn_shards", "pgn_to_tensors_parallel", "read_shard"]

# Bytes a shard is cut at: about 12,000 positions (55 MB of float32 planes) from game files
# of the usual density, enough to make a worker's start-up and the transfer of its arrays
# small beside the reading, few enough that a window of them in flight stays in memory.
SHARD_BYTES = 1 << 20
# Shards in flight per worker beyond the one it is on.
WINDOW_PER_WORKER = 2
# File names a directory given as a source contributes.
_PGN_SUFFIXES = (".pgn", ".pgn.gz", ".pgn.zst", ".pgn.zstd")
# A game start: a tag line after a blank line (LF or CR LF line ends).
_GAME_START = re.compile(rb"\n\r?\n(?=\[[A-Za-z0-9][A-Za-z0-9_+#=:-]*[ \t]+\")")
# Magic bytes of the files that are not cut (compressed; UTF-16).
_NOT_CUT = (b"\x1f\x8b", b"\x28\xb5\x2f\xfd", b"\xff\xfe", b"\xfe\xff")
# Bytes looked at for a game start after a cut, at a time.
_SEARCH = 1 << 16
# Where pool workers leave their planes for the parent (memory, not disk): Linux's tmpfs.
# Elsewhere they come through the pipe.
_SHM = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None

PathLike = Union[str, "os.PathLike[str]"]


class PgnShard(NamedTuple):
    """A part of a PGN file: its games starting from byte ``start`` up to byte ``end``
    (``None``: the end of the file)."""

    path: str
    start: int = 0
    end: Optional[int] = None


def _expand(sources: Union[PathLike, Iterable[PathLike]]) -> List[str]:
    """The files of ``sources`` (paths; a directory gives its PGN files, sorted by name)."""
    if isinstance(sources, (str, os.PathLike)):
        sources = [sources]
    elif hasattr(sources, "read"):
        raise TypeError(
            "PGN sources here are paths (each worker opens its own shard), not an open file: "
            "read a file object with pgn_to_tensors"
        )
    files: List[str] = []
    for source in sources:
        path = os.fspath(source)
        if os.path.isdir(path):
            names = sorted(n for n in os.listdir(path) if n.lower().endswith(_PGN_SUFFIXES))
            files.extend(os.path.join(path, n) for n in names)
        elif os.path.exists(path):
            files.append(path)
        else:
            raise FileNotFoundError(f"no such PGN file or directory: {path}")
    return files


def _next_game_start(f: Any, at: int, size: int) -> Optional[int]:
    """The byte offset of the first game start (a tag line after a blank line) at or after
    ``at``, or None before the end of the file."""
    pos = max(at - 3, 0)  # the blank line may begin just before the cut
    while pos < size:
        f.seek(pos)
        block = f.read(_SEARCH + 4)
        match = _GAME_START.search(block)
        if match is not None and pos + match.end() >= at:
            return pos + match.end()
        if len(block) <= 4:
            return None
        pos += len(block) - 4
    return None


def pgn_shards(sources: Union[PathLike, Iterable[PathLike]], shard_bytes: int = SHARD_BYTES) -> List[PgnShard]:
    """The shards of ``sources`` (PGN file paths; a directory stands for its ``.pgn``,
    ``.pgn.gz`` and ``.pgn.zst`` files, sorted): plain files larger than ``shard_bytes`` are
    cut at game starts, other files are one shard each."""
    if isinstance(shard_bytes, bool) or not isinstance(shard_bytes, int) or shard_bytes < 1:
        raise ValueError(f"shard_bytes must be a positive number of bytes, not {shard_bytes!r}")
    shards: List[PgnShard] = []
    for path in _expand(sources):
        size = os.path.getsize(path)
        with open(path, "rb") as f:
            head = f.read(4)
            if size <= shard_bytes or head.startswith(_NOT_CUT):
                shards.append(PgnShard(path))
                continue
            starts = [0]
            at = shard_bytes
            while at < size:
                start = _next_game_start(f, at, size)
                if start is None:
                    break
                if start > starts[-1]:
                    starts.append(start)
                at = max(start, at) + shard_bytes
        ends: List[Optional[int]] = [*starts[1:], None]
        shards.extend(PgnShard(path, s, e) for s, e in zip(starts, ends))
    return shards


class _ByteRange:
    """A binary file's bytes from ``start`` to ``end`` (None: its end), read as a file."""

    def __init__(self, path: str, start: int, end: Optional[int]) -> None:
        self._f = open(path, "rb")
        self._f.seek(start)
        self._left = None if end is None else end - start

    def read(self, n: int = -1) -> bytes:
        if self._left is not None:
            n = self._left if n < 0 else min(n, self._left)
        data = self._f.read(n)
        if self._left is not None:
            self._left -= len(data)
        return data

    def close(self) -> None:
        self._f.close()


def _chunks_of(
    reader: Any, chunk: int, canonical: bool, name: str
) -> List[Tuple[bytes, bytes, bytes, bytes, int, int]]:
    out = []
    while (part := reader.planes_chunk(chunk, canonical, name)) is not None:
        out.append(part)
    return out


def _read_shard_raw(
    shard: PgnShard, chunk: int, canonical: bool, name: str
) -> Tuple[List[Tuple[Any, Any, Any, Any, int, int]], int]:
    """A worker's job: the chunks of one shard as buffers, and the games it read."""
    if shard.start == 0 and shard.end is None:
        from kibitz.analysis.reader import _Opened  # the whole file: compressed ones too

        opened: Any = _Opened(shard.path)
    else:
        opened = _ByteRange(shard.path, shard.start, shard.end)
    try:
        reader = PgnReader(opened, lenient=True)
        return _chunks_of(reader, chunk, canonical, name), reader.games_read
    finally:
        opened.close()


class _Mapped(NamedTuple):
    """Planes a pool worker left in a file in shared memory (``_SHM``) for the parent to map."""

    path: str
    size: int


def _read_shard_mapped(
    shard: PgnShard, chunk: int, canonical: bool, name: str
) -> Tuple[List[Tuple[Any, Any, Any, Any, int, int]], int]:
    """``_read_shard_raw`` in a pool worker: the planes (nearly all the bytes) are written to
    files in shared memory, which the parent maps instead of receiving them through a pipe
    (a copy into the pickle, the pipe's two, one out of it)."""
    parts, games_read = _read_shard_raw(shard, chunk, canonical, name)
    out = []
    for planes, moves, results, games, n, skipped in parts:
        if len(planes):
            fd, path = tempfile.mkstemp(prefix="kibitz-planes-", dir=_SHM)
            with os.fdopen(fd, "wb") as f:
                f.write(planes)
            planes = _Mapped(path, len(planes))
        out.append((planes, moves, results, games, n, skipped))
    return out, games_read


def _read_shard_arrays(
    shard: PgnShard, chunk: int, canonical: bool, name: str
) -> Tuple[List[Tuple[Any, Any, Any, Any, int, int]], int]:
    """``_read_shard_raw`` as a Ray task: the planes as a NumPy array, which Ray keeps in its
    object store's shared memory and hands to the caller without a copy (read-only there)."""
    np = _numpy()
    parts, games_read = _read_shard_raw(shard, chunk, canonical, name)
    return [(np.frombuffer(p[0], np.uint8), *p[1:]) for p in parts], games_read


def _planes_buffer(planes: Any) -> Any:
    """The planes' bytes: as given, or mapped from a worker's file (removed at once: the
    mapping keeps its memory until the array is gone). The mapping is private and
    writable, as the arrays of one process are."""
    if not isinstance(planes, _Mapped):
        return planes
    with open(planes.path, "r+b") as f:
        os.unlink(planes.path)
        return mmap.mmap(f.fileno(), planes.size, access=mmap.ACCESS_COPY)


def _discard(parts: Sequence[Tuple[Any, ...]]) -> None:
    """Removes the shared-memory files of results that will not be read."""
    for part in parts:
        if isinstance(part[0], _Mapped):
            try:
                os.unlink(part[0].path)
            except OSError:
                pass


def _as_chunks(parts: Sequence[Tuple[Any, Any, Any, Any, int, int]], dtype: Any, first_game: int) -> Iterator[PgnChunk]:
    np = _numpy()
    name = dtype.newbyteorder("=").name
    for planes, moves, results, games, n, skipped in parts:
        planes = _planes_buffer(planes)
        numbers = np.frombuffer(games, np.int64)
        if first_game:
            numbers = numbers + first_game
        yield PgnChunk(
            _in_order(np.frombuffer(planes, name).reshape(n, PLANES, 8, 8), dtype),
            np.frombuffer(moves, np.int32),
            np.frombuffer(results, np.int8),
            numbers,
            skipped,
        )


def _check_chunk(chunk: int) -> int:
    if isinstance(chunk, bool) or not isinstance(chunk, int) or chunk < 1:
        raise ValueError(f"chunk must be a positive number of positions, not {chunk!r}")
    return min(chunk, 1 << 40)


def read_shard(shard: PgnShard, chunk: int = 4096, canonical: bool = False, dtype: Any = None) -> Iterator[PgnChunk]:
    """The training chunks of one shard (``pgn_to_tensors``'s, games numbered within the
    shard): the unit of work for a scheduler of one's own (Ray Data, a job queue)."""
    dt = _plane_dtype(dtype)
    parts, _ = _read_shard_raw(PgnShard(*shard), _check_chunk(chunk), canonical, dt.newbyteorder("=").name)
    yield from _as_chunks(parts, dt, 0)


def pgn_to_tensors_parallel(
    sources: Union[PathLike, Iterable[PathLike]],
    chunk: int = 4096,
    canonical: bool = False,
    dtype: Any = None,
    *,
    workers: Optional[int] = None,
    backend: str = "pool",
    shard_bytes: int = SHARD_BYTES,
    address: Optional[str] = None,
) -> Iterator[PgnChunk]:
    """``pgn_to_tensors`` over many files, or one large file, on every core: ``backend``
    "pool" (``workers`` processes, default one per core), "serial" (this process; the
    reference the others equal) or "ray" (the tasks of a Ray cluster, ``address`` as
    ``ray.init`` takes it; the files must be visible to every node; the planes are
    read-only views of Ray's object store). Chunks come in the
    order of the sources and their shards, games numbered across all of them; at most a few
    shards per worker are in flight, so memory stays bounded whatever the input's size.
    Bad arguments and missing files raise here, not at the first chunk."""
    dt = _plane_dtype(dtype)
    chunk = _check_chunk(chunk)
    name = dt.newbyteorder("=").name
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise ValueError(f"workers must be a positive number of processes (or None: one per core), not {workers!r}")
    if backend not in ("serial", "pool", "ray"):
        raise ValueError(f"backend must be 'serial', 'pool' or 'ray', not {backend!r}")
    shards = pgn_shards(sources, shard_bytes)
    if backend == "serial":
        results: Iterator[Tuple[List[Any], int]] = (_read_shard_raw(s, chunk, canonical, name) for s in shards)
    elif backend == "pool":
        results = _pool(shards, chunk, canonical, name, workers or default_workers())
    else:
        results = _ray(shards, chunk, canonical, name, address)
    return _numbered(results, dt)


def _numbered(results: Iterator[Tuple[List[Any], int]], dt: Any) -> Iterator[PgnChunk]:
    """The chunks of the shards' results, games numbered across all of them."""
    first_game = 0
    for parts, games_read in results:
        yield from _as_chunks(parts, dt, first_game)
        first_game += games_read


def _pool(
    shards: List[PgnShard], chunk: int, canonical: bool, name: str, workers: int
) -> Iterator[Tuple[List[Any], int]]:
    if workers <= 1 or len(shards) <= 1:
        for one in shards:
            yield _read_shard_raw(one, chunk, canonical, name)
        return
    window = workers * (1 + WINDOW_PER_WORKER)
    pending: Deque["Future[Tuple[List[Any], int]]"] = collections.deque()
    it = iter(shards)
    with ProcessPoolExecutor(max_workers=workers, mp_context=_mp_context()) as ex:
        try:
            while True:
                while len(pending) < window and (s := next(it, None)) is not None:
                    task = _read_shard_mapped if _SHM else _read_shard_raw
                    pending.append(ex.submit(task, s, chunk, canonical, name))
                if not pending:
                    return
                yield pending.popleft().result()
        finally:
            for f in pending:
                if not f.cancel() and not f.exception():
                    _discard(f.result()[0])


def _ray(
    shards: List[PgnShard], chunk: int, canonical: bool, name: str, address: Optional[str]
) -> Iterator[Tuple[List[Any], int]]:
    try:
        import ray
    except ImportError as e:
        raise RuntimeError("the ray backend needs Ray: pip install 'kibitz[ray]'") from e
    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False, log_to_driver=False, configure_logging=False)
    task = ray.remote(num_cpus=1)(_read_shard_arrays)
    cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
    window = cpus * (1 + WINDOW_PER_WORKER)
    pending: Deque[Any] = collections.deque()
    it = iter(shards)
    try:
        while True:
            while len(pending) < window and (s := next(it, None)) is not None:
                pending.append(task.remote(s, chunk, canonical, name))
            if not pending:
                return
            yield ray.get(pending.popleft())
    finally:
        for ref in pending:
            ray.cancel(ref)
