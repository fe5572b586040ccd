"""Every number a study offers a summary, each with the study field it comes from.

A summary number matches an entry when it equals the entry's value rounded to the precision
the summary writes it with. Entries carry a ``kind`` so a number written as a p-value is only
checked against p-values, an estimate only against estimates and intervals.
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from pytest_rwe.rules.number_mentions import numbers_in
from pytest_rwe.rules.truth import Fact, read_facts
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


# "736 +/- 422 days": the unit after a spread is the mean's unit too
_DURATION = re.compile(r"(?:\s*(?:\+/-|\u00b1)\s*\d+(?:\.\d+)?)?\s*(days?|weeks?|months?|"
                       r"years?)\b", re.IGNORECASE)
_DAYS = {"da": 1.0, "we": 7.0, "mo": 365.25 / 12, "ye": 365.25}


def _ratio_derivations(outcome: Outcome, value: float, field: str) -> list[Entry]:
    # "HR 0.76" may be written "24% lower"; "HR 2.72" as "172% higher" or "2.7-fold".
    # with the groups swapped ("ARBs vs ACE inhibitors: HR 1.32" for 0.76) it is 1 / HR
    # (role "inverse": accepted for the outcome it is written for, never as another's value)
    inverse = [Entry(round(1 / value, 10), "derived", field, outcome.key, f"1 / {value:g}",
                     "inverse")] if value > 0 else []
    return [Entry(round((1 - value) * 100, 10), "derived", field, outcome.key, f"1 - {value:g}"),
            Entry(round((value - 1) * 100, 10), "derived", field, outcome.key, f"{value:g} - 1"),
            *inverse]


@dataclass
class StudyIndex:
    """The numbers of one study: every entry, and lookups by kind, value and outcome."""

    entries: list[Entry]
    _by_kind: dict[str, tuple[list[float], list[Entry]]] = field(default_factory=dict)
    _by_outcome: dict[str, list[Entry]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        grouped: dict[str, list[Entry]] = {}
        for entry in self.entries:
            grouped.setdefault(entry.kind, []).append(entry)
            if entry.outcome is not None:
                self._by_outcome.setdefault(entry.outcome, []).append(entry)
        for kind, entries in grouped.items():
            entries.sort(key=lambda e: e.value)
            self._by_kind[kind] = ([e.value for e in entries], entries)

    def of_kind(self, *kinds: Kind) -> list[Entry]:
        out: list[Entry] = []
        for kind in kinds:
            out += self._by_kind.get(kind, ([], []))[1]
        return out

    def near(self, kinds: Iterable[str], low: float, high: float) -> list[Entry]:
        """The entries of ``kinds`` whose value lies in [low, high] (a sorted lookup)."""
        out: list[Entry] = []
        for kind in kinds:
            values, entries = self._by_kind.get(kind, ([], []))
            out += entries[bisect.bisect_left(values, low):bisect.bisect_right(values, high)]
        return out

    def of_outcomes(self, keys: Iterable[str], *kinds: Kind) -> list[Entry]:
        """The entries of these outcomes (of ``kinds``, or all)."""
        out: list[Entry] = []
        # a set's order changes with the hash seed: sorted, a finding names the same entry
        # in every run
        for key in sorted(keys) if isinstance(keys, (set, frozenset)) else keys:
            out += [e for e in self._by_outcome.get(key, ()) if not kinds or e.kind in kinds]
        return out

    @property
    def kinds(self) -> list[str]:
        return list(self._by_kind)


_BUILT: dict[int, tuple[Study, StudyIndex]] = {}


def build_index(study: Study) -> StudyIndex:
    """Collect every number of the study a summary may quote, with its field (built once per
    study object: every summary of a study is checked against the same numbers)."""
    hit = _BUILT.get(id(study))
    if hit is not None and hit[0] is study:
        return hit[1]
    index = _build_index(study)
    if len(_BUILT) >= 64:
        _BUILT.clear()
    _BUILT[id(study)] = (study, index)
    return index


def _build_index(study: Study) -> StudyIndex:
    entries: list[Entry] = []
    for name, size in (("intervention_size", study.intervention_size),
                       ("control_size", study.control_size)):
        if size is not None:
            entries.append(Entry(float(size), "size", f"results.{name}", None, f"{size}"))
    # the groups' total is not in the prompt: a writer who adds the sizes writes a new number
    for name, base in study.baseline.items():
        field_name = f"results.baseline_differences[{json.dumps(name)}]"
        for value in (base.control, base.intervention):
            entries.append(Entry(value, "baseline", field_name, None, base.text))
        diff = base.intervention - base.control
        entries.append(Entry(round(abs(diff), 10), "derived", field_name, None,
                             f"difference {diff:g}"))
    facts = read_facts(study)
    for outcome in study.outcomes:
        _outcome_entries(outcome, facts.get(outcome.key), entries)
        for value in timepoint_numbers(outcome.timepoint):
            entries.append(Entry(value, "text", outcome_field(outcome, "*"), outcome.key,
                                 outcome.timepoint or ""))
        for number in numbers_in(outcome.name):
            entries.append(Entry(abs(number.value), "text", outcome_field(outcome, "*"),
                                 outcome.key, outcome.name))
    texts = {"question": study.question}
    texts.update({f"picot.{k}": v for k, v in study.picot.items()})
    for field_name, text in texts.items():
        entries += _space_grouped(text, field_name)
        for number in numbers_in(text):
            entries.append(Entry(abs(number.value), "text", field_name, None, number.span.quote))
            if number.scale != 1.0:
                entries.append(Entry(abs(number.value) * number.scale, "text", field_name, None,
                                     number.span.quote))
            # a duration may be written in another unit: "896 days" as "about 2.5 years"
            unit = _DURATION.match(text[number.span.end:])
            if unit is not None:
                days = abs(number.value) * _DAYS[unit.group(1).lower()[:2]]
                for per in _DAYS.values():
                    if abs(days / per - abs(number.value)) > 1e-9:
                        entries.append(Entry(round(days / per, 10), "derived", field_name, None,
                                             f"{number.span.quote}{unit.group(0)}"))
    _counts(study, facts, entries)
    return StudyIndex(entries)


# "10 152 outpatients": a space (or a thin or no-break one) as the thousands separator, the
# style of many journals; the summary writes "10,152"
_SPACE_GROUPED = re.compile(r"(?<![\d.,])\d{1,3}(?:[ \u00a0\u2009\u202f]\d{3})+(?![\d.,]\d)")


def _space_grouped(text: str, field_name: str) -> list[Entry]:
    return [Entry(float(re.sub(r"\D", "", m.group(0))), "text", field_name, None, m.group(0))
            for m in _SPACE_GROUPED.finditer(text)]


def _outcome_entries(outcome: Outcome, fact: Fact | None, entries: list[Entry]) -> None:
    """An outcome's estimate, interval and p-value as the juror reads them (``fact``), and
    its descriptive count and percentage."""
    if fact is not None and fact.measure is not None and fact.point is not None:
        field_name = outcome_field(outcome, fact.measure)
        ratio = fact.is_ratio
        for value, role in ((fact.point, "point"), (fact.low, "ci"), (fact.high, "ci")):
            if value is None:
                continue
            entries.append(Entry(value, "effect", field_name, outcome.key, fact.estimate_text,
                                 role))
            if not ratio:
                entries.append(Entry(abs(value), "effect", field_name, outcome.key,
                                     fact.estimate_text, role))
            else:
                entries.extend(_ratio_derivations(outcome, value, field_name))
    pct = outcome.estimates.get(Measure.PCT)
    if pct is not None:
        field_name = outcome_field(outcome, Measure.PCT.value)
        for value, role in ((pct.value, "point"), (pct.ci_low, "ci"), (pct.ci_high, "ci")):
            if value is not None:
                entries.append(Entry(value, "percent", field_name, outcome.key, pct.text, role))
                entries.append(Entry(abs(value), "percent", field_name, outcome.key, pct.text,
                                     role))
    if outcome.count is not None:
        field_name = outcome_field(outcome, "N")
        count = outcome.count
        entries += [Entry(float(count.events), "count", field_name, outcome.key, count.text),
                    Entry(float(count.total), "count", field_name, outcome.key, count.text),
                    Entry(count.percent, "percent", field_name, outcome.key, count.text),
                    Entry(float(count.total - count.events), "count", field_name, outcome.key,
                          count.text),
                    Entry(100 - count.percent, "percent", field_name, outcome.key, count.text)]
    if fact is not None and fact.p is not None:
        entries.append(Entry(fact.p, "p", outcome_field(outcome, "pvalue"), outcome.key,
                             fact.p_text))


def _counts(study: Study, facts: dict[str, Fact], entries: list[Entry]) -> None:
    """Counts a summary may state: "two groups", "three of the five outcomes"."""
    effects = [o for o in study.outcomes if o.effect is not None or o.count is not None]
    significant = [f for f in facts.values() if f.significant]
    counts = {len(study.outcomes), len(effects), len(significant),
              len(study.outcomes) - len(significant), len(study.baseline), 2,
              sum(1 for f in significant if f.direction == "higher"),
              sum(1 for f in significant if f.direction == "lower")}
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
