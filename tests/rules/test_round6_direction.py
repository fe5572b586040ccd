"""builtin/rules, issue 14 round 6: readings of direction_of_effect, each a rule of English
about how trial prose states results, stated with invented outcomes and groups."""

from __future__ import annotations

from twin_studies import binary_study, one_outcome, twins

from pytest_rwe.rules import judge
from pytest_rwe.rules.claims import analyze
from pytest_rwe.study import Study


def study(*outcomes: tuple[str, str, str, str | None], intervention: str = "drug A",
          control: str = "placebo") -> Study:
    """A cohort study of (name, measure, estimate, p) binary outcomes."""
    return binary_study(*outcomes, intervention=intervention, control=control,
                        study_id="round6")


def direction(s: Study, text: str) -> int:
    return judge(s, text, "direction_of_effect").score


def test_a_sign_after_p_bounds_the_p_value_not_a_group() -> None:
    """"HR 1.3 (1.1-1.4), p<0.0001" for groups described by a dose bound ("(<=250 mg)",
    read as "below"): the sign bounds the p-value; it does not name the lower-dose group
    as the side of the ratio (which would read HR 1.3 from that group's side, as lower)."""
    s = study(("stroke", "HR", "1.30 (1.10, 1.40)", "0.0001"),
              intervention="Long course of drug A (>250 mg)",
              control="Short course of drug A (<=250 mg)")
    text = "Long vs short course. At 1 yr: stroke HR 1.3 (1.1-1.4), p<0.0001."
    assert direction(s, text) == 1
    assert not [c for c in analyze(s, text).claims if c.direction == "lower"]


def test_half_of_the_people_is_a_share_not_a_halving() -> None:
    """"Nearly half of adults with drug A (48%) had a stroke": a share of a group, not a
    halving; "half the risk" still is one."""
    s = study(("stroke", "OR", "3.10 (2.50, 3.90)", "0.001"))
    share = "Nearly half of adults on drug A (48%) had a stroke, compared with 21% on placebo."
    assert direction(s, share) == 1
    assert not [c for c in analyze(s, share).claims if c.direction == "lower"]
    assert direction(s, "Drug A gave half the risk of stroke of placebo (p = 0.001).") == 0


def test_an_instrument_is_named_by_its_initials_before_what_is_read_off_it() -> None:
    """"ACT dropped 3.3 points" for "asthma control test score change": the initials of the
    instrument, before the score and change read off it, name the outcome."""
    agree, contradict = twins("sleep quality test score change",
                              "SQT fell 3.3 points with drug A compared with placebo.", "lower")
    assert (agree, contradict) == (1, 0)


def test_a_headline_change_is_up_or_down_between_a_name_and_an_amount() -> None:
    """"body weight up 5 kg" (a note's style, the verb left out) states a rise; the unit
    after the amount, read as part of the name, does not hide it. "up to" and "follow-up"
    state nothing."""
    assert twins("body weight change", "With drug A, body weight up 5 kg (p<0.01).",
                 "higher") == (1, 0)
    assert twins("body weight change", "With drug A, body weight down by 3 kg (p<0.01).",
                 "lower") == (1, 0)
    assert twins("body weight change", "Body weight was measured for up to 12 weeks of "
                 "follow-up 5 times.", "lower") == (1, 1)


def test_dying_names_death() -> None:
    """"a lower risk of dying" is about death, as "died" and "deaths" are."""
    text = "Patients on drug A had a 21% lower risk of dying within 3 months (OR 0.79)."
    lower = study(("all cause death", "OR", "0.79 (0.65, 0.96)", "0.02"))
    higher = study(("all cause death", "OR", "1.27 (1.05, 1.53)", "0.02"))
    assert (direction(lower, text), direction(higher, text)) == (1, 0)


def test_a_measure_noun_with_the_group_it_is_measured_in_names_nothing_else() -> None:
    """"Stroke: OR 3.07 (...), p<0.001, a threefold higher prevalence in the placebo group":
    "prevalence in <a group>" is the measure of the sentence's one outcome taken in a group,
    not a thing of its own (as "prevalence of anaemia" would be)."""
    up = study(("stroke", "OR", "3.07 (2.32, 4.06)", "0.001"))
    down = study(("stroke", "OR", "0.33 (0.25, 0.43)", "0.001"))
    for text in ("Stroke, p<0.001: a higher prevalence in the placebo group.",
                 "Stroke differed (p<0.001), with a higher prevalence in the placebo group."):
        assert (direction(down, text), direction(up, text)) == (1, 0)


def test_a_compound_unit_stands_between_a_value_and_its_group() -> None:
    """"90.9±19.9 μg/l in the drug A group and 61.4±15.5 μg/l in the placebo group
    (p<0.001)": "μg/l" is the values' unit, as "mg" is; "A / B" with spaces is not one."""
    text = ("At the end, the mean selenium level was 90.9±19.9 μg/l in the drug A group and "
            "61.4±15.5 μg/l in the placebo group (p<0.001).")
    assert twins("mean selenium level", text, "higher") == (1, 0)


def test_a_p_value_after_a_semicolon_is_the_test_of_the_clause_before() -> None:
    """"16 min and 13 min with drug A and placebo, respectively; P < 0.001.": what follows
    the semicolon is only the test of the values before it, not a clause of its own."""
    text = ("Mean times to response were 16 min and 13 min with drug A and placebo, "
            "respectively; P < 0.001.")
    assert twins("time to response", text, "higher") == (1, 0)


def test_two_values_then_their_two_groups_in_the_same_order() -> None:
    """"2.1 ± 0.4 vs 3.4 ± 0.6 for drug A vs placebo": the values, then the groups they
    belong to, paired by their order (the mirror of "for A vs B: 2.1 vs 3.4")."""
    for text in ("Pain score was 2.1 ± 0.4 vs 3.4 ± 0.6 for drug A vs placebo (p = 0.01).",
                 "Pain score was 2.1 and 3.4 in the drug A and placebo groups (p = 0.01)."):
        assert twins("pain score", text, "lower") == (1, 0)


def test_a_change_verb_keeps_its_degree_over_the_name_and_an_adverb() -> None:
    """"Drug A decreased pain score significantly more than placebo": "more" is the degree
    of the decrease, over the outcome's name and "significantly"; not a rise of its own."""
    text = "Drug A decreased pain score significantly more than placebo (p = 0.01)."
    assert twins("pain score", text, "lower") == (1, 0)


def test_a_ratio_stated_with_its_comparison_before_the_value() -> None:
    """"The relative risk of stroke with drug A versus placebo was 0.60 (95% CI 0.47-0.77)":
    the group named first is the ratio's numerator; an interval holding 1 shows no side."""
    up = study(("stroke", "RR", "1.66 (1.30, 2.10)", "0.001"))
    down = study(("stroke", "RR", "0.60 (0.47, 0.77)", "0.001"))
    text = "The relative risk of stroke with drug A versus placebo was 0.60 (95% CI 0.47-0.77)."
    assert (direction(down, text), direction(up, text)) == (1, 0)
    flipped = "The relative risk of stroke with placebo versus drug A was 1.66 (1.30-2.10)."
    assert (direction(down, flipped), direction(up, flipped)) == (1, 0)
    null = "The relative risk of stroke with drug A versus placebo was 0.90 (0.70-1.15)."
    assert not [c for c in analyze(up, null).claims if c.direction in ("higher", "lower")]


def test_a_group_in_which_nothing_happened_has_the_value_zero() -> None:
    """"No patient on drug A had a stroke, compared with 20% on placebo": "no" and "none"
    state 0 for the group they quantify, set against the other group's value."""
    up = study(("stroke", "RR", "1.66 (1.30, 2.10)", "0.001"))
    down = study(("stroke", "RR", "0.60 (0.47, 0.77)", "0.001"))
    for text in ("No patient on drug A had a stroke, compared with 20% on placebo (p = 0.001).",
                 "None of the drug A patients had a stroke, versus 20% of the placebo patients "
                 "(p = 0.001).",
                 "Stroke developed in none of the drug A group and in 20% of the placebo group "
                 "(p = 0.001)."):
        assert (direction(down, text), direction(up, text)) == (1, 0)


def test_a_multiple_with_as_states_a_direction() -> None:
    """"three times as likely to have a stroke as placebo users": a multiple above one is
    higher for the subject, below one ("0.4 times as likely") lower; "three times a day" is
    a frequency."""
    up = study(("stroke", "OR", "3.11 (2.77, 3.50)", "0.001"))
    down = study(("stroke", "OR", "0.32 (0.29, 0.36)", "0.001"))
    text = "Drug A users were three times as likely to have a stroke as placebo users."
    assert (direction(up, text), direction(down, text)) == (1, 0)
    text = "Drug A users were 0.4 times as likely to have a stroke as placebo users."
    assert (direction(down, text), direction(up, text)) == (1, 0)
    frequency = "Drug A was taken three times a day; stroke was recorded (p = 0.001)."
    assert not [c for c in analyze(up, frequency).claims if c.direction in ("higher", "lower")]


def test_the_second_as_of_a_multiple_over_a_bracketed_estimate() -> None:
    """"two to three times as likely to have a stroke (odds ratios 2.1 to 2.8) as people on
    placebo": the bracketed estimate stands inside the equative; the group after the second
    "as" is still the compared-against side."""
    up = study(("stroke", "OR", "2.12 (1.66, 2.72)", "0.001"))
    down = study(("stroke", "OR", "0.47 (0.37, 0.60)", "0.001"))
    text = ("People on drug A were about three times as likely to have a stroke in the first "
            "year (odds ratios 2.12 to 2.77) as people on placebo.")
    assert (direction(up, text), direction(down, text)) == (1, 0)


def test_how_and_when_a_condition_was_ascertained_does_not_name_the_group() -> None:
    """"Self-reported sleep apnea in the past year" vs "No sleep apnea": "report" and "in the
    past year" in a summary ("to report a stroke in the past year") name no group."""
    kwargs = {"intervention": "Self-reported sleep apnea in the past year",
              "control": "No sleep apnea"}
    up = study(("stroke", "OR", "3.11 (2.77, 3.50)", "0.001"), **kwargs)
    down = study(("stroke", "OR", "0.32 (0.29, 0.36)", "0.001"), **kwargs)
    text = ("Respondents without sleep apnea were about three times as likely to report a "
            "stroke in the past year as those with it.")
    assert (direction(down, text), direction(up, text)) == (1, 0)


def test_both_groups_changed_by_amounts_set_side_by_side() -> None:
    """"The mean reduction in pain score was 3.1 with drug A and 1.2 with placebo": the
    larger fall is in drug A, so lower with drug A; the larger rise, higher."""
    text = "The mean reduction in pain score was 3.1 with drug A and 1.2 with placebo (p = 0.01)."
    assert twins("pain score", text, "lower") == (1, 0)
    text = "The mean rise in pain score was 3.1 with drug A and 1.2 with placebo (p = 0.01)."
    assert twins("pain score", text, "higher") == (1, 0)


def test_a_difference_stated_with_its_sides_before_the_value() -> None:
    """"The difference in pain score between drug A and placebo was -1.3 (95% CI -2.1 to
    -0.5)": the first side is the minuend; "(placebo minus drug A)" turns it; "versus
    placebo" alone makes the other group the minuend; an interval holding 0 shows no side."""
    for text in ("The difference in pain score between drug A and placebo was -1.3 "
                 "(95% CI -2.1 to -0.5).",
                 "The mean difference in pain score (placebo minus drug A) was 1.3 "
                 "(95% CI 0.5 to 2.1).",
                 "Treatment difference versus placebo in pain score: -1.3 (95% CI -2.1 to -0.5)."):
        assert twins("pain score", text, "lower") == (1, 0)
    null = "The difference in pain score between drug A and placebo was -0.3 (95% CI -1.1 to 0.5)."
    assert not [c for c in analyze(one_outcome("pain score", "4.1 (2.2, 6.0)"), null).claims
                if c.direction in ("higher", "lower")]


def test_an_improvement_keeps_its_degree() -> None:
    """"Pain score improved less with placebo than with drug A": placebo did worse (more
    pain), so drug A is lower; "less" is the degree of the improvement, not "lower pain"
    with placebo."""
    for text in ("Pain score improved less with placebo than with drug A (p = 0.01).",
                 "Pain score improved significantly more with drug A than with placebo "
                 "(p = 0.01)."):
        assert twins("pain score", text, "lower") == (1, 0)


def test_more_prevalent_is_a_frequency_not_a_valence() -> None:
    """"moderate symptoms more prevalent, 1.06 (1.01-1.11)": "more prevalent" is more of
    the outcome, as "more common" is, not "better"."""
    up = study(("stroke", "RR", "1.06 (1.01, 1.11)", "0.025"))
    down = study(("stroke", "RR", "0.94 (0.90, 0.99)", "0.025"))
    text = "Drug A vs placebo, adjusted prevalence ratio: stroke more prevalent, 1.06 (1.01-1.11)."
    assert (direction(up, text), direction(down, text)) == (1, 0)


def test_a_naive_control_is_named_by_the_hyphenated_word_only() -> None:
    """"Drug A for at least 5 years (LTDA)" vs "DA-naive status": "DA-naive" names the
    control, but "DA" alone ("more prevalent on long-term DA") is not the control."""
    kwargs = {"intervention": "Drug A for at least 5 years (LTDA)", "control": "DA-naive status"}
    up = study(("stroke", "RR", "1.36 (1.13, 1.65)", "0.001"), **kwargs)
    down = study(("stroke", "RR", "0.74 (0.61, 0.88)", "0.001"), **kwargs)
    text = ("LTDA vs DA-naive: stroke, adjusted PR 1.36 (1.13-1.65), p=0.001 - significantly "
            "more prevalent on long-term DA.")
    assert (direction(up, text), direction(down, text)) == (1, 0)
    groups = {g.group for g in analyze(up, "Stroke was rare in the DA-naive group.").groups}
    assert groups == {"control"}
