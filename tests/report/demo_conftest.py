"""Demo models for report runs (the e2e tests and scripts/screenshot_report.py copy this file
into a project as its conftest.py). Real, deterministic, offline and deliberately imperfect:

- ``demo/careless`` writes the builtin summary, then drops the first significant outcome
  (a completeness error wherever there is one);
- ``demo/sloppy`` flips one significant direction on about one study in three (a direction
  error);
- ``demo/hasty`` is a juror that agrees with the builtin rules juror except on about three
  (study, criterion) pairs in twenty, where it gives the other score, and one in twenty,
  where its reply is unreadable (so it abstains after the repair attempt).

The two summarizers report a fixed, simulated service time as their latency (``SERVICE_S``,
as if they were slower remote models) instead of sleeping, so runs stay fast and their
inference times are exact and reproducible.
"""

from __future__ import annotations

import json
import time
import zlib

from pytest_rwe.providers.base import (
    GenerationRequest,
    GenerationResult,
    JudgeTask,
    Provider,
    ProviderError,
    SummarizeTask,
    Usage,
)
from pytest_rwe.providers.registry import register_provider

SERVICE_S = {"careless": 0.8, "sloppy": 1.6}  # simulated seconds per summary


def _bucket(text: str, buckets: int) -> int:
    return zlib.crc32(text.encode("utf-8")) % buckets


class DemoProvider(Provider):
    """See the module docstring."""

    name = "demo"
    uses_store = False  # deterministic and instant: nothing worth storing

    async def generate(self, request: GenerationRequest) -> GenerationResult:
        started = time.perf_counter()
        task = request.task
        if self.model in SERVICE_S and isinstance(task, SummarizeTask):
            return GenerationResult(self._summarize(task), SERVICE_S[self.model],
                                    Usage(None, None))
        if self.model == "hasty" and isinstance(task, JudgeTask):
            return GenerationResult(self._judge(task), time.perf_counter() - started,
                                    Usage(None, None))
        raise ProviderError(self.full_name, f"demo/{self.model} cannot answer {task!r:.40}")

    def _summarize(self, task: SummarizeTask) -> str:
        from pytest_rwe.rules.summarizer import summarize
        from pytest_rwe.rules.synthetic import drop_significant, flip_direction

        text = summarize(task.study)
        if self.model == "careless":
            mutation = drop_significant(task.study, text)
        else:
            mutation = flip_direction(task.study, text) if _bucket(task.study.id, 3) == 0 \
                else None
        return mutation.text if mutation else text

    def _judge(self, task: JudgeTask) -> str:
        from pytest_rwe.rules import judge

        verdict = judge(task.study, task.summary, task.criterion)
        # keyed on the study, not the summary: like a real juror, it finds the same studies
        # hard whichever model wrote the summary
        bucket = _bucket(f"{task.study.id}\0{task.criterion}", 20)
        if bucket == 0:
            return "Sorry, I could not decide on this one."
        if bucket <= 3:
            return json.dumps({task.criterion: {
                "score": 1 - verdict.score,
                "explanation": "hasty reading: " + ("looks fine to me" if verdict.score == 0
                                                    else "I doubt this summary")}})
        return verdict.to_reply()


register_provider("demo", DemoProvider)
