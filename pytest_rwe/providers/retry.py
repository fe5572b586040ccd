"""Calling providers: retries with backoff, an adaptive limit per endpoint, call counters.

- :class:`RetryPolicy`: which failures are retried, how long to wait and for how long to
  keep trying. A rate-limited call (429, Anthropic's 529 "overloaded", a 503 that says when
  to come back) is retried until its deadline (``--rwe-deadline``, counted from its first
  attempt); other transient failures (5xx, timeouts, connection errors) get a bounded
  number of attempts (``--rwe-max-attempts``). Waits are the server's Retry-After (up to
  ``--rwe-retry-cap``) or full-jitter exponential backoff, always with jitter, so rejected
  calls do not come back in one wave.
- :class:`CallStats`: thread-safe counters for the progress line and the report.
- :func:`call_with_retries`: one request through the endpoint's
  :class:`~pytest_rwe.providers.limiter.AdaptiveLimit`, retried per the policy; every
  attempt is bounded in time (``--rwe-timeout``), even if the provider's SDK is not.
"""

from __future__ import annotations

import asyncio
import random
import sys
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

from pytest_rwe.providers.base import GenerationRequest, GenerationResult, Provider, ProviderError
from pytest_rwe.providers.limiter import AdaptiveLimit, Clock
from pytest_rwe.settings import (
    DEFAULT_CONCURRENCY,
    DEFAULT_DEADLINE_S,
    DEFAULT_MAX_ATTEMPTS,
    DEFAULT_RETRY_CAP_S,
    DEFAULT_TIMEOUT_S,
)

__all__ = ["DEFAULT_CONCURRENCY", "CallStats", "RetryPolicy", "call_with_retries"]

# The SDKs enforce the per-attempt timeout themselves, with a clearer error; this margin
# lets them, and catches a provider that never returns.
GUARD_MARGIN_S = 10.0
#: statuses that mean "too much load, come back later": the limit is cut on them
OVERLOAD_STATUSES = frozenset({429, 503, 529})
T = TypeVar("T")


@dataclass(frozen=True)
class RetryPolicy:
    """How failures are retried; every limit is a CLI option (named in the messages)."""

    max_attempts: int = DEFAULT_MAX_ATTEMPTS
    deadline_s: float = DEFAULT_DEADLINE_S
    retry_after_cap_s: float = DEFAULT_RETRY_CAP_S
    timeout_s: float = DEFAULT_TIMEOUT_S
    base_delay_s: float = 0.5
    max_delay_s: float = 30.0
    #: spread added to a Retry-After wait, as a fraction of it (at least 50 ms)
    retry_after_jitter: float = 0.2

    def __post_init__(self) -> None:
        if self.max_attempts < 1:
            raise ValueError(f"--rwe-max-attempts must be >= 1, got {self.max_attempts}")
        if self.deadline_s <= 0:
            raise ValueError(f"--rwe-deadline must be > 0 seconds, got {self.deadline_s:g}")
        if self.timeout_s <= 0:
            raise ValueError(f"--rwe-timeout must be > 0 seconds, got {self.timeout_s:g}")

    def delay(
        self, failures: int, error: ProviderError, rand: Callable[[], float] = random.random
    ) -> float:
        """Seconds to wait after the ``failures``-th failed attempt (1 for the first)."""
        if error.retry_after is not None:
            wait = min(max(error.retry_after, 0.0), self.retry_after_cap_s)
            return wait + rand() * max(0.05, wait * self.retry_after_jitter)
        ceiling = min(self.max_delay_s, self.base_delay_s * 2.0 ** (failures - 1))
        return rand() * ceiling  # full jitter: spreads a burst of failures over the window


def is_overload(error: ProviderError) -> bool:
    """The provider refused for load (429/503/529): a reason to lower the concurrency."""
    return error.status in OVERLOAD_STATUSES


def is_rate_limited(error: ProviderError) -> bool:
    """Retried until the deadline rather than a number of attempts: 429, 529, and a 503
    that says when to come back (a 503 without Retry-After is an ordinary 5xx)."""
    return error.status in (429, 529) or (error.status == 503 and error.retry_after is not None)


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


def _bare_message(error: ProviderError) -> str:
    text = str(error)
    prefix = f"{error.model}: "
    return text[len(prefix) :] if text.startswith(prefix) else text


if sys.version_info >= (3, 11):

    async def _bounded(call: Awaitable[T], seconds: float) -> T:
        async with asyncio.timeout(seconds):  # no extra task, unlike wait_for on 3.10
            return await call

else:  # pragma: no cover - Python 3.10

    async def _bounded(call: Awaitable[T], seconds: float) -> T:
        return await asyncio.wait_for(call, seconds)


async def _attempt(provider: Provider, request: GenerationRequest,
                   policy: RetryPolicy) -> GenerationResult:
    try:
        return await _bounded(provider.generate(request), policy.timeout_s + GUARD_MARGIN_S)
    except TimeoutError:
        raise ProviderError(
            provider.full_name,
            f"no answer within {policy.timeout_s:g} s; raise --rwe-timeout (ini rwe_timeout) "
            "if the model needs longer",
            retryable=True,
        ) from None


async def call_with_retries(
    provider: Provider,
    request: GenerationRequest,
    *,
    policy: RetryPolicy,
    limit: AdaptiveLimit,
    stats: CallStats,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    rand: Callable[[], float] = random.random,
    clock: Clock | None = None,
) -> GenerationResult:
    """Run ``request`` on ``provider``, retrying per ``policy`` within ``limit``.

    Raises the last :class:`ProviderError`, its message saying what was tried and which
    option to change. Anything else a provider raises (a bug in its code) propagates as is.
    """
    now = clock or asyncio.get_running_loop().time
    started: float | None = None
    attempt = failures = rate_limited = 0
    while True:
        attempt += 1
        async with limit.slot(retry=attempt > 1) as slot:
            if started is None:
                started = now()  # the deadline counts from the first attempt, not the queue
            stats.add("calls")
            if attempt > 1:
                stats.add("retries")
            try:
                result = await _attempt(provider, request, policy)
            except ProviderError as exc:
                error = exc
            else:
                slot.succeeded()
                return result
            wait = 0.0
            if error.retryable:
                if is_rate_limited(error):
                    rate_limited += 1
                    wait = policy.delay(rate_limited, error, rand)
                else:
                    failures += 1
                    wait = policy.delay(failures, error, rand)
            if is_overload(error):
                slot.overloaded(wait, error.status)
        if error.status == 429:
            stats.add("rate_limited")
        detail = _give_up(error, policy, attempt, failures, now() - started, wait)
        if detail is not None:
            stats.add("errors")
            raise ProviderError(
                error.model,
                f"{_bare_message(error)} [{detail}]",
                retryable=error.retryable,
                retry_after=error.retry_after,
                status=error.status,
            ) from error
        limit.note_wait(wait)
        await sleep(wait)


def _give_up(error: ProviderError, policy: RetryPolicy, attempt: int, failures: int,
             elapsed: float, wait: float) -> str | None:
    """Why this call stops here (the message's tail, naming the option), or None to retry."""
    if not error.retryable:
        return f"not retried: this error is not transient (attempt {attempt})"
    if is_rate_limited(error):
        if elapsed + wait <= policy.deadline_s:
            return None
        return (f"still rate-limited after {attempt} attempts over {elapsed:.0f} s; "
                f"each call keeps trying for {policy.deadline_s:g} s (--rwe-deadline, ini "
                "rwe_deadline): raise it, or lower --rwe-concurrency if other clients share "
                "the key")
    if failures < policy.max_attempts:
        return None
    return (f"gave up after {failures} attempts; raise --rwe-max-attempts (ini "
            "rwe_max_attempts) if the provider is only briefly unavailable")
