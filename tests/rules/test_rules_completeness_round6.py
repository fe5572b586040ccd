"""completeness: readings added in issue 14's round 6 (each test fails when its reading
breaks). The study and sentences are invented for these tests, not copied from a labeled
set."""

from __future__ import annotations

from typing import Any

from pytest_rwe.rules import judge
from pytest_rwe.study import Study, parse_study


def _graded() -> Study:
    """Odds of asthma with obesity and by the number of risk factors, each significant."""
    outcomes = {"outcome.asthma.obesity_bin!OR": "4.1 (3.0, 5.6)",
                "outcome.asthma.obesity_bin!pvalue": "<0.001"}
    for count, estimate in (("two", "3.2 (2.4, 4.1)"), ("three", "7.4 (5.5, 9.9)"),
                            ("four", "14.8 (9.6, 22.7)")):
        outcomes[f"outcome.asthma.{count}_risk_factors_bin!OR"] = estimate
        outcomes[f"outcome.asthma.{count}_risk_factors_bin!pvalue"] = "<0.001"
    raw: dict[str, Any] = {
        "id": "graded", "design": "cross_sectional", "question": "Risk factors and asthma?",
        "picot": {"population": "Adults", "intervention": "Risk factors", "control": "None",
                  "outcome": "asthma", "timeframe": "one survey"},
        "results": {"intervention_size": None, "control_size": None, "baseline_differences": {},
                    "outcomes": outcomes}}
    return parse_study(raw)


def test_values_listed_after_one_label_each_report_their_outcome() -> None:
    text = ("Obesity was associated with markedly higher odds of asthma (adjusted OR 4.1, "
            "p < 0.001). The odds rose with the number of risk factors: OR 3.2 for two, 7.4 "
            "for three and 14.8 for four (all p < 0.001).")
    assert judge(_graded(), text, "completeness").score == 1
    # a value that is no outcome's estimate reports nothing
    assert judge(_graded(), text.replace("14.8", "12.1"), "completeness").score == 0


def _neonatal() -> Study:
    outcomes = {"outcome.preterm_birth_bin!OR": "0.97 (0.70, 1.35)",
                "outcome.preterm_birth_bin!pvalue": "0.86",
                "outcome.neonatal_jaundice_bin!OR": "2.10 (1.50, 2.90)",
                "outcome.neonatal_jaundice_bin!pvalue": "<0.001",
                "outcome.birth_weight_over_4kg_bin!OR": "0.88 (0.60, 1.30)",
                "outcome.birth_weight_over_4kg_bin!pvalue": "0.52",
                "outcome.neonatal_unit_admission_bin!OR": "0.91 (0.62, 1.33)",
                "outcome.neonatal_unit_admission_bin!pvalue": "0.61"}
    raw: dict[str, Any] = {
        "id": "neonatal", "design": "cohort", "question": "Criteria A vs B and newborns?",
        "picot": {"population": "Pregnancies", "intervention": "Criteria A",
                  "control": "Criteria B", "outcome": "neonatal outcomes",
                  "timeframe": "birth"},
        "results": {"intervention_size": 400, "control_size": 900, "baseline_differences": {},
                    "outcomes": outcomes}}
    return parse_study(raw)


def test_a_blanket_denial_covering_an_unnamed_significant_outcome_is_no_difference() -> None:
    text = ("Criteria A vs B: preterm birth OR 0.97 (p = 0.86), birth weight over 4 kg OR 0.88 "
            "(p = 0.52), neonatal unit admission OR 0.91 (p = 0.61). No neonatal outcome "
            "differed significantly between the criteria.")
    assert judge(_neonatal(), text, "completeness").score == 0
    # naming the significant outcome's difference is complete
    named = text.replace("No neonatal outcome differed significantly between the criteria.",
                         "Neonatal jaundice was more frequent with criteria A (OR 2.10, "
                         "p < 0.001).")
    assert judge(_neonatal(), named, "completeness").score == 1


def _two_outcomes() -> Study:
    outcomes = {"outcome.any_anxiety_disorder_bin!HR": "3.90 (3.10, 4.80)",
                "outcome.any_anxiety_disorder_bin!pvalue": "<0.001",
                "outcome.sleep_disorder_bin!HR": "1.10 (0.90, 1.30)",
                "outcome.sleep_disorder_bin!pvalue": "0.33"}
    raw: dict[str, Any] = {
        "id": "anxiety", "design": "cohort", "question": "Condition A and anxiety?",
        "picot": {"population": "Adults", "intervention": "Condition A",
                  "control": "Matched controls", "outcome": "anxiety", "timeframe": "10 years"},
        "results": {"intervention_size": 900, "control_size": 2700,
                    "baseline_differences": {}, "outcomes": outcomes}}
    return parse_study(raw)


def test_a_denial_beside_the_one_name_of_its_clause_is_about_it() -> None:
    text = ("In 900 people with condition A and 2,700 matched controls, the adjusted hazard "
            "ratio for any anxiety disorder was 3.90 (95% CI 3.10-4.80), a difference the "
            "model did not find to be statistically significant.")
    assert judge(_two_outcomes(), text, "completeness").score == 0
    # the same estimate reported as a difference is complete
    reported = text.replace("a difference the model did not find to be statistically "
                            "significant", "a significantly higher risk (p < 0.001)")
    assert judge(_two_outcomes(), reported, "completeness").score == 1
