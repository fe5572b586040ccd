"""Drift: golden verdict profiles per (model, study) and the comparison with a baseline run.

Pure modules (no pytest import): :mod:`~pytest_rwe.drift.profile` (what a snapshot keeps),
:mod:`~pytest_rwe.drift.diff` (what changed, in words), :mod:`~pytest_rwe.drift.baseline`
(this run against a saved report.json, and the drop gate) and :mod:`~pytest_rwe.drift.render`.
The syrupy extension lives in :mod:`~pytest_rwe.drift.extension`; the pytest glue in
:mod:`pytest_rwe.drift_plugin`.
"""

from pytest_rwe.drift.baseline import (
    compare_reports,
    drop_failures,
    gate_section,
    load_baseline,
    missing_responses,
    parse_max_drop,
    study_means,
)
from pytest_rwe.drift.diff import drift_message, profile_changes
from pytest_rwe.drift.profile import JurorNote, VerdictProfile, cited_numbers, verdict_profile

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
