"""Reading games fast: ``read_games(path)`` yields each game of a PGN file (plain, gzip or
zstd) as an ``InputGame``, tokenized and replayed in Rust (``kibitz._core.PgnReader``).

The input is a stream: one 64 KB chunk and one game are held at a time, so memory does not
grow with the file. A malformed game still comes out, with ``error`` saying what is wrong.
"""

from __future__ import annotations

import dataclasses
import gzip
import io
import os
import stat
import zlib
from dataclasses import dataclass, field
from typing import IO, Any, Iterator, Optional, Union

from kibitz._core import STARTING_FEN, PgnReader

# Magic numbers that open the two compressed formats (RFC 1952 for gzip, RFC 8878 for zstd).
_GZIP_MAGIC = b"\x1f\x8b"
_ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"

Source = Union[str, "os.PathLike[str]", IO[bytes]]


@dataclass(frozen=True)
class InputGame:
    """One game as read: its number in the input (1-based), the line it starts on, its tags
    (file order), the start position, the main line in UCI, the result token, and what is
    wrong with it (None for a good game; its ``moves`` then stop before the bad move)."""

    index: int
    line: int
    headers: dict[str, str]
    start_fen: str
    chess960: bool
    moves: list[str] = field(default_factory=list)
    result: Optional[str] = None
    error: Optional[str] = None

    def describe(self) -> str:
        """``game 12 (White - Black, Event, line 345)``: how messages name the game."""
        h = self.headers
        who = f"{h.get('White', '?')} - {h.get('Black', '?')}"
        event = f", {h['Event']}" if h.get("Event") else ""
        return f"game {self.index} ({who}{event}, line {self.line})"


class NotAPgnFile(ValueError):
    """A path that names something other than a file of games (a device, say)."""


def _damaged_errors() -> tuple[type[BaseException], ...]:
    """The exceptions decoders raise on damaged data: gzip's and zlib's, and zstandard's."""
    errors: list[type[BaseException]] = [zlib.error, gzip.BadGzipFile]
    try:
        import zstandard

        errors.append(zstandard.ZstdError)
    except ImportError:  # pragma: no cover - zstandard is a dependency
        pass
    return tuple(errors)


_DAMAGED = _damaged_errors()


class _ZstdStream:
    """A zstd decoder over ``raw`` that reads concatenated frames and, unlike a plain stream
    reader, notices a stream cut short inside a frame (raising EOFError, as gzip does). Uses
    the ``zstandard`` package (a dependency of kibitz)."""

    def __init__(self, raw: IO[bytes]) -> None:
        try:
            import zstandard
        except ImportError as e:  # pragma: no cover - zstandard is a dependency
            raise OSError("reading .zst needs the 'zstandard' package (pip install zstandard)") from e
        self._new = zstandard.ZstdDecompressor().decompressobj
        self._raw = raw
        self._obj = self._new()
        self._fed = False  # bytes of the current frame were fed
        self._out = b""

    def read(self, n: int) -> bytes:
        while not self._out:
            chunk = self._raw.read(1 << 16)
            if not chunk:
                if self._fed and not self._obj.eof:
                    raise EOFError("the zstd stream ends inside a frame")
                return b""
            while chunk:
                self._out += self._obj.decompress(chunk)
                self._fed = True
                chunk = b""
                if self._obj.eof:  # a frame ended: the rest belongs to the next one
                    chunk = self._obj.unused_data
                    self._obj = self._new()
                    self._fed = False
        out, self._out = self._out[:n], self._out[n:]
        return out

    def close(self) -> None:
        pass


class _Prefixed:
    """A readable object with a few bytes read ahead of it (to look at magic bytes)."""

    def __init__(self, raw: Any) -> None:
        self._raw = raw
        self._head: Union[bytes, str] = b""

    def peek(self, n: int) -> Union[bytes, str]:
        while len(self._head) < n:
            more = self._raw.read(n - len(self._head))
            if not more:
                break
            self._head = self._head + more if self._head else more
        return self._head[:n]

    def read(self, n: int = -1) -> Union[bytes, str]:
        if self._head:
            head, self._head = self._head, self._head[:0]
            return head
        out: Union[bytes, str] = self._raw.read(n)
        return out

    def tell(self) -> int:
        return int(self._raw.tell()) - len(self._head)

    def close(self) -> None:
        self._raw.close()


class _Opened:
    """A PGN source opened for reading: the decoded byte stream, and how far into the raw
    file reading has got (for progress estimates)."""

    def __init__(self, source: Source) -> None:
        self.cut: Optional[str] = None
        self.damaged = False
        self._own = not hasattr(source, "read")
        if self._own:
            self.raw: IO[bytes] = open(os.fspath(source), "rb")  # type: ignore[arg-type]
            mode = os.fstat(self.raw.fileno()).st_mode
            if not (stat.S_ISREG(mode) or stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)):
                self.raw.close()
                # A device (/dev/zero, a terminal) is endless or interactive: not a game file.
                raise NotAPgnFile(f"{os.fspath(source)!s} is not a regular file or a pipe")  # type: ignore[arg-type]
        else:
            self.raw = source  # type: ignore[assignment]
        try:
            self.size: Optional[int] = os.fstat(self.raw.fileno()).st_size
        except (OSError, AttributeError, io.UnsupportedOperation):
            self.size = None
        head = self._peek(4)
        self.stream: IO[bytes]
        if isinstance(head, str):
            # A text stream (as python-chess reads): already decoded, never compressed.
            self.stream = self.raw
        elif not isinstance(head, (bytes, bytearray)):
            raise TypeError(
                f"the PGN source's read() returned {type(head).__name__}, not bytes or str:"
                " open the file in binary mode"
            )
        elif head.startswith((b"\xff\xfe", b"\xfe\xff")):
            # UTF-16 with its byte-order mark (some Windows editors save so): decoded to text.
            self.stream = io.TextIOWrapper(self.raw, encoding="utf-16", errors="replace")  # type: ignore[assignment]
        elif head.startswith(_GZIP_MAGIC):
            self.stream = gzip.GzipFile(fileobj=self.raw, mode="rb")  # type: ignore[assignment]
        elif head.startswith(_ZSTD_MAGIC):
            self.stream = _ZstdStream(self.raw)  # type: ignore[assignment]
        else:
            self.stream = self.raw

    def _peek(self, n: int) -> Union[bytes, str]:
        if isinstance(self.raw, io.TextIOBase):
            return ""
        peek = getattr(self.raw, "peek", None)
        if peek is not None:
            return bytes(peek(n)[:n])
        seekable = getattr(self.raw, "seekable", None)
        if seekable is not None and seekable():
            pos = self.raw.tell()
            head = self.raw.read(n)
            self.raw.seek(pos)
            return head
        # A pipe or any object with read() only: read the magic bytes and put them back.
        prefixed = _Prefixed(self.raw)
        self.raw = prefixed  # type: ignore[assignment]
        return prefixed.peek(n)

    def read(self, n: int) -> bytes:
        """The decoded bytes, with a compressed stream cut short read as its end: the game it
        cuts is then reported truncated by the reader, and ``cut`` says what happened."""
        try:
            # read1: what the decoder has, without waiting to fill n (so a cut loses little).
            read1 = getattr(self.stream, "read1", None)
            return read1(n) if read1 is not None else self.stream.read(n)
        except EOFError as e:
            self.cut = f"the compressed input ends early ({e})"
            return b""
        except _DAMAGED as e:
            # A damaged compressed stream (bad data, a bad CRC): what came before it was read
            # and stands; the reader then reports the input as cut at this point.
            self.cut = f"the compressed input is damaged: {e}"
            self.damaged = True
            return b""

    def identity(self) -> Optional[tuple[int, int]]:
        """(device, inode) of the input when it is a regular file, to tell it from the outputs."""
        try:
            st = os.fstat(self.raw.fileno())
        except (OSError, AttributeError, ValueError, io.UnsupportedOperation):
            return None
        return (st.st_dev, st.st_ino) if stat.S_ISREG(st.st_mode) else None

    def fraction_read(self) -> Optional[float]:
        """Share of the raw file read so far, or None when its size is unknown."""
        if not self.size:
            return None
        try:
            return min(1.0, self.raw.tell() / self.size)
        except (OSError, ValueError, io.UnsupportedOperation):
            return None

    def close(self) -> None:
        if isinstance(self.stream, io.TextIOWrapper) and self.stream is not self.raw:
            self.stream.detach()  # leaves the underlying file open: it may be the caller's
        elif self.stream is not self.raw:
            self.stream.close()
        if self._own:
            self.raw.close()


def _games(opened: _Opened) -> Iterator[InputGame]:
    try:
        last: Optional[InputGame] = None
        # A game without its result token is whole where the input ends between two tokens
        # (a pasted game), unless a compressed input was cut there: such a game waits for
        # the next one (or the end) to be told apart.
        held: Optional[InputGame] = None
        for index, line, headers, fen, chess960, moves, result, error in PgnReader(opened):
            if held is not None:
                yield held
                held = None
            last = InputGame(index, line, headers, fen, chess960, moves, result, error)
            if result is None and error is None:
                held = last
            else:
                yield last
        if held is not None:
            if opened.cut is not None:
                held = dataclasses.replace(
                    held, error=f"truncated: the input ends before the game's result: {opened.cut}"
                )
            yield held
            if opened.cut is not None and not opened.damaged:
                return
        if opened.cut is not None and (last is None or last.error is None or opened.damaged):
            # Cut between two games, or damaged: say so in a game of its own rather than end
            # quietly (a game cut in the middle is already reported truncated).
            yield InputGame(
                (last.index if last else 0) + 1, 0, {}, STARTING_FEN, False, [], None, f"truncated: {opened.cut}"
            )
    finally:
        opened.close()


def open_games(source: Source) -> tuple[_Opened, Iterator[InputGame]]:
    """The opened source (for progress: ``fraction_read()``) and its games."""
    opened = _Opened(source)
    return opened, _games(opened)


def read_games(source: Source) -> Iterator[InputGame]:
    """Yields the games of a PGN file (a path, or a file object: binary, or text as
    python-chess reads), in order.

    ``.pgn.gz`` and ``.pgn.zst`` are recognised by their first bytes, and so is UTF-16 with a
    byte-order mark; text that is not UTF-8 is read as Windows-1252. A path must name a
    regular file or a pipe (NotAPgnFile, a ValueError, for a device). A damaged or cut
    compressed file ends with a game whose ``error`` says so, after every game before it. Each ``InputGame`` has
    ``headers`` (a dict in file order), ``start_fen``, ``moves`` (UCI) and ``error`` (None, or
    what is wrong with the game: a broken tag, a move that is not SAN, an illegal move, a
    file that ends inside the game).

    A game ends at its result token or where the next tag section begins, so a blank line
    inside movetext does not split a game; python-chess's ``read_game`` ends a game at the
    first blank line after its movetext starts. Well-formed files read the same with both;
    broken ones (a tag line without its "[") may be split differently."""
    return _games(_Opened(source))
