"""Statistical interaction terms ("a significant group-by-time interaction"): their words name
the factors of a model, not a group of the study, so they are kept out of group references."""

from __future__ import annotations

from collections.abc import Sequence

from pytest_rwe.rules.lexicon import words
from pytest_rwe.rules.text import Token

__all__ = ["interaction_terms"]

_FACTORS = words("group groups time treatment arm condition intervention visit period "
                 "allocation session")
_JOINS = words("- by x *") | {"\u00d7"}  # "group-by-time", "group \u00d7 time"
_INTERACTION = words("interaction interactions")
# "Significant group-by-time ...": read alone, "Significant group" looks like a group's name
_QUALIFIERS = words("significant nonsignificant non-significant statistically strong weak "
                    "overall no")


def interaction_terms(tokens: Sequence[Token]) -> set[int]:
    """Token positions of each "<factor>-by-<factor> interaction" (with its qualifier)."""
    out: set[int] = set()
    for at, tok in enumerate(tokens):
        if tok.text[:1] not in ("i", "I") or tok.text.lower() not in _INTERACTION:
            continue
        start = at
        # back over "factor (join factor)+", e.g. "group - by - time", "group x time"
        pos = at - 1
        factors = 0
        while pos >= 0 and tokens[pos].text.lower() in _FACTORS:
            factors += 1
            start = pos
            joins = pos - 1
            while joins >= 0 and tokens[joins].text.lower() in _JOINS and pos - joins <= 3:
                joins -= 1
            if joins == pos - 1:
                break
            pos = joins
        if factors < 2:
            continue
        if start > 0 and tokens[start - 1].text.lower() in _QUALIFIERS:
            start -= 1
        out |= set(range(start, at + 1))
    return out
