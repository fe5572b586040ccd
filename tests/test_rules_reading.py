"""builtin/rules on prose it was not tuned to: one test per general rule, each failing when
the rule breaks (the second round of issue 14: outcome names that share words, outcomes
only named, subgroups, abbreviations, value-anchored mentions, compositions of change words,
group names, numbers tied to their outcome)."""

from __future__ import annotations

from typing import Any

from pytest_rwe.rules import judge
from pytest_rwe.rules.claims import analyze
from pytest_rwe.rules.summarizer import summarize
from pytest_rwe.study import Study, parse_study


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

_PAIN_ROWS = (("1mo", "back", "-1.31", "0.002"), ("3mo", "back", "-0.63", "0.57"),
              ("1mo", "leg", "-1.34", "0.01"), ("3mo", "leg", "-1.32", "0.02"))
PAIN = {f"outcome_{time}.{name}_pain_vas_cont!{stat}": value
        for time, name, md, p in _PAIN_ROWS for stat, value in (("MD", md), ("pvalue", p))}


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


# ---------------------------------------------------------------- subgroups

DEMENTIA = {"outcome.dementia.both_htn_and_hpl_bin!HR": "1.33 (1.09, 1.63)",
            "outcome.dementia.both_htn_and_hpl_bin!pvalue": "0.006",
            "outcome.dementia.htn_only_bin!HR": "1.22 (1.05, 1.40)",
            "outcome.dementia.htn_only_bin!pvalue": "0.008",
            "outcome.dementia.hpl_only_bin!HR": "1.28 (0.89, 1.85)",
            "outcome.dementia.hpl_only_bin!pvalue": "0.187"}
EXPOSURES = dict(intervention="Incident hypertension and/or hyperlipidaemia: both, hypertension "
                 "only, hyperlipidaemia only", control="Neither (reference category)")


def test_a_subgroup_is_named_by_its_base_and_the_qualifier_of_its_clause() -> None:
    """"hypertension alone ... a lower risk of dementia": the base names every subgroup, the
    clause's qualifier ("htn only", abbreviating a word of the study's own text) picks one."""
    study = study_of(DEMENTIA, **EXPOSURES)
    wrong = ("Incident hypertension alone was associated with a lower risk of dementia than "
             "neither condition (HR 1.22, p = 0.008).")
    assert score(study, wrong, "direction_of_effect") == 0
    assert score(study, wrong.replace("lower", "higher"), "direction_of_effect") == 1
    keys = {c.outcome.key for c in analyze(study, wrong).claims if c.outcome}
    assert keys == {"outcome.dementia.htn_only_bin"}


def test_a_base_with_no_qualifier_in_its_clause_is_not_judged() -> None:
    study = study_of(DEMENTIA, **EXPOSURES)
    text = "The risk of dementia was higher than with neither condition."
    assert [c.outcome for c in analyze(study, text).claims] == [None]


def test_several_qualifiers_in_one_clause_name_several_subgroups() -> None:
    """"dementia was not significantly associated with hypertension plus hyperlipidaemia,
    hypertension alone or hyperlipidaemia alone": one base, three subgroups."""
    study = study_of(DEMENTIA, **EXPOSURES)
    text = ("Compared with neither condition, dementia was not significantly associated with "
            "hypertension plus hyperlipidaemia, hypertension alone or hyperlipidaemia alone.")
    keys = {c.outcome.key for c in analyze(study, text).claims if c.outcome}
    assert keys == set(k.rsplit("!", 1)[0] for k in DEMENTIA)
    assert score(study, text, "completeness") == 0  # two of them are significant


def test_a_negated_qualifier_is_its_own_subgroup() -> None:
    """"without diabetes" is the "no diabetes" subgroup, not "diabetes"."""
    study = study_of({"outcome.cancer.diabetes_bin!HR": "1.03 (0.5, 2.1)",
                      "outcome.cancer.diabetes_bin!pvalue": "0.980",
                      "outcome.cancer.no_diabetes_bin!HR": "2.08 (1.2, 3.6)",
                      "outcome.cancer.no_diabetes_bin!pvalue": "0.01"})
    text = "Drug A raised the risk of cancer in patients without diabetes (p = 0.01)."
    keys = {c.outcome.key for c in analyze(study, text).claims if c.outcome}
    assert keys == {"outcome.cancer.no_diabetes_bin"}
    text = "Drug A lowered the risk of cancer in patients with diabetes (p = 0.98)."
    keys = {c.outcome.key for c in analyze(study, text).claims if c.outcome}
    assert keys == {"outcome.cancer.diabetes_bin"}


# ---------------------------------------------------------------- groups

PSYCH = {"outcome.any_psychiatric_disorder_bin!HR": "5.04 (4.45, 5.87)",
         "outcome.any_psychiatric_disorder_bin!pvalue": "<0.001"}


def _sides(study: Study, text: str) -> list[tuple[str, bool]]:
    return [(c.direction or "", c.flipped) for c in analyze(study, text).claims
            if c.outcome is not None and c.grounded]


def test_a_number_between_the_comparison_word_and_the_group() -> None:
    """"than their 3,198 matched controls" is the compared-against side."""
    study = study_of(PSYCH, intervention="Multiple sclerosis",
                     control="No multiple sclerosis (matched controls)")
    text = ("Adults with multiple sclerosis had a higher hazard of a psychiatric disorder than "
            "their 3,198 matched controls (HR 5.04, p < 0.001).")
    assert score(study, text, "direction_of_effect") == 1
    assert score(study, text.replace("higher", "lower"), "direction_of_effect") == 0


def test_two_initials_in_capitals_name_a_group() -> None:
    """"people with MS" is the "Multiple sclerosis" group, "without MS" the other one."""
    study = study_of(PSYCH, intervention="Multiple sclerosis",
                     control="Matched persons without multiple sclerosis")
    text = "People with MS had a higher hazard of a psychiatric disorder (HR 5.04, p < 0.001)."
    assert _sides(study, text) == [("higher", False)]
    text = ("Matched persons without MS had a higher hazard of a psychiatric disorder than "
            "the 1,066 persons with MS (HR 5.04, p < 0.001).")
    assert score(study, text, "direction_of_effect") == 0


def test_a_v_inside_a_drug_abbreviation_is_not_versus() -> None:
    """The "V" of "S/V" (sacubitril/valsartan) does not make a comparison."""
    study = study_of({"outcome_12mo.all_cause_death_bin!HR": "0.69 (0.60, 0.79)",
                      "outcome_12mo.all_cause_death_bin!pvalue": "<0.001"},
                     intervention="Discharge prescription of sacubitril/valsartan",
                     control="No sacubitril/valsartan prescription at discharge")
    text = "S/V at discharge: 12-month death lower, HR 0.69 (0.60-0.79), p < 0.001."
    assert score(study, text, "direction_of_effect") == 1


def test_a_word_the_control_negates_names_the_other_side_alone() -> None:
    """With the control "no intervention", "after intervention" is not the control."""
    study = study_of({"outcome.pain_score_cont!MD": "-5.6 (-9.3, -1.9)",
                      "outcome.pain_score_cont!pvalue": "0.003"},
                     intervention="Aphasia therapy (CIAT)", control="No intervention")
    text = ("Patients who received CIAT had a higher pain score after intervention compared "
            "to the control group (p = 0.003).")
    assert score(study, text, "direction_of_effect") == 0
    assert score(study, text.replace("higher", "lower"), "direction_of_effect") == 1


def test_a_shared_word_that_is_the_controls_abbreviation_names_the_control() -> None:
    """"combined FTP and power training" vs "functional task practice (FTP)": "vs. FTP" is
    the control."""
    study = study_of({"outcome.peak_power_cont!MD": "8.8 (1.0, 16.6)",
                      "outcome.peak_power_cont!pvalue": "0.02"},
                     intervention="Combined FTP and power training",
                     control="Functional task practice (FTP)")
    text = "Peak power was significantly greater following HYBRID vs. FTP (p < .05)."
    assert _sides(study, text) == [("higher", False)]


# ---------------------------------------------------------------- change words composed

EGFR = {"outcome.egfr_change_cont!MD": "1.81 (1.13, 2.48)",
        "outcome.egfr_change_cont!pvalue": "<0.0001",
        "outcome.egfr_slope_per_year_cont!MD": "0.67 (0.47, 0.88)",
        "outcome.egfr_slope_per_year_cont!pvalue": "<0.0001",
        "outcome.albuminuria_cont!MD": "-44.3 (-66.9, -21.7)",
        "outcome.albuminuria_cont!pvalue": "<0.0001"}


def test_a_change_verb_qualified_by_less_or_more() -> None:
    """"eGFR declined less with drug A" is a higher eGFR change; "fell more", lower."""
    study = study_of(EGFR)
    assert score(study, "eGFR declined less with drug A (p < 0.0001).", "direction_of_effect") == 1
    assert score(study, "eGFR fell significantly more with drug A (p < 0.0001).",
                 "direction_of_effect") == 0
    assert score(study, "eGFR rose less with drug A (p < 0.0001).", "direction_of_effect") == 0


def test_smaller_before_a_change_noun_over_shape_words_and_the_name() -> None:
    """"a less steep annual eGFR decline" is a higher slope."""
    study = study_of(EGFR)
    text = "Drug A was associated with a less steep annual eGFR decline (MD 0.67, p < 0.0001)."
    assert score(study, text, "direction_of_effect") == 1
    assert score(study, text.replace("less", "more"), "direction_of_effect") == 0


def test_a_change_word_in_the_outcomes_name_is_not_qualified() -> None:
    """"more weight loss" is more of the outcome "weight loss"."""
    study = study_of({"outcome.weight_loss_cont!MD": "2.1 (1.0, 3.2)",
                      "outcome.weight_loss_cont!pvalue": "0.007"})
    text = "Drug A users had significantly more weight loss than placebo users (p = 0.007)."
    assert score(study, text, "direction_of_effect") == 1


def test_and_a_half_is_a_number_not_a_halving() -> None:
    study = study_of({"outcome.nafld_bin!RR": "4.67 (3.84, 5.66)"})
    text = "NAFLD was more than four and a half times as common with drug A (RR 4.67)."
    assert score(study, text, "direction_of_effect") == 1
    doubled = study_of({"outcome.nafld_bin!RR": "2.5 (1.84, 3.66)",
                        "outcome.nafld_bin!pvalue": "0.001"})
    text = "NAFLD increased two and a half times with drug A."
    assert [c.direction for c in analyze(doubled, text).claims if c.outcome] == ["higher"]
    assert score(doubled, "Drug A users had two and a half times the risk of NAFLD.",
                 "direction_of_effect") == 1


def test_lived_longer_is_lower_mortality() -> None:
    study = study_of({"outcome.all_cause_death_bin!HR": "2.19 (1.18, 4.05)",
                      "outcome.all_cause_death_bin!pvalue": "0.01"})
    text = "Patients on drug A lived longer than those on placebo: the hazard of death was 2.19."
    assert score(study, text, "direction_of_effect") == 0


def test_neither_nor_over_parentheses_negates_the_verb() -> None:
    """"neither A (HR ...) nor B (HR ...) differed significantly": no difference for both."""
    study = study_of({"outcome.hcc_bin!HR": "0.82 (0.66, 1.02)", "outcome.hcc_bin!pvalue": "0.078",
                      "outcome.icc_bin!HR": "1.67 (0.51, 5.51)", "outcome.icc_bin!pvalue": "0.397"})
    text = ("Neither HCC (adjusted HR 0.82, 95% CI 0.66-1.02, p = 0.078) nor ICC (HR 1.67, "
            "0.51-5.51, p = 0.397) differed significantly between the drugs.")
    assert [c.direction for c in analyze(study, text).claims if c.outcome] == ["null", "null"]
    assert score(study, text, "direction_of_effect") == 1


def test_a_negation_ends_the_reach_of_an_earlier_cue() -> None:
    """"raised (HR 1.1), and no specific category, including A or B, showed a clear
    difference": the categories are not "raised"."""
    study = study_of({"outcome.any_disorder_bin!HR": "1.1 (1.0, 1.1)",
                      "outcome.psychotic_disorders_bin!HR": "0.8 (0.4, 1.7)"})
    text = ("The risk of any disorder was only marginally raised (HR 1.1), and no specific "
            "category, including psychotic disorders (0.8), showed a clear difference.")
    assert score(study, text, "direction_of_effect") == 1


def test_a_list_item_with_its_own_value_keeps_it() -> None:
    """"eGFR change +1.81, eGFR slope +0.67/year, and albuminuria lower": "lower" is only
    albuminuria's."""
    study = study_of(EGFR)
    text = ("eGFR change +1.81 (p < 0.0001), eGFR slope +0.67/year (p < 0.0001), and "
            "albuminuria lower by 44.3 mg/g (p < 0.0001).")
    assert score(study, text, "direction_of_effect") == 1
    claims = {c.outcome.name: c.direction for c in analyze(study, text).claims if c.outcome}
    assert claims["albuminuria"] == "lower" and claims["egfr change"] is None


def test_a_hedge_after_the_next_outcome_is_that_outcomes() -> None:
    """"A was 10% lower (HR 0.90, p = 0.02), and B was not significantly different": the
    hedge is B's, not A's."""
    study = study_of(THREE)
    claims = {c.outcome.key: c for c in analyze(study, REPORTED).claims if c.outcome}
    assert claims["outcome_12mo.all_cause_hospitalization_bin"].hedged is False
    assert claims["outcome_12mo.all_cause_hospitalization_bin"].significant is True
    text = ("All-cause hospitalization within 12 months was lower with drug A and "
            "heart-failure hospitalization was not significantly different.")
    claims = {c.outcome.key: c for c in analyze(study, text).claims if c.outcome}
    assert claims["outcome_12mo.all_cause_hospitalization_bin"].hedged is False


def test_a_group_defined_at_baseline_is_not_a_baseline_statement() -> None:
    """"patients who had nodules at baseline lived longer": a claim about the outcome, the
    group being defined at baseline ("Nodules present at baseline")."""
    study = study_of({"outcome.all_cause_death_bin!HR": "2.19 (1.18, 4.05)"},
                     intervention="Nodules present at baseline", control="No nodules at baseline")
    text = ("Patients who had nodules at baseline lived longer than those without: the hazard "
            "of death was 2.19.")
    assert score(study, text, "direction_of_effect") == 0


# ---------------------------------------------------------------- numbers

def _ratio_study(value: str) -> Study:
    return study_of({"outcome.suicide_bin!RR": f"{value} (1.2, 9.9)"})


def test_multiples_with_their_qualifiers() -> None:
    """"nearly N times" is up to 15% under N, "more than N times" from N to 1.5 N, a plain or
    hedged "N times" within 10%; "N and a half", "half again" and "more than doubled" too."""
    cases = [("1.86", "nearly three times", 0), ("2.72", "almost three times", 1),
             ("2.71", "more than three times", 0), ("6.58", "more than six times", 1),
             ("2.67", "more than two and a half times", 1), ("2.21", "more than double", 1),
             ("1.52", "about half again as", 1), ("1.90", "about half again as", 0),
             ("3.21", "about three times", 1), ("4.67", "about three times", 0)]
    for value, words, expected in cases:
        text = f"Drug A users had {words} the risk of suicide (RR {value})."
        assert score(_ratio_study(value), text, "numbers_accurate") == expected, words


def test_a_dose_three_times_a_day_is_not_a_multiple() -> None:
    study = study_of({"outcome.suicide_bin!RR": "1.86 (1.2, 9.9)"},
                     intervention="Drug A three times a day")
    text = "Drug A, taken three times a day, raised the risk of suicide (RR 1.86)."
    assert score(study, text, "numbers_accurate") == 1


def test_a_multiple_is_checked_against_the_estimate_written_after_it() -> None:
    """"about twice as high in A (PR 2.12), about three times in B (PR 3.21)": each against
    the outcome whose estimate follows it, not the last name of the sentence."""
    study = study_of({"outcome.nafld.overweight_bin!RR": "2.12 (1.77, 2.55)",
                      "outcome.nafld.obese_bin!RR": "3.21 (2.66, 3.86)"})
    text = ("NAFLD was about twice as high in overweight adults (PR 2.12) and about three "
            "times as high in obese adults (PR 3.21).")
    assert score(study, text, "numbers_accurate") == 1
    text = text.replace("about three", "about four")
    assert score(study, text, "numbers_accurate") == 0


def test_a_share_in_words_against_the_share_written_beside_it() -> None:
    """Within five percentage points: "roughly three quarters (81.3%)" is wrong, "just over
    half (53.8%)" and "seven in ten (69%)" are right."""
    study = study_of({"outcome.early_detachment_bin!N": "13/16",
                      "outcome.major_bleed_bin!PCT": "53.8", "outcome.remission_bin!PCT": "69"},
                     design="case_series")
    wrong = "Roughly three quarters of the detachments (13/16, 81.3%) occurred early."
    assert score(study, wrong, "numbers_accurate") == 0
    right = "Just over half (53.8%) had a major bleed and roughly seven in ten (69%) remitted."
    assert score(study, right, "numbers_accurate") == 1


def test_the_groups_total_is_not_a_number_of_the_prompt() -> None:
    study = study_of({"outcome.stroke_bin!HR": "0.76 (0.64, 0.90)"}, sizes=(1900, 5348))
    assert score(study, "Among 7,248 adults, 1,900 took drug A and 5,348 placebo.",
                 "numbers_accurate") == 0
    assert score(study, "1,900 adults took drug A and 5,348 placebo.", "numbers_accurate") == 1


def test_the_95_of_a_95_percent_interval() -> None:
    study = study_of({"outcome.stroke_bin!RR": "0.94 (0.77, 1.15)"})
    text = "Stroke was similar (RR 0.94), the 95% interval (0.77-1.15) including one."
    assert score(study, text, "numbers_accurate") == 1


def test_an_estimate_of_another_timepoint_of_the_named_outcome() -> None:
    """"10-year cardiovascular mortality (HR 2.46)" with 2.46 the 5-year HR."""
    study = study_of({"outcome_5yrs.cvd_death_bin!HR": "2.46 (0.91, 6.71)",
                      "outcome_10yrs.cvd_death_bin!HR": "2.28 (1.17, 4.46)",
                      "outcome_10yrs.all_cause_death_bin!HR": "2.12 (1.33, 3.37)"})
    text = ("Nodules were associated with higher all-cause mortality at 10 years (HR 2.12) and "
            "with 10-year cardiovascular mortality (HR {}, 1.17-4.46).")
    assert score(study, text.format("2.46"), "numbers_accurate") == 0
    assert score(study, text.format("2.28"), "numbers_accurate") == 1


def test_a_share_written_for_another_outcome() -> None:
    """"major bleeding 69%; complete remission 53.8%" when the shares are the other way
    round; "infection (3.3%)" when 3.3% is hemorrhage's."""
    study = study_of({"outcome.major_bleeding_bin!PCT": "53.80",
                      "outcome.complete_remission_bin!PCT": "69",
                      "outcome.death_bin!PCT": "26.90"}, design="case_series")
    right = "Outcomes: major bleeding 53.8%; complete remission 69%; death 26.9%."
    assert score(study, right, "numbers_accurate") == 1
    wrong = "Outcomes: major bleeding 69%; complete remission 53.8%; death 26.9%."
    verdict = judge(study, wrong, "numbers_accurate")
    assert verdict.score == 0 and "written for major bleeding" in verdict.explanation


def test_a_share_written_for_another_timepoint() -> None:
    """"complete remission was achieved by 58.2% at five years" when 58.2% is the 2-year
    rate; "from 32.7% at 6 months to 69.7% at 12 months" is right."""
    study = study_of({"outcome_2yrs.complete_remission_bin!PCT": "58.2",
                      "outcome_5yrs.complete_remission_bin!PCT": "46.6",
                      "outcome_2yrs.free_of_medication_bin!PCT": "76.6"}, design="case_series")
    text = ("76.6% were free of medication at 2 years, and complete remission was achieved by "
            "{}% at five years.")
    assert score(study, text.format("46.6"), "numbers_accurate") == 1
    assert score(study, text.format("58.2"), "numbers_accurate") == 0
    text = "Complete remission went from 58.2% at 2 years to 46.6% at 5 years."
    assert score(study, text, "numbers_accurate") == 1


def test_a_baseline_value_given_to_the_other_group_by_the_clauses_layout() -> None:
    """"41.2 years in the controls and 40.9 years in the 1,066 patients with MS" when 41.2 is
    the MS group's mean age; "Women 23.6% in the reduced-dose group vs 34.0% with standard
    dose" when it is the other way round."""
    study = study_of(PSYCH, intervention="Multiple sclerosis", control="No multiple sclerosis",
                     sizes=(1066, 3198),
                     baseline={"age_mean_years": "control 40.93 vs intervention 41.20"})
    text = "Mean age was {} years in the controls and {} years in the 1,066 patients with MS."
    assert score(study, text.format("40.9", "41.2"), "numbers_accurate") == 1
    assert score(study, text.format("41.2", "40.9"), "numbers_accurate") == 0
    study = study_of(PSYCH, intervention="Off-label reduced-dose DOAC",
                     control="Standard-dose DOAC",
                     baseline={"female_pct": "control 23.6 vs intervention 34.0"})
    text = "Women {}% in the reduced-dose group vs {}% with standard dose."
    assert score(study, text.format("34.0", "23.6"), "numbers_accurate") == 1
    assert score(study, text.format("23.6", "34.0"), "numbers_accurate") == 0


def test_a_count_whose_phrase_names_both_groups_is_not_placed() -> None:
    """"18,847 healthy siblings of children with type 1 diabetes": "healthy" is a word of the
    control, the phrase is the intervention; the number is not read as either's."""
    study = study_of({"outcome.any_disorder_bin!HR": "1.1 (1.0, 1.1)"}, sizes=(18847, 1077951),
                     intervention="Sibling of a patient with type 1 diabetes",
                     control="Sibling of a healthy individual")
    text = ("18,847 healthy siblings of children with type 1 diabetes were compared with "
            "1,077,951 siblings of healthy individuals.")
    assert score(study, text, "numbers_accurate") == 1


def test_compared_names_the_reference_only_with_with() -> None:
    """"compared 28,563 recent users with 4,610 adults who did not use": the first count is
    the users' (here the sizes are swapped)."""
    study = study_of({"outcome.mi_bin!OR": "2.07 (1.12, 3.82)"}, sizes=(4610, 28563),
                     intervention="Recent cannabis use", control="No recent cannabis use")
    text = ("The analysis compared {} recent cannabis users with {} adults who did not use "
            "cannabis.")
    assert score(study, text.format("4,610", "28,563"), "numbers_accurate") == 1
    assert score(study, text.format("28,563", "4,610"), "numbers_accurate") == 0


def test_a_word_of_another_outcome_before_the_number_makes_it_ambiguous() -> None:
    """"any bleeding (...) or BARC 2, 3 or 5 bleeding (HR 0.85)": the juror finds only "any
    bleeding", but "BARC" names the other outcome, whose value 0.85 is."""
    barc = "outcome.clinically_relevant_bleeding_barc_2_3_5_bin!HR"
    study = study_of({"outcome.any_bleeding_bin!HR": "0.91 (0.78, 1.06)",
                      barc: "0.85 (0.66, 1.08)"})
    text = ("There was no significant difference in any bleeding (HR 0.91, 0.78-1.06) or BARC "
            "2, 3 or 5 bleeding (HR 0.85, 0.66-1.08).")
    assert score(study, text, "numbers_accurate") == 1
    moved = "There was no significant difference in any bleeding (HR 0.85, 0.66-1.08)."
    assert score(study, moved, "numbers_accurate") == 0


def test_a_p_bound_after_the_names_own_bracket_is_the_names() -> None:
    """"dementia HR 0.60 (0.40-0.89), p < 0.01" holds for dementia (p = 0.011), not for the
    composite named earlier in the sentence."""
    study = study_of({"outcome.composite_bin!HR": "0.60 (0.49, 0.73)",
                      "outcome.composite_bin!pvalue": "<0.001",
                      "outcome.dementia_bin!HR": "0.60 (0.40, 0.89)",
                      "outcome.dementia_bin!pvalue": "0.011"})
    text = ("Lower with drug A: composite HR 0.60 (0.49-0.73), p < 0.001; dementia HR 0.60 "
            "(0.40-0.89), p < {}.")
    assert score(study, text.format("0.05"), "numbers_accurate") == 1
    assert score(study, text.format("0.01"), "numbers_accurate") == 0


# ---------------------------------------------------------------- subgroups and composites

PHQ = {"outcome_6mo.phq9_change_cont!MD": "-4.2", "outcome_6mo.phq9_change_cont!pvalue": "<0.001",
       "outcome_6mo.phq9_change.failed_4plus_antidepressants_cont!MD": "-3.2",
       "outcome_6mo.phq9_change.failed_4plus_antidepressants_cont!pvalue": "<0.001"}


def _phq() -> Study:
    return study_of(PHQ, design="case_series", intervention="Usual care",
                    control="Same patients at baseline")


def test_a_qualifier_before_the_name_scopes_it() -> None:
    """"Among patients who had failed four or more antidepressants, PHQ-9 improved": the
    subgroup; the overall change only "also calculated" is not reported."""
    text = ("Among patients who had failed four or more antidepressants, PHQ-9 scores improved "
            "by 3.2 points (p < 0.001). The overall change in PHQ-9 was also calculated.")
    keys = [c.outcome.key for c in analyze(_phq(), text).claims if c.outcome and c.cue]
    assert keys == ["outcome_6mo.phq9_change.failed_4plus_antidepressants_cont"]
    assert score(_phq(), text, "completeness") == 0


def test_a_qualifier_further_on_is_a_claim_of_its_own() -> None:
    """"PHQ-9 rose by 4.2 points (p < 0.001) and by 3.2 points in patients with four or more
    failed antidepressants (p < 0.001)": "PHQ-9 rose" is the whole group's, and the subgroup,
    named by its qualifier alone, rose too."""
    text = ("PHQ-9 rose by 4.2 points over six months (p < 0.001) and by 3.2 points in patients "
            "with four or more failed antidepressants (p < 0.001).")
    claims = {c.outcome.key: c.direction for c in analyze(_phq(), text).claims if c.cue}
    assert claims == {"outcome_6mo.phq9_change_cont": "higher",
                      "outcome_6mo.phq9_change.failed_4plus_antidepressants_cont": "higher"}
    assert score(_phq(), text, "completeness") == 1
    assert score(_phq(), text, "direction_of_effect") == 0
    # one word of the qualifier ("failed medication trials") does not name the subgroup
    text = ("In patients with on average 3.1 failed medication trials, PHQ-9 fell by 4.2 points "
            "(p < 0.001).")
    assert score(_phq(), text, "completeness") == 0


def test_a_count_of_patients_is_not_a_result() -> None:
    """"PHQ-9 outcomes were reviewed for 583 patients": only named."""
    text = ("PHQ-9 outcomes were reviewed for 583 patients. In patients who had failed four or "
            "more antidepressants PHQ-9 fell by 3.2 points (p < 0.001).")
    verdict = judge(_phq(), text, "completeness")
    assert verdict.score == 0 and "only named" in verdict.explanation


def test_or_more_after_a_number_is_a_bound_not_a_claim() -> None:
    study = study_of({"outcome.remission_bin!HR": "1.5 (1.1, 2.0)",
                      "outcome.remission_bin!pvalue": "0.01"})
    analysis = analyze(study, "In patients aged 65 or older, remission was more frequent.")
    assert [c.cue.quote for c in analysis.claims if c.cue] == ["more"]


def test_the_components_listed_after_a_composite_are_not_claims() -> None:
    """"a lower composite of cognitive decline, dementia and Alzheimer's disease": the
    components describe the composite, so "lower" is not Alzheimer's (p = 0.097)."""
    study = study_of({"outcome.neurocognitive_composite_bin!HR": "0.60 (0.49, 0.73)",
                      "outcome.neurocognitive_composite_bin!pvalue": "<0.001",
                      "outcome.alzheimers_disease_bin!HR": "0.48 (0.19, 1.17)",
                      "outcome.alzheimers_disease_bin!pvalue": "0.097"})
    text = ("Drug A users had a lower composite of cognitive decline, dementia and Alzheimer's "
            "disease (HR 0.60, p < 0.001); Alzheimer's disease alone did not differ.")
    assert score(study, text, "direction_of_effect") == 1
    # the composite named by its own components is the composite
    study = study_of({"outcome.cardiac_death_or_hf_rehospitalization_bin!HR": "0.31 (0.1, 0.8)",
                      "outcome.cardiac_death_or_hf_rehospitalization_bin!pvalue": "0.019"})
    text = ("Drug A had a lower hazard of the composite of cardiac death or HF "
            "rehospitalization (HR 0.31, p = 0.019).")
    assert score(study, text, "completeness") == 1


def test_a_cue_word_inside_a_names_span_is_part_of_the_name() -> None:
    """"rehospitalization for worsening heart failure" names an outcome; "worsening" is not
    a claim that could be about the one left out."""
    study = study_of({"outcome.hf_rehospitalization_bin!HR": "0.27 (0.08, 0.94)",
                      "outcome.hf_rehospitalization_bin!pvalue": "0.039",
                      "outcome.cardiac_death_or_hf_rehospitalization_bin!HR": "0.31 (0.1, 0.8)",
                      "outcome.cardiac_death_or_hf_rehospitalization_bin!pvalue": "0.019"})
    text = ("Rehospitalization for worsening heart failure was lower with drug A (HR 0.27, "
            "p = 0.039).")
    verdict = judge(study, text, "completeness")
    assert verdict.score == 0 and "not mentioned" in verdict.explanation


def test_a_group_listed_after_a_compared_group_is_compared_too() -> None:
    """"UC patients were significantly less satisfied than MIC (...) and NPC (...)"."""
    study = study_of({"outcome.satisfaction_cont!MD": "7.3 (3.0, 11.6)",
                      "outcome.satisfaction_cont!pvalue": "0.001"},
                     intervention="Psychoeducation (NPC) or motivational interviewing (MIC)",
                     control="Usual care (UC)")
    text = ("UC patients were significantly less satisfied than MIC (M = 73.3, p = .001) and "
            "NPC (M = 75.2) patients.")
    assert _sides(study, text) == [("higher", True)]
    assert score(study, text.replace("less", "more"), "direction_of_effect") == 0


def test_two_cues_each_take_the_group_they_alone_reach() -> None:
    """"X improved in the azithromycin group and worsened in the placebo group"."""
    study = study_of({"outcome.weight_cont!MD": "-1.6 (-2.9, -0.3)",
                      "outcome.weight_cont!pvalue": "0.017"},
                     intervention="Lifestyle programme", control="Standard care")
    text = ("There was a significant weight decrease in the lifestyle programme group compared "
            "to a weight increase in the standard care group (p = 0.017).")
    assert {d for d, _ in _sides(study, text)} == {"lower"}
    flipped = text.replace("decrease", "gain").replace("increase", "decrease")
    assert score(study, flipped, "direction_of_effect") == 0


def test_a_control_word_joined_to_an_intervention_word_is_the_combination() -> None:
    """"5% KNO3 and diode laser" against the control "5% KNO3": the combination, the
    intervention."""
    study = study_of({"outcome.pain_cont!MD": "-2.1 (-3.0, -1.2)", "outcome.pain_cont!pvalue":
                      "0.001"}, intervention="Combined 5% KNO3 and diode laser",
                     control="5% potassium nitrate (KNO3)")
    text = "Synergistic use of 5% KNO3 and diode laser significantly reduced the pain."
    assert _sides(study, text) == [("lower", False)]


def test_a_role_word_names_a_group_only_as_itself() -> None:
    """"for controlling postoperative pain" does not name the control group."""
    study = study_of({"outcome.morphine_dose_cont!MD": "-6.6 (-9.0, -4.2)",
                      "outcome.morphine_dose_cont!pvalue": "0.001"},
                     intervention="Peritubal infiltration", control="Control")
    text = ("Morphine dose for controlling postoperative pain was significantly lower in the "
            "infiltration group (p = 0.001).")
    assert _sides(study, text) == [("lower", False)]


def test_a_change_verb_over_the_name_to_more_than() -> None:
    """"both doses reduced 24-h SBP more than OLM/HCTZ": a larger reduction, lower."""
    study = study_of({"outcome.sbp_cont!MD": "-3.0 (-5.6, -0.4)", "outcome.sbp_cont!pvalue":
                      "0.024"}, intervention="AZL-M/CTD (AZL)", control="OLM/HCTZ (OLM)")
    text = "At 8 weeks, AZL reduced 24-h SBP more than OLM (both P < 0.001)."
    assert score(study, text, "direction_of_effect") == 1
    assert score(study, text.replace("more", "less"), "direction_of_effect") == 0


# ---------------------------------------------------------------- the groups' own values

def _values_study(**kw: Any) -> Study:
    return study_of({"outcome.operation_time_cont!MD": "7.9 (5.0, 10.8)",
                     "outcome.operation_time_cont!pvalue": "0.01"}, **kw)


def test_group_values_over_their_sd_and_unit() -> None:
    """"24.25±3.41 (18-28) minutes in the TOS group and 16.30±1.65 minutes in the sling
    group (p<0.05)": the values say which group is higher."""
    study = _values_study(intervention="Transobturator sling (TOS)",
                          control="Single-incision sling")
    text = ("Mean operation time was {}±3.41 (18\u201328) minutes in the TOS group and {}±1.65 "
            "(14\u201320) minutes in the single-incision sling group (p<0.05).")
    assert score(study, text.format("24.25", "16.30"), "direction_of_effect") == 1
    assert score(study, text.format("16.30", "24.25"), "direction_of_effect") == 0


def test_a_group_the_study_does_not_name_beside_one_it_names_is_the_other() -> None:
    """"75% of the surgery group vs. 27.3% of the NSM group": NSM is the control, so the
    surgery group is the intervention."""
    study = study_of({"outcome.odi_improvement_bin!RR": "2.7 (1.5, 4.9)",
                      "outcome.odi_improvement_bin!pvalue": "<0.0001"},
                     intervention="SI joint fusion with titanium implants",
                     control="Non-surgical management (NSM)")
    text = "{}% of the surgery group vs. {}% of the NSM group had ODI improvement (p<.0001)."
    assert score(study, text.format("75", "27.3"), "direction_of_effect") == 1
    assert score(study, text.format("27.3", "75"), "direction_of_effect") == 0


def test_values_of_times_when_the_outcome_is_a_time() -> None:
    """"occurred at 17.5 h for A patients as compared to 22.9 h for B patients": with a time
    outcome, "at 17.5 h" is a value."""
    study = study_of({"outcome.time_to_relief_cont!MD": "-5.4 (-8.0, -2.8)",
                      "outcome.time_to_relief_cont!pvalue": "<0.001"},
                     intervention="Butoconazole cream", control="Oral fluconazole")
    text = ("The median time to relief occurred at {} h for butoconazole patients as compared "
            "to {} h for fluconazole patients (p < 0.001).")
    assert score(study, text.format("17.5", "22.9"), "direction_of_effect") == 1
    assert score(study, text.format("22.9", "17.5"), "direction_of_effect") == 0


def test_values_that_are_each_groups_change_over_time_are_not_compared() -> None:
    """"improved from 0.75 to 0.92 in the SM group, but not in the control group (0.79 to
    0.81)": changes within each group."""
    study = _values_study(intervention="Social media experience (SM)",
                          control="No social media experience")
    text = ("Operation time significantly improved from 0.75 to 0.92 in the SM group (p < "
            "0.001), but not in the control group (0.79 to 0.81; p = 0.56).")
    assert all(c.direction is None or not c.grounded for c in analyze(study, text).claims
               if c.outcome is not None)


def test_a_dose_of_the_groups_description_is_not_a_value() -> None:
    """"apremilast 20 (-5.9) and 30 mg (-4.4) compared with placebo (1.9)": 20 and 30 are
    the doses the description gives."""
    study = study_of({"outcome.dlqi_change_cont!MD": "-7.8 (-10.0, -5.6)",
                      "outcome.dlqi_change_cont!pvalue": "0.005"},
                     intervention="Apremilast 20 mg or 30 mg", control="Placebo")
    text = ("DLQI change was {} with apremilast 20 (\u22125.9) and 30 mg (\u22124.4) compared "
            "with placebo (1.9; P≤0.005).")
    assert score(study, text.format("lower"), "direction_of_effect") == 1


def test_but_not_names_the_contrasted_group() -> None:
    """"Telmisartan, but not losartan, significantly reduced FPG": telmisartan's claim."""
    study = study_of(FPG_STUDY, intervention="Telmisartan 80 mg", control="Losartan 50 mg")
    text = "Telmisartan, but not losartan, significantly (p < 0.05) reduced fasting glucose."
    assert _sides(study, text) == [("lower", False)]


def test_where_as_splits_like_whereas() -> None:
    study = study_of(FPG_STUDY, intervention="Slow breathing", control="No treatment")
    text = ("Those who received slow breathing showed significantly decreased fasting glucose, "
            "p = 0.001, where as those in the control group showed negligible differences.")
    assert _sides(study, text) == [("lower", False)]


def test_a_role_word_of_the_other_side_names_that_side() -> None:
    """With the control "standard intervention", "the intervention" alone is the
    intervention."""
    study = study_of(FPG_STUDY, intervention="E-therapeutic platform (Next.Step)",
                     control="Standard intervention")
    text = "Fasting glucose showed a significant decrease after the intervention (p = 0.01)."
    assert _sides(study, text) == [("lower", False)]


def test_double_blind_is_not_a_doubling() -> None:
    study = study_of(FPG_STUDY)
    text = "During the 78-week double-blind period fasting glucose was lower with drug A."
    assert [c.cue.quote for c in analyze(study, text).claims if c.cue] == ["lower"]


FPG_STUDY = {"outcome.fasting_glucose_cont!MD": "-6.3 (-10.5, -2.0)",
             "outcome.fasting_glucose_cont!pvalue": "0.004"}


def test_this_as_the_subject_refers_to_the_outcome_named_just_before() -> None:
    study = study_of(FPG_STUDY, intervention="CO eye mask (CO)", control="Saline (BSS)")
    text = ("Mean fasting glucose was 7.73 in the CO group. This was significantly lower than in "
            "the BSS group (P < 0.01).")
    assert [side for side in _sides(study, text) if side[0]] == [("lower", False)]
    assert score(study, text.replace("lower", "higher"), "direction_of_effect") == 0
