"""Time points named in an outcome and in a claim: "hunger at 5, 10, 15, 20 min" is not what
"hunger was significantly lower at 60 min" is about.

A claim whose direction word is followed (or, with nothing after it, preceded) by time points
none of which the outcome's name gives is about another time point of the same measure.
"""

from __future__ import annotations

import re

from pytest_rwe.rules.analysis import Analysis
from pytest_rwe.rules.cues import Cue

__all__ = ["another_time", "time_points"]

# each unit in hours, so that "48 hours" and "day 2" are one time point
_UNITS = {"min": 1 / 60, "mins": 1 / 60, "minute": 1 / 60, "minutes": 1 / 60, "h": 1.0,
          "hr": 1.0, "hrs": 1.0, "hour": 1.0, "hours": 1.0, "day": 24.0, "days": 24.0,
          "week": 168.0, "weeks": 168.0, "wk": 168.0, "wks": 168.0, "month": 730.0,
          "months": 730.0, "mo": 730.0, "year": 8760.0, "years": 8760.0, "yr": 8760.0,
          "yrs": 8760.0}
_UNIT = "|".join(sorted(_UNITS, key=len, reverse=True))
_NUMBER = r"\d+(?:\.\d+)?"
# "5, 10, 15, and 20", "1 and 2"
_LIST = rf"(?:{_NUMBER}\s*,\s*)*(?:{_NUMBER}\s*,?\s*(?:and|or|to|\u2013)\s*)?{_NUMBER}"
# "5, 10, 15, and 20 min", "24 hours", "60min"; not "24-h SBP" or "6-minute walk", where the
# time names the measure ("-" after the number)
_AFTER = re.compile(rf"({_LIST})(?!-)\s*({_UNIT})\b", re.IGNORECASE)
# "week 12", "day 7", "days 1 and 2"
_BEFORE = re.compile(rf"\b(day|week|month|year)s?\s+({_LIST})\b", re.IGNORECASE)


def time_points(text: str) -> set[float]:
    """The time points ``text`` names, in hours."""
    points = {float(n) * _UNITS[m.group(1).lower()] for m in _BEFORE.finditer(text)
              for n in re.findall(_NUMBER, m.group(2))}
    for match in _AFTER.finditer(_BEFORE.sub(" ", text)):
        unit = _UNITS[match.group(2).lower()]
        points |= {float(n) * unit for n in re.findall(_NUMBER, match.group(1))}
    return {round(p, 3) for p in points}


def another_time(analysis: Analysis, name: str, cue: Cue, lo: int, hi: int) -> bool:
    """Whether the direction word ``cue`` (between the tokens ``lo`` and ``hi``, the cues
    before and after it) is said of a time point the outcome ``name`` does not give: the time
    points right after it (else those before it) are all outside the name's, which names
    some."""
    named = time_points(name)
    if not named:
        return False
    tokens, text = analysis.tokens, analysis.text
    after = text[tokens[cue.end].end:tokens[hi - 1].end] if hi > cue.end + 1 else ""
    stated = time_points(after) or time_points(text[tokens[lo].start:tokens[cue.start].start])
    return bool(stated) and not stated & named
