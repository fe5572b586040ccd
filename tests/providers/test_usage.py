"""Token usage as each vendor's real SDK reports it: totals, reasoning and cached tokens."""

from __future__ import annotations

import asyncio

import pytest
from provider_testkit import VENDORS, provider, request

from pytest_rwe.providers.base import GenerationResult
from pytest_rwe.testing import FakeServer
from pytest_rwe.testing.fake_wire import DEFAULT_SUMMARY, count_tokens

pytestmark = pytest.mark.parametrize("vendor", VENDORS)
PROMPT = "Summarize this study. " * 40


def generate(vendor: str) -> GenerationResult:
    p = provider(vendor)

    async def main() -> GenerationResult:
        try:
            return await p.generate(request(PROMPT))
        finally:
            await p.aclose()

    return asyncio.run(main())


def test_reasoning_and_cached_tokens_are_read_apart(vendor: str, server: FakeServer) -> None:
    server.reasoning_tokens, server.cached_tokens = 700, 50
    usage = generate(vendor).usage
    # every vendor reports them its own way; the totals mean the same for all three
    assert usage.input_tokens == count_tokens(PROMPT)
    assert usage.output_tokens == count_tokens(DEFAULT_SUMMARY) + 700
    assert usage.reasoning_tokens == 700
    assert usage.cached_tokens == 50


def test_unreported_details_stay_unknown(vendor: str, server: FakeServer) -> None:
    usage = generate(vendor).usage
    assert usage.input_tokens == count_tokens(PROMPT)
    assert usage.output_tokens == count_tokens(DEFAULT_SUMMARY)
    # not reported is unknown, never 0
    assert usage.reasoning_tokens is None and usage.cached_tokens is None
