"""A ratio written after an outcome's name, read as a direction: "treatment with A [adjusted
OR 2.39; 95% CI 1.70-3.36]" says the odds of the outcome are higher with A.

A ratio compares the group the clause names as its subject with the one it is compared
against; read only when its interval (if written) excludes 1, when the clause names a group
of the study as that subject (never by convention), and when the ratio's own label does not
name its reference ("OR versus CQ, 0.14" is read by the groups' words, not here); and, when
the study reports a ratio for the outcome, only when the ratio written is that one or its
inverse (another is of another comparison: a subgroup, a per-unit ratio, another model).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence

from pytest_rwe.rules.cues import Cue
from pytest_rwe.rules.groups import GroupRef
from pytest_rwe.rules.sides import orientation
from pytest_rwe.rules.text import Token
from pytest_rwe.rules.truth import Fact

__all__ = ["ratio_direction", "ratio_estimate"]

_RATIO = re.compile(
    r"\b(?:adjusted\s+)?(?:a?ORs?|a?HRs?|a?RRs?|IRRs?|(?:hazard|odds|risk|rate)\s+ratios?|"
    r"relative\s+(?:risks?|rates?))\b(?P<label>[^\d()\[\]]{0,12}?)(?:\s*\(95\s*%\s*CI\))?"
    r"\s*[:=,]?\s*(?:of\s+|was\s+|is\s+)?(?P<value>\d*\.\d+|\d+)(?![\d.])")
_INTERVAL = re.compile(r"[^()\d]{0,30}?(?:95\s*%\s*(?:CI|confidence\s+intervals?)?[\s,:=]*)?"
                       r"(?P<lo>\d*\.?\d+)\s*(?:-|\u2013|\u2212|to|,|;)\s*(?P<hi>\d*\.?\d+)",
                       re.IGNORECASE)
_HAZARD = re.compile(r"(?:adjusted\s+)?(?:a?HRs?|hazard)\b", re.IGNORECASE)
_TIMED = re.compile(r"\b(?:time|times|duration|survival|latency|onset|interval|free)\b",
                    re.IGNORECASE)
_REFERENCE = re.compile(r"\b(?:vs\.?|versus|compared|against|relative)\b", re.IGNORECASE)


def _first_ratio(text: str, start: int, stop: int, timed: bool
                 ) -> tuple[float, int, int] | None:
    """The first ratio between two characters: (value, start, end), or None when none is
    written, its label names a reference, or its interval holds 1. A hazard ratio for a time
    or a survival (``timed``) is the hazard of the event, not of the time: not read."""
    match = _RATIO.search(text, start, stop)
    if match is None or _REFERENCE.search(match.group("label") or ""):
        return None
    if timed and _HAZARD.match(match.group(0)):
        return None
    value = float(match.group("value"))
    if value <= 0 or value == 1:
        return None
    interval = _INTERVAL.match(text, match.end(), min(len(text), match.end() + 60))
    if interval is not None:
        low, high = float(interval.group("lo")), float(interval.group("hi"))
        if low <= value <= high and low <= 1 <= high:
            return None  # the interval holds 1: no direction
    return value, match.start(), match.end()


def ratio_estimate(fact: Fact | None) -> float | None:
    """The study's ratio for an outcome, or None when it reports another measure."""
    return fact.point if fact is not None and fact.is_ratio else None


def _of_another_comparison(value: float, estimate: float | None) -> bool:
    """A ratio that is neither the study's ratio nor its inverse (within rounding and a
    re-expression, 15%) compares something else: a subgroup, a per-unit ratio, another
    model. Its side is not this outcome's."""
    if estimate is None or estimate <= 0:
        return False
    return not any(abs(value - target) <= 0.15 * target for target in (estimate, 1 / estimate))


def ratio_direction(text: str, tokens: Sequence[Token], refs: Sequence[GroupRef], anchor: int,
                    stop: int, lo: int, hi: int, design: str, name: str,
                    estimate: float | None = None) -> tuple[str, int, int] | None:
    """The direction, read from the intervention's side, of the first ratio written after
    token ``anchor`` and before token ``stop`` (the next outcome's name or the clause's end),
    with the token range of the ratio; None when the ratio is not read (see the module).
    ``name``: the outcome's name; ``estimate``: the study's ratio for it, when it has one."""
    if anchor + 1 >= stop:
        return None
    found = _first_ratio(text, tokens[anchor].end, tokens[stop - 1].end,
                         bool(_TIMED.search(name)))
    if found is None or _of_another_comparison(found[0], estimate):
        return None
    value, start, end = found
    starts = [t.start for t in tokens]
    first = bisect.bisect_left(starts, start)
    last = max(first, bisect.bisect_left(starts, end) - 1)
    kind = "higher" if value > 1 else "lower"
    side = orientation(tokens, refs, Cue(kind, first, last, True), lo, hi, None, design)
    if not side.explicit or side.group not in ("intervention", "control"):
        return None
    if side.group == "control":
        kind = "lower" if kind == "higher" else "higher"
    return kind, first, last
