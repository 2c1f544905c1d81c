"""Helpers for driving a real ``kibitz`` process over UCI in tests.

``kibitz_command()`` is the command that starts the engine: ``python -m kibitz`` with the
real search (``kibitz.Engine``). ``RawUci`` sends raw lines and waits for output lines
with timeouts, so protocol details and bad input can be checked line by line.
"""

from __future__ import annotations

import io
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Callable, List, Optional, Union

import kibitz

HERE = Path(__file__).resolve().parent


def has_real_engine() -> bool:
    return hasattr(kibitz, "Engine")


def kibitz_command() -> List[str]:
    """How to start kibitz: ``python -m kibitz`` (the same as the ``kibitz`` script) with
    the real search. These tests need ``kibitz.Engine``; without it they fail."""
    assert has_real_engine(), "kibitz.Engine is missing: build the extension (maturin develop --release)"
    return [sys.executable, "-m", "kibitz"]


class Out(io.StringIO):
    """The output of an in-process session (``kibitz.uci.UciEngine(out, ...)``): what it
    wrote, as lines, with the lock the session writes under."""

    def __init__(self) -> None:
        super().__init__()
        self.lock = threading.Lock()

    def lines(self) -> List[str]:
        return self.getvalue().splitlines()

    def bestmoves(self) -> List[str]:
        return [line for line in self.lines() if line.startswith("bestmove")]


Match = Union[str, Callable[[str], bool]]


class RawUci:
    def __init__(self, cmd: Optional[List[str]] = None) -> None:
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen(
            cmd or kibitz_command(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            bufsize=0,
        )
        self.lines: "queue.Queue[Optional[str]]" = queue.Queue()
        self.seen: List[str] = []
        self.stderr = b""
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_err, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for raw in self.proc.stdout:
            self.lines.put(raw.decode("utf-8", "replace").rstrip("\r\n"))
        self.lines.put(None)

    def _read_err(self) -> None:
        assert self.proc.stderr is not None
        self.stderr = self.proc.stderr.read()

    def send(self, line: Union[str, bytes]) -> None:
        assert self.proc.stdin is not None
        data = line if isinstance(line, bytes) else line.encode()
        self.proc.stdin.write(data + b"\n")
        self.proc.stdin.flush()

    def expect(self, match: Match, timeout: float = 20.0) -> str:
        """The first output line that matches (a prefix, or a predicate); every line read
        on the way is kept in ``seen``. AssertionError on timeout or end of output."""
        pred = match if callable(match) else (lambda s: s.startswith(match))  # type: ignore[misc]
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"timed out waiting for {match!r}; last lines: {self.seen[-10:]}")
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                self.lines.put(None)
                raise AssertionError(
                    f"output ended waiting for {match!r}; last lines: {self.seen[-10:]}; "
                    f"stderr: {self.stderr[-2000:]!r}"
                )
            self.seen.append(line)
            if pred(line):
                return line

    def collect(self, seconds: float) -> List[str]:
        """Every line that arrives within ``seconds``."""
        out = []
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                break
            if line is None:
                self.lines.put(None)
                break
            self.seen.append(line)
            out.append(line)
        return out

    def sync(self, timeout: float = 20.0) -> List[str]:
        """Send isready, wait for readyok; the lines before it."""
        start = len(self.seen)
        self.send("isready")
        self.expect("readyok", timeout)
        return self.seen[start:-1]

    def alive(self) -> bool:
        return self.proc.poll() is None

    def close(self, timeout: float = 20.0) -> int:
        if self.alive():
            try:
                self.send("quit")
            except (BrokenPipeError, OSError):
                pass
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise AssertionError("kibitz did not exit after quit")
