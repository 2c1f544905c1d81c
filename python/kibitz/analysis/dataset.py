"""The training chunks of PGN files as a PyTorch ``IterableDataset`` (``PgnDataset``), for
the workers of a ``DataLoader``; importing this module imports torch, which kibitz does not
need otherwise (``pip install torch``)."""

from __future__ import annotations

import os
from typing import Any, Iterable, Iterator, Tuple, Union

from torch.utils.data import IterableDataset, get_worker_info

from kibitz.analysis.shards import SHARD_BYTES, _as_chunks, _check_chunk, _read_shard_raw, pgn_shards
from kibitz.tensor import PgnChunk, _plane_dtype

__all__ = ["PgnDataset"]


class PgnDataset(IterableDataset):  # type: ignore[misc]
    """The training chunks (``PgnChunk``) of PGN files: each ``DataLoader`` worker reads
    every ``num_workers``-th shard (``kibitz.analysis.shards.pgn_shards``). Use it with
    ``batch_size=None`` (the chunks are the batches), or rebatch the positions as the
    training loop wants. Games are numbered within each shard (a worker cannot know the games
    of the shards before its own); all workers' chunks together hold the positions of
    ``pgn_to_tensors`` over the same files."""

    def __init__(
        self,
        sources: Union[str, "os.PathLike[str]", Iterable[Union[str, "os.PathLike[str]"]]],
        chunk: int = 4096,
        canonical: bool = False,
        dtype: Any = None,
        *,
        shard_bytes: int = SHARD_BYTES,
    ) -> None:
        super().__init__()
        self.shards = pgn_shards(sources, shard_bytes)
        self.chunk = _check_chunk(chunk)
        self.canonical = canonical
        self.dtype = _plane_dtype(dtype)

    def __len__(self) -> int:
        """The number of shards (not of chunks or positions, which only reading tells)."""
        return len(self.shards)

    def __iter__(self) -> Iterator[PgnChunk]:
        worker, workers = _worker_info()
        name = self.dtype.newbyteorder("=").name
        for shard in self.shards[worker::workers]:
            parts, _ = _read_shard_raw(shard, self.chunk, self.canonical, name)
            yield from _as_chunks(parts, self.dtype, 0)


def _worker_info() -> Tuple[int, int]:
    """(this DataLoader worker's id, the number of workers); (0, 1) outside a DataLoader."""
    info = get_worker_info()
    return (0, 1) if info is None else (int(info.id), int(info.num_workers))
