"""File primitives of the response store: atomic writes and cross-process lock files.

Both work on any local POSIX or Windows filesystem with no extra dependency:
- an entry is written to a temporary file in its own directory and moved over the target
  with ``os.replace`` (atomic), so a killed run never leaves a torn entry, and an entry
  written is there for the next run however the process ends (killed, out of memory,
  interrupted): the kernel has it. Entries are not fsync'ed: that would only guard against
  the machine itself crashing, costs system time on every call, and a file a crash did tear
  is detected when read (:func:`pytest_rwe.store.entry.decode_entry`) and recorded again,
  never used;
- a lock is a file created with ``O_CREAT | O_EXCL`` (exactly one creator wins) holding the
  owner's pid, its start time, host name, creation time and a random token. A lock whose
  owner is dead (same host) or that is older than a timeout is stale and may be broken.

"Dead" is read from ``/proc`` where there is one: a process that is gone, a zombie (killed
but not yet reaped by its parent, as xdist leaves a killed worker: ``kill(pid, 0)`` still
succeeds for it) or a new process that reuses the pid (another start time) is dead.
Elsewhere ``kill(pid, 0)`` decides, and heartbeats or ages catch what it cannot.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

# A lock file is written right after it is created; one still empty after this many seconds
# belongs to a process killed in between.
TORN_LOCK_GRACE_S = 5.0


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


@dataclass(frozen=True)
class LockInfo:
    """What a lock file says about its owner."""

    pid: int
    host: str
    created: float  # epoch seconds
    token: str
    run_id: str
    start: int | None = None  # the owner's start time (see process_start), when known


#: a lock owner that is alive but has stopped working (its heartbeat is old), if known
OwnerCheck = Callable[[LockInfo], bool]


def _proc_stat(pid: int) -> tuple[str, int] | None:
    """(state letter, start time in clock ticks since boot) of ``pid`` from ``/proc``.

    None when this system has no ``/proc``; raises ProcessLookupError when ``pid`` is gone.
    """
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            data = handle.read()
    except FileNotFoundError:
        if os.path.isdir("/proc/self"):
            raise ProcessLookupError(pid) from None
        return None
    except OSError:
        return None
    # "pid (comm) S ppid ...": comm may hold spaces and parentheses, so split after the last ")"
    fields = data[data.rfind(b")") + 2:].split()
    try:
        return fields[0].decode("ascii", "replace"), int(fields[19])
    except (IndexError, ValueError):
        return None


def process_start(pid: int | None = None) -> int | None:
    """The start time of ``pid`` (this process by default), or None where it cannot be read.

    With the pid it identifies one process for good: a pid reused later has another start.
    """
    try:
        stat = _proc_stat(os.getpid() if pid is None else pid)
    except ProcessLookupError:
        return None
    return None if stat is None else stat[1]


def pid_alive(pid: int, start: int | None = None) -> bool:
    """Whether process ``pid`` runs on this host: not gone, not a zombie, and (when ``start``
    is given and can be checked) the same process that had that start time."""
    if pid <= 0:
        return False
    try:
        stat = _proc_stat(pid)
    except ProcessLookupError:
        return False
    if stat is not None:
        state, started = stat
        if state in ("Z", "X", "x"):  # zombie or dead: it will never answer again
            return False
        return start is None or started == start
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


@dataclass(frozen=True)
class ProcessId:
    """One process for good: pid, host and start time (a reused pid has another start)."""

    pid: int
    host: str
    start: int | None

    def alive(self) -> bool:
        """Known to run (always True for a process on another host: it cannot be checked)."""
        return self.host != me().host or pid_alive(self.pid, self.start)


_ME: ProcessId | None = None


def me() -> ProcessId:
    """This process (read once; a forked child reads its own)."""
    global _ME
    if _ME is None or _ME.pid != os.getpid():
        _ME = ProcessId(os.getpid(), socket.gethostname(), process_start())
    return _ME


def try_lock(path: Path, run_id: str) -> LockInfo | None:
    """Create lock file ``path``; the new lock's info, or None when someone else holds it."""
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True)
        return try_lock(path, run_id)
    except FileExistsError:
        return None
    owner = me()
    info = LockInfo(owner.pid, owner.host, time.time(), secrets.token_hex(8), run_id,
                    owner.start)
    payload = {
        "pid": info.pid,
        "host": info.host,
        "start": info.start,
        "created": info.created,
        "token": info.token,
        "run_id": info.run_id,
    }
    try:
        os.write(fd, json.dumps(payload).encode())
    finally:
        os.close(fd)
    return info


def read_lock(path: Path) -> LockInfo | None:
    """The info in lock file ``path``; None when it is missing, empty or unreadable."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        start = data.get("start")
        return LockInfo(
            int(data["pid"]),
            str(data["host"]),
            float(data["created"]),
            str(data["token"]),
            str(data.get("run_id", "")),
            int(start) if start is not None else None,
        )
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def owner_dead(info: LockInfo) -> bool:
    """Whether the process named in ``info`` is known to be dead (same host only)."""
    return not ProcessId(info.pid, info.host, info.start).alive()


def lock_is_stale(path: Path, stale_after: float, now: float | None = None,
                  hung: OwnerCheck | None = None) -> bool:
    """Whether the lock at ``path`` may be broken: its owner is dead on this host, has
    stopped working (``hung``, from its heartbeat), or the lock is older than
    ``stale_after`` seconds (the bound for an owner that cannot be checked)."""
    now = time.time() if now is None else now
    info = read_lock(path)
    if info is None:
        try:
            age = now - path.stat().st_mtime
        except OSError:
            return False  # gone already: nothing to break
        return age > min(TORN_LOCK_GRACE_S, stale_after)
    if owner_dead(info) or (hung is not None and hung(info)):
        return True
    return now - info.created > stale_after


def break_lock(path: Path, stale_after: float, hung: OwnerCheck | None = None) -> bool:
    """Remove ``path`` if it is (still) stale; True when it was removed.

    Two waiters may judge the same lock stale at once; re-reading it just before unlinking
    narrows the window in which one could remove a fresh lock the other just created. The
    worst case left is one duplicate model call, never a torn entry.
    """
    before = read_lock(path)
    if not lock_is_stale(path, stale_after, hung=hung):
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
