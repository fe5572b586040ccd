"""Values tested in the sentence after them: "The mean duration in the A and B groups was
5.3 and 3.4 days, respectively. The t-test showed no significant difference between the two
groups (P = 0.36)." The second sentence names no outcome; it is the test of the first one's
values, which then state no side of their own (or, when it says significant, a significant
one)."""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence

from pytest_rwe.rules import lexicon
from pytest_rwe.rules.analysis import Analysis
from pytest_rwe.rules.claim_parts import says_significance
from pytest_rwe.rules.outcomes import Mention

__all__ = ["tested_next"]


def tested_next(analysis: Analysis, s_hi: int,
                mentions: Callable[[int, int], Sequence[Mention]]) -> str | None:
    """What the sentence after the one ending at token ``s_hi`` says of a test, when it
    names no outcome (``mentions``: the outcome names in a token range): "significant",
    "tested" (not significant, or a bare p-value), or None (no test, or another outcome)."""
    # sentences are in text order: the first one from s_hi on, by bisection
    at = bisect.bisect_left(analysis.sentences, (s_hi, -1))
    after = next(((a, b) for a, b in analysis.sentences[at:at + 3] if b > a), None)
    if after is None:
        return None
    lo, hi = after
    tokens = analysis.tokens
    text = analysis.text[tokens[lo].start:tokens[hi - 1].end]
    if mentions(lo, hi) or not says_significance(text):
        return None
    if lexicon.SIGNIFICANT.search(text) and not (lexicon.NULL_PHRASE.search(text)
                                                 or lexicon.NEGATED_SIGNIFICANT.search(text)):
        return "significant"
    return "tested"
