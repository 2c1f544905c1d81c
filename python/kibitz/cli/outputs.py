"""The files a subcommand writes, checked before it starts any work: no output may be one of
its inputs or another of its outputs, and each must be writable, so that a long run never
ends by destroying what it read or by finding that its result has nowhere to go.

"The same file" means the same file, not the same spelling: paths that exist are compared
by device and inode after following symbolic links (a hard link, ``dir/./x``, a symlinked
directory all name their target), paths that do not exist yet by their resolved location.
Only regular files (and files still to be made) are compared: writing two outputs to
``/dev/null`` harms nothing.
"""

from __future__ import annotations

import os
import stat
import tempfile
from typing import Iterable, Optional, Union

__all__ = ["OutputError", "check_distinct", "check_replaceable"]

# A path, or an open file descriptor (the standard output).
Target = Union[str, "os.PathLike[str]", int]


class OutputError(ValueError):
    """An output that would overwrite an input or another output, or cannot be written
    (one line for the user)."""


def _identity(target: Target) -> Optional[tuple[object, ...]]:
    """What makes two targets the same file: ("inode", device, inode) for an existing
    regular file, ("new", resolved path) for a path with nothing there yet, None for
    anything else (a device, a pipe, a directory, a descriptor that is not a file)."""
    try:
        st = os.fstat(target) if isinstance(target, int) else os.stat(target)
    except FileNotFoundError:
        if isinstance(target, int):
            return None
        return ("new", os.path.realpath(target))
    except (OSError, ValueError):
        return None
    if not stat.S_ISREG(st.st_mode):
        return None
    return ("inode", st.st_dev, st.st_ino)


def _shown(what: str, target: Target) -> str:
    if isinstance(target, int):
        return f"{what} (the standard output)" if target == 1 else f"{what} (descriptor {target})"
    return f"{what} {os.fspath(target)}"


def check_distinct(
    inputs: Iterable[tuple[str, Optional[Target]]], outputs: Iterable[tuple[str, Optional[Target]]]
) -> None:
    """``inputs`` and ``outputs`` are (what it is, path or descriptor) pairs, such as
    ``("the input", "games.pgn")`` or ``("the records", 1)``; a None path is skipped.
    OutputError when an output is the same file as an input or as an output before it."""
    taken: dict[tuple[object, ...], str] = {}
    for what, target in inputs:
        if target is None:
            continue
        key = _identity(target)
        if key is not None:
            taken.setdefault(key, _shown(what, target))
    for what, target in outputs:
        if target is None:
            continue
        key = _identity(target)
        if key is None:
            continue
        if key in taken:
            raise OutputError(f"{_shown(what, target)} is the same file as {taken[key]}; refusing to overwrite it")
        taken[key] = _shown(what, target)


def check_replaceable(what: str, path: Union[str, "os.PathLike[str]"]) -> None:
    """For an output written whole into a temporary file beside it and renamed into place:
    OutputError unless ``path`` is a regular file or nothing, and its directory takes a
    new file (one is made there and removed again, which answers for permissions, read-only
    mounts and missing directories alike)."""
    shown = os.fspath(path)
    try:
        st: Optional[os.stat_result] = os.stat(path)
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise OutputError(f"cannot write {what} {shown}: {e.strerror or e}") from None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise OutputError(f"cannot write {what} {shown}: it is a directory")
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise OutputError(
            f"cannot write {what} {shown}: not a regular file (it is written beside and renamed into place)"
        )
    directory = os.path.dirname(os.path.abspath(path))
    try:
        fd, probe = tempfile.mkstemp(prefix=".kibitz-", suffix=".probe", dir=directory)
    except OSError as e:
        raise OutputError(f"cannot write {what} {shown}: {e.strerror or e}") from None
    os.close(fd)
    os.unlink(probe)
