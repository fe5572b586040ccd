"""Drift: golden verdict profiles per (model, study), kept as syrupy snapshots.

Pure modules (no pytest import): :mod:`~pytest_rwe.drift.profile` (what a snapshot keeps) and
:mod:`~pytest_rwe.drift.diff` (what changed, in words). The syrupy extension lives in
:mod:`~pytest_rwe.drift.extension`; the pytest glue in :mod:`pytest_rwe.plugin`.

The comparison with a baseline run and its drop gate moved to
:mod:`pytest_rwe.report.baseline`; their names are still served from here for one release,
with a :class:`DeprecationWarning`.
"""

from __future__ import annotations

import importlib
import warnings
from typing import TYPE_CHECKING, Any

from pytest_rwe.drift.diff import drift_message, profile_changes
from pytest_rwe.drift.profile import JurorNote, VerdictProfile, cited_numbers, verdict_profile

if TYPE_CHECKING:
    from pytest_rwe.report.baseline import (
        compare_reports,
        drop_failures,
        gate_section,
        load_baseline,
        missing_responses,
        parse_max_drop,
        study_means,
    )

#: names that moved to pytest_rwe.report.baseline (deprecated here, one release)
_MOVED = frozenset({"compare_reports", "drop_failures", "gate_section", "load_baseline",
                    "missing_responses", "parse_max_drop", "study_means"})

__all__ = [
    "JurorNote",
    "VerdictProfile",
    "cited_numbers",
    "compare_reports",
    "drift_message",
    "drop_failures",
    "gate_section",
    "load_baseline",
    "missing_responses",
    "parse_max_drop",
    "profile_changes",
    "study_means",
    "verdict_profile",
]

if not TYPE_CHECKING:
    def __getattr__(name: str) -> Any:
        if name not in _MOVED:
            raise AttributeError(f"module 'pytest_rwe.drift' has no attribute {name!r}")
        warnings.warn(f"pytest_rwe.drift.{name} is deprecated; import it from "
                      "pytest_rwe.report.baseline", DeprecationWarning, stacklevel=2)
        return getattr(importlib.import_module("pytest_rwe.report.baseline"), name)
