"""builtin/template: correct summaries of the suite's studies and of random valid studies."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from pytest_rwe.rules import judge_all
from pytest_rwe.rules.summarizer import summarize
from pytest_rwe.rules.synthetic import random_study
from pytest_rwe.study import Study, load_study, parse_study
from pytest_rwe.verdict import CRITERIA

STUDIES = Path(__file__).resolve().parent.parent / "cases" / "studies"
SUITE = sorted(STUDIES.glob("*.json"))


def _failures(study: Study, text: str) -> dict[str, str]:
    return {c: v.explanation for c, v in judge_all(study, text).items() if v.score == 0}


@pytest.mark.parametrize("path", SUITE, ids=[p.stem for p in SUITE])
def test_suite_study_summary_passes_every_rule(path: Path) -> None:
    study = load_study(path)
    text = summarize(study)
    assert _failures(study, text) == {}, text


def test_suite_is_present() -> None:
    assert len(SUITE) >= 8


def test_generated_studies_pass_every_rule() -> None:
    # how long this takes is measured by benchmarks/summarizer.py, never asserted here
    rng = random.Random(20250101)
    failing = []
    for index in range(200):
        study = random_study(rng, index)
        text = summarize(study)
        problems = _failures(study, text)
        if problems:
            failing.append((study.raw, text, problems))
    assert failing == []


def _raw(**results: object) -> dict[str, object]:
    base: dict[str, object] = {
        "intervention_size": 1523, "control_size": 1498, "baseline_differences": {},
        "outcomes": {},
    }
    base.update(results)
    return {
        "id": "t", "design": "cohort", "question": "Is drug A associated with asthma visits?",
        "picot": {"population": "Adults; 1:1 propensity-score matched", "intervention": "Drug A",
                  "control": "Drug B", "outcome": "Asthma visits", "timeframe": "3 years"},
        "results": base,
    }


def test_cohort_summary_reports_each_outcome_as_the_design_asks() -> None:
    study = parse_study(_raw(
        baseline_differences={"age_mean": "control 47.3579 vs intervention 71.2047",
                              "female_pct": "control 35.14 vs intervention 40.0"},
        outcomes={
            "outcome_3yrs.ip.visit.for.asthma_bin!OR": "0.866 (0.665, 1.13)",
            "outcome_3yrs.ip.visit.for.asthma_bin!pvalue": "0.28",
            "outcome.death_bin!HR": "0.76 (0.61, 0.95)",
            "outcome.death_bin!pvalue": "<0.001",
            "outcome.fev1_cont!MD": "-0.12 (-0.2, -0.04)",
            "outcome.fev1_cont!pvalue": "0.01",
            "outcome.rash_bin!RR": "1.4",
        }))
    text = summarize(study)
    assert "n = 1,523" in text and "n = 1,498" in text
    assert "after propensity-score matching" in text
    assert "35.1%" in text and "40.0%" in text  # percentages to one decimal
    assert "71.2047" in text  # other baseline values as the study writes them
    assert "significantly lower risk of death (HR 0.76, 95% CI 0.61 to 0.95; p < 0.001)" in text
    assert "significant decrease in FEV1" in text
    assert "no significant difference for ip visit for asthma at 3 years (p = 0.28)" in text
    no_p = next(s for s in text.split(". ") if "rash" in s)
    assert "higher risk of rash (RR 1.4)" in no_p
    assert "significant" not in no_p  # no significance claim without a p-value
    assert "No p-value was reported for this estimate." in text
    assert "baseline" in text and "significant" not in text.split("At baseline")[1].split(".")[0]


def test_case_series_has_no_comparator_and_writes_counts() -> None:
    raw = _raw(control_size=None, outcomes={
        "outcome.remission_bin!N": "4/13",
        "outcome.response_bin!PCT": "30.8",
        "outcome_6mo.hba1c_cont!MD": "-0.6",
        "outcome_6mo.hba1c_cont!pvalue": "<0.0001",
    })
    raw["design"] = "case_series"
    study = parse_study(raw)
    text = summarize(study)
    assert "4/13 (30.8%)" in text
    assert "30.8%" in text
    assert "compared with" not in text.lower()
    assert "no comparator" in text
    assert "significant decrease in HbA1c at 6 months (mean change -0.6; p < 0.0001)" in text
    assert _failures(study, text) == {}


def test_cross_sectional_describes_associations() -> None:
    raw = _raw(outcomes={"outcome.mi_bin!OR": "2.07 (1.12, 3.82)", "outcome.mi_bin!pvalue": "0.02"})
    raw["design"] = "cross_sectional"
    text = summarize(parse_study(raw))
    assert "associated with" in text
    assert "caus" not in text.lower()
    assert "significantly higher odds of MI (OR 2.07" in text


def test_no_outcomes_makes_no_claim() -> None:
    text = summarize(parse_study(_raw()))
    assert "No outcome results were reported." in text
    assert "significant" not in text


def test_summary_is_deterministic_and_about_100_words() -> None:
    study = load_study(SUITE[0])
    assert summarize(study) == summarize(study)
    assert 20 <= len(summarize(study).split()) <= 260


@pytest.mark.parametrize("criterion", CRITERIA)
def test_null_sizes_and_exact_null_estimates(criterion: str) -> None:
    study = parse_study(_raw(intervention_size=None, control_size=None, outcomes={
        "outcome.x_bin!HR": "1.00 (0.85, 1.17)",
        "outcome.y_bin!OR": ".5 (.3, .9)", "outcome.y_bin!pvalue": "1e-05",
    }))
    text = summarize(study)
    assert "size not reported" in text
    assert "similar risk of x" in text
    assert "OR 0.5, 95% CI 0.3 to 0.9; p < 0.001" in text
    assert judge_all(study, text)[criterion].score == 1  # type: ignore[index]
