"""The criterion table is the one home of every fact about a criterion."""

from __future__ import annotations

import asyncio
import typing
from importlib import resources

import pytest

from pytest_rwe import criteria
from pytest_rwe.criteria import CRITERIA, TABLE, Criterion, CriterionSpec, label
from pytest_rwe.prompts import JUDGE_TEMPLATES
from pytest_rwe.providers.base import ProviderError
from pytest_rwe.providers.builtin import BuiltinProvider
from pytest_rwe.rules import UnknownCriterion, judge
from pytest_rwe.rules.summarizer import summarize
from pytest_rwe.settings import RweSettings
from pytest_rwe.stats.rubric import DEFAULT_WEIGHTS
from pytest_rwe.study import Study, parse_study

TONE = CriterionSpec("tone", "tone", "Tone", 1.0, 0.5, "judge_tone.txt", "a neutral tone")


def test_the_literal_lists_the_table_in_order() -> None:
    assert typing.get_args(Criterion) == CRITERIA == tuple(s.name for s in TABLE)


def test_every_judge_prompt_of_the_table_is_packaged() -> None:
    packaged = resources.files("pytest_rwe") / "prompts"
    for spec in TABLE:
        assert (packaged / spec.prompt).is_file(), spec.prompt
        assert JUDGE_TEMPLATES[spec.criterion] == spec.prompt


def test_consumers_read_the_table() -> None:
    assert DEFAULT_WEIGHTS == {"direction_of_effect": 20.0, "numbers_accurate": 6.0,
                               "completeness": 5.0, "inference_time": 3.0}
    assert RweSettings(models=()).thresholds == dict.fromkeys(CRITERIA, 0.5)
    assert [label(c) for c in CRITERIA] == ["direction", "numbers", "complete"]
    assert label("inference_time") == "time" and label("inference_time", unit=True) == "time (s)"


@pytest.fixture
def study(cohort_raw: dict[str, object]) -> Study:
    return parse_study(cohort_raw)


def test_the_rules_juror_refuses_a_criterion_it_has_no_rule_for(
        monkeypatch: pytest.MonkeyPatch, study: Study) -> None:
    # a criterion added to the table (without a rule) is never judged as another one
    monkeypatch.setitem(criteria._BY_NAME, "tone", TONE)
    with pytest.raises(UnknownCriterion, match=r"no rule for 'tone'.*LLM jurors"):
        judge(study, summarize(study), "tone")


def test_the_builtin_juror_reports_it_as_its_own_error(
        monkeypatch: pytest.MonkeyPatch, study: Study) -> None:
    from pytest_rwe.providers.base import GenerationRequest, GenerationSettings, JudgeTask, Message

    monkeypatch.setitem(criteria._BY_NAME, "tone", TONE)
    task = JudgeTask(study=study, summary=summarize(study), criterion="tone")  # type: ignore[arg-type]
    request = GenerationRequest((Message("user", "judge"),), GenerationSettings(), task=task)
    with pytest.raises(ProviderError, match="no rule for 'tone'") as info:
        asyncio.run(BuiltinProvider("rules").generate(request))
    assert not info.value.retryable
