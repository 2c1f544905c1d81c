"""Files written whole: a temporary file beside the target, fsynced, then renamed over it.

A full disk, a size limit or a kill in mid-write leaves the old file whole, never a shorter
one. The books (``kibitz.book``) and the HTML reports (``kibitz.report``) are written so.
A symbolic link is written through (its target is replaced, the link stays a link), and a
path that names something other than a regular file (a device such as ``/dev/null``, a
FIFO, a directory) is refused: a rename would put a regular file in its place.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from typing import Union

__all__ = ["write_atomically"]

PathLike = Union[str, "os.PathLike[str]"]


def write_atomically(path: PathLike, data: bytes) -> None:
    """Replaces the file at ``path`` (through symbolic links) by ``data`` at once, keeping
    its permission bits (a new file gets those of the umask). OSError, with the temporary
    file removed, when it cannot be done; ``IsADirectoryError`` for a directory and an
    ``OSError`` saying so for anything else that is not a regular file."""
    target = os.path.realpath(os.fspath(path))
    try:
        st = os.stat(target)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    else:
        if stat.S_ISDIR(st.st_mode):
            raise IsADirectoryError(errno.EISDIR, "is a directory", os.fspath(path))
        if not stat.S_ISREG(st.st_mode):
            raise OSError(
                errno.EINVAL, "not a regular file (it is written beside and renamed into place)", os.fspath(path)
            )
        mode = stat.S_IMODE(st.st_mode)
    directory = os.path.dirname(target)
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    try:  # make the rename itself durable
        dfd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dfd)
    except OSError:
        pass
    finally:
        os.close(dfd)
