"""builtin/rules, issue 14 round 8: values listed for several groups or arms ("respectively"
lists, "A vs B was x vs y"), read with invented outcomes and groups; and the words of a
statistical interaction term, which name no group."""

from __future__ import annotations

from twin_studies import one_outcome, twins

from pytest_rwe.rules import analyze
from pytest_rwe.rules.interaction_terms import interaction_terms
from pytest_rwe.rules.respectively import value_runs
from pytest_rwe.rules.text import tokenize

READ = (1, 0)  # the agreeing twin passes, the contradicting one is caught
UNREAD = (1, 1)  # no side read: neither twin is flagged


def test_negative_values_of_a_respectively_list_are_read_with_their_sign() -> None:
    """"-12.4 and -3.1 ... respectively": the minus sign of the second value belongs to it,
    not to the words between the two values."""
    text = ("The mean change in fasting glucose was -12.4 and -3.1 mg/dl in the drug A and "
            "placebo groups, respectively (P = 0.01).")
    assert twins("fasting glucose", text, "lower") == READ
    assert twins("fasting glucose", text.replace("-12.4 and -3.1", "-3.1 and -12.4"),
                 "higher") == READ


def test_values_in_declared_order_may_carry_a_bracketed_interval() -> None:
    """"A vs B was 2 (1; 4) cm vs -2 (-3; 0) cm": the first value's interquartile range in
    brackets stands between the two values and is not a word of the sentence."""
    text = ("The median change in hip girth with drug A vs placebo was 2 (1; 4) cm vs "
            "\u22122 (\u22123; 0) cm, respectively, P = 0.01.")
    assert twins("hip girth", text, "higher") == READ


def test_role_words_sharing_one_group_noun_name_both_groups() -> None:
    """"in the treatment and control arm, respectively": "treatment" shares "arm" with
    "control", so it names the intervention's arm; the order of the two decides."""
    text = ("The mean change in tumour grade was -18.5% and -4.0% in the treatment and control "
            "arm, respectively (P = 0.02).")
    assert twins("tumour grade", text, "lower") == READ
    assert twins("tumour grade", text.replace("treatment and control", "control and treatment"),
                 "higher") == READ


def test_one_groups_value_against_a_run_of_the_other_groups_arms() -> None:
    """"+0.4 for placebo compared with -5.2, -6.8 and -9.1 for tirelzumab 10, 20 and 40 mg,
    respectively": every dose's value lies below the control's, so the intervention is lower;
    "change from baseline" names the measure compared, not a change within one group."""
    groups = {"intervention": "tirelzumab 10, 20 or 40 mg", "control": "placebo"}
    text = ("At week 24, mean changes from baseline in fasting glucose were +0.4 mg/dl for "
            "placebo compared with -5.2, -6.8 and -9.1 mg/dl for tirelzumab 10, 20 and 40 mg, "
            "respectively.")
    assert twins("fasting glucose", text, "lower", **groups) == READ
    # one dose above the control and the others below: the runs give no side
    study = one_outcome("fasting glucose", "-4.1 (-6.0, -2.2)", **groups)
    straddling = analyze(study, text.replace("-6.8", "+1.1"))
    doses = frozenset({10.0, 20.0, 40.0})  # the description's numbers are no values
    ends = len(straddling.tokens)
    assert value_runs(straddling.tokens, straddling.groups, 0, ends, doses) is None
    plain = analyze(study, text)
    assert value_runs(plain.tokens, plain.groups, 0, len(plain.tokens), doses) is not None


def test_two_values_for_each_of_two_groups_are_read_when_every_pairing_agrees() -> None:
    """"80.2, 61.5 and 70.3, 48.9% in groups A and B, respectively": whether the list gives
    A's two values first or pairs them by time point, A is higher; a list whose two readings
    disagree is not read. The numbers of the outcome's name ("1- and 3-year") are not values."""
    groups = {"intervention": "drug A (group A)", "control": "placebo (group B)"}
    text = ("The 1- and 3-year event-free rates were 80.2, 61.5 and 70.3, 48.9% in groups A "
            "and B, respectively (P = 0.003).")
    assert twins("event-free rate", text, "higher", **groups) == READ
    # in blocks A = (50.2, 60.5) against B = (40.3, 55.9): higher; paired by time point
    # A = (50.2, 40.3) against B = (60.5, 55.9): lower
    ambiguous = text.replace("80.2, 61.5 and 70.3, 48.9", "50.2, 60.5 and 40.3, 55.9")
    assert twins("event-free rate", ambiguous, "higher", **groups) == UNREAD


def test_an_interaction_term_names_no_group() -> None:
    """"a significant group-by-time interaction", "group x time": the words of a model's
    term, with its qualifier, are no group reference (a group whose description says "times
    per week" is not named by "time")."""
    tokens = tokenize("A significant group-by-time interaction was seen; the group \u00d7 time "
                      "interaction was not, nor the time effect.")
    found = {tokens[p].text for p in interaction_terms(tokens)}
    assert found == {"significant", "group", "-", "by", "time", "interaction", "\u00d7"}
    assert not {p for p in interaction_terms(tokens) if tokens[p].text == "effect"}
    groups = {"intervention": "training three times per week",
              "control": "training two times per week"}
    text = ("A significant group-by-time interaction (P < 0.01) was seen only for knee "
            "extension, in which G3 showed a larger increase than G2 (+14.1% and +2.9%, "
            "respectively).")
    assert twins("knee extension", text, "higher", **groups) == READ


def test_each_groups_change_over_time_sets_the_groups_against_each_other() -> None:
    """"in A, X fell from 47.2 to 36.1 ...; in B, X fell only slightly from 41.8 to 37.7": A
    ends lower and fell more, so A is lower; a change read alone would be within one group."""
    text = ("In the drug A group, the pain score decreased significantly from 47.2 \u00b1 14.0 "
            "to 36.1 \u00b1 16.5 (p < 0.001), compared to baseline. In contrast, the pain score "
            "of the placebo group decreased only slightly from 41.8 \u00b1 16.3 to 37.7 \u00b1 "
            "17.2 (p = 0.08).")
    assert twins("pain score", text, "lower") == READ
    # A ends higher (40 > 35) yet fell more: the two readings disagree, no side
    assert twins("pain score", text.replace("36.1", "40.0").replace("41.8", "30.0").replace(
        "37.7", "35.0"), "lower") == UNREAD


def test_a_change_is_owned_by_the_group_named_right_after_it() -> None:
    """"(from 380 to 373 m in the placebo group and from 373 to 500 m in the drug A group)":
    the group after each change is its owner, not the group named before the bracket."""
    text = ("The walking distance improved in the drug A group (from 380 \u00b1 44 to 373 "
            "\u00b1 47 m in the placebo group and from 373 \u00b1 62 to 500 \u00b1 68 m in the "
            "drug A group, p < 0.001).")
    assert twins("walking distance", text, "higher") == READ


def test_a_range_of_values_is_no_change() -> None:
    """"varied from 51 to 52 with A and from 100 to 108 with placebo" gives ranges of values,
    not changes over time: no side is read from them."""
    text = ("The heat loss increased over the night, varying from 51 to 52 with drug A and "
            "from 100 to 108 with placebo (P < 0.01).")
    assert twins("heat loss", text, "lower") == UNREAD


def test_a_currency_sign_is_a_values_unit() -> None:
    """"6,277.28 \u20ac and 7,863.29 \u20ac for the controls": the currency sign after a value
    stands where a unit does, so the group named after it owns the value."""
    text = ("The mean cost per patient in the study group was 6,277.28 \u20ac and 7,863.29 "
            "\u20ac for the controls (p < 0.001).")
    assert twins("cost per patient", text, "lower") == READ


def test_both_groups_changes_are_read_without_a_direction_word() -> None:
    """"X was 7.10 and 2.37 before and after treatment with A, respectively, but 6.38 and 6.00
    before and after placebo": each group's values before and after, with no direction word
    of their own, set the groups against each other as changes "from a to b" do."""
    text = ("The mean symptom score was 7.10 \u00b1 1.92 and 2.37 \u00b1 1.76 before and after "
            "treatment with drug A, respectively (P < 0.001), but it was 6.38 \u00b1 2.18 and "
            "6.00 \u00b1 1.95 before and after placebo, respectively (P = 0.096).")
    assert twins("symptom score", text, "lower") == READ
    both = ("The symptom score was significantly increased both in the drug A group (from 1.0 "
            "\u00b1 0.0 to 6.0 \u00b1 11.1, p = 0.03) and in the placebo group (from 1.0 \u00b1 "
            "0.0 to 18.1 \u00b1 37.1, p = 0.0002).")
    assert twins("symptom score", both, "lower") == READ


def test_a_table_row_without_a_header_is_not_read() -> None:
    """"Outcome\\n4.3 \u00b1 1.2\\n5.1 \u00b1 1.4\\n0.02": a row's cells do not say which column is
    which group (on the Evidence Inference training rows, reading the first column as the
    intervention agrees with the doctors on only about half), so no side is read."""
    for row in ("Pain score\n4.3 \u00b1 1.2\n5.1 \u00b1 1.4\n0.02",
                "Pain score\t4.3 (1.2)\t5.1 (1.4)\t-0.8 (-1.4 to -0.2)\t0.02",
                "Pain score\n\n28.5 \u00b1 9.3\n27.22 \u00b1 12.96\n0.04"):
        assert twins("pain score", row, "lower") == UNREAD
        assert twins("pain score", row, "higher") == UNREAD


def test_a_count_with_its_share_after_after_is_no_time_point() -> None:
    """"reported after 19 (25%) drug A administrations and after 7 (9%) placebo
    administrations": a number with its share in brackets counts events; "after 12 weeks"
    would be a time point."""
    text = ("Nausea was reported after 19 (25%) drug A administrations and after 7 (9%) "
            "placebo administrations.")
    assert twins("nausea", text, "higher") == READ
    timed = "Nausea was reported after 19 weeks with drug A and after 7 weeks with placebo."
    assert twins("nausea", timed, "higher") == UNREAD
