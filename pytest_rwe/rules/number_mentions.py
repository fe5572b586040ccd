"""The numbers written in a summary (digits and number words), with the precision, sign,
bound, scale and hedge each is written with; offsets into the text, like every span of
:mod:`pytest_rwe.rules.text`."""

from __future__ import annotations

import bisect
import functools
import re
from dataclasses import dataclass

from pytest_rwe.rules.text import Span

_NUMBER_WORDS = {
    "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20,
    "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
    "ninety": 90, "hundred": 100,
}
_WORD_NUMBER_RE = re.compile(
    r"\b(?P<tens>twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)[-\s]"
    r"(?P<unit>one|two|three|four|five|six|seven|eight|nine)\b|\b(?P<word>"
    + "|".join(_NUMBER_WORDS) + r")\b(?!-(?:fold|times))",
    re.IGNORECASE,
)
_UNITS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
          "eight": 8, "nine": 9}


@dataclass(frozen=True)
class NumberMention:
    """A number written in the summary, with the precision it is written at."""

    value: float
    decimals: int
    span: Span
    is_percent: bool
    is_word: bool
    operator: str  # "<", ">", "<=", ">=" or "" (written before the number)
    scale: float = 1.0  # 1e6 for "18.5 million"
    hedged: bool = False  # "about", "roughly", "~" before it


# A number not glued to letters of any script ("HbA1c", "COVID-19", "T2D", "\u03c72" and
# "A\u03b242" are names), nor to a letter by a minus ("mL\u22121", "hr-1": a unit's power).
# The decimal point may be a middle dot, as British journals print it ("HR 0\u00b782"), or a
# comma where no thousands can be meant ("OR 0,93 [0,67-1,30]": a leading 0, or one or two
# digits after the comma; not "F(1,12)", degrees of freedom, nor "1,2,4", a list).
_NUMBER_RE = re.compile(
    r"(?<![^\W_])(?<![.\u00b7])(?<![^\W\d_][-\u2212])"
    r"(?P<sign>[-\u2212\u2013](?=\d|[.\u00b7]\d))?"
    r"(?P<num>(?<![\d,])(?<![Ff][(\[])(?<![Ff])(?:0,\d+|[1-9]\d{0,2},\d{1,2})(?![\d,])"
    r"|\d{1,3}(?:,\d{3})+(?:[.\u00b7]\d+)?|\d+(?:[.\u00b7]\d+)?|[.\u00b7]\d+)"
    r"(?P<tail>(?:st|nd|rd|th)\b|[A-Za-z]+)?"
)
_OPERATOR_RE = re.compile(r"(<=|>=|≤|≥|<|>|less than|below|under|greater than|more than|over|"
                          r"above|exceeding)\s*$",
                          re.IGNORECASE)
# "about a 70% lower risk": the article between the hedge and its number keeps the hedge
_HEDGE_RE = re.compile(r"(?:\b(?:about|approximately|approx\.?|roughly|around|nearly|almost|some|"
                       r"close\s+to)\s*(?:\ban?\s+)?|~\s*)$", re.IGNORECASE)
# the last non-space character of a match of each (no other character matches these ignoring
# case): a number after any other needs no search
_OPERATOR_ENDS, _HEDGE_ENDS = frozenset("=<>≤≥nNwWrReEgG"), frozenset("tTyYxX.dDeEoO~aAnN")
_UNIT_TAILS = frozenset({"mo", "mos", "m", "y", "yr", "yrs", "d", "w", "wk", "wks", "h", "x",
                         "mg", "kg", "g", "ml", "mmhg", "k", "percent", "pct"})


# compiled once: numbers_in tries these after every number of a summary (thousands of times
# in a long one), where re's own cache lookup and flag handling cost more than the match
_PERCENT_AFTER = re.compile(r"\s*(%|percent|per cent|percentage)", re.IGNORECASE)
_WORD_PERCENT_AFTER = re.compile(r"\s*(%|percent|per cent)", re.IGNORECASE)
_SCALE_AFTER = re.compile(r"\s*(million|thousand|billion)\b", re.IGNORECASE)


def _decimal_point(written: str) -> str:
    """The number as Python reads it: "1,234" is 1234, "0\u00b782" and "0,93" are decimals."""
    if "," in written and not re.fullmatch(r"\d{1,3}(?:,\d{3})+(?:[.\u00b7]\d+)?", written):
        return written.replace(",", ".")
    return written.replace(",", "").replace("\u00b7", ".")


def numbers_in(text: str) -> list[NumberMention]:
    """Every number written in ``text`` (digits and number words), with its precision."""
    found: list[NumberMention] = []
    for match in _NUMBER_RE.finditer(text):
        tail = (match.group("tail") or "").lower()
        if tail and tail not in _UNIT_TAILS:
            continue  # an identifier such as "3a" or an ordinal "2nd"
        raw = _decimal_point(match.group("num"))
        value = float(raw)
        sign = match.group("sign")
        if sign:
            back = match.start()  # the last non-space before the sign, without copying text
            while back > 0 and text[back - 1].isspace():
                back -= 1
            before = text[back - 1] if back > 0 else ""
            # "2.38-3.12" is a range, not a negative number.
            glued = match.start() > 0 and text[match.start() - 1] in "-\u2013"
            if (before and (before[-1].isdigit() or before[-1] == "%") and glued) or (
                    sign == "\u2013" and before and before[-1].isalnum()):
                sign = None
        if sign:
            value = -value
        start = match.start() if sign else match.start("num")
        end = match.end("num")
        after = text[end:end + 12]
        is_percent = bool(_PERCENT_AFTER.match(after))
        scale = 1.0
        scale_match = _SCALE_AFTER.match(after)
        if scale_match:
            scale = {"million": 1e6, "thousand": 1e3, "billion": 1e9}[scale_match.group(1).lower()]
        elif tail == "k":
            scale = 1e3  # "175k patients": thousands
        before = text[max(0, start - 14):start]
        op_match = _OPERATOR_RE.search(before) if before.rstrip()[-1:] in _OPERATOR_ENDS else None
        operator = ""
        if op_match:
            operator = {"≤": "<=", "≥": ">=", "less than": "<", "below": "<", "under": "<",
                        "greater than": ">", "more than": ">", "over": ">", "above": ">",
                        "exceeding": ">"}.get(
                op_match.group(1).lower(), op_match.group(1))
        decimals = len(raw.split(".", 1)[1]) if "." in raw else 0
        before = text[max(0, start - 16):start]
        hedged = before.rstrip()[-1:] in _HEDGE_ENDS and bool(_HEDGE_RE.search(before))
        found.append(NumberMention(value, decimals, Span(start, end, text[start:end]),
                                   is_percent, False, operator, scale, hedged))
    for match in _WORD_NUMBER_RE.finditer(text):
        if match.group("tens"):
            value = _NUMBER_WORDS[match.group("tens").lower()] + _UNITS[match.group("unit").lower()]
        else:
            value = _NUMBER_WORDS[match.group("word").lower()]
        after = text[match.end():match.end() + 12]
        is_percent = bool(_WORD_PERCENT_AFTER.match(after))
        hedged = bool(_HEDGE_RE.search(text[max(0, match.start() - 16):match.start()]))
        scale_match = _SCALE_AFTER.match(after)
        scale = {"million": 1e6, "thousand": 1e3, "billion": 1e9}[
            scale_match.group(1).lower()] if scale_match else 1.0
        found.append(NumberMention(float(value), 0, Span(match.start(), match.end(),
                                   match.group(0)), is_percent, True, "", scale, hedged))
    return sorted(found, key=lambda n: n.span.start)


@functools.lru_cache(maxsize=16)
def _numbers_of(text: str) -> tuple[tuple[NumberMention, ...], tuple[int, ...]]:
    found = tuple(numbers_in(text))
    return found, tuple(n.span.start for n in found)


def summary_numbers(text: str) -> list[NumberMention]:
    """:func:`numbers_in` of a whole summary, read once however many readers ask (the
    numbers check and every list sentence's outcome names: a summary of 800 outcomes was
    read three times)."""
    return list(_numbers_of(text)[0])


def numbers_within(text: str, start: int, end: int) -> list[NumberMention]:
    """The numbers of ``text`` (a whole summary) written inside ``text[start:end]``."""
    found, starts = _numbers_of(text)
    first, last = bisect.bisect_left(starts, start), bisect.bisect_left(starts, end)
    return [n for n in found[first:last] if n.span.end <= end]
