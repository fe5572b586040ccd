"""A comparison stated with the two groups' own values is about those values: "X was more
common among A than among B (4.6% vs 3.2%)" is true of the crude shares even when the
study's adjusted ratio for X is below 1.

English lists the values of "more in A than in B (a vs b)" in the order it names the
groups, so the first value is the first-named group's, the one the words are about (only
read with "than" after the direction word). When both values are point values the study itself
reports (the groups' shares or means, not the effect estimate) and they bear the stated
direction out, the claim is not judged against the outcome's effect estimate; the values
themselves are the numbers criterion's to check. Values that contradict the words leave
the claim judged as before.
"""

from __future__ import annotations

import bisect

from pytest_rwe.rules.analysis import Analysis, Claim
from pytest_rwe.rules.lexicon import words
from pytest_rwe.rules.memo import Memo
from pytest_rwe.study import Study

__all__ = ["crude_values_bear_out"]

_VERSUS = words("vs vs. versus")
# once a study, not once a claim: a study of 800 outcomes has thousands of claims
_POINTS: Memo[str, frozenset[float]] = Memo()


def _reported_points(study: Study) -> frozenset[float]:
    """The point values the study reports that are not effect estimates."""
    def compute() -> frozenset[float]:
        out: set[float] = set()
        for outcome in study.outcomes:
            effect = outcome.effect_measure
            out |= {e.value for m, e in outcome.estimates.items() if m != effect}
        return frozenset(out)
    return _POINTS.get(study, "points", compute)


def _number(text: str) -> float | None:
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None


def crude_values_bear_out(study: Study, analysis: Analysis, claim: Claim) -> bool:
    """True when ``claim``'s clause sets two of the study's own group values against each
    other ("a vs b") and, read in the order the groups are named, they agree with the
    direction the words state."""
    if claim.direction not in ("higher", "lower") or claim.cue is None:
        return False
    reported = _reported_points(study)
    if not reported:
        return False
    tokens = analysis.tokens
    lo = bisect.bisect_left(analysis.token_starts, claim.clause.start)
    hi = bisect.bisect_left(analysis.token_starts, claim.clause.end, lo)
    markers = [p for p in range(lo, hi) if tokens[p].text.lower() in _VERSUS
               and tokens[p].start > claim.cue.start]
    if len(markers) != 1:
        return False
    marker = markers[0]
    # "more common among A than among B (a vs b)": the side bearing the words is named first
    if not any(tokens[p].text.lower() == "than" for p in range(lo, marker)
               if tokens[p].start > claim.cue.start):
        return False
    before = [v for v in (_number(t.text) for t in tokens[lo:marker] if t.is_number)
              if v is not None and v in reported]
    after = [v for v in (_number(t.text) for t in tokens[marker + 1:hi] if t.is_number)
             if v is not None and v in reported]
    if len(before) != 1 or len(after) != 1 or before[0] == after[0]:
        return False
    # the words' direction for the group named first: the intervention's unless flipped
    first = claim.direction if not claim.flipped else (
        "lower" if claim.direction == "higher" else "higher")
    return (before[0] > after[0]) == (first == "higher")
