"""Tokens and cost in the report: per model (summaries, judging), per juror, total, rubric."""

from __future__ import annotations

from typing import Any

import pytest
from report_records import FAST, JURY, record

from pytest_rwe.providers.base import Usage
from pytest_rwe.providers.prices import Price, TokenCounts, default_prices
from pytest_rwe.report import ReportSettings
from pytest_rwe.report.cost_text import cost_rows
from pytest_rwe.report.markdown import render_markdown
from pytest_rwe.report.report_json import build_report
from pytest_rwe.report.terminal import plain, render_summary

PRICES = default_prices().with_prices({
    "m/cheap": Price(1.0, 2.0), "m/dear": Price(10.0, 20.0),
    "judge/a": Price(1.0, 1.0), "judge/b": Price(0.0, 1.0, 0.0), "judge/c": Price(2.0, 0.0),
}, "test prices")


def counts(*usages: Usage, stored: bool = False) -> dict[str, Any]:
    total = TokenCounts()
    for usage in usages:
        total = total.add(usage, replayed=stored)
    return total.to_dict()


def priced(model: str, study: str, summary: Usage, judge: Usage,
           stored: bool = False) -> dict[str, Any]:
    r = record(model, study)
    r["usage"] = {"summary": counts(summary, stored=stored),
                  "jurors": {j: counts(judge, judge, judge, stored=stored) for j in JURY}}
    return r


def report(records: list[dict[str, Any]], **settings: Any) -> dict[str, Any]:
    return build_report(records, ReportSettings(**{**FAST.__dict__, "prices": PRICES,
                                                   **settings}),
                        jury=JURY, models=("m/cheap", "m/dear"))


def run() -> list[dict[str, Any]]:
    return [priced(model, f"s{i}", Usage(1000, 500, 100, None), Usage(2000, 10))
            for model in ("m/cheap", "m/dear") for i in range(3)]


def test_models_hold_summary_and_judge_tokens_and_usd() -> None:
    data = report(run())
    cheap = data["models"]["m/cheap"]
    summary, judge = cheap["usage"]["summary"], cheap["usage"]["judge"]
    assert (summary["calls"], summary["input_tokens"], summary["output_tokens"],
            summary["reasoning_tokens"], summary["cached_tokens"]) == (3, 3000, 1500, 300, None)
    assert summary["usd"] == pytest.approx(3 * (1000 * 1.0 + 500 * 2.0) / 1e6)
    # 3 studies x 3 jurors x 3 criteria
    assert (judge["calls"], judge["input_tokens"], judge["output_tokens"]) == (27, 54000, 270)
    per_study_judging = 3 * ((2000 + 10) + 10 + 2 * 2000) / 1e6
    assert judge["usd"] == pytest.approx(3 * per_study_judging)
    assert cheap["usd"] == pytest.approx(summary["usd"] + judge["usd"])
    assert cheap["cost"]["mean"] == pytest.approx((1000 + 1000) / 1e6)  # per summary
    juror_a = data["cost"]["jurors"]["judge/a"]
    assert juror_a["calls"] == 18 and juror_a["usd"] == pytest.approx(18 * 2010 / 1e6)
    total = data["cost"]["total"]
    assert total["calls"] == 6 + 54
    assert total["usd"] == pytest.approx(cheap["usd"] + data["models"]["m/dear"]["usd"])


def test_stored_calls_count_with_their_recorded_tokens() -> None:
    stored = [priced(r["model"], r["study"], Usage(1000, 500), Usage(2000, 10), stored=True)
              for r in run()]
    data = report(stored)
    assert data["cost"]["total"]["replayed"] == data["cost"]["total"]["calls"] == 60
    assert data["cost"]["total"]["usd"] == report(run())["cost"]["total"]["usd"]


def test_unknown_price_or_tokens_is_unknown_never_zero() -> None:
    records = run()
    records[0]["usage"]["summary"] = counts(Usage(None, None))  # an entry stored without tokens
    records.append(priced("m/unpriced", "s0", Usage(10, 10), Usage(10, 10)))
    data = report(records)
    assert data["models"]["m/cheap"]["usage"]["summary"]["usd"] is None
    assert data["models"]["m/cheap"]["usage"]["summary"]["unknown"] == 1
    assert data["models"]["m/cheap"]["usd"] is None
    assert data["models"]["m/dear"]["usd"] is not None
    assert data["models"]["m/unpriced"]["usd"] is None
    assert data["cost"]["total"]["usd"] is None
    assert data["cost"]["prices"]["models"]["m/unpriced"] is None
    text = "\n".join(plain(render_summary(data)))
    assert "unknown" in text and "No price for m/unpriced" in text
    assert "$0.0000" not in text


def test_a_record_from_before_usage_was_recorded_is_unknown() -> None:
    old = record("m/cheap", "s0")  # no "usage" field
    data = report([old])
    usage = data["models"]["m/cheap"]["usage"]
    assert usage["summary"]["usd"] is None and usage["judge"]["usd"] is None


def test_cost_weight_ranks_the_cheaper_model_first() -> None:
    quality_only = report(run())
    assert quality_only["weights"].get("cost") is None  # off by default
    assert quality_only["rubric"]["undefined"]  # same quality: nothing separates them
    with_cost = report(run(), weights={**FAST.weights, "cost": 5.0})
    assert with_cost["rubric"]["ranking"] == ["m/cheap", "m/dear"]
    assert with_cost["models"]["m/cheap"]["normalized"]["cost"] == 1.0


def test_terminal_and_markdown_show_the_table() -> None:
    data = report(run())
    rows = cost_rows(data)
    assert rows[0] == ["", "calls", "replayed", "input", "output", "reasoning", "cached", "USD"]
    labels = [row[0] for row in rows[1:]]
    assert labels == ["m/cheap summaries", "m/cheap judged", "m/dear summaries",
                      "m/dear judged", "juror judge/a", "juror judge/b", "juror judge/c", "total"]
    assert rows[1][1:] == ["3", "0", "3,000", "1,500", "300", "-", "$0.0060"]
    text = "\n".join(plain(render_summary(data)))
    assert "tokens and cost:" in text and "m/dear judged" in text
    assert "### Tokens and cost" in render_markdown(data)
