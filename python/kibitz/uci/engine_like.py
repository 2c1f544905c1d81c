"""What the UCI front end needs of a search engine: ``kibitz.Engine`` has all of it, and the
tests' stand-ins (a scripted engine, a slow allocator) implement the same protocol, so the
front end uses plain attributes and mypy checks both against one list."""

from __future__ import annotations

from typing import Callable, Optional, Protocol

from kibitz._core import Board, SearchResult

__all__ = ["EngineFactory", "EngineLike"]


class EngineLike(Protocol):
    """The engine as the UCI front end drives it (``protocol.UciEngine``, its options'
    effects and its ``worker``)."""

    nnue: bool

    # Engine.search with its keyword limits (depth, nodes, the clock, ponder, multipv, on_info...).
    @property
    def search(self) -> Callable[..., SearchResult]: ...

    @property
    def hash_mb(self) -> int: ...

    @property
    def effective_threads(self) -> int: ...

    @property
    def thread_limit(self) -> int: ...

    @property
    def eval_file(self) -> Optional[str]: ...

    def stop(self) -> None: ...

    def ponderhit(self) -> None: ...

    def resize(self, hash_mb: int) -> None: ...

    def clear(self) -> None: ...

    def set_threads(self, threads: int) -> None: ...

    def set_features(self, features: dict[str, bool]) -> None: ...

    def set_syzygy(
        self, path: Optional[str], probe_depth: int = ..., probe_limit: int = ..., rule50: bool = ...
    ) -> int: ...

    def load_eval_file(self, path: str) -> None: ...

    def use_embedded_net(self) -> None: ...

    def evaluate(self, board: Board) -> int: ...


# Makes an engine with a table of the given megabytes (``kibitz.Engine`` itself is one).
EngineFactory = Callable[[int], EngineLike]
