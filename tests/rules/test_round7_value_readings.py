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
