"""Numbers a summary writes that are not results of the study, so no study number has to
support them: the 95 of "95% CI", the 0.05 of a significance level, the 1 an interval
"crosses", the base of a rate ("for every 100 adults", "per 1,000 person-years") and the
digits a name carries, spelled out to explain it ("the PHQ-9, a nine-question checklist")."""

from __future__ import annotations

import functools
import math
import re

from pytest_rwe.rules.number_mentions import NumberMention
from pytest_rwe.rules.text import Span

_NULL_TALK = re.compile(r"\b(?:cross|crosses|crossed|crossing|includ\w*|span\w*|null|unity|"
                        r"overlap\w*|exclud\w*)\b", re.IGNORECASE)
# "for every 100 adults", "per 1,000 person-years", "out of every 10 patients"
_RATE_BASE = re.compile(r"(?:\bper|\b(?:for|in|out\s+of)\s+every)\s*$", re.IGNORECASE)
# a name ending in its number: "PHQ-9", "GAD-7", "SF-36", "EQ-5D"
_NAME_DIGITS = re.compile(r"\b[A-Za-z]{2,}[-\u2010]?(\d{1,3})[A-Za-z]?\b")


def accepted_anyway(text: str, number: NumberMention, clause: Span | None) -> bool:
    """The number is not a result: it needs no study number behind it."""
    after = text[number.span.end:number.span.end + 30]
    if number.value == 95 and number.is_percent and re.search(r"CI|confiden|interval", after,
                                                              re.I):
        return True
    if number.value in (0.05, 5.0) and not number.is_word and (
            number.value == 0.05 or re.search(r"signific|level|alpha", after, re.I)):
        return True
    if rate_base(text, number) or names_digits(number, clause):
        return True
    return number.value in (0.0, 1.0) and clause is not None and _null_talk(clause.quote)


def rate_base(text: str, number: NumberMention) -> bool:
    """A power of ten after "per" or "for every" is the base a rate is counted on ("13 more
    for every 100 adults"), not a value: the rate beside it is what the study must hold."""
    value = number.value * number.scale
    if number.is_percent or number.decimals or value < 10:
        return False
    if not math.isclose(10 ** round(math.log10(value)), value):
        return False
    return bool(_RATE_BASE.search(text[max(0, number.span.start - 16):number.span.start]))


def names_digits(number: NumberMention, clause: Span | None) -> bool:
    """A number spelled out in words that is the number of a name in the same clause: "the
    PHQ-9, a nine-question checklist" explains the name, it reports nothing."""
    if not number.is_word or clause is None or number.is_percent:
        return False
    return any(float(m.group(1)) == number.value for m in _NAME_DIGITS.finditer(clause.quote))


@functools.lru_cache(maxsize=64)
def _null_talk(clause: str) -> bool:
    """The clause speaks of the null value ("crosses 1"): read once per clause, which may
    hold hundreds of estimates of 1.0."""
    return bool(_NULL_TALK.search(clause))
