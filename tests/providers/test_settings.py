"""Per-model generation settings, options and keys, checked on the wire (fake server)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from provider_testkit import provider, request

from pytest_rwe.providers.base import (
    GenerationSettings,
    Provider,
    ProviderConfigError,
    ProviderError,
)
from pytest_rwe.providers.openai_provider import is_reasoning_model
from pytest_rwe.testing import FakeServer


def sent_body(p: Provider, server: FakeServer, **request_args: Any) -> dict[str, Any]:
    async def main() -> None:
        try:
            await p.generate(request(**request_args))
        finally:
            await p.aclose()

    asyncio.run(main())
    body = server.requests[-1].body
    assert body is not None
    return dict(body)


@pytest.mark.parametrize("model", ["o4-mini", "o3", "o1", "gpt-5", "gpt-5-mini", "o5-pro"])
def test_openai_reasoning_model_gets_no_temperature(server: FakeServer, model: str) -> None:
    body = sent_body(provider(f"openai/{model}"), server)
    assert "temperature" not in body and "max_tokens" not in body
    assert body["max_completion_tokens"] == 16000


@pytest.mark.parametrize("model", ["gpt-4.1", "gpt-4o-mini", "gpt-5-chat-latest", "llama3.1"])
def test_openai_ordinary_model_gets_temperature_zero(server: FakeServer, model: str) -> None:
    body = sent_body(provider(f"openai/{model}"), server)
    assert body["temperature"] == 0.0 and body["max_tokens"] == 2048
    assert "max_completion_tokens" not in body


def test_openai_reasoning_detection() -> None:
    assert is_reasoning_model("o4-mini") and not is_reasoning_model("gpt-4.1")
    assert not is_reasoning_model("gpt-5-chat-latest")
    assert not is_reasoning_model("ollama-o3")


def test_openai_reasoning_option_for_custom_names(server: FakeServer) -> None:
    body = sent_body(provider("openai/deepseek-r1", reasoning=True), server)
    assert "temperature" not in body and body["max_completion_tokens"] == 16000


def test_anthropic_never_sends_temperature(server: FakeServer) -> None:
    body = sent_body(provider("anthropic/claude-sonnet-4-6"), server, system="Be brief.")
    assert "temperature" not in body and body["max_tokens"] == 16000
    assert body["system"] == "Be brief."
    assert [m["role"] for m in body["messages"]] == ["user"]
    assert server.requests[-1].headers["anthropic-version"] == "2026-10-21"


def test_anthropic_thinking_budget_is_added_on_top(server: FakeServer) -> None:
    p = provider("anthropic/claude-sonnet-4-6", thinking_budget=4000)
    body = sent_body(p, server)
    assert body["thinking"] == {"type": "enabled", "budget_tokens": 4000}
    assert body["max_tokens"] == 16000 + 4000
    assert dict(p.effective_settings(GenerationSettings(max_output_tokens=1000))) == {
        "max_tokens": 5000,
        "thinking": {"type": "enabled", "budget_tokens": 4000},
    }


def test_anthropic_budget_respects_sdk_nonstreaming_caps(keys: dict[str, str]) -> None:
    assert provider("anthropic/claude-opus-4-0").effective_settings(GenerationSettings()) == {
        "max_tokens": 8192
    }
    assert provider("anthropic/claude-3-haiku-20240307").effective_settings(
        GenerationSettings()
    ) == {"max_tokens": 4096}


def test_google_settings_and_system_instruction(server: FakeServer) -> None:
    body = sent_body(provider("google/gemini-2.5-pro"), server, system="Be brief.")
    assert body["generationConfig"] == {"temperature": 0.0, "maxOutputTokens": 16384}
    assert body["systemInstruction"]["parts"] == [{"text": "Be brief."}]
    assert [c["role"] for c in body["contents"]] == ["user"]


def test_google_gemini3_keeps_default_temperature(server: FakeServer) -> None:
    body = sent_body(provider("google/gemini-3-pro-preview"), server)
    assert body["generationConfig"] == {"maxOutputTokens": 16384}


def test_google_non_thinking_model_and_thinking_budget(server: FakeServer) -> None:
    body = sent_body(provider("google/gemini-2.0-flash"), server)
    assert body["generationConfig"] == {"temperature": 0.0, "maxOutputTokens": 2048}
    body = sent_body(provider("google/gemini-2.5-flash", thinking_budget=1024), server)
    # the SDK writes this nested object in snake_case; the API's JSON parser takes both
    assert body["generationConfig"]["thinkingConfig"] in (
        {"thinkingBudget": 1024},
        {"thinking_budget": 1024},
    )
    assert body["generationConfig"]["maxOutputTokens"] == 16384 + 1024


@pytest.mark.parametrize(
    ("name", "variable"),
    [
        ("openai/gpt-4.1", "OPENAI_API_KEY"),
        ("anthropic/claude-sonnet-4-6", "ANTHROPIC_API_KEY"),
        ("google/gemini-2.5-flash", "GOOGLE_API_KEY or GEMINI_API_KEY"),
    ],
)
def test_missing_key_fails_the_live_call_naming_the_variable(
    monkeypatch: pytest.MonkeyPatch, name: str, variable: str
) -> None:
    for var in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY"):
        monkeypatch.delenv(var, raising=False)
    # a provider without a key can still compute store keys (replay-only runs need none)...
    model = provider(name)
    assert model.effective_settings(GenerationSettings())
    # ...but a live call fails, for good, naming the variable to set
    with pytest.raises(ProviderError, match=f"set {variable}") as info:
        asyncio.run(model.generate(request()))
    assert not info.value.retryable


def test_api_key_env_option_selects_the_variable(
    server: FakeServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY")
    with pytest.raises(ProviderError, match="set MY_CLAUDE_KEY"):
        asyncio.run(provider("anthropic/claude-sonnet-4-6", api_key_env="MY_CLAUDE_KEY")
                    .generate(request()))
    monkeypatch.setenv("MY_CLAUDE_KEY", "sk-ant-mykey0123456789abcdefgh")
    sent_body(provider("anthropic/claude-sonnet-4-6", api_key_env="MY_CLAUDE_KEY"), server)


def test_openai_compatible_server_needs_no_key(
    server: FakeServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY")
    monkeypatch.delenv("OPENAI_BASE_URL")
    body = sent_body(provider("openai/llama3.1", base_url=server.base_urls["openai"]), server)
    assert body["model"] == "llama3.1"


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"colour": "red"}, "unknown option.*colour"),
        ({"base_url": "localhost:1234"}, "base_url must be an http"),
        ({"timeout_s": 0}, "timeout_s must be a positive"),
    ],
)
def test_bad_options_are_explained(
    keys: dict[str, str], options: dict[str, Any], match: str
) -> None:
    with pytest.raises(ProviderConfigError, match=match):
        provider("openai/gpt-4.1", **options)


def test_the_copied_nonstreaming_table_matches_the_installed_sdk() -> None:
    # copied so a replay never imports the SDK; this fails when the SDK's table moves on
    constants = pytest.importorskip("anthropic._constants")
    from pytest_rwe.providers.anthropic_provider import NONSTREAMING_LIMITS

    assert dict(NONSTREAMING_LIMITS) == dict(constants.MODEL_NONSTREAMING_TOKENS)


def test_creating_providers_imports_no_sdk() -> None:
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from pytest_rwe.providers.registry import create_provider\n"
        "for name in ('openai/o4-mini', 'anthropic/claude-sonnet-4-20250514',"
        " 'google/gemini-2.5-pro'):\n"
        "    create_provider(name).effective_settings(__import__('pytest_rwe.providers.base',"
        " fromlist=['x']).GenerationSettings())\n"
        "print(sorted(m for m in ('openai', 'anthropic', 'google.genai') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env={"PATH": "/usr/bin:/bin"})
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize(("name", "bad", "minimum"), [
    ("anthropic/claude-sonnet-4-6", 512, 1024),
    ("google/gemini-2.5-flash", -1, 0),
    ("google/gemini-2.5-flash", "lots", 0),
])
def test_a_bad_thinking_budget_names_the_option(name: str, bad: object, minimum: int) -> None:
    with pytest.raises(ProviderConfigError, match=f"thinking_budget must be an integer >= "
                                                  f"{minimum}"):
        provider(name, thinking_budget=bad)
