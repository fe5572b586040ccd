"""Numbers written as words of proportion: "twice the risk", "halved", "a third lower",
"four in five patients". Each is checked against the study with a stated tolerance.

Stated tolerances (relative to the word's value):

- ``WORD_TOLERANCE`` (10%): "twice" / "doubled" / "two-fold" means a ratio of 1.8 to 2.2,
  "half the risk" / "halved" 0.45 to 0.55, "a third lower" a reduction of 30% to 36.7%,
  "a quarter lower" 22.5% to 27.5%, "four in five" 72% to 88%;
- hedged digits ("about 0.9", "roughly 25%", "nearly 70%", "~3"): within half a unit of the
  last digit written, or within ``HEDGE_TOLERANCE`` (5%) of the study's value, whichever is
  wider (``pytest_rwe.rules.numbers``).

So "roughly doubled" for HR 1.30 and "HR of about 0.9" for HR 0.82 are not accurate; HR 0.76
written "24% lower" or "roughly a quarter lower" is.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from pytest_rwe.rules.text import Span

WORD_TOLERANCE = 0.10
HEDGE_TOLERANCE = 0.05

_MULTIPLES = (
    (re.compile(r"\b(?:twice|doubl(?:e|ed|es|ing)|two-?fold|2-fold)\b", re.IGNORECASE), 2.0),
    (re.compile(r"\b(?:thrice|tripl(?:e|ed|es|ing)|three-?fold|3-fold)\b", re.IGNORECASE), 3.0),
    (re.compile(r"\b(?:quadrupl(?:e|ed|ing)|four-?fold|4-fold)\b", re.IGNORECASE), 4.0),
    (re.compile(r"\bhalv(?:ed|ing|es)\b|\bhalf\s+(?:the|as\s+\w+\s+as)\b|\bby\s+half\b",
                re.IGNORECASE), 0.5),
)
_FRACTION = re.compile(
    r"\b(?P<frac>(?:a|one)[\s-]third|two[\s-]thirds|(?:a|one)[\s-]quarter|a\s+fourth|"
    r"three[\s-]quarters|(?:a|one)[\s-]fifth|(?:a|one)[\s-]tenth|half)\b"
    r"(?P<after>[^.;:()]{0,40})", re.IGNORECASE)
_FRACTIONS = {"third": 1 / 3, "thirds": 2 / 3, "quarter": 0.25, "fourth": 0.25,
              "quarters": 0.75, "fifth": 0.2, "tenth": 0.1, "half": 0.5}
_LOWER_AFTER = re.compile(r"^\s*(?:\w+\s+){0,2}?(?:lower|less|fewer|reduc\w*|decreas\w*|drop\w*|"
                          r"declin\w*|smaller)\b", re.IGNORECASE)
_HIGHER_AFTER = re.compile(r"^\s*(?:\w+\s+){0,2}?(?:higher|more|greater|increas\w*|elevat\w*|"
                           r"larger|excess)\b", re.IGNORECASE)
_SHARE_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                "eight": 8, "nine": 9, "ten": 10}
_SHARE = re.compile(r"\b(?P<k>one|two|three|four|five|six|seven|eight|nine|\d)\s+(?:in|out\s+of)"
                    r"\s+(?P<n>two|three|four|five|six|seven|eight|nine|ten|\d{1,2})\b",
                    re.IGNORECASE)


@dataclass(frozen=True)
class Approximation:
    """A proportion in words: ``kind`` is "ratio" (the ratio itself: twice, halved),
    "reduction" (1 - ratio: a third lower), "increase" (ratio - 1) or "share" (a percent)."""

    span: Span
    kind: str
    value: float

    def admits(self, value: float) -> bool:
        """True when ``value`` is within the stated tolerance of this word."""
        return abs(value - self.value) <= WORD_TOLERANCE * abs(self.value) + 1e-12

    def describe(self) -> str:
        low = self.value * (1 - WORD_TOLERANCE)
        high = self.value * (1 + WORD_TOLERANCE)
        unit = {"ratio": "a ratio of", "reduction": "a reduction of", "increase":
                "an increase of", "share": "a share of"}[self.kind]
        scale = 1.0 if self.kind in ("ratio", "share") else 100.0
        suffix = "" if self.kind == "ratio" else "%"
        return (f"{unit} {low * scale:.3g}{suffix} to {high * scale:.3g}{suffix}"
                f" (within {WORD_TOLERANCE:.0%} of {self.value * scale:.3g}{suffix})")


def approximations_in(text: str) -> list[Approximation]:
    """Every proportion written in words, with its kind and value."""
    found: list[Approximation] = []
    taken: list[tuple[int, int]] = []
    for pattern, value in _MULTIPLES:
        for match in pattern.finditer(text):
            found.append(Approximation(Span(match.start(), match.end(), match.group(0)),
                                       "ratio", value))
            taken.append((match.start(), match.end()))
    for match in _FRACTION.finditer(text):
        if any(a <= match.start() < b for a, b in taken):
            continue
        words = match.group("frac").lower().replace("-", " ").split()
        value = _FRACTIONS[words[-1]]
        after = match.group("after")
        if _LOWER_AFTER.match(after):
            kind = "reduction"
        elif _HIGHER_AFTER.match(after):
            kind = "increase"
        elif re.match(r"^\s*of\s+(?:the\s+)?(?:\w+\s+){0,2}?(?:patients|participants|subjects"
                      r"|people|users|women|men|children|cohort|group|sample)\b", after,
                      re.IGNORECASE):
            kind, value = "share", value * 100
        else:
            continue
        end = match.end("frac")
        found.append(Approximation(Span(match.start(), end, text[match.start():end]), kind,
                                   value))
    for match in _SHARE.finditer(text):
        k, n = (_SHARE_WORDS.get(g.lower()) if not g.isdigit() else int(g)
                for g in (match.group("k"), match.group("n")))
        if k is not None and n and k < n:
            found.append(Approximation(Span(match.start(), match.end(), match.group(0)),
                                       "share", 100.0 * k / n))
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
