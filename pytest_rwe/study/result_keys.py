"""Results keys: ``outcome[_time].<name>_<kind>!<MEASURE>`` read into outcomes (pure).

A variant of how a pipeline spells a results key goes here (docs/study-format.md).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from pytest_rwe.study.model import OUTCOME_KINDS, Measure, Outcome
from pytest_rwe.values import (
    Count,
    Estimate,
    PValue,
    parse_count,
    parse_estimate,
    parse_percent,
    parse_pvalue,
)

_KEY_RE = re.compile(
    r"^(?P<prefix>outcome(?:_(?P<time>[A-Za-z0-9]+))?)\.(?P<name>.+)!(?P<stat>[^!]+)$"
)
# The same key without the dot, as some pipelines write it: "outcome_mortality_bin!OR",
# "outcome_30d_mortality_bin!OR". Only a leading number with a time unit is a time point,
# so "outcome_2nd_stroke_bin" keeps "2nd" in its name.
_UNDOTTED_KEY_RE = re.compile(
    r"^(?P<prefix>outcome)_(?:(?P<time>\d+(?:\.\d+)?(?:d|days?|wks?|w|weeks?|mos?|m|months?|"
    r"yrs?|y|years?|h|hrs?|hours?))_)?(?P<name>[^.!]+)!(?P<stat>[^!]+)$",
    re.IGNORECASE,
)


def _match_key(key: str) -> re.Match[str] | None:
    return _KEY_RE.match(key) or _UNDOTTED_KEY_RE.match(key)

_MEASURES = {m.value.lower(): m for m in Measure}


def readable_name(stem_name: str) -> tuple[str, str | None]:
    """Split "ip.visit.for.asthma_bin" into ("ip visit for asthma", "bin")."""
    kind = None
    for candidate in OUTCOME_KINDS:
        if stem_name.endswith("_" + candidate):
            kind = candidate
            stem_name = stem_name[: -len(candidate) - 1]
            break
    return re.sub(r"[._]+", " ", stem_name).strip(), kind


def parse_outcomes(raw: Mapping[str, Any]) -> tuple[tuple[Outcome, ...], list[tuple[str, str]]]:
    problems: list[tuple[str, str]] = []
    grouped: dict[str, dict[Measure, object]] = {}
    for key, value in raw.items():
        where = f"$.results.outcomes[{json.dumps(key)}]"
        match = _match_key(key)
        if match is None:
            problems.append((where, (
                f"cannot read the key {key!r}; write "
                "\"outcome[_time].<name>_<bin|cont>!<MEASURE>\" "
                "such as \"outcome_3yrs.ip.visit.for.asthma_bin!OR\" or \"outcome.death_bin!HR\""
            )))
            continue
        measure = _MEASURES.get(match.group("stat").lower())
        if measure is None:
            problems.append((where, (
                f"unknown measure {match.group('stat')!r}; use one of "
                + ", ".join(m.value for m in Measure)
            )))
            continue
        stem = key.rsplit("!", 1)[0]
        if measure in grouped.setdefault(stem, {}):
            problems.append((where, f"{stem}!{measure.value} is given twice; keep one"))
        grouped[stem][measure] = value

    outcomes: list[Outcome] = []
    for stem, values in grouped.items():
        match = _match_key(stem + "!x")
        assert match is not None  # checked above
        name, kind = readable_name(match.group("name"))
        estimates: dict[Measure, Estimate] = {}
        count: Count | None = None
        p: PValue | None = None
        for measure, value in values.items():
            where = f"$.results.outcomes[{json.dumps(stem + '!' + measure.value)}]"
            try:
                if measure is Measure.PVALUE:
                    p = parse_pvalue(value)
                elif measure is Measure.N:
                    count = parse_count(value)
                elif measure is Measure.PCT:
                    estimates[measure] = parse_percent(value)
                else:
                    estimates[measure] = parse_estimate(value)
            except ValueError as exc:
                problems.append((where, str(exc)))
                continue
            estimate = estimates.get(measure)
            if measure.is_ratio and estimate is not None and min(
                    v for v in (estimate.value, estimate.ci_low, estimate.ci_high)
                    if v is not None) <= 0:
                problems.append((where, (
                    f"{measure.value} is a ratio and cannot be zero or negative "
                    f"({estimate.written!r}); if this is a difference, use !MD or !RD"
                )))
        if set(values) == {Measure.PVALUE}:
            problems.append((f"$.results.outcomes[{json.dumps(stem + '!pvalue')}]", (
                f"{stem} has a p-value but no estimate; add {stem}!HR, !OR, !RR, !IRR, "
                "!MD or !RD"
            )))
        outcomes.append(Outcome(
            key=stem, name=name, timepoint=match.group("time"), kind=kind,
            estimates=estimates, count=count, p=p,
        ))
    return tuple(outcomes), problems
