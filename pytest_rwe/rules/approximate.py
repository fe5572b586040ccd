"""Numbers written as words of proportion: "twice the risk", "halved", "nearly three times",
"more than two and a half times", "half again as likely", "a third lower", "roughly three
quarters of patients", "four in five". Each is checked against the study with a stated
tolerance.

Stated tolerances:

- a multiple or a fraction of a ratio, plain or hedged ("about", "roughly"): within
  ``WORD_TOLERANCE`` (10%) of the word's value ("twice" / "doubled" / "two-fold" means a ratio
  of 1.8 to 2.2, "three times" 2.7 to 3.3, "half the risk" 0.45 to 0.55, "a third lower" a
  reduction of 30% to 36.7%);
- "nearly", "almost", "just under", "close to": from ``NEAR_BELOW`` (15%) under the value up to
  the value itself ("nearly three times" is 2.55 to 3.0); "more than", "over", "at least":
  from the value up to ``ABOVE`` (50%) over it ("more than three times" is 3.0 to 4.5);
- a share of people ("three quarters of patients", "seven in ten", "just over half"): within
  ``SHARE_POINTS`` (5) percentage points, or up to ``SIDE_POINTS`` (10) on the stated side for
  "nearly" / "more than" (which say the side, so the size is looser: "just over half" for
  56.3%) - and against the share the summary writes beside it ("three quarters (81.3%)",
  "more than three-quarters (76.6%)") when it does;
- hedged digits ("about 0.9", "roughly 25%", "~3"): within half a unit of the last digit
  written, or within ``HEDGE_TOLERANCE`` (5%) of the study's value, whichever is wider
  (``pytest_rwe.rules.numbers``).

So "roughly doubled" for HR 1.30, "nearly three times" for RR 1.86, "more than three times" for
OR 2.71 and "roughly three quarters" for 81.3% are errors; HR 0.76 written "24% lower" or
"roughly a quarter lower", and HR 2.72 as "almost three times" are not.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from pytest_rwe.rules.text import Span

WORD_TOLERANCE = 0.10
HEDGE_TOLERANCE = 0.05
NEAR_BELOW = 0.15
ABOVE = 0.50
SHARE_POINTS = 5.0
SIDE_POINTS = 10.0

_NUMBER = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
           "nine": 9, "ten": 10, "one": 1}
_QUALIFIER = (r"(?P<q>more\s+than|over|at\s+least|just\s+over|well\s+over|nearly|almost|"
              r"just\s+under|a\s+little\s+under|close\s+to|under|less\s+than|about|roughly|"
              r"around|approximately|some|~)?\s*")
_MULTIPLE = re.compile(
    r"\b" + _QUALIFIER + r"(?P<n>" + "|".join(_NUMBER) + r"|\d+(?:\.\d+)?)"
    r"(?P<half>\s+and\s+a\s+half)?[\s-]*(?:times|fold)\b"
    r"(?!\s+(?:a|per|each)\s+(?:day|week|month|year)|\s+(?:daily|weekly|monthly))",
    re.IGNORECASE)
_WORD_MULTIPLES = (
    (re.compile(r"\b" + _QUALIFIER + r"(?:twice|doubl(?:e|ed|es|ing)|two-?fold)\b",
                re.IGNORECASE), 2.0),
    (re.compile(r"\b" + _QUALIFIER + r"(?:thrice|tripl(?:e|ed|es|ing))\b", re.IGNORECASE), 3.0),
    (re.compile(r"\b" + _QUALIFIER + r"quadrupl(?:e|ed|ing)\b", re.IGNORECASE), 4.0),
    (re.compile(r"\b" + _QUALIFIER + r"(?:halv(?:ed|ing|es)\b|half\s+(?:the|as\s+\w+\s+as)\b|"
                r"by\s+half\b)", re.IGNORECASE), 0.5),
    (re.compile(r"\b" + _QUALIFIER + r"half\s+again\s+as\b", re.IGNORECASE), 1.5),
)
_FRACTION = re.compile(
    r"\b" + _QUALIFIER + r"(?P<frac>(?:a|one)[\s-]third|two[\s-]thirds|(?:a|one)[\s-]quarter|"
    r"a\s+fourth|three[\s-]quarters|(?:a|one)[\s-]fifth|(?:a|one)[\s-]tenth|half)\b"
    r"(?P<after>[^.;:()]{0,40})", re.IGNORECASE)
_FRACTIONS = {"third": 1 / 3, "thirds": 2 / 3, "quarter": 0.25, "fourth": 0.25,
              "quarters": 0.75, "fifth": 0.2, "tenth": 0.1, "half": 0.5}
_LOWER_AFTER = re.compile(r"^\s*(?:\w+\s+){0,2}?(?:lower|less|fewer|reduc\w*|decreas\w*|drop\w*|"
                          r"declin\w*|smaller)\b", re.IGNORECASE)
_HIGHER_AFTER = re.compile(r"^\s*(?:\w+\s+){0,2}?(?:higher|more|greater|increas\w*|elevat\w*|"
                           r"larger|excess)\b", re.IGNORECASE)
_CUT_BY = re.compile(r"\b(?:cut|reduc\w*|lower\w*|decreas\w*|fell|fall\w*|dropp\w*|declin\w*|"
                     r"shrank|drop)\s+(?:\w+\s+){0,2}?by\s*$", re.IGNORECASE)
_RAISED_BY = re.compile(r"\b(?:rais\w*|rose|ris\w*|increas\w*|grew|grow\w*|higher|elevat\w*)\s+"
                        r"(?:\w+\s+){0,2}?by\s*$", re.IGNORECASE)
_RATIO_AFTER = re.compile(r"^\s*(?:of\s+)?(?:the|their|its)\s+(?:\w+\s+)?(?:risk|odds|hazard|"
                          r"rate|incidence|likelihood|chance)\b", re.IGNORECASE)
_PEOPLE_AFTER = re.compile(
    r"^\s*(?:of\s+(?:the\s+|all\s+|these\s+)?(?:\w+[\s-]+){0,2}?(?:patients|participants|"
    r"subjects|people|persons|users|women|men|children|adults|cohort|group|sample|cases|eyes|"
    r"detachments|respondents|infants|those|them)\b|\(|\s*\d)", re.IGNORECASE)
_SHARE_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                "eight": 8, "nine": 9, "ten": 10}
_SHARE = re.compile(r"\b" + _QUALIFIER + r"(?P<k>one|two|three|four|five|six|seven|eight|nine|\d)"
                    r"\s+(?:(?:patient|person|participant|adult|child|woman|man|case|eye)\s+)?"
                    r"(?:in|out\s+of)\s+(?P<n>two|three|four|five|six|seven|eight|nine|ten|"
                    r"\d{1,2})\b", re.IGNORECASE)
# a word one of _MULTIPLE, _WORD_MULTIPLES and _FRACTION needs to match at all
_PROPORTION_WORD = re.compile(r"times|fold|twice|doubl|thrice|tripl|quadrupl|halv|half|third|"
                              r"quarter|fourth|fifth|tenth", re.IGNORECASE)
_HALVING = re.compile(r"halv|\bby\s+half\b", re.IGNORECASE)
_BELOW = ("nearly", "almost", "just under", "a little under", "close to", "under", "less than")
_OVER = ("more than", "over", "at least", "just over", "well over")


@dataclass(frozen=True)
class Approximation:
    """A proportion in words: ``kind`` is "ratio" (the ratio itself: twice, halved),
    "reduction" (1 - ratio: a third lower), "increase" (ratio - 1) or "share" (a percent);
    the values it admits are ``low`` to ``high``, in the same terms as ``value``."""

    span: Span
    kind: str
    value: float
    low: float
    high: float
    qualifier: str = ""

    def admits(self, value: float) -> bool:
        """True when ``value`` is within the stated tolerance of this word."""
        return self.low - 1e-12 <= value <= self.high + 1e-12

    def describe(self) -> str:
        unit = {"ratio": "a ratio of", "reduction": "a reduction of", "increase":
                "an increase of", "share": "a share of"}[self.kind]
        scale = 1.0 if self.kind in ("ratio", "share") else 100.0
        suffix = "" if self.kind == "ratio" else "%"
        return (f"{unit} {self.low * scale:.3g}{suffix} to {self.high * scale:.3g}{suffix}"
                f" ({(self.qualifier + ' ') if self.qualifier else ''}"
                f"{self.value * scale:.3g}{suffix})")


def _qualifier(match: re.Match[str]) -> str:
    return re.sub(r"\s+", " ", (match.group("q") or "").lower()).strip()


def _bounds(value: float, qualifier: str, share: bool) -> tuple[float, float]:
    """The values a word admits, by its qualifier ("nearly", "more than", or plain/hedged)."""
    if share:
        if qualifier in _BELOW:
            return value - SIDE_POINTS, value
        if qualifier in _OVER:
            return value, value + SIDE_POINTS
        return value - SHARE_POINTS, value + SHARE_POINTS
    if qualifier in _BELOW:
        return value * (1 - NEAR_BELOW), value
    if qualifier in _OVER:
        return value, value * (1 + ABOVE)
    return value * (1 - WORD_TOLERANCE), value * (1 + WORD_TOLERANCE)


def _ratio(span: Span, value: float, qualifier: str) -> Approximation:
    low, high = _bounds(value, qualifier, False)
    return Approximation(span, "ratio", value, low, high, qualifier)


def approximations_in(text: str) -> list[Approximation]:
    """Every proportion written in words, with its kind, value and admitted range."""
    found: list[Approximation] = []
    taken: list[tuple[int, int]] = []

    def free(start: int, end: int) -> bool:
        return not any(a < end and start < b for a, b in taken)

    # every pattern but the shares needs one of these words: a text without them (a long
    # list of estimates) is not scanned seven times for proportions it cannot hold
    worded = _PROPORTION_WORD.search(text) is not None
    for match in (_MULTIPLE.finditer(text) if worded else ()):
        raw = match.group("n").lower()
        value = float(_NUMBER.get(raw, 0) or float(raw)) + (0.5 if match.group("half") else 0)
        if value < 1.5:
            continue
        span = Span(match.start(), match.end(), match.group(0))
        found.append(_ratio(span, value, _qualifier(match)))
        taken.append((match.start(), match.end()))
    for pattern, value in _WORD_MULTIPLES if worded else ():
        for match in pattern.finditer(text):
            if free(match.start(), match.end()):
                span = Span(match.start(), match.end(), match.group(0))
                qualifier = _qualifier(match)
                if value == 0.5 and _HALVING.search(match.group(0)):
                    # "more than halved" cuts the risk by more than half: a ratio under 0.5,
                    # where "more than half the risk" is a ratio over it
                    low, high = _bounds(0.5, qualifier, False)
                    found.append(Approximation(span, "reduction", 0.5, low, high, qualifier))
                else:
                    found.append(_ratio(span, value, qualifier))
                taken.append((match.start(), match.end()))
    for match in (_FRACTION.finditer(text) if worded else ()):
        if not free(match.start("frac"), match.end("frac")):
            continue
        words = match.group("frac").lower().replace("-", " ").split()
        fraction = _FRACTIONS[words[-1]]
        after = match.group("after")
        qualifier = _qualifier(match)
        before = text[max(0, match.start() - 32):match.start()]
        if _CUT_BY.search(before):
            kind, value = "reduction", fraction  # "the risk was cut by more than two-thirds"
        elif _RAISED_BY.search(before):
            kind, value = "increase", fraction
        elif _RATIO_AFTER.match(after):
            kind, value = "ratio", fraction  # "a third of the risk": the ratio itself
        elif _LOWER_AFTER.match(after):
            kind, value = "reduction", fraction
        elif _HIGHER_AFTER.match(after):
            kind, value = "increase", fraction
        elif _PEOPLE_AFTER.match(text[match.end("frac"):match.end("frac") + 60]):
            # the whole text, not ``after``: "three-quarters (76.6%)" has its bracket there
            kind, value = "share", fraction * 100
        else:
            continue
        end = match.end("frac")
        low, high = _bounds(value, qualifier, kind == "share")
        found.append(Approximation(Span(match.start(), end, text[match.start():end]), kind,
                                   value, low, high, qualifier))
    for match in _SHARE.finditer(text):
        k, n = (_SHARE_WORDS.get(g.lower()) if not g.isdigit() else int(g)
                for g in (match.group("k"), match.group("n")))
        if k is not None and n and k < n:
            value = 100.0 * k / n
            low, high = _bounds(value, _qualifier(match), True)
            found.append(Approximation(Span(match.start(), match.end(), match.group(0)),
                                       "share", value, low, high, _qualifier(match)))
    return sorted(found, key=lambda a: a.span.start)


def candidate_values(approximation: Approximation, ratios: Iterable[float],
                     percents: Iterable[float]) -> list[float]:
    """The values of the study an approximation is compared with, in its own terms."""
    if approximation.kind == "ratio":
        return list(ratios)
    if approximation.kind == "reduction":
        return [1 - r for r in ratios]
    if approximation.kind == "increase":
        return [r - 1 for r in ratios]
    return list(percents)
