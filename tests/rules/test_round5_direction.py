"""builtin/rules, issue 14 round 5: readings of direction_of_effect that raised false alarms
on prose written by someone who never read the code. Each test states one construction with
invented outcomes and groups: either both twins (accepted for the study that agrees, caught
for the one that contradicts), or that a correct summary of a study is accepted."""

from __future__ import annotations

import pytest
from twin_studies import binary_study

from pytest_rwe.rules import judge
from pytest_rwe.rules.claims import analyze
from pytest_rwe.study import Study


def study(*outcomes: tuple[str, str, str, str | None], intervention: str = "drug A",
          control: str = "placebo") -> Study:
    """A cohort study of (name, measure, estimate, p) binary outcomes."""
    return binary_study(*outcomes, intervention=intervention, control=control,
                        study_id="round5")


def direction(s: Study, text: str) -> int:
    return judge(s, text, "direction_of_effect").score


def ratio_twins(name: str, text: str, higher: bool, p: str | None = "0.001"
                ) -> tuple[int, int]:
    """The direction score for the study whose ratio agrees with ``higher`` and the one
    whose ratio contradicts it."""
    up, down = "1.66 (1.52, 1.81)", "0.60 (0.55, 0.66)"
    agree, contradict = (up, down) if higher else (down, up)
    return (direction(study((name, "HR", agree, p)), text),
            direction(study((name, "HR", contradict, p)), text))


@pytest.mark.parametrize("text", [
    "In adults with a BMI of 40 kg/m2 or more treated for a clot, stroke did not differ "
    "significantly between drug A and placebo (HR 0.28, 95% CI 0.07-1.11, p = 0.07).",
    "Among adults aged 65 years or older, stroke did not differ significantly between drug A "
    "and placebo (p = 0.07).",
])
def test_or_more_after_a_quantity_is_a_bound(text: str) -> None:
    """"40 kg/m2 or more", "65 years or older": a bound of the population, over the unit,
    not a comparison of the groups."""
    s = study(("stroke", "HR", "0.28 (0.07, 1.11)", "0.07"))
    assert direction(s, text) == 1
    assert not [c for c in analyze(s, text).claims if c.direction in ("higher", "lower")]


def test_a_comparative_before_a_hyphenated_compound_is_of_its_noun() -> None:
    """"a higher multivariable-adjusted hazard": the comparative qualifies the hazard, the
    compound before it is no adjective the comparative is about ("more effective")."""
    text = ("Patients on drug A had a significantly higher multivariable-adjusted hazard of "
            "stroke than patients on placebo (p = 0.005).")
    assert ratio_twins("stroke", text, higher=True) == (1, 0)


@pytest.mark.parametrize("text", [
    "Compared with placebo, drug A was associated with higher odds of every diagnosis, with "
    "smaller excesses for stroke (OR 1.66, 1.52-1.81).",
    "Drug A carried a smaller but still significant excess risk of stroke than placebo "
    "(HR 1.66, 1.52-1.81).",
])
def test_the_size_of_an_excess_is_no_direction(text: str) -> None:
    """An excess is the amount over the group compared against: "smaller excesses" compares
    two excesses and still says higher."""
    s = study(("stroke", "HR", "1.66 (1.52, 1.81)", "0.001"))
    assert direction(s, text) == 1
    assert not [c for c in analyze(s, text).claims if c.direction == "lower"]


def test_an_excess_is_higher() -> None:
    text = ("Compared with placebo, drug A was associated with higher odds of every diagnosis,"
            " with smaller excesses for stroke (OR 1.66, 1.52-1.81).")
    assert ratio_twins("stroke", text, higher=True)[1] == 0


@pytest.mark.parametrize("text", [
    "Patients on drug A were more than five times as likely to have a stroke on follow-up "
    "as patients on placebo (RR 4.67).",
    "Patients on drug A were about half again as likely to have a stroke as patients on "
    "placebo (HR 1.52).",
])
def test_the_second_as_of_a_multiple_names_the_compared_side(text: str) -> None:
    """"five times as likely to have X as B", "half again as likely as B": B is the side
    compared against, and "half again" is one and a half times."""
    assert ratio_twins("stroke", text, higher=True, p=None) == (1, 0)


def test_a_difference_negated_over_a_list() -> None:
    """"was not linked to any significant difference in A, B or C": no difference in each,
    not a significant one."""
    s = study(("stroke", "HR", "0.46 (0.08, 2.53)", "0.373"),
              ("major bleeding", "HR", "0.96 (0.40, 2.30)", "0.932"),
              ("death", "HR", "1.35 (0.49, 3.76)", "0.564"))
    text = ("Drug A was not linked to any significant difference in major bleeding, death or "
            "stroke compared with placebo.")
    assert direction(s, text) == 1
    assert {c.direction for c in analyze(s, text).claims if c.outcome} == {"null"}


def test_neither_nor_before_a_significant_difference() -> None:
    """"neither A (HR ..) nor B (HR ..) showed a significant difference": negated by "nor"."""
    s = study(("stroke", "HR", "0.90 (0.70, 1.20)", "0.40"),
              ("death", "HR", "0.94 (0.80, 1.10)", "0.40"))
    text = ("Versus placebo, neither stroke (HR 0.90) nor death (HR 0.94, p = 0.40) - showed a "
            "significant difference with drug A.")
    assert direction(s, text) == 1


def _md_twins(name: str, text: str, higher: bool) -> tuple[int, int]:
    up, down = "1.81 (1.13, 2.48)", "-1.81 (-2.48, -1.13)"
    agree, contradict = (up, down) if higher else (down, up)
    return (direction(study((name, "MD", agree, "0.001"), control="comparator drugs"), text),
            direction(study((name, "MD", contradict, "0.001"), control="comparator drugs"),
                      text))


def test_an_intensifier_before_a_name_is_that_outcomes_comparative() -> None:
    """"a slower decline and less albuminuria": "less" is albuminuria's own comparative, not
    the size of the decline before it."""
    text = ("Drug A was associated with a slower decline and less albuminuria than comparator "
            "drugs.")
    assert _md_twins("albuminuria", text, higher=False) == (1, 0)


@pytest.mark.parametrize(("text", "higher"), [
    ("Drug A users showed a significantly slower yearly eGFR decline than comparator drugs.",
     True),
    ("Drug A users showed a significantly faster yearly eGFR decline than comparator drugs.",
     False),
])
def test_the_rate_of_a_change(text: str, higher: bool) -> None:
    """"a slower eGFR decline" is a smaller fall: eGFR is higher; "faster", a larger one."""
    assert _md_twins("eGFR change", text, higher=higher) == (1, 0)


def _composite_study() -> Study:
    return study(("composite outcome", "HR", "0.60 (0.49, 0.73)", "0.001"),
                 ("cognitive decline", "HR", "0.62 (0.51, 0.76)", "0.001"),
                 ("dementia", "HR", "0.48 (0.19, 1.17)", "0.097"))


@pytest.mark.parametrize("text", [
    "- Composite outcome (cognitive decline or dementia): 40% lower hazard with drug A than "
    "placebo, HR 0.60 (95% CI 0.49-0.73), p < 0.001",
    "Drug A users were about 40% less likely than placebo users to have cognitive decline or "
    "dementia (taken together).",
])
def test_names_that_describe_a_composite_are_no_claims_of_their_own(text: str) -> None:
    """Names in a bracket right after a composite's name, or listed and then "taken
    together", are the composite's components: "40% lower" is not said of dementia."""
    s = _composite_study()
    assert direction(s, text) == 1
    claims = analyze(s, text).claims
    assert not [c for c in claims if c.outcome is not None and c.outcome.key.endswith(
        "dementia_bin")]
    assert not [c for c in claims if c.cue is not None and c.cue.quote == "decline"]


def test_names_listed_without_a_composite_are_each_claimed() -> None:
    text = ("Drug A users had a lower risk of cognitive decline (HR 0.62) and of dementia than "
            "placebo users.")
    s = _composite_study()
    assert direction(s, text) == 0  # dementia is not significant: an effect is claimed


@pytest.mark.parametrize("text", [
    "Relapse was defined as a higher symptom grade with drug A or placebo.",
    "Relapse (a score of more than or equal to 3 on a 7-grade scale) was recorded with drug A "
    "and with placebo.",
])
def test_a_definition_or_a_bound_states_no_direction(text: str) -> None:
    """"was defined as a score of more than 3", "more than or equal to 3": how the outcome
    is measured, not a result."""
    s = study(("relapse", "HR", "0.60 (0.55, 0.66)", "0.001"))
    assert direction(s, text) == 1
    assert not [c for c in analyze(s, text).claims if c.direction in ("higher", "lower")]


def test_a_change_to_a_value_is_a_change_over_time() -> None:
    """"which at 36 weeks decreased to 90.6% and 74.1%, respectively": each group's change
    over time, not a side; the sentence's one outcome is not given "lower"."""
    s = study(("excellent response", "HR", "1.60 (1.30, 1.90)", "0.002"),
              intervention="isotretinoin daily", control="isotretinoin on alternate days")
    text = ("At the end of 24 weeks, the excellent response in treatment groups A and B was "
            "seen in 98.3% and 93.9% patients, respectively (P 0.166), which at the end of 36 "
            "weeks decreased to 90.6% and 74.1% patients, respectively (P 0.004).")
    assert direction(s, text) == 1
    assert not [c for c in analyze(s, text).grounded if c.direction == "lower"]


def _md_study(md: str, p: str) -> Study:
    return study(("treatment duration", "MD", md, p), intervention="drug A",
                 control="placebo")


def test_values_tested_in_the_next_sentence() -> None:
    """"X was 5.3 and 3.4 days in the A and B groups, respectively. The t-test showed no
    significant difference between the two groups": the values were tested (not
    significant), so they assert no side; a significant test there makes them a claim."""
    values = ("The mean treatment duration in the drug A and placebo groups was 5.3 and 3.4 "
              "days, respectively.")
    null = values + " The t-test showed no significant difference between the two groups."
    assert direction(_md_study("-1.9 (-2.5, -1.3)", "0.001"), null) == 1
    found = values + " The superiority of placebo was highly significant (P < 0.0001)."
    assert direction(_md_study("-1.9 (-2.5, -1.3)", "0.001"), found) == 0
    assert direction(_md_study("1.9 (1.3, 2.5)", "0.001"), found) == 1


def test_a_ratio_of_another_comparison_is_not_read() -> None:
    """A ratio after the name that is neither the study's nor its inverse is of another
    comparison (a subgroup, a per-unit ratio): its side is not read."""
    text = ("Treatment with drug A was associated with complete resolution of heartburn "
            "[adjusted OR 2.39; 95% CI 1.70-3.36; p < 0.0001].")
    other = study(("complete resolution of heartburn", "OR", "0.80 (0.70, 0.90)", "0.001"))
    assert direction(other, text) == 1
    inverse = study(("complete resolution of heartburn", "OR", "0.42 (0.30, 0.59)", "0.001"))
    assert direction(inverse, text) == 0


def test_a_connective_set_off_by_commas_does_not_cut_the_clause() -> None:
    """"Albuminuria, however, was lower in the placebo group": "however" between commas is
    parenthetical; the outcome before it is the subject of the direction after it."""
    text = ("Drug A users kept more kidney function. Albuminuria, however, was lower in the "
            "placebo group, by 44.3 mg/g (p < 0.0001).")
    up, down = "44.3 (21.7, 66.9)", "-44.3 (-66.9, -21.7)"
    assert direction(study(("albuminuria", "MD", up, "0.0001")), text) == 1
    assert direction(study(("albuminuria", "MD", down, "0.0001")), text) == 0


@pytest.mark.parametrize(("text", "score"), [
    # a word of size states the direction all the same
    ("Stroke was slightly lower with drug A than with placebo (HR 0.94).", 0),
    ("Stroke was marginally higher with drug A than with placebo (HR 1.03).", 0),
    # a hedge of the significance is not an assertion of an effect
    ("Stroke was marginally significantly higher with drug A than with placebo (HR 1.03).", 1),
    ("Stroke was numerically higher with drug A than with placebo (HR 1.03).", 1),
])
def test_a_size_word_is_no_hedge(text: str, score: int) -> None:
    """"slightly lower", "marginally higher" state a direction of a non-significant result;
    "marginally significantly" and "numerically" hedge it."""
    s = study(("stroke", "HR", "1.03 (0.99, 1.07)", "0.085"))
    if "lower" in text:
        s = study(("stroke", "HR", "0.94 (0.70, 1.26)", "0.677"))
    assert direction(s, text) == score


def test_the_side_after_similar_to_is_the_compared_one() -> None:
    """"A showed a similar 30-day mortality to B, and was associated with a 7% reduction in
    the odds of death at 90 days": B is the compared-against side of the whole clause."""
    s = study(("death", "OR", "0.93 (0.82, 1.05)", "0.247"), intervention="spinal anaesthesia",
              control="general anaesthesia")
    text = ("Spinal anaesthesia showed a similar 30-day stroke rate to general anaesthesia, "
            "and was associated with a 7% reduction in the odds of death (OR 0.93).")
    claims = [c for c in analyze(s, text).grounded if c.outcome is not None]
    assert [(c.direction, c.flipped) for c in claims] == [("lower", False)]
    assert direction(s, text) == 0  # p = 0.247: the reduction is not significant


@pytest.mark.parametrize("text", [
    "Neutropenia did not differ, and there was no evidence that drug A raised the risk of "
    "stroke (HR 1.04, 0.97 to 1.12).",
    "Drug A did not translate into more stroke than placebo (HR 1.04, 0.97 to 1.12).",
])
def test_a_negated_that_clause_or_verb_of_consequence(text: str) -> None:
    """"no evidence that A raised X", "did not translate into more X": no difference."""
    s = study(("stroke", "HR", "1.04 (0.97, 1.12)", "0.221"))
    assert direction(s, text) == 1
    assert [c.direction for c in analyze(s, text).claims if c.outcome] == ["null"]


def test_the_of_after_a_multiple_names_the_compared_side() -> None:
    """"had more than twice the mortality of those on placebo": those are compared against."""
    text = ("Patients on drug A had more than twice the stroke rate of those on placebo "
            "(HR 2.19, 95% CI 1.18-4.05).")
    assert ratio_twins("stroke", text, higher=True, p=None) == (1, 0)


def test_a_direction_word_paired_with_the_other_groups_word_names_a_group() -> None:
    """"between the reduced and standard doses": "reduced" of "reduced-dose drug A" paired
    with "standard" of "standard-dose drug A" names the groups, not a reduction."""
    groups = {"intervention": "Off-label reduced-dose drug A",
              "control": "Standard-dose drug A"}
    s = study(("stroke", "HR", "1.12 (0.73, 1.73)", "0.596"), **groups)
    text = ("There was no significant difference between the reduced and standard doses in "
            "stroke (HR 1.12, 95% CI 0.73-1.73, p = 0.596).")
    assert direction(s, text) == 1
    assert [c.direction for c in analyze(s, text).claims if c.outcome] == ["null"]
    # unpaired, the word is a claim
    claim = "The reduced dose reduced stroke compared with the standard dose (HR 1.12)."
    assert [c.direction for c in analyze(s, claim).claims if c.outcome] == ["lower"]


def test_a_verdict_with_no_outcome_and_a_subject_of_its_own() -> None:
    """"People without a prescription for A did worse than those given it": "did worse"
    names no outcome (not the "stroke" of the subject's description); "patients sent home on
    the drug had a lower risk of death": the clause names its own subject, so the group of
    the sentence before (the control) is not carried over to it."""
    s = study(("stroke", "HR", "0.94 (0.80, 1.10)", "0.40"),
              ("death", "HR", "0.69 (0.60, 0.79)", "0.001"),
              intervention="Valsartan prescription at discharge",
              control="No valsartan prescription at discharge")
    text = ("Older people leaving hospital after stroke without a prescription for valsartan "
            "did worse than those who were given it. After weighting, patients sent home on "
            "the drug had a lower risk of death (HR 0.69, p < 0.001).")
    assert direction(s, text) == 1
    claims = [c for c in analyze(s, text).claims if c.outcome is not None]
    assert not [c for c in claims if c.flipped or c.valence]
    # "did better on X" names its outcome
    on = "Those given valsartan did better on stroke than those without it."
    assert [c.valence for c in analyze(s, on).claims if c.outcome] == [True]


def test_a_subject_group_not_named_is_no_side() -> None:
    """"Patients on the older drugs were more often diagnosed with X": the clause's subject
    is a group described by words that name neither group, so its side is unknown (not the
    intervention by convention)."""
    s = study(("stroke", "HR", "0.62 (0.51, 0.76)", "0.001"), intervention="sacubitril",
              control="ACE inhibitor")
    text = ("This study followed adults for three years. Patients on the older drugs were also "
            "more often diagnosed with stroke.")
    assert direction(s, text) == 1
    assert not [c for c in analyze(s, text).grounded if c.outcome is not None
                and c.direction in ("higher", "lower")]


def test_an_adjective_before_impairment_names_a_condition() -> None:
    """"a higher likelihood of presenting bilateral visual impairment": "visual impairment"
    is the condition, not a worsening; "higher" is the claim."""
    text = ("Drug A was associated with a significantly higher likelihood of presenting "
            "bilateral visual impairment than placebo (OR 1.33, 0.96-1.92, p = 0.082).")
    s = study(("presenting bilateral VI or blindness", "OR", "1.33 (0.96, 1.92)", "0.082"))
    assert direction(s, text) == 0  # called significant, p = 0.082
    assert not [c for c in analyze(s, text).claims if c.cue is not None
                and c.cue.quote == "impairment"]
