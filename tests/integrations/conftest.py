"""Fixtures of the integration tests: a fake vendor server, fake keys, engine clean-up.

Nothing here imports deepeval: these fixtures serve the core test too.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_rwe.integrations.jury_engine import close_shared_engines
from pytest_rwe.study import Study, load_study
from pytest_rwe.testing import FakeServer

ROOT = Path(__file__).resolve().parents[2]
STUDIES = ROOT / "cases" / "studies"
COHORT = "legend_htn_ace_inhibitors_vs_arbs_cardiovascular"
KEYS = {
    "OPENAI_API_KEY": "sk-proj-TESTKEYopenai0123456789abcdef",
    "ANTHROPIC_API_KEY": "sk-ant-TESTKEYanthropic0123456789abc",
    "GEMINI_API_KEY": "AIzaTESTKEYgemini0123456789abcdefghijklm",
}
JURORS = ("openai/o4-mini", "anthropic/claude-sonnet-4-20250514", "google/gemini-2.5-pro")


@pytest.fixture
def cohort() -> Study:
    return load_study(STUDIES / f"{COHORT}.json")


@pytest.fixture(autouse=True)
def _close_engines() -> Iterator[None]:
    # shared engines keep provider clients pointed at one test's server: never reuse them
    yield
    close_shared_engines()


@pytest.fixture(autouse=True)
def _scratch_cwd(tmp_path_factory: pytest.TempPathFactory,
                 monkeypatch: pytest.MonkeyPatch) -> None:
    # deepeval.evaluate writes its run cache to ./.deepeval: keep it out of the checkout
    monkeypatch.chdir(tmp_path_factory.mktemp("cwd"))


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeServer]:
    """A fake vendor server reached through the SDKs' base-URL variables, with fake keys."""
    for name in ("GOOGLE_API_KEY", "GOOGLE_GENAI_USE_VERTEXAI", "GOOGLE_GENAI_API_VERSION"):
        monkeypatch.delenv(name, raising=False)
    for name, value in KEYS.items():
        monkeypatch.setenv(name, value)
    with FakeServer() as fake:
        for name, value in fake.env().items():
            monkeypatch.setenv(name, value)
        yield fake
