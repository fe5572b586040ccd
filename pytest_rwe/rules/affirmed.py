"""A difference the juror did not tie to a name, affirmed in the clause of the one outcome named
there: "duration was similar in groups E and NS and significantly lower than in group N",
"A, B and C produced significant and comparable adverse effects compared with placebo" report
that outcome as a difference, whatever the word of sameness between some of the groups says."""

from __future__ import annotations

import re

from pytest_rwe.rules.claims import Analysis, Claim

# "did not reduce A or increase B": a negation before the cue governs it too
_NEGATION = re.compile(r"\b(?:not|no|none|nor|neither|never|nothing|without|failed\s+to)\b"
                       r"|n't\b", re.IGNORECASE)


def affirmed_beside(analysis: Analysis, loose: list[Claim], claim: Claim) -> bool:
    """A claim naming no outcome states a significant difference or a direction in the clause
    of this claim of no difference, no negation stands before it in the clause, and no other
    outcome is named in that clause."""
    if claim.mention is None or claim.outcome is None or claim.direction != "null":
        return False
    clause = claim.clause
    if any(clause.start <= m.span.start < clause.end and m.outcome.key != claim.outcome.key
           for m in analysis.mentions):
        return False
    text = analysis.text
    return any(c.clause == clause and c.cue is not None and c.direction != "null"
               and c.significant is not False
               and (c.significant is True or c.direction in ("higher", "lower"))
               and not _NEGATION.search(text, clause.start, c.cue.start)
               for c in loose)
