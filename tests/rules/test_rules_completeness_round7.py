"""completeness: readings added in issue 14's round 7 (each test fails when its reading
breaks). The study and sentences are invented for these tests, not copied from a labeled
set."""

from __future__ import annotations

from typing import Any

from pytest_rwe.rules import judge
from pytest_rwe.study import Study, parse_study


def _pain_series(subgroup: str = "3plus_prior_operations") -> Study:
    """A case series: the pain score change overall and in those with three or more prior
    operations, each significant."""
    raw: dict[str, Any] = {
        "id": "pain_series", "design": "case_series", "question": "Does nerve block X help?",
        "picot": {"population": "Adults with chronic knee pain", "intervention": "Nerve block X",
                  "control": "None", "outcome": "pain score change", "timeframe": "12 weeks"},
        "results": {"intervention_size": 120, "control_size": None, "baseline_differences": {},
                    "outcomes": {
                        "outcome_12wk.pain_score_change_cont!MD": "-2.4 (-3.0, -1.8)",
                        "outcome_12wk.pain_score_change_cont!pvalue": "<0.001",
                        f"outcome_12wk.pain_score_change.{subgroup}_cont!MD":
                            "-2.9 (-3.8, -2.0)",
                        f"outcome_12wk.pain_score_change.{subgroup}_cont!pvalue": "<0.001"}}}
    return parse_study(raw)


def test_a_restatement_and_a_threshold_do_not_report_a_subgroup() -> None:
    # "i.e. ..." restates the overall result; "three or more prior operations" says who was
    # treated: the subgroup's own result (-2.9) is never given
    text = ("Nerve block X series (n = 120): at 12 weeks, mean pain score change -2.4 "
            "(p < 0.001), i.e. a meaningful improvement for a population with three or more "
            "prior surgeries on average.")
    assert judge(_pain_series(), text, "completeness").score == 0
    reported = text.replace("on average.", "on average; in those with three or more prior "
                            "operations the pain score change was -2.9 (p < 0.001).")
    assert judge(_pain_series(), reported, "completeness").score == 1


def _blocks() -> Study:
    """Block duration with needle E against needle N, significantly shorter."""
    raw: dict[str, Any] = {
        "id": "blocks", "design": "cohort", "question": "Needle E vs N for nerve blocks?",
        "picot": {"population": "Adults having a nerve block", "intervention": "Needle E",
                  "control": "Needle N", "outcome": "block duration", "timeframe": "one day"},
        "results": {"intervention_size": 40, "control_size": 40, "baseline_differences": {},
                    "outcomes": {"outcome.block_procedure_duration_cont!MD": "-2.1 (-3.5, -0.7)",
                                 "outcome.block_procedure_duration_cont!pvalue": "0.004",
                                 "outcome.wound_infection_bin!OR": "0.90 (0.40, 2.00)",
                                 "outcome.wound_infection_bin!pvalue": "0.79"}}}
    return parse_study(raw)


def test_a_difference_affirmed_beside_a_word_of_sameness_reports_the_outcome() -> None:
    text = ("Block procedure duration was similar with needles E and S and significantly "
            "lower than with needle N.")
    assert judge(_blocks(), text, "completeness").score == 1
    # a negation before it governs the affirmation too; another outcome's clause is its own
    assert judge(_blocks(), "Needle E did not reduce block procedure duration or increase "
                 "comfort.", "completeness").score == 0
    assert judge(_blocks(), "Block procedure duration was similar with needles E and N, and "
                 "wound infection was not significantly lower.", "completeness").score == 0


def test_significance_denied_after_the_result_in_its_own_clause() -> None:
    study = _pain_series("repeat_surgery")
    text = ("Adults given nerve block X had a mean pain score change of -2.4 points at 12 "
            "weeks, which was not a statistically significant change, while the repeat surgery "
            "subgroup improved significantly by 2.9 points (p < 0.001).")
    assert judge(study, text, "completeness").score == 0
    assert judge(study, text.replace("was not a statistically", "was a statistically"),
                 "completeness").score == 1
    # a significance the sentence affirms elsewhere may be this outcome's: unsure, no finding
    unsure = ("Before treatment the pain score change was -2.4 points, which was not a "
              "statistically significant change, but a significant difference was seen 12 weeks "
              "after it (p < 0.001).")
    findings = judge(study, unsure, "completeness").findings
    assert not any("not significant" in f.message for f in findings)
