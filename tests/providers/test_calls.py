"""Retry policy, gate and stats with an injected clock and sleep: no real waiting."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from datetime import datetime, timezone
from email.utils import format_datetime

import pytest

from pytest_rwe.providers._vendor import google_retry_delay, parse_retry_after, status_error
from pytest_rwe.providers.base import (
    GenerationRequest,
    GenerationResult,
    Message,
    Provider,
    ProviderError,
)
from pytest_rwe.providers.calls import (
    CallStats,
    ProviderGate,
    RetryPolicy,
    call_with_retries,
    gates_for,
)

REQUEST = GenerationRequest(messages=(Message("user", "hi"),))


class FakeClock:
    """A clock that moves only when the code under test sleeps."""

    def __init__(self) -> None:
        self.now = 0.0
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds
        await asyncio.sleep(0)  # let other tasks run, without real waiting


class ScriptedProvider(Provider):
    """Fails with the scripted errors in order, then answers."""

    name = "scripted"

    def __init__(self, errors: list[ProviderError], on_call: Callable[[], None] = lambda: None):
        super().__init__("m")
        self.errors = list(errors)
        self.calls = 0
        self.on_call = on_call

    async def generate(self, request: GenerationRequest) -> GenerationResult:
        self.calls += 1
        self.on_call()
        if self.errors:
            raise self.errors.pop(0)
        return GenerationResult(text="ok", latency_s=0.0)


def err(status: int | None = 500, retry_after: float | None = None) -> ProviderError:
    retryable = status is None or status == 429 or status >= 500
    return ProviderError(
        "scripted/m", f"HTTP {status}", retryable=retryable, status=status, retry_after=retry_after
    )


def run_call(
    provider: Provider, policy: RetryPolicy, clock: FakeClock, stats: CallStats | None = None
) -> GenerationResult:
    gate = ProviderGate(4, clock=clock, sleep=clock.sleep)
    return asyncio.run(
        call_with_retries(
            provider,
            REQUEST,
            policy=policy,
            gate=gate,
            stats=stats or CallStats(),
            sleep=clock.sleep,
            rand=lambda: 1.0,
        )
    )


def test_backoff_is_exponential_full_jitter_and_capped() -> None:
    policy = RetryPolicy(base_delay_s=0.5, max_delay_s=30.0)
    assert [policy.delay(n, err(), lambda: 1.0) for n in range(1, 9)] == [
        0.5,
        1.0,
        2.0,
        4.0,
        8.0,
        16.0,
        30.0,
        30.0,
    ]
    assert policy.delay(3, err(), lambda: 0.25) == 0.5  # full jitter: rand x ceiling
    assert policy.delay(3, err(), lambda: 0.0) == 0.0


def test_retry_after_is_honoured_up_to_the_cap_plus_jitter() -> None:
    policy = RetryPolicy(retry_after_cap_s=60.0)
    assert policy.delay(1, err(429, retry_after=10), lambda: 0.0) == 10.0
    assert policy.delay(1, err(429, retry_after=10), lambda: 1.0) == pytest.approx(11.0)
    assert policy.delay(1, err(429, retry_after=600), lambda: 0.0) == 60.0
    assert policy.delay(1, err(429, retry_after=0), lambda: 1.0) == pytest.approx(0.05)


def test_retries_until_success_and_counts() -> None:
    clock, stats = FakeClock(), CallStats()
    provider = ScriptedProvider([err(500), err(429, retry_after=3), err(None)])
    result = run_call(provider, RetryPolicy(base_delay_s=1.0), clock, stats)
    assert result.text == "ok" and provider.calls == 4
    # attempt 1 -> backoff 1 s; attempt 2 -> Retry-After 3 s (+10 % jitter); attempt 3 -> 4 s
    assert clock.sleeps[0] == 1.0 and clock.sleeps[1] == pytest.approx(3.3)
    assert clock.sleeps[-1] == 4.0
    assert stats.snapshot() == {"calls": 4, "retries": 3, "rate_limited": 1, "errors": 0}


def test_gives_up_after_max_attempts_saying_so() -> None:
    clock, stats = FakeClock(), CallStats()
    provider = ScriptedProvider([err(503)] * 10)
    with pytest.raises(ProviderError, match=r"HTTP 503 \[gave up after 3 attempts") as info:
        run_call(provider, RetryPolicy(max_attempts=3), clock, stats)
    assert info.value.status == 503 and provider.calls == 3
    assert stats.snapshot()["errors"] == 1 and len(clock.sleeps) == 2


def test_non_retryable_error_is_not_retried() -> None:
    clock = FakeClock()
    provider = ScriptedProvider([err(400)])
    with pytest.raises(ProviderError, match="not retried"):
        run_call(provider, RetryPolicy(), clock)
    assert provider.calls == 1 and clock.sleeps == []


def test_429_pauses_new_calls_to_that_provider() -> None:
    clock = FakeClock()  # only the gate's waits move it
    gate = ProviderGate(8, clock=clock, sleep=clock.sleep)
    started: list[float] = []

    async def main() -> None:
        backoff_waits: list[float] = []

        async def stuck_sleep(seconds: float) -> None:  # the 429-ed call stays in its backoff
            backoff_waits.append(seconds)
            await asyncio.Event().wait()

        limited = ScriptedProvider([err(429, retry_after=5)])
        first = asyncio.create_task(
            call_with_retries(
                limited,
                REQUEST,
                policy=RetryPolicy(),
                gate=gate,
                stats=CallStats(),
                sleep=stuck_sleep,
                rand=lambda: 0.0,
            )
        )
        while not backoff_waits:
            await asyncio.sleep(0)
        assert backoff_waits == [5.0] and gate.paused_for == 5.0
        later = ScriptedProvider([], on_call=lambda: started.append(clock.now))
        await call_with_retries(
            later, REQUEST, policy=RetryPolicy(), gate=gate, stats=CallStats(), sleep=clock.sleep
        )
        first.cancel()

    asyncio.run(main())
    assert started == [5.0] and clock.sleeps == [5.0]  # the new call waited out the pause


def test_gate_bounds_concurrency() -> None:
    gate = ProviderGate(3)
    peak = 0

    async def work() -> None:
        nonlocal peak
        async with gate.slot():
            peak = max(peak, gate.in_flight)
            await asyncio.sleep(0.001)

    async def main() -> None:
        await asyncio.gather(*(work() for _ in range(20)))

    asyncio.run(main())
    assert peak == 3 and gate.max_in_flight == 3 and gate.in_flight == 0


def test_gates_are_per_loop_and_per_prefix() -> None:
    async def get() -> tuple[ProviderGate, ProviderGate, ProviderGate]:
        return gates_for("openai"), gates_for("openai"), gates_for("google")

    a, b, c = asyncio.run(get())
    assert a is b and a is not c
    d, _, _ = asyncio.run(get())
    assert d is not a


def test_call_stats_are_thread_safe() -> None:
    stats = CallStats()

    def bump() -> None:
        for _ in range(2000):
            stats.add("calls")

    threads = [threading.Thread(target=bump) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert stats.snapshot() == {"calls": 16000, "retries": 0, "rate_limited": 0, "errors": 0}


def test_parse_retry_after_forms() -> None:
    assert parse_retry_after({"Retry-After": "7"}) == 7.0
    assert parse_retry_after({"retry-after": "0.5"}) == 0.5
    assert parse_retry_after({"retry-after-ms": "1500", "retry-after": "9"}) == 1.5
    when = datetime(2030, 1, 1, 0, 0, 30, tzinfo=timezone.utc)
    now = datetime(2030, 1, 1, 0, 0, 0, tzinfo=timezone.utc).timestamp()
    assert parse_retry_after({"Retry-After": format_datetime(when, usegmt=True)}, now=now) == 30.0
    assert parse_retry_after({"Retry-After": "soon"}) is None
    assert parse_retry_after({}) is None


def test_google_retry_info_and_status_mapping() -> None:
    body = {
        "error": {
            "code": 429,
            "details": [{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "37s"}],
        }
    }
    assert google_retry_delay(body) == 37.0
    assert google_retry_delay({"error": {"code": 500}}) is None
    limited = status_error("google/x", 429, "slow down", retry_after=37.0)
    assert limited.retryable and limited.retry_after == 37.0
    assert status_error("x/y", 500, "boom").retryable
    assert not status_error("x/y", 404, "nope").retryable
    assert "check the model name" in str(status_error("x/y", 404, "nope"))
