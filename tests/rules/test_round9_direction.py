"""builtin/rules, issue 14 round 9: direction readings of trial prose, each a rule of English
with invented outcomes and groups (not copied from a labeled set); each test checks both
twins (accepted for the study that agrees, caught for the one that contradicts)."""

from __future__ import annotations

from twin_studies import twins


def test_different_from_a_group_marks_the_compared_side() -> None:
    """"a fall in X in the A group was significantly different from the B group": B is the
    side the A group's fall is set against, so the fall is the A group's against B."""
    text = ("A fall in serum ferritin in the drug A group was significantly different from "
            "the placebo group (p = 0.01).")
    assert twins("serum ferritin", text, "lower") == (1, 0)
    text = ("A rise in serum ferritin in the drug A group differed significantly from the "
            "placebo group (p = 0.01).")
    assert twins("serum ferritin", text, "higher") == (1, 0)


def test_different_from_baseline_is_no_group() -> None:
    """"different from baseline" compares times, not the groups: no side is read."""
    text = "A fall in serum ferritin in the drug A group was significantly different from baseline."
    assert twins("serum ferritin", text, "lower") == (1, 1)
