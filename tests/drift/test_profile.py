"""The verdict profile: what a rewording keeps and what a changed fact changes."""

from __future__ import annotations

from typing import Any

import pytest

from pytest_rwe.drift import cited_numbers, profile_changes, verdict_profile
from pytest_rwe.drift.diff import drift_message
from pytest_rwe.rules import judge_all
from pytest_rwe.study import Study, parse_study
from pytest_rwe.verdict import CRITERIA, JurorScore, Verdict

THRESHOLDS = dict.fromkeys(CRITERIA, 0.5)
SUMMARY = (
    "In this propensity-score matched cohort of 1,523 patients on drug A and 1,498 on drug B, "
    "drug A was associated with a significantly lower FEV1 (MD -0.12, 95% CI -0.2 to -0.04; "
    "p < 0.001). There was no significant difference in inpatient visits for asthma "
    "(OR 0.866, 95% CI 0.665 to 1.13; p = 0.28)."
)


@pytest.fixture
def study(cohort_raw: dict[str, object]) -> Study:
    return parse_study(cohort_raw)


def rules_verdict(study: Study, summary: str) -> Verdict:
    return Verdict.from_scores([
        JurorScore("builtin/rules", criterion, answer.score, answer.explanation)
        for criterion, answer in judge_all(study, summary).items()
    ])


def facts(study: Study, summary: str) -> dict[str, Any]:
    return verdict_profile(study, summary, rules_verdict(study, summary), THRESHOLDS,
                           model="m/x").facts


def test_numbers_are_normalized_sorted_and_unique() -> None:
    numbers, where = cited_numbers("HR 0.870 (0.70, 1.1); p < 0.001; 12.5% vs 12.50%; "
                                   "18.5 million people, 0.87 again, -0.12")
    assert numbers == ["-0.12", "<0.001", "0.7", "0.87", "1.1", "12.5%", "18500000"]
    assert where["0.87"].startswith("HR 0.870")


def test_the_profile_holds_claims_numbers_jury_and_badge(study: Study) -> None:
    profile = facts(study, SUMMARY)
    assert profile["badge"] == "green"
    assert profile["jury"]["numbers_accurate"] == {"builtin/rules": 1}
    assert profile["outcomes"]["outcome_3yrs.fev1_cont"] == {
        "name": profile["outcomes"]["outcome_3yrs.fev1_cont"]["name"],
        "direction": "lower", "significant": True}
    assert profile["outcomes"]["outcome_3yrs.ip.visit.for.asthma_bin"]["significant"] is False
    assert "0.866" in profile["numbers"] and "1523" in profile["numbers"]
    assert profile["unreported_significant"] == []


def test_a_rewording_keeps_the_profile(study: Study) -> None:
    reworded = SUMMARY.replace("In this propensity-score matched cohort of",
                               "After propensity-score matching, a cohort study of") \
        .replace("There was no significant difference in", "No significant difference was seen "
                 "for")
    assert facts(study, reworded) == facts(study, SUMMARY)


def test_a_changed_number_flipped_direction_and_dropped_outcome_are_named(
        study: Study) -> None:
    golden = facts(study, SUMMARY)
    changed = SUMMARY.replace("0.866", "0.886")
    lines = profile_changes(golden, facts(study, changed))
    assert "number 0.866 is no longer cited" in lines
    assert any(line.startswith("number 0.886 is newly cited") for line in lines)
    assert "jury numbers_accurate: builtin/rules score 1 -> 0" in lines

    flipped = SUMMARY.replace("significantly lower FEV1", "significantly higher FEV1")
    lines = profile_changes(golden, facts(study, flipped))
    assert any("[outcome_3yrs.fev1_cont]: claimed direction lower -> higher" in line
               for line in lines)

    dropped = SUMMARY.split(". There")[0].replace(
        "drug A was associated with a significantly lower FEV1 (MD -0.12, 95% CI -0.2 to "
        "-0.04; p < 0.001)", "drug A was used")
    lines = profile_changes(golden, facts(study, dropped))
    assert any("[outcome_3yrs.fev1_cont]: no longer mentioned (was: lower, significant)" in line
               for line in lines)
    assert "significant outcome outcome_3yrs.fev1_cont is now left out" in lines
    assert "badge green -> red" in lines


def test_the_drift_message_names_study_change_jurors_and_the_fix(study: Study) -> None:
    golden = facts(study, SUMMARY)
    changed = SUMMARY.replace("0.866", "0.886")
    profile = verdict_profile(study, changed, rules_verdict(study, changed), THRESHOLDS,
                              model="m/x")
    message = drift_message(profile, golden, "golden/t/m__x/demo_cohort.json",
                            update_hint="t.py --snapshot-update")
    assert message.splitlines()[0] == ("verdict profile of m/x on study demo_cohort drifted "
                                       "from golden/t/m__x/demo_cohort.json:")
    assert "  - number 0.886 is newly cited: \"" in message
    assert "numbers_accurate, builtin/rules (score 0): \"0.886\"" in message
    assert message.endswith("accept it with `pytest t.py --snapshot-update` and commit "
                            "golden/t/m__x/demo_cohort.json.")
    missing = drift_message(profile, None, "g.json")
    assert "no golden verdict profile for m/x on study demo_cohort: g.json does not exist" \
        in missing


def test_juror_score_changes_and_abstentions_are_named() -> None:
    old = {"jury": {"completeness": {"a": 1, "b": 1}}}
    new = {"jury": {"completeness": {"a": None, "c": 0}}}
    assert profile_changes(old, new) == [
        "jury completeness: a score 1 -> abstained",
        "jury completeness: juror b no longer on the jury",
        "jury completeness: juror c joined, score 0",
    ]
