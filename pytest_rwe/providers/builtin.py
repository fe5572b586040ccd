"""The builtin offline models: ``builtin/template`` summarizes, ``builtin/rules`` judges.

They answer the structured task a request carries (no prompt parsing, no network, no key), and
``rules`` replies in exactly the JSON an LLM juror gives, so its answer goes through the same
reply parser as every other juror's.

Their work is pure CPU (the rules juror reads every outcome of a study against every sentence
of a summary), so it runs on a thread of its own, never on the engine's event loop: a study
with hundreds of outcomes must not hold up the calls of every other pair. One thread per
model, one request at a time: the rules juror caches its reading of a summary for the next
criterion, and that cache is not made for concurrent use.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import time
from collections.abc import Mapping
from typing import Any

from pytest_rwe.providers.base import (
    GenerationRequest,
    GenerationResult,
    JudgeTask,
    Provider,
    ProviderConfigError,
    ProviderError,
    SummarizeTask,
    Usage,
)

MODELS = ("template", "rules")


class BuiltinProvider(Provider):
    """Deterministic offline models; see :data:`MODELS`."""

    name = "builtin"
    key_variables = ()
    # exact and instant: storing their answers would only churn the store
    uses_store = False

    def __init__(self, model: str, options: Mapping[str, Any] | None = None) -> None:
        if model not in MODELS:
            raise ProviderConfigError(
                f"unknown builtin model {model!r}; use one of: "
                + ", ".join(f"builtin/{m}" for m in MODELS)
                + " (template summarizes, rules judges)"
            )
        super().__init__(model, options)
        self._worker: concurrent.futures.ThreadPoolExecutor | None = None

    async def generate(self, request: GenerationRequest) -> GenerationResult:
        if self._worker is None:
            self._worker = concurrent.futures.ThreadPoolExecutor(
                max_workers=1, thread_name_prefix=f"rwe-{self.model}")
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._worker, self._answer, request)

    def _answer(self, request: GenerationRequest) -> GenerationResult:
        started = time.perf_counter()
        task = request.task
        if self.model == "template":
            if not isinstance(task, SummarizeTask):
                raise ProviderError(self.full_name, self._refusal(task, "summarize a study"))
            from pytest_rwe.summarizer import summarize

            text = summarize(task.study)
        else:
            if not isinstance(task, JudgeTask):
                raise ProviderError(self.full_name, self._refusal(task, "judge a summary"))
            from pytest_rwe.rules import judge

            text = judge(task.study, task.summary, task.criterion).to_reply()
        return GenerationResult(text=text, latency_s=time.perf_counter() - started,
                                usage=Usage(None, None))

    async def aclose(self) -> None:
        if self._worker is not None:
            self._worker.shutdown(wait=False, cancel_futures=True)
            self._worker = None

    def _refusal(self, task: object, can: str) -> str:
        asked = ("a request without a task (builtin models answer the structured task, not "
                 "the prompt text)" if task is None else f"a {type(task).__name__}")
        use = "builtin/rules as a juror" if self.model == "template" else \
            "builtin/template as a model under test"
        return f"can only {can}, but was given {asked}; use {use}"
