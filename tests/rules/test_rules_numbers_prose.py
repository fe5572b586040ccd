"""numbers_accurate on constructions of real prose (issue 14): each test fails when its
behaviour breaks. The summaries are written for these tests, not copied from labeled sets."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_rwe.rules import judge
from pytest_rwe.rules.approximate import approximations_in
from pytest_rwe.rules.at_time import written_time
from pytest_rwe.rules.consistency import estimates_outside_interval, shares_unlike_counts
from pytest_rwe.rules.number_mentions import numbers_in
from pytest_rwe.study import Study, load_study, parse_study

STUDIES = Path(__file__).resolve().parents[2] / "cases" / "studies"


def _study(study_id: str) -> Study:
    return load_study(STUDIES / f"{study_id}.json")


def _numbers(study_id: str, text: str) -> int:
    return judge(_study(study_id), text, "numbers_accurate").score


@pytest.mark.parametrize("text", ["diabetes PR 1.25 (1.33-1.74)", "HR 1.5 (1.1, 1.4)",
                                  "OR 0.80; 95% CI 0.85 to 1.20", "HR 2.0, 95% CI: 1.1, 1.5"])
def test_an_estimate_outside_its_own_interval_is_found(text: str) -> None:
    assert len(estimates_outside_interval(text)) == 1


@pytest.mark.parametrize("text", ["HR 1.44 (1.40-1.47)", "HR 1.44, 1.40-1.47",
                                  "HRs 0.70, 0.74, 0.76", "HRs 0.70, 0.74 and 0.76",
                                  "MD -0.94 (-3.00 to 1.12)", "HR 1.33 (1.15, 1.55)",
                                  "OR 1.29; 95% CI 1.08 to 1.54", "HR 1.03 (0.996-1.07)",
                                  "HR 1.0 (1.0-1.1)",
                                  "mean difference of 5.7 (95% CI -6.5 to -4.9)"])
def test_an_estimate_inside_its_interval_or_a_list_is_not(text: str) -> None:
    assert estimates_outside_interval(text) == []


@pytest.mark.parametrize(("text", "wrong"), [
    ("6/23 (35.2%)", True), ("25% (7/37)", True), ("9 of 37 (19%)", True),
    ("20/23 (86.9%)", False), ("15/23 (65.2%)", False), ("16 of 108, 14.8%", False),
    ("598 of 739 (81%)", False), ("19% (7/37)", False), ("142/86 mmHg (40%)", False)])
def test_a_share_must_be_its_own_count(text: str, wrong: bool) -> None:
    assert bool(shares_unlike_counts(text)) is wrong


def test_self_contradiction_fails_numbers_even_when_each_number_is_in_the_study() -> None:
    # 1.25 is hypertension's upper limit, so only the pair betrays it
    study = "nhanes3_diabetes_insulin_resistance_nafld_prevalence_ratio"
    right = "Diabetes was linked to NAFLD (PR 1.52, 1.33-1.74)."
    assert _numbers(study, right) == 1
    assert _numbers(study, "Diabetes was linked to NAFLD (PR 1.25, 1.33-1.74).") == 0


def test_a_fraction_of_the_risk_is_a_ratio() -> None:
    [third] = [a for a in approximations_in("roughly a third of the risk of hypomagnesemia")
               if a.kind == "ratio"]
    assert third.admits(0.34) and not third.admits(0.49)
    study = "legend_htn_hydrochlorothiazide_vs_chlorthalidone_metabolic"
    assert _numbers(study, "Hydrochlorothiazide carried about a third of the risk of "
                    "hypokalemia (HR 0.36).") == 1
    assert _numbers(study, "Hydrochlorothiazide carried about a third of the risk of "
                    "hypomagnesemia (HR 0.49).") == 0


def test_one_patient_in_seven_is_a_share() -> None:
    [share] = approximations_in("about one patient in seven (16 of 108, 14.8%)")
    assert share.kind == "share" and share.admits(14.8) and not share.admits(25.0)


def test_above_is_a_p_value_bound() -> None:
    [number] = [n for n in numbers_in("all p-values above 0.25") if n.value == 0.25]
    assert number.operator == ">"
    study = "covid_hcq_azithro_vs_no_hcq_veterans"
    assert _numbers(study, "No outcome differed significantly (death HR 1.31, ventilation HR "
                    "1.09), with all p-values above 0.25.") == 1
    assert _numbers(study, "Death did not differ significantly (HR 1.31, p above 0.5).") == 0


def test_a_value_of_a_nested_outcome_name_is_not_a_misattribution() -> None:
    # "fatal" may be fatal bleeding or "fatal or nonfatal major bleeding": not a sure error
    study = "cancer_outcomes_after_cardiac_hospital_discharge"
    text = ("Patients with cancer had more bleeding of every kind examined: fatal (HR 1.33), "
            "fatal or nonfatal major (HR 1.45) and gastrointestinal (HR 1.35).")
    assert _numbers(study, text) == 1
    # a value moved between unrelated outcomes is still caught
    assert _numbers(study, "Cancer was linked to more venous thromboembolism (HR 1.44).") == 0


def test_a_share_between_two_outcomes_is_not_given_to_the_first() -> None:
    study = "esc_eorp_peripartum_cardiomyopathy_registry_6mo_case_series"
    text = ("At six months 6% had died, 42% of the deaths from heart failure and 30% sudden "
            "- 10% had been readmitted and 7% had a thromboembolic event.")
    assert _numbers(study, text) == 1
    assert _numbers(study, "At six months 17% had a thromboembolic event.") == 0


def test_a_share_the_study_prints_for_its_count_is_accepted() -> None:
    # the source prints 93/567 as 16.3% (16.40% exactly): copying it is right
    study = "turkey_maintenance_hemodialysis_covid19_hospitalized_case_series"
    assert _numbers(study, "In-hospital death occurred in 93/567 patients (16.3%).") == 1
    assert _numbers(study, "In-hospital death occurred in 93/567 patients (18.3%).") == 0
    assert _numbers(study, "ICU admission: 134/567 (16.3%).") == 0


def test_numbers_in_a_groups_own_parenthesis_are_that_groups() -> None:
    study = "shenzhen_osteoporosis_dementia_full_cohort"  # men: 27.5% with, 45.7% without
    text = ("Adults with osteoporosis (9,605 people, mean age 72.8, {}% men) versus no "
            "osteoporosis (166,545, mean age 70.5, {}% men) had more dementia (HR 1.80).")
    assert _numbers(study, text.format("27.5", "45.7")) == 1
    assert _numbers(study, text.format("45.7", "27.5")) == 0


def test_a_size_right_after_vs_is_the_named_groups() -> None:
    study = "lumbar_disc_herniation_surgery_vs_nonsurgery_disability_quality_of_life"
    text = "Surgery or not for disc herniation ({} operated vs {} nonsurgical patients)."
    assert _numbers(study, text.format("57", "71")) == 1
    assert _numbers(study, text.format("71", "57")) == 0


def test_sizes_the_juror_cannot_place_raise_no_alarm() -> None:
    # "1,402 without": the group "cancer" already has its number
    assert _numbers("aspera_r_cancer_breakthrough_stroke_on_oac",
                    "In this registry (247 with cancer, 1,402 without), outcomes were "
                    "compared at 90 days.") == 1
    # both sides read as the same group: the reader cannot tell them apart
    assert _numbers("h_pylori_infection_diabetes_daiko_japan_cross_sectional",
                    "Participants: 1,878 antibody-positive vs 3,287 antibody-negative.") == 1


def test_a_value_written_for_another_timepoint_is_caught() -> None:
    study = "iscgm_t2d_basal_or_oral_therapy_case_series"  # -0.4 at 3 months, -0.6 at 6
    assert _numbers(study, "HbA1c fell by 0.4 at 3 months and by 0.6 at 6 months.") == 1
    assert _numbers(study, "HbA1c fell by 0.6 at 3 months and by 0.4 at 6 months.") == 0
    assert _numbers(study, "HbA1c dropped 0.6% by three months (p = 0.003).") == 0
    assert _numbers(study, "At 3 months HbA1c was 0.6 points lower than at baseline.") == 0
    assert _numbers(study, "At 6 months HbA1c was 0.6 points lower than at baseline.") == 1


def test_a_timepoint_after_the_next_value_is_not_the_first_values() -> None:
    study = "noar_nodules_inflammatory_polyarthritis_mortality"
    text = ("All-cause death HR 2.19 (1.18-4.05) at 5 yrs and 2.12 (1.33-3.37) at 10 yrs; CVD "
            "death HR 2.46 (0.91-6.71) at 5 yrs and 2.28 (1.17-4.46) at 10 yrs.")
    assert _numbers(study, text) == 1
    # a phrase before the value reaches it only when nothing links it to an earlier one
    [later] = [n for n in numbers_in("HR 2.19 at 5 years and 2.12 overall") if n.value == 2.12]
    assert written_time("HR 2.19 at 5 years and 2.12 overall", later) is None
    [first] = [n for n in numbers_in("At 5 years HbA1c fell by 2.12") if n.value == 2.12]
    assert written_time("At 5 years HbA1c fell by 2.12", first) == 5 * 365.25


def test_a_ratio_with_the_groups_swapped_is_its_inverse() -> None:
    study = "legend_htn_dihydropyridine_ccbs_vs_non_dihydropyridine_ccbs_cardiovascular"
    text = ("Compared with dihydropyridine CCBs, non-dihydropyridine CCBs carried a higher risk "
            "of heart failure hospitalisation (HR {}, 95% CI 1.30-1.72).")  # 0.66 (0.58, 0.77)
    assert _numbers(study, text.format("1.52")) == 1
    assert _numbers(study, text.format("1.62")) == 0


def test_a_fraction_after_cut_by_is_a_reduction() -> None:
    [cut] = approximations_in("with the risk cut by more than two-thirds (HR 0.37)")
    assert cut.kind == "reduction" and not cut.admits(0.63) and cut.admits(0.70)
    [rose] = approximations_in("the odds rose by a quarter (OR 1.26)")
    assert rose.kind == "increase" and rose.admits(0.26)


def test_a_number_after_other_words_is_not_bound_to_the_names_before_them() -> None:
    # "heart attacks" is not a name the juror knows; 0.80 is the MI hazard ratio
    study = "legend_htn_arbs_vs_non_dihydropyridine_ccbs_cardiovascular"
    text = ("People who started an ARB had fewer heart-failure admissions, lower cardiovascular "
            "and overall death rates, and 20% fewer heart attacks (HR 0.80).")
    assert _numbers(study, text) == 1


def test_an_approximation_word_inside_an_outcome_name_is_not_a_crash() -> None:
    # "double" of "the double product" is both the outcome's name and a word of proportion:
    # the outcome is neither before nor after it (an IndexError made the juror an error)
    key = "outcome.The.mean.level.of.the.double.product_cont"
    study = parse_study({
        "id": "double_product", "design": "cohort",
        "question": "How does drug C compare with drug B on the double product?",
        "picot": {"population": "adults", "intervention": "drug C", "control": "drug B",
                  "outcome": "the double product", "timeframe": "one day"},
        "results": {"intervention_size": None, "control_size": None,
                    "baseline_differences": {},
                    "outcomes": {f"{key}!MD": "-0.82 (-1.49, -0.15)",
                                 f"{key}!pvalue": "0.016"}}})
    text = ("The mean level of the double product was significantly lower in the group C "
            "patients when compared to group B patients (p = 0.002).")
    assert judge(study, text, "numbers_accurate").score in (0, 1)
