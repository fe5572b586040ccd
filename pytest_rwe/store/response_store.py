"""The response store: every model call (summaries, judge calls, repairs) saved as one JSON file.

Layout (small files that can be committed, so a pull-request diff shows which outputs changed)::

    <root>/.gitignore                      # keeps the transient files below out of git
    <root>/.locks/<key>.lock               # single-flight locks while a call is in progress
    <root>/.locks/run-<run id>.*           # an xdist run's leader notes (pytest_rwe.store.leader)
    <root>/<study>/<provider>__<model>/summary-r<repeat>-<key12>.json
    <root>/<study>/<provider>__<model>/judge-<criterion>[-of-<subject>][-r<repeat>]-<key12>.json
    <root>/<study>/<provider>__<model>/repair-<criterion>[-of-<subject>][-r<repeat>]-<key12>.json

``<provider>__<model>`` is the called model's display name with "/" written "__"; ``<subject>``
is the model whose summary a juror scored, when the caller says; ``<key12>`` is the first 12
hex digits of the key (see :mod:`pytest_rwe.store.keys`). A file holds the full key, provider,
model, the effective settings, the repeat index, the label, the prompt's SHA-256, the response
(text, latency, tokens), the run id and ``recorded_at``, pretty-printed with sorted keys.

Record modes: ``new`` replays what is stored and calls the rest; ``none`` replays only (a miss
raises :class:`StoreMissError`); ``all`` calls everything again and overwrites, except what
another worker already wrote during the same run (same ``run_id``).
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
import warnings
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any, Literal

from pytest_rwe.providers.base import GenerationResult
from pytest_rwe.store.budget import StoreBudget
from pytest_rwe.store.entry import (
    CallKind,
    CallLabel,
    StoreMissError,
    StoreStats,
    StoreWarning,
    decode_record,
    encode_record,
)
from pytest_rwe.store.files import atomic_write_text
from pytest_rwe.store.keys import prompt_sha256, request_key, store_key
from pytest_rwe.store.leader import Deferral, DeferredCallFailed
from pytest_rwe.store.lock_files import ensure_gitignore
from pytest_rwe.store.locks import FlightLocks
from pytest_rwe.store.reservation import Claim, SingleFlight
from pytest_rwe.store.wait import LockWatcher, OwnerState

__all__ = [
    "RECORD_MODES",
    "CallKind",
    "CallLabel",
    "Claim",
    "Deferral",
    "DeferredCallFailed",
    "RecordMode",
    "ResponseStore",
    "StoreMissError",
    "StoreStats",
    "StoreWarning",
    "prompt_sha256",
    "request_key",
    "store_key",
]

RecordMode = Literal["new", "none", "all"]
RECORD_MODES: tuple[RecordMode, ...] = ("new", "none", "all")



class ResponseStore(SingleFlight):
    """Stored model responses under ``root``; safe for many processes at once.

    ``run_id`` identifies one test session and must be shared by all its xdist workers (for
    example the controller's start time); in mode ``all`` an entry written under the same run
    id counts as stored. A claim waits for another process's call while that process is
    working on it (alive, and with a fresh heartbeat in ``registry``: see
    :mod:`pytest_rwe.store.budget`); a lock whose owner cannot be checked is waited for at
    most ``wait_timeout`` seconds, then the model is called anyway (with a warning naming the
    lock). A lock whose owner died or stopped working, or older than ``stale_lock_after``
    seconds, is broken. ``shared=False`` says no other process uses the store (the caller
    dedupes in memory), so claims skip the locks. ``locks`` chooses how keys are locked
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
        self._locks = locks  # None: record locks where they work, else lock files
        self._gitignored = False
        self._watchers: dict[asyncio.AbstractEventLoop, LockWatcher] = {}
        self._owners: dict[tuple[str, int, int | None], tuple[OwnerState, float]] = {}
        self._mutex = threading.Lock()
        self._counts: dict[str, int] = dict.fromkeys(StoreStats.__dataclass_fields__, 0)
        self._held: dict[str, str] = {}  # key -> token of a lock this object holds
        self._reported: set[Path] = set()

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
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError) as exc:
            self._report(path, f"cannot read it: {exc}")
            return None
        try:
            stored = decode_record(text)
        except ValueError as exc:
            self._report(path, f"it is not a complete stored response ({exc})")
            return None
        if stored.key != key:
            return None  # another key with the same 12-digit prefix (or hand-edited): not ours
        if self.mode == "all" and stored.run_id != self.run_id:
            return None  # recorded before this run: mode all calls it again
        return stored.result

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
    ) -> Path:
        """Store a successful ``result`` atomically and release this key's claim.

        Errors are never stored: only a :class:`GenerationResult` is accepted. Every string
        is passed through :func:`pytest_rwe.redact.redact`, so no API key reaches the disk.
        """
        if self.mode == "none":
            raise ValueError(
                "the response store is replay-only (--rwe-record none); record with "
                "--rwe-record new to store new responses"
            )
        if not isinstance(result, GenerationResult):
            raise TypeError(f"save() takes a GenerationResult, not {type(result).__name__}")
        if repeat is not None and repeat != call.repeat:
            raise ValueError(f"repeat={repeat} differs from the label's repeat {call.repeat}")
        path = self.path_for(call, key)
        text = encode_record(
            call,
            key,
            result,
            provider=provider,
            model=model,
            settings=settings,
            prompt_sha256=prompt_sha256,
            run_id=self.run_id,
        )
        atomic_write_text(path, text)
        self._count("writes")
        if not self._gitignored:
            ensure_gitignore(self.root)
            self._gitignored = True
        with self._mutex:
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
    ) -> GenerationResult:
        """Replay ``key`` or run ``produce()`` once across workers and store its result.

        An exception from ``produce`` is not stored; it propagates after the claim is
        released, so a waiting worker makes its own attempt. ``defer``: see :meth:`claim`.
        """
        claim = await self.claim(call, key, defer=defer)
        if claim.result is not None:
            return claim.result
        with claim:
            result = await produce()
            # On the loop: a write is a file creation and a rename (a fraction of a
            # millisecond, no fsync), less than the CPU a hop to a thread and back costs.
            self.save(call, key, result, provider=provider, model=model, settings=settings,
                      prompt_sha256=prompt_sha256)
            return result
