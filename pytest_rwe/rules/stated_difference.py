"""A difference whose sides are written out before its value: "the difference in X between
A and B was -1.3 (95% CI -2.1 to -0.5)", "the mean difference (A minus B) was -1.3 (...)",
"treatment difference versus B: -1.3 (...)".

The group named first (or, after "versus B" alone, the other group) is the minuend: a
negative difference is lower for it. Read only when both sides are the study's, and the
interval is written and excludes 0 (which is then the difference's test).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pytest_rwe.rules.groups import GroupRef
from pytest_rwe.rules.text import Token

__all__ = ["stated_difference"]

_SIGNS = ("-", "\u2212", "\u2013")
_NUMBER = r"[-\u2212]?\s*\d*\.?\d+"
_INTERVAL = re.compile(r"\s*[(\[]\s*(?:95\s*%\s*(?:CI|confidence\s+interval)?\s*[,:=]?\s*)?"
                       r"(?P<lo>" + _NUMBER + r")\s*(?:to|,|;|\u2013)\s*(?P<hi>" + _NUMBER +
                       r")", re.IGNORECASE)
_OTHER = {"intervention": "control", "control": "intervention"}


def _signed(text: str) -> float:
    return float(text.replace("\u2212", "-").replace(" ", ""))


def _sides(tokens: Sequence[Token], refs: Sequence[GroupRef], start: int, hi: int
           ) -> tuple[str, int] | None:
    """(the minuend's group, the token after the sides) for the sides written after
    "difference" at ``start``: "between A and B", "(A minus B)", "versus B"."""
    by_start = {r.position: r for r in refs}
    for pos in range(start + 1, min(hi, start + 8)):
        word = tokens[pos].text.lower()
        first = by_start.get(pos + 1) if word in ("between", "(") else None
        if first is not None:
            after = first.last + 1
            if after + 1 < hi and tokens[after].text.lower() in ("and", "minus", "vs", "versus"):
                second = by_start.get(after + 1)
                if second is not None and {first.group, second.group} == set(_OTHER):
                    end = second.last + 1
                    return first.group, end + (end < hi and tokens[end].text == ")")
            return None
        if word in ("versus", "vs"):
            second = by_start.get(pos + 1)
            if second is not None and second.group in _OTHER:
                return _OTHER[second.group], second.last + 1
            return None
    return None


def stated_difference(text: str, tokens: Sequence[Token], refs: Sequence[GroupRef], lo: int,
                      hi: int) -> tuple[str, int, int] | None:
    """("higher" or "lower" for the intervention, first token, last token) of a difference
    stated with its sides in the clause ``lo``-``hi``, or None."""
    for pos in range(lo, hi):
        if tokens[pos].text.lower() not in ("difference", "differences"):
            continue
        sides = _sides(tokens, refs, pos, hi)
        if sides is None:
            return None
        minuend, after = sides
        value_at = next((p for p in range(after, min(hi, after + 10)) if tokens[p].is_number),
                        None)
        if value_at is None:
            return None
        signed = value_at > 0 and tokens[value_at - 1].text in _SIGNS and \
            tokens[value_at - 1].end == tokens[value_at].start
        value = -float(tokens[value_at].norm) if signed else float(tokens[value_at].norm)
        interval = _INTERVAL.match(text, tokens[value_at].end)
        if value == 0 or interval is None:
            return None
        low, high = sorted((_signed(interval.group("lo")), _signed(interval.group("hi"))))
        if low <= 0 <= high or (value > 0) != (low > 0):
            return None  # the interval holds 0, or it is of something else
        below = value < 0
        lower = below if minuend == "intervention" else not below
        return ("lower" if lower else "higher"), pos, value_at
    return None
