"""Both groups changed, by amounts set side by side: "X decreased by 3.1 in A and by 1.2 in
B", "the mean reduction in X was 3.1 with A and 1.2 with B". The group whose change is the
larger moved further in the change's direction: a larger fall is lower, a larger rise higher.

Read only when the amounts are sizes of the change: each written after "by", or the change
a noun whose amounts follow "was"/"were". "fell to 2.1 in A and to 3.4 in B" gives levels,
not sizes, and is not read here.
"""

from __future__ import annotations

from collections.abc import Sequence

from pytest_rwe.rules.cues import Cue
from pytest_rwe.rules.group_values import GroupValues
from pytest_rwe.rules.text import Token

__all__ = ["changed_by", "compared_change"]

_CHANGE_NOUNS = frozenset(["reduction", "reductions", "decrease", "decreases", "decline",
                           "fall", "drop", "increase", "increases", "rise", "gain", "loss"])


def changed_by(tokens: Sequence[Token], cue: Cue, values: GroupValues | None) -> str | None:
    """"higher" or "lower" for the intervention from the two groups' changes ``values``
    (found in the clause of ``cue``, a rise or a fall), or None when they are not sizes."""
    if values is None or cue.kind not in ("higher", "lower") or values.intervention_at < 0 \
            or values.control_at < 0 or values.intervention <= 0 or values.control <= 0:
        return None
    first = min(values.intervention_at, values.control_at)
    if first <= cue.end:
        return None
    by = all(tokens[at - 1].text.lower() == "by" for at in (values.intervention_at,
                                                              values.control_at))
    stated = tokens[cue.start].text.lower() in _CHANGE_NOUNS and any(
        t.text.lower() in ("was", "were") for t in tokens[cue.end + 1:first]) and not any(
        t.text.lower() in ("to", "from") for t in tokens[cue.end + 1:first])
    if not (by or stated):
        return None
    larger = values.intervention > values.control
    return cue.kind if larger else ("lower" if cue.kind == "higher" else "higher")


# comparatives of a change's size: "marked" is not one ("a marked fall from baseline in A")
_COMPARATIVES = frozenset(["greater", "larger", "bigger", "more", "steeper", "smaller", "less"])


def compared_change(tokens: Sequence[Token], cue: Cue) -> bool:
    """"greater reductions from baseline in X were seen in the A group": a change noun after a
    comparative of its size sets one group's change against the other's, so "from baseline"
    does not make it a change within one group."""
    return cue.start > 0 and cue.kind in ("higher", "lower") and \
        tokens[cue.start].text.lower() in _CHANGE_NOUNS | {"improvement", "improvements"} and \
        tokens[cue.start - 1].text.lower() in _COMPARATIVES
