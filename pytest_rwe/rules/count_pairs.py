"""Counts joined to the wrong outcome: "k of n" over another count's denominator, and a count
tied to a name that is another outcome's events.

A count written over another count's denominator: "7 of the 41 ventilated patients" when
the study's count is 7 of the 16 who died (7/16), and 41 is another outcome's denominator.

Only for a "k of n" the study does not have as a pair, where k is one of the study's counts
(its events, or those without the event) and n one of its counts' denominators: the summary
joined two real numbers into a share the study does not report. A "k of n" whose n is no
denominator (a group size, a number of the design text) is left to the other checks.
"""

from __future__ import annotations

import re

from pytest_rwe.rules.analysis import Analysis
from pytest_rwe.rules.number_groups import NumberFinding
from pytest_rwe.rules.number_mentions import numbers_in
from pytest_rwe.rules.text import Span
from pytest_rwe.study import Study

_K_OF_N = re.compile(r"(?<![\d.,])(?P<k>\d{1,3}(?:,\d{3})*|\d+)\s+(?:of|out\s+of)\s+"
                     r"(?:the\s+|those\s+|these\s+|all\s+)?(?P<n>\d{1,3}(?:,\d{3})*|\d+)"
                     r"(?![\d.,]\d|\s*%)")


def wrong_denominators(study: Study, text: str) -> list[NumberFinding]:
    """Every "k of n" that joins a count of the study to another count's denominator."""
    counts = [(o.key, o.count) for o in study.outcomes if o.count is not None]
    if not counts:
        return []
    pairs = {(c.events, c.total) for _, c in counts} | {
        (c.total - c.events, c.total) for _, c in counts}
    totals = {c.total for _, c in counts}
    findings = []
    for match in _K_OF_N.finditer(text):
        k, n = (int(match.group(g).replace(",", "")) for g in ("k", "n"))
        if not 0 < k < n or (k, n) in pairs or n not in totals:
            continue
        own = [(key, c) for key, c in counts if k in (c.events, c.total - c.events)]
        if not own:
            continue
        key, count = own[0]
        field = f'results.outcomes["{key}!N"]'
        findings.append(NumberFinding(
            Span(match.start(), match.end(), match.group(0)), field,
            f"{match.group(0)} joins a count to another denominator: the study has no count "
            f"{k}/{n} ({field} = {count.text})"))
    return findings


# "ECMO in 26", "dialysis was needed in 72 patients": the words that tie a count to the name
# right before it (not a bracket: "for immune TTP (84 of them)" describes the people)
_TIED = re.compile(r"\s+(?:(?:was|were|is|are|had|has|been|used|needed|required|given|received|"
                   r"performed|reported|occurred|seen|then)\s+){0,3}(?:in|among)\s+$",
                   re.IGNORECASE)
_COUNTS_PEOPLE = re.compile(r"\s*(?:(?:patients|participants|people|adults|cases|subjects)\b|"
                            r"[,;.]|and\b|$)", re.IGNORECASE)


def misplaced_counts(study: Study, analysis: Analysis) -> list[NumberFinding]:
    """A count tied to an outcome's name that is not that outcome's count but another's
    events: "ECMO in 26" when ECMO is 20/223 and 26 received high-flow oxygen."""
    counts = {o.key: o.count for o in study.outcomes if o.count is not None}
    if len(counts) < 2:
        return []
    text = analysis.text
    findings = []
    mentions = analysis.mentions
    for number in numbers_in(text):
        if number.decimals or number.is_percent or number.is_word or number.operator \
                or number.hedged:
            continue
        before = [m for m in mentions if m.span.end <= number.span.start]
        if not before:
            continue
        last = max(m.span.end for m in before)
        owners = {m.outcome.key for m in before if m.span.end == last}
        gap = text[last:number.span.start]
        if not _TIED.fullmatch(gap) or any(c.isdigit() for c in gap) or not owners <= set(
                counts) or not _COUNTS_PEOPLE.match(text, number.span.end):
            continue
        value = int(number.value)
        if any(value in (c.events, c.total, c.total - c.events)
               for key, c in counts.items() if key in owners):
            continue
        moved = [key for key, c in counts.items() if key not in owners and c.events == value]
        if not moved:
            continue
        key = sorted(owners)[0]
        field = f'results.outcomes["{key}!N"]'
        findings.append(NumberFinding(number.span, field, (
            f"{number.span.quote} is written as the count of {key.split('.')[-1]}, which is "
            f"{counts[key].text}; {number.span.quote} is "
            f'results.outcomes["{moved[0]}!N"] = {counts[moved[0]].text}')))
    return findings
