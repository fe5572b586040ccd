"""completeness and the numbers shared with it, on constructions of real prose (issue 14).
The summaries are written for these tests, not copied from labeled sets."""

from __future__ import annotations

from pathlib import Path

from pytest_rwe.rules import judge
from pytest_rwe.rules.text import stem
from pytest_rwe.study import Study, load_study

STUDIES = Path(__file__).resolve().parents[2] / "cases" / "studies"
METABOLIC = "legend_htn_beta_blockers_vs_thiazide_diuretics_metabolic"


def _study(study_id: str) -> Study:
    return load_study(STUDIES / f"{study_id}.json")


def _score(study_id: str, text: str, criterion: str) -> int:
    return judge(_study(study_id), text, criterion).score


def test_british_spellings_name_the_american_outcome() -> None:
    for british, american in [("hypokalaemia", "hypokalemia"), ("oedema", "edema"),
                              ("behavioural", "behavioral"), ("paediatric", "pediatric"),
                              ("anaesthesia", "anesthesia"), ("diarrhoea", "diarrhea")]:
        assert stem(british) == stem(american)
    text = ("Beta blockers were associated with less hypokalaemia (HR 0.42) and "
            "hyponatraemia (HR 0.83) but more hyperkalaemia (HR 1.46) and hypomagnesaemia "
            "(HR 1.30) than thiazides, and with slightly more abnormal weight gain (HR 1.11, "
            "p = 0.049) and weight loss (HR 1.09, p = 0.041).")
    assert _score(METABOLIC, text, "completeness") == 1


def test_an_outcome_named_in_other_words_is_reported_by_its_estimate() -> None:
    study = "legend_htn_hydrochlorothiazide_vs_chlorthalidone_metabolic"
    text = ("Hydrochlorothiazide users had a 64% lower risk of low potassium (HR 0.36), a 28% "
            "lower risk of low sodium (HR 0.72) and half the risk of low magnesium (HR 0.49), "
            "with less gout (HR 0.69) and type 2 diabetes (HR 0.76).")
    assert _score(study, text, "completeness") == 1
    # the same words without the estimate say nothing the juror can tie to the outcome
    dropped = ("Hydrochlorothiazide users had less gout (HR 0.69) and type 2 diabetes "
               "(HR 0.76); neither weight gain nor weight loss differed.")
    assert _score(study, dropped, "completeness") == 0
    # an estimate written in a clause of no difference does not report it
    null = ("Hydrochlorothiazide users had less gout (HR 0.69), type 2 diabetes (HR 0.76), "
            "hypokalemia (HR 0.36) and hypomagnesemia (HR 0.49); low sodium (HR 0.72) did "
            "not differ significantly.")
    assert _score(study, null, "completeness") == 0


def test_a_bound_closing_a_list_holds_for_every_outcome_of_the_list() -> None:
    study = "legend_htn_dihydropyridine_ccbs_vs_non_dihydropyridine_ccbs_cardiovascular"
    text = ("Dihydropyridine CCBs reduced heart failure hospitalisation (HR 0.66), MI (HR "
            "0.76), stroke (HR 0.73) and ischaemic stroke (HR 0.72) compared with "
            "non-dihydropyridine CCBs (all p < {}).")
    assert _score(study, text.format("0.05"), "numbers_accurate") == 1
    assert _score(study, text.format("0.01"), "numbers_accurate") == 0  # MI has p = 0.023
    apart = ("Dihydropyridine CCBs reduced MI (HR 0.76, p = 0.023), heart failure "
             "hospitalisation (HR 0.66) and stroke (HR 0.73) (all others p < 0.01).")
    assert _score(study, apart, "numbers_accurate") == 1


def test_a_proportion_in_words_is_checked_against_its_own_outcome() -> None:
    study = "alberta_multiple_sclerosis_incident_psychiatric_comorbidity"
    text = ("People with MS had about twice the risk of depression, roughly 1.5 times the "
            "risk of anxiety and almost three times the risk of bipolar disorder.")
    assert _score(study, text, "numbers_accurate") == 1
    wrong = "People with MS had about three times the risk of depression (HR 1.92)."
    assert _score(study, wrong, "numbers_accurate") == 0
    fold = ("Children with type 1 diabetes had a 2.7-fold hazard of any psychiatric disorder "
            "(95% CI 2.2-3.3), with more suicide attempts (HR 2.1).")
    assert _score("sweden_t1d_children_psychiatric_disorders_diagnosed_1973_1986", fold,
                  "numbers_accurate") == 1


def test_estimates_listed_after_one_label_report_their_outcomes() -> None:
    study = "fuwai_pci_high_thrombotic_risk_ischemic_outcomes"
    text = ("High thrombotic risk came with more MACE (HR 1.56), device-oriented events (HR "
            "1.52), cardiac death (HR 1.85), MI (HR 2.05), target-vessel MI (HR 2.18), stent "
            "thrombosis (HR 2.47), stroke (HR 1.47) and target-lesion, target-vessel and any "
            "revascularization (HRs 1.50, 1.47 and 1.42).")
    verdict = judge(_study(study), text, "completeness")
    # 1.42 is any revascularization's alone (1.47 is also stroke's, so that one says nothing)
    assert "any revascularization" not in verdict.explanation, verdict.explanation


def test_a_clause_with_a_direction_and_a_wrong_p_is_not_a_clause_of_no_difference() -> None:
    study = "fuwai_pci_high_thrombotic_risk_ischemic_outcomes"
    text = ("High thrombotic risk came with more MACE (HR 1.56), device-oriented events (HR "
            "1.52), and more cardiac death (HR 1.85; 95% CI 1.13 to 3.03; p = 0.14), MI (HR "
            "2.05), target-vessel MI (HR 2.18), stent thrombosis (HR 2.47), stroke (HR 1.47) "
            "and any, target-vessel and "
            "target-lesion revascularization (HR 1.42, 1.47, 1.50).")
    verdict = judge(_study(study), text, "completeness")
    assert "any revascularization" not in verdict.explanation, verdict.explanation


def test_an_outcome_in_other_words_is_reported_by_its_percent_change() -> None:
    study = "legend_htn_hydrochlorothiazide_vs_chlorthalidone_metabolic"
    text = ("Hydrochlorothiazide users had {}28% less low sodium, 51% less low magnesium, 31% "
            "less gout and 24% less new diabetes than chlorthalidone users.")
    assert _score(study, text.format("64% less low potassium, "), "completeness") == 1
    assert _score(study, text.format(""), "completeness") == 0


def test_a_shared_value_written_once_more_than_its_named_owners_reports_the_other() -> None:
    study = "legend_htn_arbs_vs_beta_blockers_metabolic"  # gout and hypomagnesemia: HR 0.85
    text = ("Patients starting an ARB instead of a beta blocker had about 12% less low "
            "potassium, {}15% less gout and 11% less abnormal weight loss.")
    assert _score(study, text.format("15% less low magnesium and "), "completeness") == 1
    assert _score(study, text.format(""), "completeness") == 0


def test_a_bulleted_list_is_read_as_prose() -> None:
    study = "legend_htn_arbs_vs_dihydropyridine_ccbs_neuropsychiatric"
    text = ("ARBs vs dihydropyridine CCBs:\n- Impotence: lower with ARBs (HR 0.91; p = 0.021)\n"
            "- Anxiety, dementia, headache, decreased libido: no significant difference\n"
            "- Baseline SBP 140.2 vs 142.5 mmHg")
    assert _score(study, text, "completeness") == 0  # depression (p = 0.031) is left out


def test_an_outcome_only_examined_is_not_reported() -> None:
    study = "legend_htn_arbs_vs_beta_blockers_kidney_liver"
    text = ("ARB initiators had less hepatic failure (HR 0.61, 0.46-0.81) and end-stage renal "
            "disease (HR 0.65, 0.50-0.86) than beta-blocker initiators. Acute renal failure was "
            "also {} chronic kidney disease, with rhabdomyolysis at HR 0.75 (p = 0.214).")
    # the sentence writes a result, but not acute renal failure's
    assert _score(study, text.format("examined alongside"), "completeness") == 0
    assert _score(study, text.format("lower (HR 0.87), unlike"), "completeness") == 1
