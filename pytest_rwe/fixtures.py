"""The plugin's fixtures. Override the ``rwe_*_settings`` ones in a conftest to change them."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

import pytest

from pytest_rwe.claims_report import claim_diagnostics, juror_findings
from pytest_rwe.engine import Engine, Evaluation
from pytest_rwe.providers.base import GenerationSettings
from pytest_rwe.records import evaluation_record
from pytest_rwe.session import RweCase, get_session
from pytest_rwe.study import Study, StudyLoad
from pytest_rwe.verdict import Criterion, Verdict

RECORD_PROPERTY = "rwe"
PROGRESS_PROPERTY = "rwe_progress"


@dataclass(frozen=True)
class Summary:
    """The summary a model wrote: its text, latency (seconds) and token usage."""

    text: str
    latency_s: float
    input_tokens: int | None
    output_tokens: int | None
    replayed: bool


class Jury:
    """The session's jury: judge any text as a summary of a study."""

    def __init__(self, engine: Engine, thresholds: Mapping[Criterion, float]) -> None:
        self._engine = engine
        self.thresholds = thresholds

    @property
    def jurors(self) -> tuple[str, ...]:
        return self._engine.config.jury

    def judge(self, study: Study, summary: str) -> Verdict:
        """Score ``summary`` on every criterion with every juror."""
        return self._engine.judge(study, summary)


@pytest.fixture(scope="session")
def rwe_summarize_settings() -> GenerationSettings:
    """Generation settings of the models under test (temperature 0, model-aware budget)."""
    return GenerationSettings()


@pytest.fixture(scope="session")
def rwe_judge_settings() -> GenerationSettings:
    """Generation settings of the jurors."""
    return GenerationSettings()


@pytest.fixture(scope="session")
def rwe_engine(
    pytestconfig: pytest.Config,
    rwe_summarize_settings: GenerationSettings,
    rwe_judge_settings: GenerationSettings,
) -> Iterator[Engine]:
    """The process's evaluation engine; queues every selected pair as soon as it starts."""
    session = get_session(pytestconfig)
    if session.usage_problem:
        pytest.fail(session.usage_problem, pytrace=False)
    engine = session.start_engine(rwe_summarize_settings, rwe_judge_settings)
    yield engine
    # closed in pytest_sessionfinish, after the last test that might still need it


@pytest.fixture(scope="session")
def rwe_thresholds(pytestconfig: pytest.Config) -> Mapping[Criterion, float]:
    """Pass threshold of each criterion on the jury mean (ini ``rwe_thresholds``)."""
    return dict(get_session(pytestconfig).settings.thresholds)


@pytest.fixture(scope="session")
def rwe_jury(rwe_engine: Engine, rwe_thresholds: Mapping[Criterion, float]) -> Jury:
    """Judge any text for a study, e.g. the output of your own summarizer function."""
    return Jury(rwe_engine, rwe_thresholds)


@pytest.fixture
def rwe_case(request: pytest.FixtureRequest) -> RweCase:
    """The (model, study, repeat) of this test; parametrized by the plugin."""
    case: RweCase = request.param
    return case


@pytest.fixture
def rwe_model(rwe_case: RweCase) -> str:
    """The name of the model under test."""
    return rwe_case.model


@pytest.fixture
def rwe_study_load(request: pytest.FixtureRequest) -> StudyLoad:
    """The study file of this test: parametrized alone, or taken from ``rwe_case``."""
    if hasattr(request, "param"):
        load: StudyLoad = request.param
        return load
    case: RweCase = request.getfixturevalue("rwe_case")
    return case.load


@pytest.fixture
def rwe_study(rwe_study_load: StudyLoad) -> Study:
    """The parsed study; a broken study file fails only its own tests, with the fix."""
    if rwe_study_load.study is None:
        assert rwe_study_load.error is not None
        pytest.fail(rwe_study_load.error.render(), pytrace=False)
    return rwe_study_load.study


@pytest.fixture
def rwe_evaluation(
    request: pytest.FixtureRequest, rwe_case: RweCase, rwe_study: Study, rwe_engine: Engine
) -> Evaluation:
    """The model's summary of the study and the jury's verdict (computed once per pair)."""
    evaluation = rwe_engine.evaluate(rwe_case.model, rwe_study, rwe_case.repeat)
    session = get_session(request.config)
    if rwe_case.id not in session.shipped:
        # Once per pair and process: the controller keeps the first copy it gets, and every
        # test report keeps its user_properties to the end of the run (memory on big suites).
        claims = findings = None
        if evaluation.summary is not None:
            claims = claim_diagnostics(rwe_study, evaluation.summary.text)
            if evaluation.verdict is not None:
                findings = juror_findings(rwe_study, evaluation.summary.text, evaluation.verdict)
        record = evaluation_record(evaluation, session.settings.thresholds, claims, findings)
        # JSON text, not a dict: xdist can only ship primitives on user_properties.
        request.node.user_properties.append((RECORD_PROPERTY, json.dumps(record)))
        session.shipped.add(rwe_case.id)
    progress = rwe_engine.progress_snapshot() | {
        "process": getattr(request.config, "workerinput", {}).get("workerid", "main"),
        "total": len(session.selected),
    }
    request.node.user_properties.append((PROGRESS_PROPERTY, json.dumps(progress)))
    if evaluation.summary is None:
        pytest.fail(f"{rwe_case.model} could not summarize {rwe_study.id}: {evaluation.error}",
                    pytrace=False)
    if evaluation.verdict is None:
        pytest.fail(f"the jury could not judge {rwe_case.model}'s summary of {rwe_study.id}: "
                    f"{evaluation.error}", pytrace=False)
    return evaluation


@pytest.fixture
def rwe_summary(rwe_evaluation: Evaluation) -> Summary:
    """The summary text, latency and token usage."""
    result = rwe_evaluation.summary
    assert result is not None  # rwe_evaluation fails the test otherwise
    return Summary(result.text, result.latency_s, result.usage.input_tokens,
                   result.usage.output_tokens, result.replayed)


@pytest.fixture
def rwe_verdict(rwe_evaluation: Evaluation) -> Verdict:
    """Per criterion: the jury mean, each juror's score and explanation, the abstentions."""
    assert rwe_evaluation.verdict is not None
    return rwe_evaluation.verdict


def assert_criterion(verdict: Verdict, criterion: Criterion, threshold: float,
                     summary: str | None = None) -> None:
    """Fail with every juror's explanation when ``criterion`` misses its threshold."""
    result = verdict[criterion]
    if result.passes(threshold):
        return
    message = result.explain(threshold)
    if summary is not None:
        message += "\n  summary: " + summary
    pytest.fail(message, pytrace=False)


# re-exported for the plugin module
__all__ = [
    "Jury",
    "Summary",
    "assert_criterion",
    "rwe_case",
    "rwe_engine",
    "rwe_evaluation",
    "rwe_judge_settings",
    "rwe_jury",
    "rwe_model",
    "rwe_study",
    "rwe_study_load",
    "rwe_summarize_settings",
    "rwe_summary",
    "rwe_thresholds",
    "rwe_verdict",
]
