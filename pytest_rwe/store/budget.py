"""One concurrency budget per provider endpoint for every process that shares a store.

Two pytest runs on one store (a developer's run beside CI's, two xdist workers that both
call) must not send twice the configured concurrency to a provider. So every process that
calls models registers in ``<store>/.locks/procs/<host>-<pid>-<start>.json`` and rewrites
that file every ``beat_s`` seconds (its heartbeat) with, for each endpoint it has work for:
its ceiling (``--rwe-concurrency``), the most calls it will have in flight until its next
beat (``limit``) and how many it has now (``in_flight``). At each beat a process reads the
others' files and takes, per endpoint:

- its *share*: the smallest ceiling among those with work for the endpoint, divided among
  them in a fixed order so the shares add up to it (at least 1 each);
- bounded by the *room* the others leave: the ceiling minus what each of them may still
  have in flight (its limit or its in-flight count, whichever is higher).

A process that joins finds no room until the others have lowered their limits to their
shares and their calls above it have finished, so the sum never exceeds the ceiling; one
that finishes (or stops having work) gives its share back at its next beat. An endpoint a
process starts using is first published with the whole ceiling as its limit, then computed
from what the others publish: two processes starting together each see the other.

A peer whose process is dead (gone, a zombie, or a reused pid: see
:func:`pytest_rwe.store.lock_files.pid_alive`) or whose heartbeat is older than ``stale_after_s``
(hung) does not count, and its file is removed. The heartbeat also tells waiters that a
lock's owner has stopped working (:meth:`StoreBudget.hung`).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from pytest_rwe.store.files import atomic_write_text
from pytest_rwe.store.lock_files import LockInfo, ProcessId, me
from pytest_rwe.store.wait import OwnerState

BEAT_S = 0.25
STALE_AFTER_S = 10.0
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")


@dataclass(frozen=True)
class Demand:
    """What a process wants of one endpoint now: its ceiling, its own adapted limit, and
    the calls it has in flight."""

    ceiling: int
    wanted: int
    in_flight: int


@dataclass(frozen=True)
class Use:
    """What a peer published for one endpoint."""

    ceiling: int
    limit: int
    in_flight: int

    @property
    def held(self) -> int:
        """The most calls it may have in flight before its next beat."""
        return max(self.limit, self.in_flight)


@dataclass(frozen=True)
class Peer:
    process: ProcessId
    run_id: str
    beat: float  # epoch seconds of its last heartbeat
    uses: Mapping[str, Use]

    @property
    def order(self) -> tuple[str, int, int]:
        return (self.process.host, self.process.pid, self.process.start or 0)


def entry_name(process: ProcessId) -> str:
    """The registry file name of ``process``."""
    return f"{_UNSAFE.sub('_', process.host)}-{process.pid}-{process.start or 0}.json"


def budget_for(key: str, ceiling: int, mine: tuple[str, int, int],
               peers: Sequence[Peer]) -> int:
    """This process's budget for endpoint ``key`` (pure; see the module docstring)."""
    others = [p for p in peers if key in p.uses]
    if not others:
        return ceiling
    total = min(ceiling, *(p.uses[key].ceiling for p in others))
    ranked = sorted([mine, *(p.order for p in others)])
    n, rank = len(ranked), ranked.index(mine)
    share = max(1, total // n + (1 if rank < total % n else 0))
    room = total - sum(p.uses[key].held for p in others)
    return max(0, min(share, room))


class StoreBudget:
    """This process's entry in a store's registry, and its budgets (see the module doc)."""

    def __init__(
        self,
        root: Path,
        run_id: str,
        *,
        beat_s: float = BEAT_S,
        stale_after_s: float = STALE_AFTER_S,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.folder = Path(root) / ".locks" / "procs"
        self.run_id = run_id
        self.beat_s = beat_s
        self.stale_after_s = stale_after_s
        self._clock = clock
        self.process = me()
        self.path = self.folder / entry_name(self.process)
        self._published: dict[str, Use] = {}
        self.peers: list[Peer] = []
        # a beat runs on a thread: leave() must not be undone by one finishing after it
        self._lock = threading.Lock()
        self._left = False

    # -- this process ----------------------------------------------------------------------
    def beat(self, demand: Mapping[str, Demand]) -> dict[str, int]:
        """Publish this process's use and return its budget per endpoint in ``demand``.

        An endpoint not published at the last beat is first claimed whole (written before
        the others are read), so a process starting at the same moment sees it.
        """
        with self._lock:
            if self._left:
                return {key: d.ceiling for key, d in demand.items()}
            return self._beat(demand)

    def _beat(self, demand: Mapping[str, Demand]) -> dict[str, int]:
        new = [key for key in demand if key not in self._published]
        if new:
            claims = {k: Use(d.ceiling, d.ceiling, d.in_flight) for k, d in demand.items()}
            self._write({**self._published, **claims})
        self.peers = self.read_peers()
        mine = (self.process.host, self.process.pid, self.process.start or 0)
        budgets = {key: budget_for(key, d.ceiling, mine, self.peers)
                   for key, d in demand.items()}
        uses = {key: Use(d.ceiling, min(d.wanted, budgets[key]), d.in_flight)
                for key, d in demand.items()}
        self._write(uses)
        return budgets

    def leave(self) -> None:
        """Remove this process's entry (its calls are over); later beats write nothing."""
        with self._lock:
            self._left = True
            with contextlib.suppress(OSError):
                self.path.unlink()
            self._published = {}

    def _write(self, uses: Mapping[str, Use]) -> None:
        payload = {
            "pid": self.process.pid, "host": self.process.host, "start": self.process.start,
            "run_id": self.run_id, "beat": self._clock(),
            "uses": {k: [u.ceiling, u.limit, u.in_flight] for k, u in uses.items()},
        }
        # transient and rewritten every beat: atomic (readers see whole files), not fsync'ed
        atomic_write_text(self.path, json.dumps(payload))
        self._published = dict(uses)

    # -- the others ------------------------------------------------------------------------
    def read_peers(self) -> list[Peer]:
        """The live processes registered beside this one; dead or hung entries are removed."""
        peers = []
        now = self._clock()
        try:
            entries = list(os.scandir(self.folder))
        except OSError:
            return []
        for entry in entries:
            if not entry.name.endswith(".json") or entry.name == self.path.name:
                continue
            peer = _read_peer(Path(entry.path))
            if peer is None:
                continue
            if now - peer.beat > self.stale_after_s or not peer.process.alive():
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)  # it will rewrite it if it was only slow
                continue
            peers.append(peer)
        return peers

    def owner_state(self, owner: LockInfo) -> OwnerState:
        """Whether a lock's owner is working (alive, heartbeat fresh), gone (dead, or its
        heartbeat stopped: a blocked event loop, a stopped process) or cannot be checked
        (not registered, e.g. an older version or a script; or on another host)."""
        process = ProcessId(owner.pid, owner.host, owner.start)
        if not process.alive():
            return "gone"
        peer = _read_peer(self.folder / entry_name(process))
        if peer is None:
            return "unknown"
        if self._clock() - peer.beat <= self.stale_after_s:
            return "working"
        # another host's clock may differ: only this host's silence is trusted
        return "gone" if process.host == self.process.host else "unknown"

    def hung(self, owner: LockInfo) -> bool:
        """Whether a lock's owner is alive but stopped working (its heartbeat is old)."""
        return self.owner_state(owner) == "gone"


def _read_peer(path: Path) -> Peer | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        start = data.get("start")
        process = ProcessId(int(data["pid"]), str(data["host"]),
                            int(start) if start is not None else None)
        uses = {str(k): Use(int(v[0]), int(v[1]), int(v[2]))
                for k, v in dict(data.get("uses") or {}).items()}
        return Peer(process, str(data.get("run_id", "")), float(data["beat"]), uses)
    except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError):
        return None
