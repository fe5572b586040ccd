"""One way to write a file atomically: readers see the old file or the new one, never half.

Used for store entries, leader notes and budget heartbeats (``fsync=False``: transient or
re-recordable, and an fsync per store entry was measured too slow in issue 11), and for
user artifacts, report.json/.md/.html, plan.json and golden files (``fsync=True``: on disk
before the run says it wrote them).
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path


def atomic_write_text(path: Path, text: str, *, fsync: bool = False) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically, creating its folder if needed; with
    ``fsync`` the data and the rename are flushed to disk."""
    # Hidden, unique and in the same directory (same filesystem), so os.replace is atomic and
    # a leftover from a killed run never looks like an entry (".*.tmp" is git-ignored).
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        try:
            # 0o666: the umask decides the mode, like any file the user writes
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileNotFoundError:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        try:
            data = text.encode("utf-8")
            while data:
                data = data[os.write(fd, data):]
            if fsync:
                os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    if fsync:
        _fsync_folder(path.parent)


def _fsync_folder(folder: Path) -> None:
    """Flush a folder's entries (the rename) to disk, where the platform allows it."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
