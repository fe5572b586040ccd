"""A value written for the wrong time point: "HbA1c fell 0.6% by three months and 0.4% by six
months" when -0.6 is the 6-month change and -0.4 the 3-month one.

Only for an outcome the study reports at several time points under one name. The time point
of a value is the phrase right after it ("0.6% by three months", "0.4 points at 6 months") or
right before it ("at 6 months, 0.4%"), with nothing else numeric between; the value must be
that name's value at another time point and not its value at the time point written.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from pytest_rwe.rules.index import Entry, StudyIndex, matches
from pytest_rwe.rules.number_groups import NumberFinding
from pytest_rwe.rules.number_mentions import NumberMention
from pytest_rwe.study import Outcome, Study

_WORD = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
         "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "eighteen": 18,
         "twenty-four": 24, "thirty-six": 36}
_DAYS = {"d": 1.0, "w": 7.0, "m": 365.25 / 12, "y": 365.25}
# a written time, its count and its unit (rules/trends.py reads them too)
TIME_COUNT = r"(\d+(?:\.\d+)?|" + "|".join(sorted(_WORD, key=len, reverse=True)) + r")"
TIME_UNIT = r"(days?|d|weeks?|wks?|w|months?|mos?|m|years?|yrs?|y)\b"
_AFTER = re.compile(r"^[\s%]*(?:points?|percentage\s+points?|kg|cm|mmhg|units?)?\s*"
                    r"(?:\([^()]*\))?\s*,?\s*"
                    r"(?:at|by|after|over|within|in)\s+(?:the\s+)?" + TIME_COUNT + r"[\s-]*"
                    + TIME_UNIT,
                    re.IGNORECASE)
_BEFORE = re.compile(r"\b(?:at|by|after|over|within)\s+(?:the\s+)?" + TIME_COUNT + r"[\s-]*"
                     + TIME_UNIT + r"(?:[^\d;.()]|(?<=[A-Za-z])\d){0,40}$", re.IGNORECASE)
# "36% at wk 52", "70% at week 104": a time point written unit first, as tables label columns
_AFTER_UNIT_FIRST = re.compile(r"^[\s%]*(?:\([^()]*\))?\s*,?\s*(?:at|by|after)\s+(?:the\s+)?"
                               r"(weeks?|wks?|months?|mos?|days?|years?|yrs?)\.?\s*(\d+)\b",
                               re.IGNORECASE)
_LINK = re.compile(r"\b(?:and|or|vs|versus|while|whereas|compared|than|but)\b|,",
                   re.IGNORECASE)
_KEY_TIME = re.compile(r"^(\d+(?:\.\d+)?)\s*([a-z]+)$", re.IGNORECASE)


def in_days(count: str, unit: str) -> float | None:
    """A written time ("3", "months"; "three", "yrs") in days, None for an unknown unit."""
    value = float(_WORD[count.lower()]) if count.lower() in _WORD else float(count)
    letter = unit.lower()[0]
    return value * _DAYS[letter] if letter in _DAYS else None


def _timepoint_days(timepoint: str | None) -> float | None:
    match = _KEY_TIME.match(timepoint or "")
    return in_days(match.group(1), match.group(2)) if match else None


def _siblings(study: Study) -> list[list[Outcome]]:
    """The outcomes reported under one name at several time points."""
    by_name: dict[str, list[Outcome]] = {}
    for outcome in study.outcomes:
        if _timepoint_days(outcome.timepoint) is not None:
            by_name.setdefault(outcome.name, []).append(outcome)
    return [group for group in by_name.values() if len(group) > 1]


def written_time(text: str, number: NumberMention) -> float | None:
    """The time point (in days) a phrase right after or right before the number gives it."""
    after = _AFTER.match(text[number.span.end:number.span.end + 40])
    if after is not None:
        return in_days(after.group(1), after.group(2))
    unit_first = _AFTER_UNIT_FIRST.match(text[number.span.end:number.span.end + 40])
    if unit_first is not None:  # "29% at wk 52": the unit before its count
        return in_days(unit_first.group(2), unit_first.group(1))
    before = _BEFORE.search(text[max(0, number.span.start - 60):number.span.start])
    # "at 6 months, HbA1c had fallen by 0.4"; not "2.19 at 5 yrs and 2.12 (...) at 10 yrs"
    if before is not None and not _LINK.search(before.group(0)):
        return in_days(before.group(1), before.group(2))
    return None


def _entries(index: StudyIndex, outcome: Outcome) -> list[Entry]:
    return [e for e in index.of_outcomes([outcome.key], "effect", "percent")
            if e.role in ("point", "")]


def wrong_timepoint(study: Study, index: StudyIndex, text: str,
                    numbers: Iterable[NumberMention]) -> list[NumberFinding]:
    """Each value of a repeated outcome written beside another time point's phrase."""
    groups = _siblings(study)
    if not groups:
        return []
    out = []
    for number in numbers:
        if number.is_word or number.hedged or number.operator:
            continue
        when = written_time(text, number)
        if when is None:
            continue
        # the value of another name at the time written ("remission 36% at wk 104" with
        # remission and response each 36% at one time point) is not a time point swapped
        if any(abs((_timepoint_days(o.timepoint) or 0) - when) <= 0.1 * when and any(
                matches(abs(number.value), number.decimals, abs(e.value))
                for e in _entries(index, o)) for group in groups for o in group):
            continue
        for group in groups:
            at = [o for o in group if abs((_timepoint_days(o.timepoint) or 0) - when)
                  <= 0.1 * when]
            if len(at) != 1:
                continue
            fits = [(o, e) for o in group for e in _entries(index, o)
                    if matches(abs(number.value), number.decimals, abs(e.value))]
            if fits and all(o is not at[0] for o, _ in fits):
                own, entry = fits[0]
                out.append(NumberFinding(number.span, entry.field, (
                    f"{number.span.quote} is {own.name} at {own.timepoint} ({entry.field} = "
                    f"{entry.shown}), but it is written for {at[0].timepoint}")))
                break
    return out


# whole numbers only: "HR 2.12 and at 10 years" is an estimate, then one time point
_COUNT_ANY = r"(?:\d+(?![.\d])|" + "|".join(sorted(_WORD, key=len, reverse=True)) + r")"
_LISTED = re.compile(r"(?<![\w.])(?P<first>" + _COUNT_ANY + r")(?P<more>(?:\s*(?:,|and|or|&)\s*"
                     r"(?:(?:at|by|after|over|within|in)\s+)?(?:the\s+)?" + _COUNT_ANY + r")*)"
                     r"[\s-]*(?P<unit>" + TIME_UNIT.replace("(", "(?:", 1) + ")", re.IGNORECASE)


_CLOSED = re.compile(r"\([^()]*\)")
_AFTER_VALUE = re.compile(r"[\d%)]\s*,?\s*(?:at|by|after|over|within|in)\s+(?:the\s+)?$",
                          re.IGNORECASE)


def times_before(text: str) -> frozenset[float]:
    """The time points (in days) of the last time phrase in ``text``: "5-y all-cause HR 1.59,
    CVD HR" gives 5 years, "within 5 and within 10 years (HRs" both 5 and 10 years."""
    # a bracket closed before the end is another value's ("(5-year HR 2.95; 10-year HR 1.99),
    # and all-cause mortality (HR"): its words are blanked, offsets kept
    text = _CLOSED.sub(lambda m: " " * len(m.group(0)), text)
    found = list(_LISTED.finditer(text))
    if not found:
        return frozenset()
    last = found[-1]
    if _AFTER_VALUE.search(text, 0, last.start()):
        return frozenset()  # "2.12 (1.33-3.37) at 10 yrs; CVD HR": the earlier value's time
    counts = [last.group("first"), *re.findall(TIME_COUNT, last.group("more"), re.IGNORECASE)]
    unit = last.group("unit").rstrip()
    days = (in_days(count, unit) for count in counts)
    return frozenset(d for d in days if d is not None)


def timepoint_days(outcome: Outcome) -> float | None:
    """An outcome's time point in days ("5yrs" is 1826.25), None when it has none."""
    return _timepoint_days(outcome.timepoint)
