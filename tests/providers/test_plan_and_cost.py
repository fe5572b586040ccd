"""Tokens, cost and the plan of a run, through the real SDKs against the fake server.

The engine runs (model, study) pairs with vendor models; the plan made beforehand must name
exactly the calls the run then makes (the server counts them), and the usage each
evaluation carries must be the SDKs' token counts, replayed runs included.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from pytest_rwe.caller import RunSharing
from pytest_rwe.engine import Evaluation, build_engine, engine_config
from pytest_rwe.plan import build_plan, plan_lines, resolve_calls
from pytest_rwe.plugin.records import usage_dict
from pytest_rwe.prompts import load_prompts, render_summarize_prompt
from pytest_rwe.providers.prices import default_prices
from pytest_rwe.providers.registry import create_provider
from pytest_rwe.report import ReportSettings
from pytest_rwe.report.report_json import build_report
from pytest_rwe.settings import engine_settings
from pytest_rwe.store import ResponseStore
from pytest_rwe.study import Study, load_study
from pytest_rwe.testing import FakeServer
from pytest_rwe.testing.fake_wire import DEFAULT_SUMMARY, count_tokens
from pytest_rwe.verdict import CRITERIA

ROOT = Path(__file__).resolve().parents[2]
STUDIES = sorted((ROOT / "cases" / "studies").glob("*.json"))[:3]
MODELS = ("openai/gpt-4.1", "builtin/template")
JURY = ("anthropic/claude-sonnet-4-20250514", "google/gemini-2.5-pro")
PROMPTS = load_prompts(None)
FAST = ReportSettings(resamples=50, bt_resamples=20)


@pytest.fixture(scope="module")
def studies() -> list[Study]:
    return [load_study(path) for path in STUDIES]


def pairs(studies: Sequence[Study], models: Sequence[str] = MODELS) -> list[tuple[str, Study,
                                                                                   int]]:
    return [(model, study, 0) for model in models for study in studies]


@pytest.fixture
def store_root(tmp_path: Path) -> Path:
    return tmp_path / "store"


def run(store_root: Path, work: list[tuple[str, Study, int]],
        jury: tuple[str, ...] = JURY) -> list[Evaluation]:
    settings = engine_settings(jury=jury, store=store_root, max_attempts=2, concurrency=4)
    engine = build_engine(settings, sharing=RunSharing(shared=False))
    try:
        return [engine.evaluate(model, study, repeat) for model, study, repeat in work]
    finally:
        engine.close()


def plan(store_root: Path, work: list[tuple[str, Study, int]], jury: tuple[str, ...] = JURY,
         record: str = "new") -> dict[str, object]:
    config = engine_config(engine_settings(jury=jury), prompts=PROMPTS)
    store = ResponseStore(store_root, record, shared=False)  # type: ignore[arg-type]
    calls = resolve_calls(work, config, provider=create_provider, store=store)
    built = build_plan(calls, default_prices(), concurrency=4, record=record)
    assert plan_lines(built)[0].startswith("pytest-rwe plan: no model was called")
    return built.to_dict()


def vendor_new(planned: dict[str, object]) -> int:
    providers = planned["providers"]
    assert isinstance(providers, dict)
    return sum(p["new"] for name, p in providers.items() if name != "builtin")


@pytest.fixture
def fake(server: FakeServer) -> Iterator[FakeServer]:
    """The fake server, with the SDKs pointed at it and fake keys set."""
    yield server


def test_the_plan_names_exactly_the_calls_the_run_makes(fake: FakeServer, store_root: Path,
                                                          studies: list[Study]) -> None:
    first = plan(store_root, pairs(studies[:2]))
    # 2 openai summaries, then 2 jurors x 3 criteria on each of the 4 summaries
    assert vendor_new(first) == 2 + 4 * len(JURY) * len(CRITERIA) == 26
    assert first["total"]["stored"] == 0  # type: ignore[index]
    assert not fake.requests
    run(store_root, pairs(studies[:2]))
    assert len(fake.requests) == 26

    fake.reset()
    # one more study: its calls are new, the rest is stored
    again = plan(store_root, pairs(studies))
    assert again["total"]["stored"] == 26  # type: ignore[index]
    assert vendor_new(again) == 13
    run(store_root, pairs(studies))
    assert len(fake.requests) == 13


def test_a_stored_unreadable_reply_plans_its_repair(fake: FakeServer, store_root: Path,
                                                      studies: list[Study]) -> None:
    fake.add_fault("not_json", provider="google", contains="completeness", times=1)
    work = pairs(studies[:1], ("builtin/template",))
    run(store_root, work)
    assert len(fake.requests) == len(JURY) * len(CRITERIA) + 1  # the repair
    planned = plan(store_root, work)
    # the builtin summary runs in-process; the 7 vendor calls are all stored
    assert planned["total"]["calls"] == 8 and planned["total"]["stored"] == 7  # type: ignore[index]
    google = planned["providers"]["google"]  # type: ignore[index]
    assert google["calls"] == 4 and google["new"] == 0


def test_replay_only_says_the_new_calls_will_fail(fake: FakeServer, store_root: Path,
                                                    studies: list[Study]) -> None:
    config = engine_config(engine_settings(jury=JURY), prompts=PROMPTS)
    calls = resolve_calls(pairs(studies[:1]), config, provider=create_provider,
                          store=ResponseStore(store_root, "none", shared=False))
    text = "\n".join(plan_lines(build_plan(calls, default_prices(), concurrency=4,
                                           record="none")))
    assert "replay-only (--rwe-record none): 13 call(s) are not stored" in text


def test_estimates_learn_from_stored_calls(fake: FakeServer, store_root: Path,
                                           studies: list[Study]) -> None:
    run(store_root, pairs(studies[:1], ("openai/gpt-4.1",)))
    # a second model's calls on the same study: estimated from the stored calls' tokens
    planned = plan(store_root, pairs(studies[:1], ("openai/gpt-4.1", "openai/gpt-4.1-mini")))
    mini = planned["providers"]["openai"]["models"]["openai/gpt-4.1-mini"]  # type: ignore[index]
    prompt = render_summarize_prompt(studies[0], PROMPTS)
    assert mini["new"] == 1
    assert mini["input_tokens"] == pytest.approx(count_tokens(prompt), rel=0.02)
    assert mini["output_tokens"] == count_tokens(DEFAULT_SUMMARY)
    assert mini["usd"] == pytest.approx((count_tokens(prompt) * 0.4
                                         + count_tokens(DEFAULT_SUMMARY) * 1.6) / 1e6, rel=0.02)
    assert planned["total"]["usd"] is not None  # type: ignore[index]


def test_tokens_and_cost_of_summary_and_judge_calls(fake: FakeServer, store_root: Path,
                                                    studies: list[Study]) -> None:
    fake.reasoning_tokens = 30
    study = studies[0]
    (evaluation,) = run(store_root, [("openai/gpt-4.1", study, 0)])
    usage = usage_dict(evaluation.calls)
    prompt = render_summarize_prompt(study, PROMPTS)
    summary = usage["summary"]
    assert summary["input_tokens"] == count_tokens(prompt)
    assert summary["output_tokens"] == count_tokens(DEFAULT_SUMMARY) + 30
    assert summary["reasoning_tokens"] == 30 and summary["cached_tokens"] is None
    # each juror answered 3 judge calls; the server's token counts, as the SDKs read them
    for juror in JURY:
        counts = usage["jurors"][juror]
        assert counts["calls"] == 3 and counts["replayed"] == 0
        assert counts["reasoning_tokens"] == 90
        assert counts["input_tokens"] > 3 * count_tokens(prompt)  # the judge prompt embeds it
    assert {r.provider for r in fake.requests} == {"openai", "anthropic", "google"}

    record = {"model": "openai/gpt-4.1", "study": study.id, "repeat": 0, "error": None,
              "summary": evaluation.summary.to_dict() | {"replayed": False},  # type: ignore[union-attr]
              "verdict": evaluation.verdict.to_dict(), "badge": "green",  # type: ignore[union-attr]
              "thresholds": {}, "usage": usage}
    report = build_report([record], FAST, jury=JURY, models=("openai/gpt-4.1",))
    model = report["models"]["openai/gpt-4.1"]
    expected = (summary["input_tokens"] * 2.0 + summary["output_tokens"] * 8.0) / 1e6
    assert model["usage"]["summary"]["usd"] == pytest.approx(expected)
    assert model["usage"]["judge"]["calls"] == 6 and model["usage"]["judge"]["usd"] > 0
    assert report["cost"]["total"]["usd"] == pytest.approx(model["usd"])

    # replayed: no request, the same tokens
    fake.reset()
    (replayed,) = run(store_root, [("openai/gpt-4.1", study, 0)])
    assert not fake.requests
    again = usage_dict(replayed.calls)
    assert again["summary"]["replayed"] == 1
    assert {k: v for k, v in again["summary"].items() if k != "replayed"} == {
        k: v for k, v in summary.items() if k != "replayed"}


def test_repeats_are_planned_as_the_run_makes_them(fake: FakeServer, store_root: Path,
                                                   studies: list[Study]) -> None:
    # every repeat is its own summary (the same text twice would share its judge calls)
    samples = itertools.count()
    fake.responder = lambda provider, model, prompt: (
        None if "<<<SUMMARY" in prompt else f"A summary, sample {next(samples)}.")
    work = [("openai/gpt-4.1", studies[0], repeat) for repeat in range(2)]
    planned = plan(store_root, work)
    run(store_root, work)
    assert vendor_new(planned) == len(fake.requests) == 2 * (1 + len(JURY) * len(CRITERIA))
    again = plan(store_root, work)
    assert vendor_new(again) == 0 and again["total"]["stored"] == 14  # type: ignore[index]
