"""Re-score a saved run with other weights or normalizing maxima, without calling any model.

Input is either a saved ``report.json`` (aggregates under ``models.<name>.criteria.<criterion>
.mean`` and ``models.<name>.inference_time.mean``; the run's own ``weights`` and
``normalize_max``, when recorded at the top level, are the starting point that options
override key by key) or a plain table ``{"models": {"<name>": {"<criterion>": mean, ...,
"inference_time": seconds}}}``. A model entry with a ``criteria`` object is read in the report
form; otherwise it is a plain row, whose keys must all be criteria or inference_time.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from pytest_rwe.criteria import label
from pytest_rwe.settings import read_numbers
from pytest_rwe.stats.rubric import (
    ALL_KEYS,
    COST,
    LOWER_IS_BETTER,
    RubricResult,
    active_keys,
    check_normalize_max,
    resolve_weights,
    score_models,
)
from pytest_rwe.verdict import CRITERIA, INFERENCE_TIME


class RescoreError(ValueError):
    """Bad input for a re-score; the message names the field and says what was expected."""


def parse_criterion_values(text: str, *, option: str = "--normalize-max",
                           keys: Sequence[str] = ALL_KEYS) -> dict[str, float]:
    """Parse ``"key=value,key=value"`` into numbers, with errors naming the option and key."""
    return read_numbers(text, option=option, keys=keys, check="finite", unique=True,
                        example=f"{option} {keys[0]}=1.0,{keys[-1]}=2")


def parse_weights(text: str, *, option: str = "--weights") -> dict[str, float]:
    """Parse ``"direction_of_effect=20,numbers_accurate=6"``; weights must be >= 0."""
    weights = parse_criterion_values(text, option=option)
    for key, value in weights.items():
        if value < 0:
            raise ValueError(f"{option}: weight {key}={value:g} must be >= 0 "
                             "(0 leaves the key out of the score)")
    return weights


def _number(value: object, field: str, key: str | None = None) -> float | None:
    """A finite number or None; with ``key``, also in that key's range (criteria: 0..1)."""
    if value is None:
        return None
    if (isinstance(value, bool) or not isinstance(value, (int, float))
            or not math.isfinite(value)):
        raise RescoreError(f"{field}: expected a number or null, got {value!r}")
    if key == INFERENCE_TIME and value < 0:
        raise RescoreError(f"{field}: an inference time in seconds cannot be negative ({value})")
    if key == COST and value < 0:
        raise RescoreError(f"{field}: a cost in USD cannot be negative ({value})")
    if key in CRITERIA and not 0 <= value <= 1:
        raise RescoreError(f"{field}: a criterion mean is a share of 0/1 scores in [0, 1], "
                           f"got {value}")
    return float(value)


def _mapping(value: object, field: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        kind = type(value).__name__
        raise RescoreError(f"{field}: expected an object, got {kind} {value!r:.60}")
    return value


def read_means(data: Mapping[str, Any]) -> dict[str, dict[str, float | None]]:
    """Per-model means from either input form (see the module docstring)."""
    if not isinstance(data, Mapping):
        raise RescoreError('expected a JSON object with a "models" field')
    if "models" not in data:
        raise RescoreError('models: missing; expected a report.json or a table '
                           '{"models": {"<name>": {"<criterion>": mean, ...}}}')
    models = _mapping(data["models"], "models")
    if not models:
        raise RescoreError("models: no models to score")
    means: dict[str, dict[str, float | None]] = {}
    for name, entry in models.items():
        entry = _mapping(entry, f"models.{name}")
        row: dict[str, float | None] = {}
        if "criteria" in entry:
            criteria = _mapping(entry["criteria"], f"models.{name}.criteria")
            for criterion in CRITERIA:
                field = f"models.{name}.criteria.{criterion}"
                if criterion in criteria:
                    cell = _mapping(criteria[criterion], field)
                    row[criterion] = _number(cell.get("mean"), f"{field}.mean", criterion)
            for key in LOWER_IS_BETTER:
                if key in entry:
                    field = f"models.{name}.{key}"
                    cell = _mapping(entry[key], field)
                    row[key] = _number(cell.get("mean"), f"{field}.mean", key)
        else:
            for key, value in entry.items():
                if key not in ALL_KEYS:
                    raise RescoreError(f"models.{name}.{key}: unknown key; a plain table row "
                                       f"has {', '.join(ALL_KEYS)}")
                row[key] = _number(value, f"models.{name}.{key}", key)
        means[name] = row
    return means


def _recorded(data: Mapping[str, Any], field: str) -> dict[str, float]:
    recorded = data.get(field)
    if recorded is None:
        return {}
    values = {k: _number(v, f"{field}.{k}") for k, v in _mapping(recorded, field).items()}
    return {k: v for k, v in values.items() if v is not None}


def rescore_result(data: Mapping[str, Any], weights: Mapping[str, float] | None = None,
                   normalize_max: Mapping[str, float] | None = None) -> RubricResult:
    """The rubric of a saved run; ``weights``/``normalize_max`` override the recorded ones."""
    means = read_means(data)
    merged_weights = {**_recorded(data, "weights"), **(weights or {})}
    merged_max = {**_recorded(data, "normalize_max"), **(normalize_max or {})}
    try:
        resolve_weights(merged_weights)
        check_normalize_max(merged_max)
        return score_models(means, weights=merged_weights, normalize_max=merged_max)
    except RescoreError:
        raise
    except ValueError as error:
        raise RescoreError(str(error)) from None


def rescore(data: Mapping[str, Any], weights: Mapping[str, float] | None = None,
            normalize_max: Mapping[str, float] | None = None) -> dict[str, Any]:
    """``{"models": {name: {"normalized", "score", "rank", "raw"}}, "weights", ...}``.

    ``score`` is 0..1 (None, with ``normalized`` empty, when normalization is undefined:
    fewer than two models with every weighted value; ``note`` says why). A normalized value
    is None (null in JSON, "-" in the table) for a key every model has the same mean on:
    it cannot rank them and is left out of the weighted sum (``undefined`` lists them).
    """
    return result_to_dict(rescore_result(data, weights, normalize_max))


def result_to_dict(result: RubricResult) -> dict[str, Any]:
    """The ``--json`` form of a rubric result."""
    return {
        "models": {
            name: {"normalized": dict(m.normalized), "score": m.score, "rank": m.rank,
                   "raw": dict(m.raw), "missing": list(m.missing)}
            for name, m in result.models.items()
        },
        "weights": dict(result.weights),
        "normalize_max": dict(result.normalize_max),
        "normalization_defined": result.normalization_defined,
        "undefined": list(result.undefined),
        "dropped": list(result.dropped),
        "note": result.note,
    }


_HEADERS = {**{key: label(key, unit=True) for key in (*CRITERIA, INFERENCE_TIME)},
            COST: "cost ($)"}


def format_table(result: RubricResult) -> str:
    """A plain-text table: raw means, normalized values ("-": undefined), score as a
    percentage, and rank, best first."""
    keys = active_keys(result.weights)
    rows = [["model", *(_HEADERS[k] for k in keys),
             *(f"norm {_HEADERS[k].split()[0]}" for k in keys), "score", "rank"]]
    for m in result.ranking():
        cells = [m.model]
        for key in keys:
            value = m.raw.get(key)
            cells.append("n/a" if value is None else f"{value:.2f}" if key == INFERENCE_TIME
                         else f"{value:.4f}" if key == COST else f"{value:.3f}")
        for key in keys:
            norm = m.normalized.get(key)
            cells.append("n/a" if key not in m.normalized else "-" if norm is None
                         else f"{norm:.2f}")
        cells.append("n/a" if m.score is None else f"{100 * m.score:.1f}%")
        cells.append("-" if m.rank is None else str(m.rank))
        rows.append(cells)
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                       for i, (c, w) in enumerate(zip(row, widths, strict=True))).rstrip()
             for row in rows]
    lines.append("weights: " + ", ".join(f"{k}={v:g}" for k, v in result.weights.items()))
    if result.normalize_max:
        lines.append("normalize-max: " + ", ".join(f"{k}={v:g}"
                                                   for k, v in result.normalize_max.items()))
    if result.note:
        lines.append(f"note: {result.note}")
    return "\n".join(lines)
