"""Anthropic Claude models via ``AsyncAnthropic().messages.create``.

Key from ``ANTHROPIC_API_KEY``; base URL from ``ANTHROPIC_BASE_URL`` (read by the SDK).

Per-model options (the ``options`` mapping):

- ``base_url``: the server for this model only.
- ``api_key_env``: name of the environment variable holding this model's key.
- ``timeout_s``: seconds before one attempt times out (default 180).
- ``thinking_budget``: tokens of extended thinking (>= 1024); sent as
  ``thinking={"type": "enabled", "budget_tokens": N}`` and added on top of ``max_tokens``.

Settings sent: never ``temperature``. The installed SDK (anthropic >= 2) sends
``anthropic-version: 2026-10-21``, under which the API rejects ``temperature``/``top_p``/
``top_k`` on every model, even at their defaults, and the SDK removed them from ``create``.
``max_tokens`` = 16000 by default (room for models that think by default), capped at the
SDK's non-streaming limit for the models it lists and at 4096/8192 for Claude 3/3.5.
The SDK's own retries are off: :mod:`pytest_rwe.providers.retry` retries.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the SDK is imported on the first live call: a replay never pays for it
    import anthropic

from pytest_rwe.providers import common
from pytest_rwe.providers.base import (
    GenerationRequest,
    GenerationResult,
    GenerationSettings,
    Provider,
    Usage,
)
from pytest_rwe.providers.vendors import known_vendor

DEFAULT_BUDGET = 16000
_SMALL_BUDGETS = (
    (re.compile(r"^claude-3-(haiku|sonnet|opus)"), 4096),
    (re.compile(r"^claude-3-5"), 8192),
)


# The SDK refuses a larger non-streaming max_tokens for these models (a copy of
# anthropic._constants.MODEL_NONSTREAMING_TOKENS in anthropic 2.14; a test compares them).
# Copied rather than imported so computing a store key does not import the SDK.
NONSTREAMING_LIMITS: Mapping[str, int] = {
    "claude-opus-4-20250514": 8192,
    "claude-opus-4-0": 8192,
    "claude-4-opus-20250514": 8192,
    "anthropic.claude-opus-4-20250514-v1:0": 8192,
    "claude-opus-4@20250514": 8192,
    "anthropic.claude-opus-4-1-20250805-v1:0": 8192,
    "claude-opus-4-1@20250805": 8192,
}


_BASE_URL_VARIABLE = known_vendor("anthropic").base_url_variable or ""

class AnthropicProvider(Provider):
    """``anthropic/<model>`` through the Messages API."""

    name = "anthropic"
    key_variables = known_vendor("anthropic").key_variables  # the vendor table's
    accepts_timeout = True

    def __init__(self, model: str, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(model, options)
        self._options = common.vendor_options(
            self.full_name,
            self.options,
            self.key_variables,
            extra_options=frozenset({"thinking_budget"}),
        )
        # the Messages API refuses thinking budgets under 1024 tokens
        self.thinking_budget = common.int_option(self.full_name, self.options,
                                                  "thinking_budget", 1024)
        self._client: anthropic.AsyncAnthropic | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def default_budget(self) -> int:
        for pattern, budget in _SMALL_BUDGETS:
            if pattern.match(self.model):
                return budget
        return min(DEFAULT_BUDGET, NONSTREAMING_LIMITS.get(self.model, DEFAULT_BUDGET))

    def effective_settings(self, settings: GenerationSettings) -> Mapping[str, Any]:
        answer = settings.max_output_tokens or self.default_budget()
        if self.thinking_budget is None:
            return {"max_tokens": answer}
        return {
            "max_tokens": answer + self.thinking_budget,
            "thinking": {"type": "enabled", "budget_tokens": self.thinking_budget},
        }

    def _sdk_client(self) -> anthropic.AsyncAnthropic:
        import anthropic

        loop = asyncio.get_running_loop()
        if self._client is None or self._loop is not loop:
            # The key is passed explicitly so the SDK never falls back to profiles on disk.
            self._client = anthropic.AsyncAnthropic(
                api_key=common.require_key(self.full_name, self._options),
                base_url=self._options.base_url,  # None: the SDK reads ANTHROPIC_BASE_URL
                timeout=self._options.timeout_s,
                max_retries=0,
            )
            self._loop = loop
        return self._client

    def budget_key(self) -> str:
        return common.budget_key(self.name, self._options, _BASE_URL_VARIABLE,
                                  "https://api.anthropic.com")

    def load_sdk(self) -> None:
        import anthropic  # noqa: F401 - imported for its side effect: the module is loaded

    async def generate(self, request: GenerationRequest) -> GenerationResult:
        import anthropic

        client = self._sdk_client()
        settings: dict[str, Any] = dict(self.effective_settings(request.settings))
        system = "\n\n".join(m.content for m in request.messages if m.role == "system")
        if system:
            settings["system"] = system
        messages: Any = [
            {"role": m.role, "content": m.content} for m in request.messages if m.role != "system"
        ]
        start = time.perf_counter()
        try:
            response = await client.messages.create(model=self.model, messages=messages, **settings)
        except anthropic.APIStatusError as exc:
            message = common.error_message(exc.body, exc.message)
            raise common.status_error(
                self.full_name, exc.status_code, message, headers=exc.response.headers
            ) from None
        except anthropic.APIConnectionError as exc:  # includes APITimeoutError
            raise common.transport_error(self.full_name, exc, self._options.timeout_s) from None
        except ValueError as exc:  # the SDK lets a body that is not JSON through as-is
            raise common.malformed_error(self.full_name, exc) from None
        latency = time.perf_counter() - start
        text = self._answer_text(response, settings["max_tokens"])
        return GenerationResult(text=text, latency_s=latency, usage=usage_of(response.usage))

    def _answer_text(self, response: Any, max_tokens: int) -> str:
        blocks = getattr(response, "content", None) or []
        text = "".join(b.text for b in blocks if getattr(b, "type", None) == "text")
        stop = getattr(response, "stop_reason", None)
        if stop == "refusal":
            raise common.empty_error(self.full_name, "the model refused (stop_reason=refusal)")
        if stop == "max_tokens":
            raise common.empty_error(
                self.full_name,
                f"the answer was cut off at max_tokens={max_tokens}; raise max_output_tokens "
                "in the generation settings (or lower thinking_budget)",
            )
        if not blocks:
            raise common.empty_error(self.full_name, f"no content blocks (stop_reason={stop})")
        if not text.strip():
            raise common.empty_error(self.full_name, "no text block in the content")
        return text

    async def aclose(self) -> None:
        if self._client is not None:
            # RuntimeError: its event loop is gone, so there is nothing left to release
            with contextlib.suppress(RuntimeError):
                await self._client.close()
            self._client = None


def usage_of(usage: Any) -> Usage:
    """The tokens of a Messages response. Anthropic counts the prompt tokens written to and
    read from its cache apart from ``input_tokens``: all three make the prompt. Cache reads
    are the cached part; cache writes are billed here as plain input (Anthropic charges them
    25% more). ``output_tokens`` includes the thinking tokens of ``output_tokens_details``."""
    if usage is None:
        return Usage()
    written = usage.cache_creation_input_tokens or 0
    read = usage.cache_read_input_tokens
    details = getattr(usage, "output_tokens_details", None)
    return Usage(
        input_tokens=usage.input_tokens + written + (read or 0),
        output_tokens=usage.output_tokens,
        reasoning_tokens=getattr(details, "thinking_tokens", None),
        cached_tokens=read,
    )


__all__ = ["AnthropicProvider", "usage_of"]
