"""builtin/rules, issue 14 round 5: two groups' values set against each other in the ways
trial prose writes them. Each test states one construction with invented outcomes and groups
and checks both twins (accepted for the study that agrees, caught for the one that
contradicts), or, for a reading the juror must not make, that both twins pass."""

from __future__ import annotations

from typing import Any

from twin_studies import one_outcome, twins

from pytest_rwe.rules.claims import analyze
from pytest_rwe.rules.compared_values import ordered_values, parallel_values
from pytest_rwe.study import parse_study


def test_a_count_out_of_a_total_is_a_share() -> None:
    """"40 out of 200" is 20%, less than "30 out of 60": the shares are compared, not the
    counts."""
    text = ("40 out of 200 patients had a relapse in the drug A group as compared to 30 out "
            "of 60 patients in the placebo group (p = 0.003).")
    assert twins("relapse", text, "lower") == (1, 0)


def test_a_half_with_values_on_both_sides_of_its_group_is_not_read() -> None:
    """"a 50% fall in X in the A group at 35% versus 20% in B": which of the first half's
    numbers is the group's is not said by the halves alone."""
    study = one_outcome("remission", "4.1 (2.2, 6.0)")
    text = "A 50% remission was reached in the drug A group at 35% versus 20% in the placebo group."
    analysis = analyze(study, text)
    assert parallel_values(analysis.tokens, analysis.groups, 0, len(analysis.tokens),
                           set()) is None


def test_the_halves_need_two_different_groups() -> None:
    """Both halves about the same group give no side."""
    text = ("45% of patients reached remission at week 8 in the drug A group compared with "
            "20% at week 2 in the drug A group (p = 0.01).")
    assert twins("remission", text, "higher") == (1, 1)


def test_a_bracket_holding_both_values() -> None:
    """"X (24 patients in the A group versus 48 in the B group, p = 0.005)": the first
    number opens the bracket that holds the comparison, so it is a group's value."""
    text = "The occurrence of nausea (24 patients in the drug A group versus 48 in the placebo "\
        "group, p = 0.005) was recorded."
    assert twins("occurrence of nausea", text, "lower") == (1, 0)


# --------------------------------------------- groups in an order, then values in that order

def test_values_in_the_order_of_between_a_and_b() -> None:
    """"a difference in X between the A group and the B group (62% versus 41%)": the values
    follow the order the groups were named in."""
    text = ("There was a significant difference in remission between the drug A group and the "
            "placebo group (62% versus 41%, p = 0.002).")
    assert twins("remission", text, "higher") == (1, 0)
    reverse = ("There was a significant difference in remission between the placebo group and "
               "the drug A group (62% versus 41%, p = 0.002).")
    assert twins("remission", reverse, "lower") == (1, 0)


def test_values_in_the_order_of_a_versus_b() -> None:
    """"X for A versus B was 3 versus 6": the second comparison's sides are the first's."""
    text = "The median number of visits for drug A versus placebo was 3 versus 6 (p = 0.01)."
    assert twins("number of visits", text, "lower") == (1, 0)
    study = one_outcome("number of visits", "4.1 (2.2, 6.0)")
    for said, (drug, placebo) in ((text, (3.0, 6.0)),
                                  (text.replace("drug A versus placebo", "placebo versus drug A"),
                                   (6.0, 3.0))):
        analysis = analyze(study, said)
        values = ordered_values(analysis.tokens, analysis.groups, 0, len(analysis.tokens))
        assert values is not None
        assert (values.intervention, values.control) == (drug, placebo)


def test_values_in_the_order_of_the_two_groups_named_before_them() -> None:
    """"A outperformed B in X (median 24.5 vs. 10)": the subject's value first; a mean's SD
    before "vs." is not the value ("70.2 ± 24.6 vs. 34.8 ± 13.1")."""
    text = "Drug A outperformed placebo in zinc level (median 24.5 vs. 10, P < 0.05)."
    assert twins("zinc level", text, "higher") == (1, 0)
    sd = "Drug A outperformed placebo in zinc level (70.2 ± 24.6 vs. 34.8 ± 13.1, P < 0.05)."
    assert twins("zinc level", sd, "higher") == (1, 0)


def test_a_compared_against_group_first_gives_no_order() -> None:
    """"Relative to B, A changed X (12 vs. 15)": whose value comes first is not said."""
    study = one_outcome("zinc level", "4.1 (2.2, 6.0)")
    text = "Relative to placebo, drug A changed zinc level (12 vs. 15, P < 0.05)."
    analysis = analyze(study, text)
    assert ordered_values(analysis.tokens, analysis.groups, 0, len(analysis.tokens)) is None
    assert twins("zinc level", text, "higher") == (1, 1)


def test_groups_the_study_does_not_name_give_no_order() -> None:
    """"between group I and group II (5.7 vs. 4.5)" for a study that labels no group I: the
    claim stays ungrounded, so neither twin is flagged."""
    text = ("The mean pain score differed between group I and group II (5.7 vs. 4.5; "
            "p = 0.006).")
    assert twins("pain score", text, "higher") == (1, 1)
    study = one_outcome("pain score", "4.1 (2.2, 6.0)")
    analysis = analyze(study, text)
    assert ordered_values(analysis.tokens, analysis.groups, 0, len(analysis.tokens)) is None


# ------------------------------------------------------------- outcomes named by initials

def test_a_name_is_written_by_its_initials() -> None:
    """"QOL" for "quality of life after 20 months" (the head, "of" kept), "PIH" for the
    first of "pregnancy-induced hypertension / pre-eclampsia"."""
    text = "QOL was significantly higher in the drug A group than in the placebo group (p = 0.01)."
    assert twins("quality of life after 20 months", text, "higher") == (1, 0)
    listed = "PIH was significantly lower in the drug A group than in the placebo group (p = 0.01)."
    assert twins("pregnancy-induced hypertension / pre-eclampsia", listed, "lower") == (1, 0)


def test_initials_two_names_share_name_neither() -> None:
    """"QOL" could be "quality of life" or "quantity of lipids": it names neither."""
    from pytest_rwe.rules.name_index import build_outcome_index

    raw: dict[str, Any] = {
        "id": "initials", "design": "cohort", "question": "q",
        "picot": {"population": "a", "intervention": "drug A", "control": "placebo",
                  "outcome": "q", "timeframe": "t"},
        "results": {"intervention_size": 1, "control_size": 1, "baseline_differences": {},
                    "outcomes": {"outcome.quality.of.life_cont!MD": "1.0 (0.1, 2.0)",
                                 "outcome.quantity.of.lipids_cont!MD": "1.0 (0.1, 2.0)"}}}
    assert "qol" not in build_outcome_index(parse_study(raw)).aliases


def test_the_head_noun_of_a_name_by_its_initials() -> None:
    """"WSLs" for "reduction in area of white spot lesions": the words a name ends on are its
    head, and are written by their initials; "INH-DILI" for "INH-related drug-induced liver
    injury" puts a qualifier before them."""
    name = "reduction in area of white spot lesions"
    text = "WSLs were significantly fewer in the drug A group than in the placebo group (p = 0.01)."
    assert twins(name, text, "lower") == (1, 0)
    name = "INH-related drug-induced liver injury"
    text = "INH-DILI was significantly lower in the drug A group than in the placebo group " \
        "(p = 0.01)."
    assert twins(name, text, "lower") == (1, 0)


# ------------------------------------------------- a bare measure word, the measure last named

def test_a_bare_measure_word_is_the_outcome_last_named() -> None:
    """"Zinc level was measured weekly. The A group showed significantly lower levels than
    the B group": "levels" with nothing of its own is the zinc level; so is "The score" of
    a sentence that names no outcome, over a sentence between that names none either."""
    text = ("Zinc level was measured weekly. The drug A group showed significantly lower levels "
            "than the placebo group (p = 0.01).")
    assert twins("zinc level", text, "lower") == (1, 0)
    text = ("Itch score was recorded daily. It fell in both groups after a week. The score was "
            "significantly lower in the drug A group than in the placebo group (p = 0.01).")
    assert twins("itch score", text, "lower") == (1, 0)


def test_a_measure_word_of_something_else_is_not_the_outcome() -> None:
    """"lower levels of ferritin": the levels are of a thing the study does not name."""
    text = ("Zinc level was measured weekly. The drug A group showed significantly lower levels "
            "of ferritin than the placebo group (p = 0.01).")
    assert twins("zinc level", text, "lower") == (1, 1)


def test_a_measure_is_named_without_whom_it_is_taken_for() -> None:
    """"Tear volume" names "tear volume for murine experimental dry eye": the words after
    "for" say whom the measure is taken for; a head of one word ("need" of "need for
    surgery") names nothing by itself (round 11 reads such a summary of a one-outcome study
    as about its one outcome, but not by naming it)."""
    text = "Tear volume was significantly greater in the drug A group than in the placebo " \
        "group (p = 0.01)."
    assert twins("tear volume for murine experimental dry eye", text, "higher") == (1, 0)
    text = "The need was significantly lower in the drug A group than in the placebo group " \
        "(p = 0.01)."
    assert not analyze(one_outcome("need for repeat surgery", "4.1 (2.2, 6.0)"), text).mentions


def test_an_abbreviation_with_capitals_after_it() -> None:
    """"EVLWST" for "extravascular lung water (EVLW)": an abbreviation of four letters or
    more, extended by capitals saying how it was measured; a three-letter one is not
    ("FPGABC" names nothing)."""
    text = "EVLWST was significantly higher in the drug A group than in the placebo group " \
        "(p = 0.01)."
    assert twins("extravascular lung water (EVLW)", text, "higher") == (1, 0)
    text = "FPGABC was significantly higher in the drug A group than in the placebo group " \
        "(p = 0.01)."
    assert twins("free plasma glucose (FPG)", text, "higher") == (1, 1)


def test_it_or_they_as_the_subject_of_a_later_clause() -> None:
    """"X did not differ between A and B; however, they were significantly lower in the A
    group than in the B group": "they" is the outcome the sentence named; "it" alike."""
    text = ("Zinc level was measured weekly, and it was significantly lower in the drug A group "
            "than in the placebo group (p = 0.01).")
    assert twins("zinc level", text, "lower") == (1, 0)
    text = ("Zinc level was measured weekly; however, they were significantly lower in the drug "
            "A group than in the placebo group (p = 0.01).")
    assert twins("zinc level", text, "lower") == (1, 0)
    from pytest_rwe.rules.antecedents import subject_pronoun
    from pytest_rwe.rules.text import tokenize

    def reads(clause: str) -> bool:
        tokens = tokenize(clause)
        cue = next(i for i, t in enumerate(tokens) if t.text == "lower")
        return subject_pronoun(tokens, 0, cue, cue)

    assert reads("but it was significantly lower in the A group")
    assert not reads("but it was lower doses that the A group got")  # a noun of its own
    assert not reads("but the dose was lower in the A group")  # no pronoun subject
    assert not reads("so that it lower")  # no form of "to be"


def test_a_change_in_one_group_but_not_in_the_other() -> None:
    """"X rose from baseline in the A group, but not in the B group": the change within one
    group, set against the other by "but not", says which group's X is higher; without
    "but not" it stays a change within each group."""
    text = ("Zinc level rose significantly from baseline in the drug A group (p < 0.01), but "
            "not in the placebo group.")
    assert twins("zinc level", text, "higher") == (1, 0)
    text = ("Zinc level rose significantly from baseline in the placebo group (p < 0.01), but "
            "not in the drug A group.")
    assert twins("zinc level", text, "lower") == (1, 0)
    text = ("Zinc level rose significantly from baseline in the drug A group (p < 0.01) and "
            "in the placebo group.")
    assert twins("zinc level", text, "higher") == (1, 1)
    text = ("Zinc level rose significantly from baseline in the drug A group (p < 0.01), while "
            "in the placebo group it remained stable.")
    assert twins("zinc level", text, "higher") == (1, 0)
    text = ("Zinc level rose significantly from baseline in the drug A group (p < 0.01), while "
            "in the placebo group it rose too.")
    assert twins("zinc level", text, "higher") == (1, 1)
