"""Plausibility warnings: legal study files whose numbers cannot all be right."""

from __future__ import annotations

import copy

import pytest

from pytest_rwe.study import parse_study
from pytest_rwe.study.checks import check_study


def _warnings(cohort_raw: dict[str, object], outcomes: dict[str, str],
              **results: object) -> list[str]:
    raw = copy.deepcopy(cohort_raw)
    raw["results"]["outcomes"] = outcomes  # type: ignore[index]
    raw["results"].update(results)  # type: ignore[attr-defined]
    return [f"{w.where}: {w.message}" for w in check_study(parse_study(raw))]


def test_a_consistent_study_has_no_warning(cohort_raw: dict[str, object]) -> None:
    assert check_study(parse_study(cohort_raw)) == []


def test_an_estimate_outside_its_interval(cohort_raw: dict[str, object]) -> None:
    (warning,) = _warnings(cohort_raw, {"outcome.death_bin!HR": "1.50 (0.70, 0.95)"})
    assert warning.startswith('$.results.outcomes["outcome.death_bin!HR"]')
    assert "outside its own interval" in warning


@pytest.mark.parametrize(("estimate", "p", "said"), [
    ("0.80 (0.70, 0.95)", "0.20", "excludes 1 but the p-value '0.20' says p >= 0.05"),
    ("0.80 (0.60, 1.10)", "0.01", "includes 1 but the p-value '0.01' says p < 0.05"),
    ("0.80 (0.70, 0.95)", "0.05", "excludes 1"),  # p = 0.05 is not below 0.05
])
def test_an_interval_that_disagrees_with_its_p_value(
        cohort_raw: dict[str, object], estimate: str, p: str, said: str) -> None:
    (warning,) = _warnings(cohort_raw, {"outcome.death_bin!HR": estimate,
                                        "outcome.death_bin!pvalue": p})
    assert said in warning


def test_agreeing_intervals_and_p_values(cohort_raw: dict[str, object]) -> None:
    assert _warnings(cohort_raw, {
        "outcome.death_bin!HR": "0.80 (0.70, 0.95)", "outcome.death_bin!pvalue": "0.002",
        "outcome.los_cont!MD": "-0.4 (-0.9, 0.1)", "outcome.los_cont!pvalue": "0.11",
        "outcome.bleed_bin!OR": "1.2 (1.00, 1.44)", "outcome.bleed_bin!pvalue": "0.049",
    }) == []  # a bound printed as the null itself is left to rounding


def test_a_difference_is_checked_against_zero(cohort_raw: dict[str, object]) -> None:
    (warning,) = _warnings(cohort_raw, {"outcome.los_cont!MD": "-0.4 (-0.9, -0.1)",
                                        "outcome.los_cont!pvalue": "0.3"})
    assert "excludes 0" in warning


def test_implausible_sizes_counts_percents_and_p_values(cohort_raw: dict[str, object]) -> None:
    warnings = _warnings(cohort_raw, {
        "outcome.death_bin!HR": "0.8", "outcome.death_bin!pvalue": "0",
    }, intervention_size=0, control_size=2_000_000_000)
    assert any("intervention_size: a group of 0" in w for w in warnings)
    assert any("control_size: 2,000,000,000 subjects is implausible" in w for w in warnings)
    assert any("exactly 0 is not possible" in w for w in warnings)
    series = copy.deepcopy(cohort_raw)
    series.update(design="case_series")
    series["results"].update(control_size=None, intervention_size=13, outcomes={  # type: ignore[attr-defined]
        "outcome.remission_bin!N": "14/20", "outcome.remission_bin!PCT": "130"})
    messages = [w.message for w in check_study(parse_study(series))]
    assert any("counts 20 subjects but the study has 13" in m for m in messages)
    assert any("outside 0-100" in m for m in messages)
