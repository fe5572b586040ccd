"""builtin/rules on prose it was not tuned to: one test per general rule, each failing when
the rule breaks (the second round of issue 14: outcome names that share words, outcomes
only named, subgroups, abbreviations, value-anchored mentions, compositions of change words,
group names, numbers tied to their outcome)."""

from __future__ import annotations

from typing import Any

from pytest_rwe.rules import judge
from pytest_rwe.rules.claims import analyze
from pytest_rwe.study import Study, parse_study
from pytest_rwe.summarizer import summarize


def study_of(outcomes: dict[str, str], *, intervention: str = "Drug A",
             control: str = "placebo", design: str = "cohort",
             sizes: tuple[int | None, int | None] = (120, 118),
             baseline: dict[str, str] | None = None) -> Study:
    raw: dict[str, Any] = {
        "id": "reading", "design": design, "question": "Does drug A change the outcomes?",
        "picot": {"population": "Adults", "intervention": intervention, "control": control,
                  "outcome": "Several outcomes", "timeframe": "24 months"},
        "results": {"intervention_size": sizes[0],
                    "control_size": sizes[1] if design != "case_series" else None,
                    "baseline_differences": baseline or {}, "outcomes": outcomes}}
    return parse_study(raw)


def score(study: Study, text: str, criterion: str) -> int:
    return judge(study, text, criterion).score


# ---------------------------------------------------------------- names that share words

PAIN = {"outcome_1mo.back_pain_vas_cont!MD": "-1.31", "outcome_1mo.back_pain_vas_cont!pvalue": "0.002",
        "outcome_3mo.back_pain_vas_cont!MD": "-0.63", "outcome_3mo.back_pain_vas_cont!pvalue": "0.57",
        "outcome_1mo.leg_pain_vas_cont!MD": "-1.34", "outcome_1mo.leg_pain_vas_cont!pvalue": "0.01",
        "outcome_3mo.leg_pain_vas_cont!MD": "-1.32", "outcome_3mo.leg_pain_vas_cont!pvalue": "0.02"}


def test_two_names_sharing_timepoints_each_keep_their_own() -> None:
    """"back pain vas" and "leg pain vas" at the same timepoints: each name takes the
    timepoint written beside it, not every timepoint of the sentence."""
    study = study_of(PAIN, intervention="Surgery", control="Nonsurgical management")
    text = summarize(study)
    assert "leg pain vas at 3 months" in text
    assert {c: score(study, text, c) for c in ("direction_of_effect", "completeness")} == {
        "direction_of_effect": 1, "completeness": 1}
    by_key = {c.outcome.key: c for c in analyze(study, text).claims if c.outcome is not None
              and c.direction == "lower"}
    assert set(by_key) == {"outcome_1mo.back_pain_vas_cont", "outcome_1mo.leg_pain_vas_cont",
                           "outcome_3mo.leg_pain_vas_cont"}
    wrong = ("Surgery was associated with a significant decrease in leg pain vas at 1 month "
             "(p = 0.01) and a significant decrease in back pain vas at 3 months (p = 0.57).")
    assert score(study, wrong, "direction_of_effect") == 0


def test_a_timepoint_before_the_name_places_it() -> None:
    study = study_of(PAIN, intervention="Surgery", control="Nonsurgical management")
    text = ("At 3 months, leg pain was significantly lower with surgery (p = 0.02); back pain "
            "at 3 months did not differ.")
    claims = {c.outcome.key: c.direction for c in analyze(study, text).claims if c.outcome}
    assert claims == {"outcome_3mo.leg_pain_vas_cont": "lower",
                      "outcome_3mo.back_pain_vas_cont": "null"}


# ---------------------------------------------------------------- completeness

THREE = {"outcome_12mo.all_cause_death_bin!HR": "0.69 (0.60, 0.79)",
         "outcome_12mo.all_cause_death_bin!pvalue": "<0.001",
         "outcome_12mo.all_cause_hospitalization_bin!HR": "0.90 (0.82, 0.98)",
         "outcome_12mo.all_cause_hospitalization_bin!pvalue": "0.02",
         "outcome_12mo.heart_failure_hospitalization_bin!HR": "0.94 (0.82, 1.08)",
         "outcome_12mo.heart_failure_hospitalization_bin!pvalue": "0.40"}
REPORTED = ("All-cause hospitalization within 12 months was 10% lower with drug A (HR 0.90, "
            "p = 0.02), and heart-failure hospitalization did not differ (HR 0.94, p = 0.40). ")


def test_an_outcome_only_named_is_not_reported() -> None:
    """"Mortality was also examined": the name alone, in a sentence with no result and no
    claim, does not report a significant outcome."""
    study = study_of(THREE)
    for tail in ("Mortality at 12 months was also examined.",
                 "All-cause death was analysed as a secondary outcome as well."):
        verdict = judge(study, REPORTED + tail, "completeness")
        assert verdict.score == 0, tail
        assert "only named" in verdict.explanation
    for tail in ("Mortality at 12 months was also lower (HR 0.69).",
                 "Mortality at 12 months: HR 0.69 (0.60-0.79).",
                 "Mortality at 12 months fell significantly."):
        assert score(study, REPORTED + tail, "completeness") == 1, tail


def test_a_name_with_a_claim_about_nothing_named_nearby_may_be_reported() -> None:
    """"A, B and C were assessed. All three were significantly lower with drug A": the
    claim about nothing named may report the names listed before it."""
    study = study_of(THREE)
    text = ("All-cause death, all-cause hospitalization and heart-failure hospitalization were "
            "assessed at 12 months. The first two were significantly lower with drug A.")
    assert score(study, text, "completeness") == 1


def test_a_lower_case_code_in_a_name_is_an_abbreviation() -> None:
    """"phq9" in a name read from a results key is the "PHQ-9" a summary writes."""
    study = study_of({"outcome_6mo.phq9_change_cont!MD": "-4.2",
                      "outcome_6mo.phq9_change_cont!pvalue": "<0.001"}, design="case_series",
                     control="Same patients at baseline")
    assert score(study, "PHQ-9 scores fell by 4.2 points (p < 0.001).", "direction_of_effect") == 1
    assert score(study, "PHQ-9 scores rose by 4.2 points (p < 0.001).", "direction_of_effect") == 0
