"""A denial the juror did not tie to a name, beside the one name of its clause: "the sHR for any
psychiatric disorder was 5.04 (4.45-5.87), a difference the model did not find to be
statistically significant" says that outcome was not significant."""

from __future__ import annotations

from pytest_rwe.rules.claims import Analysis, Claim


def denied_beside(analysis: Analysis, loose: list[Claim], claim: Claim) -> bool:
    """A claim naming no outcome denies a difference or significance in the clause of this
    claim, which has no cue of its own; no other outcome is named and no claim there
    affirms a difference."""
    if claim.cue is not None or claim.mention is None or claim.outcome is None:
        return False
    clause = claim.clause
    if analysis.names_other(claim.outcome.key, clause.start, clause.end):
        return False
    lo, hi = analysis.sentence_of(clause.start)
    start, end = (analysis.tokens[lo].start, analysis.tokens[hi - 1].end) if hi > lo else (
        clause.start, clause.end)
    beside = [c for c in loose if c.cue is not None and start <= c.clause.start < end]
    # "no significant difference before, but a significant difference after": not a denial
    return any(c.clause == clause and (c.direction == "null" or c.significant is False)
               for c in beside) and not any(
        c.significant is True or c.direction in ("higher", "lower") for c in beside)
