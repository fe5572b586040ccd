"""Retry policy and call counters: which failures are retried, how long, and the messages.

Calls run on a virtual-time loop (``virtual_time``): waits are recorded, not slept.
"""

from __future__ import annotations

import asyncio
import threading
from datetime import datetime, timezone
from email.utils import format_datetime

import pytest
from virtual_time import run_virtual

from pytest_rwe.providers.base import (
    GenerationRequest,
    GenerationResult,
    Message,
    Provider,
    ProviderError,
)
from pytest_rwe.providers.common import google_retry_delay, parse_retry_after, status_error
from pytest_rwe.providers.limiter import AdaptiveLimit
from pytest_rwe.providers.retry import (
    CallStats,
    RetryPolicy,
    call_with_retries,
    is_rate_limited,
)

REQUEST = GenerationRequest(messages=(Message("user", "hi"),))


class ScriptedProvider(Provider):
    """Fails with the scripted errors in order (an Exception instance is raised as is),
    then answers."""

    name = "scripted"

    def __init__(self, errors: list[Exception]) -> None:
        super().__init__("m")
        self.errors = list(errors)
        self.calls = 0

    async def generate(self, request: GenerationRequest) -> GenerationResult:
        self.calls += 1
        if self.errors:
            raise self.errors.pop(0)
        return GenerationResult(text="ok", latency_s=0.0)


def err(status: int | None = 500, retry_after: float | None = None) -> ProviderError:
    retryable = status is None or status in (408, 409, 429) or status >= 500
    return ProviderError(
        "scripted/m", f"HTTP {status}", retryable=retryable, status=status, retry_after=retry_after
    )


class Waits:
    """Records each retry wait, then sleeps it on the virtual loop."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)
        await asyncio.sleep(seconds)


def run_call(provider: Provider, policy: RetryPolicy, waits: Waits | None = None,
             stats: CallStats | None = None, limit: AdaptiveLimit | None = None,
             rand: float = 1.0) -> GenerationResult:
    return run_virtual(call_with_retries(
        provider, REQUEST, policy=policy, limit=limit or AdaptiveLimit(4),
        stats=stats or CallStats(), sleep=waits or Waits(), rand=lambda: rand,
    ))


def test_backoff_is_exponential_full_jitter_and_capped() -> None:
    policy = RetryPolicy(base_delay_s=0.5, max_delay_s=30.0)
    assert [policy.delay(n, err(), lambda: 1.0) for n in range(1, 9)] == [
        0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 30.0, 30.0,
    ]
    assert policy.delay(3, err(), lambda: 0.25) == 0.5  # full jitter: rand x ceiling
    assert policy.delay(3, err(), lambda: 0.0) == 0.0


def test_retry_after_is_honoured_up_to_the_cap_plus_jitter() -> None:
    policy = RetryPolicy(retry_after_cap_s=60.0)
    assert policy.delay(1, err(429, retry_after=10), lambda: 0.0) == 10.0
    assert policy.delay(1, err(429, retry_after=10), lambda: 1.0) == pytest.approx(12.0)
    assert policy.delay(1, err(429, retry_after=600), lambda: 0.0) == 60.0
    assert policy.delay(1, err(429, retry_after=0), lambda: 1.0) == pytest.approx(0.05)


def test_retries_until_success_and_counts() -> None:
    waits, stats = Waits(), CallStats()
    provider = ScriptedProvider([err(500), err(429, retry_after=3), err(None)])
    result = run_call(provider, RetryPolicy(base_delay_s=1.0), waits, stats)
    assert result.text == "ok" and provider.calls == 4
    # 500 -> first backoff 1 s; 429 -> its Retry-After 3 s (+20 % jitter); connection
    # error -> the second backoff of ordinary failures, 2 s (a 429 does not count)
    assert waits.waits == [1.0, pytest.approx(3.6), 2.0]
    assert stats.snapshot() == {"calls": 4, "retries": 3, "rate_limited": 1, "errors": 0}


def test_gives_up_after_max_attempts_naming_the_option() -> None:
    stats = CallStats()
    provider = ScriptedProvider([err(503)] * 10)  # a 503 without Retry-After: an ordinary 5xx
    with pytest.raises(ProviderError, match=r"HTTP 503 \[gave up after 3 attempts") as info:
        run_call(provider, RetryPolicy(max_attempts=3), stats=stats)
    assert "--rwe-max-attempts" in str(info.value) and "rwe_max_attempts" in str(info.value)
    assert info.value.status == 503 and provider.calls == 3
    assert stats.snapshot()["errors"] == 1


def test_non_retryable_error_is_not_retried() -> None:
    waits = Waits()
    provider = ScriptedProvider([err(400)])
    with pytest.raises(ProviderError, match="not retried"):
        run_call(provider, RetryPolicy(), waits)
    assert provider.calls == 1 and waits.waits == []


@pytest.mark.parametrize("status", [429, 529])
def test_a_rate_limited_call_retries_past_the_attempts_until_the_deadline(status: int) -> None:
    waits = Waits()
    provider = ScriptedProvider([err(status, retry_after=10)] * 20)
    result = run_call(provider, RetryPolicy(max_attempts=2, deadline_s=900), waits)
    assert result.text == "ok" and provider.calls == 21 and len(waits.waits) == 20


@pytest.mark.parametrize(("retry_after", "attempts"), [(None, 9), (100.0, 3), (3600.0, 2)],
                         ids=["absent", "present", "huge"])
def test_a_rate_limited_call_stops_at_its_deadline_naming_the_option(
        retry_after: float | None, attempts: int) -> None:
    # deadline 250 s, Retry-After capped at 200 s (+20 % jitter): backoff 0.5, 1, 2, ... 30 s
    # when absent; 120 s each when present; 240 s each when huge (capped)
    provider = ScriptedProvider([err(429, retry_after=retry_after)] * 1000)
    waits = Waits()
    with pytest.raises(ProviderError) as info:
        run_call(provider, RetryPolicy(deadline_s=250, retry_after_cap_s=200), waits)
    message = str(info.value)
    assert "still rate-limited after" in message
    assert "--rwe-deadline" in message and "rwe_deadline" in message
    assert sum(waits.waits) <= 250
    assert provider.calls == len(waits.waits) + 1
    if retry_after is None:
        assert provider.calls > attempts  # backoff grows to 30 s: many short attempts
    else:
        assert provider.calls == attempts
        assert max(waits.waits) <= 200 * 1.2


def test_503_with_retry_after_is_a_rate_limit_and_without_is_a_5xx() -> None:
    assert is_rate_limited(err(503, retry_after=5))
    assert not is_rate_limited(err(503))
    assert is_rate_limited(err(429)) and is_rate_limited(err(529))
    assert not is_rate_limited(err(500))


def test_a_bug_in_provider_code_propagates_and_frees_its_slot() -> None:
    limit = AdaptiveLimit(1)
    provider = ScriptedProvider([AttributeError("'NoneType' object has no attribute 'text'")])
    with pytest.raises(AttributeError, match="no attribute 'text'"):
        run_call(provider, RetryPolicy(), limit=limit)
    assert provider.calls == 1 and limit.in_flight == 0


def test_an_attempt_that_never_returns_is_bounded_by_the_timeout(
        monkeypatch: pytest.MonkeyPatch) -> None:
    class Hangs(Provider):
        name = "hangs"
        calls = 0

        async def generate(self, request: GenerationRequest) -> GenerationResult:
            self.calls += 1
            await asyncio.Event().wait()  # ignores every timeout of its own
            raise AssertionError("unreachable")

    provider = Hangs("m")
    with pytest.raises(ProviderError) as info:
        run_call(provider, RetryPolicy(timeout_s=30, max_attempts=2))
    assert "no answer within 30 s" in str(info.value) and "--rwe-timeout" in str(info.value)
    assert "rwe_timeout" in str(info.value) and provider.calls == 2


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


@pytest.mark.parametrize("bad", [{"max_attempts": 0}, {"deadline_s": 0}, {"timeout_s": -1}])
def test_policy_errors_name_the_option(bad: dict[str, float]) -> None:
    with pytest.raises(ValueError, match="--rwe-"):
        RetryPolicy(**bad)  # type: ignore[arg-type]


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
    assert status_error("x/y", 529, "overloaded").retryable
    assert not status_error("x/y", 404, "nope").retryable
    assert "check the model name" in str(status_error("x/y", 404, "nope"))
