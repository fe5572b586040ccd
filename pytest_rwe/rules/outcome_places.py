"""Telling apart outcomes that share a name: by the timepoint written beside the name, or by
the outcome's own estimate written in the sentence."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from pytest_rwe.rules.index import matches, timepoint_numbers
from pytest_rwe.rules.text import Token, numbers_in
from pytest_rwe.rules.truth import Fact
from pytest_rwe.study import Outcome

_UNIT_WORDS = {"m": ("month", "mo"), "y": ("year", "yr", "y"), "w": ("week", "wk"),
               "d": ("day", "d")}


def timepoint_phrases(text: str, tokens: Sequence[Token], lo: int, hi: int
                      ) -> list[tuple[int, float, str]]:
    """The timepoint phrases of a sentence: (token index of the number, value, unit letter).
    "at 3 months" gives one; "at 1, 3 and 6 months" gives three, the unit read from the last."""
    if hi <= lo:
        return []
    offset = tokens[lo].start
    written = numbers_in(text[offset:tokens[hi - 1].end])
    found: list[tuple[int, float, str]] = []
    pending: list[tuple[int, float]] = []
    for number in written:
        pos = next((i for i in range(lo, hi) if tokens[i].start >= offset + number.span.start),
                   None)
        if pos is None:
            continue
        after = text[offset + number.span.end: offset + number.span.end + 8].lower()
        unit = next((letter for letter, names in _UNIT_WORDS.items()
                     if re.match(r"[\s-]*(?:" + "|".join(names) + ")", after)), None)
        if unit is not None:
            found += [(p, v, unit) for p, v in pending] + [(pos, number.value, unit)]
            pending = []
        elif re.match(r"\s*(?:,|and|or|,\s*and)\s*$", text[offset + number.span.end:
                                                            offset + number.span.end + 6]):
            pending.append((pos, number.value))  # "1, 3 and 6 months": wait for the unit
        else:
            pending = []
    return found


def place_by_timepoint(outcomes: list[Outcome], phrases: Sequence[tuple[int, float, str]],
                       start: int, end: int) -> list[tuple[Outcome, int]]:
    """Each same-named outcome at its own timepoint phrase among ``phrases`` whose number
    stands in the token range [start, end): the stretch of the sentence the name governs."""
    placed: list[tuple[Outcome, int]] = []
    for outcome in outcomes:
        values = timepoint_numbers(outcome.timepoint)
        unit = re.sub(r"[\d.\s]", "", outcome.timepoint or "").lower()[:1]
        if not values or unit not in _UNIT_WORDS:
            continue
        for pos, value, written_unit in phrases:
            if start <= pos < end and value == values[0] and written_unit == unit:
                placed.append((outcome, pos))
    return placed


def by_timepoint(outcomes: list[Outcome], written: Sequence[object]) -> list[Outcome]:
    values = {getattr(n, "value", None) for n in written}
    return [o for o in outcomes if timepoint_numbers(o.timepoint)
            and timepoint_numbers(o.timepoint)[0] in values]


def by_numbers(outcomes: list[Outcome], facts: Mapping[str, Fact], written: Sequence[object]
                ) -> list[Outcome]:
    """The outcomes whose own estimate is written in the sentence."""
    chosen = []
    for outcome in outcomes:
        fact = facts.get(outcome.key)
        if fact is None or fact.point is None:
            continue
        for number in written:
            value, decimals = getattr(number, "value", 0.0), getattr(number, "decimals", 0)
            if decimals >= 1 and (matches(value, decimals, fact.point)
                                  or matches(abs(value), decimals, abs(fact.point))):
                chosen.append(outcome)
                break
    return chosen
