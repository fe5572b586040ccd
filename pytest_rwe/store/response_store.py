"""The response store: every model call (summaries, judge calls, repairs) saved as one JSON file.

One stable file per logical call, named by what the call is for (model under test, study,
repeat, juror, criterion: :mod:`pytest_rwe.store.layout`), never by the key. A changed prompt
or setting therefore rewrites the same file, and a pull-request diff shows the old and the new
output side by side. The file holds the key and what went into it (:mod:`pytest_rwe.store.entry`);
a replay uses it only when the key matches, and otherwise says what changed
(:mod:`pytest_rwe.store.changes`). Beside the responses::

    <root>/.gitignore                      # keeps the transient files below out of git
    <root>/.locks/<key>.lock               # single-flight locks while a call is in progress
    <root>/.locks/run-<run id>.*           # an xdist run's leader notes (pytest_rwe.store.leader)

Record modes: ``new`` replays what is stored and calls the rest; ``none`` replays only (a miss
raises :class:`StoreMissError`); ``all`` calls everything again and overwrites, except what
another worker already wrote during the same run (same ``run_id``).

A store in the layout before format 2 is read as it is (a response found there is copied to
its new place); ``rwe store migrate`` rewrites it at once (:mod:`pytest_rwe.store.maintenance`).
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
import warnings
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_rwe import renamed_attributes
from pytest_rwe.providers.base import GenerationResult
from pytest_rwe.settings import STORE_MODES, StoreMode
from pytest_rwe.store.budget import StoreBudget
from pytest_rwe.store.changes import what_changed
from pytest_rwe.store.entry import (
    FORMAT_VERSION,
    CallLabel,
    RequestInfo,
    StoredResponse,
    StoreStats,
    StoreWarning,
    decode_entry,
    dump_entry,
    encode_entry,
)
from pytest_rwe.store.files import atomic_write_text
from pytest_rwe.store.layout import legacy_relative_path
from pytest_rwe.store.leader import Deferral
from pytest_rwe.store.lock_files import ensure_gitignore
from pytest_rwe.store.locks import FlightLocks
from pytest_rwe.store.reservation import SingleFlight
from pytest_rwe.store.wait import LockWatcher, OwnerState

# the store modes have their home in settings (the options and the integrations name them)
RecordMode = StoreMode
RECORD_MODES = STORE_MODES



class ResponseStore(SingleFlight):
    """Stored model responses under ``root``; safe for many processes at once.

    ``run_id`` identifies one test session and must be shared by all its xdist workers (for
    example the controller's start time); in mode ``all`` an entry written under the same run
    id counts as stored. A reservation waits for another process's call while that process is
    working on it (alive, and with a fresh heartbeat in ``registry``: see
    :mod:`pytest_rwe.store.budget`); a lock whose owner cannot be checked is waited for at
    most ``wait_timeout`` seconds, then the model is called anyway (with a warning naming the
    lock). A lock whose owner died or stopped working, or older than ``stale_lock_after``
    seconds, is broken. ``shared=False`` says no other process uses the store (the caller
    dedupes in memory), so reservations skip the locks. ``locks`` chooses how keys are locked
    (default: :func:`pytest_rwe.store.locks.flight_locks`).
    """

    def __init__(
        self,
        root: Path,
        mode: RecordMode = "new",
        *,
        run_id: str | None = None,
        wait_timeout: float = 300.0,
        stale_lock_after: float = 900.0,
        poll_interval: float = 0.05,
        shared: bool = True,
        registry: StoreBudget | None = None,
        locks: FlightLocks | None = None,
    ) -> None:
        if mode not in RECORD_MODES:
            raise ValueError(f"record mode {mode!r}; use one of {', '.join(RECORD_MODES)}")
        self.root = Path(root)
        self.mode: RecordMode = mode
        self.run_id = run_id or f"{time.time():.6f}-{os.getpid()}"
        self.wait_timeout = wait_timeout
        self.stale_lock_after = stale_lock_after
        self.poll_interval = poll_interval
        self.shared = shared
        self.registry = registry
        self._locks = locks  # None: range locks where they work, else lock files
        self._gitignored = False
        self._watchers: dict[asyncio.AbstractEventLoop, LockWatcher] = {}
        self._owners: dict[tuple[str, int, int | None], tuple[OwnerState, float]] = {}
        self._mutex = threading.Lock()
        self._counts: dict[str, int] = dict.fromkeys(StoreStats.__dataclass_fields__, 0)
        self._held: dict[str, str] = {}  # key -> token of a lock this object holds
        self._reported: set[Path] = set()
        # key -> a file of this store that holds it (read or written by this process): the
        # same request made for another label (two repeats that wrote the same summary get
        # the same judge request) is answered from there and filed under its own name too
        self._known: dict[str, Path] = {}

    # -- paths ---------------------------------------------------------------------------
    def path_for(self, call: CallLabel, key: str) -> Path:
        """Where the response of ``call`` under ``key`` is (or would be) stored."""
        return self.root / call.relative_path(key)

    # -- reading -------------------------------------------------------------------------
    @property
    def stats(self) -> StoreStats:
        with self._mutex:
            return StoreStats(**self._counts)

    def _count(self, name: str, n: int = 1) -> None:
        with self._mutex:
            self._counts[name] += n

    def lookup(self, call: CallLabel, key: str) -> GenerationResult | None:
        """The stored response (``replayed=True``, recorded latency), or None.

        Mode ``all`` finds only what was written during this run (by any worker).
        """
        result = self._read(call, key)
        self._count("hits" if result is not None else "misses")
        return result

    def _read(self, call: CallLabel, key: str) -> GenerationResult | None:
        path = self.path_for(call, key)
        stored = self._load(path)
        if stored is not None and stored.key == key:
            if not self._replayable(stored):
                return None  # recorded before this run: mode all calls it again
            with self._mutex:
                self._known[key] = path
            return stored.result
        # Another key at this path is an older request for this call (a changed prompt):
        # never replayed; a new recording rewrites the file in place.
        with self._mutex:
            known = self._known.get(key)
        for other in (known, self.root / legacy_relative_path(call, key)):
            if other is None or other == path:
                continue
            found = self._load(other)
            if found is not None and found.key == key and self._replayable(found):
                if self.mode != "none":
                    self._file_under(call, path, found)
                return found.result
        return None

    def _replayable(self, stored: StoredResponse) -> bool:
        return self.mode != "all" or stored.run_id == self.run_id

    def _load(self, path: Path) -> StoredResponse | None:
        """The record at ``path``; None when there is none or it is damaged (reported)."""
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError) as exc:
            self._report(path, f"cannot read it: {exc}")
            return None
        try:
            return decode_entry(text)
        except ValueError as exc:
            self._report(path, f"it is not a complete stored response ({exc})")
            return None

    def _file_under(self, call: CallLabel, path: Path, found: StoredResponse) -> None:
        """Write the response ``found`` elsewhere (this process's, or the old layout's) as
        the file of ``call`` too, in this format."""
        data = dict(found.data)
        if found.format < FORMAT_VERSION:
            data = {"key": found.key, "request": dict(found.request()),
                    "response": data.get("response"), "run_id": data.get("run_id"),
                    "recorded_at": data.get("recorded_at")}
        data["format"] = FORMAT_VERSION
        data["call"] = call.to_dict()
        atomic_write_text(path, dump_entry(data))
        self._gitignore()

    def _gitignore(self) -> None:
        if not self._gitignored:
            ensure_gitignore(self.root)
            self._gitignored = True

    def miss_message(self, call: CallLabel, key: str,
                     wanted: RequestInfo | None = None) -> str:
        """Why replay-only mode has nothing for ``call``: nothing stored, a damaged file, or
        a file recorded for another request (and then what changed), and how to record it."""
        path = self.path_for(call, key)
        head = (f"no recorded response for the {call.describe()} of model {call.model} on "
                f"study {call.study_id} (replay-only: --rwe-record none).")
        if not path.exists():
            why = (f" Nothing is stored at {path}: this call was never recorded (a new study,"
                   " model, juror or repeat), or its file was removed.")
        else:
            stored = self._load(path)
            if stored is None:
                why = f" The stored file {path} is damaged or incomplete."
            else:
                changes = what_changed(stored.request(), wanted) if wanted is not None else []
                what = ("; ".join(changes) if changes else
                        "the prompt, the model or the generation parameters changed"
                        if wanted is None else
                        "its key does not match the request it records (edited by hand?)")
                why = (f" {path} holds the response to another request, and replay refuses"
                       f" it: {what}.")
        how = (" Record it with --rwe-record new (needs the model's API key): the file is"
               f" rewritten in place, and the diff under {self.root} shows the old and the"
               " new output.")
        return head + why + how

    def _report(self, path: Path, reason: str) -> None:
        with self._mutex:
            if path in self._reported:
                return
            self._reported.add(path)
            self._counts["corrupt"] += 1
        fix = (
            "it is treated as missing and will be recorded again"
            if self.mode != "none"
            else "delete it and record it again with --rwe-record new"
        )
        warnings.warn(StoreWarning(f"{path}: {reason}; {fix}"), stacklevel=3)

    # -- writing -------------------------------------------------------------------------
    def save(
        self,
        call: CallLabel,
        key: str,
        result: GenerationResult,
        *,
        provider: str,
        model: str,
        settings: Mapping[str, Any],
        prompt_sha256: str,
        repeat: int | None = None,
        server: Mapping[str, Any] | None = None,
        prompt: Mapping[str, Any] | None = None,
        messages: tuple[Mapping[str, str], ...] | None = None,
    ) -> Path:
        """Store a successful ``result`` atomically and release this key's reservation.

        ``server``, ``prompt`` and ``messages``: see :class:`RequestInfo`. Errors are never
        stored: only a :class:`GenerationResult` is accepted. Every string is passed through
        :func:`pytest_rwe.redact.redact`, so no API key reaches the disk.
        """
        if repeat is not None and repeat != call.repeat:
            raise ValueError(f"repeat={repeat} differs from the label's repeat {call.repeat}")
        request = RequestInfo(provider, model, settings, prompt_sha256, call.key_repeat,
                              dict(server or {}), prompt, messages)
        return self.save_request(call, key, result, request)

    def save_request(self, call: CallLabel, key: str, result: GenerationResult,
                     request: RequestInfo) -> Path:
        """:meth:`save` with the request already described."""
        if self.mode == "none":
            raise ValueError(
                "the response store is replay-only (--rwe-record none); record with "
                "--rwe-record new to store new responses"
            )
        if not isinstance(result, GenerationResult):
            raise TypeError(f"save() takes a GenerationResult, not {type(result).__name__}")
        path = self.path_for(call, key)
        atomic_write_text(path, encode_entry(call, key, result, request, run_id=self.run_id))
        self._count("writes")
        self._gitignore()
        with self._mutex:
            self._known[key] = path
            token = self._held.get(key)
        if token is not None:
            self._release(key, token)
        return path

    async def get_or_call(
        self,
        call: CallLabel,
        key: str,
        produce: Callable[[], Awaitable[GenerationResult]],
        *,
        provider: str,
        model: str,
        settings: Mapping[str, Any],
        prompt_sha256: str,
        defer: Deferral | None = None,
        server: Mapping[str, Any] | None = None,
        prompt: Mapping[str, Any] | None = None,
        messages: tuple[Mapping[str, str], ...] | None = None,
    ) -> GenerationResult:
        """Replay ``key`` or run ``produce()`` once across workers and store its result.

        An exception from ``produce`` is not stored; it propagates after the reservation is
        released, so a waiting worker makes its own attempt. ``defer``: see :meth:`reserve`.
        """
        request = RequestInfo(provider, model, settings, prompt_sha256, call.key_repeat,
                              dict(server or {}), prompt, messages)
        reservation = await self.reserve(call, key, defer=defer, wanted=request)
        if reservation.result is not None:
            return reservation.result
        with reservation:
            result = await produce()
            # On the loop: a write is a file creation and a rename (a fraction of a
            # millisecond, no fsync), less than the CPU a hop to a thread and back costs.
            self.save_request(call, key, result, request)
            return result

    def file_as(self, call: CallLabel, key: str) -> None:
        """Make sure ``call`` has its own file of the response to ``key`` that this process
        read or stored for another label (a request shared in memory between two calls)."""
        if self.mode == "none":
            return
        path = self.path_for(call, key)
        with self._mutex:
            known = self._known.get(key)
        if known is None or known == path:
            return
        current = self._load(path)
        if current is not None and current.key == key:
            return
        found = self._load(known)
        if found is not None and found.key == key:
            self._file_under(call, path, found)


if not TYPE_CHECKING:  # the old name, for one release
    __getattr__ = renamed_attributes(__name__,
                                     {"Claim": "pytest_rwe.store.reservation:Reservation"})
