"""BuiltinProvider: the offline template summarizer and rules juror behind the provider API."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from pytest_rwe.providers.base import (
    GenerationRequest,
    JudgeTask,
    Message,
    ProviderConfigError,
    ProviderError,
    SummarizeTask,
)
from pytest_rwe.providers.builtin import BuiltinProvider
from pytest_rwe.providers.registry import create_provider, missing_key
from pytest_rwe.replies import parse_judge_reply
from pytest_rwe.rules.summarizer import summarize
from pytest_rwe.study import Study, load_study
from pytest_rwe.verdict import CRITERIA

STUDY = (Path(__file__).resolve().parent.parent / "cases" / "studies"
         / "trinetx_cud_pancreatic_cancer_chronic_pancreatitis.json")


@pytest.fixture(scope="module")
def study() -> Study:
    return load_study(STUDY)


def _request(task: SummarizeTask | JudgeTask | None) -> GenerationRequest:
    return GenerationRequest(messages=(Message("user", "prompt text"),), task=task)


def test_registry_creates_builtin_models_without_a_key() -> None:
    for name in ("builtin/template", "builtin/rules"):
        provider = create_provider(name)
        assert isinstance(provider, BuiltinProvider)
        assert provider.full_name == name
        assert missing_key(name, {}) is None
    assert BuiltinProvider.key_variables == ()


def test_template_answers_a_summarize_task(study: Study) -> None:
    provider = BuiltinProvider("template")
    result = asyncio.run(provider.generate(_request(SummarizeTask(study))))
    assert result.text == summarize(study)
    assert result.latency_s >= 0.0
    assert result.usage.input_tokens is None and result.usage.output_tokens is None


@pytest.mark.parametrize("criterion", CRITERIA)
def test_rules_replies_like_an_llm_juror(study: Study, criterion: str) -> None:
    provider = BuiltinProvider("rules")
    good = summarize(study)
    result = asyncio.run(provider.generate(_request(JudgeTask(study, good, criterion))))  # type: ignore[arg-type]
    assert list(json.loads(result.text)) == [criterion]
    reply = parse_judge_reply(result.text, criterion)  # type: ignore[arg-type]
    assert reply.score == 1 and reply.explanation


def test_rules_scores_a_broken_summary_zero(study: Study) -> None:
    provider = BuiltinProvider("rules")
    broken = summarize(study).replace("HR 0.263", "HR 0.52")
    task = JudgeTask(study, broken, "numbers_accurate")
    result = asyncio.run(provider.generate(_request(task)))
    reply = parse_judge_reply(result.text, "numbers_accurate")
    assert reply.score == 0 and "0.52" in reply.explanation


def test_unknown_builtin_model_lists_the_valid_ones() -> None:
    with pytest.raises(ProviderConfigError, match=r"builtin/template, builtin/rules"):
        create_provider("builtin/gpt")


@pytest.mark.parametrize(("model", "task_kind"), [("rules", "summarize"), ("template", "judge"),
                                                  ("template", None)])
def test_a_task_the_model_cannot_do_is_a_provider_error(
        study: Study, model: str, task_kind: str | None) -> None:
    task: SummarizeTask | JudgeTask | None = {
        "summarize": SummarizeTask(study),
        "judge": JudgeTask(study, "text", "completeness"),
        None: None,
    }[task_kind]
    with pytest.raises(ProviderError, match=f"builtin/{model}: can only"):
        asyncio.run(BuiltinProvider(model).generate(_request(task)))
