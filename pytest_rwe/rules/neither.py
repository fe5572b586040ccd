"""Outcomes a "neither" sentence says did not differ: "neither all-cause (HR 0.90) nor
HF-specific readmission (HR 0.94) showed a significant difference", "when dementia and
Alzheimer's disease were examined separately, neither showed a significant difference".

"Neither ... nor ..." negates the predicate that follows the pair for each member of it, and
"neither" standing alone as the subject negates it for the two things the sentence named
before it. The predicate must speak of a difference or of significance; "neither group" or
"neither arm" is about the groups, not the outcomes, and is not read.
"""

from __future__ import annotations

import re

from pytest_rwe.rules.analysis import Analysis

# the predicate a "neither" denies: "showed a significant difference", "reached
# significance", "differed", "was significantly associated with", "changed"
_PREDICATE = re.compile(
    r"\b(?:show\w*|reach\w*|ha[sd]|have|was|were|is|are|achiev\w*|attain\w*|differ\w*|"
    r"chang\w*|affect\w*|displayed|demonstrated|yielded|gave)\b(?P<rest>[^.;]{0,60})",
    re.IGNORECASE)
_DIFFERENCE = re.compile(r"\b(?:signific\w*|differ\w*|chang\w*|associat\w*|effect\w*|"
                         r"affected|benefit\w*|harm\w*|impact\w*)\b", re.IGNORECASE)
_NEGATION = re.compile(r"\b(?:not|no|never|n't)\b", re.IGNORECASE)
_NEITHER = re.compile(r"\bneither\b", re.IGNORECASE)
# "neither" as the subject: "neither showed", "neither of them was", "neither of these"
_ALONE = re.compile(r"\s+(?:of\s+(?:them|these|those|the\s+two)\s+)?(?=(?:show|reach|ha[sd]\b|"
                    r"was\b|were\b|is\b|achiev|attain|differ|chang|display|demonstrat|yield))",
                    re.IGNORECASE)


def _denied(text: str) -> bool:
    """The words after "neither ... nor ..." (or after a lone "neither") begin with a
    predicate of difference or significance, itself not negated."""
    match = _PREDICATE.match(text.lstrip(" -\u2013\u2014,")) or _PREDICATE.search(text)
    if match is None:
        return False
    rest = match.group(0)
    return bool(_DIFFERENCE.search(rest)) and not _NEGATION.search(rest)


def denied_by_neither(analysis: Analysis) -> set[int]:
    """Start offsets of the outcome mentions a "neither" sentence says did not differ."""
    text = analysis.text
    if "either" not in text:
        return set()
    denied: set[int] = set()
    for lo, hi in analysis.sentences:
        if hi <= lo:
            continue
        start, end = analysis.tokens[lo].start, analysis.tokens[hi - 1].end
        for match in _NEITHER.finditer(text, start, end):
            mentions = [m for m in analysis.mentions if start <= m.span.start < end]
            nor = re.search(r"\bnor\b", text[match.end():end], re.IGNORECASE)
            if nor is not None:
                after_nor = match.end() + nor.end()
                verb = _PREDICATE.search(text, after_nor, end)
                if verb is None or not _denied(text[verb.start():end]):
                    continue
                denied |= {m.span.start for m in mentions
                           if match.end() <= m.span.start < verb.start()}
            elif _ALONE.match(text, match.end()) and _denied(text[match.end():end]):
                before = [m for m in mentions if m.span.end <= match.start()]
                if len({m.outcome.key for m in before[-2:]}) == 2:
                    denied |= {m.span.start for m in before[-2:]}
    return denied
