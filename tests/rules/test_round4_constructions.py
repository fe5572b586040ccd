"""builtin/rules, issue 14 round 4: more constructions of real trial prose that tie a
direction to its outcome and group. Each test states one construction with invented outcomes
and groups and checks both twins (accepted for the study that agrees, caught for the one that
contradicts), or, for a reading the juror must not make, that the claim stays ungrounded."""

from __future__ import annotations

from typing import Any

import pytest
from twin_studies import one_outcome, twins

from pytest_rwe.rules import judge
from pytest_rwe.rules.claims import analyze
from pytest_rwe.study import parse_study


def test_a_long_name_is_named_by_its_head() -> None:
    """"fentanyl consumption" names "the total amount of fentanyl consumption during the
    48 h after surgery": the words after "during" are its circumstances."""
    name = "the total amount of fentanyl consumption during the 48 h after surgery"
    text = "Fentanyl consumption was significantly lower with drug A than with placebo."
    assert twins(name, text, "lower") == (1, 0)


def test_a_head_shared_by_two_names_is_not_either() -> None:
    """"HbA1c" of "HbA1c at 6 months" beside "HbA1c at 12 months" names neither alone."""
    from pytest_rwe.rules.name_index import build_outcome_index

    raw: dict[str, Any] = {
        "id": "heads", "design": "cohort", "question": "q",
        "picot": {"population": "a", "intervention": "drug A", "control": "placebo",
                  "outcome": "HbA1c", "timeframe": "t"},
        "results": {"intervention_size": 1, "control_size": 1, "baseline_differences": {},
                    "outcomes": {"outcome.HbA1c.at.6.months_cont!MD": "-1.0 (-2.0, -0.1)",
                                 "outcome.HbA1c.at.12.months_cont!MD": "-1.0 (-2.0, -0.1)"}}}
    index = build_outcome_index(parse_study(raw))
    assert not [v for v in index.variants if v.strong == ("hba1c",)]


@pytest.mark.parametrize(("name", "text", "direction"), [
    # a participle after the sentence's one comparison
    ("satisfaction with care", "Satisfaction with care was the only aspect that displayed a "
     "significant difference between the groups (P = .04), with the drug A group scoring "
     "higher.", "higher"),
    # a relative clause after a parenthesized list
    ("reaction ability", "Significant differences between groups were limited to motor skills "
     "(reaction ability, orientation, coordination), which were higher in the drug A group "
     "(P < .05).", "higher"),
    # "this" after the name, in a clause of its own
    ("poor sleep quality", "Among subjects with poor sleep quality, this was reported more "
     "frequently by women in the placebo group compared with women in the drug A group "
     "(p = 0.02).", "lower"),
])
def test_a_direction_word_about_the_one_outcome_its_sentence_names(name: str, text: str,
                                                                   direction: str) -> None:
    assert twins(name, text, direction) == (1, 0)


@pytest.mark.parametrize("text", [
    # the argument names something else
    "Heart rate was measured, with a significant increase in oxygen uptake with "
    "drug A compared with placebo.",
    # a weak noun with a complement of its own
    "In the heart rate study, drug A gave significantly lower levels of endothelin than "
    "placebo.",
    # the sentence says there is no difference
    "Heart rate was the only measure that differed between the groups, with the drug A group "
    "scoring higher, but the difference was not statistically significant.",
    # another clause, not a referring one
    "Heart rate was 80 with drug A, but more patients could not be assessed with drug A than "
    "with placebo.",
])
def test_a_direction_word_about_something_else_stays_ungrounded(text: str) -> None:
    analysis = analyze(one_outcome("heart rate", "4.1 (2.2, 6.0)", "0.001"), text)
    assert not [c for c in analysis.grounded if c.direction in ("higher", "lower")]


@pytest.mark.parametrize(("intervention", "control", "text", "direction"), [
    # an abbreviation in the description's parentheses, with a group noun after it
    ("moderate hypothermia (ModHT group)", "mild hypothermia (MiHT group)",
     "Heart rate was significantly lower in the ModHT group (p = 0.01).", "lower"),
    # the first part of a hyphenated abbreviation
    ("single-pass batch dialysis (SLED-BD)", "continuous hemofiltration (CVVH)",
     "Heart rate was significantly lower in the SLED group (p = 0.01).", "lower"),
    # a hyphenated word whose parts name one group
    ("switching bipolar (SB) radiofrequency ablation (RFA)", "switching monopolar (SM) "
     "electrodes", "In the SB-RFA group, heart rate was significantly lower (p = 0.01).",
     "lower"),
    # descriptions alike but for their parentheses
    ("filtration surgery (trabeculectomy)", "filtration surgery (tube)",
     "Heart rate was significantly higher in the tube group than in the trabeculectomy "
     "group (P = 0.03).", "lower"),
    # a role word of supplementation
    ("copper, selenium and zinc", "placebo",
     "Heart rate was significantly lower in the supplemented group (p = 0.021).", "lower"),
    # the words both groups share, standing alone, are the control
    ("homeopathic syrup plus antibiotics", "homeopathic syrup alone",
     "Heart rate was significantly higher in patients who received syrup plus antibiotics "
     "than in those who took syrup alone.", "higher"),
    # "the combination" of the control and something more
    ("fentanyl with ketamine", "fentanyl",
     "The combination resulted in a significantly higher heart rate than fentanyl "
     "administered alone (P < 0.01).", "higher"),
    # "the comparison of" is not the comparison group
    ("transobturator sling (TOS)", "single-incision sling",
     "The comparison of heart rate revealed that patients in the TOS group had a "
     "significantly higher heart rate than patients in the single-incision sling group.",
     "higher"),
])
def test_a_group_named_by_its_form(intervention: str, control: str, text: str,
                                   direction: str) -> None:
    assert twins("heart rate", text, direction, intervention=intervention,
                 control=control) == (1, 0)


@pytest.mark.parametrize("text", [
    # "cefixime-treated patients": the participle is part of the group's name
    "Heart rate was 92 (84-114) for gatifloxacin recipients and 138 (105-164) for "
    "cefixime-treated patients (p < 0.0001).",
    # a third reference after the values: the first two are paired with them
    "Heart rate was 61.4% in the gatifloxacin group versus 86.7% receiving cefixime "
    "(a difference of 25.3% in favour of gatifloxacin, p < 0.001).",
])
def test_the_groups_values(text: str) -> None:
    assert twins("heart rate", text, "lower", intervention="gatifloxacin",
                 control="cefixime") == (1, 0)


def _groups(text: str, intervention: str, control: str) -> list[tuple[str, str]]:
    analysis = analyze(one_outcome("heart rate", "4.1 (2.2, 6.0)", "0.001",
                                   intervention=intervention, control=control), text)
    return [(g.group, analysis.tokens[g.position].text) for g in analysis.groups]


def test_the_combination_is_the_intervention_that_adds_to_the_control() -> None:
    text = ("When ketamine was added to fentanyl, the combination resulted in a higher heart "
            "rate than fentanyl administered alone.")
    assert ("intervention", "combination") in _groups(text, "fentanyl with ketamine",
                                                      "fentanyl")


def test_a_participle_after_a_hyphen_belongs_to_the_name() -> None:
    text = "Heart rate was 138 for cefixime-treated patients."
    assert _groups(text, "gatifloxacin", "cefixime") == [("control", "cefixime")]


def test_values_after_a_later_reference_are_not_the_first_two_groups() -> None:
    """"better tolerated than C in that fewer patients discontinued in the A group (9.7%
    compared with 14.7%)": the values are the discontinuations of the last group named, not
    a comparison of the first two."""
    text = ("Gatifloxacin was better tolerated than cefixime in that significantly fewer "
            "patients discontinued in the gatifloxacin group (9.7% compared with 14.7%, "
            "P = 0.001).")
    analysis = analyze(one_outcome("tolerance", "4.1 (2.2, 6.0)", "0.001",
                                   intervention="gatifloxacin", control="cefixime"), text)
    assert not [c for c in analysis.claims if c.cue and "compared" in c.cue.quote]


def test_a_word_between_a_name_and_its_group_noun_is_the_names() -> None:
    """"the urodynamic testing group": "testing" is no group of its own."""
    assert _groups("Heart rate was lower in the urodynamic testing group.",
                   "office evaluation with a urodynamic work-up", "office evaluation") == [
        ("intervention", "urodynamic")]


@pytest.mark.parametrize(("name", "text"), [
    ("positive stress test", "The drug A group had a 3.3% rate of positive stress test "
     "compared with 13.3% in the placebo group (p < 0.001)."),
    ("heart rate", "Drug A had a mean heart rate of 35.4 per patient compared with 51.1 for "
     "placebo (P < 0.001)."),
    # the value, then its group, then the comparison word
    ("complete response", "A complete response was achieved by 50.0% in the drug A group "
     "compared with 76.0% in the placebo group (P = 0.018)."),
    # two clauses set against each other by "whereas"
    ("discontinuation", "Placebo was discontinued in 24/73 (33%) of patients whereas drug A "
     "was discontinued in 5/66 (8%) of patients (P < 0.001)."),
])
def test_two_values_set_against_each_other(name: str, text: str) -> None:
    assert twins(name, text, "lower") == (1, 0)


@pytest.mark.parametrize(("name", "text", "direction"), [
    # "in favour of" a group, for an outcome whose good side is known
    ("dependence scale", "Significant differences in favour of drug A were observed on the "
     "dependence scale (p = 0.033).", "lower"),
    ("cognition", "Patients receiving drug A significantly outperformed those receiving "
     "placebo in cognition (P < 0.0001).", "higher"),
    ("survival", "The trial has shown a significant survival advantage for drug A over "
     "placebo.", "higher"),
    # a plain degree word made comparative
    ("heart rate", "Heart rate was significantly high in the drug A group compared to the "
     "placebo group.", "higher"),
    ("heart rate", "Heart rate was low in the drug A group than in the placebo group "
     "(p < 0.05).", "lower"),
    # "comparisons with placebo": placebo is the compared-against side
    ("heart rate", "Pairwise comparisons with placebo showed a significantly lower heart rate "
     "in the drug A group.", "lower"),
])
def test_a_comparison_said_without_a_comparative(name: str, text: str, direction: str) -> None:
    assert twins(name, text, direction) == (1, 0)


@pytest.mark.parametrize(("name", "text", "direction"), [
    # harms and goods whose good side the juror knows
    ("tension", "Significant improvements were found in the drug A group for tension "
     "compared to placebo (p = 0.01).", "lower"),
    ("arterial PaO2", "Drug A significantly improved the arterial PaO2 compared to placebo "
     "(p = 0.016).", "higher"),
    # the absence of a harm is good
    ("lack-of-ghosting", "For lack-of-ghosting, drug A was significantly better than placebo "
     "(p < 0.001).", "higher"),
    # a share between the compared group's value and its name
    ("low birth weight", "Low birth weight was significantly higher with drug A (26.3%) "
     "compared with 12.4% among those on placebo (p < 0.001).", "higher"),
])
def test_the_good_side_and_the_compared_side(name: str, text: str, direction: str) -> None:
    assert twins(name, text, direction) == (1, 0)


def test_a_ratio_after_the_name_says_the_direction() -> None:
    text = ("Treatment with drug A was associated with complete resolution of heartburn "
            "[adjusted OR 2.39; 95% CI 1.70-3.36; p < 0.0001].")
    assert twins("complete resolution of heartburn", text, "higher") == (1, 0)


@pytest.mark.parametrize(("name", "text"), [
    # an interval holding 1
    ("complete resolution of heartburn", "Treatment with drug A was associated with complete "
     "resolution of heartburn (p = 0.04) [adjusted OR 2.39; 95% CI 0.70-3.36]."),
    # a hazard ratio for a time is the hazard of the event
    ("time to first relapse", "Time to first relapse was reported with drug A (hazard ratio "
     "0.655 [95% CI 0.517-0.830], p = 0.0005)."),
    # no group named as the ratio's subject
    ("complete resolution of heartburn", "Complete resolution of heartburn was reported "
     "(OR 2.39; 95% CI 1.70-3.36)."),
])
def test_a_ratio_not_read(name: str, text: str) -> None:
    analysis = analyze(one_outcome(name, "4.1 (2.2, 6.0)", "0.001"), text)
    assert not [c for c in analysis.grounded
                if c.cue is not None and ("OR" in c.cue.quote or "hazard" in c.cue.quote)]


def test_the_size_of_a_change_that_is_the_outcome() -> None:
    """"Mean improvement in VA was greater": the outcome is an improvement, so a greater one
    is higher, whatever the good side of the improvement."""
    text = ("Mean improvement in VA was significantly greater with drug A than with placebo "
            "(P = 0.0047).")
    assert twins("mean improvement in visual acuity (VA)", text, "higher") == (1, 0)


@pytest.mark.parametrize(("text", "direction"), [
    # a name followed at once by a common word of the other group ("usual care")
    ("Significantly more patients in the drug A care arm compared to the usual care arm "
     "reported heart rate events (18% vs 9%, p = 0.02).", "higher"),
    # braces hold values, not the groups' sides
    ("Heart rate was significantly higher in the usual care group {85.5 in drug A and 244; "
     "p = 0.004}.", "lower"),
    # "preferred A to B": B is compared against
    ("A significantly greater heart rate preferred drug A to usual care (67.0% versus 30.4%; "
     "P < 0.001).", "higher"),
])
def test_group_sides_in_brackets_and_compounds(text: str, direction: str) -> None:
    assert twins("heart rate", text, direction, control="usual care") == (1, 0)


def test_a_label_the_summary_defines() -> None:
    """"Group 2 (drug A) ... than Group 1 (placebo)": the parenthesis says which group the
    label is, for the study that gives no labels."""
    text = ("A significant reduction in heart rate was observed for Group 2 (drug A) than "
            "Group 1 (placebo).")
    assert twins("heart rate", text, "lower") == (1, 0)


def test_the_change_noun_an_intensifier_composes_with_is_no_claim_of_its_own() -> None:
    """"The mean increase in X in group A was significantly less than that of group B": X
    rose less with A; "increase" alone would say it rose more."""
    text = ("The mean increase in heart rate in days 1 and 2 in Group I (drug A) was "
            "significantly less than that of Group II (placebo).")
    assert twins("heart rate", text, "lower") == (1, 0)


def test_values_of_three_arms_respectively() -> None:
    """Both of the intervention's arms above the control: the intervention is higher."""
    text = ("Mean heart rate at 7 years was 53.9 ± 1.9, 54.2 ± 1.9, and 35.3 ± 2.0 mL/min per "
            "1.73 m2 for drug A low, drug A high and placebo, respectively (p < 0.001).")
    assert twins("heart rate", text, "higher") == (1, 0)


def test_values_of_three_arms_on_both_sides_are_not_read() -> None:
    text = ("Mean heart rate was 53.9, 30.2 and 35.3 for drug A low, drug A high and "
            "placebo, respectively (p < 0.001).")
    analysis = analyze(one_outcome("heart rate", "4.1 (2.2, 6.0)", "0.001"), text)
    assert not [c for c in analysis.grounded if c.direction in ("higher", "lower")]


def test_values_with_no_test_are_judged_against_a_significant_result_only() -> None:
    """"Definitive cure was achieved in 85.9% with placebo compared to 98.4% with drug A":
    the values say drug A is higher; a study with the opposite significant result is
    contradicted, one without a significant result is not (values may differ by chance)."""
    text = "Definitive cure was achieved in 85.9% with placebo compared to 98.4% with drug A."
    assert twins("definitive cure", text, "higher") == (1, 0)
    not_significant = one_outcome("definitive cure", "-4.1 (-9.0, 0.8)", "0.40")
    assert judge(not_significant, text, "direction_of_effect").score == 1


def test_values_at_baseline_are_no_effect() -> None:
    text = ("This cohort compared 149 adults on drug A with 1,273 on placebo; at baseline, mean "
            "heart rate was 7.10 in drug A initiators and 6.98 in placebo initiators.")
    assert twins("heart rate", text, "lower") == (1, 1)


def test_a_p_value_cut_off_by_the_sentence_split() -> None:
    """"... was 13.5±4. (P=0.0001).": the p-value after the stray full stop tests the values,
    so a study without a significant result is contradicted."""
    text = ("Heart rate in the placebo group was 9±2.35 and in the drug A group was 13.5±4. "
            "(P=0.0001).")
    not_significant = one_outcome("heart rate", "4.1 (-0.8, 9.0)", "0.40")
    assert judge(not_significant, text, "direction_of_effect").score == 0


def test_values_with_the_test_elsewhere_in_their_sentence_are_not_untested() -> None:
    """"X occurred in 61.3% with A and in 41.9% with placebo, however this difference was
    not statistically significant": no side is asserted against a significant study."""
    text = ("Heart rate events occurred in 61.3% in the drug A group and in 41.9% in the "
            "placebo group, however this difference was not statistically significant.")
    significant_other_way = one_outcome("heart rate events", "-4.1 (-6.0, -2.2)", "0.001")
    assert judge(significant_other_way, text, "direction_of_effect").score == 1
