"""The study file's shape, validated with pydantic, and its errors in the user's terms."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from pytest_rwe.study.model import Design
from pytest_rwe.values import BaselineValues, parse_baseline, parse_size


class _Picot(BaseModel):
    model_config = ConfigDict(extra="allow")
    population: str
    intervention: str
    control: str | None = None
    outcome: str
    timeframe: str


class _Results(BaseModel):
    model_config = ConfigDict(extra="allow")
    intervention_size: int | None
    control_size: int | None
    baseline_differences: dict[str, BaselineValues] = {}
    outcomes: dict[str, Any]

    @field_validator("intervention_size", "control_size", mode="before")
    @classmethod
    def _size(cls, raw: object) -> int | None:
        return parse_size(raw)

    @field_validator("baseline_differences", mode="before")
    @classmethod
    def _baseline(cls, raw: object) -> dict[str, BaselineValues]:
        if raw is None:
            return {}
        if not isinstance(raw, Mapping):
            raise ValueError("expected an object {name: \"control X vs intervention Y\"}, or {}")
        return {str(k): parse_baseline(v) for k, v in raw.items()}


class StudyFile(BaseModel):
    model_config = ConfigDict(extra="allow")
    id: str
    design: Design
    question: str
    picot: _Picot
    results: _Results
    source: dict[str, Any] | str | None = None


def _json_path(loc: tuple[int | str, ...]) -> str:
    parts = ["$"]
    for item in loc:
        if isinstance(item, int):
            parts.append(f"[{item}]")
        elif re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", item):
            parts.append(f".{item}")
        else:
            parts.append(f"[{json.dumps(item)}]")
    return "".join(parts)


_FIXES = {
    "missing": "add this field",
    "literal_error": "use one of: cohort, case_series, cross_sectional",
    "string_type": "write a string",
    "dict_type": "write a JSON object",
}
# What a field must look like, for messages that would otherwise name pydantic's classes.
_SHAPES: dict[tuple[int | str, ...], str] = {
    ("picot",): ('write an object {"population": ..., "intervention": ..., "control": ..., '
                 '"outcome": ..., "timeframe": ...}'),
    ("results",): ('write an object {"intervention_size": ..., "control_size": ..., '
                   '"baseline_differences": {...}, "outcomes": {...}}'),
}


def problems_from(error: ValidationError) -> list[tuple[str, str]]:
    problems = []
    for item in error.errors():
        loc = item["loc"]
        if item["type"] == "value_error":
            message = str(item.get("ctx", {}).get("error", item["msg"]))
        elif item["type"] in ("model_type", "model_attributes_type", "dict_type") and (
                tuple(loc) in _SHAPES):
            message = f"expected an object, got {type(item['input']).__name__}; " + _SHAPES[
                tuple(loc)]
        else:
            fix = _FIXES.get(item["type"])
            message = item["msg"] + (f"; {fix}" if fix else "")
        problems.append((_json_path(tuple(loc)), message))
    return problems
