"""An estimate written with its interval is one outcome's three numbers: "HR 0.77 (0.60-0.90)"
when the study reports 0.77 (0.60, 0.99) has one limit wrong, whatever other outcome's
limit 0.90 happens to be.

Only when two of the three numbers written are one outcome's (the point and a limit, in
their places), no outcome has all three, and the third is not that outcome's: the two
numbers say which outcome the triple is, the third contradicts it.
"""

from __future__ import annotations

import re

from pytest_rwe.rules.bounds import fits
from pytest_rwe.rules.index import Entry, StudyIndex
from pytest_rwe.rules.number_groups import NumberFinding
from pytest_rwe.rules.number_mentions import NumberMention, numbers_in
from pytest_rwe.rules.text import Span

_TRIPLE = re.compile(r"(?<![\d.])(?P<point>[-\u2212]?\d+\.\d+)\s*%?\s*[(\[]\s*(?:95\s*%\s*CI"
                     r"[:,]?\s*)?(?P<low>[-\u2212]?\d+\.\d+)\s*%?\s*(?:-|\u2013|to|,)\s*"
                     r"(?P<high>[-\u2212]?\d+\.\d+)\s*%?\s*[)\],;]", re.IGNORECASE)


def _number(text: str, start: int, end: int) -> NumberMention | None:
    found = numbers_in(text[start:end])
    return found[0] if found else None


def wrong_limits(index: StudyIndex, text: str) -> list[NumberFinding]:
    """Every estimate-with-interval whose point and one limit are one outcome's and whose
    other limit is not."""
    findings = []
    by_outcome: dict[str, list[Entry]] = {}
    for entry in index.of_kind("effect", "percent"):
        if entry.outcome is not None and entry.role in ("point", "ci"):
            by_outcome.setdefault(entry.outcome, []).append(entry)
    for match in _TRIPLE.finditer(text):
        written = [_number(text.replace("\u2212", "-"), match.start(g), match.end(g))
                   for g in ("point", "low", "high")]
        if any(n is None for n in written):
            continue
        point, low, high = (n for n in written if n is not None)
        whole, partial = [], []
        for key, entries in by_outcome.items():
            points = [e for e in entries if e.role == "point"]
            limits = [e for e in entries if e.role == "ci"]
            if not points or len(limits) < 2:
                continue
            ok = (any(fits(point, e) for e in points), any(fits(low, e) for e in limits),
                  any(fits(high, e) for e in limits))
            if all(ok):
                whole.append(key)
            elif ok[0] and (ok[1] or ok[2]):
                partial.append((key, 1 if not ok[1] else 2, limits))
        if whole or len({key for key, _, _ in partial}) != 1:
            continue
        key, wrong, limits = partial[0]
        group = ("point", "low", "high")[wrong]
        field = limits[0].field
        findings.append(NumberFinding(
            _span(match, group), field,
            f"{match.group(group)} is written as a confidence limit of {match.group('point')}, "
            f"but {field} = {limits[0].shown}"))
    return findings


def _span(match: re.Match[str], group: str) -> Span:
    return Span(match.start(group), match.end(group), match.group(group))
