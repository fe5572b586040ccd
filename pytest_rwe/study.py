"""Study cases: the on-disk JSON format, its validation, and the typed objects parsed from it.

A study file is what an RWE pipeline emits (specified in docs/study-format.md). It is
validated with pydantic and parsed once into :class:`Study`; the raw mapping is kept so
prompts can render the original structure unchanged.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from pytest_rwe.values import (
    BaselineValues,
    Count,
    Estimate,
    PValue,
    parse_baseline,
    parse_count,
    parse_estimate,
    parse_percent,
    parse_pvalue,
    parse_size,
)

Design = Literal["cohort", "case_series", "cross_sectional"]
DESIGNS: tuple[Design, ...] = ("cohort", "case_series", "cross_sectional")


class Measure(str, Enum):
    """The statistic a results key carries after its ``!``."""

    OR = "OR"
    HR = "HR"
    RR = "RR"
    IRR = "IRR"  # incidence rate ratio
    MD = "MD"
    RD = "RD"  # risk difference, intervention minus control
    N = "N"
    PCT = "PCT"
    PVALUE = "pvalue"

    @property
    def is_ratio(self) -> bool:
        return self in (Measure.OR, Measure.HR, Measure.RR, Measure.IRR)

    @property
    def is_difference(self) -> bool:
        """A difference (intervention minus control, or after minus before): null is 0."""
        return self in (Measure.MD, Measure.RD)

    @property
    def is_effect(self) -> bool:
        """An estimate with a direction (a ratio or a difference)."""
        return self.is_ratio or self.is_difference

    @property
    def null(self) -> float:
        """The value of no effect: 1 for a ratio, 0 for a difference."""
        return 1.0 if self.is_ratio else 0.0


# The order in which an outcome's effect measure is chosen when it has several.
EFFECT_MEASURES: tuple[Measure, ...] = (Measure.HR, Measure.OR, Measure.RR, Measure.IRR,
                                        Measure.MD, Measure.RD)


OUTCOME_KINDS = ("bin", "cont", "pctpoints")
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


class StudyFileError(Exception):
    """A study file that cannot be used; names the file, each bad JSON path and the fix."""

    def __init__(self, path: Path | str, problems: list[tuple[str, str]]) -> None:
        self.path = Path(path)
        self.problems = problems  # (json path, message with fix)
        super().__init__(self.render())

    def render(self) -> str:
        lines = [f"{self.path}: invalid study file"]
        lines += [f"  {where}: {message}" for where, message in self.problems]
        return "\n".join(lines)


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


class _StudyFile(BaseModel):
    model_config = ConfigDict(extra="allow")
    id: str
    design: Design
    question: str
    picot: _Picot
    results: _Results
    source: dict[str, Any] | str | None = None


@dataclass(frozen=True)
class Outcome:
    """One outcome of a study: its estimates by measure and its p-value."""

    key: str  # the results key stem, e.g. "outcome_3yrs.ip.visit.for.asthma_bin"
    name: str  # readable, e.g. "ip visit for asthma"
    timepoint: str | None  # e.g. "3yrs"
    kind: str | None  # "bin", "cont", "pctpoints" or None when unmarked
    estimates: Mapping[Measure, Estimate]
    count: Count | None = None
    p: PValue | None = None

    @property
    def effect_measure(self) -> Measure | None:
        """The ratio or mean-difference measure, if the outcome has one."""
        for measure in EFFECT_MEASURES:
            if measure in self.estimates:
                return measure
        return None

    @property
    def effect(self) -> Estimate | None:
        measure = self.effect_measure
        return self.estimates[measure] if measure is not None else None

    @property
    def direction(self) -> Literal["higher", "lower", "none"] | None:
        """Direction in the intervention group (or after, for pre/post); None without an effect."""
        measure, effect = self.effect_measure, self.effect
        if measure is None or effect is None:
            return None
        null = measure.null
        if effect.value > null:
            return "higher"
        if effect.value < null:
            return "lower"
        return "none"

    @property
    def significant(self) -> bool | None:
        """p < 0.05; None when no p-value is reported."""
        return self.p.significant if self.p is not None else None

    @property
    def must_report(self) -> bool:
        """Completeness requires a mention when p <= 0.05."""
        return self.p is not None and self.p.at_most_level


@dataclass(frozen=True)
class Study:
    """A parsed study case; ``raw`` is the file's mapping, kept for prompt rendering."""

    id: str
    design: Design
    question: str
    picot: Mapping[str, str]
    intervention_size: int | None
    control_size: int | None
    baseline: Mapping[str, BaselineValues]
    outcomes: tuple[Outcome, ...]
    raw: Mapping[str, Any] = field(repr=False)
    path: Path | None = None

    @property
    def has_pvalues(self) -> bool:
        return any(o.p is not None for o in self.outcomes)


def readable_name(stem_name: str) -> tuple[str, str | None]:
    """Split "ip.visit.for.asthma_bin" into ("ip visit for asthma", "bin")."""
    kind = None
    for candidate in OUTCOME_KINDS:
        if stem_name.endswith("_" + candidate):
            kind = candidate
            stem_name = stem_name[: -len(candidate) - 1]
            break
    return re.sub(r"[._]+", " ", stem_name).strip(), kind


def _parse_outcomes(raw: Mapping[str, Any]) -> tuple[tuple[Outcome, ...], list[tuple[str, str]]]:
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


def _problems_from(error: ValidationError) -> list[tuple[str, str]]:
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


def parse_study(data: object, path: Path | str = "<memory>") -> Study:
    """Validate and parse a study mapping; raise :class:`StudyFileError` listing every problem."""
    if not isinstance(data, Mapping):
        raise StudyFileError(path, [("$", "a study file must hold one JSON object")])
    try:
        model = _StudyFile.model_validate(data)
    except ValidationError as exc:
        problems = _problems_from(exc)
        results = data.get("results")
        if isinstance(results, Mapping) and isinstance(results.get("outcomes"), Mapping):
            problems += _parse_outcomes(results["outcomes"])[1]  # report every problem at once
        raise StudyFileError(path, problems) from None
    outcomes, problems = _parse_outcomes(model.results.outcomes)
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.\-]*", model.id):
        problems.append(
            ("$.id", "use letters, digits, '_', '-' and '.' only, so it can name a test")
        )
    if model.design == "case_series" and model.results.control_size is not None:
        problems.append(("$.results.control_size", (
            "a case series has no control group; set control_size to null "
            "or change the design"
        )))
    if problems:
        raise StudyFileError(path, problems)
    return Study(
        id=model.id,
        design=model.design,
        question=model.question,
        picot={k: str(v) for k, v in data["picot"].items() if v is not None},
        intervention_size=model.results.intervention_size,
        control_size=model.results.control_size,
        baseline=model.results.baseline_differences,
        outcomes=outcomes,
        raw=data,
        path=Path(path) if not isinstance(path, Path) else path,
    )


def load_study(path: Path | str) -> Study:
    """Read and parse one study file."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise StudyFileError(path, [("$", f"cannot read the file: {exc.strerror}")]) from None
    except UnicodeDecodeError:
        raise StudyFileError(path, [("$", "the file is not UTF-8; save it as UTF-8")]) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise StudyFileError(path, [(
            "$", f"not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
        )]) from None
    return parse_study(data, path)


@dataclass(frozen=True)
class StudyLoad:
    """One file of a suite folder: its study, or the error that keeps it from running."""

    path: Path
    study: Study | None
    error: StudyFileError | None

    @property
    def id(self) -> str:
        return self.study.id if self.study is not None else self.path.stem


def load_folder(folder: Path | str) -> list[StudyLoad]:
    """Load every ``*.json`` under a folder, sorted by path; a bad file never hides the others.

    Two files with one id: the file that was there first (older modification time, then
    path order) keeps it, and the newcomer fails naming both, so adding a file can never
    break an established study.
    """
    return load_paths(sorted(Path(folder).rglob("*.json")))


def load_paths(paths: Iterable[Path | str]) -> list[StudyLoad]:
    """Load the given study files (see :func:`load_folder` for duplicate ids)."""
    loads: list[StudyLoad] = []
    for path in map(Path, paths):
        try:
            loads.append(StudyLoad(path, load_study(path), None))
        except StudyFileError as exc:
            loads.append(StudyLoad(path, None, exc))
    owners: dict[str, Path] = {}
    for load in sorted((x for x in loads if x.study is not None), key=_age):
        assert load.study is not None
        owners.setdefault(load.study.id, load.path)
    for index, load in enumerate(loads):
        if load.study is not None and owners[load.study.id] != load.path:
            first = owners[load.study.id]
            loads[index] = StudyLoad(load.path, None, StudyFileError(load.path, [(
                "$.id",
                f"id {load.study.id!r} is already used by {first} (the older file keeps it); "
                "give this study its own id",
            )]))
    return loads


def _age(load: StudyLoad) -> tuple[int, str]:
    try:
        modified = load.path.stat().st_mtime_ns
    except OSError:
        modified = 0
    return modified, str(load.path)
