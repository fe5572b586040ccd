"""builtin/rules, issue 14 round 11: a summary of a one-outcome study that names no outcome,
and the readings that keep such a summary's words from being taken for a comparison."""

from __future__ import annotations

from twin_studies import binary_study, twins

from pytest_rwe.rules import judge


def test_a_comparison_in_a_summary_naming_no_outcome_is_about_the_one_outcome() -> None:
    """"The scores were significantly lower in the drug A group" for a study of "itch
    severity": the summary compares the groups, and the study compared them on one thing."""
    for text in ("The scores were significantly lower in the drug A group than in the "
                 "placebo group (p = 0.004).",
                 "Patients given drug A had significantly lower values than those given "
                 "placebo (p = 0.004).",
                 "As compared to placebo, the drug A group showed a significant reduction "
                 "(p = 0.004)."):
        assert twins("itch severity", text, "lower") == (1, 0), text


def test_a_word_of_the_outcomes_name_lets_the_comparison_be_about_it() -> None:
    """"ease of intubation was greater with A" for "intubations considered easy": a word
    the outcome's name has, even when the name as a whole is not given."""
    text = ("Ease of intubation was found to be significantly greater in the drug A group "
            "than in the placebo group (p < 0.05).")
    assert twins("intubations considered easy by the anesthetist", text, "higher") == (1, 0)


def test_a_comparison_of_something_else_is_not_about_the_one_outcome() -> None:
    """"Nausea scores", "a reduction in both systolic and diastolic blood pressure": the
    summary names a thing the outcome's name does not have; and with two outcomes, a
    comparison that names neither is about neither."""
    for text in ("Nausea scores were significantly lower in the drug A group than in the "
                 "placebo group (p = 0.004).",
                 "As compared to placebo, the drug A group showed a significant reduction in "
                 "both systolic and diastolic blood pressure (p = 0.004)."):
        assert twins("itch severity", text, "lower") == (1, 1), text
    two = binary_study(("itch", "RR", "1.40 (1.10, 1.80)", "0.004"),
                       ("rash", "RR", "1.30 (1.05, 1.60)", "0.01"))
    assert judge(two, "The scores were significantly lower in the drug A group than in the "
                      "placebo group (p = 0.004).", "direction_of_effect").score == 1


def test_words_that_describe_a_group_or_qualify_a_value_are_not_a_comparison() -> None:
    """"those who were more physically active ... just as likely", a change over time in
    one group, "more than pT2" (a threshold): none of them compares the groups on the one
    outcome."""
    for text in ("Those who were more physically active were just as likely to respond as "
                 "those who were less active.",
                 "Scores decreased to 30 with drug A."):
        assert twins("itch severity", text, "higher") == (1, 1), text
    text = "Cancers were frequently late stage (more than pT2) in the placebo group (36%)."
    assert twins("ability to detect early stages of cancer", text, "higher") == (1, 1)


def test_a_second_direction_word_does_not_undo_the_first() -> None:
    """Once a comparison has given the one outcome its direction, a later direction word in
    the sentence is about something else ("the spread of the values was reduced")."""
    text = ("Time spent in the range was significantly higher with drug A (39.1% vs 27.7%, "
            "p = 0.05), and the spread of the values was reduced.")
    assert twins("glycaemic time in target range", text, "higher") == (1, 0)


def test_a_group_with_none_after_the_other_groups_value_is_zero() -> None:
    """"32% of patients desaturated in the drug A group against none in the placebo group":
    "none" after a comparison word is the compared group's 0, set against the value named
    with the other group before it (a group's label, "Group NC", bridges to its name)."""
    name = "patients desaturated"
    for text in ("32% of patients desaturated in the drug A group against none in the placebo "
                 "group (P = 0.001).",
                 "Desaturation occurred in 12 patients (32%) on drug A, compared with none on "
                 "placebo (P = 0.001)."):
        assert twins(name, text, "higher") == (1, 0), text
    groups = {"intervention": "nasal prongs (NP)", "control": "nasopharyngeal catheter (NC)"}
    text = "In the Group NP, 32% of patients desaturated against none in Group NC (P = 0.001)."
    assert twins(name, text, "higher", **groups) == (1, 0)


def test_a_direction_said_of_another_time_point_is_not_about_the_outcome() -> None:
    """"hunger was higher at 5, 10, 15 and 20 min and lower at 60 min": for "hunger at 60
    min" only the second direction is about the outcome; "24-h SBP" names the measure, not a
    time; "days 1 and 2" include the 48 hours of "swelling up to 48 hours"."""
    text = ("In the drug A condition, hunger was significantly higher at 5, 10, 15, and 20 min "
            "(p < 0.001) and was significantly lower at 60 min (p = 0.003) compared with "
            "placebo.")
    assert twins("hunger at 60 min", text, "lower") == (1, 0)
    # the earlier time points' study is no longer contradicted by the 60-minute direction
    assert twins("hunger at 5, 10, 15, 20 min", text, "higher")[0] == 1
    text = ("Pain was significantly lower with drug A at 6 hours (p = 0.01) but higher at 24 "
            "hours (p = 0.02) than with placebo.")
    assert twins("pain at 24 hours", text, "higher") == (1, 0)
    text = "At 8 weeks, drug A reduced 24-h SBP more than placebo (-26.4 versus -20.7 mmHg)."
    assert twins("systolic blood pressure at week 8", text, "lower") == (1, 0)
    text = ("The increase in swelling in days 1 and 2 was significantly less with drug A than "
            "with placebo.")
    assert twins("swelling up to 48 hours", text, "lower") == (1, 0)
