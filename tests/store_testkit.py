"""Shared data and helpers of the response-store tests (test_store*.py)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pytest_rwe.providers.base import GenerationResult, Message, Usage
from pytest_rwe.store import CallLabel, ResponseStore, prompt_sha256, store_key

MESSAGES = (
    Message("system", "You summarise observational studies."),
    Message("user", "Question: is drug A associated with fewer asthma visits?"),
)
SETTINGS = {"temperature": 0.0, "max_output_tokens": 2048}
SUMMARY = CallLabel("summary", "demo_cohort", None, "openai/gpt-4.1")
JUDGE = CallLabel("judge", "demo_cohort", "completeness", "anthropic/claude-sonnet-4")


def key_of(**changes: Any) -> str:
    parts: dict[str, Any] = {
        "provider": "openai",
        "model": "gpt-4.1",
        "messages": MESSAGES,
        "settings": SETTINGS,
        "repeat": 0,
    }
    parts.update(changes)
    return store_key(**parts)


def result(text: str = "Drug A was associated with fewer visits.") -> GenerationResult:
    return GenerationResult(text=text, latency_s=1.23456, usage=Usage(812, 95))


def save(store: ResponseStore, call: CallLabel, key: str, res: GenerationResult) -> Path:
    return store.save(
        call,
        key,
        res,
        provider="openai",
        model="gpt-4.1",
        settings=SETTINGS,
        prompt_sha256=prompt_sha256(MESSAGES),
    )


async def until(condition: Callable[[], bool], what: str = "the condition",
                bound_s: float = 10.0) -> None:
    """Poll ``condition`` on the loop until it holds; fail after ``bound_s``, naming ``what``.

    Tests order events on a condition, never on a sleep of a guessed length: on a busy
    machine the guess is wrong, and then a test fails, or passes without testing anything.
    """
    deadline = time.monotonic() + bound_s
    while not condition():
        assert time.monotonic() < deadline, f"gave up after {bound_s:g} s waiting for {what}"
        await asyncio.sleep(0.01)
