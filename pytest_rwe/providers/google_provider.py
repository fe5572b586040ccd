"""Google Gemini models via ``genai.Client(...).aio.models.generate_content`` (Gemini API).

Key from ``GOOGLE_API_KEY`` or ``GEMINI_API_KEY`` (the SDK's own order: ``GOOGLE_API_KEY``
wins when both are set); base URL from ``GOOGLE_GEMINI_BASE_URL``, which the SDK reads
itself (``google.genai._base_url.get_base_url``). Always the Gemini Developer API, never
Vertex AI, whatever ``GOOGLE_GENAI_USE_VERTEXAI`` says.

Per-model options (the ``options`` mapping):

- ``base_url``: the server for this model only.
- ``api_key_env``: name of the environment variable holding this model's key.
- ``timeout_s``: seconds before one attempt times out (default 180).
- ``thinking_budget``: thinking tokens for Gemini 2.5 models (``thinkingConfig``); added
  on top of ``max_output_tokens``.

Settings sent: ``temperature`` except for Gemini 3 and later, where Google advises keeping
the default 1.0 (lower values can make the model loop); ``max_output_tokens`` = 16384 for
thinking models (Gemini 2.5 and later: thinking tokens count against it), 2048 otherwise.
The SDK does not retry without ``retry_options``; :mod:`pytest_rwe.providers.retry` does.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the SDK is imported on the first live call: a replay never pays for it
    from google import genai
    from google.genai import errors, types

from pytest_rwe.providers import common
from pytest_rwe.providers.base import (
    GenerationRequest,
    GenerationResult,
    GenerationSettings,
    Provider,
    Usage,
)
from pytest_rwe.providers.vendors import known_vendor

THINKING_BUDGET = 16384
DEFAULT_BUDGET = 2048
_VERSION = re.compile(r"^gemini-(\d+)(?:\.(\d+))?")
_BLOCKED = {"SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "LANGUAGE"}


def gemini_version(model: str) -> tuple[int, int] | None:
    """(major, minor) of a ``gemini-X.Y-...`` name, None for other names (e.g. gemma)."""
    match = _VERSION.match(model.removeprefix("models/"))
    if not match:
        return None
    return int(match.group(1)), int(match.group(2) or 0)


_BASE_URL_VARIABLE = known_vendor("google").base_url_variable or ""

class GoogleProvider(Provider):
    """``google/<model>`` through the google-genai SDK."""

    name = "google"
    key_variables = known_vendor("google").key_variables  # the vendor table's
    accepts_timeout = True

    def __init__(self, model: str, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(model, options)
        self._options = common.vendor_options(
            self.full_name,
            self.options,
            self.key_variables,
            extra_options=frozenset({"thinking_budget"}),
        )
        # 0 turns thinking off on Gemini 2.5 Flash
        self.thinking_budget = common.int_option(self.full_name, self.options,
                                                  "thinking_budget", 0)
        version = gemini_version(model)
        self.thinking = version is not None and version >= (2, 5)
        self.accepts_temperature = version is None or version < (3, 0)
        self._client: genai.Client | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def effective_settings(self, settings: GenerationSettings) -> Mapping[str, Any]:
        default = THINKING_BUDGET if self.thinking else DEFAULT_BUDGET
        answer = settings.max_output_tokens or default
        sent: dict[str, Any] = {}
        if settings.temperature is not None and self.accepts_temperature:
            sent["temperature"] = settings.temperature
        if self.thinking_budget is None:
            sent["max_output_tokens"] = answer
        else:
            sent["max_output_tokens"] = answer + self.thinking_budget
            sent["thinking_budget"] = self.thinking_budget
        return sent

    def _sdk_client(self) -> genai.Client:
        from google import genai
        from google.genai import types

        # Keep the Client itself referenced: its .aio shares the Client's transport, which
        # is closed when the Client is garbage-collected.
        loop = asyncio.get_running_loop()
        if self._client is None or self._loop is not loop:
            http_options = types.HttpOptions(
                base_url=self._options.base_url,  # None: the SDK reads GOOGLE_GEMINI_BASE_URL
                timeout=int(self._options.timeout_s * 1000),  # milliseconds
            )
            self._client = genai.Client(
                api_key=common.require_key(self.full_name, self._options), vertexai=False,
                http_options=http_options,
            )
            self._loop = loop
        return self._client

    def _config(self, request: GenerationRequest) -> types.GenerateContentConfig:
        from google.genai import types

        sent = dict(self.effective_settings(request.settings))
        budget = sent.pop("thinking_budget", None)
        system = "\n\n".join(m.content for m in request.messages if m.role == "system")
        return types.GenerateContentConfig(
            system_instruction=system or None,
            thinking_config=types.ThinkingConfig(thinking_budget=budget) if budget else None,
            **sent,
        )

    def budget_key(self) -> str:
        return common.budget_key(self.name, self._options, _BASE_URL_VARIABLE,
                                  "https://generativelanguage.googleapis.com")

    def load_sdk(self) -> None:
        from google import genai  # noqa: F401 - imported for its side effect: the module is loaded

    async def generate(self, request: GenerationRequest) -> GenerationResult:
        from google.genai import errors, types

        client = self._sdk_client()
        contents: Any = [
            types.Content(
                role="model" if m.role == "assistant" else "user",
                parts=[types.Part(text=m.content)],
            )
            for m in request.messages
            if m.role != "system"
        ]
        config = self._config(request)
        start = time.perf_counter()
        try:
            response = await client.aio.models.generate_content(
                model=self.model, contents=contents, config=config
            )
        except errors.APIError as exc:
            raise self._api_error(exc) from None
        except ValueError as exc:  # the SDK lets a body that is not JSON through as-is
            raise common.malformed_error(self.full_name, exc) from None
        except Exception as exc:
            # the SDK does not wrap httpx2 timeouts and connection errors
            if common.is_transport_error(exc):
                raise common.transport_error(
                    self.full_name, exc, self._options.timeout_s
                ) from None
            raise
        latency = time.perf_counter() - start
        text = self._answer_text(response, config.max_output_tokens)
        return GenerationResult(text=text, latency_s=latency,
                                usage=usage_of(response.usage_metadata))

    def _api_error(self, exc: errors.APIError) -> Exception:
        headers = getattr(exc.response, "headers", None)
        return common.status_error(
            self.full_name,
            int(exc.code),
            exc.message or str(exc),
            headers=dict(headers) if headers is not None else None,
            retry_after=common.google_retry_delay(exc.details),
        )

    def _answer_text(self, response: types.GenerateContentResponse, budget: int | None) -> str:
        if not response.candidates:
            feedback = response.prompt_feedback
            reason = feedback.block_reason if feedback else None
            what = f"the prompt was blocked ({reason})" if reason else "no candidates"
            raise common.empty_error(self.full_name, what)
        candidate = response.candidates[0]
        finish = str(getattr(candidate.finish_reason, "value", candidate.finish_reason) or "")
        if finish in _BLOCKED:
            raise common.empty_error(self.full_name, f"blocked (finish_reason={finish})")
        if finish == "MAX_TOKENS":
            raise common.empty_error(
                self.full_name,
                f"the answer was cut off at max_output_tokens={budget} (thinking tokens count "
                "against it); raise max_output_tokens in the generation settings",
            )
        parts = candidate.content.parts if candidate.content else None
        text = "".join(p.text for p in parts or () if p.text and not p.thought)
        if not text.strip():
            what = f"the candidate has no text (finish_reason={finish or None})"
            raise common.empty_error(self.full_name, what)
        return text

    async def aclose(self) -> None:
        if self._client is not None:
            client, self._client = self._client, None
            # RuntimeError: its event loop is gone, so there is nothing left to release
            with contextlib.suppress(RuntimeError):
                await client.aio.aclose()
                client.close()


def usage_of(meta: Any) -> Usage:
    """The tokens of a generateContent response's ``usageMetadata``. Gemini counts thinking
    tokens apart from ``candidatesTokenCount`` (both are billed as output); its
    ``promptTokenCount`` already includes ``cachedContentTokenCount``."""
    if meta is None:
        return Usage()
    thoughts = meta.thoughts_token_count
    output = None
    if meta.candidates_token_count is not None:
        output = meta.candidates_token_count + (thoughts or 0)
    return Usage(
        input_tokens=meta.prompt_token_count,
        output_tokens=output,
        reasoning_tokens=thoughts,
        cached_tokens=meta.cached_content_token_count,
    )


__all__ = ["GoogleProvider", "gemini_version", "usage_of"]
