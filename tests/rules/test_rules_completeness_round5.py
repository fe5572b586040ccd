"""completeness: readings added in issue 14's round 5 (each test fails when its reading
breaks). The sentences are written for these tests, not copied from a labeled set."""

from __future__ import annotations

from pathlib import Path

from pytest_rwe.rules import judge
from pytest_rwe.rules.claims import analyze
from pytest_rwe.rules.neither import denied_by_neither
from pytest_rwe.study import Study, load_study

STUDIES = Path(__file__).resolve().parents[2] / "cases" / "studies"
# death HR 0.69 (p < 0.001), all-cause hospitalization HR 0.90 (p = 0.02), HF
# hospitalization HR 0.94 (p = 0.40)
GWTG = "gwtg_hf_sacubitril_valsartan_vs_no_prescription_12mo"
# composite HR 0.60, cognitive decline 0.62, dementia 0.60 (p = 0.011), Alzheimer's p = 0.097
TRINETX = "trinetx_sacubitril_valsartan_cognitive_outcomes_black_patients"
# unmet need OR 2.90, counselling 1.51 (1.24-1.83), psychotropics 1.56; all p < 0.001
PULSE = "pulse_survey_food_insufficiency_mental_health_services"
# PHQ-9 change -4.2 overall and -3.2 after four or more failed antidepressants, both p < 0.001
USUAL = "usual_care_group_practice_mdd_phq9_change_case_series"


def _study(study_id: str) -> Study:
    return load_study(STUDIES / f"{study_id}.json")


def _complete(study_id: str, text: str) -> int:
    return judge(_study(study_id), text, "completeness").score


def _denied(study_id: str, text: str) -> set[str]:
    analysis = analyze(_study(study_id), text)
    starts = denied_by_neither(analysis)
    return {m.span.quote for m in analysis.mentions if m.span.start in starts}


def test_neither_nor_denies_a_difference_for_each_member() -> None:
    text = ("Death was lower with the drug (HR 0.69, p < 0.001). Neither all-cause "
            "readmission (HR 0.90) nor heart failure readmission (HR 0.94) {}.")
    assert _complete(GWTG, text.format("showed a significant difference")) == 0
    assert _complete(GWTG, "Death (HR 0.69) and all-cause readmission (HR 0.90) were "
                           "significantly lower; heart failure readmission did not differ.") == 1
    # the predicate must deny a difference: "neither ... nor ... was collected" says nothing
    assert not _denied(GWTG, text.format("was collected in the first month"))


def test_neither_alone_denies_it_for_the_two_outcomes_named_before_it() -> None:
    text = ("The composite (HR 0.60) and cognitive decline (HR 0.62) were significantly "
            "lower. When dementia and Alzheimer's disease were examined separately, neither "
            "{}.")
    assert _denied(TRINETX, text.format("showed a significant difference")) == {
        "dementia", "Alzheimer's disease"}
    assert _complete(TRINETX, text.format("showed a significant difference")) == 0
    # "neither group" is about the groups, not the outcomes
    assert not _denied(TRINETX, "Dementia and Alzheimer's disease were rare; neither group "
                                "showed a significant difference in follow-up.")


def test_a_value_written_with_its_own_interval_reports_the_outcome() -> None:
    text = ("Food insufficiency, adjusted ORs: unmet mental health need 2.90 (2.46-3.43); "
            "counselling/therapy 1.51 ({}); psychotropic meds 1.56 (1.35-1.80); all p < "
            "0.001.")
    assert _complete(PULSE, text.format("1.24-1.83")) == 1
    assert _complete(PULSE, text.format("1.20-1.83")) == 0


def test_a_cue_of_no_difference_beyond_another_outcome_is_not_this_estimates() -> None:
    text = ("After weighting to make the groups comparable, those sent home on the drug had a "
            "lower risk of death (HR 0.69) and of being readmitted for any reason (HR 0.90, "
            "p = 0.02), while heart failure readmissions {}.")
    assert _complete(GWTG, text.format("did not differ")) == 1
    # without the other outcome between, the cue is read for the estimate beside it
    assert _complete(GWTG, "Death was lower (HR 0.69). Readmission for any reason was "
                           "comparable (HR 0.90).") == 0


def test_a_counted_blanket_of_significance_covers_the_outcomes_it_counts() -> None:
    text = ("Scores on a depression questionnaire fell by about 4 points over six months, and "
            "by about 3 points in people who had tried four or more antidepressants. {}")
    assert _complete(USUAL, text.format("Both improvements were statistically significant.")) \
        == 1
    assert _complete(USUAL, text.format("Both figures come from one practice.")) == 0
    # a blanket that denies significance covers nothing
    assert _complete(USUAL, text.format("Both improvements were statistically significant "
                                        "in no analysis.")) == 0


def test_a_list_of_parts_taken_together_names_the_composite() -> None:
    text = ("Sacubitril/valsartan users were about 40% less likely to be diagnosed with "
            "cognitive decline, dementia or Alzheimer's disease{}. Cognitive decline (HR 0.62) "
            "and dementia (HR 0.60, p = 0.011) were each significantly lower.")
    assert _complete(TRINETX, text.format(" (taken together)")) == 1
    assert _complete(TRINETX, text.format("")) == 0


# new stroke/TIA HR 2.56, mRS OR 1.29, moderate-to-severe bleeding HR 1.82 (p = 0.033),
# intracranial haemorrhage HR 1.66 (p = 0.194)
ASPERA = "aspera_r_cancer_breakthrough_stroke_on_oac"
# all-cause mortality HR 0.63, AMI HR 0.80 (p = 0.090), HF admission 0.67, CV death 0.67
LEGEND = "legend_htn_arbs_vs_non_dihydropyridine_ccbs_cardiovascular"


def test_a_claim_beside_another_outcomes_values_is_not_about_this_outcome() -> None:
    text = ("Patients with cancer had more recurrent strokes (HR 2.56, p < 0.001) and worse "
            "mRS scores (OR 1.29, p = 0.005). Bleeding inside the skull was {}more common "
            "(HR {}, p = {}).")
    # moderate-to-severe bleeding is left out: the bleeding claimed is intracranial
    assert _complete(ASPERA, text.format("not significantly ", "1.66", "0.194")) == 0
    assert _complete(ASPERA, text.format("", "1.82", "0.033")) == 1  # its own values


def test_only_the_list_item_holding_the_values_is_read_as_theirs() -> None:
    # "overall death" stands in another item of the list than the heart attacks' HR 0.80
    text = ("ARB starters had lower overall death rates, and fewer heart attacks (HR 0.80), than "
            "calcium channel blocker starters; heart-failure admissions (HR 0.67) and "
            "cardiovascular death (HR 0.67) were significantly lower too.")
    assert _complete(LEGEND, text) == 1


def test_a_value_this_outcome_shares_with_another_is_not_only_the_others() -> None:
    from pytest_rwe.rules.completeness import _values_of_another

    analysis = analyze(_study(LEGEND), "ARB starters fared better.")
    part = "fewer admissions (HR 0.67)"  # heart-failure admission and CV death are both 0.67
    assert not _values_of_another(analysis, part, "outcome.hospitalization_with_heart_failure_bin")
    assert _values_of_another(analysis, "fewer heart attacks (HR 0.80)",
                              "outcome.hospitalization_with_heart_failure_bin")


# both HR 1.33 (p = 0.006), hypertension only 1.22 (p = 0.008), hyperlipidaemia only 1.28
TAIWAN = "taiwan_non_dm_cohort_hypertension_hyperlipidemia_dementia"


def test_both_a_and_b_is_one_item_of_a_list() -> None:
    from pytest_rwe.rules.completeness import list_parts
    from pytest_rwe.rules.text import Span

    clause = "having both A and B raised X (HR 1.33), and C lowered Y"
    assert [p.quote for p in list_parts(Span(0, len(clause), clause))] == [
        "having both A and B raised X (HR 1.33)", "C lowered Y"]
    text = ("Compared with neither condition, having both hypertension and hyperlipidaemia "
            "went with more dementia (HR 1.33, p = 0.006); hyperlipidaemia alone was not "
            "significantly associated (HR 1.28, p = 0.187). Hypertension alone was also "
            "looked at.")
    assert _complete(TAIWAN, text) == 0  # hypertension alone is only named


CARDIAC = "cancer_outcomes_after_cardiac_hospital_discharge"  # recurrent MI HR 1.08, p < 0.001


def _missing(study_id: str, text: str) -> dict[str, str]:
    from pytest_rwe.rules.claims import study_reading
    from pytest_rwe.rules.completeness import find_missing

    study = _study(study_id)
    analysis = analyze(study, text)
    index, _ = study_reading(study)
    return {m.key: m.said for m in find_missing(
        study, analysis, index, lambda k: k in analysis.facts and analysis.facts[k].must_report)}


def test_a_name_that_describes_the_people_studied_does_not_report_the_outcome() -> None:
    text = ("Among 175,146 first-MI patients, those with prior cancer had higher all-cause "
            "mortality (HR 1.44, p < 0.001) and more venous thromboembolism (HR 1.58).")
    assert _missing(CARDIAC, text).get("outcome.recurrent_myocardial_infarction_bin") == \
        "only named"
    # the same name as a result is reported
    reported = ("Among 175,146 patients, those with prior cancer had more recurrent MI (HR "
                "1.08, p < 0.001) and higher all-cause mortality (HR 1.44).")
    assert "outcome.recurrent_myocardial_infarction_bin" not in _missing(CARDIAC, reported)


def test_a_p_bound_and_a_thousands_comma_do_not_tie_a_part_to_an_outcome() -> None:
    from pytest_rwe.rules.completeness import _values_of_another, list_parts
    from pytest_rwe.rules.text import Span

    analysis = analyze(_study(CARDIAC), "Cancer mattered.")
    # "p < 0.001" is a bound every significant outcome meets; 1.44 is all-cause death's
    assert _values_of_another(analysis, "higher mortality (HR 1.44, p < 0.001)",
                              "outcome.recurrent_myocardial_infarction_bin")
    clause = "the 16,237 with cancer had more MI, and less stroke"
    assert [p.quote for p in list_parts(Span(0, len(clause), clause))] == [
        "the 16,237 with cancer had more MI", "less stroke"]


TMS = "tms_group_practice_mdd_phq9_change_case_series"  # -5.7 overall, -5.8 subgroup


def test_a_name_with_a_threshold_for_entry_does_not_report_the_outcome() -> None:
    text = ("Adults with a PHQ-9 {} completed a course of TMS. Among those who had failed four "
            "or more antidepressants, PHQ-9 fell significantly by 5.8 points (p < 0.001).")
    assert _missing(TMS, text.format("of 10 or more")).get("outcome_6mo.phq9_change_cont") == \
        "only named"
    assert _missing(TMS, text.format(">= 10")).get("outcome_6mo.phq9_change_cont") == \
        "only named"
    assert _complete(TMS, "Adults with a PHQ-9 of 10 or more completed TMS: PHQ-9 fell "
                          "significantly by 5.7 points (p < 0.001), and by 5.8 points in those "
                          "who had failed four or more antidepressants (p < 0.001).") == 1


def test_a_composite_of_a_list_is_one_item_with_its_values() -> None:
    from pytest_rwe.rules.completeness import list_parts
    from pytest_rwe.rules.text import Span

    clause = "a lower composite of A, B and C (HR 0.60), and less D"
    assert [p.quote for p in list_parts(Span(0, len(clause), clause))] == [
        "a lower composite of A, B and C (HR 0.60)", "less D"]
    text = ("Sacubitril/valsartan users had lower rates of dementia (HR 0.60, p = 0.011) and a "
            "lower composite of cognitive decline, dementia and Alzheimer's disease (HR 0.60, "
            "p < 0.001). Cognitive decline was looked at too.")
    assert _missing(TRINETX, text).get("outcome_3yrs.cognitive_decline_bin") == "only named"
