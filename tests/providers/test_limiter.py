"""The adaptive limit, on an event loop with virtual time: deterministic, no real waiting.

Simulated providers stand in for the vendors' limits: a concurrency cap (429 above it), an
outage (429 for everything for a while), a request-rate bucket. Times below are the loop's
virtual seconds, not wall-clock ones.
"""

from __future__ import annotations

import asyncio
import itertools
import random

import pytest
from virtual_time import run_virtual

from pytest_rwe.providers.base import (
    GenerationRequest,
    GenerationResult,
    Message,
    Provider,
    ProviderError,
)
from pytest_rwe.providers.limiter import AdaptiveLimit
from pytest_rwe.providers.retry import CallStats, RetryPolicy, call_with_retries

REQUEST = GenerationRequest(messages=(Message("user", "hi"),))


class Simulated(Provider):
    """Answers after ``latency`` s; refuses (``status``, with ``retry_after``) when over ``cap``
    calls at once, or before ``outage_until``; counts what it did."""

    name = "sim"

    def __init__(self, *, cap: int = 1000, latency: float = 0.1, retry_after: float | None = 1.0,
                 status: int = 429, outage_until: float = 0.0) -> None:
        super().__init__("m")
        self.cap, self.latency, self.retry_after = cap, latency, retry_after
        self.status, self.outage_until = status, outage_until
        self.in_flight = self.peak = self.answered = self.refused = 0
        self.refused_at: list[float] = []

    async def generate(self, request: GenerationRequest) -> GenerationResult:
        now = asyncio.get_running_loop().time()
        if self.in_flight >= self.cap or now < self.outage_until:
            self.refused += 1
            self.refused_at.append(now)
            await asyncio.sleep(0.001)
            raise ProviderError("sim/m", f"HTTP {self.status}", retryable=True,
                                status=self.status, retry_after=self.retry_after)
        self.in_flight += 1
        self.peak = max(self.peak, self.in_flight)
        try:
            await asyncio.sleep(self.latency)
        finally:
            self.in_flight -= 1
        self.answered += 1
        return GenerationResult("ok", self.latency)


def sweep(provider: Simulated, calls: int, limit: AdaptiveLimit,
          policy: RetryPolicy | None = None) -> tuple[float, CallStats]:
    """Make ``calls`` calls at once; the virtual seconds they took, and the counters."""
    stats, rng = CallStats(), random.Random(1)

    async def main() -> float:
        await asyncio.gather(*(call_with_retries(provider, REQUEST, policy=policy or RetryPolicy(),
                                                 limit=limit, stats=stats, rand=rng.random)
                               for _ in range(calls)))
        return asyncio.get_running_loop().time()

    return run_virtual(main()), stats


@pytest.mark.parametrize("cap", [2, 4, 8])
def test_an_unknown_concurrency_cap_is_found_and_kept(cap: int) -> None:
    provider = Simulated(cap=cap, latency=0.1, retry_after=1.0)
    took, stats = sweep(provider, 460, AdaptiveLimit(16))
    assert provider.answered == 460 and stats.snapshot()["errors"] == 0
    assert provider.peak <= cap
    ideal = 460 * 0.1 / cap
    assert took <= ideal * 1.05  # virtual time: the limit settles on the cap and stays there
    # a first wave above the cap, then a rare probe: a few dozen refusals, not thousands
    assert provider.refused < 70


def test_the_cap_is_probed_rarely_and_never_at_the_end() -> None:
    provider = Simulated(cap=4, latency=0.1, retry_after=5.0)
    took, _ = sweep(provider, 460, AdaptiveLimit(16))
    assert took == pytest.approx(460 * 0.1 / 4)
    after_start = [t for t in provider.refused_at if t > 0.1]
    gaps = [b - a for a, b in itertools.pairwise(after_start)]
    assert all(gap > 0.5 for gap in gaps)  # about one probe per 8 rounds of 0.1 s
    # no probe whose 5 s wait would outlast the queued work
    assert all(t < took - 5.0 for t in after_start)


def test_a_provider_below_the_ceiling_is_used_fully() -> None:
    provider = Simulated(cap=1000, latency=0.25)
    took, _ = sweep(provider, 460, AdaptiveLimit(16))
    assert provider.refused == 0 and provider.peak == 16
    assert took == pytest.approx(460 * 0.25 / 16, abs=0.26)


@pytest.mark.parametrize("retry_after", [None, 1.0, 3600.0], ids=["absent", "present", "huge"])
def test_an_outage_is_waited_out_then_recovered_from(retry_after: float | None) -> None:
    # 429 for everything during the first 3 s, then 16 at once are fine
    provider = Simulated(cap=16, latency=0.25, retry_after=retry_after, outage_until=3.0)
    limit = AdaptiveLimit(16)
    took, stats = sweep(provider, 460, limit, RetryPolicy(retry_after_cap_s=20.0))
    assert provider.answered == 460 and stats.snapshot()["errors"] == 0
    # once nothing got through, new calls were held instead of each being refused in turn
    assert limit.stats.stalls >= 1 and provider.refused < 80
    wait = 20.0 if retry_after == 3600.0 else (retry_after or 0.0)
    # back to full speed after the outage: the work itself takes 460 x 0.25 / 16 = 7.2 s
    assert took <= 3.0 + wait * 1.2 + 7.2 + 3.0
    assert limit.current == 16


def test_a_request_rate_limit_is_followed() -> None:
    class Bucket(Simulated):
        """10 requests per second (a burst of 10), however many are in flight."""

        tokens, last = 10.0, 0.0

        async def generate(self, request: GenerationRequest) -> GenerationResult:
            now = asyncio.get_running_loop().time()
            self.tokens = min(10.0, self.tokens + (now - self.last) * 10)
            self.last = now
            if self.tokens < 1:
                self.refused += 1
                await asyncio.sleep(0.001)
                raise ProviderError("sim/m", "HTTP 429", retryable=True, status=429,
                                    retry_after=(1 - self.tokens) / 10)
            self.tokens -= 1
            return await super().generate(request)

    provider = Bucket(latency=0.5)
    took, _ = sweep(provider, 460, AdaptiveLimit(16))
    assert provider.answered == 460
    assert took <= 460 / 10 * 1.05 and provider.refused < 50


def test_refusals_of_one_round_cut_the_limit_once() -> None:
    limit = AdaptiveLimit(16)

    async def main() -> None:
        entered: list[asyncio.Event] = []
        release = asyncio.Event()

        async def call(refused: bool) -> None:
            async with limit.slot() as slot:
                entered.append(asyncio.Event())
                await release.wait()
                if refused:
                    slot.overloaded(1.0, 429)
                else:
                    slot.succeeded()

        tasks = [asyncio.ensure_future(call(refused=i >= 4)) for i in range(16)]
        while len(entered) < 16:
            await asyncio.sleep(0)
        assert limit.in_flight == 16
        release.set()
        await asyncio.gather(*tasks)

    run_virtual(main())
    assert limit.stats.cuts == 1 and limit.current == 11  # 16 x 0.7, once
    assert limit.stats.overloads == 12 and limit.stats.by_status == {429: 12}


def test_waiting_calls_go_in_order_with_retries_first() -> None:
    limit = AdaptiveLimit(1)
    order: list[str] = []

    async def main() -> None:
        gate = asyncio.Event()

        async def call(name: str, retry: bool) -> None:
            async with limit.slot(retry=retry):
                order.append(name)
                await gate.wait()

        first = asyncio.ensure_future(call("first", False))
        await asyncio.sleep(0)
        later = [asyncio.ensure_future(call(n, r)) for n, r in
                 (("new-1", False), ("retry-1", True), ("new-2", False), ("retry-2", True))]
        await asyncio.sleep(0)
        gate.set()
        await asyncio.gather(first, *later)

    run_virtual(main())
    assert order == ["first", "retry-1", "retry-2", "new-1", "new-2"]


def test_a_budget_caps_the_limit_and_zero_holds_every_call() -> None:
    limit = AdaptiveLimit(16)
    limit.set_budget(0)
    admitted: list[float] = []

    async def main() -> None:
        loop = asyncio.get_running_loop()

        async def call() -> None:
            async with limit.slot():
                admitted.append(loop.time())
                await asyncio.sleep(1.0)

        tasks = [asyncio.ensure_future(call()) for _ in range(6)]
        await asyncio.sleep(5.0)
        assert admitted == [] and limit.queued == 6
        limit.set_budget(3)
        await asyncio.gather(*tasks)

    run_virtual(main())
    assert admitted == [5.0, 5.0, 5.0, 6.0, 6.0, 6.0]
    assert limit.current == 3 and limit.stats.peak_in_flight == 3


def test_a_cancelled_waiter_leaves_no_slot_taken() -> None:
    limit = AdaptiveLimit(1)

    async def main() -> None:
        hold = asyncio.Event()

        async def call() -> None:
            async with limit.slot():
                await hold.wait()

        first = asyncio.ensure_future(call())
        await asyncio.sleep(0)
        waiting = asyncio.ensure_future(call())
        await asyncio.sleep(0)
        waiting.cancel()
        hold.set()
        await first
        with pytest.raises(asyncio.CancelledError):
            await waiting
        assert limit.in_flight == 0 and limit.queued == 0
        async with limit.slot():  # and the slot is free for the next call
            assert limit.in_flight == 1

    run_virtual(main())


def test_the_snapshot_is_json_primitives() -> None:
    snapshot = AdaptiveLimit(4).snapshot()
    assert snapshot["ceiling"] == 4 and snapshot["limit"] == 4
    assert all(isinstance(v, (int, float)) for v in snapshot.values())
