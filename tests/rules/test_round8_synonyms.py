"""builtin/rules, issue 14 round 8: outcomes named in other words and directions stated by a
word with a side ("improved", "better", "greater reductions"), each a rule of English checked
on invented outcomes and groups with the twins of tests/rules/twin_studies.py."""

from __future__ import annotations

from twin_studies import twins


def test_a_comparative_change_from_baseline_sets_the_groups_apart() -> None:
    """"greater reductions from baseline in X were seen in the A group": the comparative sets
    one group's change against the other's, so "from baseline" does not make it a change
    within one group; a change from baseline with no comparative stays unjudged."""
    text = ("Significantly greater reductions from baseline in itch scores were seen in the "
            "drug A group (p = 0.002).")
    assert twins("itch scores", text, "lower") == (1, 0)
    assert twins("itch scores", text.replace("greater", "smaller"), "higher") == (1, 0)
    # one group's own change from baseline is not a comparison
    assert twins("itch scores", "Itch scores fell significantly from baseline in the drug A "
                 "group (p = 0.002).", "lower") == (1, 1)
    assert twins("itch scores", "A marked reduction from baseline in itch scores was seen in "
                 "the drug A group (p = 0.002).", "lower") == (1, 1)
