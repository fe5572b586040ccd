"""Every number a study offers a summary, each with the study field it comes from.

A summary number matches an entry when it equals the entry's value rounded to the precision
the summary writes it with. Entries carry a ``kind`` so a number written as a p-value is only
checked against p-values, an estimate only against estimates and intervals.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Literal

from pytest_rwe.rules.text import numbers_in
from pytest_rwe.study import Measure, Outcome, Study

Kind = Literal["effect", "p", "size", "baseline", "text", "count", "percent", "derived"]


@dataclass(frozen=True)
class Entry:
    """One number of the study: its value, what kind of number it is, and where it comes from."""

    value: float
    kind: Kind
    field: str  # e.g. results.outcomes["outcome.x_bin!HR"]
    outcome: str | None = None  # outcome key stem for outcome-specific numbers
    shown: str = ""  # the value as the study writes it, for explanations
    role: str = ""  # "point" or "ci" for an estimate's own numbers


def outcome_field(outcome: Outcome, suffix: str) -> str:
    return f"results.outcomes[{json.dumps(outcome.key + '!' + suffix)}]"


_TIME_RE = re.compile(r"^(\d+(?:\.\d+)?)\s*(mo|mos|m|month|months|yr|yrs|y|year|years|wk|wks|w|"
                      r"week|weeks|d|day|days)$", re.IGNORECASE)


def timepoint_numbers(timepoint: str | None) -> list[float]:
    """Numbers a reader may write for a timepoint key: "12mo" -> 12 and 1 (year)."""
    if not timepoint:
        return []
    match = _TIME_RE.match(timepoint)
    if match is None:
        return [float(n.value) for n in numbers_in(timepoint)]
    value, unit = float(match.group(1)), match.group(2).lower()
    out = [value]
    if unit in ("mo", "mos", "m", "month", "months"):
        out += [value / 12, value * 30 / 7, value * 4]  # years, weeks (approximately)
    elif unit in ("yr", "yrs", "y", "year", "years"):
        out += [value * 12, value * 52]
    elif unit in ("wk", "wks", "w", "week", "weeks"):
        out += [value * 7, value / 4]
    return out


def _ratio_derivations(outcome: Outcome, value: float, field: str) -> list[Entry]:
    # "HR 0.76" may be written "24% lower"; "HR 2.72" as "172% higher" or "2.7-fold".
    return [Entry(round((1 - value) * 100, 10), "derived", field, outcome.key, f"1 - {value:g}"),
            Entry(round((value - 1) * 100, 10), "derived", field, outcome.key, f"{value:g} - 1")]


@dataclass
class StudyIndex:
    """The numbers of one study, grouped by kind."""

    entries: list[Entry]

    def of_kind(self, *kinds: Kind) -> list[Entry]:
        return [e for e in self.entries if e.kind in kinds]


def build_index(study: Study) -> StudyIndex:
    """Collect every number of the study a summary may quote, with its field."""
    entries: list[Entry] = []
    for name, size in (("intervention_size", study.intervention_size),
                       ("control_size", study.control_size)):
        if size is not None:
            entries.append(Entry(float(size), "size", f"results.{name}", None, f"{size}"))
    if study.intervention_size is not None and study.control_size is not None:
        total = study.intervention_size + study.control_size
        entries.append(Entry(float(total), "derived", "results.intervention_size + control_size",
                             None, f"{total}"))
    for name, base in study.baseline.items():
        field = f"results.baseline_differences[{json.dumps(name)}]"
        for value in (base.control, base.intervention):
            entries.append(Entry(value, "baseline", field, None, base.text))
        diff = base.intervention - base.control
        entries.append(Entry(round(abs(diff), 10), "derived", field, None, f"difference {diff:g}"))
    for outcome in study.outcomes:
        _outcome_entries(outcome, entries)
        for value in timepoint_numbers(outcome.timepoint):
            entries.append(Entry(value, "text", outcome_field(outcome, "*"), outcome.key,
                                 outcome.timepoint or ""))
        for number in numbers_in(outcome.name):
            entries.append(Entry(abs(number.value), "text", outcome_field(outcome, "*"),
                                 outcome.key, outcome.name))
    texts = {"question": study.question}
    texts.update({f"picot.{k}": v for k, v in study.picot.items()})
    for field, text in texts.items():
        for number in numbers_in(text):
            entries.append(Entry(abs(number.value), "text", field, None, number.span.quote))
            if number.scale != 1.0:
                entries.append(Entry(abs(number.value) * number.scale, "text", field, None,
                                     number.span.quote))
    _counts(study, entries)
    return StudyIndex(entries)


def _outcome_entries(outcome: Outcome, entries: list[Entry]) -> None:
    for measure, estimate in outcome.estimates.items():
        field = outcome_field(outcome, measure.value)
        kind: Kind = "percent" if measure is Measure.PCT else "effect"
        values = [(estimate.value, "point"), (estimate.ci_low, "ci"), (estimate.ci_high, "ci")]
        for value, role in values:
            if value is None:
                continue
            entries.append(Entry(value, kind, field, outcome.key, estimate.text, role))
            if measure is Measure.MD or measure is Measure.PCT:
                entries.append(Entry(abs(value), kind, field, outcome.key, estimate.text, role))
            if measure.is_ratio:
                entries.extend(_ratio_derivations(outcome, value, field))
    if outcome.count is not None:
        field = outcome_field(outcome, "N")
        count = outcome.count
        entries += [Entry(float(count.events), "count", field, outcome.key, count.text),
                    Entry(float(count.total), "count", field, outcome.key, count.text),
                    Entry(count.percent, "percent", field, outcome.key, count.text),
                    Entry(float(count.total - count.events), "count", field, outcome.key,
                          count.text),
                    Entry(100 - count.percent, "percent", field, outcome.key, count.text)]
    if outcome.p is not None:
        entries.append(Entry(outcome.p.value, "p", outcome_field(outcome, "pvalue"), outcome.key,
                             outcome.p.text))


def _counts(study: Study, entries: list[Entry]) -> None:
    """Counts a summary may state: "two groups", "three of the five outcomes"."""
    effects = [o for o in study.outcomes if o.effect is not None or o.count is not None]
    significant = [o for o in study.outcomes if o.significant]
    counts = {len(study.outcomes), len(effects), len(significant),
              len(study.outcomes) - len(significant), len(study.baseline), 2,
              sum(1 for o in significant if o.direction == "higher"),
              sum(1 for o in significant if o.direction == "lower")}
    counts |= {len({o.timepoint for o in study.outcomes if o.timepoint})}
    for count in counts:
        entries.append(Entry(float(count), "derived", "counts of outcomes and groups", None,
                             str(count)))


def matches(written: float, decimals: int, value: float, *, slack: float = 0.0) -> bool:
    """True when ``value`` rounded to ``decimals`` places equals ``written``.

    A whole number of at least 1000 with trailing zeros ("37,000") is read as rounded to its
    last non-zero digit, provided it keeps two significant digits.
    """
    tolerance = 0.5 * 10 ** (-decimals) + 1e-9 + slack
    if decimals == 0 and abs(written) >= 1000:
        digits = str(int(abs(written)))
        zeros = len(digits) - len(digits.rstrip("0"))
        if zeros and len(digits) - zeros >= 2:
            tolerance = max(tolerance, 0.5 * 10 ** zeros + 1e-9)
    return bool(abs(written - value) <= tolerance)
