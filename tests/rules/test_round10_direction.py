"""builtin/rules, issue 14 round 10: readings of direction_of_effect on real trial prose,
each a rule of English about how summaries state results, with invented outcomes and groups."""

from __future__ import annotations

from twin_studies import binary_study, twins

from pytest_rwe.rules import judge


def test_a_bare_measure_opening_a_summary_of_a_one_outcome_study_is_that_outcome() -> None:
    """"The score was significantly lower with drug A": with one outcome in the study and no
    name before it, the measure word or "this" can only be that outcome."""
    for text in ("The score was significantly lower in the drug A group compared to the "
                 "placebo group (p = 0.004).",
                 "The drug A group showed significantly lower levels than the placebo group "
                 "(p = 0.004).",
                 "This was significantly reduced in patients treated with drug A compared "
                 "with those given placebo (p = 0.004)."):
        assert twins("itch severity", text, "lower") == (1, 0), text


def test_a_bare_measure_after_another_name_is_not_taken_for_the_one_outcome() -> None:
    """With two outcomes the bare measure stays ungrounded, and in a one-outcome study a
    summary that named another measure first ("Pain scores ...") is not read as the study's
    outcome."""
    two = binary_study(("itch", "RR", "1.40 (1.10, 1.80)", "0.004"),
                       ("rash", "RR", "1.30 (1.05, 1.60)", "0.01"))
    assert judge(two, "The score was significantly lower in the drug A group compared to "
                      "the placebo group (p = 0.004).", "direction_of_effect").score == 1
    text = ("Pain VAS measurements were lower in the drug A group. The score was "
            "significantly lower in the drug A group than in the placebo group (p = 0.004).")
    assert twins("itch severity", text, "lower") == (1, 1)


def test_a_share_after_by_or_during_is_a_value_not_a_time_point() -> None:
    """"achieved by 80.0% (40/50) of patients receiving A and 56.0% of those receiving B":
    a percentage followed by "of" is a share of people, whatever preposition leads it."""
    text = ("Complete response was achieved by 80.0% (40/50) of patients receiving drug A "
            "and 56.0% (28/50) of those receiving placebo (p = 0.018).")
    assert twins("complete response", text, "higher") == (1, 0)
    text = ("Nausea was reported during 25% of drug A and 9% of placebo dosing visits "
            "(p = 0.01).")
    assert twins("nausea", text, "higher") == (1, 0)


def test_a_common_word_of_both_descriptions_names_neither_group() -> None:
    """"the standard regimen" against "the aprepitant regimen (aprepitant plus
    dexamethasone)": "regimen" in "the aprepitant triple regimen" is not the control."""
    groups = {"intervention": "the aprepitant regimen (aprepitant plus dexamethasone)",
              "control": "the standard regimen (dexamethasone)"}
    text = ("Complete response was seen in 80.0% of patients receiving the aprepitant triple "
            "regimen and 56.0% of patients receiving the standard regimen (p = 0.018).")
    assert twins("complete response", text, "higher", **groups) == (1, 0)
