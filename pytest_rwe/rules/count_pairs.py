"""A count written over another count's denominator: "7 of the 41 ventilated patients" when
the study's count is 7 of the 16 who died (7/16), and 41 is another outcome's denominator.

Only for a "k of n" the study does not have as a pair, where k is one of the study's counts
(its events, or those without the event) and n one of its counts' denominators: the summary
joined two real numbers into a share the study does not report. A "k of n" whose n is no
denominator (a group size, a number of the design text) is left to the other checks.
"""

from __future__ import annotations

import re

from pytest_rwe.rules.number_groups import NumberFinding
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
