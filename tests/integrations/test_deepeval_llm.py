"""pytest-rwe models as a deepeval judge model (skipped when deepeval is absent)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

deepeval = pytest.importorskip("deepeval")

from deepeval.evaluate.configs import DisplayConfig  # noqa: E402
from deepeval.metrics import GEval  # noqa: E402
from deepeval.test_case import LLMTestCase, SingleTurnParams  # noqa: E402
from pydantic import BaseModel  # noqa: E402

from conftest import KEYS  # noqa: E402
from pytest_rwe.integrations.deepeval import RweDeepEvalLLM  # noqa: E402
from pytest_rwe.integrations.deepeval_llm import (  # noqa: E402
    StructuredReplyError,
    parse_structured,
)
from pytest_rwe.providers.base import ProviderConfigError  # noqa: E402
from pytest_rwe.testing import FakeServer  # noqa: E402


class Verdict(BaseModel):
    score: int
    reason: str


def replies(*texts: str) -> object:
    """A responder answering the given texts in turn (then the last one forever)."""
    queue = list(texts)

    def respond(provider: str, model: str, prompt: str) -> str:
        return queue.pop(0) if len(queue) > 1 else queue[0]
    return respond


@pytest.mark.parametrize("text", [
    '{"score": 1, "reason": "fine"}',
    '```json\n{"score": 1, "reason": "fine"}\n```',
    'Here you go: {"score": 1, "reason": "fine"} Hope it helps.',
])
def test_parse_structured_reads_packaged_json(text: str) -> None:
    assert parse_structured(text, Verdict) == Verdict(score=1, reason="fine")


@pytest.mark.parametrize(("text", "problem"), [
    ("no json here", "no JSON object"),
    ('{"score": "high", "reason": "x"}', "score"),
    ('{"reason": "x"}', "score: Field required"),
])
def test_parse_structured_says_what_is_wrong(text: str, problem: str) -> None:
    with pytest.raises(StructuredReplyError, match=problem):
        parse_structured(text, Verdict)


def test_builtin_models_are_refused_with_a_fix() -> None:
    with pytest.raises(ProviderConfigError, match="vendor model"):
        RweDeepEvalLLM("builtin/rules")


def test_text_generation_is_recorded_and_replayed(server: FakeServer, tmp_path: Path) -> None:
    server.responder = replies("Plain answer.")
    llm = RweDeepEvalLLM("openai/gpt-4.1", store=tmp_path)
    assert llm.get_model_name() == "openai/gpt-4.1 (pytest-rwe)"
    assert llm.generate("Say something.") == "Plain answer."
    # a free-form call (a prompt of deepeval's): filed under the model, named by its key
    (stored,) = (tmp_path / "openai__gpt-4.1" / "deepeval" / "free").glob("judge-text-*.json")
    assert "Plain answer." in stored.read_text()
    assert not any(v in stored.read_text() for v in KEYS.values())
    # a replay-only adapter answers from the store without calling the server
    replay = RweDeepEvalLLM("openai/gpt-4.1", store=tmp_path, record="none")
    assert asyncio.run(replay.a_generate("Say something.")) == "Plain answer."
    assert len(server.requests) == 1


def test_schema_reply_is_parsed(server: FakeServer, tmp_path: Path) -> None:
    server.responder = replies('{"score": 7, "reason": "good"}')
    llm = RweDeepEvalLLM("anthropic/claude-sonnet-4-20250514", store=tmp_path)
    assert llm.generate("Judge.", schema=Verdict) == Verdict(score=7, reason="good")
    assert asyncio.run(llm.a_generate("Judge.", schema=Verdict)) == Verdict(score=7,
                                                                              reason="good")
    assert len(server.requests) == 1  # the second was replayed from the store


def test_a_bad_schema_reply_gets_one_repair(server: FakeServer, tmp_path: Path) -> None:
    server.responder = replies("Seven, I think.", '{"score": 7, "reason": "repaired"}')
    llm = RweDeepEvalLLM("google/gemini-2.5-flash", store=tmp_path)
    assert llm.generate("Judge.", schema=Verdict) == Verdict(score=7, reason="repaired")
    _first, repair = server.requests
    assert repair.body is not None
    assert "Seven, I think." in json.dumps(repair.body)  # the model sees its own reply
    assert "JSON schema" in json.dumps(repair.body)
    folder = tmp_path / "google__gemini-2.5-flash" / "deepeval" / "free"
    assert len(list(folder.glob("repair-Verdict-*.json"))) == 1


def test_a_reply_unreadable_after_the_repair_is_an_error(server: FakeServer,
                                                         tmp_path: Path) -> None:
    server.responder = replies("Seven.", "Still seven.")
    llm = RweDeepEvalLLM("openai/gpt-4.1", store=tmp_path)
    with pytest.raises(StructuredReplyError, match="after one repair attempt"):
        asyncio.run(llm.a_generate("Judge.", schema=Verdict))
    assert len(server.requests) == 2


def test_geval_runs_on_a_pytest_rwe_model(server: FakeServer, tmp_path: Path) -> None:
    server.responder = replies('{"reason": "Accurate.", "score": 8}')
    metric = GEval(
        name="Faithful", model=RweDeepEvalLLM("openai/gpt-4.1", store=tmp_path),
        evaluation_steps=["Check every number in the output against the input."],
        evaluation_params=[SingleTurnParams.INPUT, SingleTurnParams.ACTUAL_OUTPUT],
    )
    case = LLMTestCase(input="HR 1.15 (1.03, 1.30)", actual_output="HR 1.15")
    result = deepeval.evaluate([case], [metric],
                               display_config=DisplayConfig(print_results=False,
                                                            show_indicator=False))
    (data,) = result.test_results[0].metrics_data
    assert data.error is None
    assert data.score == pytest.approx(0.8)
    assert data.reason == "Accurate."
    assert len(server.requests) == 1
