"""builtin/rules, issue 14 round 3: constructions of real trial prose that tie a direction to
its outcome and group. Each test states one construction with invented outcomes and groups,
and checks both twins: the sentence is accepted for a study that agrees with it and caught
for one that contradicts it (so the test fails when the construction stops being read)."""

from __future__ import annotations

from typing import Any

import pytest

from pytest_rwe.rules import judge
from pytest_rwe.rules.claims import analyze
from pytest_rwe.study import Study, parse_study


def one_outcome(name: str, md: str, p: str, *, intervention: str = "drug A",
                control: str = "placebo") -> Study:
    raw: dict[str, Any] = {
        "id": "round3", "design": "cohort", "question": "How does drug A compare?",
        "picot": {"population": "Adults", "intervention": intervention, "control": control,
                  "outcome": name, "timeframe": "12 weeks"},
        "results": {"intervention_size": 40, "control_size": 40, "baseline_differences": {},
                    "outcomes": {f"outcome.{name.replace(' ', '.')}_cont!MD": md,
                                 f"outcome.{name.replace(' ', '.')}_cont!pvalue": p}}}
    return parse_study(raw)


def twins(name: str, text: str, direction: str, **groups: str) -> tuple[int, int]:
    """The direction_of_effect score for the agreeing and the contradicting study."""
    agree, contradict = ("-4.1 (-6.0, -2.2)", "4.1 (2.2, 6.0)") if direction == "lower" else (
        "4.1 (2.2, 6.0)", "-4.1 (-6.0, -2.2)")
    return (judge(one_outcome(name, agree, "0.001", **groups), text,
                  "direction_of_effect").score,
            judge(one_outcome(name, contradict, "0.001", **groups), text,
                  "direction_of_effect").score)


@pytest.mark.parametrize(("text", "direction"), [
    # a list whose last item the study does not name, then a verb of its own
    ("Both serum ferritin and the TSAT index significantly decreased with drug A (P < 0.05).",
     "lower"),
    ("Serum ferritin and hepcidin declined with drug A compared with placebo (p = 0.01).",
     "lower"),
])
def test_a_list_with_a_verb_predicate(text: str, direction: str) -> None:
    assert twins("serum ferritin", text, direction) == (1, 0)


def test_a_range_of_values_before_the_cue() -> None:
    """"were between $9,500 and $9,800 higher": "and" joins two numbers, not two names."""
    text = ("Total costs were between $9,500 and $9,800 higher for the drug A group than for "
            "the placebo group (P < 0.001).")
    assert twins("total costs", text, "higher") == (1, 0)


def test_and_between_two_numbers_is_not_a_list() -> None:
    """"heart rate at min 80 and 90 during the trial were higher": "and" joins two
    timepoints, so the name keeps the cue after them."""
    text = ("Heart rate at min 80 and 90 during the 90 min running trial were significantly "
            "higher with drug A compared to placebo.")
    assert twins("heart rate", text, "higher") == (1, 0)


@pytest.mark.parametrize("text", [
    "The prevalence of wheezing among children drinking the fortified milk was 16% (95% CI: "
    "5 to 26%; p = 0.004) lower in the drug A group than in the placebo group.",
    "The wheezing score when the participants were on drug A was 0.8 higher (95% CI: 0.1, "
    "1.5) than when they received placebo.",
])
def test_a_long_subject_of_a_copula(text: str) -> None:
    direction = "lower" if "lower" in text else "higher"
    name = "prevalence of wheezing" if "prevalence" in text else "wheezing score"
    assert twins(name, text, direction) == (1, 0)


def test_a_relative_clause_over_a_value_and_its_group() -> None:
    text = ("The results show a recurrence rate of 53.3% in the sorafenib group, which is "
            "significantly lower than that in the placebo group (86.6%, P < 0.05).")
    assert twins("recurrence rate", text, "lower", intervention="sorafenib") == (1, 0)


def test_a_bare_change_noun_is_about_the_outcome_named_before() -> None:
    text = ("After the treatment, stool frequency increased in both groups (P < 0.001), with "
            "a greater increase in the drug A group (P = 0.001).")
    assert twins("stool frequency", text, "higher") == (1, 0)


def test_a_referring_change_noun_is_not_a_claim_of_its_own() -> None:
    """"this reduction in the control group" repeats the change named before; it says
    nothing about which group changed more."""
    text = ("The anxiety of the drug A group declined by 5.72, while this reduction in the "
            "placebo group was only 4.93.")
    study = one_outcome("anxiety", "-4.1 (-6.0, -2.2)", "0.001")
    assert judge(study, text, "direction_of_effect").score == 1
    flipped = [c for c in analyze(study, text).claims if c.flipped]
    assert not flipped


def test_an_unnamed_group_is_the_other_side_of_the_named_one() -> None:
    """"The remediation group ..., whereas in the control group ...": the study names only
    the control, so the group it does not name is the intervention."""
    text = ("The remediation group had a significant decrease in symptom days (p = 0.003), "
            "whereas symptom days in the control group did not significantly change.")
    groups = {"intervention": "household repairs", "control": "control"}
    assert twins("symptom days", text, "lower", **groups) == (1, 0)


def test_an_unnamed_group_alone_stays_ungrounded() -> None:
    text = "Symptom days were significantly lower in the remediation group (p = 0.003)."
    study = one_outcome("symptom days", "4.1 (2.2, 6.0)", "0.001",
                        intervention="household repairs", control="control")
    assert judge(study, text, "direction_of_effect").score == 1
    assert not analyze(study, text).grounded


def test_no_outcome_differed_is_a_no_difference_claim() -> None:
    text = "No cardiovascular outcome differed: stroke HR 1.03 (0.87-1.21)."
    study = one_outcome("stroke", "0.03 (-0.1, 0.2)", "0.6")
    claims = [c for c in analyze(study, text).claims if c.outcome is not None]
    assert claims and all(c.direction == "null" for c in claims)
    assert judge(study, text, "direction_of_effect").score == 1
    significant = one_outcome("stroke", "4.1 (2.2, 6.0)", "0.001")
    assert judge(significant, text, "completeness").score == 0


def test_group_letters_from_the_descriptions_initials() -> None:
    """"group D" vs "group P" for dexmedetomidine vs propofol: a letter that begins a word of
    one description only names that group."""
    text = "The pain score was significantly lower in group D than in group P (p = 0.01)."
    groups = {"intervention": "dexmedetomidine 0.3 ug/kg", "control": "propofol 1 mg/kg"}
    assert twins("pain score", text, "lower", **groups) == (1, 0)


def test_group_a_and_b_are_an_order_not_initials() -> None:
    text = "The pain score was significantly lower in group A (p = 0.01)."
    study = one_outcome("pain score", "4.1 (2.2, 6.0)", "0.001",
                        intervention="anion textile", control="pure cotton")
    assert judge(study, text, "direction_of_effect").score == 1


def test_group_c_is_the_control_described_as_control() -> None:
    text = ("The amount of fluid was significantly greater in group I than in group C "
            "(Table 2).")
    groups = {"intervention": "continuous goal-directed fluid therapy", "control": "control"}
    assert twins("amount of fluid", text, "higher", **groups) == (1, 0)


def test_an_abbreviation_in_the_singular_of_a_plural_one() -> None:
    """The name defines "(PEFRs)"; the summary writes "the PEFR"."""
    name = "peak flow rates (PEFRs)"
    text = "The PEFR in the drug A group was significantly lower than with placebo (P<0.001)."
    assert twins(name, text, "lower") == (1, 0)


@pytest.mark.parametrize(("name", "text"), [
    ("forced vital capacity (FVC)",
     "Trough FVC responses were significantly better with drug A compared with placebo "
     "(p < 0.001)."),
    ("tolerance", "Drug A was tolerated significantly better than placebo (P = 0.001)."),
    ("six-minute walk distance",
     "The six-minute walk distance improved significantly more with drug A than with placebo "
     "(p = 0.01)."),
])
def test_better_for_an_outcome_whose_good_side_is_higher(name: str, text: str) -> None:
    assert twins(name, text, "higher") == (1, 0)


def test_non_before_the_interventions_word_names_the_other_group() -> None:
    """"lower in implanted than non-implanted eyes": "non-" plus the intervention's own word
    is the control, not the intervention named on both sides."""
    text = ("The uveitis recurrence rate was lower in implanted than non-implanted eyes "
            "(26.5% vs 44.4%; P = 0.0433).")
    groups = {"intervention": "fluocinolone acetonide implant",
              "control": "standard-of-care local treatment"}
    assert twins("uveitis recurrence rate", text, "lower", **groups) == (1, 0)


def test_non_that_is_part_of_the_interventions_own_name_names_the_intervention() -> None:
    """"the non-dihydropyridine CCB initiators had more abdominal pain": the intervention
    is itself named with "non-", so it is not the other group."""
    text = ("Compared with thiazide initiators, the non-dihydropyridine CCB initiators had "
            "significantly more abdominal pain (p < 0.001).")
    groups = {"intervention": "Non-dihydropyridine calcium channel blockers (ndCCB)",
              "control": "Thiazide or thiazide-like diuretics"}
    assert twins("abdominal pain", text, "higher", **groups) == (1, 0)
