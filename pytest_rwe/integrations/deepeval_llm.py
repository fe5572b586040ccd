"""Any pytest-rwe model as a deepeval judge model (``DeepEvalBaseLLM``), with the response store.

``RweDeepEvalLLM("openai/gpt-4.1")`` answers deepeval's own metrics (GEval, DAG...) through
pytest-rwe's providers: the same API keys and base-URL variables, retries and per-provider
concurrency, and every answer recorded in (and replayed from) the response store under
``<store>/deepeval/<provider>__<model>/``. Imported through
:mod:`pytest_rwe.integrations.deepeval`; needs deepeval.
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

try:
    from deepeval.models import DeepEvalBaseLLM
except ImportError as exc:  # the optional dependency is absent: say how to get it
    raise ImportError(
        "pytest_rwe.integrations.deepeval needs deepeval, an optional dependency: "
        'pip install "pytest-rwe[deepeval]"'
    ) from exc
from pydantic import BaseModel, ValidationError

from pytest_rwe.engine import Engine
from pytest_rwe.integrations.jury_engine import jury_settings, shared_engine
from pytest_rwe.providers.base import (
    GenerationRequest,
    GenerationSettings,
    Message,
    ProviderConfigError,
)
from pytest_rwe.providers.registry import resolve_name
from pytest_rwe.settings import (
    DEFAULT_CONCURRENCY,
    DEFAULT_MAX_ATTEMPTS,
    DEFAULT_STORE,
    DEFAULT_TEMPERATURE,
    StoreMode,
)
from pytest_rwe.store import CallLabel

__all__ = ["RweDeepEvalLLM", "StructuredReplyError", "parse_structured"]

_FENCE = re.compile(r"^```[A-Za-z0-9_-]*\s*\n?|\n?```\s*$")


class StructuredReplyError(ValueError):
    """A reply that is not JSON matching the schema deepeval asked for."""


def _json_value(text: str) -> Any:
    stripped = _FENCE.sub("", text.strip()).strip()
    try:
        return json.loads(stripped)
    except json.JSONDecodeError:
        pass
    # prose around the object: take the outermost {...} (or [...]) span
    for opening, closing in (("{", "}"), ("[", "]")):
        start, end = stripped.find(opening), stripped.rfind(closing)
        if start != -1 and end > start:
            try:
                return json.loads(stripped[start:end + 1])
            except json.JSONDecodeError:
                continue
    raise StructuredReplyError("the reply holds no JSON object")


def parse_structured(text: str, schema: type[BaseModel]) -> BaseModel:
    """``text`` (JSON, possibly fenced or wrapped in prose) as an instance of ``schema``."""
    value = _json_value(text)
    try:
        return schema.model_validate(value)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or '$'}: {e['msg']}" for e in exc.errors()
        )
        raise StructuredReplyError(f"the JSON does not match {schema.__name__}: {problems}") \
            from None


def _repair_text(schema: type[BaseModel], error: StructuredReplyError) -> str:
    return (
        f"Your reply could not be used: {error}. Reply again with only a JSON object that "
        "matches this JSON schema, with no other text:\n"
        + json.dumps(schema.model_json_schema(), ensure_ascii=False)
    )


class RweDeepEvalLLM(DeepEvalBaseLLM):  # type: ignore[misc]
    """A pytest-rwe model (``provider/model``) serving deepeval metrics.

    ``store`` is the response-store folder (``None``: no store), ``record`` its mode
    (``new`` replays and records, ``none`` replays only, ``all`` records again);
    ``label`` is the store folder the calls are filed under. When deepeval passes a pydantic
    ``schema``, the reply is parsed into it, with one repair request if it does not fit.
    """

    def __init__(
        self,
        model: str = "openai/gpt-4.1",
        *,
        store: str | Path | None = DEFAULT_STORE,
        record: StoreMode = "new",
        concurrency: int = DEFAULT_CONCURRENCY,
        max_attempts: int = DEFAULT_MAX_ATTEMPTS,
        temperature: float | None = DEFAULT_TEMPERATURE,
        max_output_tokens: int | None = None,
        label: str = "deepeval",
        engine: Engine | None = None,
    ) -> None:
        resolved = resolve_name(model)
        if resolved.provider == "builtin":
            raise ProviderConfigError(
                f"RweDeepEvalLLM({model!r}): builtin models answer only pytest-rwe's own "
                "structured tasks, not deepeval's prompts; use a vendor model such as "
                "openai/gpt-4.1, or a local OpenAI-compatible server as "
                "openai/<model>@http://127.0.0.1:<port>/v1"
            )
        self.rwe_model = model
        self.label = label
        self.settings = GenerationSettings(temperature=temperature,
                                           max_output_tokens=max_output_tokens)
        self.config = jury_settings(jurors=(model,), store=store, record=record,
                                    concurrency=concurrency, max_attempts=max_attempts,
                                    temperature=temperature)
        self._engine = engine
        super().__init__(model)

    def load_model(self, *args: Any, **kwargs: Any) -> Engine:
        """The engine that makes the calls (shared by every adapter with this config)."""
        return self._engine or shared_engine(self.config)

    def get_model_name(self, *args: Any, **kwargs: Any) -> str:
        return f"{self.rwe_model} (pytest-rwe)"

    def generate(self, prompt: Any, schema: type[BaseModel] | None = None,
                 **kwargs: Any) -> Any:
        """The reply text, or an instance of ``schema`` when deepeval passes one."""
        engine: Engine = self.model
        request, label = self._request(prompt, schema)
        reply = engine.submit_call(self.rwe_model, request, label).result()
        if schema is None:
            return reply.text
        try:
            return parse_structured(reply.text, schema)
        except StructuredReplyError as first:
            repair, repair_label = self._repair(request, reply.text, schema, first)
            second = engine.submit_call(self.rwe_model, repair, repair_label).result()
            return self._parse_repaired(second.text, schema)

    async def a_generate(self, prompt: Any, schema: type[BaseModel] | None = None,
                         **kwargs: Any) -> Any:
        """:meth:`generate` without blocking the caller's event loop."""
        engine: Engine = self.model
        request, label = self._request(prompt, schema)
        reply = await asyncio.wrap_future(engine.submit_call(self.rwe_model, request, label))
        if schema is None:
            return reply.text
        try:
            return parse_structured(reply.text, schema)
        except StructuredReplyError as first:
            repair, repair_label = self._repair(request, reply.text, schema, first)
            second = await asyncio.wrap_future(
                engine.submit_call(self.rwe_model, repair, repair_label))
            return self._parse_repaired(second.text, schema)

    def supports_structured_outputs(self) -> bool:
        return True  # a schema is honoured (parsed and repaired), whatever the vendor

    # -- internals --------------------------------------------------------------------------
    def _request(self, prompt: Any,
                 schema: type[BaseModel] | None) -> tuple[GenerationRequest, CallLabel]:
        if not isinstance(prompt, str):
            raise TypeError(
                f"RweDeepEvalLLM({self.rwe_model!r}) takes text prompts, got "
                f"{type(prompt).__name__} (multimodal inputs are not supported)"
            )
        request = GenerationRequest(messages=(Message("user", prompt),), settings=self.settings)
        label = CallLabel(kind="judge", study_id=self.label, criterion=_call_name(schema),
                          model=self.rwe_model)
        return request, label

    def _repair(
        self, request: GenerationRequest, reply: str, schema: type[BaseModel],
        error: StructuredReplyError,
    ) -> tuple[GenerationRequest, CallLabel]:
        repair = GenerationRequest(
            messages=(*request.messages, Message("assistant", reply),
                      Message("user", _repair_text(schema, error))),
            settings=self.settings,
        )
        label = CallLabel(kind="repair", study_id=self.label, criterion=_call_name(schema),
                          model=self.rwe_model)
        return repair, label

    def _parse_repaired(self, text: str, schema: type[BaseModel]) -> BaseModel:
        try:
            return parse_structured(text, schema)
        except StructuredReplyError as again:
            raise StructuredReplyError(
                f"{self.rwe_model}: reply unreadable as {schema.__name__} after one repair "
                f"attempt: {again}; the reply began {text[:200]!r}"
            ) from None


def _call_name(schema: type[BaseModel] | None) -> str:
    """Names the stored file: the schema deepeval asked for, or "text"."""
    return schema.__name__ if schema is not None else "text"
