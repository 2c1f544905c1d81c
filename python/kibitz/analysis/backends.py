"""Where games are analysed: in this process, in a pool of worker processes (the default,
one per core), or on a Ray cluster (``pip install kibitz[ray]``).

Every backend yields records in input order and holds only a bounded window of games in
flight, so memory does not grow with the input. Each worker owns one single-threaded
``Engine`` and clears it before every game (``analyse_game``), which is what makes the
records independent of the backend and of the number of workers.
"""

from __future__ import annotations

import collections
import multiprocessing
import os
import signal
import sys
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, Callable, Deque, Iterable, Iterator, Optional, Union

from kibitz._core import Engine
from kibitz.analysis.game import Limits, analyse_game, error_record
from kibitz.analysis.reader import InputGame

# Games queued per worker beyond the one it is on: enough that no worker waits for the
# reader, few enough that a long run holds only a handful of games in memory.
WINDOW_PER_WORKER = 4
# Games per Ray task: each task pays a scheduling round trip (milliseconds) and builds an
# engine; a few games per task make that negligible against seconds of search per game.
RAY_CHUNK = 4


def default_workers() -> int:
    """One worker per core this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def position_counter() -> Any:
    """A count of the positions searched, shared with the worker processes: ``pool`` and
    ``serial`` add one after each search, so that progress moves within a game."""
    return _mp_context().Value("q", 0)


def _ticker(counter: Any) -> Optional[Callable[[], None]]:
    if counter is None:
        return None

    def tick() -> None:
        with counter.get_lock():
            counter.value += 1

    return tick


def serial(games: Iterable[InputGame], limits: Limits, counter: Any = None) -> Iterator[dict[str, Any]]:
    """Analyses in this process, one game after the other."""
    engine = limits.engine()
    tick = _ticker(counter)
    for game in games:
        yield analyse_game(engine, game, limits, tick)


# -------------------------------------------------------------------- process pool

_worker_engine: Optional[Engine] = None
_worker_limits: Optional[Limits] = None
_worker_tick: Optional[Callable[[], None]] = None


def _end_with_parent(parent: int) -> None:
    """Makes this worker end when the process that started it ends, however it ends (a
    SIGTERM or SIGKILL to the parent leaves no one to tell the worker): on Linux the kernel
    sends SIGTERM (prctl PR_SET_PDEATHSIG); elsewhere a thread watches the parent's id."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            PR_SET_PDEATHSIG = 1
            if libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0) == 0:
                if os.getppid() != parent:  # the parent ended before the request was made
                    os._exit(1)
                return
        except (OSError, AttributeError):
            pass

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="kibitz-parent-watch", daemon=True).start()


def _init_worker(limits: Limits, parent: int, counter: Any = None) -> None:
    """Worker start: its own engine; Ctrl-C is the parent's business (it stops the pool);
    the worker ends when the parent does."""
    global _worker_engine, _worker_limits, _worker_tick
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    # Forked with both blocked (see `_launch`): what came meanwhile is handled as above now.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)
    _end_with_parent(parent)
    _worker_engine = limits.engine()
    _worker_limits = limits
    _worker_tick = _ticker(counter)


def _analyse_in_worker(game: InputGame) -> dict[str, Any]:
    assert _worker_engine is not None and _worker_limits is not None
    return analyse_game(_worker_engine, game, _worker_limits, _worker_tick)


def _mp_context() -> Any:
    """fork where it is safe and fast (Linux: no main-module re-import, workers start in
    milliseconds); spawn elsewhere (macOS and Windows)."""
    if sys.platform.startswith("linux"):
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


# The signals that stop a run: the parent's to handle, never a worker's.
_STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}


def _noop() -> None:
    """A task that makes the pool start its workers."""


def _launch(executor: ProcessPoolExecutor) -> None:
    """Starts the pool's workers with Ctrl-C and SIGTERM held back: a worker forked with
    the parent's handlers, or a parent interrupted while forking, would print a worker's
    traceback, lose the interrupt or hang in the pool's own locks. Held back, a stop that
    comes meanwhile reaches the parent once the workers are made, and the workers (which
    release the signals after setting their own handlers) ignore it."""
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
    try:
        executor.submit(_noop)  # with fork, the first task starts every worker
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def pool(games: Iterable[InputGame], limits: Limits, workers: int, counter: Any = None) -> Iterator[dict[str, Any]]:
    """Analyses on ``workers`` processes; yields records in input order. ``counter`` (from
    ``position_counter``) counts the positions searched as they are."""
    if workers <= 1:
        yield from serial(games, limits, counter)
        return
    window = workers * (1 + WINDOW_PER_WORKER)
    pending: Deque[Union["Future[dict[str, Any]]", dict[str, Any]]] = collections.deque()
    executor = ProcessPoolExecutor(
        max_workers=workers, mp_context=_mp_context(), initializer=_init_worker, initargs=(limits, os.getpid(), counter)
    )
    try:
        _launch(executor)
        it = iter(games)
        exhausted = False
        read_error: Optional[Exception] = None
        while True:
            while not exhausted and len(pending) < window:
                try:
                    game = next(it, None)
                except Exception as e:
                    # The input failed: the games read before it are still analysed and
                    # yielded, as one worker would; the error comes after them.
                    read_error = e
                    game = None
                if game is None:
                    exhausted = True
                elif game.error is not None:
                    pending.append(error_record(game, limits))  # nothing to search
                else:
                    pending.append(executor.submit(_analyse_in_worker, game))
            if not pending:
                break
            head = pending.popleft()
            yield head if isinstance(head, dict) else head.result()
        if read_error is not None:
            raise read_error
    except BaseException:
        # Ctrl-C, or the consumer stopped early: end the workers now rather than wait for
        # each to finish its game (minutes at large budgets). ProcessPoolExecutor has no
        # public way to do this; its process table is stable since Python 3.8.
        for process in list(getattr(executor, "_processes", {}).values()):
            process.terminate()
        raise
    finally:
        executor.shutdown(wait=True, cancel_futures=True)


# -------------------------------------------------------------------- Ray


def require_ray() -> None:
    """RuntimeError with what to install when Ray cannot be imported."""
    try:
        import ray  # noqa: F401
    except ImportError as e:
        raise RuntimeError("the ray backend needs Ray: pip install 'kibitz[ray]'") from e


def _analyse_chunk(games: list[InputGame], limits: Limits) -> list[dict[str, Any]]:
    """A Ray task: a few games on one engine, cleared before each."""
    engine = limits.engine()
    return [analyse_game(engine, g, limits) for g in games]


def ray_cluster(
    games: Iterable[InputGame], limits: Limits, address: Optional[str] = None, chunk: int = RAY_CHUNK
) -> Iterator[dict[str, Any]]:
    """Analyses on a Ray cluster (``address``; None starts or joins a local one), chunks of
    ``chunk`` games per task, one CPU per task; yields records in input order."""
    require_ray()
    import ray

    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False, log_to_driver=False, configure_logging=False)
    task = ray.remote(num_cpus=1)(_analyse_chunk)
    limits_ref = ray.put(limits)
    cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
    window = 2 * cpus
    pending: Deque[Any] = collections.deque()
    it = iter(games)
    exhausted = False
    while True:
        while not exhausted and len(pending) < window:
            batch: list[InputGame] = []
            while len(batch) < chunk:
                game = next(it, None)
                if game is None:
                    exhausted = True
                    break
                batch.append(game)
            if batch:
                pending.append(task.remote(batch, limits_ref))
        if not pending:
            break
        yield from ray.get(pending.popleft())
