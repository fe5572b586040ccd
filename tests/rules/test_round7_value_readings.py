"""Round 7 (issue 14): groups' values read in two more constructions of trial prose.

Each test builds the twins of one invented outcome (the intervention lower or higher than the
control) and checks the summary passes the agreeing study and fails the contradicting one.
"""

from __future__ import annotations

from tests.rules.twin_studies import twins


def test_counts_after_a_verb_of_finding_are_the_events_of_each_group() -> None:
    # "N patients in the X group" is usually a size; after "observed in" it is the event's count
    text = ("Wound dehiscence was observed in 15 patients in the stapled group and 4 "
            "patients in the sutured group (p = 0.01).")
    assert twins("wound dehiscence", text, "higher", intervention="stapled closure",
                 control="sutured closure") == (1, 0)


def test_counts_after_a_verb_that_does_not_report_events_are_not_read() -> None:
    # "assessed in 40 patients ... and 38 patients": the groups' sizes, no direction
    text = ("Wound dehiscence was assessed in 40 patients in the stapled group and 38 "
            "patients in the sutured group (p = 0.01).")
    assert twins("wound dehiscence", text, "higher", intervention="stapled closure",
                 control="sutured closure") == (1, 1)


def test_a_setting_both_groups_share_does_not_own_a_value() -> None:
    # "At the end of radiotherapy": both groups had radiotherapy; the values belong to the
    # groups named by their own words
    text = ("At the end of radiotherapy, the mean zinc level was 90.9 in the SeG and 61.4 in "
            "the CG (p < 0.001).")
    assert twins("zinc level", text, "higher",
                 intervention="selenium during radiotherapy (SeG)",
                 control="no supplement during radiotherapy (CG)") == (1, 0)


def test_a_label_at_the_end_of_a_description_names_its_group() -> None:
    # "drug A in group 3": the label is "group 3", not the "in" before "group"
    text = "The time to recovery was significantly longer in group 3 than in group 1 (p = 0.01)."
    assert twins("time to recovery", text, "higher", intervention="drug A in group 3",
                 control="placebo in group 1") == (1, 0)


def test_a_plural_group_noun_distributes_over_the_labels_listed_after_it() -> None:
    # "in groups 1 and 2 ..., respectively" is "in group 1 and group 2 ..., respectively"
    text = ("The time to recovery in groups 1 and 2 was 9.5 days and 14.7 days, respectively "
            "(p = 0.005).")
    assert twins("time to recovery", text, "lower", intervention="drug A given to group 1",
                 control="placebo given to group 2") == (1, 0)


def test_a_plural_list_with_a_label_the_study_does_not_give_is_not_read() -> None:
    text = ("The time to recovery in groups 1 and 4 was 9.5 days and 14.7 days, respectively "
            "(p = 0.005).")
    assert twins("time to recovery", text, "lower", intervention="drug A given to group 1",
                 control="placebo given to group 2") == (1, 1)


def test_a_shared_word_set_against_a_group_named_by_its_own_words_is_the_other_group() -> None:
    # both groups slept ("sleep" is in both descriptions): "than after a night of sleep"
    # can only be the group that was not deprived of it
    groups = {"intervention": "total sleep deprivation (TSD) plus a snack",
              "control": "sleep (8 hours) plus a snack"}
    text = "Ghrelin was higher after TSD than after a night of sleep (p = 0.04)."
    assert twins("ghrelin", text, "higher", **groups) == (1, 0)
    text = "Ghrelin was lower after a night of sleep than after TSD (p = 0.04)."
    assert twins("ghrelin", text, "higher", **groups) == (1, 0)


_LOOPS = {"intervention": "two days of closed-loop therapy",
          "control": "one control phase of open-loop therapy"}


def test_a_word_of_the_other_group_right_after_a_name_is_the_head_of_its_phrase() -> None:
    # "the closed-loop phases": "phase" is in the control's description, but here it is what
    # "closed-loop" qualifies, not the control
    text = ("For the closed-loop phases, peak insulin levels were significantly lower "
            "(29.7 vs. 51.5 mIU/l, P = 0.017).")
    assert twins("peak insulin levels", text, "lower", **_LOOPS) == (1, 0)


def test_a_name_after_time_to_is_the_end_point_of_a_time_not_the_outcome() -> None:
    # "the time to the peak insulin level was longer" says nothing of the level itself
    text = ("For the closed-loop phases, peak insulin levels were significantly lower "
            "(29.7 vs. 51.5 mIU/l, P = 0.017) and the time to the peak insulin level was "
            "longer (79.9 vs. 38.3 min, P = 0.012).")
    assert twins("peak insulin levels", text, "lower", **_LOOPS) == (1, 0)


def test_a_time_after_a_bare_measure_keeps_it_the_outcome_named_before() -> None:
    # "higher scores after training": the scores of the outcome the sentence named, at a time
    text = ("While anxiety scores were not significantly different before training, the yoga "
            "group showed significantly higher scores after training (p < 0.001).")
    assert twins("anxiety scores", text, "higher", intervention="yoga",
                 control="usual care") == (1, 0)


def test_a_relative_clause_after_a_bare_measure_keeps_it_the_outcome_named_before() -> None:
    # "higher levels found in the control group": "found in ..." is a reduced relative clause
    text = ("Both groups had raised ferritin levels, with significantly higher levels found in "
            "the control group (5.85 vs. 9.63 mg/l, P < 0.05).")
    assert twins("ferritin levels", text, "lower", intervention="drug A",
                 control="placebo") == (1, 0)


def test_a_share_of_one_group_against_none_of_the_other_after_a_verb_of_finding() -> None:
    # "reported in 19.7% of treated eyes and no untreated eyes": 19.7% against 0
    text = "Cataract was reported in 19.7% of implanted eyes and no non-implanted eyes (P = 0.001)."
    assert twins("cataract", text, "higher", intervention="a steroid implant",
                 control="no implant") == (1, 0)


def test_a_count_set_against_a_share_is_not_read() -> None:
    # "3 patients" and "10%" are not values of one kind
    text = ("Cataract was reported in 3 patients in the implant group and 10% of the "
            "sham group (P = 0.001).")
    assert twins("cataract", text, "lower", intervention="a steroid implant",
                 control="sham injection") == (1, 1)


def test_a_verb_after_but_with_its_subject_left_out_has_the_subject_before() -> None:
    # "X was above 95% in all groups but was lower in the placebo arm": X was lower
    text = ("The mean adherence to treatment was above 95% in all three groups but was "
            "significantly lower in the placebo arm (p < 0.001).")
    assert twins("mean adherence to treatment", text, "higher", intervention="drug A",
                 control="placebo") == (1, 0)
