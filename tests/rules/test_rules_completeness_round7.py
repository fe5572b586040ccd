"""completeness: readings added in issue 14's round 7 (each test fails when its reading
breaks). The study and sentences are invented for these tests, not copied from a labeled
set."""

from __future__ import annotations

from typing import Any

from pytest_rwe.rules import judge
from pytest_rwe.study import Study, parse_study


def _pain_series() -> Study:
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
                        "outcome_12wk.pain_score_change.3plus_prior_operations_cont!MD":
                            "-2.9 (-3.8, -2.0)",
                        "outcome_12wk.pain_score_change.3plus_prior_operations_cont!pvalue":
                            "<0.001"}}}
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
