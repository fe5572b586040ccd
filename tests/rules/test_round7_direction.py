"""builtin/rules, issue 14 round 7: readings of direction_of_effect on hand-written prose,
each a rule of English about how summaries state results, with invented outcomes and groups."""

from __future__ import annotations

from typing import Any

from twin_studies import binary_study

from pytest_rwe.rules import judge
from pytest_rwe.study import Study, parse_study


def direction(s: Study, text: str) -> int:
    return judge(s, text, "direction_of_effect").score


def case_series(name: str, shares: dict[str, str]) -> Study:
    """A case series reporting the share with ``name`` at several time points."""
    outcomes = {f"outcome_{time}.{name.replace(' ', '_')}_bin!PCT": value
                for time, value in shares.items()}
    raw: dict[str, Any] = {
        "id": "round7", "design": "case_series", "question": "How often does it happen?",
        "picot": {"population": "Adults after surgery", "intervention": "Surgery A",
                  "control": "No control group", "outcome": name, "timeframe": "2 years"},
        "results": {"intervention_size": 120, "control_size": None,
                    "baseline_differences": {}, "outcomes": outcomes}}
    return parse_study(raw)


def test_a_change_over_time_is_checked_against_the_values_at_the_time_points() -> None:
    """"walking independence increased between six months and two years": a change word
    tied to two time points of one outcome states how its value moved between them."""
    s = case_series("walking independence", {"6mo": "61.5", "24mo": "48.2"})
    assert direction(s, "The share with walking independence increased between six months "
                        "(61.5%) and two years (48.2%).") == 0
    assert direction(s, "The share with walking independence fell between six months "
                        "(61.5%) and two years (48.2%).") == 1
    # a change from before surgery to each time point says nothing of how they compare
    assert direction(s, "Compared with before surgery, walking independence increased, to "
                        "61.5% at six months and 48.2% at two years.") == 1


def test_a_steady_change_holds_at_every_time_point_in_between() -> None:
    """"rose steadily from 20% at 3 months to 45% at 24 months" asserts a rise at each
    reported step, so a dip at 12 months contradicts it; without "steadily" only the two
    ends are compared, and a clause that also says it fell is not judged."""
    s = case_series("walking independence",
                    {"3mo": "20.1", "6mo": "52.0", "12mo": "41.3", "24mo": "45.0"})
    steady = ("Walking independence rose steadily over follow-up, from 20.1% at 3 months to "
              "45.0% at 24 months.")
    assert direction(s, steady) == 0
    assert direction(s, steady.replace(" steadily", "")) == 1
    assert direction(s, "Walking independence rose from 20.1% at 3 months to 52.0% at 6 "
                        "months and then fell to 41.3% at 12 months.") == 1


def crude_and_adjusted() -> Study:
    """A cross-sectional study: the exposed group's crude share of gout is higher, the
    adjusted odds ratio below 1."""
    raw: dict[str, Any] = {
        "id": "round7", "design": "cross_sectional", "question": "Is exposure A linked to gout?",
        "picot": {"population": "Adults", "intervention": "Exposure to solvent A",
                  "control": "No exposure to solvent A", "outcome": "gout",
                  "timeframe": "One survey"},
        "results": {"intervention_size": 900, "control_size": 2100, "baseline_differences": {},
                    "outcomes": {"outcome.gout_bin!OR": "0.91 (0.70, 1.18)",
                                 "outcome.gout_share.exposed_bin!PCT": "7.4 (6.0, 8.9)",
                                 "outcome.gout_share.unexposed_bin!PCT": "5.1 (4.2, 6.1)"}}}
    return parse_study(raw)


def test_a_comparison_stated_with_the_groups_own_values_is_about_those_values() -> None:
    """"gout was more common among the exposed than among the unexposed (7.4% vs 5.1%)" is
    true of the crude shares the study reports, whatever the adjusted ratio; values that
    contradict the words, or words alone, are still judged against the ratio."""
    s = crude_and_adjusted()
    crude = ("Gout was more common among the 900 people exposed to solvent A than among the "
             "2,100 without exposure (7.4% vs 5.1%); adjusted, there was no association.")
    assert direction(s, crude) == 1
    assert direction(s, crude.replace("7.4% vs 5.1%", "5.1% vs 7.4%")) == 0
    assert direction(s, "Gout was more common among people exposed to solvent A than among "
                        "those without exposure.") == 0


def test_a_degree_word_asserts_the_difference_it_sizes() -> None:
    """"somewhat more likely" sizes a difference, it does not hedge it ("tended to",
    "may"): stated for a non-significant result, it asserts an effect the results do not
    support, as "slightly more likely" does; the hedges still excuse it."""
    s = binary_study(("gout", "OR", "1.04 (0.96, 1.12)", "0.41"))
    assert direction(s, "Adults on drug A were somewhat more likely to have gout than adults "
                        "on placebo (OR 1.04).") == 0
    assert direction(s, "Adults on drug A were slightly more likely to have gout than adults "
                        "on placebo (OR 1.04).") == 0
    assert direction(s, "Adults on drug A tended to be more likely to have gout than adults "
                        "on placebo (OR 1.04).") == 1


def change_series() -> Study:
    """A case series with two changes from baseline: weight (kg) and hip circumference (cm)."""
    raw: dict[str, Any] = {
        "id": "round7", "design": "case_series", "question": "What changes on drug A?",
        "picot": {"population": "Adults", "intervention": "Drug A",
                  "control": "No control group (same patients at baseline)",
                  "outcome": "weight and hip circumference", "timeframe": "6 months"},
        "results": {"intervention_size": 60, "control_size": None, "baseline_differences": {},
                    "outcomes": {"outcome_6mo.body_weight_change_kg_cont!MD": "-2.1",
                                 "outcome_6mo.hip_circumference_change_cm_cont!MD": "-1.8"}}}
    return parse_study(raw)


def test_a_change_verb_inside_a_name_read_with_its_unit_is_the_names_predicate() -> None:
    """"hip circumference rose by 1.8 cm" is read as the name "hip circumference change cm"
    with the verb inside it: the verb still states the change, beside another outcome. Only
    a time point before the verb ("at 6 months, greater gains in X") is not such a name."""
    s = change_series()
    assert direction(s, "Patients lost 2.1 kg of body weight, although hip circumference rose "
                        "by 1.8 cm.") == 0
    assert direction(s, "Patients lost 2.1 kg of body weight, and hip circumference fell "
                        "by 1.8 cm.") == 1


def test_a_subgroup_named_as_the_subject_with_the_outcome_after_the_verb() -> None:
    """"smokers alone carried a higher gout risk" for the outcome "gout, smokers only": the
    verb between the subgroup and the outcome's name is the claim about that subgroup."""
    s = binary_study(("gout.smokers_only", "HR", "1.20 (0.90, 1.60)", "0.21"),
                     ("gout.drinkers_only", "HR", "1.45 (1.10, 1.90)", "0.008"))
    assert direction(s, "Among adults on drug A, smokers alone had a higher gout risk than "
                        "placebo.") == 0
    assert direction(s, "Among adults on drug A, drinkers alone had a higher gout risk than "
                        "placebo.") == 1


def test_a_word_on_a_combining_form_gives_an_initial_to_each_part() -> None:
    """"NVI" for "neurovascular injury" (neuro|vascular): the initialism medical prose uses
    for a word built on a combining form names the outcome; the plain initials still do."""
    s = binary_study(("neurovascular_injury", "HR", "1.60 (1.20, 2.10)", "0.001"))
    assert direction(s, "Drug A was associated with a lower risk of NVI than placebo.") == 0
    assert direction(s, "Drug A was associated with a higher risk of NVI than placebo.") == 1


def test_more_of_an_event_named_by_a_change_noun_counts_the_events() -> None:
    """"functional decline was more common with drug A": the yes/no outcome is itself a
    decline, so "more" counts declines (higher), it does not size a fall (lower)."""
    s = binary_study(("functional_decline", "HR", "0.70 (0.60, 0.82)", "0.001"))
    assert direction(s, "Functional decline was more common with drug A than with "
                        "placebo (HR 0.70).") == 0
    assert direction(s, "Functional decline was less common with drug A than with "
                        "placebo (HR 0.70).") == 1


def test_a_headings_bracketed_estimates_do_not_end_it_before_its_colon() -> None:
    """"- Stroke (HR 1.25) and gout (HR 1.17): higher with placebo": a note's heading of
    names, each with its estimate in brackets, and the direction after the colon are one
    claim, as they are without the brackets."""
    s = binary_study(("stroke", "HR", "1.25 (1.05, 1.50)", "0.01"),
                     ("gout", "HR", "1.17 (1.02, 1.33)", "0.02"))
    note = "- Stroke (HR 1.25) and gout (HR 1.17): higher with {}\n"
    assert direction(s, note.format("placebo")) == 0
    assert direction(s, note.format("drug A")) == 1


def test_all_after_a_list_takes_the_listed_names_up() -> None:
    """"stroke HR 1.25, gout HR 1.17 and falls HR 0.74, all significantly higher with drug
    A": "all" (or "both", "each") after a list gives the predicate to every name in it."""
    s = binary_study(("stroke", "HR", "1.25 (1.05, 1.50)", "0.01"),
                     ("gout", "HR", "1.17 (1.02, 1.33)", "0.02"),
                     ("falls", "HR", "0.74 (0.60, 0.90)", "0.004"))
    assert direction(s, "Drug A vs placebo: stroke HR 1.25, gout HR 1.17 and falls HR 0.74, "
                        "all significantly higher with drug A.") == 0
    assert direction(s, "Drug A vs placebo: stroke HR 1.25 and gout HR 1.17, both "
                        "significantly higher with drug A.") == 1


def test_how_often_without_a_name_takes_up_the_one_outcome_named_before() -> None:
    """"For gout attacks the pattern was reversed: placebo users had a 52% higher incidence
    than people on drug A": "incidence" (or "risk", "rate", "odds") with no name after it
    measures the one outcome the sentence named, as "lower scores than B" does."""
    s = binary_study(("gout_attacks", "HR", "1.52 (1.40, 1.70)", None),
                     ("stroke", "HR", "1.90 (1.50, 2.20)", None))
    lead = "For gout attacks the pattern was quite reversed: "
    assert direction(s, lead + "placebo users had a 52% higher incidence than people on "
                               "drug A (hazard ratio 1.52).") == 0
    assert direction(s, lead + "people on drug A had a 52% higher risk than placebo users "
                               "(hazard ratio 1.52).") == 1


def test_how_often_in_a_later_clause_does_not_take_up_another_subgroup() -> None:
    """"gout rose in drinkers alone (HR 1.45), whereas smokers alone had a lower risk": the
    clause's own subject names another subgroup, so "a lower risk" is not the drinkers'."""
    s = binary_study(("gout.drinkers_only", "HR", "1.45 (1.10, 1.90)", None),
                     ("gout.smokers_only", "HR", "1.20 (1.05, 1.40)", None))
    assert direction(s, "With drug A, gout was higher in drinkers alone (HR 1.45), whereas "
                        "smokers had a lower risk than placebo users.") == 1
