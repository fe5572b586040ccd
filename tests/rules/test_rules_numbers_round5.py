"""numbers_accurate: readings added in issue 14's round 5 (each test fails when its reading
breaks). The sentences are written for these tests, not copied from a labeled set."""

from __future__ import annotations

from pathlib import Path

from pytest_rwe.rules import judge
from pytest_rwe.rules.approximate import approximations_in
from pytest_rwe.rules.number_mentions import numbers_in
from pytest_rwe.rules.number_roles import names_digits, rate_base
from pytest_rwe.rules.text import Span
from pytest_rwe.study import Study, load_study

STUDIES = Path(__file__).resolve().parents[2] / "cases" / "studies"
SALERNO = "sacubitril_valsartan_vs_standard_therapy_hfref_salerno_12mo"  # HR 0.31, 0.27
LUMBAR = "lumbar_disc_herniation_surgery_vs_nonsurgery_disability_quality_of_life"
TMS = "tms_group_practice_mdd_phq9_change_case_series"  # 89 patients, MD -5.7 and -5.8
BDHS = "bdhs_2011_vs_2017_18_hypertension_diabetes_prevalence_change"  # +13 points
CARDIAC = "cancer_outcomes_after_cardiac_hospital_discharge"  # cancer death HR 5.33


def _study(study_id: str) -> Study:
    return load_study(STUDIES / f"{study_id}.json")


def _numbers(study_id: str, text: str) -> int:
    return judge(_study(study_id), text, "numbers_accurate").score


def test_a_hedge_before_an_article_still_hedges_the_number() -> None:
    [number] = numbers_in("about a 70% lower risk")
    assert number.hedged
    assert numbers_in("roughly an 8% rise")[0].hedged
    assert not numbers_in("a 70% lower risk")[0].hedged
    # HR 0.31 is a 69% reduction: "about 70%" holds, "about 60%" does not
    text = ("Sacubitril/valsartan users had about a {}% lower risk of cardiac death or heart "
            "failure rehospitalization (HR 0.31).")
    assert _numbers(SALERNO, text.format(70)) == 1
    assert _numbers(SALERNO, text.format(60)) == 0


def test_thousands_written_with_k_are_thousands() -> None:
    [number] = numbers_in("175k patients")
    assert number.value * number.scale == 175_000
    assert _numbers(TMS, "Of 0.089k patients, scores fell by 5.7 points.") == 1
    assert _numbers(TMS, "Of 0.12k patients, scores fell by 5.7 points.") == 0


def test_more_than_halved_is_a_ratio_under_one_half() -> None:
    [halved] = approximations_in("the risk was more than halved")
    assert halved.kind == "reduction" and halved.admits(0.52) and not halved.admits(0.45)
    [nearly] = approximations_in("the risk was nearly halved")
    assert nearly.admits(0.47) and not nearly.admits(0.55)
    # "more than half the risk" is the ratio itself, over one half
    [half] = approximations_in("more than half the risk")
    assert half.kind == "ratio" and half.admits(0.6)
    text = "Heart failure readmissions were {} with sacubitril/valsartan (HR 0.27)."
    assert _numbers(SALERNO, text.format("more than halved")) == 1
    assert _numbers(SALERNO, text.format("nearly halved")) == 0


def test_the_base_of_a_rate_is_not_a_value() -> None:
    def number(text: str, at: int = -1) -> tuple[str, bool]:
        return text, rate_base(text, numbers_in(text)[at])

    assert number("13 more for every 100 adults")[1]
    assert number("2.1 events per 1,000 person-years")[1]
    assert not number("13 more for every 37 adults")[1]  # not a power of ten
    assert not number("13 more in 100 adults")[1]  # no "per" / "for every"
    text = "For every {} adults, about 13 more had high blood pressure in the later survey."
    assert _numbers(BDHS, text.format(100)) == 1
    assert _numbers(BDHS, text.format(40)) == 0


def test_a_spelled_number_that_explains_a_names_digits_is_not_a_value() -> None:
    clause = "On the PHQ-9, a nine-question checklist"
    [nine] = numbers_in(clause)  # "PHQ-9" is a name, not a number
    assert names_digits(nine, Span(0, len(clause), clause))
    other = "On the PHQ, a nine-question checklist"
    assert not names_digits(numbers_in(other)[0], Span(0, len(other), other))
    text = ("On the PHQ-9, a {}-question checklist, 89 patients improved by 5.7 points after "
            "TMS.")
    assert _numbers(TMS, text.format("nine")) == 1
    assert _numbers(TMS, text.format("seven")) == 0


def test_a_number_in_a_bracket_before_the_only_outcome_named_is_not_that_outcomes() -> None:
    text = ("The adjusted difference in K-ODI was -0.94 ({}) and in EQ-5D utility 0.00 "
            "(-0.04 to 0.04). Disability did not differ.")
    assert _numbers(LUMBAR, text.format("95% CI -3.00 to 1.12; p = 0.37")) == 1
    # a number the study does not hold is still wrong
    assert _numbers(LUMBAR, text.format("95% CI -3.40 to 1.12; p = 0.37")) == 0
    # the limits of one outcome written after the other's name are still moved numbers
    assert _numbers(LUMBAR, "EQ-5D utility did not differ (MD 0.00, 95% CI -3.00 to 1.12), "
                            "nor did disability.") == 0


def test_a_value_after_a_name_whose_words_another_outcome_shares_may_be_that_outcomes(
        ) -> None:
    # "death" is read as the study's "fatal or nonfatal major bleeding"; cancer death holds
    # the word too, and its HR is 5.33
    text = ("After discharge, patients with prior cancer had higher all-cause death (HR 1.44), "
            "Ca death (HR {}) and VTE (HR 1.58).")
    assert _numbers(CARDIAC, text.format("5.33")) == 1
    assert _numbers(CARDIAC, text.format("5.83")) == 0


SHENZHEN = "shenzhen_osteoporosis_dementia_full_cohort"  # AD p = 0.001; dementia p < 0.001
LU177 = "lu177_psma617_hematotoxicity_mcrpc_case_series"  # leukopenia 5 (3.6%), thrombo 6 (4.3%)
PPCM = "esc_eorp_peripartum_cardiomyopathy_registry_6mo_case_series"  # HF deaths 42%, sudden 30%


def test_a_strict_bound_is_not_met_by_its_own_value() -> None:
    text = "Osteoporosis was associated with Alzheimer's disease (HR 1.55, 1.20-2.00, p {})."
    assert _numbers(SHENZHEN, text.format("< 0.001")) == 0
    assert _numbers(SHENZHEN, text.format("= 0.001")) == 1
    assert _numbers(SHENZHEN, text.format("<= 0.001")) == 1
    assert _numbers(SHENZHEN, text.format("< 0.01")) == 1
    # a study value that is itself a bound ("<0.001") meets the same bound
    assert _numbers(SHENZHEN, "Osteoporosis was associated with all-cause dementia (HR 1.80, "
                              "p < 0.001).") == 1


def test_a_share_after_a_count_and_its_denominator_is_that_outcomes() -> None:
    text = "Grade 3 or worse toxicity: leukopenia {}/140 ({}%); thrombocytopenia {}/140 ({}%)."
    assert _numbers(LU177, text.format(5, 3.6, 6, 4.3)) == 1
    assert _numbers(LU177, text.format(6, 4.3, 5, 3.6)) == 0


def test_a_share_glued_to_the_name_it_counts_is_that_outcomes() -> None:
    text = "At six months 6% had died, of which {}% heart failure and {}% sudden death."
    assert _numbers(PPCM, text.format(42, 30)) == 1
    assert _numbers(PPCM, text.format(30, 42)) == 0
    # a change glued to a name is not a share of it
    assert _numbers(PPCM, "Readmission was 10%, a 42% readmission reduction on the year "
                          "before.") == 1


USUAL = "usual_care_group_practice_mdd_phq9_change_case_series"  # -4.2 overall, -3.2 subgroup


def test_a_time_between_a_label_and_its_value_keeps_the_value_an_estimate() -> None:
    text = ("In usual care the mean PHQ-9 change at 6 months was {} (p < 0.001), against {} "
            "(p < 0.001) in the subgroup with four or more failed antidepressants.")
    assert _numbers(USUAL, text.format("-4.2", "-3.2")) == 1
    assert _numbers(USUAL, text.format("-3.2", "-4.2")) == 0  # the changes swapped


CUD = "trinetx_cud_pancreatic_cancer_chronic_pancreatitis"  # follow-up 736 +/- 422, 896 days


def test_a_mean_with_its_spread_carries_the_unit_written_after_the_spread() -> None:
    text = "Mean follow-up was {} years in the controls."
    assert _numbers(CUD, text.format("2.5")) == 1  # 896 days
    assert _numbers(CUD, text.format("2.8")) == 0
