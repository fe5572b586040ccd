"""A parsed study: its design, outcomes and measures (pure, no pydantic).

Parsed once from the file (:mod:`pytest_rwe.study.load`); the raw mapping is kept so
prompts can render the original structure unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any, Literal

from pytest_rwe.values import BaselineValues, Count, Estimate, PValue

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
