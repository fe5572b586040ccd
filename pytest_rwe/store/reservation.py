"""Single flight: each stored call is made once by the processes that share a store.

The reservation half of :class:`pytest_rwe.store.ResponseStore` (a mixin it inherits; the store
holds the state). A reservation reads the stored answer, or takes the key's lock
(:mod:`pytest_rwe.store.locks`) and must call; a key another process holds is waited for
while that process works on it (:mod:`pytest_rwe.store.budget` tells), with one watcher per
event loop for all the waiting keys (:mod:`pytest_rwe.store.wait`). Under xdist a follower
defers to the run's leader instead (:class:`pytest_rwe.store.leader.Deferral`).
"""

from __future__ import annotations

import asyncio
import threading
import time
import warnings
from collections.abc import Generator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pytest_rwe import deprecated_method, renamed_attributes
from pytest_rwe.providers.base import GenerationResult
from pytest_rwe.store.budget import StoreBudget
from pytest_rwe.store.entry import CallLabel, RequestInfo, StoreMissError, StoreWarning
from pytest_rwe.store.leader import Deferral, DeferredCallFailed
from pytest_rwe.store.lock_files import LockInfo, owner_dead
from pytest_rwe.store.locks import FlightLocks, RangeLocks, flight_locks
from pytest_rwe.store.wait import LockWatcher, OwnerState

_DEFER_POLL_S = 0.1
# a waiter checks its reservation again at least this often (the watcher wakes it sooner on news)
_LOCK_RECHECK_S = 1.0
_OWNER_RECHECK_S = 0.25


@dataclass
class Reservation:
    """The outcome of :meth:`ResponseStore.reserve`.

    ``result`` is a stored response to use without calling the model; when it is None this
    process must call the model, :meth:`ResponseStore.save` a success, and :meth:`release`
    the reservation in any case (``with reservation:`` does it). Saving releases it too.
    """

    call: CallLabel
    key: str
    result: GenerationResult | None
    _store: SingleFlight | None = field(default=None, repr=False)
    _token: str | None = field(default=None, repr=False)

    @property
    def must_call(self) -> bool:
        return self.result is None

    @property
    def locked(self) -> bool:
        """Whether this reservation still holds the key's lock (not after save, release or a
        timeout)."""
        return (
            self._store is not None
            and self._token is not None
            and self._store._holds(self.key, self._token)
        )

    def release(self) -> None:
        """Let waiting workers go on (idempotent); they call the model if nothing was saved."""
        if self._store is not None and self._token is not None:
            self._store._release(self.key, self._token)
        self._token = None

    def __enter__(self) -> Reservation:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


class SingleFlight:
    """Claims on store keys (see the module docstring); :class:`ResponseStore` sets up the
    state declared here and provides the reading and counting."""

    root: Path
    mode: Literal["new", "none", "all"]
    run_id: str
    wait_timeout: float
    stale_lock_after: float
    poll_interval: float
    shared: bool
    registry: StoreBudget | None
    _locks: FlightLocks | None
    _mutex: threading.Lock
    _held: dict[str, str]
    _watchers: dict[asyncio.AbstractEventLoop, LockWatcher]
    _owners: dict[tuple[str, int, int | None], tuple[OwnerState, float]]

    def _read(self, call: CallLabel, key: str) -> GenerationResult | None:
        raise NotImplementedError

    def _count(self, name: str, n: int = 1) -> None:
        raise NotImplementedError

    def path_for(self, call: CallLabel, key: str) -> Path:
        raise NotImplementedError

    def miss_message(self, call: CallLabel, key: str,
                     wanted: RequestInfo | None = None) -> str:
        raise NotImplementedError

    def _stale_owner_s(self) -> float:
        return self.registry.stale_after_s if self.registry is not None else 0.0

    def _try_reserve(self, call: CallLabel, key: str) -> Reservation | LockInfo | None:
        """One non-blocking attempt: the reservation, or what holds the key's lock (its owner's
        info; None when that cannot be told)."""
        hit = self._read(call, key)
        if hit is not None:
            return Reservation(call, key, hit)
        if not self.shared:
            return Reservation(call, key, None)  # this process alone: nobody to wait for
        locks = self.locks
        for _ in range(2):  # a second attempt right after breaking a stale lock
            token = locks.acquire(key, self.run_id)
            if token is not None:
                # The owner before us may have saved and released between our read and lock.
                hit = self._read(call, key)
                if hit is not None:
                    locks.release(key, token)
                    return Reservation(call, key, hit)
                with self._mutex:
                    self._held[key] = token
                return Reservation(call, key, None, self, token)
            hung = self.registry.hung if self.registry is not None else None
            if not locks.break_if_stale(key, self.stale_lock_after, hung):
                return locks.holder(key)
            self._count("broken_locks")
        return locks.holder(key)

    @property
    def locks(self) -> FlightLocks:
        """The cross-process key locks of this store (range locks, or lock files)."""
        if self._locks is None:
            self._locks = flight_locks(self.root)
        return self._locks

    def _owner_state(self, owner: LockInfo) -> OwnerState:
        # many waiters share one owner (another run): ask about it a few times a second only
        now = time.monotonic()
        ident = (owner.host, owner.pid, owner.start)
        with self._mutex:
            known = self._owners.get(ident)
        if known is not None and now - known[1] < _OWNER_RECHECK_S:
            return known[0]
        if self.registry is not None:
            state = self.registry.owner_state(owner)
        else:
            state = "gone" if owner_dead(owner) else "unknown"
        with self._mutex:
            self._owners[ident] = (state, now)
        return state

    def _reserved(self, reservation: Reservation, waited: bool) -> Reservation:
        self._count("hits" if reservation.result is not None else "misses")
        if waited:
            self._count("waits")
        return reservation

    def _attempts(self, call: CallLabel, key: str, defer: Deferral | None,
                  wanted: RequestInfo | None = None) -> Generator[Wait, None, Reservation]:
        """Reservation attempts: yields how to wait before the next one, returns the reservation."""
        if self.mode == "none":
            hit = self._read(call, key)
            if hit is None:
                path = self.path_for(call, key)
                raise StoreMissError(call, key, path, self.miss_message(call, key, wanted))
            return self._reserved(Reservation(call, key, hit), waited=False)
        deadline = time.monotonic() + self.wait_timeout
        interval = self.poll_interval
        waited = False
        while True:
            if defer is not None:
                hit = self._read(call, key)
                if hit is not None:
                    return self._reserved(Reservation(call, key, hit), waited)
                failed = defer.failure(key)
                if failed is not None:
                    raise DeferredCallFailed(failed)
                if defer.is_working():
                    # another process makes this call and is still at work: no time limit,
                    # and short polls, since a test of ours is waiting for its answer
                    deadline, waited = time.monotonic() + self.wait_timeout, True
                    yield Wait(min(self.poll_interval, _DEFER_POLL_S))
                    continue
            attempt = self._try_reserve(call, key)
            if isinstance(attempt, Reservation):
                return self._reserved(attempt, waited)
            state = self._owner_state(attempt) if attempt is not None else "unknown"
            if state == "working":
                # its owner is alive and beating: it will answer or give up within its own
                # bounds (--rwe-deadline, --rwe-max-attempts), so wait as long as it works
                deadline = time.monotonic() + self.wait_timeout
            elif state == "gone":
                # alive but stopped working (no heartbeat), and its lock cannot be broken
                self._count("broken_locks")
                warnings.warn(StoreWarning(
                    f"{_owner(attempt)} holds the {call.describe()} of {call.model} on "
                    f"study {call.study_id} but has stopped working (no heartbeat for "
                    f"{self._stale_owner_s():g} s); calling the model here"), stacklevel=2)
                return self._reserved(Reservation(call, key, None), waited=True)
            elif time.monotonic() >= deadline:
                # The owner may be stuck; a duplicate call beats a test that never ends.
                self._count("wait_timeouts")
                warnings.warn(StoreWarning(
                    f"{self.root}: waited {self.wait_timeout:g} s for "
                    f"{_owner(attempt)} to make the {call.describe()} of {call.model} on "
                    f"study {call.study_id}, and cannot tell whether it still works on it; "
                    "calling the model here"), stacklevel=2)
                return self._reserved(Reservation(call, key, None), waited=True)
            waited = True
            yield Wait(interval, key, attempt)
            interval = min(interval * 1.5, _LOCK_RECHECK_S)

    async def reserve(self, call: CallLabel, key: str, *, defer: Deferral | None = None,
                      wanted: RequestInfo | None = None) -> Reservation:
        """The stored response, or the right to call the model (see :class:`Reservation`).

        When another process is calling the model for the same key, wait for its answer
        (see the class docstring for how long). While ``defer.is_working()``, another
        process will make the call: wait for its answer (or raise
        :class:`DeferredCallFailed` when it gave up on it).
        Mode ``none`` raises :class:`StoreMissError` on a miss (saying what changed when
        ``wanted`` describes the request).
        """
        attempts = self._attempts(call, key, defer, wanted)
        while True:
            # A lock file costs a file creation (up to half a millisecond on a busy disk): in
            # a thread, so a burst of reservations does not stall every call on the loop. A
            # range lock is a system call of microseconds: no thread needed.
            inline = not self.shared or isinstance(self.locks, RangeLocks)
            step = _advance(attempts) if inline else await asyncio.to_thread(_advance, attempts)
            if isinstance(step, Reservation):
                return step
            if step.key is None:
                await asyncio.sleep(step.seconds)
            else:
                await self._watcher().wait(step.key, step.owner, step.seconds)

    def _watcher(self) -> LockWatcher:
        loop = asyncio.get_running_loop()
        watcher = self._watchers.get(loop)
        if watcher is None:
            watcher = self._watchers[loop] = LockWatcher(self.locks.held, self._owner_state)
        return watcher

    def waiting(self) -> int:
        """How many calls wait for another process to answer them (for progress lines)."""
        return sum(watcher.waiting for watcher in list(self._watchers.values()))

    def reserve_blocking(self, call: CallLabel, key: str) -> Reservation:
        """:meth:`reserve` for synchronous callers (sleeps the thread while waiting)."""
        attempts = self._attempts(call, key, None)
        while not isinstance(step := _advance(attempts), Reservation):
            time.sleep(step.seconds)
        return step

    async def claim(self, call: CallLabel, key: str, *, defer: Deferral | None = None,
                    wanted: RequestInfo | None = None) -> Reservation:
        """Deprecated (one release): :meth:`reserve`."""
        deprecated_method("ResponseStore.claim", "ResponseStore.reserve")
        return await self.reserve(call, key, defer=defer, wanted=wanted)

    def claim_blocking(self, call: CallLabel, key: str) -> Reservation:
        """Deprecated (one release): :meth:`reserve_blocking`."""
        deprecated_method("ResponseStore.claim_blocking", "ResponseStore.reserve_blocking")
        return self.reserve_blocking(call, key)

    def _holds(self, key: str, token: str) -> bool:
        with self._mutex:
            return self._held.get(key) == token

    def _release(self, key: str, token: str) -> None:
        with self._mutex:
            if self._held.get(key) != token:
                return
            del self._held[key]
        self.locks.release(key, token)

    def close(self) -> None:
        """Release every lock this object still holds (e.g. at the end of a session)."""
        with self._mutex:
            held = list(self._held.items())
        for key, token in held:
            self._release(key, token)


@dataclass(frozen=True)
class Wait:
    """How a reservation waits before its next attempt: ``seconds`` at most, and for the lock of
    ``key`` (held by ``owner``) to go, when ``key`` is given."""

    seconds: float
    key: str | None = None
    owner: LockInfo | None = None


def _owner(info: LockInfo | None) -> str:
    if info is None or info.pid <= 0:
        return "the process that holds it"
    run = f" (run {info.run_id})" if info.run_id else ""
    return f"process {info.pid} on {info.host}{run}"


def _advance(attempts: Generator[Wait, None, Reservation]) -> Wait | Reservation:
    """The next reservation attempt: how to wait before another, or the reservation."""
    try:
        return next(attempts)
    except StopIteration as done:
        reservation: Reservation = done.value
        return reservation


if not TYPE_CHECKING:  # the old name, for one release
    __getattr__ = renamed_attributes(__name__, {"Claim": "Reservation"})
