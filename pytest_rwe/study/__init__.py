"""Study cases: the on-disk JSON format, its validation, and the typed objects parsed from it.

A study file is what an RWE pipeline emits (specified in docs/study-format.md). It is
validated with pydantic (:mod:`~pytest_rwe.study.schema`) and parsed once
(:mod:`~pytest_rwe.study.load`) into a :class:`Study` (:mod:`~pytest_rwe.study.model`);
results keys are read by :mod:`~pytest_rwe.study.result_keys`. Plausibility warnings are
:mod:`~pytest_rwe.study.checks`, tags and ``--rwe-select`` filters
:mod:`~pytest_rwe.study.selection`.
"""

from pytest_rwe.study.load import StudyLoad, load_folder, load_paths, load_study, parse_study
from pytest_rwe.study.model import (
    DESIGNS,
    EFFECT_MEASURES,
    OUTCOME_KINDS,
    Design,
    Measure,
    Outcome,
    Study,
    StudyFileError,
)
from pytest_rwe.study.result_keys import readable_name

__all__ = [
    "DESIGNS",
    "EFFECT_MEASURES",
    "OUTCOME_KINDS",
    "Design",
    "Measure",
    "Outcome",
    "Study",
    "StudyFileError",
    "StudyLoad",
    "load_folder",
    "load_paths",
    "load_study",
    "parse_study",
    "readable_name",
]
