"""builtin/rules on natural clinical prose: correct variants pass, broken ones fail.

Each case is (study id, summary, expected scores); a criterion not listed is expected to score 1.
The correct variants are hard for a naive checker: rounding, "24% lower", numbers in words,
comparator-as-subject sentences, coordinated outcome lists and "respectively" lists.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_rwe.rules import judge_all
from pytest_rwe.study import load_study

STUDIES = Path(__file__).resolve().parent.parent / "cases" / "studies"

CASES: list[tuple[str, str, dict[str, int]]] = [
    ('legend_htn_hydrochlorothiazide_vs_chlorthalidone_kidney_liver',
     'In this propensity-score stratified cohort of new users, 216,113 patients '
     'started hydrochlorothiazide and 15,118 started chlorthalidone. Mean systolic '
     'blood pressure was 142.7 vs 144.5 mmHg. Compared with chlorthalidone, '
     'hydrochlorothiazide users had a 30% lower risk of acute renal failure (HR 0.70, '
     '95% CI 0.51-0.99), a lower risk of chronic kidney disease (HR 0.74) and of '
     'kidney disease overall (HR 0.76, p<0.001). End-stage renal disease, hepatic '
     'failure and rhabdomyolysis did not differ significantly.',
     {}),
    ('legend_htn_hydrochlorothiazide_vs_chlorthalidone_kidney_liver',
     'Hydrochlorothiazide (n=216,113) versus chlorthalidone (n=15,118): patients on '
     'chlorthalidone had higher rates of acute renal failure, chronic kidney disease '
     'and kidney disease (HRs 0.70, 0.74 and 0.76 for hydrochlorothiazide; all '
     'p<0.05). There were no significant differences for end-stage renal disease (p = '
     '0.925), hepatic failure or rhabdomyolysis.',
     {}),
    ('legend_htn_hydrochlorothiazide_vs_chlorthalidone_kidney_liver',
     'Hydrochlorothiazide (n=216,113) versus chlorthalidone (n=15,118): '
     'hydrochlorothiazide was associated with higher rates of acute renal failure, '
     'chronic kidney disease and kidney disease (HRs 0.70, 0.74 and 0.76; all p<0.05).'
     ' There were no significant differences for end-stage renal disease, hepatic '
     'failure or rhabdomyolysis.',
     {'direction_of_effect': 0}),
    ('legend_htn_hydrochlorothiazide_vs_chlorthalidone_kidney_liver',
     'Hydrochlorothiazide (n=216,113) versus chlorthalidone (n=15,118): '
     'hydrochlorothiazide was associated with lower rates of acute renal failure (HR '
     '0.70) and kidney disease (HR 0.76); all p<0.05. There were no significant '
     'differences for end-stage renal disease, hepatic failure or rhabdomyolysis.',
     {'completeness': 0}),
    ('legend_htn_hydrochlorothiazide_vs_chlorthalidone_kidney_liver',
     'Hydrochlorothiazide (n=15,118) versus chlorthalidone (n=216,113): '
     'hydrochlorothiazide was associated with lower rates of acute renal failure (HR '
     '0.70), chronic kidney disease (HR 0.74) and kidney disease (HR 0.76).',
     {'numbers_accurate': 0}),
    ('legend_htn_hydrochlorothiazide_vs_chlorthalidone_kidney_liver',
     'Hydrochlorothiazide was associated with lower rates of acute renal failure (HR '
     '0.70), chronic kidney disease (HR 0.84) and kidney disease (HR 0.76) than '
     'chlorthalidone.',
     {'numbers_accurate': 0}),
    ('trinetx_cud_pancreatic_cancer_chronic_pancreatitis',
     'Among 6,858 propensity-matched pairs of adults with chronic pancreatitis, those '
     'with cannabis use disorder had a 74% lower risk of pancreatic cancer (HR 0.263, '
     '95% CI 0.202-0.344, p<0.001) but a slightly higher risk of acute pancreatitis '
     'flares (HR 1.10, 95% CI 1.04-1.17, p=0.001). The groups were balanced at '
     'baseline, with mean ages of 47 and 48 years and similar rates of hypertension '
     '(48.5% vs 51.5%).',
     {}),
    ('trinetx_cud_pancreatic_cancer_chronic_pancreatitis',
     'After matching, patients without cannabis use disorder had a higher risk of '
     'pancreatic cancer (HR 0.263 for CUD) and a lower risk of acute pancreatitis '
     'flares than those with CUD.',
     {}),
    ('trinetx_cud_pancreatic_cancer_chronic_pancreatitis',
     'After matching, patients with cannabis use disorder had a higher risk of '
     'pancreatic cancer (HR 0.263) and of acute pancreatitis flares than those '
     'without.',
     {'direction_of_effect': 0}),
    ('trinetx_cud_pancreatic_cancer_chronic_pancreatitis',
     'Cannabis use disorder was associated with a reduced risk of pancreatic cancer '
     '(HR 0.263, p < 0.001); flares were not assessed.',
     {'completeness': 0}),
    ('rtcgm_initiation_insulin_treated_t2d_hba1c_below_8',
     'Starting real-time CGM (149 patients) versus not starting (17,273) lowered mean '
     'HbA1c by 0.3 percentage points over twelve months (95% CI -0.50 to -0.10; p = '
     '0.004) and reduced the share of patients with HbA1c above 9% by 4.0 points (p = '
     '0.009). Changes in the proportions below 7% and below 8% and in severe '
     'hypoglycemia were not statistically significant.',
     {}),
    ('rtcgm_initiation_insulin_treated_t2d_hba1c_below_8',
     'Starting real-time CGM raised mean HbA1c by 0.3 percentage points over 12 months'
     ' (p = 0.004) and reduced the share of patients with HbA1c above 9% (p = 0.009).',
     {'direction_of_effect': 0}),
    ('iscgm_t2d_basal_or_oral_therapy_case_series',
     'In this single-arm series of 132 adults with type 2 diabetes, HbA1c fell by 0.4%'
     ' at three months (p = 0.003) and by 0.6% at six months (p < 0.0001) after '
     'starting isCGM.',
     {}),
    ('iscgm_t2d_basal_or_oral_therapy_case_series',
     'In this single-arm series of 132 adults with type 2 diabetes, HbA1c rose by 0.4%'
     ' at three months (p = 0.003) and fell by 0.6% at six months (p < 0.0001) after '
     'starting isCGM.',
     {'direction_of_effect': 0}),
    ('iscgm_t2d_basal_or_oral_therapy_case_series',
     'In this single-arm series of 132 adults with type 2 diabetes, HbA1c fell by 0.4%'
     ' at three months (p = 0.03) and by 0.6% at six months (p < 0.0001) after '
     'starting isCGM.',
     {'numbers_accurate': 0}),
    # the groups' total (80 + 80) is a number the writer computed, not one of the prompt
    # (cases/golden/labeled/README.md: "any number not from the prompt")
    ('hospital_shift_work_metabolic_syndrome',
     'In this cross-sectional study of 160 hospital employees (80 shift and 80 day '
     'workers), shift work was not significantly associated with metabolic syndrome '
     '(OR 0.55, 95% CI 0.24 to 1.29; p = 0.17).',
     {'numbers_accurate': 0}),
    ('hospital_shift_work_metabolic_syndrome',
     'In this cross-sectional study of hospital employees (80 shift and 80 day '
     'workers), shift work was not significantly associated with metabolic syndrome '
     '(OR 0.55, 95% CI 0.24 to 1.29; p = 0.17).',
     {}),
    ('hospital_shift_work_metabolic_syndrome',
     'Shift workers had no significant difference in metabolic syndrome compared with '
     'day workers (OR 0.4).',
     {'numbers_accurate': 0}),
    ('hospital_shift_work_metabolic_syndrome',
     'Shift work was associated with a significantly lower odds of metabolic syndrome '
     '(OR 0.55, p = 0.17).',
     {'direction_of_effect': 0}),
    ('covid_hcq_azithro_vs_no_hcq_veterans',
     'Among hospitalized veterans, hydroxychloroquine plus azithromycin (214) was '
     'not associated with death (HR 1.31, 95% CI 0.80-2.15) or need for mechanical '
     'ventilation (HR 1.09) compared with no hydroxychloroquine (395); none of the '
     'differences reached significance.',
     {}),
    ('covid_hcq_azithro_vs_no_hcq_veterans',
     'Among 609 hospitalized veterans, hydroxychloroquine plus azithromycin (214) was '
     'not associated with death (HR 1.31) compared with no hydroxychloroquine (395).',
     {'numbers_accurate': 0}),
    ('brfss_recent_cannabis_use_myocardial_infarction',
     'In 33,173 young adults, recent cannabis users (n=4,610) had about twice the odds'
     ' of a history of myocardial infarction compared with non-users (n=28,563; '
     'adjusted OR 2.07, 95% CI 1.12-3.82), with similar associations for frequent use '
     '(OR 2.31) and smoking (OR 2.01).',
     {}),
    ('brfss_recent_cannabis_use_myocardial_infarction',
     'Recent cannabis users (n=28,563) had higher odds of myocardial infarction than '
     'non-users (n=4,610).',
     {'numbers_accurate': 0}),
    ('legend_htn_chlorthalidone_vs_hctz',
     'Across 730,225 new users followed from 2001 to 2018, chlorthalidone and '
     'hydrochlorothiazide had a similar risk of the composite cardiovascular outcome '
     '(HR 1.00), but chlorthalidone carried a 2.7-fold risk of hypokalemia (HR 2.72) '
     'and higher risks of hyponatremia, acute renal failure, chronic kidney disease '
     'and type 2 diabetes, with 27% less abnormal weight gain.',
     {}),
    ('legend_htn_chlorthalidone_vs_hctz',
     'Chlorthalidone carried a lower risk of hypokalemia (HR 2.72) than '
     'hydrochlorothiazide.',
     {'direction_of_effect': 0}),
    ('legend_htn_ace_inhibitors_vs_arbs_cardiovascular',
     'ACE inhibitor initiators (n = 735,657) had a 15% higher all-cause mortality than'
     ' ARB initiators (n = 206,570; HR 1.15, 95% CI 1.03-1.30, p = 0.018), while '
     'myocardial infarction, heart failure hospitalization, stroke subtypes, sudden '
     'cardiac death and cardiovascular mortality did not differ significantly. Mean '
     'systolic blood pressure was about 140 mmHg in both groups.',
     {}),
    ('legend_htn_ace_inhibitors_vs_arbs_cardiovascular',
     'ARB users had a higher risk of all-cause mortality than ACE inhibitor users (HR '
     '1.15, p = 0.018).',
     {'direction_of_effect': 0}),
    ('legend_htn_ace_inhibitors_vs_arbs_cardiovascular',
     'ARB users had a lower risk of all-cause mortality than ACE inhibitor users (HR '
     '1.15, p = 0.018).',
     {}),
    ('legend_htn_ace_inhibitors_vs_arbs_cardiovascular',
     'There was no significant difference in stroke (HR 1.10, p = 0.138), myocardial '
     'infarction or heart failure between ACE inhibitors and ARBs.',
     {'completeness': 0}),
    ('legend_htn_ace_inhibitors_vs_arbs_cardiovascular',
     'ACE inhibitors were associated with a significantly higher risk of stroke (HR '
     '1.10) and of all-cause mortality (HR 1.15, p = 0.018) than ARBs.',
     {'direction_of_effect': 0}),
    ('legend_htn_beta_blockers_vs_thiazide_diuretics_hypotension_falls',
     'Cardioselective beta blockers (342,225 new users) were compared with thiazide '
     'diuretics (233,896). Beta-blocker users had a 27% higher risk of hypotension (HR'
     ' 1.27, 95% CI 1.16-1.38) and 10% higher risks of syncope (p = 0.007) and falls '
     '(p = 0.005). Vertigo was similar in both groups (HR 0.98).',
     {}),
    ('legend_htn_beta_blockers_vs_thiazide_diuretics_hypotension_falls',
     'Patients on thiazide or thiazide-like diuretics had fewer episodes of '
     'hypotension, syncope and falls than those on beta blockers, with no difference '
     'in vertigo.',
     {}),
    ('legend_htn_beta_blockers_vs_thiazide_diuretics_hypotension_falls',
     'Patients on thiazide or thiazide-like diuretics had more episodes of '
     'hypotension, syncope and falls than those on beta blockers.',
     {'direction_of_effect': 0}),
    ('legend_htn_beta_blockers_vs_thiazide_diuretics_hypotension_falls',
     'Beta blockers increased hypotension (HR 1.27) and syncope (HR 1.10) compared '
     'with thiazides; vertigo did not differ.',
     {'completeness': 0}),
    ('legend_htn_beta_blockers_vs_thiazide_diuretics_hypotension_falls',
     'Mean systolic blood pressure at baseline was slightly lower with beta blockers '
     '(138.1 vs 140.3 mmHg). Beta blockers increased the risk of hypotension, syncope '
     'and falls (all p < 0.01), whereas vertigo was not significantly different (p = '
     '0.649).',
     {}),
    ('legend_htn_beta_blockers_vs_thiazide_diuretics_hypotension_falls',
     'Mean systolic blood pressure at baseline was slightly lower with beta blockers '
     '(138.1 vs 141.3 mmHg). Beta blockers increased the risk of hypotension, syncope '
     'and falls (all p < 0.01).',
     {'numbers_accurate': 0}),
    ('legend_htn_beta_blockers_vs_thiazide_diuretics_hypotension_falls',
     'Beta blockers increased the risk of hypotension, syncope and falls, and vertigo '
     'was significantly lower (p = 0.649).',
     {'direction_of_effect': 0}),
    ('legend_htn_dihydropyridine_ccbs_vs_non_dihydropyridine_ccbs_cardiovascular',
     'Compared with non-dihydropyridine CCBs, dihydropyridine CCBs were associated '
     'with lower risks of acute myocardial infarction (HR 0.76), hospitalization for '
     'heart failure (HR 0.66), stroke (HR 0.73) and ischemic stroke (HR 0.72). '
     'Hemorrhagic stroke, transient ischemic attack, sudden cardiac death, '
     'cardiovascular mortality and all-cause mortality (HR 0.87, p = 0.055) did not '
     'differ significantly.',
     {}),
    ('legend_htn_dihydropyridine_ccbs_vs_non_dihydropyridine_ccbs_cardiovascular',
     'Compared with non-dihydropyridine CCBs, dihydropyridine CCBs were associated '
     'with lower risks of acute myocardial infarction (HR 0.76), hospitalization for '
     'heart failure (HR 0.66) and ischemic stroke (HR 0.72).',
     {'completeness': 0}),
    ('legend_htn_dihydropyridine_ccbs_vs_non_dihydropyridine_ccbs_cardiovascular',
     'Dihydropyridine CCB users (n = 227,277) had a one-third lower risk of heart '
     'failure hospitalization and roughly 25% lower risks of myocardial infarction and'
     ' stroke, including ischemic stroke, than non-dihydropyridine CCB users (n = '
     '50,641).',
     {}),
    ('legend_htn_dihydropyridine_ccbs_vs_non_dihydropyridine_ccbs_cardiovascular',
     'Non-dihydropyridine CCB users had higher risks of heart failure hospitalization,'
     ' myocardial infarction, stroke and ischemic stroke than dihydropyridine CCB '
     'users.',
     {}),
    ('legend_htn_dihydropyridine_ccbs_vs_non_dihydropyridine_ccbs_cardiovascular',
     'Non-dihydropyridine CCB users had lower risks of heart failure hospitalization, '
     'myocardial infarction, stroke and ischemic stroke than dihydropyridine CCB '
     'users.',
     {'direction_of_effect': 0}),
    ('legend_htn_dihydropyridine_ccbs_vs_non_dihydropyridine_ccbs_cardiovascular',
     'Dihydropyridine CCBs were associated with lower risks of myocardial infarction '
     '(HR 0.76), heart failure hospitalization (HR 0.56), stroke (HR 0.73) and '
     'ischemic stroke (HR 0.72).',
     {'numbers_accurate': 0}),
    ('legend_htn_dihydropyridine_ccbs_vs_non_dihydropyridine_ccbs_cardiovascular',
     'Dihydropyridine CCBs were associated with lower risks of myocardial infarction, '
     'heart failure hospitalization, stroke and ischemic stroke (p = 0.023, <0.001, '
     '0.005 and 0.005, respectively).',
     {}),
    ('legend_htn_dihydropyridine_ccbs_vs_non_dihydropyridine_ccbs_cardiovascular',
     'Dihydropyridine CCBs were associated with lower risks of myocardial infarction, '
     'heart failure hospitalization, stroke and ischemic stroke (p = 0.023, <0.001, '
     '0.005 and 0.05, respectively), and a significantly lower all-cause mortality (HR'
     ' 0.87).',
     {'direction_of_effect': 0}),
    ('legend_htn_arbs_vs_dihydropyridine_ccbs_blood_cancer',
     'Among 206,572 ARB and 227,278 dihydropyridine CCB initiators, there were no '
     'significant differences in anemia (HR 1.03), neutropenia or agranulocytosis (HR '
     '0.92), thrombocytopenia (HR 0.99) or malignant neoplasms (HR 1.01).',
     {}),
    ('legend_htn_arbs_vs_dihydropyridine_ccbs_blood_cancer',
     'ARBs were not associated with anemia, neutropenia, thrombocytopenia or cancer '
     'compared with dihydropyridine CCBs; all four hazard ratios were close to 1 and '
     'none was statistically significant.',
     {}),
    ('legend_htn_arbs_vs_dihydropyridine_ccbs_blood_cancer',
     'ARBs were associated with a significantly higher risk of anemia (HR 1.03) than '
     'dihydropyridine CCBs.',
     {'direction_of_effect': 0}),
    ('legend_htn_arbs_vs_dihydropyridine_ccbs_blood_cancer',
     'ARB initiators (n=227,278) and dihydropyridine CCB initiators (n=206,572) had '
     'similar risks of anemia and cancer.',
     {'numbers_accurate': 0}),
    ('legend_htn_arbs_vs_dihydropyridine_ccbs_blood_cancer',
     'There was no significant difference in neutropenia (HR 0.4) between the groups.',
     {'numbers_accurate': 0}),
]


@pytest.mark.parametrize(("study_id", "text", "expected"), CASES,
                         ids=[f"{c[0][:40]}-{i}" for i, c in enumerate(CASES)])
def test_prose(study_id: str, text: str, expected: dict[str, int]) -> None:
    study = load_study(STUDIES / f"{study_id}.json")
    verdicts = judge_all(study, text)
    got = {c: v.score for c, v in verdicts.items()}
    want = {c: expected.get(c, 1) for c in got}
    assert got == want, {c: v.explanation for c, v in verdicts.items()}
    for verdict in verdicts.values():
        if verdict.score == 0:
            assert verdict.findings and all(f.field for f in verdict.findings)
