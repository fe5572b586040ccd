"""One process of an xdist run calls the models; the others read its answers.

Every process that calls models imports the vendor SDKs (over a second of CPU each) and
spends CPU on each call; with more workers than cores that work competes with the run
itself. So one worker, the leader, makes every call of the selected (model, study) pairs
with the whole per-provider budget, and the other workers, the followers, wait for its
answers in the response store. Under ``--dist load`` (``-n`` alone), ``worksteal`` and
``each``, every worker gets the suite's tests from the start and the leader is ``gw0``, which
imports the SDKs while pytest collects. Under the modes that send a whole file or group to
one worker (``loadfile``, ``loadscope``, ``loadgroup``) the leader is whichever worker needs
the engine first: it takes the lead by creating the note below.

The leader says what it is doing in ``<store>/.locks/run-<run id>.leader``: ``working``
(with its pid and host) while planned calls are left, ``done`` after. A follower waits for a
planned call's answer while the leader works, and before the leader has said anything for at
most ``start_grace_s``. A call the leader gave up on (after its retries) is noted in
``run-<run id>.failed-<key>`` with its message, so followers fail alike without calling
again. When the leader is done, died, or never came, a follower makes a missing call itself:
a lost leader costs time, never a result. "Died" includes a leader killed but not yet
reaped (xdist leaves a killed worker a zombie, which ``kill(pid, 0)`` calls alive) and one
whose heartbeat in the store's registry stopped (:mod:`pytest_rwe.store.budget`): its
start time is in the note, so a reused pid is not mistaken for it either. The controller
removes the run's notes at the end.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Protocol

from pytest_rwe import deprecated_method, renamed_attributes
from pytest_rwe.redact import redact
from pytest_rwe.store.files import atomic_write_text
from pytest_rwe.store.lock_files import LockInfo, OwnerCheck, ProcessId, me

LeaderState = Literal["working", "done"]
#: what a follower makes of the note: the leader works, is done, or is lost (see lost())
FollowerView = Literal["working", "done", "lost"]
#: "first": the leader is the first worker to start its engine (see the module docstring)
ProcessRole = Literal["alone", "leader", "follower", "first"]
LEADER_ID = "gw0"  # xdist's first worker; the controller never runs tests
# xdist modes that hand every worker suite tests from the start, gw0 included
_EVERY_WORKER_GETS_TESTS = frozenset({"load", "worksteal", "each"})


class Deferral(Protocol):
    """Another process makes some calls of this run (see :meth:`ResponseStore.reserve`)."""

    def is_working(self) -> bool:
        """Whether it will still make a call that is not stored yet."""
        ...

    def failure(self, key: str) -> str | None:
        """Why its call under ``key`` failed for good, or None."""
        ...


class Leader(Deferral, Protocol):
    """The run's leader as a follower sees it."""

    def lost(self) -> bool:
        """Whether it will not make the planned calls (it died, hung, or never came)."""
        ...


class DeferredCallFailed(Exception):
    """The process that makes this call gave up on it; the message is its error."""


class RunLeader:
    """The leader's announcement file for one run, as written by the leader and read by
    followers (a follower's view is cached for ``recheck_s`` seconds)."""

    def __init__(
        self,
        root: Path,
        run_id: str,
        *,
        start_grace_s: float = 10.0,
        recheck_s: float = 0.1,
        clock: Callable[[], float] = time.monotonic,
        hung: OwnerCheck | None = None,
    ) -> None:
        self.path = Path(root) / ".locks" / f"run-{run_id}.leader"
        self._prefix = f"run-{run_id}."
        self.start_grace_s = start_grace_s
        self.recheck_s = recheck_s
        self._clock = clock
        self._hung = hung  # whether a live leader's heartbeat stopped (see store.budget)
        self._first_asked: float | None = None
        self._checked_at: float | None = None
        self._state: FollowerView = "lost"

    # -- the leader ------------------------------------------------------------------------
    def announce(self, state: LeaderState) -> None:
        """Say that this process is working on the run's planned calls, or is done."""
        atomic_write_text(self.path, _note(state))

    def claim(self) -> bool:
        """Deprecated (one release): :meth:`take_lead`."""
        deprecated_method("RunLeader.claim", "RunLeader.take_lead")
        return self.take_lead()

    def take_lead(self) -> bool:
        """Become the leader unless another worker already is (atomic: one creator wins)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            return False
        # written through the creating descriptor: a follower never reads an empty note
        # (an unreadable one means "do not wait")
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(_note("working"))
        return True

    def finish(self) -> None:
        """Say ``done``. If that cannot be written (a full disk), remove the note instead:
        followers then stop waiting after their grace, rather than wait on a live leader."""
        try:
            self.announce("done")
        except OSError:
            self.remove()

    def note_failure(self, key: str, message: str) -> None:
        """Record that the call under ``key`` failed for good, with its (redacted) message."""
        # without the note, followers make the call themselves once the leader is done
        with contextlib.suppress(OSError):
            atomic_write_text(self._failure_path(key), redact(message))

    def remove(self) -> None:
        """Forget the run's notes (the controller, once every worker has finished)."""
        with contextlib.suppress(OSError):
            for path in self.path.parent.glob(f"{self._prefix}*"):
                with contextlib.suppress(FileNotFoundError):
                    path.unlink()

    def _failure_path(self, key: str) -> Path:
        return self.path.with_name(f"{self._prefix}failed-{key}")

    # -- a follower ------------------------------------------------------------------------
    def is_working(self) -> bool:
        """Whether a planned call that is not stored yet will be made by the leader."""
        return self._view() == "working"

    def lost(self) -> bool:
        """Whether the leader will not make the planned calls: it died or stopped beating
        while working, never came within the grace, or its note cannot be read."""
        return self._view() == "lost"

    def _view(self) -> FollowerView:
        now = self._clock()
        if self._checked_at is None or now - self._checked_at >= self.recheck_s:
            self._checked_at = now
            self._state = self._read_state(now)
        return self._state

    def failure(self, key: str) -> str | None:
        """The message of the leader's call under ``key`` if it failed for good, else None."""
        try:
            return self._failure_path(key).read_text(encoding="utf-8")
        except OSError:
            return None

    def _read_state(self, now: float) -> FollowerView:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            state, pid, host = str(data["state"]), int(data["pid"]), str(data["host"])
            start = None if data.get("start") is None else int(data["start"])
        except FileNotFoundError:
            # not started yet (its first test may come later than ours): wait, a while
            if self._first_asked is None:
                self._first_asked = now
            return "working" if now - self._first_asked < self.start_grace_s else "lost"
        except (OSError, ValueError, KeyError, TypeError):
            return "lost"  # unreadable: do not wait on something we cannot check
        if state != "working":
            return "done"
        # a leader on another host (xdist --tx) cannot be checked; its pid means nothing here
        leader = ProcessId(pid, host, start)
        if not leader.alive():
            return "lost"
        if self._hung is not None and self._hung(LockInfo(pid, host, 0.0, "", "", start)):
            return "lost"
        return "working"


def _note(state: LeaderState) -> str:
    process = me()
    return json.dumps({"state": state, "pid": process.pid, "host": process.host,
                       "start": process.start})


def process_role(worker_id: str | None, dist: str) -> ProcessRole:
    """A process's part in calling models, from its xdist worker id (None: not a worker) and
    how xdist hands out tests: a plain run, xdist's leader, a follower, or "first" (leader
    if it is the first worker to start its engine, else a follower)."""
    if worker_id is None:
        return "alone"
    if dist not in _EVERY_WORKER_GETS_TESTS:
        return "first"
    return "leader" if worker_id == LEADER_ID else "follower"


def worker_role(workerinput: dict[str, object] | None) -> ProcessRole:
    """Deprecated: use :func:`process_role` (``pytest_rwe.plugin.workers.process_role`` reads
    both from a pytest config)."""
    warnings.warn("pytest_rwe.store.leader.worker_role is deprecated; use process_role("
                  "worker_id, dist)", DeprecationWarning, stacklevel=2)
    if not workerinput:
        return "alone"
    return process_role(str(workerinput.get("workerid")),
                        str(workerinput.get("rwe_dist", "load")))


if not TYPE_CHECKING:  # the old names, for one release
    __getattr__ = renamed_attributes(__name__, {"Role": "ProcessRole"})
