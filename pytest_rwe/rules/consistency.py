"""Numbers a summary contradicts by itself: a point estimate outside the interval written
beside it ("PR 1.25 (1.33-1.74)"), or a share that is not its own count ("6/23 (35.2%)").

The study's own values always agree with themselves, so such a pair means one of its numbers
was changed, whichever study field the juror could tie it to. Tolerances: an estimate may lie
half a unit of its least precise digit outside its interval (rounding); a share may differ
from its count by one unit of its last digit (sources often truncate: 20/23 as 86.9%). An
estimate written as a magnitude ("fell by 5.7 (95% CI -6.5 to -4.9)") is read both ways.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from pytest_rwe.rules.text import Span
from pytest_rwe.study import Measure, Study

_NUM = r"[-\u2212]?(?:\d+(?:\.\d+)?|\.\d+)"
_LABEL = (r"(?:\b(?:a?HRs?|sHR|a?ORs?|a?RRs?|a?PRs?|IRR|MD|RD|SMD|WMD)|\b(?:hazard|odds|risk|"
          r"rate|prevalence|incidence)\s+ratios?|\brelative\s+risks?|\b(?:mean\s+)?"
          r"difference)")
_CI_WORDS = r"(?:95\s*%\s*)?(?:CI|confidence\s+interval)\s*(?:[:,=]|of)?\s*"
# "HR 1.44 (1.40-1.47)", "OR 1.29; 95% CI 1.08 to 1.54", "HR 1.33 (1.15, 1.55)",
# "HR 1.44, 1.40-1.47" (a bare comma needs a dash or "to" in the interval: "HRs 0.70, 0.74,
# 0.76" is a list)
_TRIPLE = re.compile(
    _LABEL + r"\s*(?:of|was|were|is|=|:)?\s*(?P<point>" + _NUM + r")\s*"
    r"(?:(?P<open>[(\[])\s*" + f"(?:{_CI_WORDS})?" + r"|[,;]\s*(?P<ci>" + _CI_WORDS + r")?)"
    r"(?P<low>" + _NUM + r")\s*(?P<sep>[-\u2013\u2014]|\bto\b|,)\s*(?P<high>" + _NUM + r")"
    r"(?P<close>\s*[)\]])?", re.IGNORECASE)
_COUNT_SHARE = re.compile(
    r"(?<![\d.,/])(?P<k>\d{1,3}(?:,\d{3})+|\d+)\s*(?:/|\bof\b|\bout\s+of\b)\s*(?:the\s+)?"
    r"(?P<n>\d{1,3}(?:,\d{3})+|\d+)(?![\d.,]\d)(?:\s+[A-Za-z-]+){0,2}?\s*[(,]\s*"
    r"(?P<p>\d+(?:\.\d+)?)\s*%"
    r"|(?<![\d.])(?P<p2>\d+(?:\.\d+)?)\s*%\s*\(\s*(?P<k2>\d{1,3}(?:,\d{3})+|\d+)\s*"
    r"(?:/|\bof\b|\bout\s+of\b)\s*(?P<n2>\d{1,3}(?:,\d{3})+|\d+)\s*\)", re.IGNORECASE)


@dataclass(frozen=True)
class SelfContradiction:
    """A span whose numbers cannot all be right, and why."""

    span: Span
    message: str


def _value(raw: str) -> float:
    return float(raw.replace("\u2212", "-").replace(",", ""))


def _decimals(raw: str) -> int:
    return len(raw.split(".", 1)[1]) if "." in raw else 0


def _outside(point: float, low: float, high: float, tolerance: float) -> bool:
    low, high = min(low, high), max(low, high)
    return point < low - tolerance or point > high + tolerance


def estimates_outside_interval(text: str) -> list[SelfContradiction]:
    """Each labelled estimate that lies outside the interval written right after it."""
    out = []
    for match in _TRIPLE.finditer(text):
        if match.group("open") and not match.group("close"):
            continue  # "(HR 0.70, 0.74 and 0.76 ...": not an interval
        if not match.group("open") and not match.group("ci") and match.group("sep") == ",":
            continue
        raws = [match.group(g) for g in ("point", "low", "high")]
        point, low, high = (_value(r) for r in raws)
        tolerance = 0.5 * 10.0 ** -min(_decimals(r) for r in raws) + 1e-9
        if _outside(point, low, high, tolerance) and _outside(-point, low, high, tolerance):
            span = Span(match.start("point"), match.end("high"),
                        text[match.start("point"):match.end("high")])
            out.append(SelfContradiction(span, (
                f"the estimate {raws[0]} lies outside its own interval {raws[1]} to "
                f"{raws[2]}: one of these numbers is not the study's")))
    return out


def printed_shares(study: Study) -> set[tuple[float, float, float]]:
    """(events, total, percent) as the study prints them: a source may print 93/567 as
    16.3%, and a summary that copies it is right."""
    out = set()
    for outcome in study.outcomes:
        if outcome.count is None:
            continue
        pct = outcome.estimates.get(Measure.PCT)
        for value in ([pct.value] if pct is not None else []) + [outcome.count.percent]:
            out.add((float(outcome.count.events), float(outcome.count.total), float(value)))
    return out


def shares_unlike_counts(text: str, printed: Iterable[tuple[float, float, float]] = ()
                         ) -> list[SelfContradiction]:
    """Each "k/n (p%)" or "p% (k/n)" whose share is not k out of n (nor the share the study
    prints for that count, ``printed``)."""
    printed = list(printed)
    out = []
    for match in _COUNT_SHARE.finditer(text):
        which = ("k", "n", "p") if match.group("k") else ("k2", "n2", "p2")
        k, n = _value(match.group(which[0])), _value(match.group(which[1]))
        written = match.group(which[2])
        if n <= 0 or k > n:
            continue
        tolerance = 10.0 ** -_decimals(written) + 1e-9
        copied = any(k == pk and n == pn and abs(_value(written) - pp) <= 0.5 * tolerance
                     for pk, pn, pp in printed)
        if abs(100.0 * k / n - _value(written)) > tolerance and not copied:
            span = Span(match.start(), match.end(), match.group(0))
            out.append(SelfContradiction(span, (
                f"{written}% is not {match.group(which[0])} of {match.group(which[1])} "
                f"({100.0 * k / n:.1f}%): the count or the share is not the study's")))
    return out
