"""OpenAI models, and any OpenAI-compatible server (vLLM, Ollama), via chat completions.

Chat completions rather than the Responses API: it is the endpoint OpenAI-compatible servers
implement. Key from ``OPENAI_API_KEY``; base URL from ``OPENAI_BASE_URL`` (read by the SDK).

Per-model options (the ``options`` mapping):

- ``base_url``: the server for this model only, e.g. ``http://127.0.0.1:11434/v1`` for
  Ollama; other models keep ``OPENAI_BASE_URL``. A server given this way needs no key.
- ``api_key_env``: name of the environment variable holding this model's key.
- ``timeout_s``: seconds before one attempt times out (default 180).
- ``reasoning``: true/false to override the reasoning-model detection below (for local
  models with custom names).

Settings sent: reasoning models (``o1``/``o3``/``o4``/``o5``..., ``gpt-5*`` except the
``-chat`` variants) reject ``temperature``, so it is omitted and the budget is
``max_completion_tokens`` = 16000 (reasoning tokens count against it). Other models get
``temperature`` and ``max_tokens`` = 2048 (``max_tokens``, which compatible servers accept).
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
    import openai

from pytest_rwe.providers import common
from pytest_rwe.providers.base import (
    GenerationRequest,
    GenerationResult,
    GenerationSettings,
    Provider,
    Usage,
)
from pytest_rwe.providers.vendors import known_vendor

_REASONING = re.compile(r"^(o[1-9]|gpt-5)(?!.*-chat)")
REASONING_BUDGET = 16000
DEFAULT_BUDGET = 2048
# Compatible servers (Ollama) ignore the key, but the SDK refuses to start without one.
_NO_KEY = "unused"


_BASE_URL_VARIABLE = known_vendor("openai").base_url_variable or ""

class OpenAIProvider(Provider):
    """``openai/<model>`` through ``AsyncOpenAI().chat.completions.create``."""

    name = "openai"
    key_variables = known_vendor("openai").key_variables  # the vendor table's
    accepts_timeout = True

    def __init__(self, model: str, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(model, options)
        self._options = common.vendor_options(
            self.full_name, self.options, self.key_variables, extra_options=frozenset({"reasoning"})
        )
        override = self.options.get("reasoning")
        self.reasoning = bool(override) if override is not None else is_reasoning_model(model)
        self._client: openai.AsyncOpenAI | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def effective_settings(self, settings: GenerationSettings) -> Mapping[str, Any]:
        if self.reasoning:
            return {"max_completion_tokens": settings.max_output_tokens or REASONING_BUDGET}
        sent: dict[str, Any] = {"max_tokens": settings.max_output_tokens or DEFAULT_BUDGET}
        if settings.temperature is not None:
            sent["temperature"] = settings.temperature
        return sent

    def key_extras(self) -> Mapping[str, Any]:
        # "openai/llama3.1@http://host-a/v1" and "...@http://host-b/v1" are different models
        base_url = self.options.get("base_url")
        return {"base_url": base_url} if base_url else {}

    def _sdk_client(self) -> openai.AsyncOpenAI:
        import openai

        # One client per event loop: pooled connections belong to the loop that opened them.
        loop = asyncio.get_running_loop()
        if self._client is None or self._loop is not loop:
            # a server of its own (base_url option) needs no key; OpenAI itself does
            key = (self._options.api_key or _NO_KEY if self._options.base_url
                   else common.require_key(self.full_name, self._options))
            self._client = openai.AsyncOpenAI(
                api_key=key,
                base_url=self._options.base_url,  # None: the SDK reads OPENAI_BASE_URL
                timeout=self._options.timeout_s,
                max_retries=0,
            )
            self._loop = loop
        return self._client

    def budget_key(self) -> str:
        return common.budget_key(self.name, self._options, _BASE_URL_VARIABLE,
                                  "https://api.openai.com/v1")

    def load_sdk(self) -> None:
        import openai  # noqa: F401 - imported for its side effect: the module is loaded

    async def generate(self, request: GenerationRequest) -> GenerationResult:
        import openai

        client = self._sdk_client()
        settings = dict(self.effective_settings(request.settings))
        messages: Any = [{"role": m.role, "content": m.content} for m in request.messages]
        start = time.perf_counter()
        try:
            response = await client.chat.completions.create(
                model=self.model, messages=messages, **settings
            )
        except openai.APIStatusError as exc:
            message = common.error_message(exc.body, exc.message)
            raise common.status_error(
                self.full_name, exc.status_code, message, headers=exc.response.headers
            ) from None
        except openai.APIConnectionError as exc:  # includes APITimeoutError
            raise common.transport_error(self.full_name, exc, self._options.timeout_s) from None
        except ValueError as exc:  # the SDK lets a body that is not JSON through as-is
            raise common.malformed_error(self.full_name, exc) from None
        latency = time.perf_counter() - start
        text = self._answer_text(response, settings)
        return GenerationResult(text=text, latency_s=latency, usage=usage_of(response.usage))

    def _answer_text(self, response: Any, settings: Mapping[str, Any]) -> str:
        choices = getattr(response, "choices", None)
        if not choices:
            raise common.empty_error(self.full_name, "no choices in the response")
        choice = choices[0]
        finish = choice.finish_reason
        content = choice.message.content if choice.message else None
        if finish == "content_filter":
            raise common.empty_error(self.full_name, "blocked by the content filter")
        if finish == "length":
            budget = settings.get("max_completion_tokens", settings.get("max_tokens"))
            raise common.empty_error(
                self.full_name,
                f"the answer was cut off at the output budget ({budget} tokens); "
                "raise max_output_tokens in the generation settings",
            )
        if not content or not content.strip():
            refusal = getattr(choice.message, "refusal", None)
            what = f"the model refused: {refusal}" if refusal else "the message has no text"
            raise common.empty_error(self.full_name, what)
        return str(content)

    async def aclose(self) -> None:
        if self._client is not None:
            # RuntimeError: its event loop is gone, so there is nothing left to release
            with contextlib.suppress(RuntimeError):
                await self._client.close()
            self._client = None


def usage_of(usage: Any) -> Usage:
    """The tokens of a chat completion's ``usage`` (None: the server sent none). Its totals
    already include the reasoning and cached tokens stated in the ``*_details`` blocks."""
    if usage is None:
        return Usage()
    completion = getattr(usage, "completion_tokens_details", None)
    prompt = getattr(usage, "prompt_tokens_details", None)
    return Usage(
        input_tokens=usage.prompt_tokens,
        output_tokens=usage.completion_tokens,
        reasoning_tokens=getattr(completion, "reasoning_tokens", None),
        cached_tokens=getattr(prompt, "cached_tokens", None),
    )


def is_reasoning_model(model: str) -> bool:
    """True for OpenAI reasoning models, which reject ``temperature``."""
    return bool(_REASONING.match(model.rsplit("/", 1)[-1]))


__all__ = ["OpenAIProvider", "is_reasoning_model", "usage_of"]
