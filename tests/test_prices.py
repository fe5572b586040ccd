"""Prices, token counts and costs (pure)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_rwe.providers.base import Usage
from pytest_rwe.providers.prices import (
    Price,
    PriceError,
    TokenCounts,
    default_prices,
    load_prices,
)
from pytest_rwe.settings import DEFAULT_JURY


def test_the_shipped_table_is_dated_sourced_and_prices_the_default_jury() -> None:
    table = default_prices()
    assert table.date and "anthropic.com" in table.source
    for juror in DEFAULT_JURY:
        assert table.price(juror) is not None, juror
    assert table.price("openai/gpt-4.1") == Price(2.0, 8.0, 0.5, "shipped table (2026-12-01)")


def test_names_dated_snapshots_builtin_and_other_servers() -> None:
    table = default_prices()
    assert table.price("openai/gpt-4.1-2025-04-14") == table.price("openai/gpt-4.1")
    assert table.price("anthropic/claude-sonnet-4") == table.price(
        "anthropic/claude-sonnet-4-20250514")
    assert table.price("builtin/template") is not None
    assert table.usd("builtin/template", TokenCounts().add(Usage())) == 0.0
    assert table.price("openai/gpt-4.1@http://127.0.0.1:11434/v1") is None  # not OpenAI's bill
    assert table.price("openai/gpt-x") is None
    # bare vendor names, as --rwe-model takes them
    assert table.price("gpt-4.1") == table.price("openai/gpt-4.1")
    assert table.price("gemini-2.5-flash") == table.price("google/gemini-2.5-flash")
    assert table.price("no-such-vendor-model") is None
    assert table.price("openai/gpt-4.1+concise") == table.price("openai/gpt-4.1")  # a variant


def test_cost_of_counts_prices_cached_and_output_tokens() -> None:
    price = Price(input=2.0, output=8.0, cached_input=0.5)
    counts = TokenCounts().add(Usage(1_000_000, 500_000, 400_000, 200_000))
    # 800k fresh prompt tokens at 2.0, 200k cached at 0.5, 500k output (reasoning included) at 8
    assert price.usd(counts) == pytest.approx(1.6 + 0.1 + 4.0)
    assert Price(2.0, 8.0).usd(counts) == pytest.approx(2.0 + 4.0)  # no cached price: input


def test_unknown_tokens_or_price_is_unknown_never_zero() -> None:
    counts = TokenCounts().add(Usage(100, 50)).add(Usage(None, None), replayed=True)
    assert counts.calls == 2 and counts.replayed == 1 and counts.unknown == 1
    assert counts.input_tokens == 100 and counts.reasoning_tokens is None
    assert Price(2.0, 8.0).usd(counts) is None
    assert default_prices().usd("openai/gpt-x", TokenCounts().add(Usage(1, 1))) is None
    assert TokenCounts.from_dict(counts.to_dict()) == counts


def test_sums_keep_unknown_apart() -> None:
    a = TokenCounts().add(Usage(10, 5, None, 2))
    b = TokenCounts().add(Usage(20, 5, 3, None))
    assert (a + b).to_dict() == {"calls": 2, "replayed": 0, "input_tokens": 30,
                                   "output_tokens": 10, "reasoning_tokens": 3,
                                   "cached_tokens": 2, "unknown": 0}


def test_overrides_from_a_file_and_inline_entries(tmp_path: Path) -> None:
    (tmp_path / "prices.json").write_text(json.dumps({
        "date": "2027-01-01", "models": {
            "openai/gpt-4.1": {"input": 1.0, "output": 4.0},
            "openai/llama3.1@http://127.0.0.1:11434/v1": {"input": 0, "output": 0}}}))
    table = load_prices(["prices.json", "google/gemini-x input=0.1 output=0.4 cached_input=0.01"],
                        tmp_path)
    assert table.price("openai/gpt-4.1") == Price(1.0, 4.0, None, f"{tmp_path}/prices.json "
                                                  "(2027-01-01)")
    assert table.price("google/gemini-x") == Price(0.1, 0.4, 0.01, "rwe_prices")
    assert table.price("openai/llama3.1@http://127.0.0.1:11434/v1") is not None
    assert table.price("openai/o4-mini") == default_prices().price("openai/o4-mini")
    assert len(table.overrides) == 2


@pytest.mark.parametrize(("content", "message"), [
    ("{", "line 1 column 2 is not valid JSON"),
    ('{"models": []}', 'a JSON object with a "models" object'),
    ('{"models": {"m/x": {"input": 1}}}', "models.m/x has no 'output' price"),
    ('{"models": {"m/x": {"input": -1, "output": 1}}}', "models.m/x.input is -1"),
    ('{"models": {"m/x": {"input": 1, "output": 1, "cache": 1}}}', "unknown field(s) cache"),
])
def test_a_bad_price_file_names_the_file_and_field(tmp_path: Path, content: str,
                                                     message: str) -> None:
    (tmp_path / "p.json").write_text(content)
    with pytest.raises(PriceError, match=r"p\.json") as info:
        load_prices(["p.json"], tmp_path)
    assert message in str(info.value)


def test_a_missing_file_and_a_bad_inline_entry_say_the_fix(tmp_path: Path) -> None:
    with pytest.raises(PriceError, match="cannot read the price file"):
        load_prices(["nope.json"], tmp_path)
    with pytest.raises(PriceError, match="is not name=price"):
        load_prices(["openai/x input=1 output"], tmp_path)
    with pytest.raises(PriceError, match="output is 'cheap'"):
        load_prices(["openai/x input=1 output=cheap"], tmp_path)
