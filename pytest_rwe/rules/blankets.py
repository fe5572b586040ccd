"""Sentences that report outcomes without naming them, so a juror that finds no name must not
call the outcome missing:

- a counted blanket of significance: "Both improvements were statistically significant",
  "all three differences were significant" - when the count reaches the number of outcomes
  the study must report, every one of them may be among the things counted;
- a composite named by its parts: "cognitive decline, dementia or Alzheimer's disease (taken
  together)", "death, MI and stroke combined" - the list is the composite outcome.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

from pytest_rwe.rules.analysis import Analysis, Claim

_COUNTS = {"both": 2, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
           "eight": 8, "nine": 9, "ten": 10}
# "both improvements", "all three differences", "each of the four changes"
_COUNTED = re.compile(r"\b(?:(?P<both>both)|(?:all|each\s+of\s+the)\s+(?P<n>two|three|four|five|"
                      r"six|seven|eight|nine|ten|\d{1,2}))\b", re.IGNORECASE)
_TOGETHER = re.compile(r"\s*[(,]?\s*(?:taken\s+together|combined|together|as\s+a\s+"
                       r"(?:composite|combined\s+\w+|whole))\b", re.IGNORECASE)
_SIGNIFICANT = re.compile(r"\bsignifican", re.IGNORECASE)
_NEGATED = re.compile(r"\b(?:not|no|non|neither|nor|none)\b|n't\b|\binsignifican",
                      re.IGNORECASE)
_COMPOSITE_NAME = re.compile(r"\b(?:composite|combined)\b", re.IGNORECASE)


def counted_blanket(analysis: Analysis, loose: Sequence[Claim], required: int) -> bool:
    """A claim naming no outcome says that ``both`` / ``all N`` of something were significant
    (or differed with a side), and N is at least the number of outcomes the study must
    report."""
    if not required:
        return False
    for claim in loose:
        if not claim.generic or claim.significant is False or claim.direction == "null":
            continue
        if claim.significant is not True and claim.direction not in ("higher", "lower") and (
                not _SIGNIFICANT.search(claim.clause.quote)
                or _NEGATED.search(claim.clause.quote)):
            continue  # "both improvements were statistically significant": read here
        for match in _COUNTED.finditer(claim.clause.quote):
            n = match.group("n") or ""
            count = 2 if match.group("both") else int(n) if n.isdigit() else _COUNTS[n.lower()]
            if count >= required:
                return True
    return False


def composite_by_parts(analysis: Analysis, name: str) -> bool:
    """The outcome is a composite ("neurocognitive composite") and the summary lists two or
    more outcomes' names and calls the list one thing ("(taken together)", "combined")."""
    if not _COMPOSITE_NAME.search(name):
        return False
    text = analysis.text
    # the parts are read as the composite's, out of the mentions: look at them too
    mentions = sorted([*analysis.mentions, *analysis.components], key=lambda m: m.span.start)
    for first, second in itertools.pairwise(mentions):
        between = text[first.span.end:second.span.start]
        if first.outcome.key == second.outcome.key or not re.fullmatch(
                r"\s*(?:,|,?\s*(?:and|or))\s*", between, re.IGNORECASE):
            continue
        if _TOGETHER.match(text, second.span.end):
            return True
    return False
