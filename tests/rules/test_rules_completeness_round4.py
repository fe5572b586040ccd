"""completeness: readings added in issue 14's round 4 (each test fails when its reading
breaks). The summaries are written for these tests, not copied from a labeled set."""

from __future__ import annotations

from pathlib import Path

from pytest_rwe.rules import judge
from pytest_rwe.rules.completeness import tabular
from pytest_rwe.study import load_study

STUDIES = Path(__file__).resolve().parents[2] / "cases" / "studies"
FUWAI = "fuwai_pci_high_thrombotic_risk_ischemic_outcomes"
WOMEN = "trinetx_sacubitril_valsartan_cognitive_outcomes_women"


def _complete(study_id: str, text: str) -> int:
    return judge(load_study(STUDIES / f"{study_id}.json"), text, "completeness").score


def test_a_bulleted_list_of_results_is_prose_not_a_table() -> None:
    bullets = ("- MACE: HR 1.56 (1.34-1.82), p < 0.001\n"
               "- Cardiac death: HR 1.85 (1.13-3.03), p = 0.014\n"
               "- 1.52 (1.27-1.83), 1.47 (1.22-1.76)\n")
    assert not tabular(bullets)
    assert tabular("MACE 1.56 1.34 1.82 0.001\nMI 2.05 1.53 2.75 0.001\n")
    assert tabular("MACE | 1.56 | <0.001\n")
    # read as prose, a list that leaves out significant outcomes is incomplete
    listed = ("High thrombotic risk vs not (adjusted HRs):\n"
              "- MACE: 1.56 (1.34-1.82), p < 0.001\n"
              "- Cardiac death: 1.85 (1.13-3.03), p = 0.014\n"
              "- Stent thrombosis: 2.47 (1.49-4.10), p < 0.001\n")
    assert _complete(FUWAI, listed) == 0


def test_a_number_opening_an_interval_after_an_estimate_reports_no_outcome() -> None:
    # dementia's HR is 0.66, the composite's lower limit too
    text = ("Sacubitril/valsartan users had a lower hazard of the neurocognitive composite (HR "
            "0.77, 0.66-0.90), of Alzheimer's disease (HR 0.31) and of cognitive decline (HR "
            "0.81).")
    assert _complete(WOMEN, text) == 0
    assert _complete(WOMEN, text.replace("(HR 0.81)", "(HR 0.81), and the memory "
                                         "diagnosis hazard too (HR 0.66)")) == 1


def test_a_range_of_estimates_reports_the_outcomes_between_its_ends() -> None:
    text = ("Patients with high thrombotic risk features had significantly more MACE (HR 1.56), "
            "device-oriented composite events (HR 1.52), cardiac death (HR 1.85), MI (HR 2.05), "
            "target-vessel MI (HR 2.18), repeat procedures to reopen arteries (HRs {}), stent "
            "thrombosis (HR 2.47) and stroke (HR 1.47, p = 0.015).")
    # 1.42 and 1.50 are any and target lesion revascularization, 1.47 target vessel's
    assert _complete(FUWAI, text.format("1.42 to 1.50")) == 1
    # 1.52 is the device-oriented composite's: a range to it is not about revascularization
    assert _complete(FUWAI, text.format("1.42 to 1.52")) == 0


def test_an_outcomes_abbreviation_written_unread_is_not_called_unmentioned() -> None:
    text = ("Higher with high thrombotic risk: MACE HR 1.56; DOCE 1.52; cardiac death 1.85; MI "
            "2.05; TV-MI 2.18; any revasc/TVR/TLR 1.42/1.47/1.50; ST 2.47; stroke 1.47 "
            "(p 0.015).")
    assert _complete(FUWAI, text) == 1
    # without "ST", definite or probable stent thrombosis is not mentioned at all
    assert _complete(FUWAI, text.replace("ST 2.47; ", "")) == 0
    # "HR" abbreviates a hazard ratio, never the last words of "cardiac death or HF
    # rehospitalization"
    salerno = "sacubitril_valsartan_vs_standard_therapy_hfref_salerno_12mo"
    assert _complete(salerno, "Rehospitalization for heart failure fell with "
                              "sacubitril/valsartan (HR 0.27, p = 0.039).") == 0


def test_a_name_listed_as_a_part_of_a_composite_is_not_reported_by_it() -> None:
    text = ("Users had a lower hazard of the combined endpoint of cognitive decline, dementia or "
            "Alzheimer's disease (HR 0.77), and of cognitive decline alone (HR 0.81) and "
            "dementia alone (HR 0.66){}. All of these differences were significant.")
    assert _complete(WOMEN, text.format("")) == 0
    assert _complete(WOMEN, text.format(", most of all Alzheimer's disease (HR 0.31)")) == 1
    # a composite's own name holds its parts
    salerno = "sacubitril_valsartan_vs_standard_therapy_hfref_salerno_12mo"
    assert _complete(salerno, "Sacubitril/valsartan lowered the composite of cardiac death or "
                              "HF rehospitalization (HR 0.31, p = 0.019) and HF "
                              "rehospitalization (HR 0.27, p = 0.039).") == 1
