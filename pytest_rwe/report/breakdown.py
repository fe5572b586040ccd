"""Every criterion mean broken down by study design, source and therapeutic area (pure).

The overall means mix very different studies: 38 LEGEND-HTN cohorts built from one template
weigh as much as 38 published case series. The breakdown says, per model and per value of
each dimension (``design=case_series``, ``source=legend-htn``, ``area=cardiology``), how
many studies it holds and each criterion's mean over them with its bootstrap interval, so a
model that is right on one template and wrong elsewhere shows up. A study's values are its
tags (:func:`pytest_rwe.study.selection.study_tags`); a study of the records without tags
counts as ``unknown``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from pytest_rwe.report.aggregate import Record, model_order, per_study_values, sorted_records
from pytest_rwe.report.config import ReportSettings
from pytest_rwe.stats import CI
from pytest_rwe.stats.bootstrap import interval
from pytest_rwe.verdict import CRITERIA

#: the dimensions of the breakdown, in report order
DIMENSIONS: tuple[str, ...] = ("design", "source", "area")
UNKNOWN = "unknown"

Tags = Mapping[str, Mapping[str, Sequence[str]]]  # study id -> tag key -> values


class _Draws:
    """Bootstrap draws of study indices, made once per (cell, number of studies) and shared
    by the cell's criteria and by every model (resampling a cell's studies alike for all of
    them, like a paired bootstrap): the draws are what a bootstrap spends its time on."""

    def __init__(self, settings: ReportSettings) -> None:
        self.settings = settings
        self.made: dict[tuple[str, int], list[list[int]]] = {}

    def get(self, cell: str, n: int) -> list[list[int]]:
        draws = self.made.get((cell, n))
        if draws is None:
            rng = random.Random(f"{self.settings.seed}:{cell}:{n}")
            draws = [rng.choices(range(n), k=n) for _ in range(self.settings.resamples)]
            self.made[cell, n] = draws
        return draws


def _joint_cis(columns: Mapping[str, list[float]], settings: ReportSettings,
               draws: list[list[int]]) -> dict[str, CI]:
    """Percentile bootstrap intervals of each column's mean over the same ``draws`` of its
    studies; a constant column needs none (its interval is its value)."""
    cis: dict[str, CI] = {}
    for key, xs in columns.items():
        if len(set(xs)) == 1:
            cis[key] = CI(xs[0], xs[0], xs[0])
            continue
        n = len(xs)
        replicates = [sum(map(xs.__getitem__, draw)) / n for draw in draws]
        cis[key] = interval(sum(xs) / n, replicates, settings.level)
    return cis


def _cell(values: Mapping[str, Mapping[str, float | None]], settings: ReportSettings,
          cell: str, draws: _Draws) -> dict[str, Any]:
    """``studies`` and, per criterion, the mean over studies with a value, its interval, n."""
    columns = {c: [x for v in values.values() if (x := v.get(c)) is not None]
               for c in CRITERIA}
    # a criterion left without a value on some studies (no quorum, all abstained) resamples
    # the studies it has
    cis: dict[str, CI] = {}
    by_size: dict[int, dict[str, list[float]]] = {}
    for criterion, xs in columns.items():
        if xs:
            by_size.setdefault(len(xs), {})[criterion] = xs
    for n, group in by_size.items():
        cis.update(_joint_cis(group, settings, draws.get(cell, n)))
    criteria: dict[str, Any] = {}
    for criterion in CRITERIA:
        ci = cis.get(criterion)
        criteria[criterion] = {"mean": ci.mean if ci else None, "ci_low": ci.low if ci else None,
                               "ci_high": ci.high if ci else None,
                               "n": len(columns[criterion])}
    return {"studies": len(values), "criteria": criteria}


def _by_count(counts: Mapping[str, int]) -> list[str]:
    return sorted(counts, key=lambda value: (-counts[value], value))


def study_values(tags: Tags, study: str, dimension: str) -> tuple[str, ...]:
    """The values of ``study`` in ``dimension`` (``unknown`` when it has none)."""
    found = tuple((tags.get(study) or {}).get(dimension) or ())
    return found or (UNKNOWN,)


def breakdown(records: Sequence[Record], tags: Tags, settings: ReportSettings, *,
              models: Sequence[str] = (),
              dimensions: Sequence[str] = DIMENSIONS) -> dict[str, Any]:
    """The ``breakdown`` section of report.json.

    ``{"dimensions": [...], "values": {dimension: [value, ...]}, "models": {model:
    {dimension: {value: cell}}}}``, where a cell is ``{"studies": n, "criteria":
    {criterion: {mean, ci_low, ci_high, n}}}`` (the overall means are the models section's).
    A study is in every cell of its values (one per dimension for design, source and area).
    Values are sorted by the number of studies of the run that have them, largest first,
    then by name.
    """
    ordered = sorted_records(records)
    per_study = per_study_values(ordered)
    counts: dict[str, dict[str, int]] = {d: {} for d in dimensions}
    for study in per_study:
        for dimension in dimensions:
            for value in study_values(tags, study, dimension):
                counts[dimension][value] = counts[dimension].get(value, 0) + 1
    values = {d: _by_count(c) for d, c in counts.items()}
    section: dict[str, Any] = {}
    draws = _Draws(settings)
    for model in model_order(ordered, models):
        mine = {s: by_model[model] for s, by_model in per_study.items() if model in by_model}
        entry: dict[str, Any] = {}
        for dimension in dimensions:
            entry[dimension] = {
                value: _cell({s: v for s, v in mine.items()
                              if value in study_values(tags, s, dimension)},
                             settings, f"{dimension}={value}", draws)
                for value in values[dimension]}
        section[model] = entry
    return {"dimensions": list(dimensions), "values": values, "models": section}
