"""A design number given under another statistic's name: "followed for a median of 5.5 years"
when the design text says "median follow-up 2.2 years (IQR 1.8-4.3, maximum 5.5)".

Only for a duration the summary names by a statistic (median, mean, maximum, minimum), when
the design text names a duration by the same statistic, no such duration is the number, and
one the design text names by another statistic is.
"""

from __future__ import annotations

import re

from pytest_rwe.rules.index import matches
from pytest_rwe.rules.number_groups import NumberFinding
from pytest_rwe.rules.number_mentions import NumberMention, numbers_in
from pytest_rwe.study import Study

_STAT = re.compile(r"\b(median|mean|average|maximum|max|minimum|min|iqr|range)\b",
                   re.IGNORECASE)
_SAME = {"average": "mean", "max": "maximum", "min": "minimum"}
_DURATION = re.compile(r"\s*(?:-\s*)?(?:years?|yrs?|months?|weeks?|days?)\b", re.IGNORECASE)
_LABEL_REACH = 30


def _label(text: str, number: NumberMention) -> str | None:
    """The statistic named last in the few words before the number, if any."""
    before = text[max(0, number.span.start - _LABEL_REACH):number.span.start]
    found = list(_STAT.finditer(before))
    if not found or any(c.isdigit() for c in before[found[-1].end():]):
        return None
    word = found[-1].group(1).lower()
    return _SAME.get(word, word)


def _design_durations(study: Study) -> list[tuple[str, float, bool]]:
    """(statistic, value, whether a time unit follows) of every number of the design text a
    statistic names ("maximum 5.5)" inside a duration's bracket has none)."""
    out = []
    for text in [study.question, *study.picot.values()]:
        for number in numbers_in(text):
            label = _label(text, number)
            if label is not None:
                out.append((label, number.value,
                            _DURATION.match(text, number.span.end) is not None))
    return out


def wrong_statistic(study: Study, text: str) -> list[NumberFinding]:
    """Every duration written under a statistic whose design number it is not (see above)."""
    design = _design_durations(study)
    if not design:
        return []
    findings = []
    for number in numbers_in(text):
        if number.is_percent or number.operator or number.hedged or \
                not _DURATION.match(text, number.span.end):
            continue
        label = _label(text, number)
        if label is None or label in ("iqr", "range"):
            continue
        # compared with durations of the same statistic only ("median age 70 years" is none)
        same = [(v, d) for lab, v, d in design if lab == label and d]
        if not same or any(matches(number.value, number.decimals, v) for v, _ in same):
            continue
        other = [lab for lab, v, _ in design if lab != label
                 and matches(number.value, number.decimals, v)]
        if other:
            findings.append(NumberFinding(number.span, "picot", (
                f"{number.span.quote} is written as the {label}, but the design gives it as "
                f"the {other[0]} (the {label} is {same[0][0]:g})")))
    return findings
