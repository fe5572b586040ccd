"""Fixtures for the provider tests: a fake vendor server and fake keys in the environment."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from provider_testkit import KEYS

from pytest_rwe.testing import FakeServer


@pytest.fixture
def keys(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    for name in ("GOOGLE_API_KEY", "GOOGLE_GENAI_USE_VERTEXAI", "GOOGLE_GENAI_API_VERSION"):
        monkeypatch.delenv(name, raising=False)
    for name, value in KEYS.items():
        monkeypatch.setenv(name, value)
    return dict(KEYS)


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch, keys: dict[str, str]) -> Iterator[FakeServer]:
    """A fake server the SDKs reach through their own base-URL variables only."""
    with FakeServer() as fake:
        for name, value in fake.env().items():
            monkeypatch.setenv(name, value)
        yield fake
