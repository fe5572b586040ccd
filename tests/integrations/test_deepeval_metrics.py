"""The RWE jury as deepeval metrics (skipped when deepeval is absent)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

deepeval = pytest.importorskip("deepeval")

from deepeval.errors import MissingTestCaseParamsError  # noqa: E402
from deepeval.evaluate.configs import DisplayConfig, ErrorConfig  # noqa: E402
from deepeval.metrics.utils import copy_metrics  # noqa: E402
from deepeval.test_case import LLMTestCase  # noqa: E402

from conftest import COHORT, JURORS, STUDIES  # noqa: E402
from pytest_rwe.criteria import CRITERIA, spec  # noqa: E402
from pytest_rwe.integrations import jury_engine  # noqa: E402
from pytest_rwe.integrations.deepeval import (  # noqa: E402
    METRICS,
    STUDY_KEY,
    Completeness,
    DirectionOfEffect,
    JurorCallError,
    JuryAbstainedError,
    JuryConfig,
    JuryQuorumError,
    NumbersAccurate,
    RweJuryMetric,
    rwe_test_case,
)
from pytest_rwe.prompts import load_prompts, render_summarize_prompt  # noqa: E402
from pytest_rwe.rules.summarizer import summarize  # noqa: E402
from pytest_rwe.study import Study  # noqa: E402
from pytest_rwe.testing import FakeServer  # noqa: E402

QUIET = DisplayConfig(print_results=False, show_indicator=False)


def scripted(scores: dict[str, int | None]) -> object:
    """A fake-server responder: each vendor's juror answers its score (None: not JSON)."""
    def respond(provider: str, model: str, prompt: str) -> str | None:
        from pytest_rwe.testing.fake_wire import judge_criterion

        criterion = judge_criterion(prompt)
        if criterion is None:
            return None
        score = scores[provider]
        if score is None:
            return "I would rather not say."
        return json.dumps({criterion: {"score": score,
                                       "explanation": f"{provider} says {score}"}})
    return respond


def test_rwe_test_case_follows_the_convention(cohort: Study) -> None:
    summary = summarize(cohort)
    case = rwe_test_case(cohort, summary, tags=["demo"])
    assert case.input == render_summarize_prompt(cohort, load_prompts())
    assert case.actual_output == summary
    assert case.metadata[STUDY_KEY] == json.loads(json.dumps(cohort.raw))
    assert case.name == COHORT and case.tags == ["demo"]
    # a path or the raw mapping give the same case
    from_path = rwe_test_case(STUDIES / f"{COHORT}.json", summary)
    assert from_path.metadata == case.metadata and from_path.input == case.input


def test_rwe_test_case_names_the_problem_in_a_bad_study(cohort: Study) -> None:
    raw = json.loads(json.dumps(cohort.raw))
    del raw["results"]
    with pytest.raises(ValueError, match="results"):
        rwe_test_case(raw, "text")


def test_builtin_jury_scores_a_correct_summary_one(cohort: Study) -> None:
    case = rwe_test_case(cohort, summarize(cohort))
    for metric in (DirectionOfEffect(), NumbersAccurate(), Completeness()):
        assert metric.measure(case) == 1.0
        assert metric.success is True and metric.error is None
        assert "builtin/rules: score 1" in metric.reason
        assert metric.score_breakdown == {"builtin/rules": 1}


def test_a_reversed_direction_scores_zero_and_says_why(cohort: Study) -> None:
    wrong = summarize(cohort).replace("significantly higher risk", "significantly lower risk")
    metric = DirectionOfEffect()
    assert asyncio.run(metric.a_measure(rwe_test_case(cohort, wrong))) == 0.0
    assert metric.success is False
    assert "builtin/rules: score 0" in metric.reason
    assert "mortality" in metric.reason  # the juror quotes what it objects to


def test_missing_study_is_a_missing_param_error_that_teaches_the_fix() -> None:
    case = LLMTestCase(input="Summarize", actual_output="A summary.")
    with pytest.raises(MissingTestCaseParamsError, match="rwe_test_case"):
        Completeness().measure(case)


def test_missing_summary_is_a_missing_param_error(cohort: Study) -> None:
    case = rwe_test_case(cohort, "")
    with pytest.raises(MissingTestCaseParamsError, match="actual_output"):
        Completeness().measure(case)


def test_threshold_must_be_a_share() -> None:
    with pytest.raises(ValueError, match="0 to 1"):
        Completeness(threshold=3)
    assert Completeness(threshold=0.2, strict_mode=True).threshold == 1.0


def test_deepeval_copies_keep_the_jury_configuration(tmp_path: Path) -> None:
    metric = NumbersAccurate(threshold=0.8, jurors=JURORS, store=tmp_path, record="none",
                             concurrency=3, max_attempts=2)
    (copy,) = copy_metrics([metric])
    assert copy is not metric
    assert copy.jury_config == metric.jury_config
    assert copy.threshold == 0.8


def test_same_configuration_shares_one_engine(cohort: Study) -> None:
    case = rwe_test_case(cohort, summarize(cohort))
    DirectionOfEffect().measure(case)
    Completeness().measure(case)
    engines = list(jury_engine._ENGINES.values())
    assert len(engines) == 1
    jury_engine.close_shared_engines()
    assert not engines[0]._thread.is_alive()
    assert jury_engine._ENGINES == {}


def test_llm_jury_mean_threshold_and_reason(server: FakeServer, cohort: Study,
                                            tmp_path: Path) -> None:
    server.responder = scripted({"openai": 1, "anthropic": 1, "google": 0})
    case = rwe_test_case(cohort, summarize(cohort))
    lenient = Completeness(threshold=0.6, jurors=JURORS, store=tmp_path)
    strict = Completeness(threshold=0.7, jurors=JURORS, store=tmp_path)
    assert lenient.measure(case) == pytest.approx(2 / 3)
    assert lenient.success is True
    assert strict.measure(case) == pytest.approx(2 / 3)
    assert strict.success is False
    assert "google/gemini-2.5-pro: score 0: google says 0" in strict.reason
    # one call per juror for the criterion, and the second metric replayed the store
    assert len(server.requests) == 3


def test_an_abstaining_juror_is_reported_not_scored(server: FakeServer, cohort: Study,
                                                    tmp_path: Path) -> None:
    server.responder = scripted({"openai": 1, "anthropic": 0, "google": None})
    metric = DirectionOfEffect(jurors=JURORS, store=tmp_path)
    assert metric.measure(rwe_test_case(cohort, summarize(cohort))) == 0.5
    assert "google/gemini-2.5-pro: abstained" in metric.reason
    assert "1 of 3 jurors abstained" in metric.reason
    assert metric.score_breakdown["google/gemini-2.5-pro"] is None
    # the juror's unreadable reply got exactly one repair attempt
    assert len(server.requests_for("google")) == 2


def test_every_juror_abstaining_is_an_error_not_a_score(server: FakeServer, cohort: Study,
                                                        tmp_path: Path) -> None:
    server.responder = scripted({"openai": None, "anthropic": None, "google": None})
    metric = NumbersAccurate(jurors=JURORS, store=tmp_path)
    case = rwe_test_case(cohort, summarize(cohort))
    with pytest.raises(JuryAbstainedError, match="every juror abstained"):
        metric.measure(case)
    assert metric.score is None and metric.success is False
    assert metric.error is not None and "abstained" in metric.reason
    # through deepeval.evaluate with ignore_errors the metric is reported errored, unscored
    result = deepeval.evaluate([case], [NumbersAccurate(jurors=JURORS, store=tmp_path)],
                               display_config=QUIET,
                               error_config=ErrorConfig(ignore_errors=True))
    (data,) = result.test_results[0].metrics_data
    assert data.score is None and data.success is False
    assert "every juror abstained" in data.error


def test_a_juror_that_could_not_be_asked_is_an_error_not_a_smaller_jury(
        server: FakeServer, cohort: Study, tmp_path: Path) -> None:
    server.add_fault("status", provider="google", status=400, text="Bad request.", times=-1)
    metric = DirectionOfEffect(jurors=JURORS, store=tmp_path)
    with pytest.raises(JurorCallError, match="1 of 3 jurors could not be asked"):
        metric.measure(rwe_test_case(cohort, summarize(cohort)))
    assert metric.score is None and metric.success is False
    assert "google/gemini-2.5-pro: error (could not be asked)" in metric.reason
    assert "Bad request." in metric.reason


def test_assert_test_fails_on_a_failing_metric(cohort: Study) -> None:
    wrong = summarize(cohort).replace("HR 1.15", "HR 1.51")
    with pytest.raises(AssertionError, match="Numbers Accurate"):
        deepeval.assert_test(rwe_test_case(cohort, wrong), [NumbersAccurate()])


def test_evaluate_runs_the_three_metrics_on_many_cases(server: FakeServer, tmp_path: Path) -> None:
    from pytest_rwe.study import load_study

    studies = [load_study(p) for p in sorted(STUDIES.glob("*.json"))[:4]]
    cases = [rwe_test_case(s, summarize(s)) for s in studies]
    options = {"jurors": JURORS, "store": tmp_path}
    metrics = [DirectionOfEffect(**options), NumbersAccurate(**options),
               Completeness(**options)]
    result = deepeval.evaluate(cases, metrics, display_config=QUIET)
    scores = [m.score for t in result.test_results for m in t.metrics_data]
    assert scores == [1.0] * 12
    assert len(server.requests) == 4 * 3 * 3  # summaries x jurors x criteria, no more
    assert server.duplicate_requests() == []


def test_the_plugins_quorum_applies_a_majority_must_answer(server: FakeServer, cohort: Study,
                                                           tmp_path: Path) -> None:
    # one of three answers: a majority (2) is the plugin's default quorum, so no score
    server.responder = scripted({"openai": 1, "anthropic": None, "google": None})
    case = rwe_test_case(cohort, summarize(cohort))
    metric = DirectionOfEffect(jurors=JURORS, store=tmp_path)
    with pytest.raises(JuryQuorumError, match=r"1 of 3 jurors answered .* quorum of 2"):
        metric.measure(case)
    assert metric.score is None and metric.success is False
    assert "no quorum" in metric.reason and "abstained" in metric.reason
    assert metric.verdict is not None and metric.verdict.quorum == 2
    # the same rule as the plugin's: JuryRules decides, and quorum= lowers it
    lenient = DirectionOfEffect(jurors=JURORS, store=tmp_path, quorum=1)
    assert lenient.measure(case) == 1.0 and lenient.success is True
    (copy,) = copy_metrics([lenient])
    assert copy.quorum == 1


def test_a_quorum_beyond_the_jury_names_the_keyword() -> None:
    with pytest.raises(ValueError, match=r"quorum=2 must be between 1 and the 1 configured"):
        Completeness(quorum=2)


def test_the_metrics_read_the_criterion_table() -> None:
    assert [m.criterion for m in METRICS] == list(CRITERIA)
    assert METRICS[:3] == (DirectionOfEffect, NumbersAccurate, Completeness)
    for metric in METRICS:
        row = spec(metric.criterion)
        assert metric.display_name == f"RWE {row.title}"
        assert metric().threshold == row.threshold
        assert RweJuryMetric.for_criterion(row.name) is metric
    with pytest.raises(ValueError, match="unknown criterion 'tone'"):
        RweJuryMetric.for_criterion("tone")


def test_a_criterion_added_to_the_table_has_its_metric(monkeypatch: pytest.MonkeyPatch) -> None:
    import pytest_rwe.criteria as criteria

    row = criteria.CriterionSpec("tone", "tone", "Neutral Tone", 1.0, 0.75,
                                 "judge_tone.txt", "the summary states no opinion")
    monkeypatch.setattr(criteria, "_BY_NAME", {**criteria._BY_NAME, "tone": row})
    monkeypatch.setattr(RweJuryMetric, "_for_criterion", dict(RweJuryMetric._for_criterion))
    metric = RweJuryMetric.for_criterion("tone")
    assert metric.criterion == "tone" and metric.display_name == "RWE Neutral Tone"
    assert metric().threshold == 0.75
    assert "states no opinion" in (metric.__doc__ or "")


def test_jury_config_stays_one_release_as_a_warning_factory(tmp_path: Path) -> None:
    with pytest.warns(DeprecationWarning, match="jury_settings"):
        made = JuryConfig(jurors=("builtin/rules",), store=tmp_path, concurrency=3)
    assert made == jury_engine.jury_settings(jurors=("builtin/rules",), store=tmp_path,
                                             concurrency=3)
    with pytest.raises(ValueError, match=r"^concurrency=0 must be 1 or more"), \
            pytest.warns(DeprecationWarning):
        JuryConfig(concurrency=0)
