"""Cross-process locks on store keys: each call is made once by the processes on a store.

Two implementations behind one interface (:class:`FlightLocks`):

- :class:`RangeLocks` (POSIX systems): one byte per key in one file,
  ``<store>/.locks/flight``, locked with ``fcntl`` range locks. Taking or releasing a lock
  is a system call (microseconds, no file created per call), and the kernel releases a
  process's locks when it dies, however it dies: a killed owner, even one not yet reaped
  (a zombie), never holds a key. Record locks belong to a process, not to a file object,
  so the locks of this process are also kept in a table, shared by every store object of
  the process, so that two of them exclude each other as two processes would.
- :class:`FileLocks` (elsewhere, or where the filesystem refuses range locks): a lock file
  per key created with ``O_EXCL``, naming its owner; a lock whose owner died or stopped
  beating is broken (:mod:`pytest_rwe.store.lock_files`).

A key maps to byte ``int(key[:15], 16)`` (60 bits of a SHA-256): two keys share a byte only
by a collision of those bits, and then one call merely waits for the other.
"""

from __future__ import annotations

import contextlib
import errno
import os
import struct
import sys
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Protocol

from pytest_rwe.store.lock_files import (
    LockInfo,
    OwnerCheck,
    break_lock,
    me,
    process_start,
    read_lock,
    release_lock,
    try_lock,
)

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]


class FlightLocks(Protocol):
    """Locks on store keys shared by every process that uses the store."""

    def acquire(self, key: str, run_id: str) -> str | None:
        """Take ``key``'s lock: a token to release it with, or None when it is held."""
        ...

    def release(self, key: str, token: str) -> None:
        """Let ``key`` go (only if ``token`` still holds it)."""
        ...

    def holder(self, key: str) -> LockInfo | None:
        """Who holds ``key`` now, as far as can be told (None: free, or not known)."""
        ...

    def held(self, keys: Iterable[str]) -> set[str]:
        """Which of ``keys`` another owner holds now."""
        ...

    def break_if_stale(self, key: str, stale_after: float, hung: OwnerCheck | None) -> bool:
        """Remove a lock whose owner is gone; True when it was removed."""
        ...


# -- range locks ----------------------------------------------------------------------------
_TABLE_LOCK = threading.Lock()  # guards the two tables and every record-lock system call
# lock file path -> this process's one descriptor of it. Closing any descriptor of the file
# drops every range lock the process holds on it, so it is closed only once none is held.
_FILES: dict[str, int] = {}
_OWNED: dict[tuple[str, int], str] = {}  # (lock file, byte) -> the token that holds it
_FILES_PID = -1  # descriptors are shared with a forked child, range locks are not


def _offset(key: str) -> int:
    return int(key[:15], 16)


class RangeLocks:
    """Record locks, one byte per key, in ``<root>/.locks/flight`` (see the module doc)."""

    def __init__(self, root: Path) -> None:
        self.path = str(Path(root) / ".locks" / "flight")

    @staticmethod
    def usable(root: Path) -> bool:
        """Whether range locks work on the filesystem of ``root`` (not on every share)."""
        if fcntl is None:
            return False
        locks = RangeLocks(root)
        with _TABLE_LOCK:
            try:
                fd = locks._fd()
                if any(path == locks.path for path, _ in _OWNED):
                    return True  # in use by this process already
                fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, 0, 0)
                fcntl.lockf(fd, fcntl.LOCK_UN, 1, 0, 0)
            except OSError as exc:
                return exc.errno in (errno.EAGAIN, errno.EACCES)  # held: they work
            finally:
                locks._close_if_unused()
        return True

    def _fd(self) -> int:
        """This process's descriptor of the lock file (call with ``_TABLE_LOCK`` held)."""
        global _FILES_PID
        if os.getpid() != _FILES_PID:
            _FILES.clear()  # a forked child: its parent's locks are not its own
            _OWNED.clear()
            _FILES_PID = os.getpid()
        fd = _FILES.get(self.path)
        if fd is None:
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            fd = _FILES[self.path] = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        return fd

    def _close_if_unused(self) -> None:
        """Close the descriptor once this process holds no lock in the file (with the lock)."""
        if not any(path == self.path for path, _ in _OWNED):
            fd = _FILES.pop(self.path, None)
            if fd is not None:
                os.close(fd)

    def acquire(self, key: str, run_id: str) -> str | None:
        spot = (self.path, _offset(key))
        token = os.urandom(8).hex()
        with _TABLE_LOCK:
            if spot in _OWNED:
                return None  # another store object of this process has it
            fd = self._fd()
            try:
                fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, spot[1], 0)
            except OSError as exc:
                self._close_if_unused()
                if exc.errno in (errno.EAGAIN, errno.EACCES):
                    return None  # another process has it
                raise
            _OWNED[spot] = token
        return token

    def release(self, key: str, token: str) -> None:
        spot = (self.path, _offset(key))
        with _TABLE_LOCK:
            if _OWNED.get(spot) != token:
                return
            del _OWNED[spot]
            fcntl.lockf(self._fd(), fcntl.LOCK_UN, 1, spot[1], 0)
            self._close_if_unused()

    def holder(self, key: str) -> LockInfo | None:
        spot = (self.path, _offset(key))
        with _TABLE_LOCK:
            if spot in _OWNED:
                owner = me()
                return LockInfo(owner.pid, owner.host, 0.0, "", "", owner.start)
            pid = _lock_owner(self._fd(), spot[1])
            self._close_if_unused()
        if pid is None:
            return None
        # a range lock is always of this host; its pid is only known on Linux (else 0)
        return LockInfo(pid, me().host, 0.0, "", "", process_start(pid) if pid > 0 else None)

    def held(self, keys: Iterable[str]) -> set[str]:
        found = set()
        with _TABLE_LOCK:
            fd = self._fd()
            for key in keys:
                spot = (self.path, _offset(key))
                if spot in _OWNED or _lock_owner(fd, spot[1]) is not None:
                    found.add(key)
            self._close_if_unused()
        return found

    def break_if_stale(self, key: str, stale_after: float, hung: OwnerCheck | None) -> bool:
        return False  # the kernel releases a dead owner's locks; a live one's cannot be broken


_FLOCK = "hhqqii"  # struct flock on 64-bit Linux: type, whence, start, len, pid (+ padding)


def _lock_owner(fd: int, offset: int) -> int | None:
    """The pid holding byte ``offset`` (0 when held but the pid cannot be read), or None."""
    if sys.platform != "linux" or struct.calcsize("l") != 8:
        try:  # elsewhere: free if it can be taken (and it is given back at once)
            fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, offset, 0)
        except OSError:
            return 0
        fcntl.lockf(fd, fcntl.LOCK_UN, 1, offset, 0)
        return None
    query = struct.pack(_FLOCK, fcntl.F_WRLCK, os.SEEK_SET, offset, 1, 0, 0)
    answer = fcntl.fcntl(fd, fcntl.F_GETLK, query)
    kind, _, _, _, pid, _ = struct.unpack(_FLOCK, answer)
    return None if kind == fcntl.F_UNLCK else pid


# -- lock files -----------------------------------------------------------------------------
class FileLocks:
    """A lock file per key in ``<root>/.locks/`` (see :mod:`pytest_rwe.store.lock_files`)."""

    def __init__(self, root: Path) -> None:
        self.folder = Path(root) / ".locks"

    def _path(self, key: str) -> Path:
        return self.folder / f"{key}.lock"

    def acquire(self, key: str, run_id: str) -> str | None:
        info = try_lock(self._path(key), run_id)
        return None if info is None else info.token

    def release(self, key: str, token: str) -> None:
        release_lock(self._path(key), token)

    def holder(self, key: str) -> LockInfo | None:
        return read_lock(self._path(key))

    def held(self, keys: Iterable[str]) -> set[str]:
        try:
            present = {entry.name[:-5] for entry in os.scandir(self.folder)
                       if entry.name.endswith(".lock")}
        except OSError:
            return set()
        return {key for key in keys if key in present}

    def break_if_stale(self, key: str, stale_after: float, hung: OwnerCheck | None) -> bool:
        return break_lock(self._path(key), stale_after, hung)


def flight_locks(root: Path) -> FlightLocks:
    """Record locks where they work, lock files elsewhere."""
    with contextlib.suppress(OSError):
        if RangeLocks.usable(root):
            return RangeLocks(root)
    return FileLocks(root)
