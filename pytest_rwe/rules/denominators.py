"""A share of a subgroup written as a share of everyone: "mechanical ventilation 67.9% of the
cohort" when 67.9% is the study's "mechanical ventilation among ICU patients".

The study names a subgroup's share "X among Y"; a summary that writes that value as "of the
cohort", "of all patients" or "overall" gives it the wrong denominator. A value that is also
a share of the whole (another outcome's) is left alone.
"""

from __future__ import annotations

import re

from pytest_rwe.rules.index import StudyIndex
from pytest_rwe.rules.number_groups import NumberFinding
from pytest_rwe.rules.number_mentions import NumberMention
from pytest_rwe.study import Study

_OF_EVERYONE = re.compile(r"\s*%?\s*(?:of\s+(?:the\s+)?(?:whole|entire|full|total|overall)?\s*"
                          r"(?:cohort|series|sample|population|study\s+population)\b|of\s+all\s+"
                          r"(?:\w+\s+)?(?:patients|participants|subjects|cases|people)\b|overall\b)",
                          re.IGNORECASE)
_AMONG = re.compile(r"\bamong\s+(?:the\s+)?(\w+(?:\s+\w+){0,3})\s*$")


def share_of_everyone(study: Study, index: StudyIndex, text: str, number: NumberMention
                      ) -> NumberFinding | None:
    """The number is a subgroup's share ("X among Y") written as everyone's."""
    if not number.is_percent or number.hedged or number.operator or \
            not _OF_EVERYONE.match(text, number.span.end):
        return None
    names = {o.key: o.name for o in study.outcomes}
    fitting = [e for e in index.of_kind("percent") if e.outcome in names
               and abs(e.value - number.value) <= 0.5 * 10 ** (-number.decimals) + 1e-9]
    if not fitting or not all(_AMONG.search(names[e.outcome or ""]) for e in fitting):
        return None
    entry = fitting[0]
    subgroup = _AMONG.search(names[entry.outcome or ""])
    assert subgroup is not None
    return NumberFinding(number.span, entry.field, (
        f"{number.span.quote}% is written as a share of everyone, but it is {entry.field} = "
        f"{entry.shown}, a share among {subgroup.group(1)} only"))
