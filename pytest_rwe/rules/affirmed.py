"""Readings beside the one outcome a clause names. A difference the juror did not tie to a
name, affirmed in the clause ("duration was similar in groups E and NS and significantly lower
than in group N", "A, B and C produced significant and comparable adverse effects compared
with placebo"), reports that outcome as a difference, whatever the word of sameness between
some of the groups says; a denial of significance after its result ("a mean change of -5.7
points, which was not a statistically significant change") reports it as not significant."""

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
    if analysis.names_other(claim.outcome.key, clause.start, clause.end):
        return False
    text = analysis.text
    return any(c.clause == clause and c.cue is not None and c.direction != "null"
               and c.significant is not False
               and (c.significant is True or c.direction in ("higher", "lower"))
               and not _NEGATION.search(text, clause.start, c.cue.start)
               for c in loose)


# "which was not a statistically significant change", "not significant", "non-significant",
# "did not reach significance"
_DENIED = re.compile(r"\b(?:not|no)\s+(?:a\s+|an\s+)?(?:statistically\s+)?significant\b|"
                     r"\bnon-?significant\b|\b(?:did\s+not|failed\s+to)\s+reach\s+"
                     r"(?:statistical\s+)?significance\b", re.IGNORECASE)


def denied_after(analysis: Analysis, claim: Claim) -> bool:
    """The clause of this claim, which has no cue of its own and names no other outcome,
    denies significance after the outcome's name, and its sentence affirms no significance
    outside the clauses of other outcomes ("no significant difference before, but a
    significant difference after": unsure)."""
    if claim.cue is not None or claim.mention is None or claim.outcome is None:
        return False
    clause = claim.clause
    if analysis.names_other(claim.outcome.key, clause.start, clause.end):
        return False
    text = analysis.text
    if not _DENIED.search(text, claim.mention.span.end, clause.end):
        return False
    lo, hi = analysis.sentence_of(clause.start)
    start, end = (analysis.tokens[lo].start, analysis.tokens[hi - 1].end) if hi > lo else (
        clause.start, clause.end)
    denials = [m.span() for m in _DENIED.finditer(text, start, end)]
    return all(any(a <= m.start() < b for a, b in denials)
               or _names_another(analysis, claim, m.start())
               for m in _SIGNIFICANT.finditer(text, start, end))


def _names_another(analysis: Analysis, claim: Claim, char: int) -> bool:
    """The clause at ``char`` names another outcome: what it affirms is that one's."""
    clause = analysis.clause_of(char)
    if clause is None or claim.outcome is None:
        return False
    return analysis.names_other(claim.outcome.key, clause[2].start, clause[2].end)


_SIGNIFICANT = re.compile(r"\bsignifican", re.IGNORECASE)
