"""Claim diagnostics from the rules juror's claim extraction, and the rules added for issue 6:
baseline values given to the wrong group, and a non-significant outcome stated as an effect."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from pytest_rwe.rules import judge
from pytest_rwe.rules.diagnostics import aggregate_claims, claim_diagnostics
from pytest_rwe.rules.summarizer import summarize
from pytest_rwe.rules.synthetic import random_study
from pytest_rwe.study import Study, load_study

STUDIES = Path(__file__).resolve().parent.parent / "cases" / "studies"
HCTZ = "legend_htn_hydrochlorothiazide_vs_chlorthalidone_kidney_liver"
GOOD = ("Hydrochlorothiazide (n=216,113) versus chlorthalidone (n=15,118): hydrochlorothiazide "
        "was associated with significantly lower rates of acute renal failure (HR 0.70), chronic "
        "kidney disease (HR 0.74) and kidney disease (HR 0.76). There were no significant "
        "differences for end-stage renal disease or hepatic failure.")


@pytest.fixture(scope="module")
def hctz() -> Study:
    return load_study(STUDIES / f"{HCTZ}.json")


def test_correct_summary_matches_everywhere(hctz: Study) -> None:
    report = claim_diagnostics(hctz, GOOD)
    assert json.loads(json.dumps(report)) == report  # JSON primitives
    names = {row["name"] for row in report["outcomes"]}
    assert {"acute renal failure", "end stage renal disease", "hepatic failure"} <= names
    assert report["significance_matches"] == report["significance_checked"] >= 5
    assert report["direction_agrees"] == report["direction_checked"] >= 3
    failure = next(r for r in report["outcomes"] if r["name"] == "acute renal failure")
    assert failure["claimed_significant"] is True and failure["claimed_direction"] == "lower"
    assert failure["study_direction"] == "lower" and failure["significance_match"] is True


def test_flipped_and_overclaimed_outcomes_are_counted(hctz: Study) -> None:
    flipped = GOOD.replace("significantly lower rates", "significantly higher rates")
    report = claim_diagnostics(hctz, flipped)
    assert report["direction_agrees"] == 0 and report["direction_checked"] >= 3
    overclaimed = GOOD.replace("There were no significant differences for",
                               "Hydrochlorothiazide was associated with a higher risk of")
    report = claim_diagnostics(hctz, overclaimed)
    stage = next(r for r in report["outcomes"] if r["name"] == "end stage renal disease")
    assert stage["claimed_significant"] is True and stage["significance_match"] is False
    assert report["significance_matches"] < report["significance_checked"]


def test_aggregate_pools_outcomes_and_averages_summaries(hctz: Study) -> None:
    good = claim_diagnostics(hctz, GOOD)
    bad = claim_diagnostics(hctz, GOOD.replace("significantly lower", "significantly higher"))
    total = aggregate_claims([good, bad])
    assert total["summaries"] == 2
    checked = good["direction_checked"] + bad["direction_checked"]
    hits = good["direction_agrees"] + bad["direction_agrees"]
    assert total["direction_checked"] == checked
    assert total["direction_agreement_rate"] == pytest.approx(hits / checked)
    assert total["direction_agreement_rate_by_summary"] == pytest.approx(0.5)
    assert total["significance_match_rate"] == 1.0  # both call the same outcomes significant
    empty = aggregate_claims([])
    assert empty["significance_match_rate"] is None and empty["summaries"] == 0


def test_template_summaries_of_random_studies_match_their_claims() -> None:
    rng = random.Random(6)
    for seed in range(40):
        study = random_study(rng, seed)
        report = claim_diagnostics(study, summarize(study))
        assert report["direction_agrees"] == report["direction_checked"], seed
        assert report["significance_matches"] == report["significance_checked"], seed


# -- rules added for issue 6 ----------------------------------------------------------------

def test_baseline_value_written_for_the_other_group(hctz: Study) -> None:
    base = next(iter(hctz.baseline.items()))
    name, values = base
    right = (f"At baseline, the mean was {values.intervention_text} in the hydrochlorothiazide "
             f"group and {values.control_text} in the chlorthalidone group.")
    wrong = (f"At baseline, the mean was {values.control_text} in the hydrochlorothiazide "
             f"group and {values.intervention_text} in the chlorthalidone group.")
    assert judge(hctz, right, "numbers_accurate").score == 1
    verdict = judge(hctz, wrong, "numbers_accurate")
    assert verdict.score == 0
    assert verdict.findings[0].field == f'results.baseline_differences["{name}"]'
    assert verdict.findings[0].quote == values.control_text


def test_baseline_pair_read_in_its_declared_order(hctz: Study) -> None:
    values = next(iter(hctz.baseline.values()))
    pair = f"{values.intervention_text} vs {values.control_text}"
    swapped = f"{values.control_text} vs {values.intervention_text}"
    assert judge(hctz, f"At baseline (intervention vs control): {pair}.",
                 "numbers_accurate").score == 1
    assert judge(hctz, f"At baseline (intervention vs control): {swapped}.",
                 "numbers_accurate").score == 0
    # without a declared order a pair is not attributed
    assert judge(hctz, f"Baseline values were similar ({swapped}).",
                 "numbers_accurate").score == 1


def test_nonsignificant_outcome_stated_as_an_effect(hctz: Study) -> None:
    stated = GOOD.replace("There were no significant differences for end-stage renal disease",
                          "Hydrochlorothiazide was associated with a lower risk of end-stage "
                          "renal disease")
    verdict = judge(hctz, stated, "direction_of_effect")
    assert verdict.score == 0
    assert "is not below 0.05" in verdict.explanation
    assert "end_stage_renal_disease" in verdict.findings[0].field
    hedged = GOOD.replace("There were no significant differences for end-stage renal disease "
                          "or hepatic failure", "Hydrochlorothiazide had a non-significantly "
                          "higher risk of end-stage renal disease")
    assert judge(hctz, hedged, "direction_of_effect").score == 1


def test_a_greater_fall_is_a_fall() -> None:
    study = load_study(STUDIES / "rtcgm_initiation_insulin_treated_t2d_hba1c_below_8.json")
    text = ("CGM initiation was associated with a significantly greater fall in mean HbA1c "
            "(difference -0.30 percentage points, p = 0.004).")
    assert judge(study, text, "direction_of_effect").score == 1
    assert judge(study, text.replace("fall", "rise"), "direction_of_effect").score == 0


def test_coverage_counts_the_claims_left_unjudged() -> None:
    study = random_study(random.Random(3), 0)
    grounded = claim_diagnostics(study, summarize(study))
    assert grounded["claims"] >= 1 and grounded["claims_grounded"] == grounded["claims"]
    loose = claim_diagnostics(study, "Outcomes were significantly better in the tube group.")
    assert loose["claims_grounded"] < loose["claims"]
    pooled = aggregate_claims([grounded, loose])
    assert pooled["claims"] == grounded["claims"] + loose["claims"]
    assert pooled["coverage"] == pytest.approx(pooled["claims_grounded"] / pooled["claims"])
    assert aggregate_claims([])["coverage"] is None
