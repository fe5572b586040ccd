"""Plausibility checks on a parsed study: what is legal in the format but probably wrong.

A study file can be well-formed and still contradict itself: an estimate outside its own
interval, an interval that excludes the null while its p-value says p >= 0.05 (or the
reverse), a group size no study has. Such a file still runs (the publication may print
exactly that), but the jury would judge summaries against numbers that cannot all be
right, so ``rwe validate`` and each run warn about it, naming the file, the JSON path and
what to check.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from pytest_rwe.study import Measure, Outcome, Study
from pytest_rwe.values import Estimate

# Larger than any real study population (every person alive is ~8e9).
_IMPLAUSIBLE_SIZE = 1_000_000_000


@dataclass(frozen=True)
class StudyWarning:
    """One plausibility problem of a valid study file."""

    path: Path | None
    where: str  # JSON path
    message: str

    def render(self) -> str:
        return f"{self.path or '<memory>'}: {self.where}: {self.message}"


def _key_path(outcome: Outcome, measure: Measure) -> str:
    return f"$.results.outcomes[{json.dumps(outcome.key + '!' + measure.value)}]"


def _interval_problems(outcome: Outcome, measure: Measure, estimate: Estimate,
                       ) -> Iterator[str]:
    low, high = estimate.ci_low, estimate.ci_high
    if low is None or high is None:
        return
    if not low <= estimate.value <= high:
        yield (f"the estimate {estimate.value:g} lies outside its own interval "
               f"({low:g}, {high:g}); check the order of the numbers against the source")
    if not measure.is_effect or outcome.p is None:
        return
    null = measure.null
    if low == null or high == null:
        return  # a bound printed as the null itself: rounding decides, nothing to say
    excludes_null = low > null or high < null
    if excludes_null != outcome.p.significant:
        said = "excludes" if excludes_null else "includes"
        p_says = "p < 0.05" if outcome.p.significant else "p >= 0.05"
        yield (f"the interval ({low:g}, {high:g}) {said} {null:g} but the p-value "
               f"{outcome.p.text!r} says {p_says}; check both against the source "
               "(a calibrated interval beside an uncalibrated p-value is a known cause)")


def _size_problems(study: Study) -> Iterator[tuple[str, str]]:
    sizes = {"intervention_size": study.intervention_size, "control_size": study.control_size}
    for name, size in sizes.items():
        if size is None:
            continue
        if size == 0:
            yield (f"$.results.{name}",
                   "a group of 0 subjects cannot have outcomes; write null if unknown")
        elif size >= _IMPLAUSIBLE_SIZE:
            yield f"$.results.{name}", f"{size:,} subjects is implausible; check the digits"
    # a count can be checked against the whole study only when every group's size is known
    groups = [study.intervention_size] if study.design == "case_series" else list(sizes.values())
    if any(size is None for size in groups):
        return
    total = sum(size or 0 for size in groups)
    for outcome in study.outcomes:
        if outcome.count is not None and outcome.count.total > total:
            yield (_key_path(outcome, Measure.N),
                   f"{outcome.count.text!r} counts {outcome.count.total:,} subjects but the "
                   f"study has {total:,}; check the count and the group sizes")


def check_study(study: Study) -> list[StudyWarning]:
    """Every plausibility warning of ``study``, in file order."""
    warnings: list[StudyWarning] = []
    for where, message in _size_problems(study):
        warnings.append(StudyWarning(study.path, where, message))
    for outcome in study.outcomes:
        for measure, estimate in outcome.estimates.items():
            for message in _interval_problems(outcome, measure, estimate):
                warnings.append(StudyWarning(study.path, _key_path(outcome, measure), message))
            if measure is Measure.PCT and not 0 <= estimate.value <= 100 and (
                    outcome.kind != "pctpoints"):
                warnings.append(StudyWarning(study.path, _key_path(outcome, measure), (
                    f"a percentage of {estimate.value:g} is outside 0-100; if it is a change, "
                    "name the outcome ..._pctpoints or use !MD")))
        if outcome.p is not None and outcome.p.operator == "=" and outcome.p.value == 0:
            warnings.append(StudyWarning(study.path, _key_path(outcome, Measure.PVALUE), (
                "a p-value of exactly 0 is not possible; write the bound the source prints, "
                "such as \"<0.001\"")))
    return warnings
