"""The plugin's fixtures. Override the ``rwe_*_settings`` ones in a conftest to change them.

Registered by the plugin in every process (xdist workers included), as ``rwe-fixtures``.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import json
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest
from syrupy.assertion import SnapshotAssertion

from pytest_rwe.drift.extension import DriftSnapshotExtension, snapshot_stem
from pytest_rwe.drift.profile import VerdictProfile, verdict_profile
from pytest_rwe.engine import Engine, Evaluation
from pytest_rwe.jury_rules import repeated
from pytest_rwe.plugin.asserts import Jury, Summary, fail_test
from pytest_rwe.plugin.records import PROGRESS_PROPERTY, RECORD_PROPERTY, evaluation_record
from pytest_rwe.plugin.session import RweCase, get_session, jury_rules
from pytest_rwe.plugin.snapshot import RweSnapshot
from pytest_rwe.plugin.studies import NO_STUDY_PROPERTY, NoStudy
from pytest_rwe.providers.base import GenerationSettings
from pytest_rwe.providers.families import same_family_jurors
from pytest_rwe.redact import display_name, path_name, redact_deep
from pytest_rwe.rules.diagnostics import claim_diagnostics, juror_findings
from pytest_rwe.store.entry import slug
from pytest_rwe.study import Study, StudyLoad
from pytest_rwe.verdict import Criterion, Verdict

WAIT_NOTE_S = 30.0  # a test waiting longer than this for its pair says what it waits for


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
def rwe_jury(pytestconfig: pytest.Config, rwe_engine: Engine,
             rwe_thresholds: Mapping[Criterion, float]) -> Jury:
    """Judge any text for a study, e.g. the output of your own summarizer function."""
    return Jury(rwe_engine, rwe_thresholds, jury_rules(pytestconfig))


@pytest.fixture
def rwe_case(request: pytest.FixtureRequest) -> RweCase:
    """The (model, study, repeat) of this test; parametrized by the plugin."""
    _no_study(request)
    case: RweCase = request.param
    return case


@pytest.fixture
def rwe_model(rwe_case: RweCase) -> str:
    """The name of the model under test."""
    return rwe_case.model


@pytest.fixture
def rwe_variant(rwe_case: RweCase) -> str | None:
    """The name of this test's prompt variant (``--rwe-variant``), None without variants."""
    return rwe_case.variant


@pytest.fixture
def rwe_study_load(request: pytest.FixtureRequest) -> StudyLoad:
    """The study file of this test: parametrized alone, or taken from ``rwe_case``."""
    if hasattr(request, "param"):
        _no_study(request)
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
    session = get_session(request.config)
    evaluation = _evaluate(rwe_engine, request.config, rwe_case, rwe_study, rwe_case.repeat)
    if rwe_case.id not in session.shipped:
        # Once per pair and process: the controller keeps the first copy it gets, and every
        # test report keeps its user_properties to the end of the run (memory on big suites).
        claims, findings = evaluation.claims, None  # read by the engine as the jury worked
        if evaluation.summary is not None:
            if claims is None:
                claims = claim_diagnostics(rwe_study, evaluation.summary.text)
            if evaluation.verdict is not None:
                findings = juror_findings(rwe_study, evaluation.summary.text, evaluation.verdict)
        jury = session.settings.jury
        record = evaluation_record(evaluation, session.settings.thresholds, claims, findings)
        if rwe_case.variant is not None:  # "model" is the arm, model+variant
            record["variant"], record["variant_of"] = rwe_case.variant, rwe_case.model
        excluded = jury_rules(request.config).excluded(rwe_case.model, jury)
        record["excluded_jurors"] = list(excluded)
        record["self_jurors"] = [j for j in same_family_jurors(rwe_case.model, jury)
                                 if j not in excluded]
        # JSON text, not a dict: xdist can only ship primitives on user_properties. Redacted
        # here: user_properties also reach junit XML, and a model's URL may hold a password.
        request.node.user_properties.append((RECORD_PROPERTY, json.dumps(redact_deep(record))))
        session.shipped.add(rwe_case.id)
    progress = rwe_engine.progress_snapshot() | {
        "process": getattr(request.config, "workerinput", {}).get("workerid", "main"),
        "total": len(session.selected),
    }
    request.node.user_properties.append((PROGRESS_PROPERTY, json.dumps(progress)))
    if evaluation.summary is None:
        fail_test(f"{rwe_case.arm} could not summarize {rwe_study.id}: {evaluation.error}"
                  + _tracebacks(evaluation))
    if evaluation.verdict is None:
        fail_test(f"the jury could not judge {rwe_case.arm}'s summary of {rwe_study.id}: "
                  f"{evaluation.error}")
    errors = evaluation.juror_errors
    if errors:
        # A juror that could not be asked would silently shrink the jury: the pair's tests
        # error (its answers are still in the report, counted as errors).
        lines = "".join(f"\n  - {s.juror} on {s.criterion}: {s.error}" for s in errors)
        fail_test(f"the jury could not judge {rwe_case.arm}'s summary of {rwe_study.id}: "
                  f"{len(errors)} juror call(s) failed{lines}" + _tracebacks(evaluation))
    return evaluation


def _tracebacks(evaluation: Evaluation) -> str:
    return "".join(f"\n\n{bug.rstrip()}" for bug in evaluation.bugs)


def _wait(engine: Engine, future: concurrent.futures.Future[Evaluation], config: pytest.Config,
          what: str) -> Evaluation:
    """The evaluation; a test that waits long says so now and then, naming what it waits
    for (only where there is a terminal: a plain run, not an xdist worker)."""
    reporter = (None if hasattr(config, "workerinput")
                else config.pluginmanager.get_plugin("terminalreporter"))
    while True:
        try:
            return future.result(timeout=WAIT_NOTE_S if reporter is not None else None)
        except concurrent.futures.TimeoutError:
            reporter.ensure_newline()  # type: ignore[union-attr]
            reporter.write_line(f"rwe: still waiting for {what}: "  # type: ignore[union-attr]
                                f"{engine.status()}")


def _evaluate(engine: Engine, config: pytest.Config, case: RweCase, study: Study,
              repeat: int) -> Evaluation:
    """The engine's evaluation with the session's jury rules applied to its verdict."""
    evaluation = _wait(engine, engine.submit(case.arm, study, repeat), config,
                       f"{case.arm}'s summary of {study.id}")
    if evaluation.verdict is None:
        return evaluation
    # self-judging is about the model, whatever prompt variant it ran with
    verdict = jury_rules(config).apply(evaluation.verdict, case.model,
                                       get_session(config).settings.jury)
    return dataclasses.replace(evaluation, verdict=verdict)


def _no_study(request: pytest.FixtureRequest) -> None:
    """Fail the placeholder test of an xdist worker that found no study (see plugin/studies.py)."""
    if isinstance(request.param, NoStudy):
        request.node.user_properties.append((NO_STUDY_PROPERTY, request.param.message))
        pytest.fail(request.param.message, pytrace=False)


@pytest.fixture
def rwe_summary(rwe_evaluation: Evaluation) -> Summary:
    """The summary text, latency and token usage."""
    result = rwe_evaluation.summary
    assert result is not None  # rwe_evaluation fails the test otherwise
    return Summary(result.text, result.latency_s, result.usage.input_tokens,
                   result.usage.output_tokens, result.replayed)


@pytest.fixture
def rwe_verdict(request: pytest.FixtureRequest, rwe_case: RweCase, rwe_study: Study,
                rwe_engine: Engine, rwe_evaluation: Evaluation) -> Verdict:
    """Per criterion: the jury mean, each juror's score and explanation, the abstentions.

    With ``--rwe-repeat N`` and ``rwe_repeat_rule`` majority or mean, it also carries the
    verdicts of the other repeats (a :class:`~pytest_rwe.jury_rules.RepeatedVerdict`), so
    :func:`assert_criterion` asserts the rule; indexing it still gives this repeat's verdict.
    """
    verdict = rwe_evaluation.verdict
    assert verdict is not None
    rules = jury_rules(request.config)
    count = get_session(request.config).settings.repeat
    if count < 2 or rules.repeat_rule == "all":
        return verdict
    repeats = [verdict if r == rwe_case.repeat else
               _evaluate(rwe_engine, request.config, rwe_case, rwe_study, r).verdict
               for r in range(count)]
    return repeated(verdict, repeats, rwe_case.repeat, rules.repeat_rule)


@pytest.fixture
def rwe_verdict_profile(rwe_case: RweCase, rwe_study: Study, rwe_summary: Summary,
                        rwe_verdict: Verdict,
                        rwe_thresholds: Mapping[Criterion, float]) -> VerdictProfile:
    """This test's verdict profile: juror scores, badge, cited numbers, claimed outcomes."""
    return verdict_profile(rwe_study, rwe_summary.text, rwe_verdict, rwe_thresholds,
                           model=display_name(rwe_case.arm), repeat=rwe_case.repeat)


@pytest.fixture
def rwe_snapshot(request: pytest.FixtureRequest, snapshot: SnapshotAssertion,
                 rwe_case: RweCase) -> RweSnapshot:
    """The golden verdict profile of this (model, study), a syrupy snapshot under
    ``golden/<test file stem>/<provider>__<model>/<study>.json`` beside the test file."""
    if DriftSnapshotExtension.live is None:
        # only files of studies that left the suite may count as unused (see the extension)
        DriftSnapshotExtension.live = frozenset(
            (slug(path_name(case.arm)), snapshot_stem(case.load.id, case.repeat))
            for case in get_session(request.config).cases())
    return RweSnapshot(snapshot.use_extension(DriftSnapshotExtension),
                       request.config.rootpath, Path(str(request.node.path)))
