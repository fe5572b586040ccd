"""builtin/rules reads real sentences: one test per behaviour, each failing when it breaks.

Outcome mentions by abbreviation and part of the name; several outcomes in one sentence;
comparative constructions; negation and hedging; significance in words, p-values and
intervals; groups by name, role, label and relative pronoun; claims it cannot ground left
unjudged (coverage); words of proportion and hedged numbers with stated tolerances; p-value
bounds held to their own outcome; percent changes derived from ratios.
"""

from __future__ import annotations

from typing import Any

import pytest

from pytest_rwe.rules import judge, judge_all
from pytest_rwe.rules.claims import analyze
from pytest_rwe.rules.diagnostics import claim_diagnostics
from pytest_rwe.rules.summarizer import summarize
from pytest_rwe.rules.truth import read_facts
from pytest_rwe.study import Study, parse_study


def trial(outcomes: dict[str, str], *, intervention: str = "Drug A",
          control: str = "placebo", sizes: tuple[int | None, int | None] = (120, 118),
          baseline: dict[str, str] | None = None) -> Study:
    """A two-group study with the given results keys."""
    raw: dict[str, Any] = {
        "id": "trial", "design": "cohort", "question": "Does drug A change the outcomes?",
        "picot": {"population": "Adults with type 2 diabetes", "intervention": intervention,
                  "control": control, "outcome": "Several outcomes", "timeframe": "12 weeks"},
        "results": {"intervention_size": sizes[0], "control_size": sizes[1],
                    "baseline_differences": baseline or {}, "outcomes": outcomes}}
    return parse_study(raw)


FPG = {"outcome.free.plasma.glucose.(FPG)_cont!MD": "-1.2 (-2.0, -0.4)",
       "outcome.free.plasma.glucose.(FPG)_cont!pvalue": "0.004"}
# an abbreviation that is not the initials of the name
VO2 = {"outcome.peak.oxygen.uptake.(VO2max)_cont!MD": "-3.1 (-5.0, -1.2)",
       "outcome.peak.oxygen.uptake.(VO2max)_cont!pvalue": "0.002"}
STROKE = {"outcome.stroke_bin!HR": "0.76 (0.64, 0.90)", "outcome.stroke_bin!pvalue": "0.002"}
FALLS = {"outcome.falls_bin!HR": "1.08 (0.91, 1.28)", "outcome.falls_bin!pvalue": "0.38"}
DEATH = {"outcome.all.cause.mortality_bin!HR": "0.82 (0.71, 0.95)",
         "outcome.all.cause.mortality_bin!pvalue": "0.018"}


def scores(study: Study, text: str) -> dict[str, int]:
    return {c: v.score for c, v in judge_all(study, text).items()}


# ---------------------------------------------------------------- outcome mentions

def test_an_abbreviation_the_name_gives_names_the_outcome() -> None:
    study = trial(VO2)
    assert judge(study, "Drug A raised VO2max compared with placebo (p = 0.002).",
                 "direction_of_effect").score == 0
    assert judge(study, "Drug A lowered VO2max compared with placebo (p = 0.002).",
                 "direction_of_effect").score == 1


def test_the_initials_of_a_name_name_the_outcome() -> None:
    study = trial(FPG)
    assert judge(study, "Drug A raised FPG compared with placebo (p = 0.004).",
                 "direction_of_effect").score == 0
    assert judge(study, "Drug A lowered FPG compared with placebo (p = 0.004).",
                 "direction_of_effect").score == 1


def test_part_of_a_name_names_the_outcome_it_singles_out() -> None:
    study = trial({**STROKE, "outcome.hospitalization.for.heart.failure_bin!HR": "0.70 (0.6, 0.8)",
                   "outcome.hospitalization.for.heart.failure_bin!pvalue": "<0.001"})
    text = ("Drug A reduced stroke (HR 0.76) and heart failure admissions were higher with "
            "drug A than with placebo.")
    assert judge(study, text, "direction_of_effect").score == 0


def test_several_outcomes_in_one_sentence_each_get_the_cue() -> None:
    study = trial({**STROKE, **DEATH, **FALLS})
    right = ("Drug A was associated with lower risks of stroke (HR 0.76), all-cause mortality "
             "(HR 0.82) and no significant difference in falls.")
    assert scores(study, right) == {"direction_of_effect": 1, "numbers_accurate": 1,
                                    "completeness": 1}
    wrong = right.replace("lower risks", "higher risks")
    assert judge(study, wrong, "direction_of_effect").score == 0
    explanation = judge(study, wrong, "direction_of_effect").explanation
    assert "stroke" in explanation and "all cause mortality" in explanation


# ---------------------------------------------------------------- comparative constructions

@pytest.mark.parametrize(("text", "score"), [
    ("Drug A reduced stroke compared with placebo (p = 0.002).", 1),
    ("Stroke was lower in the drug A group (p = 0.002).", 1),
    ("Stroke was higher in the placebo group than in the drug A group (p = 0.002).", 1),
    ("Stroke was higher in the drug A group than in the placebo group (p = 0.002).", 0),
    ("Compared with drug A, placebo was associated with a lower risk of stroke.", 0),
    ("Drug A vs placebo: stroke 4.3% vs 5.1% (p = 0.002).", 1),
    ("Drug A vs placebo: stroke 6.3% vs 5.1% (p = 0.002).", 0),
    ("Stroke occurred in 6.3% of patients in the drug A group and 5.1% in the placebo group "
     "(p = 0.002).", 0),
])
def test_comparative_constructions(text: str, score: int) -> None:
    assert judge(trial(STROKE), text, "direction_of_effect").score == score


# ---------------------------------------------------------------- negation and hedging

@pytest.mark.parametrize("text", [
    "Drug A did not significantly increase the risk of falls (p = 0.38).",
    "There was no evidence of a difference in falls between the groups.",
    "Drug A was not associated with a higher risk of falls.",
    "Falls tended to be more frequent with drug A, although not significantly (p = 0.38).",
])
def test_negated_or_hedged_claims_are_not_effects(text: str) -> None:
    assert judge(trial(FALLS), text, "direction_of_effect").score == 1


def test_an_unhedged_effect_for_a_non_significant_outcome_is_a_direction_error() -> None:
    text = "Drug A increased the risk of falls (HR 1.08)."
    assert judge(trial(FALLS), text, "direction_of_effect").score == 0


def test_a_negated_increase_of_a_significant_outcome_is_incomplete() -> None:
    text = "Drug A did not significantly decrease stroke compared with placebo."
    verdict = judge(trial(STROKE), text, "completeness")
    assert verdict.score == 0 and "no difference" in verdict.explanation


# ---------------------------------------------------------------- significance

@pytest.mark.parametrize(("text", "complete"), [
    ("Stroke did not differ between drug A and placebo (p = 0.41).", 0),
    ("Stroke: drug A 4.3%, placebo 5.1% (p = 0.41).", 0),
    ("Stroke: drug A 4.3%, placebo 5.1% (p = 0.002).", 1),
    ("Stroke: drug A 4.3%, placebo 5.1% (HR 0.76, 95% CI 0.64 to 0.90).", 1),
    ("Stroke: drug A 4.3%, placebo 5.1% (HR 0.96, 95% CI 0.84 to 1.10).", 0),
    ("Stroke was significantly reduced with drug A.", 1),
])
def test_significance_in_words_p_values_and_intervals(text: str, complete: int) -> None:
    assert judge(trial(STROKE), text, "completeness").score == complete


# ---------------------------------------------------------------- groups

@pytest.mark.parametrize(("text", "score"), [
    ("Stroke was lower in the intervention group than in the control group.", 1),
    ("Stroke was lower in the control group than in the intervention group.", 0),
    ("Stroke was lower in the treatment arm (p = 0.002).", 1),
    ("Patients on placebo had more strokes (p = 0.002).", 1),
    ("The control group had a higher rate of stroke (p = 0.002).", 1),
    ("The intervention group had a higher rate of stroke (p = 0.002).", 0),
])
def test_groups_by_role(text: str, score: int) -> None:
    assert judge(trial(STROKE), text, "direction_of_effect").score == score


@pytest.mark.parametrize(("text", "score"), [
    ("Is drug A linked to more falls than placebo? The study found no difference (p = 0.38).",
     1),
    ("The aim was to assess whether drug A increases falls. It did not (p = 0.38).", 1),
    ("Drug A increased falls (p = 0.38).", 0),  # stated, not asked: a direction the p denies
    ("Regardless of whether they were older, patients on drug A had more falls (p = 0.38).",
     0),
])
def test_a_question_states_no_direction(text: str, score: int) -> None:
    assert judge(trial(FALLS), text, "direction_of_effect").score == score


def test_a_sole_outcome_named_bare_then_denied_a_difference_is_not_reported() -> None:
    """With one outcome, "Outcome: stroke. The adjusted HR (0.76) did not show a significant
    difference" says that outcome did not differ, although its name stood alone before."""
    text = ("Outcome: stroke. The adjusted HR (0.76) did not show a significant difference "
            "between the groups.")
    assert judge(trial(STROKE), text, "completeness").score == 0
    assert judge(trial(STROKE), text.replace("did not show", "showed"),
                 "completeness").score == 1


def test_groups_by_label_and_abbreviation() -> None:
    study = trial(STROKE, intervention="Group H: high-flow nasal cannula",
                  control="Group M: air entrainment mask")
    assert judge(study, "Stroke was less frequent in group H than in group M.",
                 "direction_of_effect").score == 1
    assert judge(study, "Stroke was less frequent in group M than in group H.",
                 "direction_of_effect").score == 0
    assert judge(study, "Stroke was more frequent in the HFNC group than with the mask.",
                 "direction_of_effect").score == 0


def test_a_relative_pronoun_stands_for_the_group_named_before_it() -> None:
    text = ("Stroke was less frequent with drug A than with placebo, which had a higher "
            "all-cause mortality.")
    study = trial({**STROKE, **DEATH})
    assert judge(study, text, "direction_of_effect").score == 1
    assert judge(study, text.replace("higher", "lower"), "direction_of_effect").score == 0


def test_a_group_the_study_does_not_have_leaves_the_claim_ungrounded() -> None:
    study = trial(STROKE)
    text = "Stroke was higher in the tube group (p = 0.002)."
    assert judge(study, text, "direction_of_effect").score == 1
    analysis = analyze(study, text)
    assert analysis.coverage() == (0, 1)
    assert not analysis.claims[0].grounded


def test_claims_that_may_be_about_an_outcome_stop_it_being_called_missing() -> None:
    """A claim the juror cannot tie to an outcome stops "not mentioned" for the outcomes it
    could be about (its clause holds a word of their names); one about other things does
    not."""
    study = trial({**STROKE, "outcome.hospitalization.for.heart.failure_bin!HR": "0.70 (0.6, 0.8)",
                   "outcome.hospitalization.for.heart.failure_bin!pvalue": "<0.001"})
    text = "Drug A reduced stroke (HR 0.76). Significant improvements in heart rhythm were seen."
    verdict = judge(study, text, "completeness")
    assert verdict.score == 1 and "claims grounded" in verdict.explanation
    text = "Drug A reduced stroke (HR 0.76). Significant improvements in quality of life were seen."
    assert judge(study, text, "completeness").score == 0
    assert judge(study, "Drug A reduced stroke (HR 0.76).", "completeness").score == 0


# ---------------------------------------------------------------- numbers

@pytest.mark.parametrize(("hr", "text", "score"), [
    ("0.76", "Drug A carried a 24% lower risk of stroke.", 1),
    ("0.76", "Drug A carried roughly a quarter lower risk of stroke.", 1),
    ("0.76", "Drug A carried a 26% lower risk of stroke.", 0),
    ("0.82", "Drug A had an HR of about 0.8 for stroke.", 1),
    ("0.82", "Drug A had an HR of about 0.9 for stroke.", 0),
    ("2.07", "Drug A roughly doubled the risk of stroke.", 1),
    ("1.30", "Drug A roughly doubled the risk of stroke.", 0),
    ("1.50", "Drug A carried twice the risk of stroke.", 0),
    ("0.49", "Drug A halved the risk of stroke.", 1),
    ("0.66", "Drug A had about a third lower risk of stroke.", 1),
    ("0.80", "Drug A had about a third lower risk of stroke.", 0),
])
def test_words_of_proportion_and_hedged_numbers(hr: str, text: str, score: int) -> None:
    study = trial({"outcome.stroke_bin!HR": f"{hr} (0.5, 3.0)",
                   "outcome.stroke_bin!pvalue": "0.03"})
    assert judge(study, text, "numbers_accurate").score == score


@pytest.mark.parametrize(("text", "score"), [
    ("Drug A had an HR of about 0.9 for stroke.", 0),  # 0.9 is only the upper bound rounded
    ("Drug A had a hazard ratio of roughly 0.9 for stroke.", 0),
    ("Drug A had an HR of about 0.8 for stroke.", 1),
    ("Drug A had an HR of 0.82 (95% CI 0.71 to about 0.9) for stroke.", 1),
])
def test_a_hedged_estimate_is_held_to_the_estimate_not_to_a_bound(text: str,
                                                                 score: int) -> None:
    study = trial({"outcome.stroke_bin!HR": "0.82 (0.71, 0.93)",
                   "outcome.stroke_bin!pvalue": "0.008"})
    assert judge(study, text, "numbers_accurate").score == score


@pytest.mark.parametrize(("p", "text", "score"), [
    ("0.018", "Drug A reduced all-cause mortality (p < 0.05).", 1),
    ("0.018", "Drug A reduced all-cause mortality (p < 0.01).", 0),
    ("0.018", "Drug A reduced all-cause mortality, p < 0.01.", 0),  # stroke's p would fit
    ("0.004", "Drug A reduced all-cause mortality (p < 0.01).", 1),
    ("<0.001", "Drug A reduced all-cause mortality (p < 0.001).", 1),
])
def test_p_value_bounds_are_held_to_their_outcome(p: str, text: str, score: int) -> None:
    study = trial({"outcome.all.cause.mortality_bin!HR": "0.82 (0.71, 0.95)",
                   "outcome.all.cause.mortality_bin!pvalue": p,
                   "outcome.stroke_bin!HR": "0.5 (0.4, 0.6)",
                   "outcome.stroke_bin!pvalue": "0.001"})
    assert judge(study, text, "numbers_accurate").score == score


def test_the_95_of_a_confidence_interval_is_not_a_number_to_check() -> None:
    text = "Drug A reduced stroke (HR 0.76, 95% CI 0.64 to 0.90)."
    assert judge(trial(STROKE), text, "numbers_accurate").score == 1


# ---------------------------------------------------------------- the juror reads the study


@pytest.mark.parametrize(("p", "significant", "must_report"), [
    ("0.05", False, True), ("<0.05", True, True), ("0.049", True, True), (">0.05", False, False),
    ("0.051", False, False), ("<=0.01", True, True),
])
def test_the_jurors_own_reading_of_significance(p: str, significant: bool,
                                                 must_report: bool) -> None:
    study = trial({"outcome.x_bin!HR": "1.2 (1.0, 1.4)", "outcome.x_bin!pvalue": p})
    (fact,) = read_facts(study).values()
    assert (fact.significant, fact.must_report) == (significant, must_report)


@pytest.mark.parametrize(("estimate", "direction"), [
    ("1.2 (1.0, 1.4)", "higher"), ("0.8 (0.6, 1.0)", "lower"), ("1.00 (0.9, 1.1)", "none")])
def test_the_jurors_own_reading_of_direction(estimate: str, direction: str) -> None:
    study = trial({"outcome.x_bin!HR": estimate, "outcome.x_bin!pvalue": "0.2"})
    assert next(iter(read_facts(study).values())).direction == direction


@pytest.mark.parametrize("p", ["0.05", "<0.05", "0.049", "0.051"])
def test_the_template_summary_of_a_boundary_p_value_passes_the_juror(p: str) -> None:
    """The summarizer and the juror read significance with separate code: a bug in either
    at p = 0.05 makes them disagree here."""
    study = trial({"outcome.stroke_bin!HR": "1.40 (1.05, 1.90)",
                   "outcome.stroke_bin!pvalue": p})
    text = summarize(study)
    assert scores(study, text) == {"direction_of_effect": 1, "numbers_accurate": 1,
                                   "completeness": 1}
    (fact,) = read_facts(study).values()
    (row,) = claim_diagnostics(study, text)["outcomes"]
    assert row["claimed_significant"] is fact.significant, text


def test_a_finding_names_the_same_study_value_whatever_the_hash_seed() -> None:
    """The juror is deterministic across processes: a p bound written for several outcomes
    at once names the same outcome's p-value under every PYTHONHASHSEED."""
    import os
    import subprocess
    import sys

    script = (
        "from tests.test_rules_behaviours import trial\n"
        "from pytest_rwe.rules import judge\n"
        "study = trial({'outcome.stroke_bin!HR': '0.9 (0.7, 1.2)', 'outcome.stroke_bin!pvalue':"
        " '0.41', 'outcome.falls_bin!HR': '1.1 (0.8, 1.4)', 'outcome.falls_bin!pvalue': '0.62',"
        " 'outcome.death_bin!HR': '1.0 (0.8, 1.2)', 'outcome.death_bin!pvalue': '0.77'})\n"
        "print(judge(study, 'Stroke, falls and death did not differ (all p > 0.99).',"
        " 'numbers_accurate').explanation)\n")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    outputs = {subprocess.run([sys.executable, "-c", script], cwd=root, check=True, text=True,
                              capture_output=True,
                              env={**os.environ, "PYTHONHASHSEED": seed}).stdout
               for seed in ("1", "2", "3", "4")}
    assert len(outputs) == 1 and "does not hold" in next(iter(outputs))
