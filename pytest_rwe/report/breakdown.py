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

from collections.abc import Mapping, Sequence
from typing import Any

from pytest_rwe.report.aggregate import Record, model_order, per_study_values, sorted_records
from pytest_rwe.report.config import ReportSettings
from pytest_rwe.stats import mean_ci
from pytest_rwe.verdict import CRITERIA

#: the dimensions of the breakdown, in report order
DIMENSIONS: tuple[str, ...] = ("design", "source", "area")
UNKNOWN = "unknown"

Tags = Mapping[str, Mapping[str, Sequence[str]]]  # study id -> tag key -> values


def _cell(values: Mapping[str, Mapping[str, float | None]], settings: ReportSettings,
          seed: str) -> dict[str, Any]:
    """``studies`` and, per criterion, the mean over studies with a value, its interval, n."""
    criteria: dict[str, Any] = {}
    for criterion in CRITERIA:
        xs = [x for v in values.values() if (x := v.get(criterion)) is not None]
        if not xs:
            criteria[criterion] = {"mean": None, "ci_low": None, "ci_high": None, "n": 0}
            continue
        ci = mean_ci(xs, resamples=settings.resamples, level=settings.level,
                     seed=f"{settings.seed}:{seed}:{criterion}")
        criteria[criterion] = {"mean": ci.mean, "ci_low": ci.low, "ci_high": ci.high,
                               "n": len(xs)}
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
    {"overall": cell, dimension: {value: cell}}}}``, where a cell is ``{"studies": n,
    "criteria": {criterion: {mean, ci_low, ci_high, n}}}``. A study is in every cell of its
    values (one per dimension for design, source and area). Values are sorted by the number
    of studies of the run that have them, largest first, then by name.
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
    for model in model_order(ordered, models):
        mine = {s: by_model[model] for s, by_model in per_study.items() if model in by_model}
        # seeded like the models section, so the overall cell is exactly its interval
        entry: dict[str, Any] = {"overall": _cell(mine, settings, model)}
        for dimension in dimensions:
            entry[dimension] = {
                value: _cell({s: v for s, v in mine.items()
                              if value in study_values(tags, s, dimension)},
                             settings, f"{model}:{dimension}={value}")
                for value in values[dimension]}
        section[model] = entry
    return {"dimensions": list(dimensions), "values": values, "models": section}
