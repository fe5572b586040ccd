"""Telling apart outcomes that share a name: by the timepoint written beside the name, or by
the outcome's own estimate written in the sentence."""

from __future__ import annotations

import bisect
import re
from collections.abc import Mapping, Sequence

from pytest_rwe.rules.index import matches, timepoint_numbers
from pytest_rwe.rules.memo import Memo
from pytest_rwe.rules.number_mentions import numbers_in
from pytest_rwe.rules.text import Token, outside_brackets
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


def written_values(written: Sequence[object]) -> frozenset[object]:
    """The values of a sentence's numbers, for :func:`by_timepoint` (once a sentence)."""
    return frozenset(getattr(n, "value", None) for n in written)


def by_timepoint(outcomes: list[Outcome], values: frozenset[object]) -> list[Outcome]:
    """The outcomes whose timepoint's number is written (``values``: :func:`written_values`)."""
    chosen = []
    for outcome in outcomes:
        numbers = timepoint_numbers(outcome.timepoint)
        if numbers and numbers[0] in values:
            chosen.append(outcome)
    return chosen


def by_numbers(outcomes: list[Outcome], facts: Mapping[str, Fact], written: Sequence[object]
                ) -> list[Outcome]:
    """The outcomes whose own estimate is written in the sentence (``written``: its numbers,
    a list not changed afterwards, so its sorted form is kept per list)."""
    # the sentence's numbers sorted by value, per precision: each estimate is looked up, not
    # compared with every number (a sentence may list hundreds of outcomes' estimates)
    sorted_numbers = _BY_PRECISION.get(written, None, lambda: _by_precision(written))
    chosen = []
    for outcome in outcomes:
        fact = facts.get(outcome.key)
        if fact is None or fact.point is None:
            continue
        point = fact.point
        for decimals, (values, magnitudes) in sorted_numbers.items():
            if _written_near(values, decimals, point) or _written_near(magnitudes, decimals,
                                                                       abs(point)):
                chosen.append(outcome)
                break
    return chosen


_BY_PRECISION: Memo[None, dict[int, tuple[list[float], list[float]]]] = Memo()


def _by_precision(written: Sequence[object]) -> dict[int, tuple[list[float], list[float]]]:
    """decimals (1 or more) -> the written values with that many, and their magnitudes,
    each sorted."""
    out: dict[int, tuple[list[float], list[float]]] = {}
    for number in written:
        value, decimals = getattr(number, "value", 0.0), getattr(number, "decimals", 0)
        if decimals >= 1:
            values, magnitudes = out.setdefault(decimals, ([], []))
            values.append(value)
            magnitudes.append(abs(value))
    for values, magnitudes in out.values():
        values.sort()
        magnitudes.sort()
    return out


def _written_near(values: list[float], decimals: int, point: float) -> bool:
    """Whether a value of the sorted ``values`` rounds to ``point`` at ``decimals``: the
    values in a window a little wider than the tolerance, then the exact test."""
    reach = 0.5 * 10.0 ** (-decimals) + 1e-6 * (1.0 + abs(point))  # wider than any rounding
    lo = bisect.bisect_left(values, point - reach)
    hi = bisect.bisect_right(values, point + reach)
    return any(matches(value, decimals, point) for value in values[lo:hi])


def placed(chosen: list[Outcome], phrases: list[tuple[int, float, str]], positions: list[int],
            bounds: list[tuple[int, int]], tokens: Sequence[Token], lo: int, hi: int
            ) -> tuple[list[tuple[Outcome, int]], bool]:
    """Same-named outcomes placed at their timepoints, and whether at the name itself.

    A timepoint written just after the name, over its estimates ("leg pain at 3 months",
    "CVD death HR 2.46 (0.91-6.71) at 5 years and 2.28 (...) at 10 years"), or just before
    it ("at 3 months, leg pain ...", "10-year cardiovascular mortality") places the name's own
    outcome, so two names sharing timepoints ("back pain" / "leg pain at 3 months") each keep
    their own. When the sentence names nothing else, each timepoint it writes places an
    outcome there, at the timepoint ("HbA1c rose by 0.4% at three months and fell by 0.6% at
    six months")."""
    first, last = positions[0], positions[-1]
    if not any(b < first or a > last for a, b in bounds):
        return place_by_timepoint(chosen, phrases, lo, hi), False
    following = min((a for a, _ in bounds if a > last), default=hi)
    preceding = max((b for _, b in bounds if b < first), default=lo - 1)
    near_after = [p for p in phrases if last < p[0] < following
                  and _words_between(tokens, last + 1, p[0]) <= 4]
    after = place_by_timepoint(chosen, near_after, last + 1, following)
    if after:
        return after, True
    near_before = [p for p in phrases if preceding < p[0] < first
                   and _words_between(tokens, p[0] + 1, first) <= 3
                   and not _closes(tokens, p[0] + 1, first)]
    before = sorted(place_by_timepoint(chosen, near_before, preceding + 1, first),
                    key=lambda placed: placed[1])
    if before:
        return before[-1:], True
    return [], False


_LABELS = frozenset({"hr", "or", "rr", "irr", "md", "ci", "p", "ahr", "aor", "shr", "at", "and",
                     "year", "years", "month", "months", "week", "weeks", "mo", "yrs", "yr"})


def _closes(tokens: Sequence[Token], start: int, end: int) -> bool:
    """A parenthesis opened before ``start`` closes before ``end``: "(5-year HR 2.95;
    10-year HR 1.99), and all-cause mortality" - the timepoints are the earlier name's."""
    depth = 0
    for pos in range(start, end):
        if tokens[pos].text in "([":
            depth += 1
        elif tokens[pos].text in ")]":
            depth -= 1
            if depth < 0:
                return True
    return False


def _words_between(tokens: Sequence[Token], start: int, end: int) -> int:
    """The plain words between two tokens, outside parentheses and leaving out estimates and
    their labels ("HR 2.46 (0.91-6.71) at" has none)."""
    return sum(1 for pos in outside_brackets(tokens, start, end)
               if tokens[pos].text[:1].isalpha() and tokens[pos].text.lower() not in _LABELS)
