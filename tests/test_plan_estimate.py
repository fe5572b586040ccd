"""The plan's estimates from planned calls (pure)."""

from __future__ import annotations

import pytest

from pytest_rwe.plan import PlannedCall, build_plan, plan_lines
from pytest_rwe.plan.estimate import DEFAULT_LATENCY_S, DEFAULT_OUTPUT_TOKENS
from pytest_rwe.plan.text import duration
from pytest_rwe.providers.base import GenerationResult, Usage
from pytest_rwe.providers.prices import Price, default_prices

PRICES = default_prices().with_prices({"v/a": Price(1.0, 10.0)}, "test")


def call(kind: str = "summary", model: str = "v/a", stored: GenerationResult | None = None,
         chars: int = 4000, **extra: object) -> PlannedCall:
    return PlannedCall(model, model.split("/")[0], model.split("/")[0], kind,  # type: ignore[arg-type]
                       chars, stored=stored, **extra)  # type: ignore[arg-type]


def test_defaults_without_stored_calls() -> None:
    plan = build_plan([call(), call("judge")], PRICES, concurrency=2)
    total = plan.total
    assert (total.calls, total.stored, total.new) == (2, 0, 2)
    assert total.input_tokens == 2000  # 4 characters per token
    assert total.output_tokens == DEFAULT_OUTPUT_TOKENS["summary"] + DEFAULT_OUTPUT_TOKENS["judge"]
    assert total.usd == pytest.approx((2000 * 1.0 + 550 * 10.0) / 1e6)
    # one endpoint: 15 s of calls over 2 slots, but a judge call waits for its summary
    assert total.wall_s == DEFAULT_LATENCY_S["summary"] + DEFAULT_LATENCY_S["judge"]


def test_stored_calls_teach_the_estimates_and_cost_nothing() -> None:
    stored = GenerationResult("x" * 2000, 3.0, Usage(input_tokens=2000, output_tokens=500))
    plan = build_plan([call(stored=stored), call(), call(), call()], PRICES, concurrency=1)
    assert plan.total.stored == 1 and plan.total.new == 3
    assert plan.total.input_tokens == 3 * 2000  # 2 characters per token, learned
    assert plan.total.output_tokens == 3 * 500
    assert plan.total.wall_s == pytest.approx(9.0)  # 3 new calls of 3 s, one at a time
    assert plan.basis.stored_calls == 1


def test_a_judge_call_on_an_unwritten_summary_adds_a_summary_length() -> None:
    plan = build_plan([call("judge", awaits_summary=True, chars=0)], PRICES, concurrency=1)
    assert plan.total.input_tokens == 400  # 1,600 characters


def test_unknown_price_is_unknown_and_named() -> None:
    plan = build_plan([call(model="v/unpriced"), call()], PRICES, concurrency=4)
    assert plan.total.usd is None and plan.providers["v"].usd is None
    assert plan.models["v"]["v/a"].usd is not None
    assert plan.unpriced == ["v/unpriced"]
    assert any("no price for v/unpriced" in line for line in plan_lines(plan))
    assert plan.to_dict()["total"]["usd"] is None


def test_local_calls_are_counted_but_free() -> None:
    plan = build_plan([call(model="builtin/template", local=True)], PRICES, concurrency=4)
    assert plan.total.new == 1 and plan.total.usd == 0 and plan.total.input_tokens == 0
    assert any("builtin models run in-process" in line for line in plan_lines(plan))


def test_durations() -> None:
    assert [duration(s) for s in (4.4, 65, 7300)] == ["4s", "1m 05s", "2h 01m"]
