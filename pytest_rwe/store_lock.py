"""File primitives of the response store: atomic writes and cross-process lock files.

Both work on any local POSIX or Windows filesystem with no extra dependency:
- an entry is written to a temporary file in its own directory, flushed, fsync'ed and moved
  over the target with ``os.replace`` (atomic), so a killed run never leaves a torn entry;
- a lock is a file created with ``O_CREAT | O_EXCL`` (exactly one creator wins) holding the
  owner's pid, host name, creation time and a random token. A lock whose owner is dead (same
  host) or that is older than a timeout is stale and may be broken.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import socket
import time
from dataclasses import dataclass
from pathlib import Path

# A lock file is written right after it is created; one still empty after this many seconds
# belongs to a process killed in between.
TORN_LOCK_GRACE_S = 5.0


def atomic_write_text(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically: readers see the old file or the new one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    # Hidden, unique and in the same directory (same filesystem), so os.replace is atomic and
    # a leftover from a killed run never looks like an entry.
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    _fsync_dir(path.parent)


_GITIGNORE = "# Created by pytest-rwe: transient files of the response store.\n.locks/\n.*.tmp\n"


def ensure_gitignore(root: Path) -> None:
    """Keep the store's transient files (locks, temporary files) out of git."""
    path = root / ".gitignore"
    if path.exists():
        return
    with contextlib.suppress(FileExistsError):
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(_GITIGNORE)


def _fsync_dir(directory: Path) -> None:
    # Makes the rename itself durable on POSIX; not possible (nor needed) on Windows.
    if os.name != "posix":
        return
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


@dataclass(frozen=True)
class LockInfo:
    """What a lock file says about its owner."""

    pid: int
    host: str
    created: float  # epoch seconds
    token: str
    run_id: str


def pid_alive(pid: int) -> bool:
    """Whether process ``pid`` exists on this host."""
    if pid <= 0:
        return False
    if os.name == "nt":
        return True  # os.kill(pid, 0) would terminate it on Windows: rely on the age timeout
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # exists, owned by someone else
    except OSError:
        return True  # cannot tell: rely on the age timeout
    return True


def try_lock(path: Path, run_id: str) -> LockInfo | None:
    """Create lock file ``path``; the new lock's info, or None when someone else holds it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    except FileExistsError:
        return None
    info = LockInfo(os.getpid(), socket.gethostname(), time.time(), secrets.token_hex(8), run_id)
    payload = {
        "pid": info.pid,
        "host": info.host,
        "created": info.created,
        "token": info.token,
        "run_id": info.run_id,
    }
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump(payload, handle)
    return info


def read_lock(path: Path) -> LockInfo | None:
    """The info in lock file ``path``; None when it is missing, empty or unreadable."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return LockInfo(
            int(data["pid"]),
            str(data["host"]),
            float(data["created"]),
            str(data["token"]),
            str(data.get("run_id", "")),
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None


def lock_is_stale(path: Path, stale_after: float, now: float | None = None) -> bool:
    """Whether the lock at ``path`` may be broken: owner dead on this host, or too old."""
    now = time.time() if now is None else now
    info = read_lock(path)
    if info is None:
        try:
            age = now - path.stat().st_mtime
        except OSError:
            return False  # gone already: nothing to break
        return age > min(TORN_LOCK_GRACE_S, stale_after)
    if info.host == socket.gethostname() and not pid_alive(info.pid):
        return True
    return now - info.created > stale_after


def break_lock(path: Path, stale_after: float) -> bool:
    """Remove ``path`` if it is (still) stale; True when it was removed.

    Two waiters may judge the same lock stale at once; re-reading it just before unlinking
    narrows the window in which one could remove a fresh lock the other just created. The
    worst case left is one duplicate model call, never a torn entry.
    """
    before = read_lock(path)
    if not lock_is_stale(path, stale_after):
        return False
    if read_lock(path) != before:
        return False
    try:
        path.unlink()
    except FileNotFoundError:
        return False
    return True


def release_lock(path: Path, token: str) -> None:
    """Remove lock ``path`` if it is still ours (a stale-broken lock may now be another's)."""
    info = read_lock(path)
    if info is not None and info.token == token:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
