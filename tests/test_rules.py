"""builtin/rules: broken summaries fail the matching criterion, naming the number or outcome."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from pytest_rwe.replies import parse_judge_reply
from pytest_rwe.rules import judge, judge_all
from pytest_rwe.rules.number_mentions import numbers_in
from pytest_rwe.rules.summarizer import summarize
from pytest_rwe.rules.synthetic import (
    change_number,
    drop_significant,
    flip_direction,
    random_study,
    swap_sizes,
)
from pytest_rwe.study import Study, load_study, parse_study

STUDIES = Path(__file__).resolve().parent.parent / "cases" / "studies"


@pytest.fixture(scope="module")
def chlor() -> Study:
    return load_study(STUDIES / "legend_htn_chlorthalidone_vs_hctz.json")


@pytest.fixture(scope="module")
def cud() -> Study:
    return load_study(STUDIES / "trinetx_cud_pancreatic_cancer_chronic_pancreatitis.json")


def test_wrong_number_is_reported_with_its_field(cud: Study) -> None:
    text = summarize(cud).replace("HR 0.263", "HR 0.363")
    verdict = judge(cud, text, "numbers_accurate")
    assert verdict.score == 0
    assert "0.363" in verdict.explanation
    assert verdict.findings[0].quote == "0.363"
    assert "pancreatic_cancer_bin!HR" in verdict.findings[0].field
    assert judge(cud, text, "direction_of_effect").score == 1


def test_wrong_pvalue_is_reported(cud: Study) -> None:
    text = summarize(cud).replace("p = 0.001", "p = 0.01")
    verdict = judge(cud, text, "numbers_accurate")
    assert verdict.score == 0 and "0.01" in verdict.explanation
    assert "pvalue" in verdict.findings[0].field


def test_flipped_direction_names_the_outcome(cud: Study) -> None:
    text = summarize(cud).replace("significantly lower risk", "significantly higher risk")
    verdict = judge(cud, text, "direction_of_effect")
    assert verdict.score == 0
    assert "pancreatic cancer" in verdict.explanation
    assert 'results.outcomes["outcome.pancreatic_cancer_bin!HR"]' in verdict.findings[0].field
    assert judge(cud, text, "numbers_accurate").score == 1


def test_dropped_significant_outcome_is_named(cud: Study) -> None:
    text = ("Among 6,858 matched pairs, cannabis use disorder was associated with a significantly "
            "lower risk of pancreatic cancer (HR 0.263, 95% CI 0.202 to 0.344; p < 0.001).")
    verdict = judge(cud, text, "completeness")
    assert verdict.score == 0
    assert "acute pancreatitis flare" in verdict.explanation
    assert "not mentioned" in verdict.explanation


def test_significant_outcome_called_no_difference_is_incomplete(cud: Study) -> None:
    text = ("Cannabis use disorder was associated with a lower risk of pancreatic cancer "
            "(HR 0.263), and there was no significant difference in acute pancreatitis flares.")
    verdict = judge(cud, text, "completeness")
    assert verdict.score == 0 and "described as no difference" in verdict.explanation


def test_swapped_group_sizes(chlor: Study) -> None:
    text = summarize(chlor).replace("n = 36,918", "n = X").replace(
        "n = 693,337", "n = 36,918").replace("n = X", "n = 693,337")
    verdict = judge(chlor, text, "numbers_accurate")
    assert verdict.score == 0
    assert "693,337" in verdict.explanation and "intervention" in verdict.explanation
    assert {f.field for f in verdict.findings} == {"results.control_size",
                                                   "results.intervention_size"}


def test_no_pvalues_means_complete(chlor: Study) -> None:
    verdict = judge(chlor, "Chlorthalidone was studied.", "completeness")
    assert verdict.score == 1 and "no p-values" in verdict.explanation


@pytest.mark.parametrize("text", [
    "Chlorthalidone carried a 2.7-fold risk of hypokalemia (HR 2.72) and a 27% lower risk of "
    "abnormal weight gain (HR 0.73) than hydrochlorothiazide among 36,918 and 693,337 users.",
    "In two US claims databases and one EHR database, about thirty-seven thousand "
    "chlorthalidone users were compared with hydrochlorothiazide users; hypokalemia risk was "
    "higher (HR 2.7).",
    "Hydrochlorothiazide users had a lower risk of hypokalemia than chlorthalidone users.",
    "From 2001 through 2018, chlorthalidone was associated with about 31% more hyponatremia.",
])
def test_correct_prose_variants_pass(chlor: Study, text: str) -> None:
    verdicts = judge_all(chlor, text)
    assert {c: v.score for c, v in verdicts.items()} == {
        "direction_of_effect": 1, "numbers_accurate": 1, "completeness": 1,
    }, {c: v.explanation for c, v in verdicts.items()}


def _asthma() -> Study:
    return parse_study({
        "id": "asthma", "design": "cohort", "question": "Drug A vs drug B and asthma visits?",
        "picot": {"population": "Adults", "intervention": "Drug A", "control": "Drug B",
                  "outcome": "Inpatient visits for asthma", "timeframe": "3 years"},
        "results": {"intervention_size": 1523, "control_size": 1498,
                    "baseline_differences": {"age_mean": "control 47.3579 vs intervention 71.2047"},
                    "outcomes": {"outcome_3yrs.ip.visit.for.asthma_bin!OR": "0.4 (0.1, 1.6)",
                                 "outcome_3yrs.ip.visit.for.asthma_bin!pvalue": "0.28"}},
    })


@pytest.mark.parametrize("text", [
    "Patients on drug A were older (mean age 71 vs 47 years). Over three years there was no "
    "significant difference in inpatient visits for asthma (OR 0.4).",
    "Drug A users (mean age 71.2) had no significantly different rate of asthma "
    "hospitalizations at 3 years than drug B users (mean age 47.4; 1,498 patients).",
])
def test_rounding_words_and_nonsignificant_ratio_pass(text: str) -> None:
    study = _asthma()
    assert {c: v.score for c, v in judge_all(study, text).items()} == {
        "direction_of_effect": 1, "numbers_accurate": 1, "completeness": 1,
    }


def test_nonsignificant_outcome_called_significant_decrease_fails() -> None:
    study = _asthma()
    text = "Drug A was associated with a significantly lower rate of inpatient asthma visits."
    verdict = judge(study, text, "direction_of_effect")
    assert verdict.score == 0 and "0.28" in verdict.explanation


def test_reply_is_the_llm_juror_format(cud: Study) -> None:
    verdict = judge(cud, "Pancreatic cancer risk was 50% lower.", "numbers_accurate")
    reply = verdict.to_reply()
    assert list(json.loads(reply)) == ["numbers_accurate"]
    parsed = parse_judge_reply(reply, "numbers_accurate")
    assert parsed.score == 0 and "50" in parsed.explanation


def test_numbers_in_reads_precision_signs_and_words() -> None:
    found = numbers_in("HR 0.76 (95% CI -0.50 to 2.38-3.12), COVID-19, HbA1c, 36,918 and twelve")
    values = [(n.value, n.decimals) for n in found]
    assert values == [(0.76, 2), (95.0, 0), (-0.5, 2), (2.38, 2), (3.12, 2), (36918.0, 0),
                      (12.0, 0)]


def test_generated_mutations_are_caught() -> None:
    # how fast the juror is, is measured by benchmarks/rules_scaling.py, not here
    rng = random.Random(7)
    tried: dict[str, int] = {}
    missed: list[tuple[str, str]] = []
    for index in range(150):
        study = random_study(rng, index)
        text = summarize(study)
        for mutation in (flip_direction(study, text), change_number(study, text, rng),
                         swap_sizes(study, text), drop_significant(study, text)):
            if mutation is None:
                continue
            tried[mutation.criterion] = tried.get(mutation.criterion, 0) + 1
            if judge(study, mutation.text, mutation.criterion).score != 0:
                missed.append((mutation.what, mutation.text))
    assert min(tried.values()) > 50
    assert missed == []
