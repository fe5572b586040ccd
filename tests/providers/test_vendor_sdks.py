"""The three providers through their real SDK clients against the fake server."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any, TypeVar

import pytest
from provider_testkit import KEYS, VENDORS, provider, request

from pytest_rwe.providers.base import GenerationResult, Provider, ProviderError
from pytest_rwe.providers.limiter import AdaptiveLimit
from pytest_rwe.providers.retry import CallStats, RetryPolicy, call_with_retries
from pytest_rwe.testing import FakeServer
from pytest_rwe.testing.fake_wire import DEFAULT_SUMMARY, count_tokens

T = TypeVar("T")
HANG_UNTIL_STOPPED_S = 600.0  # a hang the server ends only when it stops (end of test)
pytestmark = pytest.mark.parametrize("vendor", VENDORS)


def run(provider_: Provider, coro: Awaitable[T]) -> T:
    async def main() -> T:
        try:
            return await coro
        finally:
            await provider_.aclose()

    return asyncio.run(main())


def generate(p: Provider, text: str = "Summarize this study.") -> GenerationResult:
    return run(p, p.generate(request(text)))


def generate_error(p: Provider, text: str = "Summarize this study.") -> ProviderError:
    with pytest.raises(ProviderError) as info:
        generate(p, text)
    return info.value


class RecordingSleep:
    """Really sleeps (briefly) and records every wait requested."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)
        await asyncio.sleep(seconds)


def retried(
    p: Provider, policy: RetryPolicy, sleep: RecordingSleep, stats: CallStats | None = None
) -> GenerationResult:
    return run(
        p,
        call_with_retries(
            p,
            request(),
            policy=policy,
            limit=AdaptiveLimit(4),
            stats=stats or CallStats(),
            sleep=sleep,
        ),
    )


def test_success_text_latency_tokens(vendor: str, server: FakeServer) -> None:
    server.latency_s = 0.05
    result = generate(provider(vendor), "Summarize this study.")
    assert result.text == DEFAULT_SUMMARY
    assert result.latency_s >= 0.05  # the server's latency at least (no upper bound: a
    # busy machine may take any time)
    assert result.usage.output_tokens == count_tokens(DEFAULT_SUMMARY)
    assert result.usage.input_tokens == count_tokens("Summarize this study.")
    (sent,) = server.requests
    assert sent.provider == vendor and sent.status == 200


def test_base_url_comes_from_the_sdk_variable(vendor: str, server: FakeServer) -> None:
    # `server` set only OPENAI_BASE_URL / ANTHROPIC_BASE_URL / GOOGLE_GEMINI_BASE_URL
    generate(provider(vendor))
    assert [r.provider for r in server.requests] == [vendor]


def test_base_url_option_overrides_for_that_model_only(vendor: str, server: FakeServer) -> None:
    with FakeServer() as other:
        generate(provider(vendor, base_url=other.base_urls[vendor]))
        generate(provider(vendor))
        assert len(other.requests) == 1
    assert len(server.requests) == 1


def test_429_retry_after_is_honoured_then_succeeds(vendor: str, server: FakeServer) -> None:
    server.add_fault("rate_limit", provider=vendor, retry_after_s=0.3)
    sleep, stats = RecordingSleep(), CallStats()
    result = retried(provider(vendor), RetryPolicy(base_delay_s=0.01), sleep, stats)
    assert result.text == DEFAULT_SUMMARY
    assert len(sleep.waits) == 1 and 0.3 <= sleep.waits[0] <= 0.3 + 0.06
    assert stats.snapshot() == {"calls": 2, "retries": 1, "rate_limited": 1, "errors": 0}
    assert [r.status for r in server.requests] == [429, 200]


def test_retry_after_is_capped(vendor: str, server: FakeServer) -> None:
    server.add_fault("rate_limit", provider=vendor, retry_after_s=30)
    sleep = RecordingSleep()
    retried(provider(vendor), RetryPolicy(retry_after_cap_s=0.2), sleep)
    assert len(sleep.waits) == 1 and 0.2 <= sleep.waits[0] <= 0.2 + 0.06


def test_500_is_retried(vendor: str, server: FakeServer) -> None:
    server.add_fault("status", provider=vendor, status=500, times=2)
    sleep = RecordingSleep()
    result = retried(provider(vendor), RetryPolicy(base_delay_s=0.01), sleep)
    assert result.text == DEFAULT_SUMMARY
    assert [r.status for r in server.requests] == [500, 500, 200]


def test_500_forever_fails_after_the_attempts(vendor: str, server: FakeServer) -> None:
    server.add_fault("status", provider=vendor, status=503, times=-1, text="Overloaded, sorry.")
    with pytest.raises(ProviderError) as info:
        retried(provider(vendor), RetryPolicy(max_attempts=3, base_delay_s=0.01), RecordingSleep())
    message = str(info.value)
    assert "HTTP 503" in message and "Overloaded, sorry." in message
    assert "after 3 attempts" in message
    assert len(server.requests) == 3


def test_timeout_is_retried_then_fails_clearly(vendor: str, server: FakeServer) -> None:
    # hangs until the server stops: only the client's own timeout can end an attempt
    server.add_fault("timeout", provider=vendor, times=-1, hang_s=HANG_UNTIL_STOPPED_S)
    p = provider(vendor, timeout_s=0.3)
    with pytest.raises(ProviderError) as info:
        retried(p, RetryPolicy(max_attempts=2, base_delay_s=0.01), RecordingSleep())
    message = str(info.value)
    # the SDK's own timeout (the server never drops the connection while the test runs)
    assert "no answer within 0.3 s" in message and "--rwe-timeout" in message
    assert "after 2 attempts" in message and "--rwe-max-attempts" in message
    assert len([r for r in server.requests if r.fault == "timeout"]) == 2


def test_timeout_once_then_success(vendor: str, server: FakeServer) -> None:
    server.add_fault("timeout", provider=vendor, hang_s=HANG_UNTIL_STOPPED_S)
    result = retried(
        provider(vendor, timeout_s=0.3), RetryPolicy(base_delay_s=0.01), RecordingSleep()
    )
    assert result.text == DEFAULT_SUMMARY


@pytest.mark.parametrize(
    ("kind", "expected"),
    [
        ("malformed", "not valid JSON"),
        ("empty", {"openai": "no choices", "anthropic": "no content", "google": "no candidates"}),
    ],
)
def test_bad_bodies_fail_clearly_without_retry(
    vendor: str, server: FakeServer, kind: Any, expected: Any
) -> None:
    server.add_fault(kind, provider=vendor, times=-1)
    with pytest.raises(ProviderError) as info:
        retried(provider(vendor), RetryPolicy(base_delay_s=0.01), RecordingSleep())
    want = expected if isinstance(expected, str) else expected[vendor]
    assert want in str(info.value) and "not retried" in str(info.value)
    assert not info.value.retryable
    assert len(server.requests) == 1


def test_not_json_judge_reply_is_returned_as_text(vendor: str, server: FakeServer) -> None:
    server.add_fault("not_json", provider=vendor)
    result = generate(provider(vendor))
    assert not result.text.lstrip().startswith("{")


def test_key_never_appears_in_errors_or_records(vendor: str, server: FakeServer) -> None:
    everything = " ".join(KEYS.values())
    server.add_fault("status", provider=vendor, status=401, text=f"Incorrect API key: {everything}")
    error = generate_error(provider(vendor))
    assert error.status == 401 and not error.retryable
    assert "redacted" in str(error) and "check the API key" in str(error)
    for key in KEYS.values():
        assert key not in str(error)
        assert all(key not in value for r in server.requests for value in r.headers.values())


def test_4xx_is_not_retried(vendor: str, server: FakeServer) -> None:
    server.add_fault("status", provider=vendor, status=400, times=-1, text="Bad field.")
    with pytest.raises(ProviderError) as info:
        retried(provider(vendor), RetryPolicy(base_delay_s=0.01), RecordingSleep())
    assert "Bad field." in str(info.value) and "not retried" in str(info.value)
    assert len(server.requests) == 1


def test_connection_refused_is_retryable(vendor: str, server: FakeServer) -> None:
    with FakeServer() as gone:
        url = gone.base_urls[vendor]
    error = generate_error(provider(vendor, base_url=url, timeout_s=2))
    assert error.retryable and "connection failed" in str(error)


def test_effective_settings_are_what_is_sent(vendor: str, server: FakeServer) -> None:
    p = provider(vendor)
    generate(p)
    body = server.requests[0].body
    assert body is not None
    settings = p.effective_settings(request().settings)
    if vendor == "google":
        sent = body["generationConfig"]
        assert sent == {"temperature": 0.0, "maxOutputTokens": settings["max_output_tokens"]}
    else:
        assert {k: body[k] for k in settings} == dict(settings)
