"""The gate against a real server: bounded in-flight requests, 429 waves absorbed."""

from __future__ import annotations

import asyncio

from provider_testkit import VENDORS, provider, request

from pytest_rwe.providers.base import GenerationResult, Provider
from pytest_rwe.providers.limiter import AdaptiveLimit
from pytest_rwe.providers.retry import CallStats, RetryPolicy, call_with_retries
from pytest_rwe.testing import FakeServer


def many_calls(
    providers: list[Provider], n: int, gates: dict[str, AdaptiveLimit], stats: CallStats
) -> list[GenerationResult]:
    async def main() -> list[GenerationResult]:
        try:
            return await asyncio.gather(
                *(
                    call_with_retries(
                        p,
                        request(f"Summarize study {i}."),
                        policy=RetryPolicy(base_delay_s=0.05),
                        limit=gates[p.name],
                        stats=stats,
                    )
                    for i in range(n)
                    for p in providers
                )
            )
        finally:
            for p in providers:
                await p.aclose()

    return asyncio.run(main())


def test_gate_keeps_at_most_n_requests_in_flight(server: FakeServer) -> None:
    for vendor in VENDORS:  # nothing is answered before 5 are in flight: the gate's ceiling
        server.hold(vendor, until_in_flight=5)
    providers = [provider(v) for v in VENDORS]
    gates = {p.name: AdaptiveLimit(5) for p in providers}
    results = many_calls(providers, 20, gates, CallStats())
    assert len(results) == 60
    for vendor in VENDORS:
        assert server.max_in_flight(vendor) == 5, vendor
    assert server.rate_limited() == 0 and server.duplicate_requests() == []


def test_server_sustains_48_concurrent_requests(server: FakeServer) -> None:
    barrier = server.hold("openai", until_in_flight=48)
    p = provider("openai")
    results = many_calls([p], 48, {"openai": AdaptiveLimit(48)}, CallStats())
    # all 48 were in flight at once (the server's count, not a clock)
    assert len(results) == 48 and server.max_in_flight("openai") == 48
    assert not barrier.timed_out


def test_server_cap_429s_are_absorbed_by_retries(server: FakeServer) -> None:
    server.retry_after_s = 0.1
    server.set_cap("anthropic", 4)
    # answered only once the cap is full and one more was refused: 429s are certain
    server.hold("anthropic", until_in_flight=4, until_refused=1)
    stats = CallStats()
    p = provider("anthropic")
    results = many_calls([p], 24, {"anthropic": AdaptiveLimit(8)}, stats)
    assert len(results) == 24
    counts = stats.snapshot()
    assert counts["errors"] == 0 and counts["rate_limited"] == server.rate_limited() > 0
    assert server.max_in_flight("anthropic") <= 4
    assert server.duplicate_requests() == []  # a retried 429 is answered once
