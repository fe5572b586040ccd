"""Calling providers: retries with backoff, a per-provider gate, and call counters.

- :class:`RetryPolicy`: how many attempts and how long to wait between them (full-jitter
  exponential backoff, or the server's Retry-After up to a cap, plus a little jitter).
- :class:`ProviderGate`: at most ``limit`` concurrent calls to one provider, and a shared
  pause: once a call sees a 429, new calls to that provider wait until the pause ends, so
  retries do not come back in one wave.
- :class:`CallStats`: thread-safe counters for the progress line and the report.
- :func:`call_with_retries`: one request through the gate, retried per the policy.
"""

from __future__ import annotations

import asyncio
import random
import threading
import time
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass

from pytest_rwe.providers.base import GenerationRequest, GenerationResult, Provider, ProviderError

Sleep = Callable[[float], Awaitable[None]]
Clock = Callable[[], float]
DEFAULT_CONCURRENCY = 16


@dataclass(frozen=True)
class RetryPolicy:
    """Attempts and waits for retryable errors (429, 5xx, timeouts, connection errors)."""

    max_attempts: int = 6
    retry_after_cap_s: float = 60.0
    base_delay_s: float = 0.5
    max_delay_s: float = 30.0
    #: spread added to a Retry-After wait, as a fraction of it (at least 50 ms)
    retry_after_jitter: float = 0.1

    def __post_init__(self) -> None:
        if self.max_attempts < 1:
            raise ValueError(f"RetryPolicy.max_attempts must be >= 1, got {self.max_attempts}")

    def delay(
        self, failures: int, error: ProviderError, rand: Callable[[], float] = random.random
    ) -> float:
        """Seconds to wait after the ``failures``-th failed attempt (1 for the first)."""
        if error.retry_after is not None:
            wait = min(max(error.retry_after, 0.0), self.retry_after_cap_s)
            return wait + rand() * max(0.05, wait * self.retry_after_jitter)
        ceiling = min(self.max_delay_s, self.base_delay_s * 2.0 ** (failures - 1))
        return rand() * ceiling  # full jitter: spreads a burst of failures over the window


class CallStats:
    """Counters shared by all calls of a session (thread-safe).

    ``calls``: attempts sent to a provider; ``retries``: attempts after the first;
    ``rate_limited``: 429 answers seen; ``errors``: requests that failed for good.
    """

    _FIELDS = ("calls", "retries", "rate_limited", "errors")

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counts = dict.fromkeys(self._FIELDS, 0)

    def add(self, name: str, n: int = 1) -> None:
        with self._lock:
            self._counts[name] += n

    def snapshot(self) -> dict[str, int]:
        with self._lock:
            return dict(self._counts)


class ProviderGate:
    """Bounds concurrent calls to one provider and holds new calls while it is rate-limited.

    The semaphore is created on first use, inside the running event loop.
    """

    def __init__(
        self,
        limit: int = DEFAULT_CONCURRENCY,
        *,
        clock: Clock = time.monotonic,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        if limit < 1:
            raise ValueError(f"concurrency limit must be >= 1, got {limit}")
        self.limit = limit
        self._clock = clock
        self._sleep = sleep
        self._semaphore: asyncio.Semaphore | None = None
        self._paused_until = 0.0
        self.in_flight = 0
        self.max_in_flight = 0

    def pause(self, seconds: float) -> None:
        """Hold new calls for ``seconds`` from now (never shortens an existing pause)."""
        self._paused_until = max(self._paused_until, self._clock() + seconds)

    @property
    def paused_for(self) -> float:
        return max(0.0, self._paused_until - self._clock())

    async def _wait_pause(self) -> None:
        while (remaining := self.paused_for) > 0:
            await self._sleep(remaining)

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        """Wait out any pause, then hold one of the ``limit`` slots."""
        if self._semaphore is None:
            self._semaphore = asyncio.Semaphore(self.limit)
        while True:
            await self._wait_pause()
            await self._semaphore.acquire()
            if self.paused_for <= 0:
                break
            self._semaphore.release()  # a 429 arrived while we queued: wait again, slot-free
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            yield
        finally:
            self.in_flight -= 1
            self._semaphore.release()


_GATES: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, ProviderGate]] = (
    weakref.WeakKeyDictionary()
)


def gates_for(prefix: str, limit: int = DEFAULT_CONCURRENCY) -> ProviderGate:
    """The gate of provider ``prefix`` in the running event loop (made on first use)."""
    loop = asyncio.get_running_loop()
    gates = _GATES.setdefault(loop, {})
    if prefix not in gates:
        gates[prefix] = ProviderGate(limit)
    return gates[prefix]


def _bare_message(error: ProviderError) -> str:
    text = str(error)
    prefix = f"{error.model}: "
    return text[len(prefix) :] if text.startswith(prefix) else text


async def call_with_retries(
    provider: Provider,
    request: GenerationRequest,
    *,
    policy: RetryPolicy,
    gate: ProviderGate,
    stats: CallStats,
    sleep: Sleep = asyncio.sleep,
    rand: Callable[[], float] = random.random,
) -> GenerationResult:
    """Run ``request`` on ``provider``, retrying retryable errors per ``policy``.

    Raises the last :class:`ProviderError`, its message saying how many attempts were made.
    """
    error: ProviderError | None = None
    attempt = 0
    for attempt in range(1, policy.max_attempts + 1):
        async with gate.slot():
            stats.add("calls")
            if attempt > 1:
                stats.add("retries")
            try:
                return await provider.generate(request)
            except ProviderError as exc:
                error = exc
        if error.status == 429:
            stats.add("rate_limited")
        if not error.retryable or attempt == policy.max_attempts:
            break
        wait = policy.delay(attempt, error, rand)
        if error.status == 429:
            gate.pause(wait)
        await sleep(wait)
    assert error is not None  # the loop returns on success
    stats.add("errors")
    if not error.retryable:
        detail = f"not retried: this error is not transient (attempt {attempt})"
    else:
        detail = (
            f"gave up after {attempt} attempts; raise the attempts (RetryPolicy.max_attempts) "
            "or lower the concurrency if the provider keeps refusing"
        )
    raise ProviderError(
        error.model,
        f"{_bare_message(error)} [{detail}]",
        retryable=error.retryable,
        retry_after=error.retry_after,
        status=error.status,
    ) from error
