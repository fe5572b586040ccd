"""The engine's jury: the rules juror off the event loop, errors kept apart from abstentions."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from pytest_rwe.engine import Engine, build_engine
from pytest_rwe.providers.base import (
    GenerationRequest,
    GenerationResult,
    JudgeTask,
    Message,
    Provider,
    ProviderError,
)
from pytest_rwe.providers.builtin import PROCESS_LANE_OUTCOMES, BuiltinProvider
from pytest_rwe.providers.registry import register_provider
from pytest_rwe.rules.summarizer import summarize
from pytest_rwe.settings import engine_settings
from pytest_rwe.study import Study, load_study, parse_study
from pytest_rwe.testing.studies import big_study_raw
from pytest_rwe.verdict import CRITERIA

ROOT = Path(__file__).resolve().parent.parent

STUDY = ROOT / "cases" / "studies" / "hospital_shift_work_metabolic_syndrome.json"
RULES_RUNNING = threading.Event()
OTHER_ANSWERED = threading.Event()


class Juror(Provider):
    """A juror per model name: ``ok`` scores 1, ``down`` fails for good, ``garbled`` answers
    unreadably, ``buggy`` raises a bug, ``waits`` answers once the rules juror is running."""

    name = "jurytest"
    uses_store = False

    async def generate(self, request: GenerationRequest) -> GenerationResult:
        task = request.task
        assert isinstance(task, JudgeTask)
        if self.model == "down":
            raise ProviderError(self.full_name, "HTTP 503: overloaded [gave up after 6 "
                                "attempts; raise --rwe-max-attempts]", status=503)
        if self.model == "garbled":
            return GenerationResult("no JSON here", 0.0)
        if self.model == "buggy":
            return GenerationResult(task.summary.no_such_method(), 0.0)  # type: ignore[attr-defined]
        if self.model == "waits":
            # answered on the event loop while the rules juror is mid-judgment on its thread
            while not RULES_RUNNING.is_set():
                await asyncio.sleep(0.01)
            OTHER_ANSWERED.set()
        return GenerationResult(f'{{"{task.criterion}": {{"score": 1, "explanation": "ok"}}}}',
                                0.0)


register_provider("jurytest", Juror)


def engine(jury: tuple[str, ...]) -> Engine:
    return build_engine(engine_settings(jury=jury, store=None, max_attempts=1, concurrency=4))


@pytest.fixture(scope="module")
def study() -> Study:
    return load_study(STUDY)


def test_errors_abstentions_and_scores_are_kept_apart(study: Study) -> None:
    run = engine(("jurytest/ok", "jurytest/down", "jurytest/garbled"))
    try:
        evaluation = run.evaluate("builtin/template", study)
    finally:
        run.close()
    assert evaluation.verdict is not None and evaluation.bugs == ()
    for criterion in CRITERIA:
        cell = evaluation.verdict[criterion]
        assert [s.status for s in cell.scores] == ["scored", "error", "abstained"]
        assert (cell.errors, cell.abstentions, cell.mean) == (1, 1, 1.0)
        down = cell.scores[1]
        assert down.error is not None and "HTTP 503" in down.error and down.score is None
        assert "error (could not be asked)" in cell.explain(0.5)
    assert [s.juror for s in evaluation.juror_errors] == ["jurytest/down"] * 3


def test_a_bug_in_a_juror_is_an_error_with_its_traceback(study: Study) -> None:
    run = engine(("jurytest/ok", "jurytest/buggy"))
    try:
        evaluation = run.evaluate("builtin/template", study)
    finally:
        run.close()
    assert evaluation.verdict is not None
    errors = evaluation.juror_errors
    assert len(errors) == 3 and all(s.juror == "jurytest/buggy" for s in errors)
    assert errors[0].error is not None and errors[0].error.startswith(
        "AttributeError: 'str' object has no attribute 'no_such_method'")
    (trace,) = evaluation.bugs  # the same traceback three times is kept once
    assert "Traceback (most recent call last)" in trace and "no_such_method" in trace


def test_the_rules_juror_judges_off_the_event_loop(study: Study,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    import pytest_rwe.rules

    real = pytest_rwe.rules.judge
    loop_threads: set[str] = set()

    def slow_judge(*args: object, **kwargs: object) -> object:
        loop_threads.add(threading.current_thread().name)
        RULES_RUNNING.set()
        # if this ran on the event loop, the other juror could never answer: it waits here
        assert OTHER_ANSWERED.wait(timeout=30), "the event loop was blocked by the rules juror"
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(pytest_rwe.rules, "judge", slow_judge)
    RULES_RUNNING.clear()
    OTHER_ANSWERED.clear()
    run = engine(("builtin/rules", "jurytest/waits"))
    try:
        evaluation = run.evaluate("builtin/template", study)
    finally:
        run.close()
    assert evaluation.verdict is not None and not evaluation.juror_errors
    assert loop_threads == {"rwe-rules_0"}  # the provider's own thread, not the loop's


def test_a_study_with_many_outcomes_is_judged_in_a_worker_process() -> None:
    big = parse_study(big_study_raw(PROCESS_LANE_OUTCOMES + 20), Path("big.json"))
    summary = summarize(big)
    provider = BuiltinProvider("rules")

    async def judge_all() -> list[str]:
        try:
            replies = await asyncio.gather(*(
                provider.generate(GenerationRequest(
                    messages=(Message("user", "prompt"),), task=JudgeTask(big, summary, c)))
                for c in CRITERIA))
            assert provider._pool is not None  # the process lane, started on first need
            return [r.text for r in replies]
        finally:
            await provider.aclose()

    from pytest_rwe.rules import judge

    texts = asyncio.run(judge_all())
    assert texts == [judge(big, summary, c).to_reply() for c in CRITERIA]  # same answers


def test_a_big_studys_claims_and_rules_findings_are_read_in_a_worker_process() -> None:
    # Seconds of CPU on one of this process's threads would hold the interpreter lock
    # against every call: the engine reads a big study's summary in a worker process, and
    # the test gets exactly what it would have read itself on pytest's thread.
    from pytest_rwe.rules.diagnostics import claim_diagnostics, juror_findings, rules_findings

    big = parse_study(big_study_raw(PROCESS_LANE_OUTCOMES + 20), Path("big.json"))
    run = engine(("builtin/rules",))
    try:
        evaluation = run.evaluate("builtin/template", big)
        assert run._reader is not None  # the worker process, started on first need
    finally:
        run.close()
    assert evaluation.summary is not None and evaluation.verdict is not None
    text = evaluation.summary.text
    assert evaluation.claims == claim_diagnostics(big, text)
    assert evaluation.rules_findings == rules_findings(big, text)
    assert juror_findings(big, text, evaluation.verdict, evaluation.rules_findings) == \
        juror_findings(big, text, evaluation.verdict)


def test_a_small_studys_claims_stay_in_process(study: Study) -> None:
    run = engine(("builtin/rules",))
    try:
        evaluation = run.evaluate("builtin/template", study)
    finally:
        run.close()
    assert evaluation.claims is not None and evaluation.rules_findings is None
    assert run._reader is None
