"""Waiting for another process's call: one watcher per store and event loop.

A reservation that finds its key locked by another process waits for the lock to go (the owner
saved its answer, or gave up on it). Polling each key on its own costs file checks per key
and poll, and a second run on the same store may wait on a thousand keys at once; so the
waits of one store share a :class:`LockWatcher` that lists the lock folder once per tick and
wakes the waiters whose lock is gone, and asks about each distinct owner once per tick: an
owner that died or stopped working (:data:`OwnerState` ``"gone"``) wakes its waiters too,
which then break the lock. A waiter also wakes after its own timeout, to check again.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterable
from typing import Literal

from pytest_rwe.store.lock_files import LockInfo

#: "working": alive and beating; "gone": dead or hung; "unknown": cannot be checked
OwnerState = Literal["working", "gone", "unknown"]
OwnerKey = tuple[str, int, int]
TICK_S = 0.05


def owner_key(info: LockInfo) -> OwnerKey:
    return (info.host, info.pid, info.start or 0)


class LockWatcher:
    """Wakes waiters when their key's lock file goes away or its owner is gone."""

    def __init__(self, held: Callable[[Iterable[str]], set[str]],
                 owner_state: Callable[[LockInfo], OwnerState], *,
                 tick_s: float = TICK_S) -> None:
        self._held = held
        self._owner_state = owner_state
        self.tick_s = tick_s
        self._waiting: dict[str, list[tuple[asyncio.Future[None], LockInfo | None]]] = {}
        self._task: asyncio.Task[None] | None = None

    @property
    def waiting(self) -> int:
        """How many keys are waited for now."""
        return len(self._waiting)

    async def wait(self, key: str, owner: LockInfo | None, timeout: float) -> None:
        """Return once ``key``'s lock is gone, its ``owner`` is gone, or after ``timeout``."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        entry = (future, owner)
        self._waiting.setdefault(key, []).append(entry)
        if self._task is None or self._task.done():
            self._task = loop.create_task(self._run())
        timer = loop.call_later(timeout, _settle, future)
        try:
            await future
        finally:
            timer.cancel()
            waiters = self._waiting.get(key)
            if waiters is not None:
                with contextlib.suppress(ValueError):
                    waiters.remove(entry)
                if not waiters:
                    del self._waiting[key]

    async def _run(self) -> None:
        while self._waiting:
            await asyncio.sleep(self.tick_s)
            owners = {owner_key(o): o for waiters in self._waiting.values()
                      for _, o in waiters if o is not None}
            held, states = await asyncio.to_thread(self._scan, list(self._waiting),
                                                   list(owners.values()))
            for key, waiters in list(self._waiting.items()):
                for future, owner in waiters:
                    gone = owner is not None and states.get(owner_key(owner)) == "gone"
                    if key not in held or gone:
                        _settle(future)

    def _scan(self, keys: list[str], owners: list[LockInfo]
              ) -> tuple[set[str], dict[OwnerKey, OwnerState]]:
        """Which keys are still locked, and the state of each owner (runs in a thread)."""
        try:
            held = self._held(keys)
        except OSError:
            held = set(keys)  # cannot tell: the waiters' own timeouts will ask again
        return held, {owner_key(o): self._owner_state(o) for o in owners}


def _settle(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)
