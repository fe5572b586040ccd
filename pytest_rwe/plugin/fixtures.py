"""The plugin's fixtures. Override the ``rwe_*_settings`` ones in a conftest to change them.

Registered by the plugin in every process (xdist workers included), as ``rwe-fixtures``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from pytest_rwe.plugin.session import get_session, jury_rules
from pytest_rwe.plugin.studies import NO_STUDY_PROPERTY, NoStudy

if TYPE_CHECKING:  # the bodies import what they use: loading the plugin imports none of it
    from collections.abc import Iterator, Mapping

    from syrupy.assertion import SnapshotAssertion

    from pytest_rwe.drift.profile import VerdictProfile
    from pytest_rwe.engine import Engine, Evaluation
    from pytest_rwe.plugin.asserts import Jury, Summary
    from pytest_rwe.plugin.session import RweCase
    from pytest_rwe.plugin.snapshot import RweSnapshot
    from pytest_rwe.providers.base import GenerationSettings
    from pytest_rwe.study import Study, StudyLoad
    from pytest_rwe.verdict import Criterion, Verdict


@pytest.fixture(scope="session")
def rwe_summarize_settings() -> GenerationSettings:
    """Generation settings of the models under test (temperature 0, model-aware budget)."""
    from pytest_rwe.providers.base import GenerationSettings

    return GenerationSettings()


@pytest.fixture(scope="session")
def rwe_judge_settings() -> GenerationSettings:
    """Generation settings of the jurors."""
    from pytest_rwe.providers.base import GenerationSettings

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
    from pytest_rwe.plugin.asserts import Jury

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
    from pytest_rwe.plugin.evaluation import evaluate_case

    return evaluate_case(request, rwe_case, rwe_study, rwe_engine)


def _no_study(request: pytest.FixtureRequest) -> None:
    """Fail the placeholder test of an xdist worker that found no study (see plugin/studies.py)."""
    if isinstance(request.param, NoStudy):
        request.node.user_properties.append((NO_STUDY_PROPERTY, request.param.message))
        pytest.fail(request.param.message, pytrace=False)


@pytest.fixture
def rwe_summary(rwe_evaluation: Evaluation) -> Summary:
    """The summary text, latency and token usage."""
    from pytest_rwe.plugin.asserts import Summary

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
    from pytest_rwe.jury_rules import repeated
    from pytest_rwe.plugin.evaluation import evaluate

    verdict = rwe_evaluation.verdict
    assert verdict is not None
    rules = jury_rules(request.config)
    count = get_session(request.config).settings.repeat
    if count < 2 or rules.repeat_rule == "all":
        return verdict
    repeats = [verdict if r == rwe_case.repeat else
               evaluate(rwe_engine, request.config, rwe_case, rwe_study, r).verdict
               for r in range(count)]
    return repeated(verdict, repeats, rwe_case.repeat, rules.repeat_rule)


@pytest.fixture
def rwe_verdict_profile(rwe_case: RweCase, rwe_study: Study, rwe_summary: Summary,
                        rwe_verdict: Verdict,
                        rwe_thresholds: Mapping[Criterion, float]) -> VerdictProfile:
    """This test's verdict profile: juror scores, badge, cited numbers, claimed outcomes."""
    from pytest_rwe.drift.profile import verdict_profile
    from pytest_rwe.redact import display_name

    return verdict_profile(rwe_study, rwe_summary.text, rwe_verdict, rwe_thresholds,
                           model=display_name(rwe_case.arm), repeat=rwe_case.repeat)


@pytest.fixture
def rwe_snapshot(request: pytest.FixtureRequest, snapshot: SnapshotAssertion,
                 rwe_case: RweCase) -> RweSnapshot:
    """The golden verdict profile of this (model, study), a syrupy snapshot under
    ``golden/<test file stem>/<provider>__<model>/<study>.json`` beside the test file."""
    from pytest_rwe.drift.extension import DriftSnapshotExtension, snapshot_stem
    from pytest_rwe.plugin.snapshot import RweSnapshot
    from pytest_rwe.redact import path_name
    from pytest_rwe.store.entry import slug

    if DriftSnapshotExtension.live is None:
        # only files of studies that left the suite may count as unused (see the extension)
        DriftSnapshotExtension.live = frozenset(
            (slug(path_name(case.arm)), snapshot_stem(case.load.id, case.repeat))
            for case in get_session(request.config).cases())
    return RweSnapshot(snapshot.use_extension(DriftSnapshotExtension),
                       request.config.rootpath, Path(str(request.node.path)))
