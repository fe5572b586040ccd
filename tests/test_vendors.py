"""The vendor table is the one home of each provider's key variables (a security fact)."""

from __future__ import annotations

import pytest

from pytest_rwe.providers import registry, vendors
from pytest_rwe.providers.base import GenerationRequest, GenerationResult, Provider
from pytest_rwe.providers.registry import missing_key, provider_class, register_provider
from pytest_rwe.providers.vendors import VENDORS, all_key_variables
from pytest_rwe.redact import key_environ, redact, redact_deep

SECRET = "plain-secret-value-0123"  # no vendor shape: only the variable can catch it


class Mine(Provider):
    name = "mine"
    key_variables = ("MINE_API_KEY",)

    async def generate(self, request: GenerationRequest) -> GenerationResult:
        return GenerationResult("text", 0.0)


@pytest.fixture(autouse=True)
def fresh_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vendors, "_REGISTERED", {})
    monkeypatch.setattr(registry, "_PROVIDERS", dict(registry._PROVIDERS))


def test_a_registered_providers_key_is_redacted_by_value(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert "MINE_API_KEY" not in all_key_variables()
    register_provider("mine", Mine)
    assert "MINE_API_KEY" in all_key_variables()
    monkeypatch.setenv("MINE_API_KEY", SECRET)
    text = redact(f"mine/model failed: bad key {SECRET}")
    assert SECRET not in text and "<MINE_API_KEY redacted>" in text
    assert SECRET not in str(redact_deep({"error": [f"key {SECRET}"]}))
    assert key_environ()["MINE_API_KEY"] == SECRET


def test_a_lazy_registration_names_its_key_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    register_provider("lazy", "somewhere.not_imported:Provider", key_variables=("LAZY_KEY",))
    monkeypatch.setenv("LAZY_KEY", SECRET)
    assert SECRET not in redact(f"lazy/model said {SECRET}")


def test_each_built_in_provider_reads_its_keys_from_the_table() -> None:
    for vendor in VENDORS:
        assert provider_class(vendor.prefix).key_variables == vendor.key_variables
        assert set(vendor.key_variables) <= set(all_key_variables())


def test_the_missing_key_message_follows_the_sdks_order() -> None:
    assert missing_key("google/gemini-2.5-flash", {}) == "GOOGLE_API_KEY or GEMINI_API_KEY"
    assert missing_key("openai/gpt-4.1", {"OPENAI_API_KEY": "x"}) is None


def test_the_key_variables_follow_every_registration() -> None:
    before = all_key_variables()
    assert all_key_variables() is before  # computed once, not per string redacted
    register_provider("later", "somewhere.not_imported:Provider", key_variables=("LATER_KEY",))
    assert all_key_variables() == (*before, "LATER_KEY")
    assert SECRET not in redact(f"later/model said {SECRET}", {"LATER_KEY": SECRET})
