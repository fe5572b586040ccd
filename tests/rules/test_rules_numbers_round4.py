"""numbers_accurate: readings added in issue 14's round 4 (each test fails when its reading
breaks). The sentences are written for these tests, not copied from a labeled set."""

from __future__ import annotations

from pathlib import Path

from pytest_rwe.rules import judge
from pytest_rwe.rules.approximate import approximations_in
from pytest_rwe.rules.at_time import times_before
from pytest_rwe.study import Study, load_study

STUDIES = Path(__file__).resolve().parents[2] / "cases" / "studies"
YEAR = 365.25


def _study(study_id: str) -> Study:
    return load_study(STUDIES / f"{study_id}.json")


def _numbers(study_id: str, text: str) -> int:
    return judge(_study(study_id), text, "numbers_accurate").score


def test_a_fraction_with_its_share_in_a_bracket_is_checked_against_that_share() -> None:
    study = "bariatric_surgery_t2d_remission_sweden_registry_case_series"  # 69.9%, 58.2%
    assert _numbers(study, "Just over three-quarters (76.6%) needed no diabetes drugs at "
                           "two years.") == 1
    assert _numbers(study, "Just over two-thirds (69.9%) needed no diabetes drugs at five "
                           "years.") == 1
    assert _numbers(study, "Nearly three-quarters (58.2%) were in complete remission at two "
                           "years.") == 0


def test_a_share_with_a_side_word_admits_ten_points_on_that_side() -> None:
    [over] = approximations_in("just over half (56.3%) recovered")
    assert over.admits(56.3) and over.admits(60.0)
    assert not over.admits(49.0) and not over.admits(61.0)
    [under] = approximations_in("nearly a third of patients")
    assert under.admits(25.0) and not under.admits(34.0) and not under.admits(23.0)


def test_a_proportion_in_words_beside_an_estimate_in_its_bracket_is_about_that_estimate(
        ) -> None:
    study = "japan_prepregnancy_obesity_vs_normal_weight_pregnancy_outcomes"  # SGA OR 0.790
    text = ("Small-for-gestational-age babies were less frequent (OR 0.79, {} lower) and "
            "caesarean delivery more frequent.")
    assert _numbers(study, text.format("roughly a fifth")) == 1
    assert _numbers(study, text.format("about a third")) == 0
    # after a semicolon inside the bracket too
    other = ("Obese women had higher odds of gestational diabetes (OR 6.58; {} times) and of "
             "pregnancy-induced hypertension.")
    assert _numbers(study, other.format("more than six")) == 1
    assert _numbers(study, other.format("about three")) == 0


def test_the_upper_word_of_a_range_is_checked_against_the_largest_estimate() -> None:
    study = "nsduh_sleep_apnea_mental_health_service_use_unmet_need"  # service use 2.12-2.77
    text = ("Mental health service use was two to {} three times as likely with sleep apnea "
            "(ORs 2.12 to 2.77).")
    assert _numbers(study, text.format("nearly")) == 1
    assert _numbers(study, text.format("more than")) == 0
    plain = "Service use was {} times as common (odds ratios 2.12 to 2.77)."
    assert _numbers(study, plain.format("two to three")) == 1
    assert _numbers(study, plain.format("between two and almost three")) == 1
    assert _numbers(study, plain.format("two to four")) == 0


def test_a_year_written_short_after_a_year_is_that_year() -> None:
    study = "noar_rf_positive_inflammatory_polyarthritis_mortality"  # registered 1990-1994
    assert _numbers(study, "Patients were registered 1990-94 and followed to 2004.") == 1
    assert _numbers(study, "Patients were registered 1990-97 and followed to 2004.") == 0


def test_the_last_time_phrase_before_a_value_gives_its_time_point() -> None:
    study = "noar_nodules_inflammatory_polyarthritis_mortality"  # 5y 2.19/2.46, 10y 2.12/2.28
    right = ("Nodules, 5-yr: all-cause death HR 2.19, CVD death HR 2.46; 10-yr: all-cause "
             "death HR 2.12, CVD death HR 2.28.")
    swapped = ("Nodules, 5-yr: all-cause death HR 2.19; 10-yr: all-cause death HR 2.12, CVD "
               "death HR 2.46.")
    assert _numbers(study, right) == 1
    assert _numbers(study, swapped) == 0
    listed = ("Deaths from any cause were more than doubled at both 5 and 10 years of "
              "follow-up (HRs 2.19 and 2.12).")
    assert _numbers(study, listed) == 1
    assert times_before("within 5 and within 10 years (HRs ") == {5 * YEAR, 10 * YEAR}
    assert times_before("at 5 years HR 2.12 and at 10 years HR ") == {10 * YEAR}
    # a time phrase inside a closed bracket, or right after an earlier value, is that value's
    assert times_before("CVD death (5-year HR 2.95; 10-year HR 1.99), and all-cause death "
                        "(HR ") == frozenset()
    assert times_before("all-cause HR 2.12 (1.33-3.37) at 10 yrs; CVD death HR ") == frozenset()
    assert _numbers(study, "All-cause death HR 2.19 (1.18-4.05) at 5 yrs and 2.12 (1.33-3.37) "
                           "at 10 yrs; CVD death HR 2.46 (0.91-6.71) at 5 yrs.") == 1


def test_an_estimate_of_an_outcome_named_in_other_words_is_not_a_moved_bound() -> None:
    study = "sweden_t1d_children_psychiatric_disorders_diagnosed_1987_1996"  # mood 2.0 (1.6,
    # 2.6); anxiety, stress-related and somatoform disorders 1.6
    text = ("Risks were raised for mood disorders (HR 2.0) and for nervous conditions "
            "(HR 1.6).")
    assert _numbers(study, text) == 1
    assert _numbers(study, "Risks were raised for mood disorders (HR 1.6).") == 0


def test_a_name_counted_as_several_outcomes_takes_each_of_their_values() -> None:
    study = "fuwai_pci_high_thrombotic_risk_ischemic_outcomes"  # any/TVR/TLR 1.42/1.47/1.50
    assert _numbers(study, "High-risk features raised the hazard of all three "
                           "revascularization outcomes (HR 1.42-1.50).") == 1
    assert _numbers(study, "High-risk features raised the hazard of revascularization "
                           "(HR 1.50).") == 0


def test_a_time_point_right_after_a_value_is_not_the_next_values() -> None:
    study = "long_limb_gastric_bypass_metabolic_syndrome_remission_case_series"
    # remission 32.7% at 6, 69.7% at 12, 63.4% at 24, 59.2% at 36 months
    assert _numbers(study, "Metabolic syndrome remission was 32.7% at 6 months, 69.7% at 12, "
                           "63.4% at 24 and 59.2% at 36 months.") == 1
    assert _numbers(study, "Metabolic syndrome remission was 32.7% at 6 months and 69.7% at "
                           "24 months.") == 0


def test_a_design_count_of_one_sex_written_for_the_other_is_caught() -> None:
    students = "vnu_freshmen_family_history_prehypertension_hypertension"  # 394 men, 446 women
    assert _numbers(students, "The 840 freshmen (394 men and 446 women) were surveyed.") == 1
    assert _numbers(students, "The 840 freshmen (446 men and 394 women) were surveyed.") == 0
    surgery = "bariatric_surgery_t2d_remission_sweden_registry_case_series"  # 61.7% women
    assert _numbers(surgery, "Of the 8,546 patients, 61.7% were women.") == 1
    assert _numbers(surgery, "Of the 8,546 patients, 61.7% were male.") == 0


def test_a_subgroups_share_written_as_everyones_is_caught() -> None:
    study = "turkey_maintenance_hemodialysis_covid19_hospitalized_case_series"
    # 67.9%: mechanical ventilation among the ICU patients; 16.3%: in-hospital death
    assert _numbers(study, "Of those admitted to intensive care, 67.9% were ventilated.") == 1
    assert _numbers(study, "Mechanical ventilation was needed by 67.9% of all patients.") == 0
    assert _numbers(study, "Ventilation: 67.9% of the cohort.") == 0
    assert _numbers(study, "In-hospital mortality was 16.3% of the cohort.") == 1


def test_a_share_followed_by_a_subgroups_words_is_that_subgroups() -> None:
    study = "h_pylori_infection_diabetes_beijing_cross_sectional"  # positive 8.9%, negative 7.8%
    text = "Crude diabetes prevalence: {} H. pylori-positive adults, {} H. pylori-negative."
    assert _numbers(study, text.format("8.9%", "7.8%")) == 1
    assert _numbers(study, text.format("7.8%", "8.9%")) == 0


def test_a_name_found_with_a_word_of_the_summarys_inside_is_not_a_sure_reading() -> None:
    study = "fuwai_pci_high_thrombotic_risk_ischemic_outcomes"  # cardiac death 1.85
    assert _numbers(study, "Deaths from heart-related causes were more common (HR 1.85).") == 1
    assert _numbers(study, "Deaths from any cause were more common (HR 1.85).") == 0
