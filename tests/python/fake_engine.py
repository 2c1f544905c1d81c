"""A stand-in for ``kibitz.Engine`` with the agreed interface, playing random legal moves.

Used to develop and test the UCI layer without the Rust search: each "iteration" takes a
few milliseconds (growing with depth), reports through ``on_info`` and honours depth,
nodes, the clock (through the engine's own budget, ``kibitz.timeman.time_budget``),
movetime, soft/hard limits, pondering with ``ponderhit()`` and ``stop()`` like the real
search is specified to.
``install()`` puts it at ``kibitz.Engine`` when the package has none.
"""

from __future__ import annotations

import random
import threading
import time
from types import SimpleNamespace
from typing import Any, Callable, Optional, Sequence

MAX_DEPTH = 64


class FakeEngine:
    # kibitz.uci.engine_like.EngineLike's attributes: the net is on, one thread searches.
    nnue = True
    eval_file = None
    effective_threads = 1
    thread_limit = 1

    def __init__(self, hash_mb: int = 16) -> None:
        self.hash_mb = hash_mb
        self._stop = threading.Event()
        self._ponderhit = threading.Event()
        self._rng = random.Random(1)

    def resize(self, hash_mb: int) -> None:
        self.hash_mb = hash_mb

    def set_threads(self, threads: int) -> None:
        pass

    def clear(self) -> None:
        pass

    def hashfull(self) -> int:
        return 0

    def stop(self) -> None:
        self._stop.set()

    def ponderhit(self) -> None:
        self._ponderhit.set()

    def search(
        self,
        board: Any,
        *,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        movetime_ms: Optional[int] = None,
        wtime_ms: Optional[int] = None,
        btime_ms: Optional[int] = None,
        winc_ms: Optional[int] = None,
        binc_ms: Optional[int] = None,
        movestogo: Optional[int] = None,
        overhead_ms: Optional[int] = None,
        soft_ms: Optional[int] = None,
        hard_ms: Optional[int] = None,
        ponder: bool = False,
        multipv: int = 1,
        searchmoves: Optional[Sequence[str]] = None,
        on_info: Optional[Callable[[Any], None]] = None,
    ) -> Any:
        from kibitz.timeman import DEFAULT_MOVE_OVERHEAD_MS, time_budget

        self._stop.clear()
        start = time.monotonic()
        clock = wtime_ms if board.turn else btime_ms
        if clock is not None or movetime_ms is not None:
            inc = (winc_ms if board.turn else binc_ms) or 0
            default = DEFAULT_MOVE_OVERHEAD_MS if clock is not None else 0
            soft, _, hard, fixed = time_budget(
                time_left_ms=clock,
                inc_ms=inc,
                movestogo=movestogo,
                movetime_ms=movetime_ms,
                overhead_ms=default if overhead_ms is None else overhead_ms,
            )
            hard_ms = hard if hard_ms is None else min(hard, hard_ms)
            soft_ms = None if fixed else soft
            movetime_ms = None
        # Pondering: no time limit until ponderhit, then the budget counts from then.
        pondering = ponder and not self._ponderhit.is_set()
        timed_limits = (hard_ms if movetime_ms is None else movetime_ms, soft_ms)
        moves = list(board.legal_moves_uci())
        if searchmoves:
            moves = [m for m in moves if m in searchmoves] or moves
        if not moves:
            mate = board.is_checkmate()
            return SimpleNamespace(
                best_move=None,
                ponder=None,
                score_cp=None if mate else 0,
                mate=0 if mate else None,
                depth=0,
                seldepth=0,
                nodes=0,
                time_ms=0,
                nps=0,
                hashfull=0,
                pv=[],
                bound="exact",
                lines=[],
                checkmate=mate,
                stalemate=not mate,
            )
        limit_ms = None
        for v in (movetime_ms, hard_ms):
            if v is not None:
                limit_ms = v if limit_ms is None else min(limit_ms, v)
        result = None
        d = 0
        while True:
            d += 1
            iter_ms = min(2.0 * 1.4**d, 200.0)
            if pondering:
                limit_ms, soft_ms = None, None
                if self._ponderhit.is_set():
                    pondering = False
                    limit_ms, soft_ms = timed_limits
                    start = time.monotonic()
                else:
                    iter_ms = min(iter_ms, 5.0)
            elapsed = (time.monotonic() - start) * 1000
            if limit_ms is not None:
                iter_ms = min(iter_ms, max(0.0, limit_ms - elapsed))
            if self._stop.wait(iter_ms / 1000) and result is not None:
                break
            elapsed = (time.monotonic() - start) * 1000
            lines = []
            picks = self._rng.sample(moves, min(multipv, len(moves)))
            for i, m in enumerate(picks):
                b = board.copy()
                b.push_uci(m)
                reply = b.legal_moves_uci()
                pv = [m] + ([reply[0]] if reply else [])
                lines.append(
                    SimpleNamespace(
                        multipv=i + 1,
                        score_cp=self._rng.randint(-50, 50) - 10 * i,
                        mate=None,
                        pv=pv,
                        depth=d,
                        seldepth=d + 2,
                        bound="exact",
                    )
                )
            n = 1000 * d
            result = SimpleNamespace(
                best_move=lines[0].pv[0],
                ponder=lines[0].pv[1] if len(lines[0].pv) > 1 else None,
                score_cp=lines[0].score_cp,
                mate=None,
                depth=d,
                seldepth=d + 2,
                nodes=n,
                time_ms=int(elapsed),
                nps=int(n * 1000 / max(elapsed, 1)),
                hashfull=0,
                pv=lines[0].pv,
                bound="exact",
                lines=lines,
                checkmate=False,
                stalemate=False,
            )
            if on_info is not None:
                for line in lines:
                    info = SimpleNamespace(**vars(result))
                    for k, v in vars(line).items():
                        setattr(info, k, v)
                    on_info(info)
            if self._stop.is_set():
                break
            if pondering:
                continue
            if depth is not None and d >= depth:
                break
            if nodes is not None and n >= nodes:
                break
            if limit_ms is not None and elapsed >= limit_ms:
                break
            if soft_ms is not None and elapsed >= soft_ms:
                break
            if d >= MAX_DEPTH:
                break
        self._ponderhit.clear()  # as the real engine: lowered when a search ends
        return result


def install() -> None:
    import kibitz

    if not hasattr(kibitz, "Engine"):
        kibitz.Engine = FakeEngine  # type: ignore[attr-defined]
