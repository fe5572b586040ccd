"""Parsing of every value form a pipeline writes."""

from __future__ import annotations

import pytest

from pytest_rwe.values import (
    decimals_of,
    parse_baseline,
    parse_count,
    parse_estimate,
    parse_percent,
    parse_pvalue,
    parse_size,
)


@pytest.mark.parametrize(
    ("raw", "value", "low", "high"),
    [
        ("0.866 (0.665, 1.13)", 0.866, 0.665, 1.13),
        ("1.70 (-1.69, 5.10)", 1.70, -1.69, 5.10),
        ("-0.30 (-0.50, -0.10)", -0.30, -0.50, -0.10),
        ("0.87 (0.67; 1.13)", 0.87, 0.67, 1.13),
        ("0.87 (0.67 to 1.13)", 0.87, 0.67, 1.13),
        ("\u22120.4 (\u22120.6, \u22120.2)", -0.4, -0.6, -0.2),
        ("0.80 [0.70-0.95]", 0.80, 0.70, 0.95),
        ("0.80 (0.70-0.95)", 0.80, 0.70, 0.95),
        ("0.80 [0.70, 0.95]", 0.80, 0.70, 0.95),
        ("0.80 (0.70\u20130.95)", 0.80, 0.70, 0.95),
        ("-0.5 (-1.2--0.1)", -0.5, -1.2, -0.1),
        ("-0.5 (-1.2 to -0.1)", -0.5, -1.2, -0.1),
        ("-0.4", -0.4, None, None),
        ("2", 2.0, None, None),
        (1.5, 1.5, None, None),
    ],
)
def test_estimates(raw: object, value: float, low: float | None, high: float | None) -> None:
    estimate = parse_estimate(raw)
    assert (estimate.value, estimate.ci_low, estimate.ci_high) == (value, low, high)
    assert estimate.has_interval is (low is not None)


@pytest.mark.parametrize("raw", ["", "abc", "0.8 (0.7,", "0.8 (0.9, 0.7)", None, True, [1],
                                 "0.8 (0.7, 0.9]", "0.8 [0.7-0.9)", "0.8 (0.7 0.9)"])
def test_bad_estimates_say_the_expected_form(raw: object) -> None:
    with pytest.raises(ValueError, match=r"est|interval|expected|lower bound"):
        parse_estimate(raw)


@pytest.mark.parametrize(
    ("raw", "value", "operator", "significant", "at_most_level"),
    [
        ("0.058", 0.058, "=", False, False),
        ("<0.001", 0.001, "<", True, True),
        ("<0.05", 0.05, "<", True, True),  # a bound at the level: below it, so significant
        ("< 0.0001", 0.0001, "<", True, True),
        ("1", 1.0, "=", False, False),
        ("0.05", 0.05, "=", False, True),  # p = 0.05: not significant, but must be mentioned
        ("0.049", 0.049, "=", True, True),
        (">0.05", 0.05, ">", False, False),
        (0.003, 0.003, "=", True, True),
        ("p=0.04", 0.04, "=", True, True),
    ],
)
def test_pvalues(raw: object, value: float, operator: str, significant: bool,
                 at_most_level: bool) -> None:
    p = parse_pvalue(raw)
    assert (p.value, p.operator, p.significant, p.at_most_level) == (
        value, operator, significant, at_most_level)


@pytest.mark.parametrize("raw", ["1.2", "-0.1", "n.s.", None, "<"])
def test_bad_pvalues(raw: object) -> None:
    with pytest.raises(ValueError, match="p-value"):
        parse_pvalue(raw)


def test_estimates_are_normalized_and_keep_what_was_written() -> None:
    estimate = parse_estimate("0.80 [0.70-0.95]")
    assert (estimate.text, estimate.written) == ("0.80 (0.70, 0.95)", "0.80 [0.70-0.95]")
    assert parse_estimate("-0.5 (-1.2--0.1)").text == "-0.5 (-1.2, -0.1)"
    assert parse_estimate("0.87").text == "0.87"
    assert parse_percent("30.8%").text == "30.8"
    with_interval = parse_percent("30.8% (20.1%, 41.5%)")
    assert (with_interval.value, with_interval.ci_low, with_interval.ci_high) == (30.8, 20.1, 41.5)
    assert with_interval.text == "30.8 (20.1, 41.5)"


@pytest.mark.parametrize("raw", ["NA", "n/a", "N/A", "", " ", "NR", "not reported"])
def test_unknown_sizes_are_none(raw: str) -> None:
    assert parse_size(raw) is None


def test_sizes() -> None:
    assert parse_size("1523") == 1523
    assert parse_size(1498) == 1498
    assert parse_size("36,918") == 36918
    assert parse_size(None) is None
    assert parse_size(12.0) == 12
    for bad in ("12a", "1.5", -3, True, "1,23", "12,3456", ",123"):
        with pytest.raises(ValueError, match=r"size|negative|subjects"):
            parse_size(bad)


def test_counts_and_percents() -> None:
    count = parse_count("4/13")
    assert (count.events, count.total) == (4, 13)
    assert round(count.percent, 1) == 30.8
    with pytest.raises(ValueError, match="more events"):
        parse_count("14/13")
    with pytest.raises(ValueError, match="k/n"):
        parse_count("4 of 13")
    assert parse_percent("30.8%").value == 30.8
    assert parse_percent("30.8 (20.1, 41.5)").ci_high == 41.5
    with_signs = parse_percent("30.8% (20.1%, 41.5%)")
    assert (with_signs.value, with_signs.ci_low, with_signs.ci_high) == (30.8, 20.1, 41.5)


def test_baseline_either_order() -> None:
    a = parse_baseline("control 47.3579 vs intervention 71.2047")
    b = parse_baseline("intervention 71.2047 vs control 47.3579")
    assert (a.control, a.intervention) == (b.control, b.intervention) == (47.3579, 71.2047)
    assert a.intervention_text == "71.2047"
    with pytest.raises(ValueError, match=r"control 47\.36 vs intervention"):
        parse_baseline("47 vs 71")
    with pytest.raises(ValueError):
        parse_baseline("control 1 vs control 2")


def test_decimals() -> None:
    assert [decimals_of(t) for t in ("0.50", "12", "1.2e3", "-0.004")] == [2, 0, 1, 3]
