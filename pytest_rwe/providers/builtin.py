"""The builtin offline models: ``builtin/template`` summarizes, ``builtin/rules`` judges.

They answer the structured task a request carries (no prompt parsing, no network, no key), and
``rules`` replies in exactly the JSON an LLM juror gives, so its answer goes through the same
reply parser as every other juror's.

Their work is pure CPU (the rules juror reads every outcome of a study against every sentence
of a summary), so it never runs on the engine's event loop, where a study with hundreds of
outcomes would hold up the calls of every other pair:

- one thread per model answers one request at a time (the rules juror caches its reading
  of a summary for the next criterion, and that cache is not made for concurrent use);
- a study with more than :data:`PROCESS_LANE_OUTCOMES` outcomes is judged in a worker
  process instead (started on first need), all three criteria at once, so its seconds of
  CPU run on another core: they neither hold the GIL against the event loop nor queue the
  other pairs' judgments behind them.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
import multiprocessing.pool
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

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

if TYPE_CHECKING:
    from pytest_rwe.study import Study

MODELS = ("template", "rules")
#: studies with more outcomes than this are judged in a worker process (see above)
PROCESS_LANE_OUTCOMES = 300
_BIG_CACHE = 16  # big (study, summary) verdicts kept for the criteria still to come


def judge_all_replies(study: Study, summary: str) -> dict[str, str]:
    """Every criterion's reply of the rules juror (run in the worker process)."""
    from pytest_rwe.rules import judge_all

    return {criterion: verdict.to_reply() for criterion, verdict in
            judge_all(study, summary).items()}


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
        self._pool: multiprocessing.pool.Pool | None = None
        # (study object id, summary) -> the study (so its id is not reused) and the replies
        self._big: dict[tuple[int, str], tuple[Study, asyncio.Future[dict[str, str]]]] = {}

    async def generate(self, request: GenerationRequest) -> GenerationResult:
        task = request.task
        if (self.model == "rules" and isinstance(task, JudgeTask)
                and len(task.study.outcomes) > PROCESS_LANE_OUTCOMES):
            started = time.perf_counter()
            replies = await asyncio.shield(self._judged_in_process(task))
            return GenerationResult(text=replies[task.criterion],
                                    latency_s=time.perf_counter() - started,
                                    usage=Usage(None, None))
        if self._worker is None:
            self._worker = concurrent.futures.ThreadPoolExecutor(
                max_workers=1, thread_name_prefix=f"rwe-{self.model}")
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._worker, self._answer, request)

    def _judged_in_process(self, task: JudgeTask) -> asyncio.Future[dict[str, str]]:
        key = (id(task.study), task.summary)
        known = self._big.get(key)
        if known is not None and known[0] is task.study:
            return known[1]
        loop = asyncio.get_running_loop()
        future: asyncio.Future[dict[str, str]] = loop.create_future()
        if self._pool is None:
            # spawn: a fork of a process with an event loop, threads and SDK clients is unsafe
            self._pool = multiprocessing.get_context("spawn").Pool(processes=1)

        def done(replies: dict[str, str]) -> None:
            loop.call_soon_threadsafe(_settle, future, replies, None)

        def failed(error: BaseException) -> None:
            loop.call_soon_threadsafe(_settle, future, None, error)

        self._pool.apply_async(judge_all_replies, (task.study, task.summary),
                               callback=done, error_callback=failed)
        self._big[key] = (task.study, future)
        while len(self._big) > _BIG_CACHE:
            del self._big[next(iter(self._big))]
        return future

    def _answer(self, request: GenerationRequest) -> GenerationResult:
        started = time.perf_counter()
        task = request.task
        if self.model == "template":
            if not isinstance(task, SummarizeTask):
                raise ProviderError(self.full_name, self._refusal(task, "summarize a study"))
            from pytest_rwe.rules.summarizer import summarize

            text = summarize(task.study)
        else:
            if not isinstance(task, JudgeTask):
                raise ProviderError(self.full_name, self._refusal(task, "judge a summary"))
            from pytest_rwe.rules import UnknownCriterion, judge

            try:
                text = judge(task.study, task.summary, task.criterion).to_reply()
            except UnknownCriterion as exc:  # an error of this juror, counted apart
                raise ProviderError(self.full_name, str(exc)) from None
        return GenerationResult(text=text, latency_s=time.perf_counter() - started,
                                usage=Usage(None, None))

    async def aclose(self) -> None:
        if self._worker is not None:
            self._worker.shutdown(wait=False, cancel_futures=True)
            self._worker = None
        if self._pool is not None:
            self._pool.terminate()  # a judgment still running is of no use any more
            self._pool = None
        self._big.clear()

    def _refusal(self, task: object, can: str) -> str:
        asked = ("a request without a task (builtin models answer the structured task, not "
                 "the prompt text)" if task is None else f"a {type(task).__name__}")
        use = "builtin/rules as a juror" if self.model == "template" else \
            "builtin/template as a model under test"
        return f"can only {can}, but was given {asked}; use {use}"


def _settle(future: asyncio.Future[dict[str, str]], replies: dict[str, str] | None,
            error: BaseException | None) -> None:
    if future.done():
        return
    if error is not None:
        future.set_exception(error)
    else:
        assert replies is not None
        future.set_result(replies)
