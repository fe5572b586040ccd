"""THE criterion table: every fact about a criterion, in one place (stdlib only).

Every consumer reads this table: the verdict types, the judge prompt files, the rubric's
default weights, the pass thresholds, the short labels of the terminal, Markdown, HTML and
``rwe rescore`` tables, and the builtin rules juror (which raises on a criterion it has no
rule for, rather than judging it as another). Adding a criterion is a row here plus its name
in the ``Criterion`` literal beside it (a test checks that they agree), its judge prompt file,
and optionally a rule in the rules juror; docs/architecture.md says what data follows.

A weight or threshold change is a quality-gate event, like a prompt change.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, cast


@dataclass(frozen=True)
class CriterionSpec:
    """One criterion the jury scores (0 or 1) on every summary."""

    name: str  # the key in judge replies, reports, options and stored judge files
    label: str  # its short label in tables
    title: str  # its display name (headings, the deepeval metric)
    weight: float  # its default rubric weight (DESIGN.md: 20 / 6 / 5)
    threshold: float  # its default pass threshold on the jury mean
    prompt: str  # the judge template's file name (pytest_rwe/prompts/, cases/prompts/)
    meaning: str  # what a score of 1 means, in one line

    @property
    def criterion(self) -> Criterion:
        return cast(Criterion, self.name)


TABLE: tuple[CriterionSpec, ...] = (
    CriterionSpec("direction_of_effect", "direction", "Direction of Effect", 20.0, 0.5,
                  "judge_direction_of_effect.txt",
                  "every direction the summary reports matches the results"),
    CriterionSpec("numbers_accurate", "numbers", "Numbers Accurate", 6.0, 0.5,
                  "judge_numbers_accurate.txt",
                  "every number in the summary comes from the study, rounding allowed"),
    CriterionSpec("completeness", "complete", "Completeness", 5.0, 0.5,
                  "judge_completeness.txt",
                  "every outcome with p <= 0.05 is reported as a difference"),
)
#: the names of TABLE, in its order (a Literal cannot be built from data: a test compares)
Criterion = Literal["direction_of_effect", "numbers_accurate", "completeness"]
CRITERIA: tuple[Criterion, ...] = tuple(spec.criterion for spec in TABLE)

#: the rubric's fourth key: mean seconds per summary (lower is better)
INFERENCE_TIME = "inference_time"
INFERENCE_TIME_LABEL = "time"
INFERENCE_TIME_WEIGHT = 3.0

_BY_NAME = {spec.name: spec for spec in TABLE}


def check_criterion(name: str) -> Criterion:
    """Return ``name`` as a criterion, or raise ValueError listing the valid names."""
    if name not in _BY_NAME:
        raise ValueError(f"unknown criterion {name!r}; use one of {', '.join(CRITERIA)}")
    return cast(Criterion, name)


def spec(name: str) -> CriterionSpec:
    """The row of criterion ``name`` (ValueError naming the valid ones when unknown)."""
    return _BY_NAME[check_criterion(name)]


def label(key: str, *, unit: bool = False) -> str:
    """The short label of a rubric key: a criterion, ``inference_time`` ("time", with
    ``unit`` "time (s)"); any other key is its own label."""
    if key == INFERENCE_TIME:
        return f"{INFERENCE_TIME_LABEL} (s)" if unit else INFERENCE_TIME_LABEL
    found = _BY_NAME.get(key)
    return found.label if found is not None else key


def default_weights() -> dict[str, float]:
    """The rubric's default weights: each criterion's, then inference time's."""
    return {**{s.name: s.weight for s in TABLE}, INFERENCE_TIME: INFERENCE_TIME_WEIGHT}


def default_thresholds() -> dict[Criterion, float]:
    """Each criterion's default pass threshold on the jury mean."""
    return {s.criterion: s.threshold for s in TABLE}
